#!/usr/bin/env bash
# test/run_fleet_tests.sh — the tests of a fleet's central results database
# (test/fleet/*.t): a throwaway Postgres (test/pg_cluster.sh) holds it, the
# results schema loaded as plain SQL, as a central database without the
# extension would have it, and fleet/roles.sql's two roles with a login
# each: host_a and host_b push, alice reads.  Stops the cluster whatever
# happens.  Expects the client built (make); 02_playbook.t also needs
# ansible-playbook and Debian's Postgres 15 (test/install_deps.sh).
#
#   test/run_fleet_tests.sh [test/fleet/NN_name.t ...]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
dir=$(mktemp -d /tmp/microbench-fleet-test.XXXXXX)
chmod 755 "$dir"
port=${MB_TEST_FLEET_PORT:-5493}
trap '"$here/pg_cluster.sh" stop "$dir"' EXIT

eval "$("$here/pg_cluster.sh" start "$dir" "$port")"
createdb central
for f in "$root"/results_schema/upgrade/*.sql "$root"/results_schema/*.sql "$root"/fleet/roles.sql; do
    psql -X -q -d central -v ON_ERROR_STOP=1 -f "$f" >/dev/null 2>&1 ||
        { echo "cannot load $f into the central database" >&2; psql -X -q -d central -v ON_ERROR_STOP=1 -f "$f" >/dev/null; }
done
psql -X -q -d central -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE host_a LOGIN IN ROLE microbench_pusher" \
    -c "CREATE ROLE host_b LOGIN IN ROLE microbench_pusher" \
    -c "CREATE ROLE alice LOGIN IN ROLE microbench_reader" >/dev/null

export MB="$root/client/microbench"
export MB_ROOT="$root"
export MB_CENTRAL_DIR="$dir"
export MB_CENTRAL="host=$PGHOST port=$PGPORT dbname=central"
tests=("$here"/fleet/*.t)
if [ $# -gt 0 ]; then tests=("$@"); fi
prove ${PROVE_FLAGS:---failures --timer} "${tests[@]}"

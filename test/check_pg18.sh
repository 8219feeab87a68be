#!/usr/bin/env bash
# test/check_pg18.sh — build the extension against PostgreSQL 18 and run the
# pgTAP tests on a throwaway 18 cluster.  A manual check, not part of CI
# (CI has only Debian's Postgres 15).
#
#   PG18_PREFIX=/opt/pg18 test/check_pg18.sh [test/sql/NN_name.sql ...]
#
# Expects PostgreSQL 18 already installed at $PG18_PREFIX (default
# /opt/pg18) with contrib/pg_stat_statements and pgTAP built against it, and
# pg_prove on PATH.  The build happens in a temporary copy of the repository,
# so the work tree's objects (built for the default pg_config) are left
# alone; the extension is installed into $PG18_PREFIX.  The cluster listens
# on MB_TEST_PORT (default 5520 here).  As root, $PG18_PREFIX must be
# readable and executable by user postgres.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PG18_PREFIX:-/opt/pg18}
pg_config=$prefix/bin/pg_config

[ -x "$pg_config" ] || { echo "check_pg18: no $pg_config (set PG18_PREFIX)" >&2; exit 1; }
version=$("$pg_config" --version)
case "$version" in
"PostgreSQL 18"*) ;;
*) echo "check_pg18: $pg_config is $version, not 18" >&2; exit 1 ;;
esac
sharedir=$("$pg_config" --sharedir)
for ext in pgtap pg_stat_statements; do
    [ -f "$sharedir/extension/$ext.control" ] \
        || { echo "check_pg18: $ext is not installed in $prefix" >&2; exit 1; }
done
command -v pg_prove >/dev/null || { echo "check_pg18: pg_prove not found" >&2; exit 1; }

# test files given as arguments are taken relative to the repository
tests=()
for t in "$@"; do
    case "$t" in
    /*) tests+=("$t") ;;
    *) tests+=("$repo/$t") ;;
    esac
done

work=$(mktemp -d /tmp/microbench-pg18.XXXXXX)
trap 'rm -rf "$work"' EXIT
tar -C "$repo" --exclude=.git -cf - . | tar -C "$work" -xf -

export PATH=$prefix/bin:$PATH PG_CONFIG=$pg_config
export MB_TEST_PORT=${MB_TEST_PORT:-5520}
echo "check_pg18: $version at $prefix, building in $work"
make -C "$work" clean >/dev/null
make -C "$work" install
"$work/test/run_pg_tests.sh" "${tests[@]}"

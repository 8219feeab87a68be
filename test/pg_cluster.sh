#!/usr/bin/env bash
# test/pg_cluster.sh — start or stop a throwaway Postgres cluster.
#
#   test/pg_cluster.sh start DIR [PORT]   initdb in DIR/data, socket in DIR
#   test/pg_cluster.sh stop DIR
#   test/pg_cluster.sh pg_ctl DIR ARG...  pg_ctl ARG... on DIR's cluster, as
#                                         its owner, logging to DIR/server.log
#                                         (a test that crashes and restarts it)
#
# Used by the tests, the demo and the benchmark.  The cluster listens only
# on a unix socket in DIR, trusts local connections (DIR is private), and
# has room for many benchmark workers.  initdb and pg_ctl refuse to run as
# root, so as root the cluster runs as the unprivileged user "postgres".
# Prints the environment to reach it: PGHOST, PGPORT, PGUSER.
set -euo pipefail

cmd=${1:?usage: pg_cluster.sh start|stop|pg_ctl DIR [PORT | ARG...]}
dir=${2:?usage: pg_cluster.sh start|stop|pg_ctl DIR [PORT | ARG...]}
port=${3:-5499}
bindir=$("${PG_CONFIG:-pg_config}" --bindir)

as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$cmd" in
start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
    chmod 700 "$dir"
    owner=$(as_owner id -un)
    as_owner "$bindir/initdb" -D "$dir/data" -U "$owner" --auth=trust \
        --no-sync -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$dir'
port = $port
max_worker_processes = 40
max_connections = 60
shared_buffers = 256MB
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = all
pg_stat_statements.max = 10000
log_min_messages = warning
CONF
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    echo "export PGHOST='$dir' PGPORT=$port PGUSER='$owner'"
    ;;
pg_ctl)
    shift 2
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 120 "$@" >/dev/null
    ;;
stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: pg_cluster.sh start|stop|pg_ctl DIR [PORT | ARG...]" >&2
    exit 2
    ;;
esac

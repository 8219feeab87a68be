#!/usr/bin/env bash
# test/pg/load_recovery.t — bench_prepare's directly written tables survive
# a crash, on a private cluster this test starts and crashes.
#
# bench_prepare writes the sbtest heap pages and visibility map itself,
# bypassing shared buffers (microbench.direct_load), so the WAL records it
# writes must be enough to rebuild them.  The hard form of that check: load,
# crash (pg_ctl stop -m immediate), delete the table's files, start, and
# compare the rows and the visibility map with what was there.  Replay can
# only rebuild what the WAL holds: for a large table, WAL a parallel worker
# wrote (with the heap's pages) while the backend filled the next pages.  The same under wal_level = minimal,
# where the commit itself logs a small new table (read back through shared
# buffers from the files the load wrote) or fsyncs a large one.  And a
# CHECKPOINT that begins while a load runs: the load must then sync the
# table itself, and say so at DEBUG1 (skipped if the checkpoint missed the
# load).  A build without the direct path (DIRECT_PAGES=no) loads through
# Postgres's bulk-insert path, and the same checks hold.
#
# Run by test/pg_suite.sh on throwaway clusters only (it starts another
# cluster with PG_CONFIG's binaries on PGPORT + 1000, or
# MB_TEST_RECOVERY_PORT); skipped on a server the tests did not start.
set -u
. "$(dirname "$0")/../tap.sh"

if [ "${MB_TEST_EXISTING_SERVER:-0}" = 1 ]; then
    echo "ok 1 # skip crashes and restarts a cluster of its own; make test runs it"
    tap_count=1
    done_testing
    exit $?
fi

here=$(cd "$(dirname "$0")/.." && pwd)
# the cluster's directory; pg_cluster.sh stop removes it, whatever happens
dir=$(mktemp -d /tmp/microbench-recovery.XXXXXX)
port=${MB_TEST_RECOVERY_PORT:-$((${PGPORT:-5432} + 1000))}
trap '"$here/pg_cluster.sh" stop "$dir" >/dev/null 2>&1' EXIT
eval "$("$here/pg_cluster.sh" start "$dir" "$port")" || { echo "Bail out! cannot start a cluster on port $port"; exit 1; }
export PGDATABASE=postgres

pgctl() { "$here/pg_cluster.sh" pg_ctl "$dir" "$@"; }
restart() { pgctl -m "$1" stop; pgctl start; }
q() { psql -X -A -t -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "$1" 2>&1; }
rows_md5() { q "SELECT md5(string_agg(concat_ws('|', ctid, id, k, c, pad), ',' ORDER BY id)) FROM sbtest1"; }
redo_lsn() { q "SELECT redo_lsn FROM pg_control_checkpoint()"; }
# all-visible pages of sbtest1 / its pages, as ANALYZE counts them from the map
visible_pages() { q "ANALYZE sbtest1" >/dev/null; q "SELECT relallvisible || '/' || relpages FROM pg_class WHERE relname = 'sbtest1'"; }
# pages holding rows, as "n/n" (every page on the direct path; Postgres's
# bulk insert leaves a few empty ones at the end on 16 and later)
all_pages() { q "SELECT n || '/' || pg_relation_size('sbtest1') / current_setting('block_size')::int FROM (SELECT count(DISTINCT (ctid::text::point)[0]) AS n FROM sbtest1) s"; }
frozen_pages() { q "SELECT all_frozen || '/' || (pg_relation_size('sbtest1') / current_setting('block_size')::int) FROM pg_visibility_map_summary('sbtest1')"; }

# crash_and_remove_table: crash, then delete sbtest1's heap, map and
# free-space files and its indexes' files
crash_and_remove_table() {
    local file pkey k
    file=$(q "SELECT pg_relation_filepath('sbtest1')")
    pkey=$(q "SELECT pg_relation_filepath('sbtest1_pkey')")
    k=$(q "SELECT pg_relation_filepath('k_1')")
    pgctl -m immediate stop
    rm -f "$dir/data/$file" "$dir/data/${file}_vm" "$dir/data/${file}_fsm" "$dir/data/$pkey" "$dir/data/$k"
    ok "$([ -n "$file" ] && [ ! -e "$dir/data/$file" ] && [ ! -e "$dir/data/${file}_vm" ] &&
          [ -n "$pkey" ] && [ ! -e "$dir/data/$pkey" ] && [ -n "$k" ] && [ ! -e "$dir/data/$k" ]; echo $?)" \
        "$1: the table's and its indexes' files are gone before the restart"
    pgctl start
}
# the ids an index-only scan of the primary key finds, and their sum
ids_via_pkey() {
    q "SET enable_seqscan = off; SET enable_bitmapscan = off; SELECT count(id) || ' ids, sum ' || sum(id) FROM sbtest1 WHERE id > 0"
}
# the same of k, through k_1 (compared with what a scan of the table
# found before the crash: a broken k_1 fails any query that plans with it)
k_via_index() {
    q "SET enable_seqscan = off; SET enable_bitmapscan = off; SELECT count(k) || ' ks, sum ' || sum(k) FROM sbtest1 WHERE k > 0"
}
k_via_table() {
    q "SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off; SELECT count(k) || ' ks, sum ' || sum(k) FROM sbtest1 WHERE k > 0"
}

q "ALTER SYSTEM SET checkpoint_timeout = '1d'" >/dev/null
q "ALTER SYSTEM SET max_wal_size = '4GB'" >/dev/null
q "SELECT pg_reload_conf()" >/dev/null
q "CREATE EXTENSION microbench" >/dev/null
visibility=0
if [ "$(q "SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_visibility'")" = 1 ]; then
    q "CREATE EXTENSION pg_visibility" >/dev/null && visibility=1
fi
amcheck=0
if [ "$(q "SELECT count(*) FROM pg_available_extensions WHERE name = 'amcheck'")" = 1 ]; then
    q "CREATE EXTENSION amcheck" >/dev/null && amcheck=1
fi
check_frozen() {
    if [ "$visibility" = 1 ]; then
        is "$(frozen_pages)" "$(all_pages)" "$1: every page all-frozen in the visibility map"
    else
        echo "ok $((tap_count + 1)) # skip pg_visibility is not installed: all-frozen bits not checked"
        tap_count=$((tap_count + 1))
    fi
}

# ---- wal_level = replica: the pages' WAL rebuilds the table --------------------------
is "$(q "LOAD 'microbench'; SHOW microbench.direct_load")" on "the direct load is the default"
direct_pages=$(q "LOAD 'microbench'; SHOW microbench.direct_pages")
safe_path=direct
[ "$direct_pages" = on ] || safe_path="bulk-insert, frozen"
# replica_crash LABEL ROWS HELPER: bench_prepare, crash, remove the table's
# files, restart, compare.  From 100k rows on, a parallel worker logs the
# pages while the backend fills the next ones (HELPER yes): then the rows can
# only come back if the worker's records are complete and in order.
replica_crash() {
    local label=$1 rows=$2 helper=$3 want redo_before
    q "CHECKPOINT" >/dev/null
    redo_before=$(redo_lsn)
    PGOPTIONS="-c client_min_messages=debug1" psql -X -A -t -q -v ON_ERROR_STOP=1 \
        -c "SELECT count(*) FROM bench_prepare(1, $rows, seed => 11)" >/dev/null 2>"$dir/prepare.err"
    if [ "$direct_pages" = off ]; then
        echo "ok $((tap_count + 1)) # skip this build has no direct path (DIRECT_PAGES=no): Postgres's bulk insert wrote the pages"
        tap_count=$((tap_count + 1))
    elif [ "$helper" = yes ]; then
        ok "$(grep -q 'a parallel helper wrote' "$dir/prepare.err"; echo $?)" \
            "$label: a parallel worker logged and wrote the heap's pages (DEBUG1)"
    else
        ok "$(! grep -q 'a parallel helper wrote' "$dir/prepare.err"; echo $?)" \
            "$label: the backend logged and wrote the pages itself (no helper for a small table)"
    fi
    want=$(rows_md5)
    want_ids=$(ids_via_pkey)
    want_k=$(k_via_table)
    is "$want_ids" "$rows ids, sum $((rows * (rows + 1) / 2))" "$label: the primary key finds every id"
    ok "$([[ $want_k =~ ^$rows\ ks,\ sum\ [0-9]+$ ]]; echo $?)" "$label: a scan of the table finds every row's k ($want_k)"
    is "$(k_via_index)" "$want_k" "$label: ... and so does k_1"
    is "$(visible_pages)" "$(all_pages)" "$label: after the load every page is all-visible"
    is "$(redo_lsn)" "$redo_before" "$label: no checkpoint between the load and the crash (replay must start before the load)"
    crash_and_remove_table "$label"
    is "$(rows_md5)" "$want" "$label: after the crash, replay rebuilt the removed table: the same rows in the same places"
    is "$(visible_pages)" "$(all_pages)" "$label: ... and the visibility map, every page all-visible"
    check_frozen "$label"
    is "$(ids_via_pkey)" "$want_ids" "$label: ... and the primary key, built from the load, finds every id"
    is "$(k_via_index)" "$want_k" "$label: ... and k_1, built from the load, finds every row's k"
    if [ "$amcheck" = 1 ]; then
        is "$(q "SELECT bt_index_parent_check('sbtest1_pkey', true, true), bt_index_parent_check('k_1', true, true)")" "|" \
            "$label: ... and amcheck finds both indexes sound"
    else
        echo "ok $((tap_count + 1)) # skip amcheck is not installed: the replayed indexes are not checked"
        tap_count=$((tap_count + 1))
    fi
}
replica_crash "replica, 30k rows" 30000 no
replica_crash "replica, 120k rows" 120000 yes

# ---- a checkpoint that begins during the load ----------------------------------------
# the load alone (no index builds after it), long enough for a CHECKPOINT
# started once it shows as active to begin inside it
q "CHECKPOINT" >/dev/null
PGOPTIONS="-c client_min_messages=debug1" psql -X -A -t -q -v ON_ERROR_STOP=1 \
    -c "BEGIN" -c "DROP TABLE sbtest1" \
    -c "CREATE TABLE sbtest1 (id serial NOT NULL, k integer NOT NULL DEFAULT 0, c char(120) NOT NULL DEFAULT '', pad char(60) NOT NULL DEFAULT '')" \
    -c "CREATE UNIQUE INDEX sbtest1_pkey ON sbtest1 (id)" -c "CREATE INDEX k_1 ON sbtest1 (k)" \
    -c "SELECT microbench_load_table('sbtest1', 600000, 13)" -c "COMMIT" >"$dir/load.out" 2>"$dir/load.err" &
load_pid=$!
for i in $(seq 1000); do
    [ "$(q "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT microbench_load_table%' AND state = 'active'")" = 1 ] && break
    sleep 0.01
done
q "CHECKPOINT" >/dev/null
wait "$load_pid"
is "$?:$(cat "$dir/load.out")" "0:$safe_path" "a load with a CHECKPOINT beside it succeeds"
# (said at DEBUG1 by the loader on Postgres 15, by Postgres's bulk writer on 17+)
if grep -q "a checkpoint began during the load\|flushed relation because a checkpoint occurred concurrently" "$dir/load.err"; then
    want=$(rows_md5)
    want_k=$(k_via_table)
    restart immediate
    is "$(rows_md5)" "$want" "the checkpoint fell inside the load, which synced the table itself; after a crash the rows are there"
    is "$(ids_via_pkey)" "600000 ids, sum 180000300000" "... and its primary key (synced too) finds every id"
    is "$(k_via_index)" "$want_k" "... and so does k_1"
else
    echo "ok $((tap_count + 1)) # skip the checkpoint did not begin while the load ran"
    echo "ok $((tap_count + 2)) # skip the checkpoint did not begin while the load ran"
    echo "ok $((tap_count + 3)) # skip the checkpoint did not begin while the load ran"
    tap_count=$((tap_count + 3))
fi

# ---- wal_level = minimal: the commit logs or syncs the new table ---------------------
q "ALTER SYSTEM SET wal_level = minimal" >/dev/null
q "ALTER SYSTEM SET max_wal_senders = 0" >/dev/null
restart fast
is "$(q "SHOW wal_level")" minimal "the cluster now runs with wal_level = minimal"
# 2000 rows are about 440 kB, under wal_skip_threshold (2 MB): the commit
# WAL-logs the pages, reading them through shared buffers from the file
q "CHECKPOINT" >/dev/null
q "SELECT count(*) FROM bench_prepare(1, 2000, seed => 12)" >/dev/null
want=$(rows_md5)
want_k=$(k_via_table)
crash_and_remove_table minimal
is "$(rows_md5)" "$want" "minimal: a small table is logged at commit from the written pages; replay rebuilt it"
is "$(visible_pages)" "$(all_pages)" "minimal: ... every page all-visible"
is "$(ids_via_pkey)" "2000 ids, sum 2001000" "minimal: ... and its primary key"
is "$(k_via_index)" "$want_k" "minimal: ... and k_1"
# 30000 rows (6.6 MB): the commit fsyncs the files instead
q "SELECT count(*) FROM bench_prepare(1, 30000, seed => 11)" >/dev/null
want=$(rows_md5)
want_k=$(k_via_table)
restart immediate
is "$(rows_md5)" "$want" "minimal: a large table, synced at commit, has its rows after a crash"
is "$(visible_pages)" "$(all_pages)" "minimal: ... every page all-visible"
is "$(ids_via_pkey)" "30000 ids, sum 450015000" "minimal: ... and its primary key"
is "$(k_via_index)" "$want_k" "minimal: ... and k_1"
check_frozen minimal

done_testing

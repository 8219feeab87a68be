#!/usr/bin/env bash
# 02_statements.t — over the wire, the server executes exactly what it
# executes in-server, workload by workload: the same statement texts with
# the same calls per event in pg_stat_statements, plus the BEGIN and
# COMMIT that a client sends (the extension counts them but runs its
# transactions without sending them).  The in-server statements are
# themselves checked against docs/workloads.md by test/sql/05_statements.sql,
# so this holds the wire driver to the catalog.  Then the simple protocol
# (--db-ps-mode=disable) runs the same statements with their values
# written in, and each event commits exactly once (pg_stat_database).
set -u
. "$(dirname "$0")/tap.sh"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
events=40

# The workload's statements since the last reset, "calls query" per line:
# those on the sbtest tables (the literals pg_stat_statements replaces
# with $n cannot hold a table name), and BEGIN and COMMIT; not the set-up
# queries before the window (the extension's max(id), a scan's row count).
statements() {
    pg_value "SELECT calls || ' ' || query FROM (
                  SELECT query, sum(calls) AS calls FROM pg_stat_statements
                  WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                    AND (query ~ '\\msbtest[0-9]+\\M' OR query IN ('BEGIN', 'COMMIT'))
                    AND query !~ '^SELECT (COUNT|count)\\(\\*\\) FROM (public\\.)?sbtest[0-9]+$'
                    AND query !~ '^SELECT coalesce\\(max\\(id\\)'
                  GROUP BY query) s
              ORDER BY query"
}

for w in $("$MB" list | awk 'NR > 1 { print $1 }'); do
    tx=$(pg_value "SELECT in_transaction FROM microbench.workloads WHERE name = '$w'")
    pg_value "SELECT pg_stat_statements_reset()" >/dev/null
    in_events=$(pg_value "SELECT events FROM bench_run('$w', warmup => 0, events => $events, tables => 1)")
    in_server=$(statements)
    pg_value "SELECT pg_stat_statements_reset()" >/dev/null
    : >"$out"
    mbp --time=0 --events=$events --warmup-time=0 --results-file="$out" run "$w" >/dev/null 2>&1
    wire_events=$(json_field "$(cat "$out")" events)
    have=$(statements | sort -k2)
    is "$in_events $wire_events" "$events $events" "$w: $events events in-server and over the wire"
    is "$(grep -Ev ' (BEGIN|COMMIT)$' <<<"$have")" "$(sort -k2 <<<"$in_server")" \
       "$w: the statements and calls per event of the in-server run"
    if [ "$tx" = t ]; then
        # prepared, as sysbench's driver prepares them: pg_stat_statements before 16 counts the
        # executions of a prepared utility statement as one call (the per-event backend work with
        # them is checked under valgrind, test/compare/11_like_sysbench.t)
        like "$(grep -E ' (BEGIN|COMMIT)$' <<<"$have" | awk '{ print $2 }' | tr '\n' ' ')" '^BEGIN COMMIT $' \
             "$w: BEGIN and COMMIT around each event"
    fi
done

# ---- the simple protocol: the same statements, values written in
pg_value "SELECT pg_stat_statements_reset()" >/dev/null
: >"$out"
mbp --time=0 --events=$events --warmup-time=0 --db-ps-mode=disable --results-file="$out" \
    run read-write_range=10 >/dev/null 2>&1
is "$(json_field "$(cat "$out")" ps_mode)" disable "--db-ps-mode=disable is recorded"
pg_value "SELECT pg_stat_statements_reset()" >/dev/null
pg_value "SELECT count(*) FROM bench_run('read-write_range=10', warmup => 0, events => $events, tables => 1, ps_mode => 'disable')" >/dev/null
in_server=$(statements)
pg_value "SELECT pg_stat_statements_reset()" >/dev/null
mbp --time=0 --events=$events --warmup-time=0 --db-ps-mode=disable --results-file="$out" \
    run read-write_range=10 >/dev/null 2>&1
have=$(statements | sort -k2)
want=$(printf '%s\n%s BEGIN\n%s COMMIT\n' "$in_server" "$events" "$events" | sort -k2)
is "$have" "$want" "read-write --db-ps-mode=disable: the in-server statements, plus BEGIN and COMMIT"

# ---- one commit per event: the commits of two runs differ by their events
# A backend publishes its counters when it exits; the client's sessions
# (clients, monitor, checks) are gone once no session of it is left.  The
# counters are read from database postgres, so that reading them adds no
# commit to the test database's.
commits() {
    local i
    for i in $(seq 200); do
        [ "$(psql -X -A -t -q -d postgres -c "SELECT count(*) FROM pg_stat_activity
                                              WHERE application_name = 'microbench'")" = 0 ] && break
        sleep 0.1
    done
    psql -X -A -t -q -d postgres -c "SELECT xact_commit || ' ' || xact_rollback
                                     FROM pg_stat_database WHERE datname = '$MB_PG_DB'"
}
commit_delta() {            # commit_delta EVENTS WORKLOAD: "commits rollbacks" of one run
    local before after
    before=$(commits)
    mbp --time=0 --events="$1" --warmup-time=0 --results-file="$out" run "$2" >/dev/null 2>&1
    after=$(commits)
    echo "$(( ${after% *} - ${before% *} )) $(( ${after#* } - ${before#* } ))"
}
for w in point-query read-write_range=10; do
    read -r c1 r1 < <(commit_delta 100 "$w")
    read -r c2 r2 < <(commit_delta 400 "$w")
    is "$((c2 - c1)) $r1 $r2" "300 0 0" "$w: 300 more events, 300 more commits, no rollback"
done

done_testing

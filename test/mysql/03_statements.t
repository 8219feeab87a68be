#!/usr/bin/env bash
# 03_statements.t — the server executed exactly the statements the catalog
# says, per event: server-side prepared statements (Com_stmt_execute), BEGIN
# and COMMIT sent for transaction workloads only, and the statement texts
# (the general query log).  With --warmup-time=0 every event is counted.
set -u
. "$(dirname "$0")/tap.sh"

out=$(mktemp)
trap 'rm -f "$out"' EXIT

# run WORKLOAD, print "events executes begins commits"
deltas() {
    local e0 b0 c0 e1 b1 c1 events
    e0=$(my_status COM_STMT_EXECUTE); b0=$(my_status COM_BEGIN); c0=$(my_status COM_COMMIT)
    : >"$out"
    mbm --table-size=5000 --time=1 --warmup-time=0 --results-file="$out" run "$1" >/dev/null 2>&1
    e1=$(my_status COM_STMT_EXECUTE); b1=$(my_status COM_BEGIN); c1=$(my_status COM_COMMIT)
    events=$(json_field "$(cat "$out")" events)
    echo "$events $((e1 - e0)) $((b1 - b0)) $((c1 - c0))"
}

read -r ev ex b c < <(deltas point-query)
is "$ex $b $c" "$ev 0 0" "point-query: one prepared execute per event, no BEGIN/COMMIT ($ev events)"

read -r ev ex b c < <(deltas read-only_range=10)
is "$ex $b $c" "$((14 * ev)) $ev $ev" "read-only: 14 executes, one BEGIN and one COMMIT per event ($ev events)"

read -r ev ex b c < <(deltas write-only)
is "$ex $b $c" "$((4 * ev)) $ev $ev" "write-only: 4 executes, one BEGIN and one COMMIT per event ($ev events)"

read -r ev ex b c < <(deltas update-index)
is "$ex $b $c" "$ev 0 0" "update-index: one autocommit execute per event ($ev events)"

# statement texts, with their values: the general query log (as a table)
# records every prepared statement execution ("Execute") in full
my_value "SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = 1"
read -r ev ex b c < <(deltas read-write_range=10)
my_value "SET GLOBAL general_log = 0"
executed() {
    my_value "SELECT COUNT(*) FROM mysql.general_log WHERE command_type = 'Execute'
              AND CONVERT(argument USING utf8mb4) REGEXP '$1'"
}
is "$(executed '^SELECT c FROM sbtest1 WHERE id = [0-9]+$')" "$((10 * ev))" "read-write: ten point selects per event ($ev events)"
is "$(executed '^SELECT c FROM sbtest1 WHERE id BETWEEN [0-9]+ AND [0-9]+$')" "$ev" "read-write: one simple range per event"
is "$(executed '^SELECT SUM\\(k\\) FROM sbtest1 WHERE id BETWEEN [0-9]+ AND [0-9]+$')" "$ev" "read-write: one sum range per event"
is "$(executed '^SELECT c FROM sbtest1 WHERE id BETWEEN [0-9]+ AND [0-9]+ ORDER BY c$')" "$ev" "read-write: one order range per event"
is "$(executed '^SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN [0-9]+ AND [0-9]+ ORDER BY c$')" "$ev" "read-write: one distinct range per event"
is "$(executed '^UPDATE sbtest1 SET k = k \\+ 1 WHERE id = [0-9]+$')" "$ev" "read-write: one update-index per event"
is "$(executed "^UPDATE sbtest1 SET c = ''[0-9-]{119}'' WHERE id = [0-9]+\$")" "$ev" "read-write: one update-nonindex per event"
is "$(executed '^DELETE FROM sbtest1 WHERE id = [0-9]+$')" "$ev" "read-write: one delete per event"
is "$(executed "^INSERT INTO sbtest1 \\\\(id, k, c, pad\\\\) VALUES \\\\([0-9]+, [0-9]+, ''[0-9-]{119}'', ''[0-9-]{59}''\\\\)\$")" "$ev" \
   "read-write: one insert per event"
is "$(my_value "SELECT COUNT(*) FROM mysql.general_log WHERE command_type = 'Execute'")" "$((18 * ev))" \
   "read-write: nothing else was executed"
ranges_ok=$(my_value "SELECT COUNT(*) FROM mysql.general_log WHERE command_type = 'Execute'
    AND CONVERT(argument USING utf8mb4) REGEXP 'BETWEEN'
    AND CAST(REGEXP_SUBSTR(REGEXP_SUBSTR(CONVERT(argument USING utf8mb4), 'AND [0-9]+'), '[0-9]+') AS SIGNED)
      - CAST(REGEXP_SUBSTR(REGEXP_SUBSTR(CONVERT(argument USING utf8mb4), 'BETWEEN [0-9]+'), '[0-9]+') AS SIGNED) = 9")
is "$ranges_ok" "$((4 * ev))" "read-write_range=10: every range is BETWEEN x AND x+9"
y_ok=$(my_value "SELECT COUNT(*) FROM mysql.general_log d JOIN mysql.general_log i
    ON i.thread_id = d.thread_id AND i.event_time >= d.event_time
    AND CONVERT(d.argument USING utf8mb4) REGEXP '^DELETE'
    AND CONVERT(i.argument USING utf8mb4) REGEXP '^INSERT'
    AND REGEXP_SUBSTR(CONVERT(d.argument USING utf8mb4), '[0-9]+$') =
        REGEXP_SUBSTR(REGEXP_SUBSTR(CONVERT(i.argument USING utf8mb4), 'VALUES \\\\([0-9]+'), '[0-9]+')")
ok $(( y_ok >= ev ? 0 : 1 )) "read-write: the insert re-inserts the id just deleted"
my_value "TRUNCATE mysql.general_log"

done_testing

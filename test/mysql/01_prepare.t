#!/usr/bin/env bash
# 01_prepare.t — prepare creates and loads the tables exactly as docs/workloads.md
# says: AUTO_INCREMENT id primary key, k in range, c/pad templates, index k_N
# created after the load; tables beyond --tables are dropped.
set -u
. "$(dirname "$0")/tap.sh"

mbm --tables=3 --table-size=100 prepare >/dev/null
mbm --tables=2 --table-size=5000 --rand-seed=3 prepare >/dev/null
ok $? "prepare --tables=2 --table-size=5000 succeeds"

is "$(my_value "SELECT COUNT(*) FROM sbtest1")" 5000 "sbtest1 has table-size rows"
is "$(my_value "SELECT CONCAT(MIN(id), '-', MAX(id), '-', COUNT(DISTINCT id)) FROM sbtest2")" "1-5000-5000" \
   "ids are 1 .. table-size"
is "$(my_value "SHOW TABLES LIKE 'sbtest3'")" "" "the extra table sbtest3 of an earlier prepare is dropped"
is "$(my_value "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='sbtest' AND TABLE_NAME='sbtest1' ORDER BY ORDINAL_POSITION" | tr '\n' ' ')" \
   "id k c pad " "columns id, k, c, pad"
is "$(my_value "SELECT CONCAT(COLUMN_TYPE, ' ', EXTRA) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='sbtest' AND TABLE_NAME='sbtest1' AND COLUMN_NAME='id'")" \
   "int(11) auto_increment" "id is an AUTO_INCREMENT integer"
is "$(my_value "SELECT GROUP_CONCAT(COLUMN_TYPE ORDER BY ORDINAL_POSITION) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='sbtest' AND TABLE_NAME='sbtest1' AND COLUMN_NAME IN ('c','pad')")" \
   "char(120),char(60)" "c is char(120), pad char(60)"
is "$(my_value "SELECT GROUP_CONCAT(INDEX_NAME, ':', COLUMN_NAME ORDER BY INDEX_NAME) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA='sbtest' AND TABLE_NAME='sbtest2'")" \
   "k_2:k,PRIMARY:id" "primary key on id and index k_2 on k"
is "$(my_value "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbtest' AND TABLE_NAME='sbtest1'")" \
   "InnoDB" "the engine is InnoDB by default"
is "$(my_value "SELECT SUM(k BETWEEN 1 AND 5000) FROM sbtest1")" 5000 "k is in [1, table-size]"
is "$(my_value "SELECT SUM(c REGEXP '^([0-9]{11}-){9}[0-9]{11}\$' AND pad REGEXP '^([0-9]{11}-){4}[0-9]{11}\$') FROM sbtest1")" \
   5000 "c is ten and pad five groups of 11 digits joined by -"
# One seed, the same rows in every DBMS: bench_prepare with the same seed
# in Postgres (a scratch database of the results server, when the extension
# is installed there) must load exactly these rows.
rows_md5_my() {
    my_value "SET SESSION group_concat_max_len = 100000000;
              SELECT MD5(GROUP_CONCAT(CONCAT_WS('|', id, k, c, pad) ORDER BY id SEPARATOR ',')) FROM $1"
}
pg_scratch="$MB_RESULTS_DB dbname=microbench_same_rows"
if [ "$(pg_value "SELECT count(*) FROM pg_available_extensions WHERE name = 'microbench'")" = 1 ]; then
    psql -X -q -d "$MB_RESULTS_DB" -c "DROP DATABASE IF EXISTS microbench_same_rows" -c "CREATE DATABASE microbench_same_rows" 2>/dev/null
    psql -X -q -d "$pg_scratch" -c "SET client_min_messages = warning" -c "CREATE EXTENSION microbench" \
        -c "SELECT count(*) FROM bench_prepare(2, 5000, seed => 3)" >/dev/null
    for t in sbtest1 sbtest2; do
        is "$(rows_md5_my "$t")" \
           "$(psql -X -A -t -q -d "$pg_scratch" -c "SELECT md5(string_agg(concat_ws('|', id, k, c::text, pad::text), ',' ORDER BY id)) FROM $t")" \
           "--rand-seed=3 loads the same rows into $t as bench_prepare(seed => 3) in Postgres"
    done
    psql -X -q -d "$MB_RESULTS_DB" -c "DROP DATABASE microbench_same_rows"
else
    echo "ok $((tap_count + 1)) # skip the microbench extension is not installed in the results server's Postgres"
    tap_count=$((tap_count + 1))
fi
# Where the server refuses LOAD DATA LOCAL, the same rows go in as
# multi-row INSERTs of bound values, and prepare says so once
md5_local=$(rows_md5_my sbtest1)
local_infile=$(my_value "SELECT @@GLOBAL.local_infile")
my_value "SET GLOBAL local_infile = 0"
out=$(mbm --tables=2 --table-size=5000 --rand-seed=3 prepare 2>&1)
ok $? "prepare succeeds with local_infile = OFF"
is "$(grep -c '^note: LOAD DATA LOCAL INFILE refused (.*); loading with multi-row INSERTs$' <<<"$out")" 1 \
   "... saying once that it loads with multi-row INSERTs ($(grep -m1 '^note' <<<"$out"))"
is "$(rows_md5_my sbtest1)" "$md5_local" "... and loading the same rows as LOAD DATA LOCAL"
my_value "SET GLOBAL local_infile = $local_infile"
my_value "INSERT INTO sbtest1 (k, c, pad) VALUES (1, 'x', 'y')"
is "$(my_value "SELECT MAX(id) FROM sbtest1")" 5001 "AUTO_INCREMENT continues after the load"
mbm --tables=2 --table-size=5000 --rand-seed=3 prepare >/dev/null

done_testing

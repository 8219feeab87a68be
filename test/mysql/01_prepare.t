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
my_value "INSERT INTO sbtest1 (k, c, pad) VALUES (1, 'x', 'y')"
is "$(my_value "SELECT MAX(id) FROM sbtest1")" 5001 "AUTO_INCREMENT continues after the load"
mbm --tables=2 --table-size=5000 --rand-seed=3 prepare >/dev/null

done_testing

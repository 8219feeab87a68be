#!/usr/bin/env bash
# 05_errors.t — bad requests and unreachable servers: one line on stderr,
# exit code 2, and the password never shows.
set -u
. "$(dirname "$0")/tap.sh"

err=$(mktemp)
trap 'rm -f "$err"' EXIT

# expect_bad NAME COMMAND...: exit 2 and exactly one line on stderr
expect_bad() {
    local name=$1; shift
    "$@" >/dev/null 2>"$err"
    local rc=$?
    is "$rc:$(wc -l <"$err")" "2:1" "$name: exit 2 with one line ($(head -c 120 "$err"))"
}

expect_bad "unknown option" mbm --no-such-option run point-query
expect_bad "bad number" mbm --threads=many run point-query
expect_bad "negative time" mbm --time=-3 run point-query
expect_bad "unknown workload" mbm run no-such-workload
expect_bad "unknown rand type" mbm --rand-type=bogus run point-query
expect_bad "unknown phase" mbm --phase=middle run point-query
expect_bad "no command" mbm
expect_bad "unreachable server" env MYSQL_PWD=x "$MBM" --mysql-host=127.0.0.1 --mysql-port=1 --mysql-user=bench run point-query
expect_bad "missing database" mbm --mysql-db=no_such_db run point-query
expect_bad "zero time" mbm --time=0 run point-query
expect_bad "NaN time" mbm --time=nan run point-query
expect_bad "absurd time" mbm --time=1e12 run point-query
expect_bad "negative range size" mbm --range-size=-5 run read-only_range=10
expect_bad "zero threads" mbm --threads=0 run point-query

# the run options (docs/run-options.md)
expect_bad "unknown --db-ps-mode" mbm --db-ps-mode=sometimes run point-query
expect_bad "negative --rate" mbm --rate=-5 run point-query
expect_bad "NaN --rate" mbm --rate=nan run point-query
expect_bad "--events=0" mbm --events=0 run point-query
expect_bad "--time=0 without --events" mbm --time=0 run point-query
grep -q -- "needs --events" "$err"
ok $? "... says it needs --events"
expect_bad "--ignore-errors=2013 (lost connection)" mbm --ignore-errors=2013 run point-query
grep -q "error 2013 cannot be ignored" "$err"
ok $? "... says the error cannot be ignored"
expect_bad "--ignore-errors=1213,2006" mbm --ignore-errors=1213,2006 run point-query
expect_bad "--ignore-errors=1927 (connection killed)" mbm --ignore-errors=1927 run point-query
expect_bad "--ignore-errors=abc" mbm --ignore-errors=abc run point-query
grep -q 'not "abc"' "$err"
ok $? "... names what is not an error number"
expect_bad "--reconnect=-1" mbm --reconnect=-1 run point-query
expect_bad "--events in a suite" mbm --events=100 suite

# more tables than prepare made, or none at all: say to run prepare
expect_bad "more tables than exist" mbm --tables=9 run point-query
grep -q -E "^microbench: table sbtest[2-9] does not exist in database sbtest \(--tables=9\): run prepare with --tables=9$" "$err"
ok $? "... names the missing table and says to run prepare"
my_value "CREATE DATABASE mb_empty"
expect_bad "no sbtest table" mbm --mysql-db=mb_empty run point-query
is "$(cat "$err")" "microbench: table sbtest1 does not exist in database mb_empty: run prepare first" \
   "... says to run prepare"
expect_bad "no sbtest table, in a suite" mbm --mysql-db=mb_empty --read-time=1 suite
my_value "DROP DATABASE mb_empty"

# a password on the command line is refused, and not repeated
expect_bad "password in --results-db (key=value)" mbm --results-db="host=/tmp dbname=x password=Pw-in-conninfo" run point-query
grep -q "use PGPASSWORD or ~/.pgpass" "$err" && ! grep -q "Pw-in-conninfo" "$err"
ok $? "... says to use PGPASSWORD or ~/.pgpass, without the password"
expect_bad "password in --results-db (URI)" mbm --results-db="postgresql://me:Pw-in-uri@localhost/x" run point-query
grep -q "use PGPASSWORD or ~/.pgpass" "$err" && ! grep -q "Pw-in-uri" "$err"
ok $? "... says to use PGPASSWORD or ~/.pgpass, without the password"
expect_bad "password in --results-db (URI parameter)" mbm --results-db="postgresql:///x?password=Pw-in-param" run point-query
grep -q "Pw-in-param" "$err"
ok $((! $?)) "... without the password"
expect_bad "malformed --results-db" mbm --results-db="host=x nonsense Pw-in-junk" run point-query
grep -q "Pw-in-junk" "$err"
ok $((! $?)) "... without repeating it"
expect_bad "a password option" mbm --mysql-password=Pw-as-option run point-query
grep -q "MYSQL_PWD" "$err" && ! grep -q "Pw-as-option" "$err"
ok $? "... says where the password comes from, without the password"
expect_bad "-p with a password" mbm -pPw-short run point-query
grep -q "Pw-short" "$err"
ok $((! $?)) "... without the password"

MYSQL_PWD='S3cr3t-Wr0ng' "$MBM" --mysql-host=127.0.0.1 --mysql-port="$MYSQL_PORT" --mysql-user=bench \
    --time=1 run point-query >/dev/null 2>"$err"
rc=$?
is "$rc:$(wc -l <"$err")" "2:1" "wrong password: exit 2 with one line"
grep -q "Access denied" "$err"
ok $? "wrong password: the server's reason is shown"
grep -q "S3cr3t-Wr0ng" "$err"
ok $((! $?)) "wrong password: the password itself is not shown"

"$MBM" --help | grep -qi "password comes from MYSQL_PWD"
ok $? "--help says where the password comes from"

done_testing

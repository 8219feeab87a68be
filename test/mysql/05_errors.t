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

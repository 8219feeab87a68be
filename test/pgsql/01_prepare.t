#!/usr/bin/env bash
# 01_prepare.t — the pgsql driver's prepare loads with COPY exactly the
# tables the extension's bench_prepare makes: the same columns, indexes
# and, for one seed, the same rows; cleanup drops them; and bad requests
# (wrong port, wrong password, missing tables, options of the other
# driver, a password in --pgsql-db, codes that are not SQLSTATEs) get one
# line and exit 2 without connecting or loading anything.
set -u
. "$(dirname "$0")/tap.sh"

out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# ---- the same tables and rows as bench_prepare, for one seed
pg_value "CREATE SCHEMA inserver; CREATE SCHEMA wire" >/dev/null
pg_value "SELECT count(*) FROM bench_prepare(2, 3000, seed => 42, target_schema => 'inserver')" >/dev/null
# a conninfo in --pgsql-db: libpq's options put the tables in schema wire
wire_db="dbname=$MB_PG_DB options=-csearch_path=wire"
"$MB" --db-driver=pgsql --pgsql-db="$wire_db" --tables=2 --table-size=3000 --rand-seed=42 \
    --threads=2 prepare >"$out" 2>"$err"
is "$?" 0 "prepare --tables=2 --table-size=3000 --rand-seed=42 succeeds"
is "$(grep -c '^loaded sbtest' "$out")" 2 "it says it loaded both tables"

fingerprint() {             # fingerprint SCHEMA TABLE: md5 of every row in id order
    pg_value "SELECT md5(string_agg(format('%s|%s|%s|%s', id, k, c, pad), ',' ORDER BY id))
              FROM $1.$2"
}
is "$(fingerprint wire sbtest1)" "$(fingerprint inserver sbtest1)" "sbtest1: the same rows as bench_prepare(seed => 42)"
is "$(fingerprint wire sbtest2)" "$(fingerprint inserver sbtest2)" "sbtest2: the same rows as bench_prepare(seed => 42)"
shape() {                   # shape SCHEMA: columns with types, defaults, indexes
    pg_value "SELECT string_agg(format('%s.%s %s %s %s', c.relname, a.attname,
                                       format_type(a.atttypid, a.atttypmod), a.attnotnull,
                                       pg_get_expr(d.adbin, d.adrelid)), '; '
                                ORDER BY c.relname, a.attnum)
              FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
              LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
              WHERE n.nspname = '$1' AND c.relkind = 'r'" | sed "s/$1\\.//g"
    pg_value "SELECT string_agg(replace(indexdef, ' $1.', ' '), '; ' ORDER BY indexname)
              FROM pg_indexes WHERE schemaname = '$1'"
}
have=$(shape wire)
is "$have" "$(shape inserver | sed 's/inserver/wire/g')" "the same columns, types, defaults and indexes as bench_prepare"
ok "$(grep -q 'k_1 ON' <<<"$have"; echo $?)" "the secondary index k_1 is there"

# loading again with the seed gives the same rows again
"$MB" --db-driver=pgsql --pgsql-db="$wire_db" --tables=2 --table-size=3000 --rand-seed=42 prepare >/dev/null 2>&1
is "$(fingerprint wire sbtest2)" "$(fingerprint inserver sbtest2)" "prepare again with the seed: the same rows"

# fewer tables than before: the extra one is dropped, as the mysql driver does
"$MB" --db-driver=pgsql --pgsql-db="$wire_db" --tables=1 --table-size=100 prepare >/dev/null 2>&1
is "$(pg_value "SELECT count(*) FROM pg_tables WHERE schemaname = 'wire'")" 1 "prepare --tables=1 drops sbtest2"
is "$(pg_value "SELECT count(*) FROM wire.sbtest1")" 100 "... and loads sbtest1 with 100 rows"

"$MB" --db-driver=pgsql --pgsql-db="$wire_db" cleanup >/dev/null 2>&1
is "$?" 0 "cleanup succeeds"
is "$(pg_value "SELECT count(*) FROM pg_tables WHERE schemaname = 'wire'")" 0 "cleanup drops the tables"
pg_value "DROP SCHEMA inserver CASCADE; DROP SCHEMA wire CASCADE" >/dev/null 2>&1

# ---- bad input: one line on stderr, exit 2
bad() {                     # bad PATTERN NAME ARGS...: exit 2 and one line matching PATTERN
    local pattern=$1 name=$2; shift 2
    "$@" >"$out" 2>"$err"
    local rc=$?
    is "$rc $(wc -l <"$err" | tr -d ' ')" "2 1" "$name: exit 2, one line"
    ok "$(grep -Eq "$pattern" "$err"; echo $?)" "$name: says $(head -c 150 "$err")"
}
bad '^microbench: cannot connect to the Postgres server' "no server on the port" \
    "$MB" --db-driver=pgsql --pgsql-db="$MB_PG_DB" --pgsql-port=1 --time=1 run point-query
PGPASSWORD=not-the-right-one bad '^microbench: cannot connect to the Postgres server: .*password' \
    "wrong password" "$MB" --db-driver=pgsql --pgsql-db="$MB_PG_DB" --pgsql-user=mb_password_user \
    --time=1 run point-query
ok "$(grep -q 'not-the-right-one' "$err" "$out"; [ $? = 1 ]; echo $?)" "wrong password: the password is not repeated"
bad 'table sbtest2 does not exist.*run prepare with --tables=3' "missing table" \
    mbp --tables=3 --time=1 run point-query
bad '^microbench: --mysql-host is for --db-driver=mysql' "a mysql option with pgsql" \
    mbp --mysql-host=localhost --time=1 run point-query
bad '^microbench: --pgsql-db must not contain a password' "a password in --pgsql-db" \
    "$MB" --db-driver=pgsql --pgsql-db="dbname=sbtest password=sekrit99" --time=1 run point-query
ok "$(grep -q sekrit99 "$err"; [ $? = 1 ]; echo $?)" "a password in --pgsql-db is not repeated"
bad 'takes SQLSTATEs such as 40P01' "a MySQL error number for pgsql" \
    mbp --ignore-errors=1213 --time=1 run point-query
bad 'SQLSTATE 08006 cannot be ignored' "a connection error cannot be ignored" \
    mbp --ignore-errors=40P01,08006 --time=1 run point-query
bad 'SQLSTATE 57014 cannot be ignored' "a cancel cannot be ignored" \
    mbp --ignore-errors=57014 --time=1 run point-query
bad '^microbench: --db-driver must be mysql or pgsql' "an unknown driver" \
    "$MB" --db-driver=oracle --time=1 run point-query

done_testing

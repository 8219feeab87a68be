#!/usr/bin/env bash
# 03_mariadb.t — the same tests with Debian's mariadbd named twice: A/A
# gives no difference; innodb_flush_log_at_trx_commit=2 for one label makes
# its write cell significant and above 1.
set -u
. "$(dirname "$0")/lib.sh"

out="$scratch/aa"
# A/A runs use --confidence 0.999: at the default 95% a correct comparison
# still calls about one A/A cell in twenty a difference, more on a machine
# whose load changes during the run, and a test must not fail by chance.
"$MB" compare --mariadb a="$MARIADBD" --mariadb b="$MARIADBD" --rounds 2 --max-minutes 0 --seconds 1 --warmup 0.2 --confidence 0.999 \
    --workloads point-query,update-index --table-size 10000 --out "$out" >"$scratch/out" 2>&1
ok $? "A/A on MariaDB: exit 0"
is "$(wc -l <"$out/runs.jsonl")" 8 "runs.jsonl holds 2 labels x 2 workloads x 2 rounds"
is "$(runs_of "$out/runs.jsonl" | awk '{ print $3 }' | sort -u)" mariadb "the runs are MariaDB's"
is "$(cells "$out/report.txt" | grep -vcE '[=?]$')" 0 "A/A: no cell is a difference (each marked = or ?)"
grep -q '^-- ma: MariaDB$' "$out/report.txt"; ok $? "the report says what ma means"
is "$(python3 -c '
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
states = {}
for r in runs:
    states.setdefault(r["workload"], set()).add(json.dumps(r["data_state"], sort_keys=True))
print(len({r["instance"] for r in runs}), " ".join(str(len(s)) for w, s in sorted(states.items())))' "$out/runs.jsonl")" \
   "8 1 1" "every run on a server start of its own, every run of a workload on the same data"
is "$(servers_left)" 0 "no server left running"

# a mariadbd killed mid-run: that run fails, the comparison goes on
out="$scratch/killed"
"$MB" compare --mariadb a="$MARIADBD" --mariadb b="$MARIADBD" --rounds 2 --max-minutes 0 --seconds 3 --warmup 0.2 \
    --workloads point-query --table-size 10000 --out "$out" >"$scratch/killed.out" 2>&1 &
pid=$!
# the server of the first run, once its client is measuring (not while it starts)
server=""
for i in $(seq 600); do
    if pgrep -f -- "$work_dir_re/my\\.sock .* run point-query" >/dev/null; then
        server=$(pgrep -f -- "--datadir=$work_dir_re/run " | head -1)
    fi
    [ -n "$server" ] && break
    sleep 0.1
done
sleep 1
kill -9 "$server"
wait "$pid"
is "$?" 1 "a mariadbd killed mid-run: exit 1 at the end"
is "$(python3 -c 'import json,sys; m = json.load(open(sys.argv[1])); print(m["runs"]["failed"], m["runs"]["done"])' "$out/manifest.json")" \
   "1 3" "... that run failed, the other three were done"
is "$(servers_left)" 0 "no server left running"

# The positive control.  Its effect is large (several-fold) but rides on
# fsync, whose speed swings with whatever else writes to the disk: with four
# rounds a side, a busy disk once left a 5.4-fold change inside the
# interval (Welch with 3 degrees of freedom).  Eight rounds a side narrow the
# interval about twofold.
out="$scratch/flush"
"$MB" compare --mariadb flush1="$MARIADBD" --mariadb flush2="$MARIADBD" \
    --set flush2:innodb_flush_log_at_trx_commit=2 --rounds 8 --max-minutes 0 --seconds 1 --warmup 0.2 \
    --workloads update-index --table-size 10000 --out "$out" >"$scratch/out" 2>&1
ok $? "innodb_flush_log_at_trx_commit 1 against 2: exit 0"
cell=$(grep -E 'update-index$' "$out/report.txt" | awk '{ print $1 }')
case $cell in *[=?]) sig=no ;; *) sig=yes ;; esac
is "$sig:$(awk -v c="${cell%[=?]}" 'BEGIN { print (c > 1) }')" "yes:1" \
   "update-index is a difference, above 1 (cell $cell)" \
    || python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print("#   %s %s qps %s" % (r["label"], r["started_at"], r.get("qps")))' "$out/runs.jsonl"
is "$(servers_left)" 0 "no server left running"
# MySQL 8.4 has no install-db: its mysqld makes the data directory
# (--initialize-insecure) and knows root without a password.  Oracle's
# server cannot be had here, so a stand-in that says it is MySQL 8.4 plays
# that part over the real mariadbd: what it checks is the runner's side
# (no install-db looked for, the server asked to initialize, root); the
# runs themselves say mariadb, as the server they reach does.
standin_dir="$scratch/mysql84"   # the server's user (mysql) runs it: scratch must let it through
chmod 711 "$scratch" && mkdir -p "$standin_dir/bin" && chmod 755 "$standin_dir" "$standin_dir/bin"
cat >"$standin_dir/bin/mysqld" <<STANDIN
#!/bin/sh
# a stand-in for MySQL 8.4's mysqld, over mariadbd
case " \$* " in
*" --version "*) echo "\$0  Ver 8.4.0 for Linux on x86_64 (MySQL Community Server - GPL)"; exit 0 ;;
*" --initialize-insecure "*)
    echo "stand-in: --initialize-insecure" >&2
    set -- \$(for a in "\$@"; do case \$a in --datadir=*|--user=*) echo "\$a" ;; esac; done)
    exec mariadb-install-db --no-defaults "\$@" --auth-root-authentication-method=normal --skip-test-db ;;
esac
set -- \$(for a in "\$@"; do case \$a in --basedir=*) echo --basedir=/usr ;; *) echo "\$a" ;; esac; done)
exec "$MARIADBD" "\$@"
STANDIN
chmod 755 "$standin_dir/bin/mysqld"
out="$scratch/mysql"
"$MB" compare --mysql a="$standin_dir/bin/mysqld" --mysql b="$standin_dir/bin/mysqld" --rounds 1 --max-minutes 0 \
    --seconds 0.5 --warmup 0.2 --workloads point-query --table-size 5000 --out "$out" >"$scratch/out" 2>&1
ok $? "MySQL 8.4 (a stand-in): exit 0 ($(tail -1 "$scratch/out"))"
is "$(grep -c 'stand-in: --initialize-insecure' "$out/logs/install-db.log")" 1 \
   "... its data made by the server itself (--initialize-insecure), once"
is "$(python3 -c 'import json,sys; m = json.load(open(sys.argv[1]))
print(" ".join(b["dbms"] + ":" + b["version"].split(" Ver ")[1].split()[0] for b in m["builds"]), m["runs"]["done"])' "$out/manifest.json")" \
   "mysql:8.4.0 mysql:8.4.0 2" "... the manifest names both builds MySQL 8.4.0, both runs done"
is "$(servers_left)" 0 "no server left running"

done_testing

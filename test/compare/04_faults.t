#!/usr/bin/env bash
# 04_faults.t — bad input is refused before anything starts; a build that
# does not start is named with its log; Ctrl-C in round 2 stops every
# server, keeps round 1's runs and exits 130; SIGTERM in a counted round 2,
# whose builds run side by side, stops both sides and their servers.
set -u
. "$(dirname "$0")/lib.sh"

left_before=$(work_dirs_left)
refused() {   # refused WANT_MESSAGE_REGEX DESCRIPTION ARGS...
    local want=$1 desc=$2; shift 2
    "$MB" compare "$@" --out "$scratch/refused" >"$scratch/out" 2>"$scratch/err"
    local rc=$?
    is "$rc:$(grep -cE -e "$want" "$scratch/err"):$([ -e "$scratch/refused" ] && echo made || echo none)" "2:1:none" \
       "$desc: exit 2, one clear line, nothing made"
}
refused 'not a Postgres installation' "a path that is not a Postgres installation" \
    --pg a="$PG_PREFIX" --pg b=/usr/share
refused 'label "a" is used twice for postgres' "a label used twice" --pg a="$PG_PREFIX" --pg a="$PG_PREFIX"
refused "--rounds must be a number from 1 to 1000" "--rounds 0" --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --rounds 0
refused 'has nothing to be compared with' "a single build" --pg a="$PG_PREFIX"
# a second "build" whose programs are the first's: its own bin directory,
# but the same module directory (as Debian's patched source tree gives)
mkdir -p "$scratch/twin/bin"
for p in pg_config postgres initdb pg_ctl psql; do ln -s "$PG_PREFIX/bin/$p" "$scratch/twin/bin/$p"; done
refused 'different builds that share their pkglibdir' "two builds that would load the same modules" \
    --pg a="$PG_PREFIX" --pg b="$scratch/twin"
refused 'no build is labelled "c"' "--set for a label no build has" --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --set c:jit=off
refused 'no mariadb build is labelled "b"' "--set mariadb/b: when only Postgres builds are labelled b" \
    --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --set mariadb/b:innodb_flush_log_at_trx_commit=2
refused 'the DBMS before / is postgres, mariadb or mysql' "--set with an unknown DBMS" \
    --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --set oracle/b:x=1
refused 'give them the same label' "Postgres and MariaDB builds whose first labels (the base) differ" \
    --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --mariadb x="$MARIADBD" --mariadb b="$MARIADBD"
TMPDIR=/tmp/$(printf 'd%.0s' $(seq 70)) refused 'TMPDIR is 75 characters long, over 64' \
    "a TMPDIR too long for the sockets in the work directory" --pg a="$PG_PREFIX" --pg b="$PG_PREFIX"
is "$(servers_left):$(work_dirs_left)" "0:$left_before" "refused requests started nothing"

# a build that cannot start: a setting its server refuses
out="$scratch/nostart"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --set b:shared_buffers=lots --rounds 1 --max-minutes 0 --seconds 0.5 \
    --workloads point-query --table-size 1000 --out "$out" >"$scratch/out" 2>"$scratch/err"
is "$?" 1 "a build that does not start: exit 1"
grep -qE "^microbench compare: b \(.*\) did not start; see $out/logs/server.log$" "$scratch/err"
ok $? "the message names the build and its log file"
grep -q 'shared_buffers' "$out/logs/server.log"; ok $? "the log says why"
is "$(servers_left):$(work_dirs_left)" "0:$left_before" "the build that did start was stopped; no work directory left"

# Ctrl-C during round 2.  A job started in the background of a script
# ignores SIGINT (POSIX) unless job control is on, as it is in a terminal;
# and a shell that starts with SIGINT ignored (this test run from a
# background job, say) cannot trap it.  So SIGINT is set back to its
# default for the comparison, as a terminal would have it.
out="$scratch/int"
set -m
python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
    "$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --rounds 3 --max-minutes 0 --seconds 1 --warmup 0.2 \
    --workloads point-query --table-size 10000 --out "$out" >"$scratch/int.out" 2>"$scratch/int.err" &
pid=$!
set +m
# round 2 may take minutes to come on a busy machine: wait for it (or for
# the comparison to end by itself, which the checks below then show)
until grep -q '^== round 2' "$scratch/int.out" 2>/dev/null || ! kill -0 "$pid" 2>/dev/null \
        || [ "$SECONDS" -gt 900 ]; do
    sleep 0.1
done
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
is "$rc" 130 "Ctrl-C in round 2: exit 130"
if [ "$rc" != 130 ]; then   # on stderr, which prove shows
    { echo "# what it printed:"; sed 's/^/#   /' "$scratch/int.out" "$scratch/int.err" | tail -30; } >&2
fi
grep -q 'interrupted by SIGINT' "$scratch/int.err"; ok $? "it says it was interrupted"
is "$(servers_left)" 0 "every server it started is stopped"
is "$(work_dirs_left)" "$left_before" "no work directory left"
is "$(awk '{ print $1 }' < <(runs_of "$out/runs.jsonl") | head -2 | sort | paste -sd' ' -)" "a b" \
   "round 1's runs are in runs.jsonl"
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' "$out/manifest.json")" \
   "interrupted by SIGINT" "the manifest says the comparison was interrupted"

# SIGTERM while a counted round 2 runs its builds side by side, a process
# each: the sides stop their servers and end, the runner keeps what they
# measured and leaves nothing behind
out="$scratch/term"
"$MB" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --metric instructions --rounds 3 --max-minutes 0 \
    --workloads point-query,update-index --table-size 10000 --out "$out" >"$scratch/term.out" 2>"$scratch/term.err" &
pid=$!
until grep -q '^== round 2' "$scratch/term.out" 2>/dev/null || ! kill -0 "$pid" 2>/dev/null \
        || [ "$SECONDS" -gt 1500 ]; do
    sleep 0.1
done
sleep 2
is "$(pgrep -fc -- "--out $out" || true)" 3 "in round 2 the runner has two sides, a process a build"
kill -TERM "$pid"
wait "$pid"
is "$?" 143 "SIGTERM in a counted round 2: exit 143"
grep -q 'interrupted by SIGTERM' "$scratch/term.err"; ok $? "it says it was interrupted"
is "$(servers_left):$(work_dirs_left):$(pgrep -fc -- "--out $out" || true)" "0:$left_before:0" \
   "every server of both sides is stopped, no side and no work directory left"
is "$(python3 -c 'import json, sys; print(sorted({(r["round"], r["label"]) for r in map(json.loads, open(sys.argv[1])) if r["round"] == 1}))' "$out/runs.jsonl")" \
   "[(1, 'a'), (1, 'b')]" "round 1's counted runs are in runs.jsonl"
done_testing

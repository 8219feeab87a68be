#!/usr/bin/env bash
# 05_runner_c.t — microbench compare on Postgres: refusals write
# nothing; an A/A comparison runs every run on a fresh start of its own
# (a new instance each) from the same pristine data (one data state), in
# the alternating order, with a line per run and the reports; a postmaster
# killed mid-run costs that run only; a build that does not start ends
# the comparison with exit 1; INT, TERM, HUP and PIPE stop it with 128 + N,
# and so does a reader of its output that goes away (| head).
# After each: no server, no work directory, no orphaned shared memory.
set -u
. "$(dirname "$0")/lib.sh"

small=(--pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --table-size 5000 --warmup 0.5 --max-minutes 0)

# ---- refusals: one line, exit 2, nothing written
refused() {   # refused WANT_MESSAGE_REGEX DESCRIPTION ARGS...
    local want=$1 desc=$2; shift 2
    "$MB" compare "$@" --out "$scratch/refused" >"$scratch/out" 2>"$scratch/err"
    local rc=$?
    is "$rc:$(grep -cE -e "$want" "$scratch/err"):$([ -e "$scratch/refused" ] && echo made || echo none)" "2:1:none" \
       "$desc: exit 2, one clear line, nothing made"
}
refused 'unknown workload\(s\): read-only; `microbench list` names' "an unknown workload" \
    "${small[@]}" --workloads point-query,read-only
refused 'not a Postgres installation' "a path that is not a Postgres installation" \
    --pg a="$PG_PREFIX" --pg b=/usr/share
refused 'label "a" is used twice' "a label used twice" --pg a="$PG_PREFIX" --pg a="$PG_PREFIX"
refused 'no build is labelled "c"' "--set for a label no build has" "${small[@]}" --set c:jit=off
refused 'has nothing to be compared with: give two or more' "a single build" --pg a="$PG_PREFIX"
mkdir -p "$scratch/full" && touch "$scratch/full/x"
"$MB" compare "${small[@]}" --out "$scratch/full" >/dev/null 2>"$scratch/err"
is "$?:$(grep -c 'is not empty' "$scratch/err")" "2:1" "a --out that is not empty: refused"

# ---- A/A: the same installation under two labels
out="$scratch/aa"
"$MB" compare "${small[@]}" --workloads point-query,update-index --rounds 2 --seconds 1 \
    --confidence 0.999 --out "$out" >"$scratch/aa.out" 2>"$scratch/aa.err"
ok $? "A/A: exit 0 ($(tail -1 "$scratch/aa.err"))"
is "$(wc -l <"$out/runs.jsonl")" 8 "runs.jsonl holds 2 labels x 2 workloads x 2 rounds"
is "$(python3 -c 'import json,sys; print(len({json.loads(l)["instance"] for l in open(sys.argv[1])}))' "$out/runs.jsonl")" 8 \
   "every run on a server start of its own: 8 instances"
is "$(python3 -c '
import json, sys
states = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    states.setdefault(r["workload"], set()).add(json.dumps(r["data_state"], sort_keys=True))
print(" ".join(str(len(s)) for w, s in sorted(states.items())))' "$out/runs.jsonl")" "1 1" \
   "every run of a workload read the same data: one data state per workload (writes included)"
is "$(runs_of "$out/runs.jsonl" | awk '{ print $1 }' | paste -sd' ' -)" "a b b a b a a b" \
   "the builds take turns: a b, b a in round 1; b a, a b in round 2"
is "$(grep -cE '^   round [12]  postgres +(point-query|update-index) +[ab] +[0-9]+ QPS  \(run ' "$scratch/aa.out")" 8 \
   "a progress line per run, with its QPS and what the run cost"
is "$(for f in report.txt report.md report.svg manifest.json; do [ -s "$out/$f" ] && echo "$f"; done | wc -l)" 4 \
   "report.txt, report.md, report.svg and manifest.json written"
is "$(cells "$out/report.txt" | grep -vcE '[=?]$')" 0 "A/A: no cell is a difference"
is "$(grep -E '^([0-9]+\.[0-9]{2}[=?]?|-) ' "$out/report.txt" | awk '{ print $NF }' | paste -sd' ' -)" \
   "point-query update-index" "the report shows what ran: the two workloads asked for, no rows of -"
is "$(python3 -c 'import json,sys; m = json.load(open(sys.argv[1]))
print(m["status"], m["runs"]["done"], m["tool"].split()[-1], m["seconds_per_run"]["copy"] > 0)' "$out/manifest.json")" \
   "done 8 $(sed -n "s/^default_version = '\(.*\)'/\1/p" "$root/extension/microbench.control") True" \
   "manifest: done, 8 runs, the product's version, what a copy costs"
is "$(python3 -c 'import json,sys; m = json.load(open(sys.argv[1]))
print(" ".join(b["label"] + ":" + str(b["version"].startswith("postgres (PostgreSQL)")) for b in m["builds"]), m["runs"]["rounds"])' "$out/manifest.json")" \
   "a:True b:True 2" "manifest: the builds with their version, the rounds run"
is "$(python3 -c 'import json,sys
print(all(len(json.loads(l)["qps_per_second"]) >= 1 and json.loads(l)["canary_before_us"] > 0
          and json.loads(l)["data_state"]["table_bytes"] > 0 for l in open(sys.argv[1])))' "$out/runs.jsonl")" True \
   "every run carries its per-second samples, canary and data fingerprint"
nothing_left "A/A"

# ---- a postmaster killed mid-run: that run fails, the rest go on
out="$scratch/killed"
"$MB" compare "${small[@]}" --workloads point-query --rounds 2 --seconds 3 --out "$out" \
    >"$scratch/killed.out" 2>&1 &
pid=$!
# the postmaster of the first run, once its bench_run is under way (not
# while it starts: that would be a build that does not start)
pm=""
for i in $(seq 600); do
    pm=$(pgrep -f -- "-D $work_dir_re/run " | head -1)
    [ -n "$pm" ] && pgrep -P "$pm" -f 'postgres: [a-z]+ microbench \[local\] SELECT' >/dev/null && break
    pm=""
    sleep 0.1
done
sleep 1
kill -9 "$pm"
wait "$pid"
is "$?" 1 "a run's server killed: exit 1 at the end"
is "$(python3 -c 'import json,sys; m = json.load(open(sys.argv[1]))
print(m["runs"]["failed"], m["runs"]["done"])' "$out/manifest.json")" "1 3" \
   "... that run counted as failed, the other three done"
is "$(grep -c 'FAILED' "$scratch/killed.out")" 1 "... and named as it happened"
is "$(grep -cE '^-- failed: postgres point-query, [ab]: 1 run\(s\), left out of the cell' "$out/report.txt")" 1 \
   "... and the report says which cell lost a run"
nothing_left "a killed server"

# ---- a build that does not start
out="$scratch/nostart"
"$MB" compare "${small[@]}" --set b:no_such_setting=1 --workloads point-query --rounds 1 --seconds 0.5 \
    --out "$out" >"$scratch/out" 2>"$scratch/err"
is "$?" 1 "a build that does not start: exit 1"
ok "$(grep -q 'b (.*) did not start; see .*logs/server.log' "$scratch/err"; echo $?)" "... named, with its log"
nothing_left "a build that did not start"

# ---- --results-db: the runs go into the user's results database too, and
# a database that already holds runs of a label is refused before any work
rdb="$scratch/results-db"   # the cluster's user (postgres) must get through scratch
chmod 711 "$scratch"
at_exit '"$root/test/pg_cluster.sh" stop "$rdb"'
"$root/test/pg_cluster.sh" start "$rdb" 5493 >/dev/null
conninfo="host=$rdb port=5493 user=postgres dbname=postgres"
out="$scratch/rdb"
"$MB" compare "${small[@]}" --workloads point-query --rounds 1 --seconds 0.5 --results-db "$conninfo" \
    --out "$out" >"$scratch/out" 2>"$scratch/err"
ok $? "--results-db: exit 0 ($(tail -1 "$scratch/err"))"
is "$(psql -X -A -t -d "$conninfo" -c "SELECT string_agg(label || ':' || workload, ' ' ORDER BY label) FROM microbench.runs")" \
   "a:point-query b:point-query" "... its two runs are in that database"
is "$(grep -c . "$out/runs.jsonl")" 2 "... and in runs.jsonl"
refused 'the results database already holds runs labelled a, b; their verdicts would mix' \
    "a results database with runs of these labels" "${small[@]}" --results-db "$conninfo"
refused 'cannot reach the results database' "a results database that cannot be reached" \
    "${small[@]}" --results-db "host=$rdb port=5492 user=postgres dbname=postgres"
nothing_left "--results-db"

# ---- signals: 128 + N, the runs so far kept and reported
for sig in INT TERM HUP PIPE; do
    out="$scratch/sig-$sig"
    "$MB" compare "${small[@]}" --workloads point-query,scan --rounds 3 --seconds 2 --out "$out" \
        >"$scratch/sig.out" 2>&1 &
    pid=$!
    for i in $(seq 300); do [ -s "$out/runs.jsonl" ] && break; sleep 0.1; done
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    want=$((128 + $(kill -l "$sig")))
    is "$rc:$(grep -c "interrupted by SIG$sig" "$scratch/sig.out")" "$want:1" "SIG$sig: exit $want, said so"
    ok "$([ -s "$out/runs.jsonl" ] && [ -s "$out/report.txt" ] && grep -q "interrupted by SIG$sig" "$out/manifest.json"; echo $?)" \
       "... the runs so far kept and reported"
    nothing_left "SIG$sig"
done

# ---- a reader that goes away: `... | head -n 3` ends the comparison with
# SIGPIPE's 141 at its next line, servers stopped, nothing left
out="$scratch/piped"
"$MB" compare "${small[@]}" --workloads point-query,scan --rounds 3 --seconds 1 --out "$out" \
    2>"$scratch/piped.err" | head -n 3 >/dev/null
is "${PIPESTATUS[0]}:$(grep -c 'interrupted by SIGPIPE' "$scratch/piped.err")" "141:1" \
   "its output piped into head: exit 141 when head has gone, said on stderr"
nothing_left "a closed pipe"

done_testing

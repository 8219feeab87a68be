#!/usr/bin/env bash
# 01_push.t — many hosts, one results database: two hosts push 500 runs
# each at the same time, then one pushes its file again, and two pushes of
# one file run at once: every run is there exactly once.  A host whose
# facts change (another kernel) gets a new facts row and its older runs
# keep theirs.  The pushing role adds runs and reads none; the reading role
# reads and adds none.  Run by test/run_fleet_tests.sh.
set -u
. "$(dirname "$0")/../tap.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
q() { psql -X -A -t -q -d central -c "$1"; }

# runs HOST N KERNEL FIRST: N JSON lines of HOST's runs as the runner tags
# them, each with a run_uid of its own, started FIRST seconds after 2026
runs() {
    local host=$1 n=$2 kernel=$3 first=$4 i uid
    for ((i = 0; i < n; i++)); do
        uid=$(cat /proc/sys/kernel/random/uuid)
        printf '{"run_uid": "%s", "dbms": "postgres", "version": "15.14", "label": "%s", "workload": "point-query", "phase": "post", "tables": 1, "table_size": 5000, "clients": 1, "rand_type": "uniform", "seconds": 1, "warmup": 0, "started_at": "%s", "ended_at": "%s", "elapsed_seconds": 1, "events": 1000, "queries": 1000, "qps": 1000, "tps": 1000, "driver": "pgsql", "round": %d, "host": "%s", "host_label": "%s", "machine_id": "m-%s", "host_facts": {"cpu_model": "Test CPU", "sockets": 1, "cores": 2, "threads": 4, "smt": true, "memory_bytes": 8589934592, "kernel": "%s", "os": "Debian GNU/Linux 12 (bookworm)"}, "campaign": "fleet-test", "campaign_spec": {"labels": ["base", "other"]}}\n' \
            "$uid" "$([ $((i % 2)) = 0 ] && echo base || echo other)" \
            "$(date -u -d "@$((1767225600 + first + i))" +%FT%T+00)" \
            "$(date -u -d "@$((1767225601 + first + i))" +%FT%T+00)" $((i / 2 + 1)) "$host" "$host" "$host" "$kernel"
    done
}
runs a 500 "Linux 6.1.0-28-amd64" 0 >"$dir/a.jsonl"
runs b 500 "Linux 6.12.9-amd64" 0 >"$dir/b.jsonl"

# at_once FILE1 OUT1 FILE2 OUT2: host_a loads FILE1 while host_b loads FILE2,
# each's output into its OUT; "STATUS1:STATUS2"
at_once() {
    local p1 p2 s1 s2
    "$MB" load "$1" --results-db="$MB_CENTRAL user=host_a" >"$2" 2>&1 &
    p1=$!
    "$MB" load "$3" --results-db="$MB_CENTRAL user=host_b" >"$4" 2>&1 &
    p2=$!
    wait $p1; s1=$?
    wait $p2; s2=$?
    echo "$s1:$s2"
}

# ---- two hosts at once, each as its own pushing role ----
is "$(at_once "$dir/a.jsonl" "$dir/a.out" "$dir/b.jsonl" "$dir/b.out")" "0:0" \
   "two hosts push 500 runs each at the same time"
is "$(cat "$dir/a.out")|$(cat "$dir/b.out")" \
   "loaded 500 runs into microbench.runs from $dir/a.jsonl|loaded 500 runs into microbench.runs from $dir/b.jsonl" \
   "... each says it loaded its 500"
is "$(q "SELECT count(*) || ' ' || count(DISTINCT run_uid) FROM microbench.runs")" "1000 1000" \
   "exactly 1,000 runs, none twice"

# ---- one host pushes its file again ----
"$MB" load "$dir/a.jsonl" --results-db="$MB_CENTRAL user=host_a" >"$dir/again.out" 2>&1
is "$?:$(cat "$dir/again.out")" \
   "0:loaded 0 runs into microbench.runs from $dir/a.jsonl; skipped 500 already there (the same run_uid)" \
   "pushing a file again adds nothing and says so"
is "$(q "SELECT string_agg(h.label || '=' || n, ' ' ORDER BY h.label)
         FROM (SELECT f.host_id, count(*) n FROM microbench.runs r JOIN microbench.host_facts f ON f.facts_id = r.host_facts_id
               GROUP BY 1) x JOIN microbench.hosts h USING (host_id)")" "a=500 b=500" \
   "... still exactly 1,000: 500 a host, none lost"

# ---- one file from two places at once ----
runs a 100 "Linux 6.1.0-28-amd64" 1000 >"$dir/c.jsonl"
status=$(at_once "$dir/c.jsonl" "$dir/c1.out" "$dir/c.jsonl" "$dir/c2.out")
loaded=$(( $(sed -n 's/^loaded \([0-9]*\) run.*/\1/p' "$dir/c1.out") + $(sed -n 's/^loaded \([0-9]*\) run.*/\1/p' "$dir/c2.out") ))
is "$status:$loaded:$(q "SELECT count(*) FROM microbench.runs")" "0:0:100:1100" \
   "the same 100 runs pushed from two places at once: loaded once between them, 1,100 in all"

# ---- the host, its facts and the campaign ----
is "$(q "SELECT string_agg(label || ' ' || machine_id, ', ' ORDER BY label) FROM microbench.hosts")" "a m-a, b m-b" \
   "a host is its label and its machine id"
is "$(q "SELECT concat_ws('|', cpu_model, sockets, cores, threads, smt, memory_bytes, kernel, os)
         FROM microbench.host_facts f JOIN microbench.hosts h USING (host_id) WHERE h.label = 'b'")" \
   "Test CPU|1|2|4|t|8589934592|Linux 6.12.9-amd64|Debian GNU/Linux 12 (bookworm)" \
   "its facts are a row, each fact a column"
is "$(q "SELECT name || ' ' || (spec->'labels')::text || ' ' || (SELECT count(*) FROM microbench.runs r WHERE r.campaign_id = c.campaign_id)
         FROM microbench.campaigns c")" 'fleet-test ["base", "other"] 1100' \
   "the campaign, its spec, and every run in it"

# ---- facts that change: a new row, the older runs keep theirs ----
old_facts=$(q "SELECT f.facts_id FROM microbench.host_facts f JOIN microbench.hosts h USING (host_id) WHERE h.label = 'a'")
runs a 2 "Linux 6.12.9-amd64" 2000 >"$dir/newkernel.jsonl"
"$MB" load "$dir/newkernel.jsonl" --results-db="$MB_CENTRAL user=host_a" >/dev/null 2>&1
is "$(q "SELECT count(*) FROM microbench.host_facts f JOIN microbench.hosts h USING (host_id) WHERE h.label = 'a'")" 2 \
   "host a under another kernel: a second facts row"
is "$(q "SELECT string_agg(f.kernel || '=' || n, ' ' ORDER BY f.facts_id)
         FROM (SELECT host_facts_id, count(*) n FROM microbench.runs GROUP BY 1) x
         JOIN microbench.host_facts f ON f.facts_id = x.host_facts_id JOIN microbench.hosts h USING (host_id)
         WHERE h.label = 'a'")" "Linux 6.1.0-28-amd64=600 Linux 6.12.9-amd64=2" \
   "... the 600 older runs keep the old facts, the 2 new ones have the new"
is "$(q "SELECT count(*) FROM microbench.runs WHERE host_facts_id = $old_facts")" 600 "... the old row itself unchanged"

# ---- export from one database, load into another: the same host and campaign ----
q "SELECT microbench.export_runs()" | grep '"host_label": "a"' | head -3 >"$dir/export.jsonl"
is "$(psql -X -A -t -q -d central -v l="$(head -1 "$dir/export.jsonl")" <<<"SELECT concat_ws('|', d->>'host_label', d->'host_facts'->>'kernel', d->>'campaign', d ? 'host_facts_id', d ? 'run_uid') FROM (SELECT :'l'::jsonb d) x")" \
   "a|Linux 6.1.0-28-amd64|fleet-test|f|t" \
   "export_runs() gives a run's host, facts and campaign as tags, and its run_uid, not this database's ids"

# ---- the roles ----
err=$(psql -X -A -t -q -d central -U host_a -c "SELECT label, qps FROM microbench.runs" 2>&1)
like "$err" "permission denied" "the pushing role cannot read the runs, only their uids ($err)"
err=$(psql -X -A -t -q -d central -U host_a -c "DELETE FROM microbench.runs" 2>&1)
like "$err" "permission denied" "... nor delete them"
is "$(psql -X -A -t -q -d central -U alice -c "SELECT count(*) FROM microbench.runs")" 1102 "the reading role reads them"
err=$(psql -X -A -t -q -d central -U alice -c "SELECT microbench.push_run('{\"dbms\": \"postgres\"}')" 2>&1)
like "$err" "permission denied" "... and cannot add one ($err)"

done_testing

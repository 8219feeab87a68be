#!/usr/bin/env bash
# 02_playbook.t — fleet/ansible/campaign.yml on an inventory of two hosts on
# this machine (a local connection each, labels small and large, one after
# the other: the runner's ports are fixed), against the throwaway central
# database: both hosts' comparisons land, each run tagged with its host and
# the campaign, and the cross-host report shows both host columns with
# their facts.  Then a host that could not reach the central database
# (--push to nothing) keeps its runs in runs.jsonl and microbench load
# pushes them later with the same result.  The playbook builds the commit
# checked out here (HEAD).  Run by test/run_fleet_tests.sh; needs
# ansible-playbook and Debian's Postgres 15.
set -u
. "$(dirname "$0")/../tap.sh"

pg15=/usr/lib/postgresql/15
if ! command -v ansible-playbook >/dev/null || [ ! -x "$pg15/bin/postgres" ]; then
    echo "1..0 # SKIP needs ansible-playbook and Debian's Postgres 15 (test/install_deps.sh)"
    exit 0
fi
dir=$(mktemp -d /tmp/microbench-playbook.XXXXXX)
chmod 755 "$dir"
trap 'rm -rf "$dir"' EXIT
q() { psql -X -A -t -q -d central -c "$1"; }

# a short comparison: the same Postgres with synchronous_commit on and off
compare_args='["--pg", "durable='$pg15'", "--pg", "relaxed='$pg15'",
  "--set", "postgres/relaxed:synchronous_commit=off", "--workloads", "point-query,update-index",
  "--rounds", "2", "--max-minutes", "0", "--seconds", "1", "--warmup", "0.5", "--table-size", "2000"]'
cat >"$dir/inventory.ini" <<INI
[microbench]
host-a ansible_connection=local microbench_host_label=small microbench_dir=$dir/a microbench_central="$MB_CENTRAL user=host_a"
host-b ansible_connection=local microbench_host_label=large microbench_dir=$dir/b microbench_central="$MB_CENTRAL user=host_b"
[all:vars]
ansible_python_interpreter=/usr/bin/python3
INI
cat >"$dir/vars.json" <<JSON
{"microbench_repo": "$MB_ROOT", "microbench_version": "$(git -C "$MB_ROOT" rev-parse HEAD)",
 "microbench_campaign": "sync-test", "microbench_base": "durable", "microbench_other": "relaxed",
 "microbench_install": false, "microbench_serial": 1, "microbench_report_dir": "$dir/reports",
 "microbench_compare_args": $compare_args}
JSON

ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=false ANSIBLE_INVENTORY_UNPARSED_WARNING=false \
ANSIBLE_HOME="$dir/.ansible" ANSIBLE_LOCAL_TEMP="$dir/.ansible/tmp" \
    ansible-playbook -i "$dir/inventory.ini" -e "@$dir/vars.json" \
    -e "microbench_central='$MB_CENTRAL'" "$MB_ROOT/fleet/ansible/campaign.yml" >"$dir/play.out" 2>&1
status=$?
ok $status "the playbook runs the campaign on both hosts (exit $status)"
[ $status = 0 ] || tail -40 "$dir/play.out" | sed 's/^/# /' >&2
like "$(grep -A3 '^PLAY RECAP' "$dir/play.out")" "host-a .*failed=0" "... host-a failed nothing"
like "$(grep -A3 '^PLAY RECAP' "$dir/play.out")" "host-b .*failed=0" "... host-b failed nothing"

for h in a b; do
    label=$([ $h = a ] && echo small || echo large)
    n_file=$(grep -c . "$dir/$h/campaigns/sync-test/runs.jsonl" 2>/dev/null || echo 0)
    is "$(q "SELECT count(*) FROM microbench.runs r JOIN microbench.host_facts f ON f.facts_id = r.host_facts_id
             JOIN microbench.hosts h USING (host_id) JOIN microbench.campaigns c USING (campaign_id)
             WHERE h.label = '$label' AND c.name = 'sync-test'")" "$n_file" \
       "host $label: every run of its runs.jsonl ($n_file) landed, tagged with it and the campaign"
done
is "$(q "SELECT count(DISTINCT label) || ' ' || count(*) FILTER (WHERE label = 'durable') FROM microbench.runs r
         JOIN microbench.campaigns c USING (campaign_id) WHERE c.name = 'sync-test'")" "2 8" \
   "both labels; durable ran 2 workloads x 2 rounds on each of the 2 hosts"
is "$(q "SELECT string_agg(DISTINCT (f.storage IS NOT NULL AND f.threads > 0 AND f.kernel LIKE 'Linux %' AND f.machine_id <> '' AND f.os <> '')::text, ',')
         FROM microbench.host_facts f JOIN microbench.hosts h USING (host_id) WHERE h.label IN ('small', 'large')")" "true" \
   "the hosts' facts have their storage, threads, kernel, machine id and OS"

report="$dir/reports/sync-test/hosts-report.txt"
ok $([ -s "$report" ]; echo $?) "the controller wrote the cross-host report"
like "$(cat "$report")" "^small:pg +large:pg" "... a column group per host, small first"
like "$(cat "$report")" "^-- host small: .*[0-9]+ threads.*GiB; Linux " "... small's facts in a line of the header"
like "$(cat "$report")" "^-- host large: .*[0-9]+ threads.*GiB; Linux " "... large's facts in a line of the header"
like "$(cat "$report")" "^[0-9.]+[=?]? +[0-9.]+[=?]? +update-index$" "... a ratio with its verdict on each host, for each workload"
like "$(head -1 "$report")" "^-- QPS\(relaxed\) / QPS\(durable\) on each host, campaign sync-test$" "... under a title saying what it divides"
like "$(cat "$dir/reports/sync-test/hosts-report.md")" "^\| small:pg \| large:pg \| microbenchmark \|$" "the markdown report too"
like "$(cat "$dir/reports/sync-test/hosts-report.svg")" "<text [^>]*>host large</text>" "the SVG too, a panel per host"

# ---- a host that cannot reach the central database pushes later ----
mkdir -p "$dir/c"
"$MB" compare --campaign sync-test --host-label offline --push "host=$dir port=1 dbname=central connect_timeout=2" \
    --out "$dir/c/out" --pg "durable=$pg15" --pg "relaxed=$pg15" --set postgres/relaxed:synchronous_commit=off \
    --workloads point-query --rounds 1 --max-minutes 0 --seconds 1 --warmup 0.5 --table-size 2000 >"$dir/c/out.log" 2>&1
status=$?
n_file=$(grep -c . "$dir/c/out/runs.jsonl")
is "$status:$n_file" "0:2" "a host whose central database is down runs its comparison all the same, its runs in runs.jsonl"
like "$(cat "$dir/c/out.log")" "pushed 0 runs to the central database; 2 were not taken: push them with" \
     "... and says how to push them"
"$MB" load "$dir/c/out/runs.jsonl" --results-db="$MB_CENTRAL user=host_a" >"$dir/c/load.out" 2>&1
is "$?:$(q "SELECT count(*) FROM microbench.runs r JOIN microbench.host_facts f ON f.facts_id = r.host_facts_id
             JOIN microbench.hosts h USING (host_id) JOIN microbench.campaigns c USING (campaign_id)
             WHERE h.label = 'offline' AND c.name = 'sync-test'")" "0:2" \
   "microbench load pushes them later, tagged as if pushed at once"

done_testing

# test/compare/lib.sh — what every test of microbench compare uses.
#
# Sourced by test/compare/*.t (run by test/run_compare_tests.sh).  The
# builds compared are Debian's Postgres 15 and mariadbd, each named twice:
# an A/A comparison, or A/B with one setting changed.

. "$(dirname "$0")/../tap.sh"

root=$(cd "$(dirname "$0")/../.." && pwd)
MB="$root/client/microbench"
PG_PREFIX=${MB_COMPARE_PG_PREFIX:-$(cd "$(pg_config --bindir)/.." && pwd)}
MARIADBD=${MB_COMPARE_MARIADBD:-$(command -v mariadbd || echo /usr/sbin/mariadbd)}
scratch=$(mktemp -d /tmp/microbench-compare-test.XXXXXX)
# the runner makes its work directory in TMPDIR: a directory of this test's
# own (short, for the sockets in it; open to the servers' users), so that
# what the checks below find is this test's and never that of a comparison
# someone runs beside the tests
runner_tmp=$(mktemp -d /tmp/mbct.XXXXXX)
chmod 1777 "$runner_tmp"
export TMPDIR=$runner_tmp
# a regular expression for the path of the runner's work directory
work_dir_re="${runner_tmp//./\\.}/microbench-compare\.[A-Za-z0-9]{6}"
# at_exit COMMAND: run on the way out, before scratch goes (a server a test
# started in it must stop first)
exit_hooks=()
at_exit() { exit_hooks+=("$1"); }
trap 'for h in "${exit_hooks[@]}"; do eval "$h"; done; rm -rf "$scratch" "$runner_tmp"' EXIT

# servers_left: this test's runner's servers still running (their
# command lines name its work directories).  pg_ctl stop returns once the pid file
# is gone, a moment before the postmaster itself has exited, and on a busy
# machine that moment is long: a server counts as left only if it is still
# there after up to 30 s of waiting for it to go.
servers_left() {
    local n i
    for i in $(seq 300); do
        n=$(pgrep -fc -- "$work_dir_re" || true)
        [ "${n:-0}" = 0 ] && break
        sleep 0.1
    done
    echo "${n:-0}"
}
work_dirs_left() { find "$runner_tmp" -maxdepth 1 -name 'microbench-compare.??????' | wc -l; }
# shared memory segments no process has attached (a postmaster that did not clean up)
orphan_shm() { ipcs -m | awk '$1 ~ /^0x/ && $6 == 0' | wc -l; }
left_before=$(work_dirs_left)
shm_before=$(orphan_shm)
# nothing_left DESCRIPTION: no server, work directory or shared memory
# segment of this test's comparisons is left behind
nothing_left() {
    is "$(servers_left):$(work_dirs_left):$(orphan_shm)" "0:$left_before:$shm_before" \
       "$1: no server, work directory or shared memory segment left"
}

# json_lines FILE: one "label workload" line per run in runs.jsonl
runs_of() { python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(r["label"], r["workload"], r["dbms"], r["started_at"])' "$1"; }

# cells REPORT: the report's cells with data, one per line ("1.02~" or "7.10")
cells() { grep -E '^([0-9]+\.[0-9]{2}[=?]?|-) ' "$1" | awk '{ for (i = 1; i < NF; i++) print $i }' | grep -v '^-$'; }

# the manifest's order, as "round label workload" lines
order_of() { python3 -c '
import json, sys
for o in json.load(open(sys.argv[1]))["order"]:
    print(o["round"], o["label"], o["workload"])' "$1"; }

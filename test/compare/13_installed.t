#!/usr/bin/env bash
# 13_installed.t — an installed microbench compares without its source tree.
#
# The runner builds this project's extension into every Postgres build it
# compares, so it needs the extension's sources; make install puts them,
# and the source-build script of `compare build`, under
# PREFIX/share/microbench, and the runner finds them from its own path.
# Here a copy of this working tree is installed into a staging directory
# (DESTDIR), the copy is removed, and the staged program runs compare build
# --help, a counted comparison and a timed one.  The copy is of the working
# tree, not of HEAD, so that its extension is the one make install put
# into Debian's Postgres: the runner then finds it up to date and never
# writes into that installation.
set -u
. "$(dirname "$0")/lib.sh"

tree=$scratch/tree
stage=$scratch/stage
mkdir -p "$tree"
git -C "$root" ls-files --cached --others --exclude-standard -z |
    (cd "$root" && tar --null -T - -cf -) | tar -C "$tree" -xf -
ok $? "a copy of the working tree"
if make -s -C "$tree" install DESTDIR="$stage" PREFIX=/usr/local >"$scratch/install.log" 2>&1; then
    ok 0 "make install DESTDIR=... from the copy"
else
    ok 1 "make install DESTDIR=... from the copy"
    tail -20 "$scratch/install.log" | sed 's/^/#   /' >&2
fi
rm -rf "$tree"
ok "$([ ! -e "$tree" ]; echo $?)" "the copy is removed"
installed=$stage/usr/local/bin/microbench
share=$stage/usr/local/share/microbench
missing=""
for f in "$installed" "$share/microbench-build" "$share/extension/microbench.control" \
         "$share/extension/microbench_functions.sql" "$share/extension/Makefile" \
         "$share/common/mb_catalog.c" "$share/results_schema/10_runs.sql"; do
    [ -e "$f" ] || missing="$missing ${f#$stage}"
done
is "$missing" "" "installed: the program, the build script and the extension's sources"
is "$(find "$stage" -name 'microbench-compare' -o -name 'microbench-mysql' | wc -l)" 0 \
   "no program under an old name"

# the build script runs from the share directory
"$installed" compare build --help >"$scratch/build.out" 2>&1
is "$?:$(grep -c '^Usage: microbench compare build --src \[LABEL=\]DIR' "$scratch/build.out")" "0:1" \
   "compare build --help runs the installed script"

out=$scratch/counted
"$installed" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --metric instructions --workloads point-query \
    --table-size 1000 --rounds 3 --max-minutes 0 --out "$out" >"$scratch/counted.out" 2>&1
ok $? "a counted comparison by the installed program: exit 0 ($(tail -1 "$scratch/counted.out"))"
is "$(grep -c '== building the microbench extension' "$scratch/counted.out")" 0 \
   "the extension assembled from the share directory is the one installed: nothing rebuilt"
is "$(runs_of "$out/runs.jsonl" | wc -l)" 6 "six counted runs recorded"
grep -qE '^1\.00=? +point-query$|^1\.00=? .*point-query' "$out/report.txt"
ok $? "the counted report has its cell ($(grep point-query "$out/report.txt" | head -1))"

out=$scratch/timed
"$installed" compare --pg a="$PG_PREFIX" --pg b="$PG_PREFIX" --workloads point-query --table-size 1000 \
    --rounds 1 --max-minutes 0 --seconds 0.5 --warmup 0.2 --out "$out" >"$scratch/timed.out" 2>&1
ok $? "a timed comparison by the installed program: exit 0 ($(tail -1 "$scratch/timed.out"))"
is "$(runs_of "$out/runs.jsonl" | wc -l)" 2 "two timed runs recorded"
nothing_left "the installed program's comparisons"
done_testing

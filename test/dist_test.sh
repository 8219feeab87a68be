#!/usr/bin/env bash
# test/dist_test.sh — the release tarball builds and installs on its own.
#
# Makes microbench-VERSION.tar.gz of HEAD (make dist) in a temporary
# directory, checks that it carries what a packager needs (licence, PGXN
# metadata, docs, the frozen 0.1 script, tests) and no build products,
# builds it with the same pg_config, installs it into a staging directory
# (DESTDIR) and checks the installed files: the extension's control file,
# library, 0.1 and 0.2 scripts and the 0.1 → 0.2 update, the command and
# what its runner reads (test/compare/13_installed.t runs it so).  Also checks that META.json is valid and its version matches
# the control file's.  Prints TAP.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/tap.sh"

if ! git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    echo "1..0 # skip not a git checkout: make dist archives HEAD"
    exit 0
fi
work=$(mktemp -d /tmp/microbench-dist.XXXXXX)
trap 'rm -rf "$work"' EXIT

version=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$root/META.json")
ok $? "META.json is valid JSON with a version ($version)"
control=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$root/extension/microbench.control")
is "$version" "$control.0" "META.json's version is the control file's default_version ($control) as x.y.z"
is "$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["provides"]["microbench"]["version"], m["license"])' "$root/META.json")" \
    "$version postgresql" "META.json provides microbench $version under the PostgreSQL licence"

make -s -C "$root" dist DIST_DIR="$work" >/dev/null
tarball=$work/microbench-$version.tar.gz
ok "$([ -s "$tarball" ]; echo $?)" "make dist writes microbench-$version.tar.gz"
tar -C "$work" -xzf "$tarball"
src=$work/microbench-$version
missing=""
for f in LICENSE META.json README.md Makefile extension/microbench.control extension/sql/microbench--0.1.sql \
         docs/workloads.md docs/guide.md results_schema/10_runs.sql extension/microbench_functions.sql \
         results_schema/upgrade/0.2.sql extension/upgrade/0.2.sql \
         client/Makefile client/compare/microbench-build test/pg_suite.sh; do
    [ -f "$src/$f" ] || missing="$missing $f"
done
is "$missing" "" "the tarball has the licence, metadata, docs, sources, the frozen 0.1 script, the upgrade steps and the tests"
is "$(cd "$src" && find . \( -name '*.o' -o -name '*.so' -o -name 'microbench--0.2.sql' -o -name microbench -type f \) | head -3)" "" \
    "... and no build products"

if make -s -C "$src" >"$work/build.log" 2>&1; then ok 0 "the unpacked tarball builds"; else
    ok 1 "the unpacked tarball builds"; tail -20 "$work/build.log" | sed 's/^/#   /'; fi
stage=$work/stage
if make -s -C "$src" install DESTDIR="$stage" PREFIX=/usr/local >"$work/install.log" 2>&1; then
    ok 0 "make install DESTDIR=... installs it"; else
    ok 1 "make install DESTDIR=... installs it"; tail -20 "$work/install.log" | sed 's/^/#   /'; fi
sharedir=$stage$("${PG_CONFIG:-pg_config}" --sharedir)/extension
libdir=$stage$("${PG_CONFIG:-pg_config}" --pkglibdir)
missing=""
for f in "$sharedir/microbench.control" "$sharedir/microbench--0.1.sql" "$sharedir/microbench--0.2.sql" \
         "$sharedir/microbench--0.1--0.2.sql" "$libdir/microbench.so" \
         "$stage/usr/local/bin/microbench" "$stage/usr/local/share/microbench/microbench-build" \
         "$stage/usr/local/share/microbench/extension/microbench.control" \
         "$stage/usr/local/share/microbench/extension/upgrade/0.2.sql" \
         "$stage/usr/local/share/microbench/results_schema/upgrade/0.2.sql"; do
    [ -e "$f" ] || missing="$missing ${f#$stage}"
done
is "$missing" "" "installed: control file, library, the 0.1 and 0.2 scripts, the update, the command, the runner's sources and upgrade steps"
"$stage/usr/local/bin/microbench" --help >/dev/null 2>&1
ok $? "the installed microbench runs (--help)"
# the whole output first: under pipefail, grep -q leaving at its match
# would leave the client writing into a closed pipe (SIGPIPE, a failure)
help=$("$stage/usr/local/bin/microbench" compare --help 2>&1)
grep -q 'microbench compare build --src \[LABEL=\]DIR' <<<"$help"
ok $? "the installed microbench compare runs (--help)"

done_testing

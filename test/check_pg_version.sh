#!/usr/bin/env bash
# test/check_pg_version.sh — build the extension against another PostgreSQL
# installation and run the pgTAP suite on a throwaway cluster of it, to catch
# what works on Debian's Postgres 15 (make test) but not on a newer major.
#
#   PG_PREFIX=/var/cache/microbench/pg-18.6-3 test/check_pg_version.sh [test/sql/NN_name.sql ...]
#   test/check_pg_version.sh /path/to/bin/pg_config [test/sql/NN_name.sql ...]
#   DIRECT_PAGES=no PG_PREFIX=... test/check_pg_version.sh
#                         the extension built without the direct load's page
#                         writing, as on a major whose pages are not proven
#
# The installation (test/pg_source_build.sh makes one) needs
# contrib/pg_stat_statements, pageinspect, amcheck, pg_visibility and
# pgTAP, and pg_prove must be on PATH.  The
# build happens in a temporary copy of the repository, so the work tree's
# objects (built for the default pg_config) are left alone; the extension is
# installed into that installation, which must therefore keep its modules
# and share files inside its own prefix.  The cluster listens on
# MB_TEST_PORT (default 5521).  As root the cluster runs as user postgres,
# who must be able to read and execute the installation.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
me=check_pg_version
die() { echo "$me: $*" >&2; exit 1; }

if [ $# -gt 0 ] && [ "$(basename "$1")" = pg_config ]; then
    pg_config=$1
    shift
elif [ -n "${PG_PREFIX:-}" ]; then
    pg_config=$PG_PREFIX/bin/pg_config
else
    die "usage: PG_PREFIX=DIR $0 [TEST...]  or  $0 PATH/pg_config [TEST...]"
fi
[ -x "$pg_config" ] || die "no executable $pg_config"
version=$("$pg_config" --version)
bindir=$("$pg_config" --bindir)
prefix=$(cd "$bindir/.." && pwd)
sharedir=$("$pg_config" --sharedir)
pkglibdir=$("$pg_config" --pkglibdir)

# installing into a Postgres others use (Debian's own, or a build whose
# Debian patch puts modules in /usr/lib/postgresql/N/lib) would change it
# under their feet
for d in "$sharedir" "$pkglibdir"; do
    case "$d/" in
    "$prefix"/*) ;;
    *) die "$pg_config puts files in $d, outside $prefix: refusing to install there" ;;
    esac
done
for ext in pgtap pg_stat_statements pageinspect amcheck pg_visibility; do
    [ -f "$sharedir/extension/$ext.control" ] || die "$ext is not installed in $prefix"
done
[ -f "$pkglibdir/pg_stat_statements.so" ] || die "pg_stat_statements.so is not in $pkglibdir"
command -v pg_prove >/dev/null || die "pg_prove not found (package libtap-parser-sourcehandler-pgtap-perl)"
if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- test -x "$bindir/postgres" -a -r "$sharedir/postgres.bki" \
        || die "user postgres cannot run $bindir/postgres or read $sharedir"
fi

# test files given as arguments are taken relative to the repository
tests=()
for t in "$@"; do
    case "$t" in
    /*) tests+=("$t") ;;
    *) tests+=("$repo/$t") ;;
    esac
done

work=$(mktemp -d /tmp/microbench-pgcheck.XXXXXX)
trap 'rm -rf "$work"' EXIT
# the .gitignore'd build products stay behind: they were built for another
# pg_config
tar -C "$repo" --exclude=.git --exclude-vcs-ignores --exclude=__pycache__ -cf - . \
    | tar -C "$work" -xf -

export PATH=$bindir:$PATH PG_CONFIG=$pg_config
export MB_TEST_PORT=${MB_TEST_PORT:-5521}
echo "$me: $version at $prefix, building in $work${DIRECT_PAGES:+ (DIRECT_PAGES=$DIRECT_PAGES)}" >&2
# a cached installation keeps what an earlier tree installed: without this,
# a script since removed from the tree would still be found
rm -f "$sharedir"/extension/microbench[-.]* "$pkglibdir"/microbench.so
# only the extension: the top-level install would also put microbench and
# its runner's sources into /usr/local, from this temporary copy
make -s -C "$work/extension" ${DIRECT_PAGES:+DIRECT_PAGES=$DIRECT_PAGES} install >"$work/build.log" 2>&1 \
    || { tail -n 40 "$work/build.log" >&2; die "building the extension failed"; }
grep -i 'warning' "$work/build.log" >&2 || true
# the majors whose pages the suite proves get the direct path (mb_direct_pages.h);
# the suite checks that this build has it exactly then
major=$("$pg_config" --version | sed -n 's/^PostgreSQL \([0-9]*\).*/\1/p')
case "${DIRECT_PAGES:-}:$major" in
no:*) MB_EXPECT_DIRECT_PAGES=off ;;
*:15 | *:17 | *:18) MB_EXPECT_DIRECT_PAGES=on ;;
*) MB_EXPECT_DIRECT_PAGES=off ;;
esac
export MB_EXPECT_DIRECT_PAGES
# the simulation of the verdicts' error rates is plain SQL with seeded
# draws, the same figures on every major: make test runs it once
export MB_CALIBRATION_SIMS=${MB_CALIBRATION_SIMS:-0}
"$work/test/run_pg_tests.sh" "${tests[@]}"

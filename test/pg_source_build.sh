#!/usr/bin/env bash
# test/pg_source_build.sh — a PostgreSQL of another major version, built
# from Debian's source package, for running the pgTAP suite on it (CI's
# version matrix, test/run_pg_matrix.sh).
#
#   test/pg_source_build.sh MAJOR          e.g. 17 (from trixie), 18 (from sid)
#
# Exits 3 when the suite's index lists the package but the mirror does not
# serve its files (an infrastructure gap, not a build failure), 1 on any
# other failure.
# Prints the installation prefix as the last line of stdout; everything else
# goes to stderr or to log files.  The prefix is a cache directory named
# after the exact Debian source version, $MB_PG_CACHE/pg-VERSION (default
# /var/cache/microbench/pg-18.6-3), holding the server, pg_stat_statements
# and pgTAP.  A complete build there is reused as is, so on a machine that
# keeps /var/cache a second run costs seconds.  MB_PG_SUITE overrides the
# Debian suite the source comes from.  Needs root (apt-get) unless the build
# is already cached.
set -euo pipefail

major=${1:?usage: pg_source_build.sh MAJOR}
case "$major" in
*[!0-9]* | '') echo "pg_source_build: MAJOR must be a number, not '$major'" >&2; exit 2 ;;
esac
# trixie ships 17, sid 18: each major comes from the release that carries it
case "$major" in
17) default_suite=trixie ;;
*) default_suite=sid ;;
esac
suite=${MB_PG_SUITE:-$default_suite}
cache=${MB_PG_CACHE:-/var/cache/microbench}
pkg=postgresql-$major

say() { echo "pg_source_build $major: $*" >&2; }
die() { say "$*"; exit 1; }

# the cluster runs as user postgres when we are root: the prefix must be
# world-readable whatever umask CI hands us
umask 022
export DEBIAN_FRONTEND=noninteractive
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
# other jobs on the machine may hold apt's locks for a while; wait, do not fail
apt_opts=(-o DPkg::Lock::Timeout=600 -q)

apt_update() {
    say "apt-get update"
    # all sources at once: updating from a deb-src file alone would drop the
    # binary package lists the rest of the machine relies on
    $sudo apt-get "${apt_opts[@]}" update >&2 \
        || die "apt-get update failed"
}

# --no-release-info: the suites as the sources files name them, known
# before any apt-get update has fetched their Release files
src_targets() {
    # shellcheck disable=SC2016  # $(...) is apt's format syntax, not the shell's
    apt-get indextargets --no-release-info --format '$(RELEASE) $(FILENAME)' 'Created-By: Sources'
}

# deb-src lines for trixie and sid, added only where no source (ours or the
# machine's) already provides them, so that apt does not warn about
# duplicates and a second run changes nothing
ensure_sources() {
    local file=/etc/apt/sources.list.d/microbench-src.sources have s missing=()
    have=$(src_targets | cut -d' ' -f1)
    for s in trixie sid "$suite"; do
        grep -qxF "$s" <<<"$have" || missing+=("$s")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    say "adding deb-src for ${missing[*]} in $file"
    {
        [ -s "$file" ] && echo
        echo "# added by microbench test/pg_source_build.sh: PostgreSQL sources for the test matrix"
        echo "Types: deb-src"
        echo "URIs: http://deb.debian.org/debian"
        echo "Suites: ${missing[*]}"
        echo "Components: main"
        echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
    } | $sudo tee -a "$file" >/dev/null
    apt_update
}

# the Sources index of our suite is missing until the first update after
# the entry appeared (or after the machine cleaned /var/lib/apt/lists)
have_source_index() {
    local s file
    while read -r s file; do
        [ "$s" = "$suite" ] && ls "$file"* >/dev/null 2>&1 && return 0
    done < <(src_targets)
    return 1
}

# "'URI' postgresql-18_18.6-3.dsc SIZE HASH": the version apt would fetch
source_uris() {
    apt-get -q source --print-uris "$pkg/$suite" 2>/dev/null | grep "^'"
}

ensure_sources
have_source_index || apt_update
uris=$(source_uris) || true
[ -n "$uris" ] || { apt_update; uris=$(source_uris) || true; }
[ -n "$uris" ] || die "no source package $pkg in $suite (apt-cache showsrc $pkg lists what there is)"
dsc=$(awk '$2 ~ /\.dsc$/ { print $2 }' <<<"$uris")
version=${dsc#"${pkg}_"}
version=${version%.dsc}
upstream=${version%-*}
prefix=$cache/pg-$version
stamp=$prefix/.microbench-build-complete

if [ -f "$stamp" ]; then
    say "cached build of $pkg $version"
    echo "$prefix"
    exit 0
fi

mkdir -p "$cache"
chmod 755 "$cache"
# two runs for the same version (say, two CI jobs) must not build into one
# prefix at the same time: the second waits, then finds the stamp
exec 9>"$cache/.pg-$version.lock"
flock 9
if [ -f "$stamp" ]; then
    say "cached build of $pkg $version (built meanwhile)"
    echo "$prefix"
    exit 0
fi

# build dependencies: bookworm's, for a configure without ICU and LLVM
deps=(build-essential bison flex zlib1g-dev libreadline-dev pkg-config perl bzip2 xz-utils
      postgresql-15-pgtap)
missing=()
for p in "${deps[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    $sudo apt-get "${apt_opts[@]}" install -y --no-install-recommends "${missing[@]}" >&2 \
        || { apt_update
             $sudo apt-get "${apt_opts[@]}" install -y --no-install-recommends "${missing[@]}" >&2; } \
        || die "could not install ${missing[*]}"
fi

work=$cache/work-pg-$version
logs=$work/logs
rm -rf "$work" "$prefix"
mkdir -p "$work/src" "$work/build" "$logs"
# apt drops privileges to _apt for downloads; a directory it may write
# keeps it from warning that it downloads as root
if [ "$(id -u)" = 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$work/src"; fi

# on failure, show the end of the log of the step that failed
step() {
    local name=$1
    shift
    say "$name (log: $logs/$name.log)"
    if ! "$@" >"$logs/$name.log" 2>&1; then
        say "$name failed; last lines of $logs/$name.log:"
        tail -n 40 "$logs/$name.log" >&2
        exit 1
    fi
}

download() {
    (cd "$work/src" && apt-get source --download-only "$pkg/$suite") >"$logs/download.log" 2>&1
}
say "download $pkg $version from $suite (log: $logs/download.log)"
if ! download; then
    # the mirror may have moved on since the lists were fetched (sid does often)
    apt_update
    if ! download; then
        tail -n 20 "$logs/download.log" >&2
        if grep -q '404 *Not Found' "$logs/download.log"; then
            # listed in the index, absent from the mirror: not a build failure,
            # and run_pg_matrix.sh reports it as a skip
            say "$pkg $version is listed in $suite's index, but the mirror does not have its files"
            exit 3
        fi
        die "download failed"
    fi
fi

# The upstream tarball, not Debian's patched tree: Debian's
# 50-per-version-dirs patch hard-codes pkglibdir to /usr/lib/postgresql/N/lib,
# which would put this build's modules outside the prefix and share them
# with every other build of the same major.
origs=("$work/src/${pkg}_${upstream}".orig.tar.*)
orig=${origs[0]}
[ -f "$orig" ] || die "no upstream tarball ${pkg}_${upstream}.orig.tar.* in $work/src"
step unpack tar -C "$work/src" -xf "$orig"
srcdir=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d -name "postgresql-*" | head -n 1)
[ -f "$srcdir/configure" ] || die "no configure in the unpacked $orig"

cd "$work/build"
step configure "$srcdir/configure" --prefix="$prefix" CFLAGS=-O2 --without-icu --without-llvm
step make make -j"$(nproc)" -s
step install make -s install
step pg_stat_statements make -s -C contrib/pg_stat_statements install

# pgTAP is SQL only, and its build patches the script only for Postgres 9.6
# and older: bookworm's files for 15 serve 17 and 18 unchanged
sharedir=$("$prefix/bin/pg_config" --sharedir)
pgtap_files=(/usr/share/postgresql/15/extension/pgtap*)
[ -f /usr/share/postgresql/15/extension/pgtap.control ] \
    || die "no pgtap in /usr/share/postgresql/15/extension (package postgresql-15-pgtap)"
install -m 644 "${pgtap_files[@]}" "$sharedir/extension/"

"$prefix/bin/pg_config" --version | grep -q "^PostgreSQL ${major}[^0-9]" \
    || die "$prefix/bin/pg_config says $("$prefix/bin/pg_config" --version), not $major"
chmod -R go+rX "$prefix"
echo "$pkg $version from $suite, built $(date -u +%FT%TZ)" >"$stamp"
cd /
rm -rf "$work"
say "built $pkg $version in $prefix"
echo "$prefix"

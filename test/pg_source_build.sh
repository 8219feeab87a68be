#!/usr/bin/env bash
# test/pg_source_build.sh — a PostgreSQL of another major version, built
# from Debian's source package, for running the pgTAP suite on it (CI's
# version matrix, test/run_pg_matrix.sh).
#
#   test/pg_source_build.sh MAJOR          e.g. 17 (from trixie), 18 (from sid)
#
# When the suite's index has moved ahead of the mirror (it lists a version
# whose files the mirror does not serve yet), the newest of the previous few
# minor releases that the mirror still keeps is built instead, trusted only
# as far as apt would trust it: its .dsc must carry a good signature from a
# Debian developer's key (debian-keyring) and the tarball must match the
# .dsc's SHA-256.  Exits 3 when neither the listed version nor such an older
# one can be had (an infrastructure gap, not a build failure), 1 on any
# other failure.
# Prints the installation prefix as the last line of stdout; everything else
# goes to stderr or to log files.  The prefix is a cache directory named
# after the exact Debian source version, $MB_PG_CACHE/pg-VERSION (default
# /var/cache/microbench/pg-18.6-3), holding the server, pg_stat_statements,
# pageinspect, amcheck, pg_visibility and pgTAP.  A complete build there is
# reused as is, so on a machine that keeps /var/cache a second run costs
# seconds.  MB_PG_SUITE overrides the
# Debian suite the source comes from.  Needs root (apt-get) unless the build
# is already cached.
set -euo pipefail

major=${1:?usage: pg_source_build.sh MAJOR}
case "$major" in
*[!0-9]* | '') echo "pg_source_build: MAJOR must be a number, not '$major'" >&2; exit 2 ;;
esac
# trixie ships 17, sid 18, experimental 19 (listed; its files are not
# always served): each major comes from the release that carries it
case "$major" in
17) default_suite=trixie ;;
19) default_suite=experimental ;;
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
# the pool directory the index points at, e.g. .../pool/main/p/postgresql-17
pool=$(awk '$2 ~ /\.dsc$/ { print $1 }' <<<"$uris" | tr -d "'")
pool=${pool%/*}

use_version() {   # use_version VERSION: the build this run makes or reuses
    version=$1
    upstream=${version%-*}
    prefix=$cache/pg-$version
    # (-2: the build has pageinspect, amcheck and pg_visibility too; a
    # cached build without them is made again)
    stamp=$prefix/.microbench-build-complete-2
}
# reuse_cached_build [WHY]: a complete build of $version is used as it is
reuse_cached_build() {
    [ -f "$stamp" ] || return 0
    say "cached build of $pkg $version${1:+ ($1)}"
    echo "$prefix"
    exit 0
}
use_version "$version"
reuse_cached_build

# verified_older_dsc DIR: the newest of the four minor releases before
# $version, with the same Debian revision, whose .dsc the pool still serves
# and a Debian developer signed; its version on stdout, and in DIR the
# .dsc's signed text alone (gpgv --output: nothing outside the signature is
# read later)
verified_older_dsc() {
    local dir=$1 minor=${upstream##*.} revision=${version##*-} i candidate file
    # a first release (18.0) or a pre-release (19~rc1) has no older minor
    case "$minor" in
    '' | *[!0-9]*) return 1 ;;
    esac
    for i in 1 2 3 4; do
        [ $((minor - i)) -ge 0 ] || break
        candidate=$major.$((minor - i))-$revision
        file=${pkg}_$candidate.dsc
        curl -sf --retry 2 -o "$dir/$file.signed" "$pool/${file//+/%2b}" || continue
        if gpgv --keyring /usr/share/keyrings/debian-keyring.gpg --output "$dir/$file" "$dir/$file.signed" \
                >>"$dir/gpgv.log" 2>&1 &&
            grep -qxF "Source: $pkg" "$dir/$file" && grep -qxF "Version: $candidate" "$dir/$file"; then
            echo "$candidate"
            return 0
        fi
        say "$file: no good signature from a Debian developer's key for $pkg $candidate; not used"
        rm -f "$dir/$file"
    done
    return 1
}

# fetch_verified_orig DIR: the upstream tarball the verified .dsc of
# $version names, into DIR, checked against the .dsc's SHA-256
fetch_verified_orig() {
    local dir=$1 sum name
    read -r sum name < <(awk -v p="${pkg}_$upstream.orig.tar." '
        /^Checksums-Sha256:/ { on = 1; next } /^[^ ]/ { on = 0 }
        on && index($3, p) == 1 { print $1, $3 }' "$dir/${pkg}_$version.dsc")
    [ -n "${name:-}" ] || { say "${pkg}_$version.dsc names no upstream tarball"; return 1; }
    curl -sf --retry 2 -o "$dir/$name" "$pool/$name" || { say "could not fetch $pool/$name"; return 1; }
    echo "$sum  $dir/$name" | sha256sum -c --quiet - >&2 || { say "$name does not match its .dsc's SHA-256"; return 1; }
}

mkdir -p "$cache"
chmod 755 "$cache"
# two runs for the same version (say, two CI jobs) must not build into one
# prefix at the same time: the second waits, then finds the stamp
exec 9>"$cache/.pg-$version.lock"
flock 9
reuse_cached_build "built meanwhile"

# build dependencies: bookworm's, for a configure without ICU and LLVM
# (curl and debian-keyring for an older release fetched past the index)
deps=(build-essential bison flex zlib1g-dev libreadline-dev pkg-config perl bzip2 xz-utils
      postgresql-15-pgtap curl debian-keyring)
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
        grep -q '404 *Not Found' "$logs/download.log" || die "download failed"
        say "$pkg $version is listed in $suite's index, but the mirror does not have its files;" \
            "looking for an older $major.x release it still keeps"
        listed=$version
        found=$work/older
        mkdir -p "$found"
        older=$(verified_older_dsc "$found") || {
            # not a build failure: run_pg_matrix.sh reports it as a skip
            say "no signed $pkg release older than $listed on the mirror"
            rm -rf "$work"
            exit 3
        }
        mv "$found/${pkg}_$older.dsc" "$cache/.${pkg}_$older.dsc"
        flock -u 9
        rm -rf "$work"
        use_version "$older"
        say "using $pkg $version (its .dsc has a good Debian developer's signature)"
        reuse_cached_build
        exec 9>"$cache/.pg-$version.lock"
        flock 9
        work=$cache/work-pg-$version
        logs=$work/logs
        rm -rf "$work" "$prefix"
        mkdir -p "$work/src" "$work/build" "$logs"
        mv "$cache/.${pkg}_$version.dsc" "$work/src/${pkg}_$version.dsc"
        fetch_verified_orig "$work/src" || exit 1
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
# pg_stat_statements for the statement tests; pageinspect, amcheck and
# pg_visibility for the tests that prove the direct load's pages identical
# to Postgres's own (without them those tests would only be skipped)
for module in pg_stat_statements pageinspect amcheck pg_visibility; do
    step "$module" make -s -C "contrib/$module" install
done

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

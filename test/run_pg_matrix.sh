#!/usr/bin/env bash
# test/run_pg_matrix.sh — the pgTAP suite on PostgreSQL majors other than
# Debian's 15 (which make test covers), each built from Debian's source.
#
#   test/run_pg_matrix.sh [CHECK...]        default: 17 18 19
#
# A CHECK is a major (18), or a major and :no-direct-pages (18:no-direct-
# pages: the extension built without its direct page writing, as on a
# major whose pages the suite does not prove).  First every major is built
# by test/pg_source_build.sh (cached between runs), one after the other:
# the builds use every CPU, and two would also share apt's locks.  Then the
# checks (test/check_pg_version.sh) run in two lanes, each with its own
# ports: much of a suite is runs of fixed seconds, which two lanes overlap.
# The checks of one major share its installation, into which each
# installs the extension, so they run one after the other in one lane.
# Every check runs even after one fails; the end is one line per check
# (version, outcome, build and test seconds) and a count.  A major whose
# source the mirror does not serve is skipped, not failed: nothing about
# the extension is known from it, and it would otherwise fail CI for good.
# Exits non-zero if any check failed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(17 18 19)

work=$(mktemp -d /tmp/microbench-matrix.XXXXXX)
trap 'rm -rf "$work"' EXIT

declare -A prefix_of=() build_s_of=() build_rc_of=()
majors=()
for check in "${checks[@]}"; do
    major=${check%%:*}
    case "$check" in
    [0-9]* | [0-9]*:no-direct-pages) ;;
    *) echo "run_pg_matrix: '$check' is neither a major nor MAJOR:no-direct-pages" >&2; exit 2 ;;
    esac
    [ -n "${build_rc_of[$major]+set}" ] && continue
    majors+=("$major")
    echo "== PostgreSQL $major: build" >&2
    t0=$SECONDS
    rc=0
    out=$("$here/pg_source_build.sh" "$major") || rc=$?
    build_rc_of[$major]=$rc
    build_s_of[$major]=$((SECONDS - t0))
    prefix_of[$major]=$(tail -n 1 <<<"$out")
done

# one check: its outcome line into $work/N.result, its output into $work/N.log
run_check() {   # run_check N CHECK PORT
    local n=$1 check=$2 port=$3 major=${2%%:*} rc name t0 direct=""
    rc=${build_rc_of[$major]}
    name=$major
    [ "$rc" = 0 ] && name="${prefix_of[$major]##*/pg-}"
    case "$check" in *:no-direct-pages) direct=no; name="$name, no direct pages" ;; esac
    if [ "$rc" = 3 ]; then
        echo "pg $name: skipped, source not on the mirror (build ${build_s_of[$major]}s)" >"$work/$n.result"
        return
    elif [ "$rc" != 0 ]; then
        echo "pg $name: FAILED to build (build ${build_s_of[$major]}s)" >"$work/$n.result"
        return
    fi
    t0=$SECONDS
    if DIRECT_PAGES=$direct MB_TEST_PORT=$port PG_PREFIX=${prefix_of[$major]} \
            "$here/check_pg_version.sh" >"$work/$n.log" 2>&1; then
        echo "pg $name: passed (build ${build_s_of[$major]}s, tests $((SECONDS - t0))s)" >"$work/$n.result"
    else
        echo "pg $name: FAILED tests (build ${build_s_of[$major]}s, tests $((SECONDS - t0))s)" >"$work/$n.result"
    fi
}

# the majors alternate between the two lanes; a major's checks stay in one
lanes=("" "")
i=0
for major in "${majors[@]}"; do
    for n in "${!checks[@]}"; do
        [ "${checks[$n]%%:*}" = "$major" ] && lanes[$((i % 2))]+=" $n"
    done
    i=$((i + 1))
done
run_lane() {   # run_lane PORT N...
    local port=$1 n
    shift
    for n in "$@"; do
        run_check "$n" "${checks[$n]}" "$port"
    done
}
echo "== PostgreSQL checks: ${checks[*]}, in two lanes" >&2
# shellcheck disable=SC2086 # the lanes are lists of numbers
run_lane 5521 ${lanes[0]} &
lane0=$!
# shellcheck disable=SC2086
run_lane 5541 ${lanes[1]} &
lane1=$!
wait "$lane0" "$lane1" || true

passed=0 failed=0 skipped=0
for n in "${!checks[@]}"; do
    if [ -f "$work/$n.log" ]; then
        echo "== PostgreSQL ${checks[$n]}"
        cat "$work/$n.log"
    fi
done
echo "== PostgreSQL matrix"
for n in "${!checks[@]}"; do
    result=$(cat "$work/$n.result" 2>/dev/null || echo "pg ${checks[$n]}: FAILED (no outcome)")
    echo "$result"
    case "$result" in
    *": passed"*) passed=$((passed + 1)) ;;
    *": skipped"*) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)) ;;
    esac
done
echo "matrix: $passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]

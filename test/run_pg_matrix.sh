#!/usr/bin/env bash
# test/run_pg_matrix.sh — the pgTAP suite on PostgreSQL majors other than
# Debian's 15 (which make test covers), each built from Debian's source.
#
#   test/run_pg_matrix.sh [MAJOR...]        default: 17 18 19
#
# For each major: test/pg_source_build.sh (cached between runs), then
# test/check_pg_version.sh.  Every major runs even after one fails; the end
# is one line per major (version, outcome, build and test seconds) and a
# count.  A major whose source the mirror does not serve is skipped, not
# failed: nothing about the extension is known from it, and it would
# otherwise fail CI for good.  Exits non-zero if any major failed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(17 18 19)

summary=()
passed=0 failed=0 skipped=0
for major in "${majors[@]}"; do
    echo "== PostgreSQL $major" >&2
    t0=$SECONDS
    rc=0
    out=$("$here/pg_source_build.sh" "$major") || rc=$?
    build_s=$((SECONDS - t0))
    prefix=$(tail -n 1 <<<"$out")
    name="$major"
    [ $rc = 0 ] && name="${prefix##*/pg-}"
    if [ $rc = 3 ]; then
        summary+=("pg $name: skipped, source not on the mirror (build ${build_s}s)")
        skipped=$((skipped + 1))
        continue
    elif [ $rc != 0 ]; then
        summary+=("pg $name: FAILED to build (build ${build_s}s)")
        failed=$((failed + 1))
        continue
    fi
    t0=$SECONDS
    if PG_PREFIX=$prefix "$here/check_pg_version.sh"; then
        summary+=("pg $name: passed (build ${build_s}s, tests $((SECONDS - t0))s)")
        passed=$((passed + 1))
    else
        summary+=("pg $name: FAILED tests (build ${build_s}s, tests $((SECONDS - t0))s)")
        failed=$((failed + 1))
    fi
done

echo "== PostgreSQL matrix"
printf '%s\n' "${summary[@]}"
echo "matrix: $passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]

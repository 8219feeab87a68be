# test/tap.sh — the TAP helpers every shell test uses.
#
# Sourced by every shell test: test/pg/*.t, test/compare/lib.sh,
# test/mysql/tap.sh, test/unit/*.sh and the others.  Each check prints
# "ok N - name" or "not ok N - name" as prove expects, and on a failure the
# compared values on stderr (prove shows stderr, so a CI log carries them);
# done_testing prints the plan and fails if any check failed.

tap_count=0
tap_failed=0

ok() {                      # ok CONDITION_EXIT_STATUS NAME
    local status=$1; shift
    tap_count=$((tap_count + 1))
    if [ "$status" -eq 0 ]; then
        echo "ok $tap_count - $*"
    else
        echo "not ok $tap_count - $*"
        tap_failed=$((tap_failed + 1))
    fi
}

is() {                      # is HAVE WANT NAME
    local have=$1 want=$2; shift 2
    tap_count=$((tap_count + 1))
    if [ "$have" = "$want" ]; then
        echo "ok $tap_count - $*"
    else
        echo "not ok $tap_count - $*"
        echo "#   have: $have" >&2
        echo "#   want: $want" >&2
        tap_failed=$((tap_failed + 1))
    fi
}

like() {                    # like HAVE REGEX NAME (grep -E)
    local have=$1 re=$2; shift 2
    tap_count=$((tap_count + 1))
    if grep -qE -e "$re" <<<"$have"; then
        echo "ok $tap_count - $*"
    else
        echo "not ok $tap_count - $*"
        echo "#   have: $have" >&2
        echo "#   want: /$re/" >&2
        tap_failed=$((tap_failed + 1))
    fi
}

done_testing() {
    echo "1..$tap_count"
    [ "$tap_failed" -eq 0 ]
}

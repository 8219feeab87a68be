# test/mysql/tap.sh — a few TAP helpers for the client's shell tests.
#
# Sourced by test/mysql/*.t.  Each check prints "ok N - name" or
# "not ok N - name" with the compared values, as prove expects; done_testing
# prints the plan and exits non-zero if anything failed.

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
        echo "#   have: $have"
        echo "#   want: $want"
        tap_failed=$((tap_failed + 1))
    fi
}

done_testing() {
    echo "1..$tap_count"
    [ "$tap_failed" -eq 0 ]
}

# The client, connected to the test server as the unprivileged user bench.
mbm() {
    MYSQL_PWD="$MB_MYSQL_PASSWORD" "$MBM" --mysql-socket="$MYSQL_SOCKET" \
        --mysql-user=bench --mysql-db=sbtest "$@"
}

# One value from the test server.
my_value() {
    MYSQL_PWD="$MB_MYSQL_PASSWORD" mariadb --no-defaults -hlocalhost \
        --socket="$MYSQL_SOCKET" -ubench -N -B sbtest -e "$1"
}

# A global status counter.
my_status() {
    my_value "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = '$1'"
}

# One value from the results database.
pg_value() {
    psql -X -A -t -q -d "$MB_RESULTS_DB" -c "$1"
}

# A field of a JSON line (numbers and plain strings only).
json_field() {              # json_field LINE FIELD
    printf '%s' "$1" | sed -E "s/.*\"$2\": (\"([^\"]*)\"|([^,}]*)).*/\\2\\3/"
}

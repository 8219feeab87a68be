# test/mysql/tap.sh — the client's shell-test helpers: the generic TAP
# checks of test/tap.sh, plus ways to run the client and to read values from
# the test server and the results database.  Sourced by test/mysql/*.t.

. "$(dirname "${BASH_SOURCE[0]}")/../tap.sh"

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

# test/pgsql/tap.sh — helpers of the pgsql driver's shell tests: the TAP
# checks of test/tap.sh, the client on the test cluster's database, and
# values from it.  Sourced by test/pgsql/*.t (test/run_pgsql_tests.sh sets
# PGHOST, PGPORT, PGUSER, MB, MB_PG_DB and MB_RESULTS_DB).

. "$(dirname "${BASH_SOURCE[0]}")/../tap.sh"

# The client with the pgsql driver on the test database, libpq's
# environment giving host, port and user.
mbp() {
    "$MB" --db-driver=pgsql --pgsql-db="$MB_PG_DB" "$@"
}

# One value from the test database.
pg_value() {
    psql -X -A -t -q -d "$MB_PG_DB" -c "$1"
}

# A field of a JSON line (numbers and plain strings only).
json_field() {              # json_field LINE FIELD
    printf '%s' "$1" | sed -E "s/.*\"$2\": (\"([^\"]*)\"|([^,}]*)).*/\\2\\3/"
}

#!/usr/bin/env bash
# 05_server_facts.t — --server-facts=off with --server-status=off: the
# server sees the workers' sessions and nothing else (a counted comparison's
# run of one event over the wire relies on it), and the run is still
# recorded, naming no server version; with the facts on, the client's
# session before the workers' is there as well.
set -u
. "$(dirname "$0")/tap.sh"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The database's sessions, read on one session of our own kept open the
# whole time (a reading session of its own would count too).
coproc READER { psql -X -A -t -q -d "$MB_PG_DB" 2>&1; }
sessions() {
    echo "SELECT pg_stat_clear_snapshot(); SELECT sessions FROM pg_stat_database WHERE datname = current_database();" >&"${READER[1]}"
    local line
    while read -r line <&"${READER[0]}"; do
        [ -n "$line" ] && { echo "$line"; return; }
    done
}

# The sessions the run made, once they have ended and reported (a session
# is counted as it ends; at most 30 s), and a second later.
sessions_after() {          # sessions_after BEFORE AT_LEAST
    local i
    for i in $(seq 300); do
        [ $(($(sessions) - $1)) -ge "$2" ] && break
        sleep 0.1
    done
    sleep 1
    echo $(($(sessions) - $1))
}

before=$(sessions)
mbp --threads=2 --events=20 --time=0 --warmup-time=0 --server-status=off --server-facts=off \
    --results-file="$out/off.jsonl" run point-query >"$out/off.log" 2>&1
is "$?" 0 "a run with --server-facts=off and --server-status=off: exit 0"
is "$(sessions_after "$before" 2)" 2 "the server saw two sessions: the two workers' and no other"
row=$(cat "$out/off.jsonl")
is "$(json_field "$row" events):$(json_field "$row" version)" "20:" "its row: 20 events, no server version"

before=$(sessions)
mbp --threads=2 --events=20 --time=0 --warmup-time=0 --server-status=off \
    --results-file="$out/on.jsonl" run point-query >"$out/on.log" 2>&1
is "$?" 0 "the same run with the facts on: exit 0"
is "$(sessions_after "$before" 3)" 3 "the server saw three sessions: the check of the tables and version, and the two workers'"
is "$(json_field "$(cat "$out/on.jsonl")" version)" "$(pg_value "SHOW server_version")" "its row names the server's version"

is "$(mbp --server-facts=maybe run point-query 2>&1 >/dev/null; echo "exit $?")" \
   "$(printf '%s\n%s' "$(basename "$MB"): --server-facts must be on or off, not \"maybe\" (see --help)" "exit 2")" \
   "--server-facts=maybe: refused"
done_testing

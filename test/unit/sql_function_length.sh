#!/usr/bin/env bash
# sql_function_length.sh — no SQL function body of the project over 120 lines (TAP).
#
# The same rule as function_length.sh, for the SQL: a function or DO block
# whose body does not fit on two screens is one whose steps cannot be read,
# or changed, one at a time, so every body in results_schema/*.sql,
# results_schema/upgrade/*.sql and extension/microbench_functions.sql keeps
# to 120 lines at most.  A body is what lies between its opening dollar
# quote ($$, $fn$, ...) and the same quote closing it, the lines of the
# quotes not counted.  The first dollar quote after a statement's end opens
# a body and only the same tag closes it, so a body may hold other quotes
# of other tags.  Needs nothing built.
set -u
. "$(dirname "$0")/../tap.sh"
cd "$(dirname "$0")/../.." || exit 1

MAX_LINES=120

# The bodies of the files named over MAX_LINES, "FILE:LINE NAME (N lines)"
# a line, then "bodies N": how many it read, so that a layout it no longer
# recognises shows as too few rather than as none too long.  NAME is the
# function or procedure the statement creates, or "DO block".
long_bodies() {
    awk -v max="$MAX_LINES" '
        FNR == 1 { inbody = 0; name = "" }
        {
            line = $0
            if (!inbody && match(line, /(FUNCTION|PROCEDURE)[ \t]+[A-Za-z_][A-Za-z0-9_.]*/)) {
                name = substr(line, RSTART, RLENGTH)
                sub(/^[A-Z]+[ \t]+/, "", name)
            }
            if (!inbody && line ~ /^DO([ \t]|$)/)
                name = "DO block"
            while (match(line, /\$[A-Za-z_]*\$/)) {
                tag = substr(line, RSTART, RLENGTH)
                line = substr(line, RSTART + RLENGTH)
                if (!inbody) {
                    inbody = 1; open_tag = tag; start = FNR
                } else if (tag == open_tag) {
                    inbody = 0; bodies++
                    n = FNR - start - 1
                    if (n > max) printf "%s:%d %s (%d lines)\n", FILENAME, start, name, n
                }
            }
        }
        END { print "bodies " bodies + 0 }' "$@"
}

files=$(ls results_schema/*.sql results_schema/upgrade/*.sql extension/microbench_functions.sql 2>/dev/null)
# shellcheck disable=SC2086  # one file a word
out=$(long_bodies $files)
bodies=$(sed -n 's/^bodies //p' <<<"$out")
long=$(grep -v '^bodies ' <<<"$out" | paste -sd';' - | sed 's/;/; /g')
ok "$([ -z "$long" ] && [ "$bodies" -gt 100 ]; echo $?)" \
    "no SQL function body of results_schema/ or extension/microbench_functions.sql is over $MAX_LINES lines ($(wc -w <<<"$files") files, $bodies bodies read)${long:+: $long}"

# the check itself sees a body one line too long, and only that one, past
# a one-line body and a body holding a quote of another tag
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fake() {  # fake NAME LINES: a PL/pgSQL function whose body is LINES lines
    printf 'CREATE OR REPLACE FUNCTION microbench.%s(a integer)\nRETURNS integer LANGUAGE plpgsql\nAS $fn$\n' "$1"
    printf 'BEGIN\n'
    for _ in $(seq 3 "$2"); do printf '    EXECUTE $q$SELECT 1$q$;\n'; done
    printf 'END\n$fn$;\n\n'
}
{ printf 'CREATE FUNCTION microbench.one_line() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$;\n\n'
  fake fits "$MAX_LINES"; fake too_long $((MAX_LINES + 1)); } >"$tmp/fake.sql"
seen=$(long_bodies "$tmp/fake.sql" | sed "s|^$tmp/fake.sql:[0-9]* ||")
ok "$([ "$seen" = "microbench.too_long ($((MAX_LINES + 1)) lines)"$'\n'"bodies 3" ]; echo $?)" \
    "the check sees a body of $((MAX_LINES + 1)) lines, not one of $MAX_LINES nor a one-line body"

done_testing

#!/usr/bin/env bash
# function_length.sh — no C function of the project over 120 lines (TAP).
#
# A function that does not fit on two screens is one whose steps cannot be
# read, or changed, one at a time: every C file of the extension, the
# client (its drivers and the comparison runner too) and common/ keeps its
# functions to 120 lines at most, from the line that names the function to
# its closing brace.  The files follow the PostgreSQL layout, which makes a
# definition easy to find without a parser: its name starts a line, its
# parameter list ends the line before the opening brace, and both braces
# stand at column 0.  Needs nothing built.
set -u
. "$(dirname "$0")/../tap.sh"
cd "$(dirname "$0")/../.." || exit 1

MAX_LINES=120

# The functions of the files named over MAX_LINES, "FILE:LINE NAME (N lines)"
# a line, then "definitions N": how many it read, so that a layout it no
# longer recognises shows as too few rather than as none too long.  A brace
# at column 0 after a line ending in ")" opens a definition (a struct or an
# initialiser follows a name or "=").
long_functions() {
    awk -v max="$MAX_LINES" '
        FNR == 1 { prev = ""; body = 0 }
        /^[A-Za-z_][A-Za-z0-9_ *]*\(/ && !body { sig = $0; start = FNR }
        /^\{/ && prev ~ /\)[ \t]*$/ {
            body = 1; name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
        }
        /^\}/ && body {
            body = 0; defs++
            if (FNR - start + 1 > max) printf "%s:%d %s (%d lines)\n", FILENAME, start, name, FNR - start + 1
        }
        NF { prev = $0 }
        END { print "definitions " defs + 0 }' "$@"
}

files=$(find extension client common -name '*.c' | sort)
# shellcheck disable=SC2086  # one file a word
out=$(long_functions $files)
defs=$(sed -n 's/^definitions //p' <<<"$out")
long=$(grep -v '^definitions ' <<<"$out" | paste -sd';' - | sed 's/;/; /g')
ok "$([ -z "$long" ] && [ "$defs" -gt 500 ]; echo $?)" \
    "no function of extension/, client/ or common/ is over $MAX_LINES lines ($(wc -w <<<"$files") files, $defs definitions read)${long:+: $long}"

# the check itself sees a function one line too long, and only that one
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fake() {  # fake NAME LINES: a definition of LINES lines in the project's layout
    printf 'static int\n%s(int a,\n\t int b)\n{\n' "$1"
    for _ in $(seq 5 "$2"); do printf '\ta += b;\n'; done
    printf '}\n\n'
}
{ printf 'static const int table[] =\n{\n'; for _ in $(seq 1 200); do printf '\t1,\n'; done; printf '};\n\n'
  fake fits "$MAX_LINES"; fake too_long $((MAX_LINES + 1)); } >"$tmp/fake.c"
seen=$(long_functions "$tmp/fake.c" | sed "s|^$tmp/fake.c:[0-9]* ||")
ok "$([ "$seen" = "too_long ($((MAX_LINES + 1)) lines)"$'\n'"definitions 2" ]; echo $?)" \
    "the check sees a function of $((MAX_LINES + 1)) lines, not one of $MAX_LINES nor a long initialiser"

done_testing

#!/usr/bin/env bash
# json_by_parser.sh — the client reads and writes JSON with json-c, never by
# string search or splicing (TAP).  A run's record once had fields spliced
# in before its last '}' and read back with strstr on '"key": ', which broke
# on a note or a name holding what JSON must escape; these checks keep such
# code from coming back.  Needs nothing built.
set -u
. "$(dirname "$0")/../tap.sh"
cd "$(dirname "$0")/../.." || exit 1

# spliced: a closing brace searched for, to write before it
splice() { grep -nE "strrchr\([^;]*'\}'\)" "$@"; }
# searched: a JSON key looked for as text ("\"name\": ")
search() { grep -nE 'strstr\([^;]*\\"[a-z_]+\\": ' "$@"; }

sources=$(find client -name '*.c')
found=$(splice $sources)
is "$found" "" "no JSON spliced before its closing brace in client/"
found=$(search $sources)
is "$found" "" "no JSON key searched for as text (strstr) in client/"

# the checks see what they look for
sample=$(mktemp /tmp/json_by_parser.XXXXXX.c)
trap 'rm -f "$sample"' EXIT
printf '%s\n' "char *end = strrchr(line, '}');" 'const char *p = strstr(line, "\"client_pids\": [");' >"$sample"
is "$(splice "$sample" | wc -l):$(search "$sample" | wc -l)" "1:1" "the checks see a splice and a key searched for as text"

done_testing

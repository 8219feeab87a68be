#!/usr/bin/env bash
# client_layout.sh — the client's architecture, checked on its objects (TAP).
#
# The core (client/*.c) must never know a driver: it reaches one only
# through the registry (client/drivers/mbm_drivers.c) and the driver table,
# so no core object may use the MySQL C API, a driver's own symbols, or
# libpq outside the results database's two modules and the comparison
# runner (client/compare/, which drives the servers it starts).  And no file of the
# client may depend on another that depends back on it, directly or
# through others: the dependency of one object on another is "uses a
# symbol it defines" (nm), and tsort finds any circle.  Needs the client
# built (make -C client).
set -u
cd "$(dirname "$0")/../../client" || exit 1
make -s >/dev/null || { echo "Bail out! cannot build the client"; exit 1; }

n=0 failed=0
ok() {  # ok STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}

core=$(make -s print-core-objs)
drivers=$(ls drivers/*/*.o)
registry_syms='^(mbm_drivers|mbm_driver_find)$'

defined() { nm --defined-only "$@" 2>/dev/null | awk 'NF == 3 && $2 ~ /[A-Z]/ {print $3}' | sort -u; }
used() { nm -u "$1" | awk '{print $2}' | sort -u; }

driver_syms=$(defined $drivers)
bad_mysql="" bad_driver="" bad_pq=""
for o in $core; do
    u=$(used "$o")
    grep -q '^mysql_' <<<"$u" && bad_mysql+=" $o"
    grep -qxF -f <(grep -vE "$registry_syms" <<<"$driver_syms") <<<"$u" && bad_driver+=" $o"
    # the results database, and the runner driving the servers it starts
    case $o in mbm_results.o | mbm_load.o | compare/*.o) ;; *) grep -q '^PQ' <<<"$u" && bad_pq+=" $o" ;; esac
done
ok "$([ -z "$bad_mysql" ]; echo $?)" "no core object uses the MySQL C API${bad_mysql:+ (used by$bad_mysql)}"
ok "$([ -z "$bad_driver" ]; echo $?)" "no core object uses a driver's symbols, only the registry's${bad_driver:+ (used by$bad_driver)}"
ok "$([ -z "$bad_pq" ]; echo $?)" "libpq only in the results database's modules and the runner's${bad_pq:+ (also in$bad_pq)}"

inc=$( { grep -lE '#include *[<"](mysql|errmsg)\.h|#include *"drivers/|#include *"mbm_(mysql|pgsql)\.h' \
            ./*.[ch] compare/*.[ch]
        grep -l '#include *<libpq-fe\.h>' ./*.[ch] | grep -vE '^\./mbm_(results|load)\.c$'; } | paste -sd' ' -)
ok "$([ -z "$inc" ]; echo $?)" "no core source includes a driver's header${inc:+ ($inc)}"

# the dependency graph: "A B" when object A uses a symbol object B defines
edges() {
    local objs=("$@") a b
    for a in "${objs[@]}"; do
        for b in "${objs[@]}"; do
            [ "$a" = "$b" ] && continue
            if grep -qxF -f <(defined "$b") <(used "$a"); then echo "$a $b"; fi
        done
    done
}
graph=$(edges $core drivers/mbm_drivers.o $drivers)
loops=$(tsort <<<"$graph" 2>&1 >/dev/null | grep -v 'input contains a loop')
ok "$([ -n "$graph" ] && [ -z "$loops" ]; echo $?)" "no circle among the client's files ($(wc -l <<<"$graph") dependencies)${loops:+: $(tr '\n' ' ' <<<"$loops")}"
# the check itself finds a circle where there is one
tsort <<<"$graph"$'\nmbm_driver.o mbm_main.o' >/dev/null 2>&1
ok "$([ $? -ne 0 ]; echo $?)" "the circle check sees one when mbm_driver.o is made to use mbm_main.o"

# the runner's steps stay readable: no function in client/compare over 120
# lines (PostgreSQL layout: a definition's braces stand at column 0)
long=$(awk '/^[A-Za-z_][A-Za-z0-9_ *]*\(/ { if (!body) { name = $0; sub(/\(.*/, "", name); sub(/.* \**/, "", name); start = FNR } }
            /^\{/ { body = 1 }
            /^\}/ { if (body && FNR - start + 1 > 120) printf "%s:%d %s (%d lines) ", FILENAME, start, name, FNR - start + 1; body = 0 }' \
        compare/*.c)
nfuncs=$(grep -c '^{' compare/*.c | awk -F: '{s += $2} END {print s}')
ok "$([ -z "$long" ] && [ "$nfuncs" -gt 50 ]; echo $?)" "no function in client/compare is over 120 lines ($nfuncs definitions read)${long:+: $long}"

echo "1..$n"
[ "$failed" -eq 0 ]

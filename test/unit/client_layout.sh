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
# symbol it defines" (nm), and tsort finds any circle.  Inside the
# comparison runner (client/compare/) the files also keep the order its
# header lists them in, a header included counting as a use of its file.
# Needs the client built (make -C client).
set -u
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/symbol_graph.sh"
cd "$(dirname "$0")/../../client" || exit 1
make -s >/dev/null || { echo "Bail out! cannot build the client"; exit 1; }

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

# the dependency graph (symbol_graph.sh)
graph=$(symbol_edges $core drivers/mbm_drivers.o $drivers)
loops=$(tsort <<<"$graph" 2>&1 >/dev/null | grep -v 'input contains a loop')
ok "$([ -n "$graph" ] && [ -z "$loops" ]; echo $?)" "no circle among the client's files ($(wc -l <<<"$graph") dependencies)${loops:+: $(tr '\n' ' ' <<<"$loops")}"
# the check itself finds a circle where there is one
tsort <<<"$graph"$'\nmbm_driver.o mbm_main.o' >/dev/null 2>&1
ok "$([ $? -ne 0 ]; echo $?)" "the circle check sees one when mbm_driver.o is made to use mbm_main.o"

# client/compare's files depend one way, in the order its header gives
# (compare/mbm_compare.h, top first): a file uses only files listed after
# it.  There a file also depends on another whose header it includes (each
# header is a file's own, mbm_x.h mbm_x.c's), since the macros and types a
# header holds are used without a symbol nm would see: the runner's say()
# and refuse() once lived in the command's header, and every file that
# used them stood above the command and below it at once.
cmp_graph=$( { grep '^compare/[^ ]*\.o compare/' <<<"$graph" | sed 's|compare/||g; s|\.o||g'
               grep -o '^#include *"mbm_[a-z_]*\.h"' compare/*.[ch] |
                   sed -E 's|^compare/([a-z_]*)\.[ch]:#include *"([a-z_]*)\.h"$|\1 \2|' |
                   while read -r a b; do [ "$a" != "$b" ] && [ -f "compare/$b.h" ] && echo "$a $b"; done
             } | sort -u)
orphans=$(for h in compare/*.h; do [ -f "${h%.h}.c" ] || printf ' %s' "$h"; done)
ok "$([ -z "$orphans" ]; echo $?)" "every header in client/compare is a file's own, named after it${orphans:+ (none for$orphans)}"
loops=$(tsort <<<"$cmp_graph" 2>&1 >/dev/null | grep -v 'input contains a loop' | sed 's/^tsort: //')
ok "$([ -n "$cmp_graph" ] && [ -z "$loops" ]; echo $?)" "no circle among client/compare's files ($(wc -l <<<"$cmp_graph") dependencies, by symbol and by header)${loops:+: $(tr '\n' ' ' <<<"$loops")}"
tsort <<<"$cmp_graph"$'\nmbm_state mbm_compare' >/dev/null 2>&1
ok "$([ $? -ne 0 ]; echo $?)" "the circle check sees one when mbm_state.c is made to use mbm_compare.c"

# the order: each listed once, every file listed, every dependency downwards
order=$(sed -n 's/^ \*   \(mbm_[a-z_]*\)\.c .*/\1/p' compare/mbm_compare.h)
upwards() {  # the dependencies on stdin that go up the order, "a -> b" each
    awk 'NR == FNR { at[$1] = NR; next } !($1 in at) || !($2 in at) || at[$1] >= at[$2] { printf "%s -> %s; ", $1, $2 }' \
        <(echo "$order") -
}
unlisted=$(comm -3 <(sort <<<"$order") <(ls compare/*.c | sed 's|compare/||; s|\.c$||' | sort) | tr -d '\t' | paste -sd' ' -)
twice=$(sort <<<"$order" | uniq -d | paste -sd' ' -)
up=$(upwards <<<"$cmp_graph")
ok "$([ -z "$unlisted$twice$up" ]; echo $?)" \
    "client/compare/mbm_compare.h lists its $(grep -c . <<<"$order") files in an order every dependency follows${unlisted:+; listed or there but not both: $unlisted}${twice:+; listed twice: $twice}${up:+; upwards: $up}"
up=$(upwards <<<"mbm_proc mbm_state")
ok "$([ -n "$up" ]; echo $?)" "the order check sees mbm_proc.c made to use mbm_state.c"

done_testing

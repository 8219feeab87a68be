#!/usr/bin/env bash
# extension_layout.sh — the extension's files depend one way (TAP).
#
# No file of the extension may depend on another that depends back on it,
# directly or through others: a file can then be read, and changed, knowing
# only the files below it.  The loader is the case in point: mb_load.c
# chooses the path, mb_load_pages.c writes the direct path's pages and
# mb_btree.c their indexes, each above what they share.  The dependency of
# one object on another is "uses a symbol it defines" (nm), over every
# object the extension's library links, common/'s too; tsort finds any
# circle.  Builds the extension first (make -C extension), so it needs
# pg_config and the server headers.
set -u
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/symbol_graph.sh"
cd "$(dirname "$0")/../.." || exit 1
make -s -C extension >/dev/null || { echo "Bail out! cannot build the extension"; exit 1; }

# the library's objects as the Makefile lists them, named from the top
mapfile -t objs < <(make -s --no-print-directory -C extension print-objs | tr ' ' '\n' | grep '\.o$' |
    sed 's|^\.\./||; /\//!s|^|extension/|')
[ "${#objs[@]}" -gt 0 ] || { echo "Bail out! extension/Makefile lists no objects"; exit 1; }

# the dependency graph (symbol_graph.sh)
graph=$(symbol_edges "${objs[@]}")
loops=$(tsort <<<"$graph" 2>&1 >/dev/null | grep -v 'input contains a loop' | sed 's/^tsort: //')
ok "$([ -n "$graph" ] && [ -z "$loops" ]; echo $?)" "no circle among the extension's files ($(wc -l <<<"$graph") dependencies)${loops:+: $(tr '\n' ' ' <<<"$loops")}"
# the check itself finds a circle where there is one
tsort <<<"$graph"$'\nextension/mb_btree.o extension/mb_load.o' >/dev/null 2>&1
seen=$?
ok "$([ "$seen" -ne 0 ]; echo $?)" "the circle check sees one when mb_btree.o is made to use mb_load.o"

done_testing

# test/unit/symbol_graph.sh — sourced by the layout checks: the dependency
# graph of object files, "A B" a line when object A uses a symbol object B
# defines (a global one, as the linker resolves them).  One nm -A over all
# the objects names each symbol's object, so the graph costs one nm however
# many objects there are.
symbol_edges() {   # symbol_edges OBJECT...
    nm -A "$@" | awk '
        { split($1, at, ":"); obj = at[1] }
        NF == 3 && $2 == "U" { used[obj, $3] = 1; next }
        NF == 3 && $2 ~ /^[A-Z]$/ { defined_in[$3] = obj }
        END {
            for (k in used) {
                split(k, u, SUBSEP)
                if ((u[2] in defined_in) && defined_in[u[2]] != u[1]) edge[u[1] " " defined_in[u[2]]] = 1
            }
            for (e in edge) print e
        }' | sort
}

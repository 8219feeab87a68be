#!/usr/bin/env bash
# server_kinds.sh — the comparison runner handles its kinds of server
# (Postgres in-server, Postgres over the wire, MariaDB, MySQL) through one
# table, client/compare/mbm_kinds.c, as the client handles its drivers
# (TAP).  Before it, mbm_run_start took a Postgres and a MariaDB server to
# use one of them, and 27 lines branched on a build's kind; these checks
# keep that from coming back: no function takes parameters of two kinds of
# server, and outside the table only a few lines test a kind, where the
# request chooses it once.  Needs nothing built.
set -u
. "$(dirname "$0")/../tap.sh"
cd "$(dirname "$0")/../.." || exit 1

# functions whose parameters hold a Postgres and a MariaDB/MySQL server or
# build: "file: name(...)" each, comments left out
two_kinds() {
    perl -0777 -ne '
        s{/\*.*?\*/}{}gs;
        while (/\b(\w+)\s*\(((?:[^()]|\([^()]*\))*)\)\s*[;{]/g) {
            my ($name, $params) = ($1, $2);
            next if $name =~ /^(if|while|for|switch|return|sizeof)$/;
            print "$ARGV: $name\n"
                if $params =~ /\bmbm_pg(server|build)\b/ && $params =~ /\bmbm_my(server|build)\b/;
        }' "$@"
}
# lines that test a server's kind: a build's family pointer or path taken
# as a condition, a kind compared, a kind's name compared as text
kind_tests() {
    grep -nE '(->|\.)(pg|my)[[:space:]]*(\?|&&|\|\||==|!=|\))|![[:space:]]*[][a-z_.>-]*(->|\.)(pg|my)\b|(->|\.)wire\b|(==|!=)[[:space:]]*MBM_KIND_|MBM_KIND_[A-Z_]+[[:space:]]*(==|!=)|strcmp\([^;]*kind[^;]*"(pg|postgres|mysql|mariadb)"' "$@"
}

sources=$(ls client/compare/*.[ch])
found=$(two_kinds $sources)
is "$found" "" "no function in client/compare takes parameters of two kinds of server"
table=client/compare/mbm_kinds.c
found=$(kind_tests $(grep -vxF "$table" <<<"$sources"))
n=$(grep -c . <<<"$found")
ok "$([ "$n" -le 6 ]; echo $?)" "at most 6 lines outside $table test a server's kind ($n)"
[ "$n" -le 6 ] || echo "$found" | sed 's/^/# /' >&2

# the checks see what they look for
sample=$(mktemp /tmp/server_kinds.XXXXXX.c)
trap 'rm -f "$sample"' EXIT
cat >"$sample" <<'C'
extern int	start(const mbm_any_build *ab, mbm_pgserver *pgs,
				  mbm_myserver *mys, const char *copy);
static int one(const mbm_pgserver *pgs, int (*cb) (void *arg));
	started = ab->pg ? mbm_pg_start(pgs) : mbm_my_start(mys);
	if (!(ab->pg && ab->wire))
	if (rq.all[i].kind == MBM_KIND_PG)
C
is "$(two_kinds "$sample" | wc -l):$(kind_tests "$sample" | wc -l)" "1:3" \
    "the checks see a function of two kinds and three lines testing a kind"

done_testing

/*
 * test_callgrind.c — unit tests of the reader of callgrind's dumps
 * (client/compare/mbm_callgrind.c), on dumps written here in callgrind's
 * format: totals, an object's own instructions, each function's self and
 * inclusive instructions (compressed names, a call's inclusive cost, a
 * recursion level, a callee in another object), the tables summed and
 * differenced, and their JSON.  TAP on stdout.
 */
#include "mbm_callgrind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int	tests = 0;
static int	failed = 0;

static void
ok(int cond, const char *what)
{
	tests++;
	if (!cond)
		failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tests, what);
}

static void
write_file(const char *path, const char *text)
{
	FILE	   *f = fopen(path, "w");

	if (f == NULL)
	{
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static const mbm_cg_function *
find(const mbm_cg_functions *fns, const char *object, const char *name)
{
	size_t		i;

	for (i = 0; i < fns->n; i++)
		if (strcmp(fns->f[i].object, object) == 0 && strcmp(fns->f[i].name, name) == 0)
			return &fns->f[i];
	return NULL;
}

/*
 * main (10 itself) calls work (90 with its callees); work (40 itself)
 * calls itself once more (work'2, 30 itself) and memcpy in libc (20).
 */
static const char *const dump =
	"# callgrind format\n"
	"version: 1\n"
	"desc: Trigger: Client Request: microbench window\n"
	"positions: line\n"
	"events: Ir\n"
	"summary: 100\n"
	"\n"
	"ob=(1) /opt/pg/bin/postgres\n"
	"fl=(1) ???\n"
	"fn=(1) main\n"
	"0 10\n"
	"cfn=(2) work\n"
	"calls=1 0\n"
	"0 90\n"
	"fn=(2)\n"
	"0 40\n"
	"cfn=(3) work'2\n"
	"calls=1 0\n"
	"0 30\n"
	"cob=(2) /lib/x86_64-linux-gnu/libc.so.6\n"
	"cfn=(4) memcpy\n"
	"calls=1 0\n"
	"0 20\n"
	"fn=(3)\n"
	"0 30\n"
	"ob=(2)\n"
	"fn=(4)\n"
	"0 20\n"
	"totals: 100\n";

int
main(void)
{
	char		path[] = "/tmp/test_callgrind.XXXXXX";
	int			fd = mkstemp(path);
	mbm_cg_counts c;
	mbm_cg_functions fns = {0},
				diff = {0};
	const mbm_cg_function *f;
	char	   *json;

	if (fd < 0)
		return 1;
	write_file(path, dump);

	ok(mbm_callgrind_read(path, "/libc.so.6", "work", &c, &fns) == 0, "a whole dump reads");
	ok(c.v[MBM_CG_IR] == 100, "its totals");
	ok(c.object_ir == 20, "the instructions of the object asked for (libc), calls' inclusive costs not counted");
	ok(c.has_function, "the function asked for has a cost");
	ok(strcmp(c.trigger, "Client Request: microbench window") == 0, "what made the dump");
	ok(fns.n == 3, "three functions: a recursion level is its function");
	f = find(&fns, "postgres", "main");
	ok(f && f->self == 10 && f->inclusive == 100, "main: 10 itself, 100 with what it calls");
	f = find(&fns, "postgres", "work");
	ok(f && f->self == 70 && f->inclusive == 90,
	   "work: both levels' own (70), the call of its second level not counted again (90)");
	f = find(&fns, "libc.so.6", "memcpy");
	ok(f && f->self == 20 && f->inclusive == 20, "memcpy, under its own object's file name");

	json = mbm_cg_functions_json(&fns);
	ok(json && strcmp(json, "[[\"postgres\",\"main\",10,100],[\"postgres\",\"work\",70,90],"
					  "[\"libc.so.6\",\"memcpy\",20,20]]") == 0, "as JSON");
	free(json);

	/* a window as the difference of two runs: the same dump less itself is nothing */
	mbm_cg_functions_add(&diff, &fns, 1.5);
	mbm_cg_functions_add(&diff, &fns, -1.5);
	json = mbm_cg_functions_json(&diff);
	ok(json && strcmp(json, "[]") == 0, "a table less itself: no function left in the JSON");
	free(json);
	mbm_cg_functions_free(&diff);
	mbm_cg_functions_add(&diff, &fns, 2);
	f = find(&diff, "postgres", "work");
	ok(diff.n == 3 && f && f->self == 140 && f->inclusive == 180, "a table added twice");
	mbm_cg_functions_free(&diff);

	/* a dump still being written (no totals yet) adds nothing */
	write_file(path, "# callgrind format\nevents: Ir\nob=(1) /x\nfn=(1) f\n0 5\n");
	mbm_cg_functions_free(&fns);
	ok(mbm_callgrind_read(path, NULL, NULL, &c, &fns) == -1 && fns.n == 0,
	   "a dump without totals: -1, and no function added");

	/* a name JSON must escape */
	write_file(path, "events: Ir\nob=/x/y\nfn=operator\"\"_q\n0 3\ntotals: 3\n");
	ok(mbm_callgrind_read(path, NULL, NULL, &c, &fns) == 0 && (json = mbm_cg_functions_json(&fns)) != NULL &&
	   strcmp(json, "[[\"y\",\"operator\\\"\\\"_q\",3,3]]") == 0, "uncompressed names, escaped in JSON");
	mbm_cg_functions_free(&fns);

	unlink(path);
	printf("1..%d\n", tests);
	return failed ? 1 : 0;
}

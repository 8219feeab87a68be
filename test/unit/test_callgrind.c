/*
 * test_callgrind.c — unit tests of the reader of callgrind's dumps
 * (client/compare/mbm_callgrind.c), on dumps written here in callgrind's
 * format: totals, an object's own instructions, each function's self and
 * inclusive instructions (compressed names, a call's inclusive cost, a
 * recursion level, a callee in another object), the tables summed and
 * differenced, and their JSON; REP string instructions counted once per
 * execution, on dumps written here and on a real callgrind run of
 * rep_forms.c (skipped where valgrind is not installed); functions without
 * a symbol named by what they call.  TAP on stdout.
 */
#include "mbm_callgrind.h"

#include <json-c/json.h>
#include <stdbool.h>
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

/* The functions' JSON as the runner writes it into a run's record; malloc'ed. */
static char *
functions_text(const mbm_cg_functions *fns)
{
	json_object *doc = mbm_cg_functions_json(fns);
	char	   *text = strdup(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN |
															 JSON_C_TO_STRING_NOSLASHESCAPE));

	json_object_put(doc);
	return text;
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

/*
 * Instruction addresses and jumps (--dump-instr=yes --collect-jumps=yes),
 * as callgrind writes a REP instruction: its first execution at the end
 * of the block that leads to it, each repetition in a block of its own
 * that starts at it, whose lines come after.  main (5 itself) calls
 * zero_page twice, whose rep stosb at 0x2006 ran twice, 1,990 times in
 * all: 2 at the end of the block at 0x2000, 1,988 in the block at 0x2006,
 * whose jumps to itself callgrind counted 3,000 times (it counts jumps
 * also while not collecting: the count cannot be trusted, the block's
 * executions can).  memset in libc once, its REP instruction at 0x5004 a
 * block of its own entered once by a jump from 0x5000 and repeated 49
 * times.  main's conditional jump from 0x100a to 0x100d is no repetition.
 * A call's cost line is at the call's address but positions stay
 * relative to the last cost line's.
 */
static const char *const rep_dump =
	"# callgrind format\n"
	"version: 1\n"
	"positions: instr\n"
	"events: Ir\n"
	"\n"
	"ob=(1) /opt/pg/bin/postgres\n"
	"fn=(1) main\n"
	"0x1000 3\n"
	"cfn=(2) zero_page\n"
	"calls=2 0x2000\n"
	"+5 2000\n"
	"+10 2\n"
	"jcnd=1/2 +3\n"
	"*\n"
	"cob=(2) /lib/x86_64-linux-gnu/libc.so.6\n"
	"cfn=(3) memset\n"
	"calls=1 0x5000\n"
	"* 100\n"
	"fn=(2)\n"
	"0x2000 4\n"
	"+2 2\n"
	"+2 2\n"
	"+2 2\n"
	"jcnd=2/2 *\n"
	"*\n"
	"* 1988\n"
	"jcnd=3000/1988 *\n"
	"*\n"
	"+2 2\n"
	"ob=(2)\n"
	"fn=(3)\n"
	"0x5000 40\n"
	"jump=1 +4\n"
	"*\n"
	"+4 50\n"
	"jcnd=49/50 *\n"
	"*\n"
	"+2 10\n"
	"totals: 2105\n";

/*
 * Functions without a symbol, named by callgrind by their addresses: two
 * PLT stubs (one or two instructions a call) of memcpy, a function that
 * calls two, and one that calls one but is no stub (20 instructions a call).
 */
static const char *const stub_dump =
	"positions: instr\n"
	"events: Ir\n"
	"ob=(3) /opt/pg/bin/postgres\n"
	"fn=(6) caller\n"
	"0x500 3\n"
	"cob=(1) ???\n"
	"cfn=(1) 0x00000000001e8030\n"
	"calls=2 0x1e8030\n"
	"* 32\n"
	"cob=(1)\n"
	"cfn=(3) 0x00000000001e8040\n"
	"calls=1 0x1e8040\n"
	"* 16\n"
	"cob=(1)\n"
	"cfn=(4) 0x00000000001e9000\n"
	"calls=1 0x1e9000\n"
	"* 40\n"
	"cob=(1)\n"
	"cfn=(7) 0x00000000001ea000\n"
	"calls=1 0x1ea000\n"
	"* 30\n"
	"ob=(1)\n"
	"fn=(1)\n"
	"0x1e8030 2\n"
	"cob=(2) /lib/libc.so.6\n"
	"cfn=(2) memcpy\n"
	"calls=2 0x100\n"
	"* 30\n"
	"fn=(3)\n"
	"0x1e8040 1\n"
	"cob=(2)\n"
	"cfn=(2)\n"
	"calls=1 0x100\n"
	"* 15\n"
	"fn=(4)\n"
	"0x1e9000 15\n"
	"cob=(2)\n"
	"cfn=(2)\n"
	"calls=1 0x100\n"
	"* 15\n"
	"cob=(2)\n"
	"cfn=(5) strlen\n"
	"calls=1 0x200\n"
	"* 10\n"
	"fn=(7)\n"
	"0x1ea000 20\n"
	"cob=(2)\n"
	"cfn=(5)\n"
	"calls=1 0x200\n"
	"* 10\n"
	"ob=(2)\n"
	"fn=(2)\n"
	"0x100 60\n"
	"fn=(5)\n"
	"0x200 20\n"
	"totals: 121\n";

static void
test_rep_dump(const char *path)
{
	mbm_cg_counts c;
	mbm_cg_functions fns = {0};
	const mbm_cg_function *f;

	write_file(path, rep_dump);
	ok(mbm_callgrind_read(path, "/libc.so.6", NULL, &c, &fns) == 0, "a dump with addresses and jumps reads");
	ok(c.repeats_known && c.v[MBM_CG_IR] == 2105 && c.v[MBM_CG_REPEATS] == 2037 && mbm_cg_instructions(&c) == 68,
	   "valgrind's 2,105 instructions less 2,037 repetitions of REP instructions: 68");
	ok(c.object_instructions == 51, "libc's own instructions, its REP instruction once per execution");
	f = find(&fns, "postgres", "zero_page");
	ok(f && f->self_valgrind == 2000 && f->self == 12 && f->inclusive == 12 && f->inclusive_valgrind == 2000,
	   "zero_page: 2,000 as valgrind counts, 12 as a CPU does (its repetitions' block's 1,988 executions off, not its 3,000 jumps)");
	f = find(&fns, "libc.so.6", "memset");
	ok(f && f->self == 51 && f->self_valgrind == 100,
	   "memset: a REP instruction at the start of a block entered from elsewhere keeps that entry");
	f = find(&fns, "postgres", "main");
	ok(f && f->self == 5 && f->self_valgrind == 5 && f->inclusive_valgrind == 2105 && f->inclusive == 68,
	   "main: a jump elsewhere is none; inclusive, its callees' repetitions off (each has one call site)");
	mbm_cg_functions_free(&fns);

	write_file(path, stub_dump);
	ok(mbm_callgrind_read(path, NULL, NULL, &c, &fns) == 0, "a dump of functions without symbols reads");
	f = find(&fns, "???", "memcpy@plt");
	ok(f && f->self == 3 && f->inclusive == 48,
	   "two PLT stubs of memcpy: one function, memcpy@plt, the same name in every build");
	f = find(&fns, "???", "(no symbol)");
	ok(f && f->self == 35 && f->inclusive == 70,
	   "functions without a symbol that call two, or are no stub: (no symbol), together");
	ok(fns.n == 5, "no function is left under its address");
	mbm_cg_functions_free(&fns);
}

/* Instructions of the rep_forms.c function name per call: a CPU's or valgrind's, from its self count. */
static double
per_call(const mbm_cg_functions *fns, const char *name, bool valgrind)
{
	const mbm_cg_function *f = find(fns, "rep_forms", name);

	return f == NULL ? -1 : (valgrind ? f->self_valgrind : f->self) / 3;
}

/*
 * rep_forms under callgrind with the options microbench compare counts
 * with: each REP function's five instructions a call whatever its count
 * (valgrind: four and each repetition), the loop's 35 in both; in a
 * window (window: collecting only around three calls of each, with calls
 * between them not collected) the same.
 */
static void
test_real_run(const char *dir, bool window)
{
	static const char *const forms[] = {"stosb", "stosq", "movsb"};
	static const int counts[] = {0, 1, 8, 4096};
	const char *how = window ? "in a window" : "collecting throughout";
	char		command[2048];
	char		out[1100];
	char		what[200];
	mbm_cg_counts c;
	mbm_cg_functions fns = {0};
	int			i,
				k;

	if (system("valgrind --version >/dev/null 2>&1") != 0)
	{
		printf("ok %d # skip valgrind is not installed: the real run of rep_forms %s\n", ++tests, how);
		return;
	}
	snprintf(out, sizeof(out), "%s/rep_forms.cg", dir);
	snprintf(command, sizeof(command),
			 "valgrind --tool=callgrind --dump-instr=yes --dump-line=no --collect-jumps=yes"
			 " %s --callgrind-out-file=%s ./rep_forms %s >/dev/null 2>&1",
			 window ? "--collect-atstart=no" : "", out, window ? "window" : "");
	snprintf(what, sizeof(what), "rep_forms ran under callgrind %s and its dump reads", how);
	ok(system(command) == 0 && mbm_callgrind_read(out, NULL, NULL, &c, &fns) == 0, what);
	for (i = 0; i < 3; i++)
		for (k = 0; k < 4; k++)
		{
			char		name[32];

			snprintf(name, sizeof(name), "%s_%d", forms[i], counts[k]);
			snprintf(what, sizeof(what), "rep %s, %d repetitions, %s: 5 instructions a call (valgrind: %d)",
					 forms[i], counts[k], how, 5 + counts[k]);
			ok(per_call(&fns, name, false) == 5 && per_call(&fns, name, true) == 5 + counts[k], what);
		}
	snprintf(what, sizeof(what), "a plain loop, %s: 35 instructions a call in both counts", how);
	ok(per_call(&fns, "plain_loop", false) == 35 && per_call(&fns, "plain_loop", true) == 35, what);
	{
		double		program = 0,
					self = 0;
		size_t		j;

		for (j = 0; j < fns.n; j++)
		{
			if (strcmp(fns.f[j].object, "rep_forms") == 0)
				program += fns.f[j].self_valgrind - fns.f[j].self;
			self += fns.f[j].self;
		}
		snprintf(what, sizeof(what), "the program's repetitions, %s: its collected REP calls', no more", how);
		ok(program == 3 * 3 * (1 + 8 + 4096), what);
		ok(self == mbm_cg_instructions(&c) && c.v[MBM_CG_REPEATS] >= program,
		   "the functions' own instructions add up to the dump's, repetitions taken off both");
	}
	mbm_cg_functions_free(&fns);
	unlink(out);
}

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
	ok(c.object_instructions == 20,
	   "the instructions of the object asked for (libc), calls' inclusive costs not counted");
	ok(!c.repeats_known && c.v[MBM_CG_REPEATS] == 0 && mbm_cg_instructions(&c) == 100,
	   "a dump without instructions' addresses: no REP repetitions known, none taken off");
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

	json = functions_text(&fns);
	ok(json && strcmp(json, "[[\"postgres\",\"main\",10,100,10,100],[\"postgres\",\"work\",70,90,70,90],"
					  "[\"libc.so.6\",\"memcpy\",20,20,20,20]]") == 0, "as JSON, valgrind's figures beside");
	free(json);

	/* a window as the difference of two runs: the same dump less itself is nothing */
	mbm_cg_functions_add(&diff, &fns, 1.5);
	mbm_cg_functions_add(&diff, &fns, -1.5);
	json = functions_text(&diff);
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
	ok(mbm_callgrind_read(path, NULL, NULL, &c, &fns) == 0 && (json = functions_text(&fns)) != NULL &&
	   strcmp(json, "[[\"y\",\"operator\\\"\\\"_q\",3,3,3,3]]") == 0, "uncompressed names, escaped in JSON");
	mbm_cg_functions_free(&fns);

	test_rep_dump(path);
	unlink(path);
	test_real_run("/tmp", false);
	test_real_run("/tmp", true);
	printf("1..%d\n", tests);
	return failed ? 1 : 0;
}

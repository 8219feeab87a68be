/*
 * mbm_callgrind.h — a dump that valgrind's callgrind wrote (mbm_callgrind.c),
 * read: its totals per event, what it says it is (its "desc:" lines), and
 * the instructions each function ran, itself and with what it called, with
 * the object it belongs to; such per-function tables summed, differenced
 * and written as JSON.  Instructions are counted twice: as a CPU counts
 * them (a REP-prefixed string instruction once per execution) and as
 * valgrind does (once per repetition).  Knows nothing of a comparison.
 */
#ifndef MBM_CALLGRIND_H
#define MBM_CALLGRIND_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The events a count keeps, under callgrind's names (--cache-sim adds all
 * but Ir), and one of our own: MBM_CG_REPEATS, the repetitions of REP
 * string instructions after each execution's first, which valgrind counts
 * in Ir and a CPU does not.  Callgrind writes them as jumps of an
 * instruction to its own address (--dump-instr=yes --collect-jumps=yes).
 */
typedef enum mbm_cg_event
{
	MBM_CG_IR, MBM_CG_DR, MBM_CG_DW, MBM_CG_I1MR, MBM_CG_D1MR, MBM_CG_D1MW, MBM_CG_ILMR,
	MBM_CG_DLMR, MBM_CG_DLMW, MBM_CG_REPEATS, MBM_CG_NEVENTS
} mbm_cg_event;

typedef struct mbm_cg_counts
{
	long long	v[MBM_CG_NEVENTS];	/* the dump's totals */
	long long	object_instructions;	/* instructions (REP once) of the object asked for, itself */
	bool		repeats_known;	/* the dump has the positions and jumps that tell REP repetitions */
	bool		has_function;	/* the function asked for has a cost in the dump */
	char		trigger[128];	/* what made the dump: "Client Request: microbench window" */
	char		caches[256];	/* --cache-sim: "I1 32768 B, 64 B, 8-way associative; D1 ...; LL ..." */
} mbm_cg_counts;

/*
 * One function's instructions in a dump, or summed over dumps: as a CPU
 * counts them (REP once), and as valgrind does.  Self instructions are
 * exact; a callee's REP repetitions are taken out of its callers'
 * inclusive instructions in proportion to the instructions each call site
 * spent in it (exact for a callee with one call site: callgrind keeps no
 * call path, so no more can be known).
 */
typedef struct mbm_cg_function
{
	char	   *object;			/* its object's file name: "postgres", "libc.so.6", "???" */
	char	   *name;			/* callgrind's name, less a recursion level's "'2"; a function
								 * without a symbol "memcpy@plt" (a PLT stub) or "(no symbol)" */
	double		self;			/* instructions run in the function itself, REP once */
	double		inclusive;		/* and in what it called, a direct recursion once */
	double		self_valgrind;	/* the same as valgrind counts them, each repetition */
	double		inclusive_valgrind;
} mbm_cg_function;

/* Functions by object and name: a table that grows, with an index to find one. */
typedef struct mbm_cg_functions
{
	mbm_cg_function *f;
	size_t		n;
	size_t		cap;
	size_t	   *slot;			/* open addressing: index into f plus one, 0 empty */
	size_t		nslots;
} mbm_cg_functions;

/* Instructions as a CPU counts them: a REP string instruction once per execution. */
static inline long long
mbm_cg_instructions(const mbm_cg_counts *c)
{
	return c->v[MBM_CG_IR] - c->v[MBM_CG_REPEATS];
}

/*
 * Read the dump at path into *c: its totals, the instructions run in
 * functions of the object whose path ends in object (NULL: none), and
 * whether a function whose name starts with function has a cost in it
 * (NULL: none); each function's instructions added to *fns (NULL: not
 * kept).  0, or -1 when it cannot be read or has no totals yet (a dump
 * still being written).
 */
extern int	mbm_callgrind_read(const char *path, const char *object, const char *function,
							   mbm_cg_counts *c, mbm_cg_functions *fns);
/* from's functions, times factor, added to into's (those into lacks added to it). */
extern void mbm_cg_functions_add(mbm_cg_functions *into, const mbm_cg_functions *from, double factor);
/*
 * The table as a JSON array (json-c's, the caller's to put), one [object,
 * function, self, inclusive, self_valgrind, inclusive_valgrind] per
 * function, instructions rounded to integers, a function whose four round
 * to 0 left out.
 */
struct json_object;
extern struct json_object *mbm_cg_functions_json(const mbm_cg_functions *fns);
extern void mbm_cg_functions_free(mbm_cg_functions *fns);

#endif							/* MBM_CALLGRIND_H */

/*
 * mbm_callgrind.c — reads a dump of valgrind's callgrind (its format is
 * "callgrind format" version 1, documented with valgrind): the header's
 * "desc:", "positions:", "events:" and "totals:" lines, and the body's cost
 * lines, each a position and then a cost per event, under the "ob=" (object)
 * and "fn=" (function) lines that name whose costs they are.  A cost line
 * right after a "calls=" line is the inclusive cost of that call, already
 * in the callee's own lines: it is not a cost of the function itself, so
 * the self costs add up to the totals, and a function's inclusive cost is
 * its self cost and its calls'.  Names are compressed, "fn=(12) name" the
 * first time and "fn=(12)" after.  A function is named as callgrind names
 * it (a C++ one demangled), with its object's file name; the levels of a
 * direct recursion ("f'2", callgrind's --separate-recs) are one function,
 * and the call of one level by the next is not counted again in its
 * inclusive cost.  Recursion through other functions (the executor's
 * ExecProcNode over a plan's nodes) is counted as often as it nests, as
 * callgrind_annotate --inclusive=yes does.
 *
 * Valgrind runs a REP-prefixed string instruction (rep stos, rep movs, rep
 * cmps) one repetition at a time, each jumping back to the instruction's
 * own address, and counts each repetition in Ir; a CPU counts the
 * instruction once (Intel SDM Vol. 3B, "Instructions Retired").  With
 * --dump-instr=yes --collect-jumps=yes a dump has a cost line per
 * instruction of each basic block, blocks in the order of their
 * addresses, and the jumps ("jump=" and "jcnd=" lines: a target position,
 * then the source's on a line of its own, both relative to the last cost
 * line's).  The first execution of a REP instruction runs at the end of
 * the block that leads to it; each repetition re-enters a block of its
 * own that starts at the instruction, by a jump to itself: the last of
 * the instruction's cost lines in its function.  So an instruction that
 * jumps to itself is a REP instruction, and the executions of its last
 * cost line, less the entries into it from elsewhere, are its
 * repetitions: they come off Ir.  (Callgrind counts jumps whether or not
 * it is collecting, and executions only while it is, so a jump's own
 * count cannot say how many repetitions fell inside the window; a block's
 * executions can.  Its --dump-bb=yes, which would name each line's block,
 * trips an assertion in callgrind 3.19 when a block ran only while it was
 * not collecting.)
 * A function without a symbol, which
 * callgrind names by its address (differing between builds), is named by
 * what it is: a PLT stub after the function it jumps to, any other
 * "(no symbol)".
 */
#include "mbm.h"
#include "mbm_callgrind.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* callgrind's names of the events; MBM_CG_REPEATS is ours, never in a dump's "events:" */
static const char *const event_names[MBM_CG_NEVENTS] = {
	"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", ""
};

/*
 * The names of one kind (objects, or functions) by compressed id, and
 * whether each matched what is looked for; names given uncompressed are
 * kept in loose.  Grown as ids come.
 */
typedef struct id_names
{
	char	  **name;
	bool	   *matched;
	size_t		size;
	char	  **loose;
	size_t		nloose;
} id_names;

static bool
grow_names(id_names *t, size_t id)
{
	size_t		size = id * 2 + 64;
	char	  **name;
	bool	   *matched;

	if (id < t->size)
		return true;
	name = realloc(t->name, size * sizeof(char *));
	if (name == NULL)
		return false;
	t->name = name;
	matched = realloc(t->matched, size * sizeof(bool));
	if (matched == NULL)
		return false;
	t->matched = matched;
	memset(t->name + t->size, 0, (size - t->size) * sizeof(char *));
	memset(t->matched + t->size, 0, (size - t->size) * sizeof(bool));
	t->size = size;
	return true;
}

static void
free_names(id_names *t)
{
	size_t		i;

	for (i = 0; i < t->size; i++)
		free(t->name[i]);
	for (i = 0; i < t->nloose; i++)
		free(t->loose[i]);
	free(t->name);
	free(t->matched);
	free(t->loose);
}

static bool
name_matches(const char *name, const char *pattern, bool suffix)
{
	size_t		len = strlen(name);

	if (pattern == NULL)
		return false;
	if (suffix)
		return len >= strlen(pattern) && strcmp(name + len - strlen(pattern), pattern) == 0;
	return strncmp(name, pattern, strlen(pattern)) == 0;
}

/*
 * A name line's value, "(id) name" or "(id)" or, uncompressed, "name":
 * the name (kept in t; "" when out of memory or never named), and in
 * *matched whether it matches pattern (a suffix of it, or its start).
 */
static const char *
resolve_name(id_names *t, const char *value, const char *pattern, bool suffix, bool *matched)
{
	const char *name = value;
	char	   *copy;
	size_t		id;

	*matched = false;
	if (*value == '(')
	{
		char	   *end;

		id = strtoul(value + 1, &end, 10);
		name = end + (*end == ')');
		if (*name != ' ')
		{
			/* the id alone: named before */
			if (id >= t->size || t->name[id] == NULL)
				return "";
			*matched = t->matched[id];
			return t->name[id];
		}
		if (!grow_names(t, id) || (copy = strdup(name + 1)) == NULL)
			return "";
		free(t->name[id]);
		t->name[id] = copy;
		t->matched[id] = *matched = name_matches(copy, pattern, suffix);
		return copy;
	}
	if ((copy = strdup(name)) == NULL)
		return "";
	{
		char	  **loose = realloc(t->loose, (t->nloose + 1) * sizeof(char *));

		if (loose == NULL)
		{
			free(copy);
			return "";
		}
		t->loose = loose;
		t->loose[t->nloose++] = copy;
	}
	*matched = name_matches(copy, pattern, suffix);
	return copy;
}

/* An object's file name, its path's last part. */
static const char *
file_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* A function's name less callgrind's recursion level ("f'2": f called from within f): its length. */
static size_t
base_length(const char *name)
{
	size_t		len = strlen(name);
	size_t		digits = 0;

	while (digits < len && name[len - 1 - digits] >= '0' && name[len - 1 - digits] <= '9')
		digits++;
	if (digits > 0 && digits < len && name[len - 1 - digits] == '\'')
		return len - 1 - digits;
	return len;
}

static size_t
hash_key(const char *object, const char *name, size_t name_len)
{
	size_t		h = 1469598103934665603ull;
	const char *p;

	for (p = object; *p; p++)
		h = (h ^ (unsigned char) *p) * 1099511628211ull;
	h = (h ^ 0x1f) * 1099511628211ull;
	for (p = name; p < name + name_len; p++)
		h = (h ^ (unsigned char) *p) * 1099511628211ull;
	return h;
}

/* The index of object's function name (its first name_len bytes) in fns, added if new; -1 when out of memory. */
static long
function_index(mbm_cg_functions *fns, const char *object, const char *name, size_t name_len)
{
	size_t		i;
	mbm_cg_function *fn;

	if (fns->n * 2 >= fns->nslots)
	{
		size_t		nslots = fns->nslots ? fns->nslots * 2 : 1024;
		size_t	   *slot = calloc(nslots, sizeof(size_t));

		if (slot == NULL)
			return -1;
		for (i = 0; i < fns->n; i++)
		{
			size_t		k = hash_key(fns->f[i].object, fns->f[i].name, strlen(fns->f[i].name)) % nslots;

			while (slot[k] != 0)
				k = (k + 1) % nslots;
			slot[k] = i + 1;
		}
		free(fns->slot);
		fns->slot = slot;
		fns->nslots = nslots;
	}
	for (i = hash_key(object, name, name_len) % fns->nslots; fns->slot[i] != 0; i = (i + 1) % fns->nslots)
	{
		fn = &fns->f[fns->slot[i] - 1];
		if (strcmp(fn->object, object) == 0 && strncmp(fn->name, name, name_len) == 0 &&
			fn->name[name_len] == '\0')
			return (long) fns->slot[i] - 1;
	}
	if (fns->n == fns->cap)
	{
		size_t		cap = fns->cap ? fns->cap * 2 : 256;
		mbm_cg_function *f = realloc(fns->f, cap * sizeof(*f));

		if (f == NULL)
			return -1;
		fns->f = f;
		fns->cap = cap;
	}
	fn = &fns->f[fns->n];
	fn->object = strdup(object);
	fn->name = strndup(name, name_len);
	fn->self = fn->inclusive = fn->self_valgrind = fn->inclusive_valgrind = 0;
	if (fn->object == NULL || fn->name == NULL)
	{
		free(fn->object);
		free(fn->name);
		return -1;
	}
	fns->slot[i] = ++fns->n;
	return (long) fns->n - 1;
}

/* from's four counts, times factor, added to into's. */
static void
add_counts(mbm_cg_function *into, const mbm_cg_function *from, double factor)
{
	into->self += from->self * factor;
	into->inclusive += from->inclusive * factor;
	into->self_valgrind += from->self_valgrind * factor;
	into->inclusive_valgrind += from->inclusive_valgrind * factor;
}

void
mbm_cg_functions_add(mbm_cg_functions *into, const mbm_cg_functions *from, double factor)
{
	size_t		i;

	for (i = 0; i < from->n; i++)
	{
		const mbm_cg_function *fn = &from->f[i];
		long		k = function_index(into, fn->object, fn->name, strlen(fn->name));

		if (k < 0)
			return;
		add_counts(&into->f[k], fn, factor);
	}
}

struct json_object *
mbm_cg_functions_json(const mbm_cg_functions *fns)
{
	json_object *all = json_object_new_array();
	size_t		i;

	for (i = 0; i < fns->n; i++)
	{
		long long	self = llround(fns->f[i].self);
		long long	inclusive = llround(fns->f[i].inclusive);
		long long	self_valgrind = llround(fns->f[i].self_valgrind);
		long long	inclusive_valgrind = llround(fns->f[i].inclusive_valgrind);
		json_object *one;

		if (self == 0 && inclusive == 0 && self_valgrind == 0 && inclusive_valgrind == 0)
			continue;
		one = json_object_new_array_ext(6);
		json_object_array_add(one, json_object_new_string(fns->f[i].object));
		json_object_array_add(one, json_object_new_string(fns->f[i].name));
		json_object_array_add(one, json_object_new_int64(self));
		json_object_array_add(one, json_object_new_int64(inclusive));
		json_object_array_add(one, json_object_new_int64(self_valgrind));
		json_object_array_add(one, json_object_new_int64(inclusive_valgrind));
		json_object_array_add(all, one);
	}
	return all;
}

void
mbm_cg_functions_free(mbm_cg_functions *fns)
{
	size_t		i;

	for (i = 0; i < fns->n; i++)
	{
		free(fns->f[i].object);
		free(fns->f[i].name);
	}
	free(fns->f);
	free(fns->slot);
	memset(fns, 0, sizeof(*fns));
}

/* "events: Ir Dr ..." into column -> event (-1: not kept); the number of columns. */
static int
read_events(const char *list, int *column, int max)
{
	int			n = 0;

	while (*list && n < max)
	{
		size_t		len;
		int			k;

		list += strspn(list, " \t");
		len = strcspn(list, " \t\n");
		if (len == 0)
			break;
		column[n] = -1;
		for (k = 0; k < MBM_CG_NEVENTS; k++)
			if (strlen(event_names[k]) == len && strncmp(event_names[k], list, len) == 0)
				column[n] = k;
		n++;
		list += len;
	}
	return n;
}

/* The costs after skip position tokens of a line, by column, into v[]. */
static void
read_costs(const char *line, int skip, const int *column, int ncolumns, long long *v)
{
	char	   *p = (char *) line;
	int			i;

	for (i = 0; i < skip; i++)
	{
		p += strspn(p, " \t");
		p += strcspn(p, " \t\n");
	}
	for (i = 0; i < ncolumns; i++)
	{
		char	   *end;
		long long	x = strtoll(p, &end, 10);

		if (end == p)
			break;
		if (column[i] >= 0)
			v[column[i]] += x;
		p = end;
	}
}

/* "desc: I1 cache: 32768 B, 64 B, 8-way associative" into c->caches, once per cache. */
static void
note_cache(mbm_cg_counts *c, const char *desc)
{
	char		level[8];
	size_t		len = strlen(c->caches);
	const char *size = strchr(desc, ':');

	if (size == NULL)
		return;
	size++;
	size += strspn(size, " ");
	if (*size == '\0' || *size == '\n')
		return;					/* no cache simulated: "desc: I1 cache: " */
	snprintf(level, sizeof(level), "%.*s", (int) strcspn(desc, " "), desc);
	if (strstr(c->caches, level) != NULL || len + 2 >= sizeof(c->caches))
		return;
	snprintf(c->caches + len, sizeof(c->caches) - len, "%s%s %.*s", len ? "; " : "", level,
			 (int) strcspn(size, "\n"), size);
}

/* A call of one function by another in a dump, and the instructions valgrind counted under it. */
typedef struct call_edge
{
	long		caller;
	long		callee;
	double		calls;
	double		ir;
} call_edge;

/*
 * What a dump says of one instruction in one function's block of lines:
 * the executions on its last cost line there (the block that starts at
 * it, for a REP instruction), its entries by jumps from elsewhere, and
 * whether it jumps to itself (a REP instruction).
 */
typedef struct instr_entry
{
	long		block;			/* which "fn=" block of lines; -1: an empty slot */
	long		function;		/* its function's index in the dump's functions */
	long long	addr;
	double		last_line;
	double		entries;
	bool		jumps_to_itself;
} instr_entry;

/* What reading a dump knows as it goes. */
typedef struct reader
{
	const char *object;			/* the object and function asked for */
	const char *function;
	mbm_cg_counts *c;
	mbm_cg_functions *fns;		/* this dump's functions, valgrind's counts until finished */
	int			column[32];		/* "events:": column -> event */
	int			ncolumns;
	int			positions;		/* position tokens before a line's costs */
	bool		in_object;
	bool		in_function;
	bool		after_calls;	/* the next cost line is a call's inclusive cost */
	bool		totals;
	id_names	objects;
	id_names	functions;
	const char *current_object; /* file names, kept in objects and functions */
	const char *current_function;
	long		current;		/* the current function's index in fns, -1 none */
	const char *callee_object;	/* "cob=": the called function's object, NULL: the current one */
	bool		self_call;		/* the call after "cfn=" is of the current function (a recursion level) */
	long		callee;			/* its index in fns, -1 for a recursion level */
	int			instr_at;		/* which position is the instruction's address; -1 none */
	long long	last_instr;		/* the last cost line's, which positions are relative to */
	long long	last_cost_instr;	/* the last cost line's with instructions (-1: it had none) */
	double		last_cost;		/* and its instructions */
	long		block;			/* "fn=" lines so far: the block of lines of the current function */
	bool		after_jump;		/* the next line is a jump's source */
	double		jump_count;		/* that jump's: how often it jumped (collected or not), */
	double		jump_executed;	/* how often its instruction ran while collecting (jcnd), or -1 */
	long long	jump_target;	/* and its target instruction */
	double		calls;			/* "calls=": how many, for the cost line after it */
	instr_entry *instrs;		/* open addressing, by block of lines and instruction */
	size_t		ninstrs;
	size_t		instrs_cap;
	double	   *repeats;		/* per function in fns: its REP repetitions, itself */
	size_t		nrepeats;
	call_edge  *edges;
	size_t		nedges;
	size_t		edges_cap;
} reader;

/*
 * A line's instruction address (its position number instr_at of
 * callgrind's "positions:"): "0x4005d0" as it is, "+3" or "-12" from the
 * last cost line's, "*" the same; -1 when the dump has none.
 */
static long long
read_instr(const reader *r, const char *line)
{
	int			k;

	for (k = 0; k < r->positions && r->instr_at >= 0; k++)
	{
		char	   *end;
		long long	value;

		line += strspn(line, " \t");
		if (*line == '*')
		{
			value = r->last_instr;
			end = (char *) line + 1;
		}
		else if (*line == '+' || *line == '-')
			value = r->last_instr + strtoll(line, &end, 10);
		else
			value = strtoll(line, &end, 0);
		if (end == line)
			break;
		if (k == r->instr_at)
			return value;
		line = end;
	}
	return -1;
}

/* The entry of instruction addr in the current block of lines, or NULL. */
static instr_entry *
instr_find(const reader *r, long long addr)
{
	size_t		i;

	if (r->instrs_cap == 0)
		return NULL;
	for (i = ((size_t) addr * 31 + (size_t) r->block) % r->instrs_cap; r->instrs[i].block >= 0;
		 i = (i + 1) % r->instrs_cap)
		if (r->instrs[i].block == r->block && r->instrs[i].addr == addr)
			return &r->instrs[i];
	return NULL;
}

/* The same, made if new; NULL when out of memory. */
static instr_entry *
instr_of(reader *r, long long addr)
{
	instr_entry *e = instr_find(r, addr);
	size_t		i;

	if (e != NULL)
		return e;
	if (r->ninstrs * 2 >= r->instrs_cap)
	{
		size_t		cap = r->instrs_cap ? r->instrs_cap * 2 : 4096;
		instr_entry *grown = malloc(cap * sizeof(instr_entry));

		if (grown == NULL)
			return NULL;
		for (i = 0; i < cap; i++)
			grown[i].block = -1;
		for (i = 0; i < r->instrs_cap; i++)
		{
			size_t		h;

			if (r->instrs[i].block < 0)
				continue;
			h = ((size_t) r->instrs[i].addr * 31 + (size_t) r->instrs[i].block) % cap;
			while (grown[h].block >= 0)
				h = (h + 1) % cap;
			grown[h] = r->instrs[i];
		}
		free(r->instrs);
		r->instrs = grown;
		r->instrs_cap = cap;
	}
	for (i = ((size_t) addr * 31 + (size_t) r->block) % r->instrs_cap; r->instrs[i].block >= 0;
		 i = (i + 1) % r->instrs_cap)
		;
	r->instrs[i].block = r->block;
	r->instrs[i].function = r->current;
	r->instrs[i].addr = addr;
	r->instrs[i].last_line = r->instrs[i].entries = 0;
	r->instrs[i].jumps_to_itself = false;
	r->ninstrs++;
	return &r->instrs[i];
}

/*
 * A jump's source line: a jump of an instruction to itself marks a REP
 * instruction; a jump from elsewhere enters its target (as often as it
 * jumped while collecting: at most as often as its own instruction ran
 * then).
 */
static void
read_jump_source(reader *r, const char *line)
{
	instr_entry *e;

	r->after_jump = false;
	if (r->instr_at < 0 || r->current < 0 || (e = instr_of(r, r->jump_target)) == NULL)
		return;
	if (read_instr(r, line) == r->jump_target)
	{
		/* the jump follows its instruction's cost line, if it ran while collecting */
		e->jumps_to_itself = true;
		if (r->last_cost_instr == r->jump_target)
			e->last_line = r->last_cost;
	}
	else
		e->entries += r->jump_executed >= 0 ? fmin(r->jump_count, r->jump_executed) : r->jump_count;
}

/* "jump=COUNT TARGET" or "jcnd=FOLLOWED/EXECUTED TARGET": kept for the source line after it. */
static void
read_jump_line(reader *r, const char *value, bool conditional)
{
	char	   *end;

	r->jump_count = strtod(value, &end);
	r->jump_executed = conditional && *end == '/' ? strtod(end + 1, &end) : -1;
	r->jump_target = read_instr(r, end);
	r->after_jump = true;
}

/* A call and its instructions, for its callee's repetitions to come off its caller's inclusive count. */
static void
add_edge(reader *r, double ir)
{
	if (r->current < 0 || r->callee < 0 || ir <= 0)
		return;
	if (r->nedges == r->edges_cap)
	{
		size_t		cap = r->edges_cap ? r->edges_cap * 2 : 1024;
		call_edge  *grown = realloc(r->edges, cap * sizeof(call_edge));

		if (grown == NULL)
			return;
		r->edges = grown;
		r->edges_cap = cap;
	}
	r->edges[r->nedges].caller = r->current;
	r->edges[r->nedges].callee = r->callee;
	r->edges[r->nedges].calls = r->calls;
	r->edges[r->nedges].ir = ir;
	r->nedges++;
}

/* A cost line: the function's own cost, or a call's inclusive cost. */
static void
read_cost_line(reader *r, const char *line)
{
	long long	v[MBM_CG_NEVENTS] = {0};
	bool		call = r->after_calls;

	r->after_calls = false;
	read_costs(line, r->positions, r->column, r->ncolumns, v);
	/*
	 * A call's line is at the call's address but does not move the
	 * position others are relative to; an instruction's last line in its
	 * function's block is, for a REP instruction, the block of its
	 * repetitions
	 */
	if (!call && r->instr_at >= 0)
	{
		instr_entry *e;

		r->last_instr = read_instr(r, line);
		r->last_cost_instr = v[MBM_CG_IR] > 0 ? r->last_instr : -1;
		r->last_cost = v[MBM_CG_IR];
		if (v[MBM_CG_IR] > 0 && (e = instr_find(r, r->last_instr)) != NULL)
			e->last_line = v[MBM_CG_IR];
	}
	if (r->fns != NULL && r->current >= 0)
	{
		/* a recursion level's costs are its own lines too: counted there, once */
		if (!call || !r->self_call)
			r->fns->f[r->current].inclusive_valgrind += v[MBM_CG_IR];
		if (!call)
			r->fns->f[r->current].self_valgrind += v[MBM_CG_IR];
		if (call && !r->self_call)
			add_edge(r, v[MBM_CG_IR]);
	}
	if (call)
		return;
	if (r->in_object)
		r->c->object_instructions += v[MBM_CG_IR];
	if (r->in_function && v[MBM_CG_IR] > 0)
		r->c->has_function = true;
}

/* "fn=" or "cfn=": the function whose costs follow, or the one called. */
static void
read_function_line(reader *r, const char *value, bool callee)
{
	bool		matched;
	const char *name = resolve_name(&r->functions, value, r->function, false, &matched);

	if (callee)
	{
		const char *object = r->callee_object ? r->callee_object : r->current_object;

		r->self_call = r->current_function != NULL && object != NULL &&
			strcmp(object, r->current_object) == 0 &&
			base_length(name) == base_length(r->current_function) &&
			strncmp(name, r->current_function, base_length(name)) == 0;
		r->callee = -1;
		if (r->fns != NULL && !r->self_call)
			r->callee = function_index(r->fns, object ? object : "???", name, base_length(name));
		r->callee_object = NULL;
		return;
	}
	r->in_function = matched;
	r->current_function = name;
	r->current = -1;
	r->block++;
	if (r->fns != NULL)
		r->current = function_index(r->fns, r->current_object ? r->current_object : "???", name,
									base_length(name));
}

/* "positions: instr line": how many, and which is the instruction's address. */
static void
read_position_names(reader *r, const char *list)
{
	int			k = 0;

	r->instr_at = -1;
	for (;;)
	{
		size_t		len;

		list += strspn(list, " \t");
		len = strcspn(list, " \t\n");
		if (len == 0)
			break;
		if (len == 5 && strncmp(list, "instr", 5) == 0)
			r->instr_at = k;
		k++;
		list += len;
	}
	r->positions = k;
}

/* A header line, or a name line of the body. */
static void
read_other_line(reader *r, const char *line)
{
	bool		matched;

	if (strncmp(line, "ob=", 3) == 0)
	{
		r->current_object = file_name(resolve_name(&r->objects, line + 3, r->object, true, &matched));
		r->in_object = matched;
	}
	else if (strncmp(line, "fn=", 3) == 0)
		read_function_line(r, line + 3, false);
	else if (strncmp(line, "cob=", 4) == 0)
		r->callee_object = file_name(resolve_name(&r->objects, line + 4, r->object, true, &matched));
	else if (strncmp(line, "cfn=", 4) == 0)
		read_function_line(r, line + 4, true);
	else if (strncmp(line, "calls=", 6) == 0)
	{
		r->after_calls = true;
		r->calls = strtod(line + 6, NULL);
	}
	else if (strncmp(line, "jump=", 5) == 0 || strncmp(line, "jcnd=", 5) == 0)
		read_jump_line(r, line + 5, line[1] == 'c');
	else if (strncmp(line, "events:", 7) == 0)
		r->ncolumns = read_events(line + 7, r->column, 32);
	else if (strncmp(line, "positions:", 10) == 0)
		read_position_names(r, line + 10);
	else if (strncmp(line, "totals:", 7) == 0 && r->ncolumns > 0)
	{
		memset(r->c->v, 0, sizeof(r->c->v[0]) * MBM_CG_REPEATS);
		read_costs(line + 7, 0, r->column, r->ncolumns, r->c->v);
		r->totals = true;
	}
	else if (strncmp(line, "desc: Trigger: ", 15) == 0)
		snprintf(r->c->trigger, sizeof(r->c->trigger), "%s", line + 15);
	else if (strncmp(line, "desc: ", 6) == 0 && strstr(line, " cache:"))
		note_cache(r->c, line + 6);
}

/*
 * Each REP instruction's repetitions (the executions on its last line,
 * the block that starts at it, less its entries from elsewhere) off its
 * function's and the dump's instructions.
 */
static void
tally_repeats(reader *r)
{
	const char *object = r->object ? file_name(r->object) : NULL;
	size_t		i;

	if (r->fns->n == 0 || (r->repeats = calloc(r->fns->n, sizeof(double))) == NULL)
		return;
	r->nrepeats = r->fns->n;
	for (i = 0; i < r->instrs_cap; i++)
	{
		const instr_entry *e = &r->instrs[i];
		long long	n;

		if (e->block < 0 || e->function < 0 || !e->jumps_to_itself || e->function >= (long) r->fns->n)
			continue;
		n = llround(fmax(0, e->last_line - e->entries));
		r->repeats[e->function] += n;
		r->c->v[MBM_CG_REPEATS] += n;
		if (object && strcmp(r->fns->f[e->function].object, object) == 0)
			r->c->object_instructions -= n;
	}
}

/*
 * The functions' counts as a CPU counts them: self less the function's
 * own repetitions; inclusive less those and, for each call, the callee's
 * repetitions in proportion to the instructions of that call, which
 * depends on the callee's own calls: repeated until nothing moves by half
 * an instruction (a call graph's depth, or its cycles' slow convergence:
 * at most 200 rounds).
 */
static void
finish_repeats(reader *r)
{
	mbm_cg_functions *fns = r->fns;
	double	   *under,
			   *next;
	size_t		i,
				e;
	int			round;
	bool		any = false;

	for (i = 0; i < fns->n; i++)
	{
		double		own = i < r->nrepeats ? r->repeats[i] : 0;

		fns->f[i].self = fns->f[i].self_valgrind - own;
		fns->f[i].inclusive = fns->f[i].inclusive_valgrind - own;
		any |= own > 0;
	}
	if (!any || (under = calloc(fns->n, sizeof(double))) == NULL)
		return;
	if ((next = calloc(fns->n, sizeof(double))) == NULL)
	{
		free(under);
		return;
	}
	for (i = 0; i < fns->n && i < r->nrepeats; i++)
		under[i] = r->repeats[i];
	for (round = 0; round < 200; round++)
	{
		double		moved = 0;

		for (i = 0; i < fns->n; i++)
			next[i] = i < r->nrepeats ? r->repeats[i] : 0;
		for (e = 0; e < r->nedges; e++)
		{
			const call_edge *ce = &r->edges[e];
			double		callee_all = fns->f[ce->callee].inclusive_valgrind;

			if (callee_all > 0)
				next[ce->caller] += ce->ir * under[ce->callee] / callee_all;
		}
		for (i = 0; i < fns->n; i++)
		{
			moved = fmax(moved, fabs(next[i] - under[i]));
			under[i] = next[i];
		}
		if (moved < 0.5)
			break;
	}
	for (i = 0; i < fns->n; i++)
		fns->f[i].inclusive = fns->f[i].inclusive_valgrind - under[i];
	free(under);
	free(next);
}

/* A name callgrind gives a function it has no symbol for: its address, "0x00000000001e8030". */
static bool
is_address_name(const char *name)
{
	if (strncmp(name, "0x", 2) != 0 || name[2] == '\0')
		return false;
	return strspn(name + 2, "0123456789abcdefABCDEF") == strlen(name + 2);
}

/*
 * Function k's name, or for one without a symbol a name that is the same
 * in every build: a PLT stub (one or two instructions a call, a jump to
 * the one function it stands for) "NAME@plt" after that function, as
 * objdump names it; any other "(no symbol)", all of an object's together.
 */
static void
stable_name(const reader *r, size_t k, char *out, size_t outlen)
{
	const char *name = r->fns->f[k].name;
	long		callee = -1;
	double		calls_in = 0;
	size_t		e;

	if (!is_address_name(name))
	{
		snprintf(out, outlen, "%s", name);
		return;
	}
	for (e = 0; e < r->nedges; e++)
	{
		if (r->edges[e].callee == (long) k)
			calls_in += r->edges[e].calls;
		if (r->edges[e].caller != (long) k)
			continue;
		if (callee >= 0 && callee != r->edges[e].callee)
			callee = -2;		/* more than one */
		else if (callee == -1)
			callee = r->edges[e].callee;
	}
	if (callee >= 0 && calls_in > 0 && r->fns->f[k].self_valgrind <= 2 * calls_in &&
		!is_address_name(r->fns->f[callee].name))
		snprintf(out, outlen, "%s@plt", r->fns->f[callee].name);
	else
		snprintf(out, outlen, "(no symbol)");
}

/* This dump's functions into *into under their stable names (added to what is there). */
static void
add_named(const reader *r, mbm_cg_functions *into)
{
	size_t		i;

	for (i = 0; i < r->fns->n; i++)
	{
		const mbm_cg_function *fn = &r->fns->f[i];
		char		name[1024];
		long		k;

		stable_name(r, i, name, sizeof(name));
		if ((k = function_index(into, fn->object, name, strlen(name))) < 0)
			return;
		add_counts(&into->f[k], fn, 1.0);
	}
}

int
mbm_callgrind_read(const char *path, const char *object, const char *function, mbm_cg_counts *c,
				   mbm_cg_functions *fns)
{
	FILE	   *f = fopen(path, "r");
	char	   *line = NULL;
	size_t		cap = 0;
	reader		r;
	mbm_cg_functions own = {0};

	memset(c, 0, sizeof(*c));
	if (f == NULL)
		return -1;
	memset(&r, 0, sizeof(r));
	r.object = object;
	r.function = function;
	r.c = c;
	r.fns = &own;				/* added to *fns only once the dump is whole */
	r.positions = 1;
	r.instr_at = -1;
	r.last_cost_instr = -1;
	r.current = -1;
	r.callee = -1;
	while (getline(&line, &cap, f) > 0)
	{
		char		first = line[0];

		line[strcspn(line, "\n")] = '\0';
		if ((first >= '0' && first <= '9') || first == '+' || first == '-' || first == '*')
		{
			if (r.after_jump)
				read_jump_source(&r, line);
			else
				read_cost_line(&r, line);
		}
		else
			read_other_line(&r, line);
	}
	free(line);
	free_names(&r.objects);
	free_names(&r.functions);
	fclose(f);
	c->repeats_known = r.instr_at >= 0;
	if (r.totals)
	{
		tally_repeats(&r);
		finish_repeats(&r);
		if (fns != NULL)
			add_named(&r, fns);
	}
	free(r.repeats);
	free(r.instrs);
	free(r.edges);
	mbm_cg_functions_free(&own);
	return r.totals ? 0 : -1;
}

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
 */
#include "mbm.h"
#include "mbm_callgrind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const event_names[MBM_CG_NEVENTS] = {
	"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"
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
	fn->self = fn->inclusive = 0;
	if (fn->object == NULL || fn->name == NULL)
	{
		free(fn->object);
		free(fn->name);
		return -1;
	}
	fns->slot[i] = ++fns->n;
	return (long) fns->n - 1;
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
		into->f[k].self += fn->self * factor;
		into->f[k].inclusive += fn->inclusive * factor;
	}
}

char *
mbm_cg_functions_json(const mbm_cg_functions *fns)
{
	char	   *text = NULL;
	size_t		len = 0;
	FILE	   *f = open_memstream(&text, &len);
	size_t		i;
	bool		first = true;

	if (f == NULL)
		return NULL;
	fputc('[', f);
	for (i = 0; i < fns->n; i++)
	{
		long long	self = llround(fns->f[i].self);
		long long	inclusive = llround(fns->f[i].inclusive);

		if (self == 0 && inclusive == 0)
			continue;
		fputs(first ? "[" : ",[", f);
		mbm_json_string(f, fns->f[i].object);
		fputc(',', f);
		mbm_json_string(f, fns->f[i].name);
		fprintf(f, ",%lld,%lld]", self, inclusive);
		first = false;
	}
	fputc(']', f);
	if (fclose(f) != 0)
	{
		free(text);
		return NULL;
	}
	return text;
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

/* The words of a header line's value: "positions: instr line" has two. */
static int
count_words(const char *value)
{
	int			n = 0;

	for (;;)
	{
		value += strspn(value, " \t\n");
		if (*value == '\0')
			return n;
		n++;
		value += strcspn(value, " \t\n");
	}
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

/* What reading a dump knows as it goes. */
typedef struct reader
{
	const char *object;			/* the object and function asked for */
	const char *function;
	mbm_cg_counts *c;
	mbm_cg_functions *fns;		/* NULL: functions not kept */
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
} reader;

/* A cost line: the function's own cost, or a call's inclusive cost. */
static void
read_cost_line(reader *r, const char *line)
{
	long long	v[MBM_CG_NEVENTS] = {0};
	bool		call = r->after_calls;

	r->after_calls = false;
	read_costs(line, r->positions, r->column, r->ncolumns, v);
	if (r->fns != NULL && r->current >= 0)
	{
		/* a recursion level's costs are its own lines too: counted there, once */
		if (!call || !r->self_call)
			r->fns->f[r->current].inclusive += v[MBM_CG_IR];
		if (!call)
			r->fns->f[r->current].self += v[MBM_CG_IR];
	}
	if (call)
		return;
	if (r->in_object)
		r->c->object_ir += v[MBM_CG_IR];
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
		r->callee_object = NULL;
		return;
	}
	r->in_function = matched;
	r->current_function = name;
	r->current = -1;
	if (r->fns != NULL)
		r->current = function_index(r->fns, r->current_object ? r->current_object : "???", name,
									base_length(name));
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
		r->after_calls = true;
	else if (strncmp(line, "events:", 7) == 0)
		r->ncolumns = read_events(line + 7, r->column, 32);
	else if (strncmp(line, "positions:", 10) == 0)
		r->positions = count_words(line + 10);
	else if (strncmp(line, "totals:", 7) == 0 && r->ncolumns > 0)
	{
		memset(r->c->v, 0, sizeof(r->c->v));
		read_costs(line + 7, 0, r->column, r->ncolumns, r->c->v);
		r->totals = true;
	}
	else if (strncmp(line, "desc: Trigger: ", 15) == 0)
		snprintf(r->c->trigger, sizeof(r->c->trigger), "%s", line + 15);
	else if (strncmp(line, "desc: ", 6) == 0 && strstr(line, " cache:"))
		note_cache(r->c, line + 6);
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
	r.fns = fns ? &own : NULL;	/* added to *fns only once the dump is whole */
	r.positions = 1;
	r.current = -1;
	while (getline(&line, &cap, f) > 0)
	{
		char		first = line[0];

		line[strcspn(line, "\n")] = '\0';
		if ((first >= '0' && first <= '9') || first == '+' || first == '-' || first == '*')
			read_cost_line(&r, line);
		else
			read_other_line(&r, line);
	}
	free(line);
	free_names(&r.objects);
	free_names(&r.functions);
	fclose(f);
	if (r.totals && fns != NULL)
		mbm_cg_functions_add(fns, &own, 1.0);
	mbm_cg_functions_free(&own);
	return r.totals ? 0 : -1;
}

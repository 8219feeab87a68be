/*
 * mbm_callgrind.c — reads a dump of valgrind's callgrind (its format is
 * "callgrind format" version 1, documented with valgrind): the header's
 * "desc:", "positions:", "events:" and "totals:" lines, and the body's cost
 * lines, each a position and then a cost per event, under the "ob=" (object)
 * and "fn=" (function) lines that name whose costs they are.  A cost line
 * right after a "calls=" line is the inclusive cost of that call, already
 * in the callee's own lines: it is skipped, so what is summed is each
 * function's own (self) cost, and the self costs add up to the totals.
 * Names are compressed, "fn=(12) name" the first time and "fn=(12)" after,
 * so only whether an id's name matches is kept.
 */
#include "mbm_callgrind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const event_names[MBM_CG_NEVENTS] = {
	"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"
};

/* Whether each compressed name id matched, grown as ids come. */
typedef struct id_flags
{
	bool	   *matched;
	size_t		size;
} id_flags;

static void
set_flag(id_flags *f, size_t id, bool matched)
{
	if (id >= f->size)
	{
		size_t		size = id * 2 + 64;
		bool	   *grown = realloc(f->matched, size * sizeof(bool));

		if (grown == NULL)
			return;
		memset(grown + f->size, 0, (size - f->size) * sizeof(bool));
		f->matched = grown;
		f->size = size;
	}
	f->matched[id] = matched;
}

static bool
get_flag(const id_flags *f, size_t id)
{
	return id < f->size && f->matched[id];
}

/*
 * A name line's value, "(id) name" or "(id)" or, uncompressed, "name":
 * whether it matches, remembered under its id.  matches(name, pattern).
 */
static bool
name_matches(id_flags *ids, const char *value, const char *pattern, bool suffix)
{
	const char *name = value;
	size_t		id = 0;
	bool		has_id = false;
	bool		matched;

	if (*value == '(')
	{
		id = strtoul(value + 1, (char **) &name, 10);
		has_id = true;
		if (*name == ')')
			name++;
		if (*name != ' ')
			return get_flag(ids, id);	/* the id alone: named before */
		name++;
	}
	if (pattern == NULL)
		matched = false;
	else if (suffix)
		matched = strlen(name) >= strlen(pattern) &&
			strcmp(name + strlen(name) - strlen(pattern), pattern) == 0;
	else
		matched = strncmp(name, pattern, strlen(pattern)) == 0;
	if (has_id)
		set_flag(ids, id, matched);
	return matched;
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

int
mbm_callgrind_read(const char *path, const char *object, const char *function, mbm_cg_counts *c)
{
	FILE	   *f = fopen(path, "r");
	char	   *line = NULL;
	size_t		cap = 0;
	int			column[32];
	int			ncolumns = 0;
	int			positions = 1;
	bool		in_object = false,
				in_function = false,
				after_calls = false,
				totals = false;
	id_flags	objects = {NULL, 0},
				functions = {NULL, 0};

	memset(c, 0, sizeof(*c));
	if (f == NULL)
		return -1;
	while (getline(&line, &cap, f) > 0)
	{
		char		first = line[0];

		line[strcspn(line, "\n")] = '\0';

		if ((first >= '0' && first <= '9') || first == '+' || first == '-' || first == '*')
		{
			long long	v[MBM_CG_NEVENTS] = {0};

			if (after_calls)
			{
				after_calls = false;	/* a call's inclusive cost */
				continue;
			}
			read_costs(line, positions, column, ncolumns, v);
			if (in_object)
				c->object_ir += v[MBM_CG_IR];
			if (in_function && v[MBM_CG_IR] > 0)
				c->has_function = true;
		}
		else if (strncmp(line, "ob=", 3) == 0)
			in_object = name_matches(&objects, line + 3, object, true);
		else if (strncmp(line, "fn=", 3) == 0)
			in_function = name_matches(&functions, line + 3, function, false);
		else if (strncmp(line, "cob=", 4) == 0)
			(void) name_matches(&objects, line + 4, object, true);
		else if (strncmp(line, "cfn=", 4) == 0)
			(void) name_matches(&functions, line + 4, function, false);
		else if (strncmp(line, "calls=", 6) == 0)
			after_calls = true;
		else if (strncmp(line, "events:", 7) == 0)
			ncolumns = read_events(line + 7, column, 32);
		else if (strncmp(line, "positions:", 10) == 0)
			positions = count_words(line + 10);
		else if (strncmp(line, "totals:", 7) == 0 && ncolumns > 0)
		{
			memset(c->v, 0, sizeof(c->v));
			read_costs(line + 7, 0, column, ncolumns, c->v);
			totals = true;
		}
		else if (strncmp(line, "desc: Trigger: ", 15) == 0)
			snprintf(c->trigger, sizeof(c->trigger), "%.*s", (int) strcspn(line + 15, "\n"), line + 15);
		else if (strncmp(line, "desc: ", 6) == 0 && strstr(line, " cache:"))
			note_cache(c, line + 6);
	}
	free(line);
	free(objects.matched);
	free(functions.matched);
	fclose(f);
	return totals ? 0 : -1;
}

/*
 * mbm_load.c — microbench load FILE...: results files into a results
 * database, the central database of a fleet included.
 *
 * A run the results database did not take is a JSON line in a results file
 * (mbm_results.c, or a comparison's runs.jsonl), the format
 * microbench.export_runs() writes too.  Each line goes to the server as a
 * bound parameter, never pasted into SQL, to microbench.push_run()
 * (results_schema/12_fleet.sql), one statement and so one transaction a
 * run: a run whose run_uid is already there is skipped, so loading a file
 * again, a file appended to since, or the same runs from two hosts at once
 * adds each run once; and a load cut short keeps what it loaded, to be
 * finished by loading again.  Line by line rather than one COPY: a line the
 * server refuses is then named by its file and line number.  push_run()
 * needs no right to read the runs, so a fleet's pushing role can load.
 *
 * As for the other commands, the request is checked before anything
 * connects (every file must open).  A missing file and a results database that cannot be
 * reached, or that has no push_run(), exit 2; a load that fails once
 * started exits 1, saying how many runs it loaded before.
 */
#include "mbm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libpq-fe.h>

typedef struct load_file
{
	const char *path;			/* as given; "-" for standard input */
	const char *name;			/* as messages show it */
	FILE	   *f;
	long long	loaded;
} load_file;

/*
 * The server's reason as one line: its primary message, and its detail when
 * that is short (a JSON syntax error's names the token; a constraint's holds
 * the whole failing row, too long to help).
 */
static void
server_reason(const PGresult *res, const PGconn *pg, char *out, size_t outlen)
{
	const char *primary = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	const char *detail = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL) : NULL;

	if (primary == NULL)
		/* no error fields: the connection failed, libpq says why */
		snprintf(out, outlen, "%s", PQerrorMessage(pg));
	else if (detail != NULL && strlen(detail) <= 160 && strchr(detail, '\n') == NULL)
		snprintf(out, outlen, "%s (%s)", primary, detail);
	else
		snprintf(out, outlen, "%s", primary);
	out[strcspn(out, "\n")] = '\0';
}

/* Whether a line holds nothing but white space: skipped, as JSON allows. */
static bool
blank(const char *line)
{
	return line[strspn(line, " \t\r\n")] == '\0';
}

/*
 * Load one file's lines; 0, or -1 with "NAME:LINE: reason" (or a read
 * error) in err.  *skipped counts the lines whose run was already there,
 * lf->loaded the runs it added.
 */
static int
load_lines(PGconn *pg, load_file *lf, long long *skipped, char *err, size_t errlen)
{
	char	   *line = NULL;
	size_t		cap = 0;
	ssize_t		len;
	long long	lineno = 0;
	char		reason[512];
	int			rc = 0;

	while ((len = getline(&line, &cap, lf->f)) >= 0)
	{
		const char *values[1];
		PGresult   *res;
		const char *start;

		lineno++;
		/* libpq sends a parameter up to its first NUL: the rest would vanish */
		if ((size_t) len != strlen(line))
		{
			snprintf(err, errlen, "%s:%lld: holds a NUL byte: not a JSON line", lf->name, lineno);
			rc = -1;
			break;
		}
		if (blank(line))
			continue;
		start = line + strspn(line, " \t");
		/* push_run() would refuse anything but an object, less clearly */
		if (*start != '{')
		{
			snprintf(err, errlen, "%s:%lld: not a JSON object (a results file holds one {...}"
					 " per line)", lf->name, lineno);
			rc = -1;
			break;
		}
		values[0] = line;
		res = PQexecParams(pg, "SELECT microbench.push_run($1::jsonb)", 1, NULL, values, NULL,
						   NULL, 0);
		if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
		{
			server_reason(res, pg, reason, sizeof(reason));
			snprintf(err, errlen, "%s:%lld: %s", lf->name, lineno, reason);
			PQclear(res);
			rc = -1;
			break;
		}
		/* NULL: the run's uid is already there */
		if (PQgetisnull(res, 0, 0))
			(*skipped)++;
		else
			lf->loaded++;
		PQclear(res);
	}
	if (rc == 0 && ferror(lf->f))
	{
		snprintf(err, errlen, "cannot read %s after line %lld: %s", lf->name, lineno,
				 strerror(errno));
		rc = -1;
	}
	free(line);
	return rc;
}

/* "NAME" for one file, "A (2), B (1)" for several: where the runs came from. */
static void
print_summary(const load_file *files, int n, long long loaded, long long skipped)
{
	int			i;

	printf("loaded %lld run%s into microbench.runs from ", loaded, loaded == 1 ? "" : "s");
	for (i = 0; i < n; i++)
	{
		printf("%s%s", i ? ", " : "", files[i].name);
		if (n > 1)
			printf(" (%lld)", files[i].loaded);
	}
	if (skipped > 0)
		printf("; skipped %lld already there (the same run_uid)", skipped);
	printf("\n");
}

static void
close_files(load_file *files, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if (files[i].f && files[i].f != stdin)
			fclose(files[i].f);
	free(files);
}

/*
 * Open every file before anything connects: a load that cannot finish
 * should not start.  0, or -1 with the reason said.
 */
static int
open_files(load_file *files, char *const *paths, int n)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		struct stat st;

		files[i].path = paths[i];
		if (strcmp(paths[i], "-") == 0)
		{
			int			j;

			for (j = 0; j < i; j++)
				if (files[j].f == stdin)
				{
					fprintf(stderr, "%s: load: - (standard input) is given twice;"
							" nothing was loaded\n", mbm_progname);
					return -1;
				}
			files[i].name = "standard input";
			files[i].f = stdin;
			continue;
		}
		files[i].name = paths[i];
		files[i].f = fopen(paths[i], "r");
		if (files[i].f != NULL && fstat(fileno(files[i].f), &st) == 0 && S_ISDIR(st.st_mode))
		{
			/* fopen() takes a directory; the first read would fail */
			fclose(files[i].f);
			files[i].f = NULL;
			errno = EISDIR;
		}
		if (files[i].f == NULL)
		{
			fprintf(stderr, "%s: load: cannot read %s: %s; nothing was loaded\n", mbm_progname,
					paths[i], strerror(errno));
			return -1;
		}
	}
	return 0;
}

int
mbm_load(const mbm_options *o, char *const *paths, int n)
{
	load_file  *files = calloc((size_t) n, sizeof(load_file));
	PGconn	   *pg;
	bool		no_schema;
	char		err[1024];
	long long	loaded = 0;
	long long	skipped = 0;
	int			i;

	if (files == NULL)
	{
		fprintf(stderr, "%s: out of memory\n", mbm_progname);
		return MBM_EXIT_FAILED;
	}
	if (open_files(files, paths, n) != 0)
	{
		close_files(files, n);
		return MBM_EXIT_BAD_INPUT;
	}

	/* no --results-db: libpq's environment (PGHOST, PGDATABASE, ...), as psql */
	if ((pg = mbm_push_connect(o->results_db, &no_schema, err, sizeof(err))) == NULL)
	{
		fprintf(stderr, "%s: load: %s; nothing was loaded\n", mbm_progname, err);
		close_files(files, n);
		return MBM_EXIT_BAD_INPUT;
	}

	for (i = 0; i < n; i++)
	{
		if (load_lines(pg, &files[i], &skipped, err, sizeof(err)) != 0)
		{
			loaded += files[i].loaded;
			fprintf(stderr, "%s: load: %s; %lld run%s before it loaded (and %lld already there):"
					" load again once it is fixed, and the runs already there are skipped\n",
					mbm_progname, err, loaded, loaded == 1 ? "" : "s", skipped);
			PQfinish(pg);
			close_files(files, n);
			return MBM_EXIT_FAILED;
		}
		loaded += files[i].loaded;
	}
	PQfinish(pg);
	print_summary(files, n, loaded, skipped);
	close_files(files, n);
	return MBM_EXIT_OK;
}

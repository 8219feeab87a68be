/*
 * mbm_load.c — microbench-mysql load FILE...: results files into the results
 * database in one command.
 *
 * A run the results database did not take is a JSON line in a results file
 * (mbm_results.c), the format microbench.export_runs() writes too.  Each
 * line goes to the server as a bound parameter, never pasted into SQL, into
 * microbench.import_queue, and microbench.import_runs() (results_schema/
 * 10_runs.sql) moves it into microbench.runs.  Line by line rather than one
 * COPY: a line the server refuses is then known by its file and line number,
 * where a COPY or import_runs() over the whole stream would only say that
 * something somewhere was wrong.  All of it is one transaction: a refused
 * line, a file that cannot be read to its end or a lost connection leave
 * the database as it was, so a failed load can simply be run again.
 *
 * import_runs() gives every line a new run_id (the lines carry none), so by
 * itself it would load a file twice if asked twice.  A run is known instead
 * by what two runs cannot share: the same dbms, host, workload, label and
 * phase measured over the same window, started_at and ended_at to the
 * microsecond.  A line whose run is already in microbench.runs is skipped
 * and counted, so loading a file again, or a file the client has appended
 * to since, adds only the runs that are new; loads take turns (an advisory
 * lock) so that two at once cannot both add the same run.
 *
 * As for the other commands, the request is checked before anything
 * connects (every file must open), and then the queue must be empty: a
 * line queued there would be imported with ours and a fault in it blamed
 * on our first line (one is left there by a \copy whose import_runs()
 * failed).  Those refusals, and a results database that cannot be reached,
 * exit 2; a load that fails once started exits 1.
 */
#include "mbm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libpq-fe.h>

/*
 * Queue the line unless its run is already there.  $1 is the line as jsonb;
 * jsonb_populate_record() reads it as import_runs() will, so the comparison
 * sees the same values the row would hold.
 */
static const char queue_sql[] =
"INSERT INTO microbench.import_queue (doc) "
"SELECT $1::jsonb "
"WHERE NOT EXISTS ("
" SELECT 1 FROM microbench.runs r, jsonb_populate_record(NULL::microbench.runs, $1::jsonb) d"
" WHERE r.started_at = d.started_at AND r.ended_at = d.ended_at"
" AND r.dbms = d.dbms AND r.workload = d.workload AND r.phase = d.phase"
" AND r.label IS NOT DISTINCT FROM d.label AND r.host IS NOT DISTINCT FROM d.host)";

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

/* Run a statement without parameters; 0, or -1 with the reason in err. */
static int
exec_simple(PGconn *pg, const char *sql, ExecStatusType want, PGresult **result,
			char *err, size_t errlen)
{
	PGresult   *res = PQexec(pg, sql);

	if (PQresultStatus(res) != want)
	{
		server_reason(res, pg, err, errlen);
		PQclear(res);
		return -1;
	}
	if (result)
		*result = res;
	else
		PQclear(res);
	return 0;
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
 * *imported the rows import_runs() moved, lf->loaded the lines it took.
 */
static int
load_lines(PGconn *pg, load_file *lf, long long *skipped, long long *imported,
		   char *err, size_t errlen)
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
		/* import_runs() would fail on anything but an object, less clearly */
		if (*start != '{')
		{
			snprintf(err, errlen, "%s:%lld: not a JSON object (a results file holds one {...}"
					 " per line)", lf->name, lineno);
			rc = -1;
			break;
		}
		values[0] = line;
		res = PQexecParams(pg, queue_sql, 1, NULL, values, NULL, NULL, 0);
		if (PQresultStatus(res) != PGRES_COMMAND_OK)
		{
			server_reason(res, pg, reason, sizeof(reason));
			snprintf(err, errlen, "%s:%lld: %s", lf->name, lineno, reason);
			PQclear(res);
			rc = -1;
			break;
		}
		if (strcmp(PQcmdTuples(res), "1") != 0)
		{
			/* the run is already in microbench.runs */
			PQclear(res);
			(*skipped)++;
			continue;
		}
		PQclear(res);
		res = PQexec(pg, "SELECT microbench.import_runs()");
		if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
		{
			server_reason(res, pg, reason, sizeof(reason));
			snprintf(err, errlen, "%s:%lld: %s", lf->name, lineno, reason);
			PQclear(res);
			rc = -1;
			break;
		}
		*imported += atoll(PQgetvalue(res, 0, 0));
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
print_summary(const load_file *files, int n, long long loaded, long long skipped,
			  long long extra)
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
		printf("; skipped %lld already there (same dbms, host, workload, label, phase"
			   " and measured window)", skipped);
	if (extra > 0)
		/* import_runs() takes every committed queued line, another session's too */
		printf("; import_runs() also moved %lld run%s another session had queued",
			   extra, extra == 1 ? "" : "s");
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
	PGresult   *res;
	char		err[1024];
	long long	loaded = 0;
	long long	skipped = 0;
	long long	imported = 0;
	long long	queued;
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
	pg = mbm_results_connect(o->results_db, err, sizeof(err));
	if (pg == NULL)
	{
		fprintf(stderr, "%s: load: %s; nothing was loaded\n", mbm_progname, err);
		close_files(files, n);
		return MBM_EXIT_BAD_INPUT;
	}
	/*
	 * One load at a time: two loads of the same file at once would each miss
	 * the other's uncommitted runs and insert them both.  The lock ends with
	 * the transaction; the next load's statements then see what it committed.
	 */
	if (exec_simple(pg, "BEGIN", PGRES_COMMAND_OK, NULL, err, sizeof(err)) != 0 ||
		exec_simple(pg, "SELECT pg_advisory_xact_lock(hashtext('microbench-mysql load'))",
					PGRES_TUPLES_OK, NULL, err, sizeof(err)) != 0 ||
		exec_simple(pg, "SELECT count(*) FROM microbench.import_queue", PGRES_TUPLES_OK, &res,
					err, sizeof(err)) != 0)
	{
		fprintf(stderr, "%s: load: %s; nothing was loaded\n", mbm_progname, err);
		PQfinish(pg);
		close_files(files, n);
		return MBM_EXIT_BAD_INPUT;
	}
	queued = atoll(PQgetvalue(res, 0, 0));
	PQclear(res);
	if (queued > 0)
	{
		fprintf(stderr, "%s: load: microbench.import_queue already holds %lld"
				" line%s queued outside this load; import them (SELECT microbench.import_runs())"
				" or remove them (DELETE FROM microbench.import_queue) first; nothing was loaded\n", mbm_progname,
				queued, queued == 1 ? "" : "s");
		PQfinish(pg);
		close_files(files, n);
		return MBM_EXIT_BAD_INPUT;
	}

	for (i = 0; i < n; i++)
	{
		if (load_lines(pg, &files[i], &skipped, &imported, err, sizeof(err)) != 0)
		{
			/* closing the connection rolls the transaction back */
			fprintf(stderr, "%s: load: %s; nothing was loaded\n", mbm_progname, err);
			PQfinish(pg);
			close_files(files, n);
			return MBM_EXIT_FAILED;
		}
		loaded += files[i].loaded;
	}
	if (exec_simple(pg, "COMMIT", PGRES_COMMAND_OK, NULL, err, sizeof(err)) != 0)
	{
		/* a COMMIT that fails leaves nothing; a lost answer to one may not */
		fprintf(stderr, "%s: load: COMMIT failed: %s; nothing was loaded unless"
				" the connection was lost after the server committed (loading again"
				" skips what is there)\n", mbm_progname, err);
		PQfinish(pg);
		close_files(files, n);
		return MBM_EXIT_FAILED;
	}
	PQfinish(pg);
	print_summary(files, n, loaded, skipped, imported - loaded);
	close_files(files, n);
	return MBM_EXIT_OK;
}

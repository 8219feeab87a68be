/*
 * mbm_results.c — record a finished run: into microbench.runs through libpq,
 * or, when no results database is given or it cannot be reached, as one JSON
 * line appended to a file that microbench.import_runs() loads later.
 * Nothing measured is lost: the file is written before giving up.
 *
 * One list of (column, value) pairs serves both paths, so the row written
 * to the database and the JSON line cannot drift apart.  Values are sent as
 * bound parameters, never pasted into the INSERT.
 *
 * The results database is reached with a conninfo given on the command
 * line, which ps and shell history show: one that carries a password is
 * refused before anything runs (PGPASSWORD and ~/.pgpass are for that).
 */
#include "mbm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#define MAX_COLUMNS 40

/*
 * libpq's default is to wait for as long as TCP does (minutes when a host
 * is gone); a suite would wait that long after each of its runs.  A
 * connect_timeout in the conninfo or PGCONNECT_TIMEOUT wins over this.
 */
#define RESULTS_CONNECT_TIMEOUT "10"

typedef struct column_value
{
	const char *column;
	char	   *text;			/* NULL for SQL NULL */
	bool		is_number;		/* unquoted in JSON */
} column_value;

typedef struct row
{
	column_value cols[MAX_COLUMNS];
	int			n;
} row;

static void
add(row *r, const char *column, const char *text, bool is_number)
{
	r->cols[r->n].column = column;
	r->cols[r->n].text = text ? strdup(text) : NULL;
	r->cols[r->n].is_number = is_number;
	r->n++;
}

static void
add_number(row *r, const char *column, double v, bool is_null)
{
	char		buf[64];

	snprintf(buf, sizeof(buf), "%.17g", v);
	add(r, column, is_null ? NULL : buf, true);
}

static void
add_int(row *r, const char *column, long long v, bool is_null)
{
	char		buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	add(r, column, is_null ? NULL : buf, true);
}

static void
add_time(row *r, const char *column, double epoch)
{
	char		buf[64];
	time_t		secs = (time_t) epoch;
	struct tm	tm;

	gmtime_r(&secs, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ".%06d+00",
			 (int) ((epoch - (double) secs) * 1e6));
	add(r, column, buf, false);
}

static void
build_row(row *rw, const mbm_options *o, const mbm_result *r)
{
	const mb_hist *h = &r->latency;
	bool		none = r->events == 0;
	bool		scan = r->rows_scanned >= 0;

	memset(rw, 0, sizeof(*rw));
	add(rw, "dbms", r->server.dbms, false);
	add(rw, "version", r->server.version, false);
	add(rw, "version_string", r->server.version_string, false);
	add(rw, "compiler", NULL, false);	/* MySQL and MariaDB do not say */
	add(rw, "label", o->label, false);
	add(rw, "workload", r->workload->name, false);
	add(rw, "phase", o->phase, false);
	add_int(rw, "tables", o->tables, false);
	add_int(rw, "table_size", (long long) o->table_size, false);
	add_int(rw, "range_size", r->range, r->range == 0);
	add_int(rw, "clients", o->threads, false);
	add(rw, "rand_type", mb_rand_type_name(o->rand_type), false);
	add_int(rw, "seed", (long long) o->seed, !o->seeded);
	add_number(rw, "seconds", o->time_s, false);
	add_number(rw, "warmup", o->warmup_s, false);
	add_time(rw, "started_at", r->started_at);
	add_time(rw, "ended_at", r->ended_at);
	add_number(rw, "elapsed_seconds", r->elapsed_s, false);
	add_int(rw, "events", (long long) r->events, false);
	add_int(rw, "queries", (long long) r->queries, false);
	add_int(rw, "errors", (long long) r->errors, false);
	add_int(rw, "rows_scanned", (long long) r->rows_scanned, !scan);
	add_number(rw, "qps", r->queries / r->elapsed_s, false);
	add_number(rw, "tps", r->events / r->elapsed_s, false);
	add_number(rw, "rows_per_second", r->rows_scanned / r->elapsed_s, !scan);
	add_number(rw, "lat_avg_ms", mb_hist_avg_ms(h), none);
	add_number(rw, "lat_p95_ms", mb_hist_percentile_ms(h, 95), none);
	add_number(rw, "lat_p99_ms", mb_hist_percentile_ms(h, 99), none);
	add_number(rw, "lat_max_ms", mb_hist_max_ms(h), none);
	add(rw, "host", r->host.hostname, false);
	add(rw, "cpu_model", r->host.cpu_model[0] ? r->host.cpu_model : NULL, false);
	add_int(rw, "cpu_cores", r->host.cpu_cores, false);
	add_int(rw, "memory_bytes", (long long) r->host.memory_bytes, r->host.memory_bytes == 0);
	add(rw, "kernel", r->host.kernel, false);
	add(rw, "driver", "microbench-mysql", false);
}

static void
free_row(row *rw)
{
	int			i;

	for (i = 0; i < rw->n; i++)
		free(rw->cols[i].text);
}

/* INSERT ... RETURNING run_id with every value bound; run id or -1. */
static long long
insert_row(const char *conninfo, const row *rw, char *err, size_t errlen)
{
	/* the conninfo comes last, so its own connect_timeout wins */
	const char *conn_keywords[] = {"connect_timeout", "dbname", NULL};
	const char *conn_values[] = {
		getenv("PGCONNECT_TIMEOUT") ? NULL : RESULTS_CONNECT_TIMEOUT, conninfo, NULL
	};
	PGconn	   *pg = PQconnectdbParams(conn_keywords, conn_values, 1);
	char		sql[2048];
	size_t		len;
	const char *values[MAX_COLUMNS];
	PGresult   *res;
	long long	run_id = -1;
	int			i;

	if (PQstatus(pg) != CONNECTION_OK)
	{
		snprintf(err, errlen, "cannot reach the results database: %s", PQerrorMessage(pg));
		PQfinish(pg);
		return -1;
	}
	len = (size_t) snprintf(sql, sizeof(sql), "INSERT INTO microbench.runs (");
	for (i = 0; i < rw->n; i++)
		len += (size_t) snprintf(sql + len, sizeof(sql) - len, "%s%s", i ? ", " : "",
								 rw->cols[i].column);
	len += (size_t) snprintf(sql + len, sizeof(sql) - len, ") VALUES (");
	for (i = 0; i < rw->n; i++)
	{
		len += (size_t) snprintf(sql + len, sizeof(sql) - len, "%s$%d", i ? ", " : "", i + 1);
		values[i] = rw->cols[i].text;
	}
	snprintf(sql + len, sizeof(sql) - len, ") RETURNING run_id");

	res = PQexecParams(pg, sql, rw->n, NULL, values, NULL, NULL, 0);
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		run_id = atoll(PQgetvalue(res, 0, 0));
	else
		snprintf(err, errlen, "cannot record the run: %s", PQresultErrorMessage(res));
	PQclear(res);
	PQfinish(pg);
	return run_id;
}

static void
json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
	{
		unsigned char ch = (unsigned char) *s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static int
append_json_line(const char *path, const row *rw, char *err, size_t errlen)
{
	FILE	   *f = fopen(path, "a");
	int			i;

	if (f == NULL)
	{
		snprintf(err, errlen, "cannot write %s", path);
		return -1;
	}
	fputc('{', f);
	for (i = 0; i < rw->n; i++)
	{
		if (i)
			fputs(", ", f);
		json_string(f, rw->cols[i].column);
		fputs(": ", f);
		if (rw->cols[i].text == NULL)
			fputs("null", f);
		else if (rw->cols[i].is_number)
			fputs(rw->cols[i].text, f);
		else
			json_string(f, rw->cols[i].text);
	}
	fputs("}\n", f);
	if (fclose(f) != 0)
	{
		snprintf(err, errlen, "cannot write %s", path);
		return -1;
	}
	return 0;
}

int
mbm_results_db_check(const char *conninfo, char *err, size_t errlen)
{
	char	   *parse_err = NULL;
	PQconninfoOption *opts = PQconninfoParse(conninfo, &parse_err);
	PQconninfoOption *opt;
	int			rc = 0;

	if (opts == NULL)
	{
		/* libpq's reason may quote any part of the string: a password too */
		snprintf(err, errlen, "--results-db is neither a libpq connection string"
				 " (key=value ...) nor a postgresql:// URI");
		PQfreemem(parse_err);
		return -1;
	}
	for (opt = opts; opt->keyword != NULL; opt++)
		if (strcmp(opt->keyword, "password") == 0 && opt->val != NULL && opt->val[0] != '\0')
		{
			snprintf(err, errlen, "--results-db must not contain a password, which ps and"
					 " shell history would show: use PGPASSWORD or ~/.pgpass");
			rc = -1;
		}
	PQconninfoFree(opts);
	return rc;
}

int
mbm_record_result(const mbm_options *o, const mbm_result *r, bool *in_file_only)
{
	row			rw;
	char		err[1024] = "";
	int			rc = MBM_EXIT_OK;

	if (in_file_only)
		*in_file_only = false;
	build_row(&rw, o, r);
	if (o->results_db)
	{
		long long	run_id = insert_row(o->results_db, &rw, err, sizeof(err));

		if (run_id >= 0)
		{
			printf("\nrecorded as run %lld in microbench.runs\n", run_id);
			free_row(&rw);
			return MBM_EXIT_OK;
		}
		/* strip libpq's trailing newline for a one-line message */
		err[strcspn(err, "\n")] = '\0';
		fprintf(stderr, "microbench-mysql: %s; keeping the result in %s\n", err, o->results_file);
		rc = MBM_EXIT_FAILED;
		if (in_file_only)
			*in_file_only = true;
	}
	if (append_json_line(o->results_file, &rw, err, sizeof(err)) != 0)
	{
		fprintf(stderr, "microbench-mysql: %s: the result above was not saved\n", err);
		free_row(&rw);
		if (in_file_only)
			*in_file_only = false;
		return MBM_EXIT_FAILED;
	}
	printf("\nresult appended to %s\n", o->results_file);
	if (!o->in_suite)
		mbm_print_load_recipe(o->results_file);
	free_row(&rw);
	return rc;
}

void
mbm_print_load_recipe(const char *results_file)
{
	printf("load %s into the results database with:\n"
		   "  psql -d RESULTS_DB -c \"\\copy microbench.import_queue (doc) FROM '%s'"
		   " WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')\""
		   " -c \"SELECT microbench.import_runs()\"\n", results_file, results_file);
}

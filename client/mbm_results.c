/*
 * mbm_results.c — record a finished run: into microbench.runs through libpq,
 * or, when no results database is given or it cannot be reached, as one JSON
 * line appended to a file that microbench-mysql load (mbm_load.c) loads later.
 * Nothing measured is lost: the file is written before giving up.
 *
 * One list of (column, value) pairs serves both paths, so the row written
 * to the database and the JSON line cannot drift apart.  Values are sent as
 * bound parameters, never pasted into the INSERT.  The list names every
 * cost column, those the client cannot know as NULL, so a row says "not
 * counted" the same way whichever path it took.
 *
 * The results database is reached with a conninfo given on the command
 * line, which ps and shell history show: one that carries a password is
 * refused before anything runs (PGPASSWORD and ~/.pgpass are for that).
 */
#include "mbm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>

#include <libpq-fe.h>

#define MAX_COLUMNS 96

/*
 * libpq's default is to wait for as long as TCP does (minutes when a host
 * is gone); a suite would wait that long after each of its runs.  A
 * connect_timeout in the conninfo or PGCONNECT_TIMEOUT wins over this.
 */
#define RESULTS_CONNECT_TIMEOUT "10"

/* How a value goes into the JSON line; the database takes them all as text. */
typedef enum column_kind
{
	COL_TEXT,					/* a JSON string */
	COL_NUMBER,					/* a JSON number, unquoted */
	COL_JSON,					/* already JSON (server_status, errors_by_code), as is */
	COL_FLOAT_ARRAY				/* numbers "1.5,2.5": a JSON array, a float8[] literal */
} column_kind;

typedef struct column_value
{
	const char *column;
	char	   *text;			/* NULL for SQL NULL */
	column_kind kind;
} column_value;

typedef struct row
{
	column_value cols[MAX_COLUMNS];
	int			n;
} row;

static void
add_kind(row *r, const char *column, const char *text, column_kind kind)
{
	if (r->n >= MAX_COLUMNS)
	{
		/* a programming error, caught by any test run */
		fprintf(stderr, "%s: more than %d result columns\n", mbm_progname, MAX_COLUMNS);
		abort();
	}
	r->cols[r->n].column = column;
	r->cols[r->n].text = text ? strdup(text) : NULL;
	r->cols[r->n].kind = kind;
	r->n++;
}

static void
add(row *r, const char *column, const char *text, bool is_number)
{
	add_kind(r, column, text, is_number ? COL_NUMBER : COL_TEXT);
}

static void
add_number(row *r, const char *column, double v, bool is_null)
{
	char		buf[64];

	snprintf(buf, sizeof(buf), "%.17g", v);
	/* JSON has no NaN or infinity; neither means anything in a result */
	add(r, column, is_null || !isfinite(v) ? NULL : buf, true);
}

static void
add_int(row *r, const char *column, long long v, bool is_null)
{
	char		buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	add(r, column, is_null ? NULL : buf, true);
}

/*
 * What the measured window cost.  The client sees its own threads, the
 * server's status counters and, when the server is local, the host and the
 * server threads of its sessions (their CPU and context switches); the
 * server's WAL, buffers and hardware counters (the extension's columns) it
 * cannot know: NULL.
 */
static void
add_costs(row *rw, const mbm_result *r)
{
	bool		costs = r->costs_measured;
	bool		cpu = costs && r->server_local && r->host_cpu.valid;
	bool		disk = costs && r->disk.valid;
	bool		server_cpu = costs && r->server_cpu_known;
	static const char *const unknown_ints[] = {
		"wal_records", "wal_fpi", "wal_bytes",
		"shared_blks_hit", "shared_blks_read", "shared_blks_dirtied", "shared_blks_written",
		"instructions", "cycles"
	};
	size_t		i;

	add_number(rw, "cpu_user_seconds", r->server_cpu.user_us / 1e6, !server_cpu);
	add_number(rw, "cpu_system_seconds", r->server_cpu.system_us / 1e6, !server_cpu);
	add_int(rw, "voluntary_cs", (long long) r->server_cpu.voluntary_cs, !server_cpu);
	add_int(rw, "involuntary_cs", (long long) r->server_cpu.involuntary_cs, !server_cpu);
	add(rw, "cpu_note", costs && r->cpu_note[0] ? r->cpu_note : NULL, false);
	for (i = 0; i < sizeof(unknown_ints) / sizeof(unknown_ints[0]); i++)
		add_int(rw, unknown_ints[i], 0, true);
	add(rw, "hw_counters_note", NULL, false);
	add_number(rw, "host_cpu_user_seconds", r->host_cpu.user_us / 1e6, !cpu);
	add_number(rw, "host_cpu_system_seconds", r->host_cpu.system_us / 1e6, !cpu);
	add_number(rw, "host_cpu_iowait_seconds", r->host_cpu.iowait_us / 1e6, !cpu);
	add_number(rw, "host_cpu_idle_seconds", r->host_cpu.idle_us / 1e6, !cpu);
	add_number(rw, "host_cpu_steal_seconds", r->host_cpu.steal_us / 1e6, !cpu);
	add_int(rw, "host_context_switches", (long long) r->host_cpu.context_switches, !cpu);
	add(rw, "disk_device", disk ? r->disk.device : NULL, false);
	add_int(rw, "disk_reads", (long long) r->disk.reads, !disk);
	add_number(rw, "disk_read_kb", r->disk.read_sectors / 2.0, !disk);
	add_int(rw, "disk_writes", (long long) r->disk.writes, !disk);
	add_number(rw, "disk_write_kb", r->disk.write_sectors / 2.0, !disk);
	add(rw, "disk_note", costs && !disk && r->disk_note[0] ? r->disk_note : NULL, false);
	add_number(rw, "client_cpu_user_seconds", r->client_cpu.user_us / 1e6, !costs);
	add_number(rw, "client_cpu_system_seconds", r->client_cpu.system_us / 1e6, !costs);
	add_kind(rw, "server_status", costs ? r->server_status : NULL, COL_JSON);
}

/*
 * n numbers as "1.5,2.5", a JSON array's and a float8[] literal's inside
 * (null, which both read as NULL, for a value below 0 when unknown_below_0);
 * NULL when there are none or memory ran out.
 */
static char *
number_list(const double *v, int n, bool unknown_below_0)
{
	char	   *list = NULL;
	size_t		len = 0;
	FILE	   *f = n > 0 && v != NULL ? open_memstream(&list, &len) : NULL;
	int			i;

	for (i = 0; f && i < n; i++)
	{
		if (unknown_below_0 && v[i] < 0)
			fprintf(f, "%snull", i ? "," : "");
		else
			/* no NaN or infinity: a sample has a positive length */
			fprintf(f, "%s%.17g", i ? "," : "", isfinite(v[i]) ? v[i] : 0.0);
	}
	if (f && fclose(f) != 0)
	{
		free(list);
		list = NULL;
	}
	return list;
}

/*
 * What a verdict needs beyond the QPS (results_schema/17_verdicts.sql): the
 * QPS of each second of the window, the host-speed canary before and after
 * it, the fingerprint of the data the run read, the round and instance it
 * belongs to, and the client threads' CPU run and wait times.
 */
static void
add_verdicts(row *rw, const mbm_options *o, const mbm_result *r)
{
	char	   *list = number_list(r->qps_per_second, r->n_samples, false);

	add_kind(rw, "qps_per_second", list, COL_FLOAT_ARRAY);
	free(list);
	list = number_list(r->qps_tenths, r->n_tenths, false);
	add_kind(rw, "qps_tenths", r->n_tenths > 0 ? list : NULL, COL_FLOAT_ARRAY);
	free(list);
	add_number(rw, "qps_steady", r->qps_steady, !r->steady_known);
	add_number(rw, "steady_set_aside", r->steady_set_aside, !r->steady_known);
	add_number(rw, "canary_before_us", r->canary_before_us, !(r->canary_before_us > 0));
	add_number(rw, "canary_after_us", r->canary_after_us, !(r->canary_after_us > 0));
	add_kind(rw, "data_state", r->data_state, COL_JSON);
	add_int(rw, "round", o->round, o->round == 0);
	add(rw, "instance", o->instance ? o->instance : r->server.instance[0] ? r->server.instance : NULL,
		false);
	add_number(rw, "cpu_run_seconds", r->sched.run_ns / 1e9, !r->sched_known);
	add_number(rw, "cpu_wait_seconds", r->sched.wait_ns / 1e9, !r->sched_known);
	list = number_list(r->cpu_wait_per_second, r->n_samples, true);
	add_kind(rw, "cpu_wait_per_second", list, COL_FLOAT_ARRAY);
	free(list);
	add_kind(rw, "client_pids", r->client_pids, COL_FLOAT_ARRAY);
}

/*
 * How the run was driven (results_schema/16_run_options.sql), as the
 * extension records it: a limit that was not set is NULL, errors_by_code
 * holds the codes that ended at least one measured event, {} for none.
 */
static void
add_run_options(row *rw, const mbm_options *o, const mbm_result *r)
{
	char		by_code[MBM_MAX_IGNORED * 32 + 2];
	size_t		len = 0;
	int			i;

	add(rw, "ps_mode", o->ps_disable ? "disable" : "auto", false);
	add_number(rw, "rate", o->rate, o->rate == 0);
	add_int(rw, "event_limit", (long long) o->event_limit, o->event_limit == 0);
	add_int(rw, "warmup_events", (long long) o->warmup_events, o->warmup_events == 0);
	add_int(rw, "reconnect", o->reconnect, o->reconnect == 0);
	add_int(rw, "sessions", (long long) r->sessions, false);
	add(rw, "ignored_errors", o->n_ignored > 0 ? o->ignored_text : NULL, false);
	by_code[len++] = '{';
	for (i = 0; i < o->n_ignored; i++)
		if (r->errors_by_code[i] > 0)
			len += (size_t) snprintf(by_code + len, sizeof(by_code) - len, "%s\"%s\": %llu",
									 len > 1 ? ", " : "", o->ignore_codes[i],
									 (unsigned long long) r->errors_by_code[i]);
	snprintf(by_code + len, sizeof(by_code) - len, "}");
	add_kind(rw, "errors_by_code", by_code, COL_JSON);
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

/*
 * A random (version 4) UUID for the run, made here where it ran: a results
 * database keeps one run per uid, however often its line is loaded
 * (results_schema/12_fleet.sql).  Left out when the kernel gives no random
 * bytes: the database then makes one (or, for a line, takes its natural key).
 */
static void
add_run_uid(row *rw)
{
	unsigned char b[16];
	char		text[40];

	if (getrandom(b, sizeof(b), 0) != (ssize_t) sizeof(b))
		return;
	b[6] = (unsigned char) ((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char) ((b[8] & 0x3f) | 0x80);
	snprintf(text, sizeof(text), "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
			 b[14], b[15]);
	add(rw, "run_uid", text, false);
}

static void
build_row(row *rw, const mbm_options *o, const mbm_result *r)
{
	const mb_hist *h = &r->latency;
	bool		none = r->events == 0;
	bool		scan = r->rows_scanned >= 0;

	memset(rw, 0, sizeof(*rw));
	add_run_uid(rw);
	add(rw, "dbms", r->server.dbms, false);
	add(rw, "version", r->server.version, false);
	add(rw, "version_string", r->server.version_string, false);
	/* Postgres says in version(), as the extension records it; MySQL and MariaDB do not */
	add(rw, "compiler", r->server.compiler[0] ? r->server.compiler : NULL, false);
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
	/* a warm-up of events took no seconds of its own */
	add_number(rw, "warmup", o->warmup_events > 0 ? 0 : o->warmup_s, false);
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
	add(rw, "driver", o->driver->name, false);
	add_run_options(rw, o, r);
	add_costs(rw, r);
	add_verdicts(rw, o, r);
}

static void
free_row(row *rw)
{
	int			i;

	for (i = 0; i < rw->n; i++)
		free(rw->cols[i].text);
}

PGconn *
mbm_results_connect(const char *conninfo, char *err, size_t errlen)
{
	/* the conninfo comes last, so its own connect_timeout wins */
	const char *conn_keywords[] = {"connect_timeout", "dbname", NULL};
	const char *conn_values[] = {
		getenv("PGCONNECT_TIMEOUT") ? NULL : RESULTS_CONNECT_TIMEOUT, conninfo, NULL
	};
	PGconn	   *pg = PQconnectdbParams(conn_keywords, conn_values, 1);

	if (PQstatus(pg) != CONNECTION_OK)
	{
		snprintf(err, errlen, "cannot reach the results database: %s", PQerrorMessage(pg));
		/* libpq's message may run over lines; the first says what failed */
		err[strcspn(err, "\n")] = '\0';
		PQfinish(pg);
		return NULL;
	}
	return pg;
}

PGconn *
mbm_push_connect(const char *conninfo, bool *no_schema, char *err, size_t errlen)
{
	PGconn	   *pg = mbm_results_connect(conninfo, err, errlen);
	PGresult   *res;

	*no_schema = false;
	if (pg == NULL)
		return NULL;
	res = PQexec(pg, "SELECT to_regprocedure('microbench.push_run(jsonb)') IS NOT NULL");
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
	{
		snprintf(err, errlen, "the results database: %s", PQerrorMessage(pg));
		err[strcspn(err, "\n")] = '\0';
	}
	else if (strcmp(PQgetvalue(res, 0, 0), "t") != 0)
	{
		snprintf(err, errlen, "the results database has no microbench.push_run(jsonb): load"
				 " results_schema/upgrade/*.sql and results_schema/*.sql into it again (or ALTER"
				 " EXTENSION microbench UPDATE)");
		*no_schema = true;
	}
	else
	{
		PQclear(res);
		return pg;
	}
	PQclear(res);
	PQfinish(pg);
	return NULL;
}

/* INSERT ... RETURNING run_id with every value bound; run id or -1. */
static long long
insert_row(const char *conninfo, const row *rw, char *err, size_t errlen)
{
	PGconn	   *pg = mbm_results_connect(conninfo, err, errlen);
	char		sql[8192];
	size_t		len;
	const char *values[MAX_COLUMNS];
	char	   *arrays[MAX_COLUMNS] = {NULL};	/* float8[] literals, freed at the end */
	PGresult   *res;
	long long	run_id = -1;
	int			i;

	if (pg == NULL)
		return -1;
	len = (size_t) snprintf(sql, sizeof(sql), "INSERT INTO microbench.runs (");
	for (i = 0; i < rw->n; i++)
		len += (size_t) snprintf(sql + len, sizeof(sql) - len, "%s%s", i ? ", " : "",
								 rw->cols[i].column);
	len += (size_t) snprintf(sql + len, sizeof(sql) - len, ") VALUES (");
	for (i = 0; i < rw->n; i++)
	{
		len += (size_t) snprintf(sql + len, sizeof(sql) - len, "%s$%d", i ? ", " : "", i + 1);
		values[i] = rw->cols[i].text;
		if (rw->cols[i].kind == COL_FLOAT_ARRAY && rw->cols[i].text != NULL)
		{
			size_t		n = strlen(rw->cols[i].text) + 3;

			arrays[i] = malloc(n);
			snprintf(arrays[i], n, "{%s}", rw->cols[i].text);
			values[i] = arrays[i];
		}
	}
	if (snprintf(sql + len, sizeof(sql) - len, ") RETURNING run_id") >= (int) (sizeof(sql) - len))
	{
		/* a programming error (too many columns for the buffer), caught by any test run */
		snprintf(err, errlen, "cannot record the run: the INSERT does not fit %zu bytes", sizeof(sql));
		for (i = 0; i < rw->n; i++)
			free(arrays[i]);
		PQfinish(pg);
		return -1;
	}

	res = PQexecParams(pg, sql, rw->n, NULL, values, NULL, NULL, 0);
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		run_id = atoll(PQgetvalue(res, 0, 0));
	else if (strcmp(PQresultErrorField(res, PG_DIAG_SQLSTATE) ?
					PQresultErrorField(res, PG_DIAG_SQLSTATE) : "", "42703") == 0)
	{
		/* undefined_column: a results schema from before the cost or run-option columns */
		char		msg[512];

		snprintf(msg, sizeof(msg), "%s", PQresultErrorMessage(res));
		msg[strcspn(msg, "\n")] = '\0';
		snprintf(err, errlen, "cannot record the run: %s (load results_schema/upgrade/*.sql and"
				 " results_schema/*.sql into the results database again to add the new columns)", msg);
	}
	else
		snprintf(err, errlen, "cannot record the run: %s", PQresultErrorMessage(res));
	PQclear(res);
	PQfinish(pg);
	for (i = 0; i < rw->n; i++)
		free(arrays[i]);
	return run_id;
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
		mbm_json_string(f, rw->cols[i].column);
		fputs(": ", f);
		if (rw->cols[i].text == NULL)
			fputs("null", f);
		else if (rw->cols[i].kind == COL_FLOAT_ARRAY)
			fprintf(f, "[%s]", rw->cols[i].text);
		else if (rw->cols[i].kind != COL_TEXT)
			fputs(rw->cols[i].text, f);
		else
			mbm_json_string(f, rw->cols[i].text);
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
mbm_conninfo_check(const char *option, const char *conninfo, const char *or_else,
				   char *err, size_t errlen)
{
	char	   *parse_err = NULL;
	PQconninfoOption *opts = PQconninfoParse(conninfo, &parse_err);
	PQconninfoOption *opt;
	int			rc = 0;

	if (opts == NULL)
	{
		/* libpq's reason may quote any part of the string: a password too */
		snprintf(err, errlen, "--%s is neither %sa libpq connection string"
				 " (key=value ...) nor a postgresql:// URI", option, or_else);
		PQfreemem(parse_err);
		return -1;
	}
	for (opt = opts; opt->keyword != NULL; opt++)
		if (strcmp(opt->keyword, "password") == 0 && opt->val != NULL && opt->val[0] != '\0')
		{
			snprintf(err, errlen, "--%s must not contain a password, which ps and"
					 " shell history would show: use PGPASSWORD or ~/.pgpass", option);
			rc = -1;
		}
	PQconninfoFree(opts);
	return rc;
}

int
mbm_results_db_check(const char *conninfo, char *err, size_t errlen)
{
	return mbm_conninfo_check("results-db", conninfo, "", err, errlen);
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
		fprintf(stderr, "%s: %s; keeping the result in %s\n", mbm_progname, err, o->results_file);
		rc = MBM_EXIT_FAILED;
		if (in_file_only)
			*in_file_only = true;
	}
	if (append_json_line(o->results_file, &rw, err, sizeof(err)) != 0)
	{
		fprintf(stderr, "%s: %s: the result above was not saved\n", mbm_progname, err);
		free_row(&rw);
		if (in_file_only)
			*in_file_only = false;
		return MBM_EXIT_FAILED;
	}
	printf("\nresult appended to %s\n", o->results_file);
	if (!o->in_suite)
		mbm_print_load_recipe(o->results_file, o->results_db);
	free_row(&rw);
	return rc;
}

/*
 * text as one shell word: as it is when nothing in it is special to a shell,
 * else between single quotes, so the printed command can be pasted.
 */
void
mbm_print_shell_word(const char *text)
{
	const char *p;

	if (text[0] != '\0' && strspn(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
								   "0123456789_-+=.,/:@%") == strlen(text))
	{
		fputs(text, stdout);
		return;
	}
	putchar('\'');
	for (p = text; *p; p++)
		if (*p == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*p);
	putchar('\'');
}

void
mbm_print_load_recipe(const char *results_file, const char *results_db)
{
	/* the conninfo given, which holds no password (mbm_results_db_check) */
	printf("load %s into the results database with:\n  %s load ", results_file, mbm_progname);
	mbm_print_shell_word(results_file);
	printf(" --results-db=");
	if (results_db)
		mbm_print_shell_word(results_db);
	else
		printf("CONNINFO");
	printf("\n");
}

/*
 * mbm_cost.c — what a run cost, as the client sees it from outside the
 * server: SHOW GLOBAL STATUS at both ends of the measured window, and, when
 * the server runs on this host, the host's CPU and the disk that holds the
 * server's datadir (common/mb_cost.c reads /proc for those).  The clients'
 * own CPU is taken by each client thread (mbm_run.c).
 *
 * The status is read on one extra "monitor" connection that does nothing
 * else, so its own statements show up only where a SHOW STATUS shows up
 * (Com_show_status, Questions, Bytes_*, Rows_sent and, on MariaDB, the
 * temporary table it fills), never in Com_stmt_execute and the like.  A
 * snapshot that fails costs the run its server_status, not the run: the
 * benchmark itself went fine.
 */
#include "mbm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * The monitor must not hang the main thread, which has to stay free to
 * notice a stop signal, on a server that stopped answering.
 */
#define MBM_MONITOR_TIMEOUT_S 5

/*
 * The server counters the summary divides by queries, those the server has.
 * MariaDB dropped Innodb_rows_read (MDEV-28539; 10.11 has none): its
 * Rows_read, the rows every engine read, stands in, under its own name.
 */
static const struct shown_status
{
	const char *name;
	const char *fallback;
	const char *label;			/* the summary's, name and unit */
	double		divisor;
}			shown_status[MBM_COST_STATUS_SHOWN] = {
	{"Innodb_rows_read", "Rows_read", NULL, 1},
	{"Innodb_buffer_pool_read_requests", NULL, NULL, 1},
	{"Innodb_buffer_pool_reads", NULL, NULL, 1},
	{"Innodb_data_written", NULL, "Innodb_data_written (KB):", 1024},
	{"Innodb_os_log_written", NULL, "Innodb_os_log_written (bytes):", 1},
	{"Handler_read_key", NULL, NULL, 1},
};

typedef struct status_var
{
	char	   *name;
	char	   *value;
} status_var;

struct mbm_status
{
	status_var *vars;			/* sorted by name */
	int			n;
};

static int
compare_vars(const void *a, const void *b)
{
	return strcmp(((const status_var *) a)->name, ((const status_var *) b)->name);
}

static void
status_free(mbm_status *st)
{
	int			i;

	if (st == NULL)
		return;
	for (i = 0; i < st->n; i++)
	{
		free(st->vars[i].name);
		free(st->vars[i].value);
	}
	free(st->vars);
	free(st);
}

/* SHOW GLOBAL STATUS, sorted by name; NULL with err set if it failed. */
static mbm_status *
status_take(MYSQL *conn, char *err, size_t errlen)
{
	static const char sql[] = "SHOW GLOBAL STATUS";
	MYSQL_RES  *res;
	MYSQL_ROW	row;
	mbm_status *st;
	int			cap;

	if (mysql_real_query(conn, sql, (unsigned long) strlen(sql)) != 0 ||
		(res = mysql_store_result(conn)) == NULL)
	{
		snprintf(err, errlen, "%s: %s (%u)", sql, mysql_error(conn), mysql_errno(conn));
		return NULL;
	}
	st = calloc(1, sizeof(mbm_status));
	cap = (int) mysql_num_rows(res) + 1;
	st->vars = calloc((size_t) cap, sizeof(status_var));
	while ((row = mysql_fetch_row(res)) != NULL && st->n < cap)
	{
		if (row[0] == NULL || row[1] == NULL)
			continue;
		st->vars[st->n].name = strdup(row[0]);
		st->vars[st->n].value = strdup(row[1]);
		st->n++;
	}
	mysql_free_result(res);
	qsort(st->vars, (size_t) st->n, sizeof(status_var), compare_vars);
	return st;
}

static const char *
status_get(const mbm_status *st, const char *name)
{
	status_var	key = {(char *) name, NULL};
	status_var *found;

	if (st == NULL)
		return NULL;
	found = bsearch(&key, st->vars, (size_t) st->n, sizeof(status_var), compare_vars);
	return found ? found->value : NULL;
}

/*
 * A status value as a number: an integer (most counters) or a decimal
 * (MariaDB's Busy_time, Cpu_time...).  Anything else (ON, OFF, a cipher
 * name, an empty string) is not a number and is left out.
 */
static bool
is_integer(const char *s)
{
	if (*s == '-')
		s++;
	return *s != '\0' && strspn(s, "0123456789") == strlen(s);
}

static bool
is_decimal(const char *s)
{
	size_t		n;

	if (*s == '-')
		s++;
	n = strspn(s, "0123456789");
	if (n == 0 || s[n] != '.')
		return false;
	s += n + 1;
	return *s != '\0' && strspn(s, "0123456789") == strlen(s);
}

/* end - start as a JSON number into buf; false if either is not a number. */
static bool
status_delta(const char *start, const char *end, char *buf, size_t buflen, double *delta)
{
	if (is_integer(start) && is_integer(end))
	{
		/* integers stay integers: Bytes_sent does not fit a double's mantissa forever */
		long long	d = strtoll(end, NULL, 10) - strtoll(start, NULL, 10);

		snprintf(buf, buflen, "%lld", d);
		*delta = (double) d;
		return true;
	}
	if ((is_integer(start) || is_decimal(start)) && (is_integer(end) || is_decimal(end)))
	{
		*delta = strtod(end, NULL) - strtod(start, NULL);
		snprintf(buf, buflen, "%.6f", *delta);
		return true;
	}
	return false;
}

/* {"name": delta, ...} of every numeric variable that changed; malloc'ed. */
static char *
status_json(const mbm_status *start, const mbm_status *end)
{
	char	   *json = NULL;
	size_t		len = 0;
	FILE	   *f = open_memstream(&json, &len);
	bool		first = true;
	int			i;

	if (f == NULL)
		return NULL;
	fputc('{', f);
	for (i = 0; i < end->n; i++)
	{
		const char *before = status_get(start, end->vars[i].name);
		char		buf[64];
		double		delta;

		if (before == NULL || strcmp(before, end->vars[i].value) == 0 ||
			!status_delta(before, end->vars[i].value, buf, sizeof(buf), &delta))
			continue;
		if (!first)
			fputs(", ", f);
		mbm_json_string(f, end->vars[i].name);
		fprintf(f, ": %s", buf);
		first = false;
	}
	fputc('}', f);
	if (fclose(f) != 0)
	{
		free(json);
		return NULL;
	}
	return json;
}

/*
 * Whether the server runs on this host: reached through a unix socket, or
 * by a loopback name.  The library's description of the connection says
 * which ("Localhost via UNIX socket", "127.0.0.1 via TCP/IP"), whatever
 * chose it: our options, --defaults-file or the library's defaults.
 */
static bool
server_is_local(MYSQL *conn)
{
	const char *info = mysql_get_host_info(conn);
	size_t		n;

	if (info == NULL)
		return false;
	if (strstr(info, "via UNIX socket") != NULL)
		return true;
	n = strcspn(info, " ");
	return (n == 9 && strncasecmp(info, "localhost", n) == 0) ||
		(n == 9 && strncmp(info, "127.0.0.1", n) == 0) ||
		(n == 3 && strncmp(info, "::1", n) == 0);
}

/* The block device of the server's datadir, or why there is none. */
static void
find_datadir_device(mbm_cost_probe *p)
{
	static const char sql[] = "SELECT @@datadir";
	MYSQL_RES  *res;
	MYSQL_ROW	row;
	char		datadir[1024] = "";

	if (mysql_real_query(p->monitor, sql, (unsigned long) strlen(sql)) != 0 ||
		(res = mysql_store_result(p->monitor)) == NULL)
	{
		snprintf(p->disk_note, sizeof(p->disk_note), "%s failed: %s", sql,
				 mysql_error(p->monitor));
		return;
	}
	row = mysql_fetch_row(res);
	if (row && row[0])
		snprintf(datadir, sizeof(datadir), "%s", row[0]);
	mysql_free_result(res);
	if (datadir[0] == '\0')
	{
		snprintf(p->disk_note, sizeof(p->disk_note), "the server does not say where its datadir is");
		return;
	}
	p->disk_known = mb_disk_of_path(datadir, p->disk_device, sizeof(p->disk_device),
									p->disk_note, sizeof(p->disk_note));
	if (p->disk_known)
		p->disk_note[0] = '\0';
}

int
mbm_cost_open(const mbm_options *o, mbm_cost_probe *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->monitor = mbm_connect_timeout(o, MBM_MONITOR_TIMEOUT_S, err, errlen);
	if (p->monitor == NULL)
		return -1;
	p->local = server_is_local(p->monitor);
	if (p->local)
		find_datadir_device(p);
	else
		snprintf(p->disk_note, sizeof(p->disk_note), "the server is not on this host");
	return 0;
}

void
mbm_cost_close(mbm_cost_probe *p)
{
	if (p->monitor)
		mysql_close(p->monitor);
	p->monitor = NULL;
}

/*
 * One end of the window.  The status is read farthest from the switch of
 * phase, the host's /proc figures nearest to it: they cost microseconds, a
 * SHOW GLOBAL STATUS a round trip.
 */
void
mbm_cost_take(mbm_cost_probe *p, mbm_cost_snapshot *s, bool at_start)
{
	memset(s, 0, sizeof(*s));
	/* after a failure, do not wait out the monitor's timeout a second time */
	if (at_start && p->status_note[0] == '\0')
		s->status = status_take(p->monitor, p->status_note, sizeof(p->status_note));
	if (p->local)
	{
		mb_host_cpu_take(&s->host_cpu);
		if (p->disk_known)
			mb_disk_take(p->disk_device, &s->disk);
	}
	if (!at_start && p->status_note[0] == '\0')
		s->status = status_take(p->monitor, p->status_note, sizeof(p->status_note));
}

void
mbm_cost_snapshot_free(mbm_cost_snapshot *s)
{
	status_free(s->status);
	s->status = NULL;
}

void
mbm_cost_finish(const mbm_cost_probe *p, const mbm_cost_snapshot *start,
				const mbm_cost_snapshot *end, mbm_result *r)
{
	int			i;

	r->costs_measured = true;
	r->server_local = p->local;
	if (p->local)
		mb_host_cpu_delta(&r->host_cpu, &end->host_cpu, &start->host_cpu);
	if (p->disk_known)
	{
		mb_disk_delta(&r->disk, &end->disk, &start->disk);
		if (!r->disk.valid)
			snprintf(r->disk_note, sizeof(r->disk_note),
					 "%s vanished from /proc/diskstats during the run", p->disk_device);
	}
	else
		snprintf(r->disk_note, sizeof(r->disk_note), "%s", p->disk_note);

	free(r->server_status);
	r->server_status = NULL;
	if (start->status && end->status)
		r->server_status = status_json(start->status, end->status);
	else
	{
		printf("\nnote: %s; server_status not recorded\n", p->status_note);
		fflush(stdout);
	}
	/* unchanged counters are not in the JSON, but a 0 per query is worth showing */
	for (i = 0; i < MBM_COST_STATUS_SHOWN; i++)
	{
		const struct shown_status *ss = &shown_status[i];
		const char *name = ss->name;
		const char *before = status_get(start->status, name);
		const char *after = status_get(end->status, name);
		char		buf[64];

		if ((before == NULL || after == NULL) && ss->fallback != NULL)
		{
			name = ss->fallback;
			before = status_get(start->status, name);
			after = status_get(end->status, name);
		}
		r->status_name[i] = NULL;
		if (before && after && status_delta(before, after, buf, sizeof(buf), &r->status_delta[i]))
		{
			r->status_name[i] = name;
			r->status_label[i] = name == ss->name ? ss->label : NULL;
			r->status_delta[i] /= ss->divisor;
		}
	}
}

/* One line of the cost block: label, value per query, and a remark. */
static void
cost_line(const char *label, double per_query, const char *remark)
{
	char		value[64];

	/* small figures need decimals, large ones do not */
	snprintf(value, sizeof(value), fabs(per_query) >= 100 ? "%.1f" : "%.2f", per_query);
	if (remark)
		printf("    %-37s%-13s %s\n", label, value, remark);
	else
		printf("    %-37s%s\n", label, value);
}

void
mbm_cost_print(const mbm_result *r)
{
	double		q = (double) r->queries;
	int			i;

	if (!r->costs_measured || r->queries == 0)
		return;
	printf("\nCost per query:\n");
	cost_line("client CPU (us):", (r->client_cpu.user_us + r->client_cpu.system_us) / q, NULL);
	if (r->server_local && r->host_cpu.valid)
	{
		int64_t		busy = r->host_cpu.user_us + r->host_cpu.system_us;
		int64_t		all = busy + r->host_cpu.iowait_us + r->host_cpu.idle_us;
		char		remark[64];

		snprintf(remark, sizeof(remark), "(host %.0f%% busy)", all > 0 ? 100.0 * busy / all : 0.0);
		cost_line("host CPU (us):", busy / q, remark);
		cost_line("host context switches:", r->host_cpu.context_switches / q, NULL);
	}
	if (r->disk.valid)
	{
		char		value[64];

		snprintf(value, sizeof(value), "%.2f / %.2f", r->disk.read_sectors / 2.0 / q,
				 r->disk.write_sectors / 2.0 / q);
		printf("    %-37s%-13s (%s)\n", "disk KB read / written:", value, r->disk.device);
	}
	else
		printf("    %-37snot counted: %s\n", r->server_local ? "disk:" : "host CPU, disk:",
			   r->disk_note);
	for (i = 0; i < MBM_COST_STATUS_SHOWN; i++)
	{
		char		label[64];

		if (r->status_name[i] == NULL)
			continue;
		if (r->status_label[i])
			snprintf(label, sizeof(label), "%s", r->status_label[i]);
		else
			snprintf(label, sizeof(label), "%s:", r->status_name[i]);
		cost_line(label, r->status_delta[i] / q, NULL);
	}
	fflush(stdout);
}

/*
 * One row of a query on the monitor as text; NULL (and nothing to free) if
 * it failed or returned no row.  The caller frees the result.
 */
static MYSQL_ROW
monitor_row(MYSQL *conn, const char *sql, size_t len, MYSQL_RES **res)
{
	MYSQL_ROW	row;

	*res = NULL;
	if (mysql_real_query(conn, sql, (unsigned long) len) != 0 ||
		(*res = mysql_store_result(conn)) == NULL)
		return NULL;
	row = mysql_fetch_row(*res);
	if (row == NULL)
	{
		mysql_free_result(*res);
		*res = NULL;
	}
	return row;
}

/* "key": value into f when value is an integer; whether it was. */
static bool
json_int_member(FILE *f, bool first, const char *key, const char *value)
{
	if (value == NULL || !is_integer(value))
		return false;
	if (!first)
		fputs(", ", f);
	mbm_json_string(f, key);
	fprintf(f, ": %s", value);
	return true;
}

/*
 * The tables: information_schema.TABLES of the connection's database (the
 * run's, --mysql-db) for sbtest1..N, or for a table-per-client workload the
 * tables its clients scan.  The statement is text, and holds no value from
 * the command line (the table names are ours, the schema DATABASE()): a
 * prepared statement would show in Com_stmt_prepare, Com_stmt_execute and
 * the general log as Prepare/Execute, where only the workload's statements
 * belong.  The history list length: Innodb_history_list_length (MariaDB),
 * else InnoDB's trx_rseg_history_len metric (MySQL).
 */
char *
mbm_data_state(mbm_cost_probe *p, const mbm_options *o, const mb_workload *w)
{
	static const char history_status[] = "SHOW GLOBAL STATUS LIKE 'Innodb_history_list_length'";
	static const char history_metric[] =
		"SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len'";
	char	   *sql = NULL;
	size_t		sql_len = 0;
	char	   *json = NULL;
	size_t		json_len = 0;
	FILE	   *q;
	FILE	   *f;
	MYSQL_RES  *res;
	MYSQL_ROW	row;
	bool		first = true;
	int			t;

	if (p->monitor == NULL || (q = open_memstream(&sql, &sql_len)) == NULL)
		return NULL;
	fputs("SELECT SUM(DATA_LENGTH), SUM(INDEX_LENGTH), SUM(TABLE_ROWS)"
		  " FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (", q);
	for (t = 1; t <= o->tables; t++)
	{
		bool		used = !w->table_per_client;
		int			i;

		/* a client scans table (index % tables) + 1 */
		for (i = 0; !used && i < o->threads && i < o->tables; i++)
			used = (i % o->tables) + 1 == t;
		if (!used)
			continue;
		fprintf(q, "%s'sbtest%d'", first ? "" : ", ", t);
		first = false;
	}
	fputc(')', q);
	if (fclose(q) != 0)
	{
		free(sql);
		return NULL;
	}
	if ((f = open_memstream(&json, &json_len)) == NULL)
	{
		free(sql);
		return NULL;
	}
	first = true;
	fputc('{', f);
	if ((row = monitor_row(p->monitor, sql, sql_len, &res)) != NULL)
	{
		if (json_int_member(f, first, "data_bytes", row[0]))
			first = false;
		if (json_int_member(f, first, "index_bytes", row[1]))
			first = false;
		if (json_int_member(f, first, "rows", row[2]))
			first = false;
		mysql_free_result(res);
	}
	free(sql);
	row = monitor_row(p->monitor, history_status, strlen(history_status), &res);
	if (row == NULL || mysql_num_fields(res) < 2 || row[1] == NULL || !is_integer(row[1]))
	{
		if (res)
			mysql_free_result(res);
		row = monitor_row(p->monitor, history_metric, strlen(history_metric), &res);
		if (row && json_int_member(f, first, "history_length", row[0]))
			first = false;
	}
	else if (json_int_member(f, first, "history_length", row[1]))
		first = false;
	if (res)
		mysql_free_result(res);
	fputc('}', f);
	if (fclose(f) != 0 || first)
	{
		free(json);
		return NULL;
	}
	return json;
}

/*
 * mbm_cost.c — what a run cost, as the client sees it from outside the
 * server: the driver's server counters (MySQL's SHOW GLOBAL STATUS;
 * Postgres's pg_stat_database, pg_stat_wal and pg_stat_io) at both ends of
 * the measured window, and, when the server runs on this host, the host's
 * CPU and the disk that holds the server's datadir (common/mb_cost.c reads
 * /proc for those).  The clients' own CPU is taken by each client thread
 * (mbm_run.c).
 *
 * The counters are read on one extra "monitor" connection that does nothing
 * else, so its own statements show up only where a status query shows up
 * (on MySQL Com_show_status, Questions, Bytes_*, Rows_sent and, on MariaDB,
 * the temporary table it fills; on Postgres one transaction and the
 * catalog reads of the statistics views), never in Com_stmt_execute, the
 * workload's pg_stat_statements entries and the like.  A snapshot that
 * fails costs the run its server_status, not the run: the benchmark itself
 * went fine.
 *
 * Postgres backends publish their counters at the end of a transaction at
 * most once a second, and an idle one after ten seconds: up to a second of
 * a client's warm-up may reach the statistics views only inside the
 * window, and up to its last second of the window only after the end
 * snapshot.  docs/costs.md says so; the pgsql figures per query are good
 * to that second over the window's length.
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

typedef struct status_var
{
	char	   *name;
	char	   *value;
} status_var;

struct mbm_status
{
	status_var *vars;			/* sorted by name */
	int			n;
	int			cap;
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

/* One (name, value) row of the status query into the snapshot. */
static void
status_add(void *arg, int ncols, const char *const *row)
{
	mbm_status *st = arg;

	if (ncols < 2 || row[0] == NULL || row[1] == NULL)
		return;
	if (st->n == st->cap)
	{
		int			cap = st->cap ? st->cap * 2 : 256;
		status_var *vars = realloc(st->vars, (size_t) cap * sizeof(status_var));

		if (vars == NULL)
			return;
		st->vars = vars;
		st->cap = cap;
	}
	st->vars[st->n].name = strdup(row[0]);
	st->vars[st->n].value = strdup(row[1]);
	st->n++;
}

/* The driver's counters, sorted by name; NULL with err set if it failed. */
static mbm_status *
status_take(const mbm_driver *d, mbm_conn *conn, char *err, size_t errlen)
{
	mbm_status *st = calloc(1, sizeof(mbm_status));

	if (st == NULL)
	{
		snprintf(err, errlen, "status snapshot: out of memory");
		return NULL;
	}
	if (d->query_rows(conn, d->status_sql(conn), status_add, st, err, errlen) < 0)
	{
		status_free(st);
		return NULL;
	}
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
	if (mbm_is_integer(start) && mbm_is_integer(end))
	{
		/* integers stay integers: Bytes_sent does not fit a double's mantissa forever */
		long long	d = strtoll(end, NULL, 10) - strtoll(start, NULL, 10);

		snprintf(buf, buflen, "%lld", d);
		*delta = (double) d;
		return true;
	}
	if ((mbm_is_integer(start) || is_decimal(start)) && (mbm_is_integer(end) || is_decimal(end)))
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

/* The block device of the server's datadir, or why there is none. */
static void
find_datadir_device(const mbm_options *o, mbm_cost_probe *p)
{
	const char *sql = p->driver->datadir_sql;
	char		datadir[1024] = "";
	char		err[512];

	if (mbm_query_value(o, p->monitor, sql, datadir, sizeof(datadir), err, sizeof(err)) != 0)
	{
		snprintf(p->disk_note, sizeof(p->disk_note), "%.60s failed: %.180s", sql, err);
		return;
	}
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
	p->driver = o->driver;
	/* a note is what keeps mbm_cost_take from reading the status */
	if (o->no_server_status)
	{
		/*
		 * No monitor connection at all: a counted run's server then
		 * serves one connection at a time, the clients', on one thread
		 */
		snprintf(p->status_note, sizeof(p->status_note), "not read (--server-status=off)");
		snprintf(p->disk_note, sizeof(p->disk_note), "not read (--server-status=off)");
		return 0;
	}
	p->monitor = mbm_connect_timeout(o, MBM_MONITOR_TIMEOUT_S, err, errlen);
	if (p->monitor == NULL)
		return -1;
	p->local = p->driver->server_is_local(p->monitor);
	if (p->local)
		find_datadir_device(o, p);
	else
		snprintf(p->disk_note, sizeof(p->disk_note), "the server is not on this host");
	return 0;
}

void
mbm_cost_close(mbm_cost_probe *p)
{
	if (p->monitor)
		p->driver->close(p->monitor);
	p->monitor = NULL;
}

/*
 * One end of the window.  The status is read farthest from the switch of
 * phase, the host's /proc figures nearest to it: they cost microseconds, a
 * status query a round trip.
 */
void
mbm_cost_take(mbm_cost_probe *p, mbm_cost_snapshot *s, bool at_start)
{
	memset(s, 0, sizeof(*s));
	/* after a failure, do not wait out the monitor's timeout a second time */
	if (at_start && p->status_note[0] == '\0')
		s->status = status_take(p->driver, p->monitor, p->status_note, sizeof(p->status_note));
	if (p->local)
	{
		mb_host_cpu_take(&s->host_cpu);
		if (p->disk_known)
			mb_disk_take(p->disk_device, &s->disk);
	}
	if (!at_start && p->status_note[0] == '\0')
		s->status = status_take(p->driver, p->monitor, p->status_note, sizeof(p->status_note));
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
		const mbm_shown_status *ss = &p->driver->shown_status[i];
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
mbm_cost_print(const mbm_result *r, int clients)
{
	double		q = (double) r->queries;
	int			i;

	if (!r->costs_measured || r->queries == 0)
		return;
	printf("\nCost per query:\n");
	cost_line("client CPU (us):", (r->client_cpu.user_us + r->client_cpu.system_us) / q, NULL);
	if (r->server_cpu_known)
	{
		char		value[64];

		/* the user share: what a count of the server's instructions covers */
		snprintf(value, sizeof(value), "%.1f / %.1f", r->server_cpu.user_us / q,
				 r->server_cpu.system_us / q);
		printf("    %-37s%-13s (%.0f%% of the clients' time in its user code)\n",
			   "server CPU user / system (us):", value,
			   r->elapsed_s > 0 ? 100.0 * r->server_cpu.user_us / 1e6 / (r->elapsed_s * clients) : 0.0);
	}
	else
		printf("    %-37s%s\n", "server CPU:", r->cpu_note);
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


char *
mbm_data_state(mbm_cost_probe *p, const mbm_options *o, const mb_workload *w)
{
	if (p->monitor == NULL || o->no_server_status)
		return NULL;
	return p->driver->data_state(p->monitor, o, w);
}

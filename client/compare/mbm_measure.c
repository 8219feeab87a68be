/*
 * mbm_measure.c — one measurement on a server the runner started and that
 * is up: bench_run() in a Postgres, this program's mysql driver against a
 * MariaDB or MySQL, its pgsql driver against a Postgres over the wire.  Either way the run's row comes back as one JSON line,
 * as runs.jsonl and the results database take it.  A timed run and each
 * step of a counted one (mbm_count.c) differ only in their limits.
 */
#include "mbm.h"
#include "mbm_measure.h"
#include "mbm_myserver.h"
#include "mbm_pgserver.h"
#include "mbm_proc.h"
#include "mbm_state.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * This program as a client, `microbench CONNECTION... --tables --table-size
 * extra...`: 0 or -1.  Each time it stops itself (--window-stop),
 * mark(nth stop, arg) before it goes on.
 */
static int
run_client(char *const *connection, int nconnection, const char *const *extra, int nextra,
		   int (*mark) (int edge, void *arg, char *err, size_t errlen), void *mark_arg,
		   char *err, size_t errlen)
{
	char		tables[32],
				size[48],
				log[1100];
	char	   *argv[40];
	int			n = 0,
				i;
	mbm_spawn	how = {NULL, NULL, log};

	snprintf(tables, sizeof(tables), "--tables=%d", rq.tables);
	snprintf(size, sizeof(size), "--table-size=%lld", rq.table_size);
	snprintf(log, sizeof(log), "%s/client.log", progress.logdir);
	argv[n++] = "/proc/self/exe";
	for (i = 0; i < nconnection; i++)
		argv[n++] = connection[i];
	argv[n++] = tables;
	argv[n++] = size;
	for (i = 0; i < nextra && n < 39; i++)
		argv[n++] = (char *) extra[i];
	argv[n] = NULL;
	/* on the runner's CPUs, which it inherits; in a group of its own, stopped with us */
	return mbm_proc_run_stopping(argv, &how, mark, mark_arg, err, errlen);
}

/*
 * The options that connect this program to a server: its driver, and
 * where the server is and as whom.
 */
typedef struct client_connection
{
	char	   *argv[6];
	int			n;
	char		text[3][1100];
} client_connection;

/* The mysql driver to MariaDB or MySQL server srv: its socket, the admin user. */
static const client_connection *
my_connection(const mbm_myserver *srv, client_connection *c)
{
	snprintf(c->text[0], sizeof(c->text[0]), "--mysql-socket=%s", srv->sock);
	snprintf(c->text[1], sizeof(c->text[1]), "--mysql-user=%s", mbm_my_user(srv->build));
	c->n = 0;
	c->argv[c->n++] = "--db-driver=mysql";
	c->argv[c->n++] = c->text[0];
	c->argv[c->n++] = c->text[1];
	c->argv[c->n++] = "--mysql-db=sbtest";
	return c;
}

/* The pgsql driver to Postgres server srv, on the database bench_run() uses. */
static const client_connection *
pg_wire_connection(const mbm_pgserver *srv, client_connection *c)
{
	snprintf(c->text[0], sizeof(c->text[0]), "--pgsql-host=%s", srv->sockdir);
	snprintf(c->text[1], sizeof(c->text[1]), "--pgsql-port=%d", srv->port);
	snprintf(c->text[2], sizeof(c->text[2]), "--pgsql-user=%s", mbm_pg_role());
	c->n = 0;
	c->argv[c->n++] = "--db-driver=pgsql";
	c->argv[c->n++] = c->text[0];
	c->argv[c->n++] = c->text[1];
	c->argv[c->n++] = c->text[2];
	c->argv[c->n++] = "--pgsql-db=microbench";
	return c;
}

int
mbm_my_client(const mbm_myserver *srv, const char *const *extra, int nextra,
			  int (*mark) (int edge, void *arg, char *err, size_t errlen), void *mark_arg,
			  char *err, size_t errlen)
{
	client_connection c;

	my_connection(srv, &c);
	return run_client(c.argv, c.n, extra, nextra, mark, mark_arg, err, errlen);
}

/* One run on Postgres server srv, up: bench_run() in it; its row into *rec. */
mbm_run_outcome
mbm_measure_pg(const mbm_pgserver *srv, const char *workload, int round, const mbm_limits *lim,
			   mbm_record **rec, char *err, size_t errlen)
{
	const mbm_pgbuild *b = srv->build;
	char		seconds[32],
				warmup[32],
				events[32],
				clients[16],
				tables[16],
				round_text[16],
				seed[32],
				warmup_events[32];
	const char *params[12];
	const char *sql = "SELECT (to_jsonb(r) - 'run_id' - 'host_facts_id' - 'campaign_id')::text"
		" FROM bench_run($1, seconds => $2::float8, warmup => $3::float8, clients => $4::int,"
		" tables => $5::int, label => $6, phase => 'post', round => $7::int, events => $8::bigint,"
		" seed => $9::bigint, warmup_events => $10::bigint, count_window => $11::boolean,"
		" checkpoint => $12::boolean) r";
	PGconn	   *conn;
	PGresult   *res;
	PGcancel   *cancel;
	mbm_run_outcome outcome = RUN_OK;

	snprintf(seconds, sizeof(seconds), "%g", lim->seconds);
	snprintf(warmup, sizeof(warmup), "%g", lim->warmup);
	snprintf(events, sizeof(events), "%lld", lim->events);
	snprintf(clients, sizeof(clients), "%d", rq.clients);
	snprintf(tables, sizeof(tables), "%d", rq.tables);
	snprintf(round_text, sizeof(round_text), "%d", round);
	snprintf(seed, sizeof(seed), "%lld", lim->seed);
	snprintf(warmup_events, sizeof(warmup_events), "%lld", lim->warmup_events);
	params[0] = workload;
	params[1] = seconds;
	params[2] = warmup;
	params[3] = clients;
	params[4] = tables;
	params[5] = b->label;
	params[6] = round_text;
	/* a timed run as before: no event limit, the server's own seed */
	params[7] = lim->events > 0 ? events : NULL;
	params[8] = lim->counted ? seed : NULL;
	params[9] = lim->counted && lim->warmup_events > 0 ? warmup_events : NULL;
	params[10] = lim->counted ? "true" : "false";
	params[11] = lim->checkpoint ? "true" : "false";
	conn = mbm_pg_connect(srv, "microbench", err, errlen);
	if (conn == NULL)
		return RUN_FAILED;
	cancel = PQgetCancel(conn);
	mbm_proc_set_cancel(cancel);
	res = mbm_proc_stop_signal() ? NULL : PQexecParams(conn, sql, 12, NULL, params, NULL, NULL, 0);
	mbm_proc_set_cancel(NULL);
	PQfreeCancel(cancel);
	if (res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
	{
		if ((*rec = mbm_record_parse(PQgetvalue(res, 0, 0), err, errlen)) == NULL)
			outcome = RUN_FAILED;
	}
	else
	{
		snprintf(err, errlen, "%s", res ? PQresultErrorMessage(res) : "interrupted");
		err[strcspn(err, "\n")] = '\0';
		outcome = RUN_FAILED;
	}
	PQclear(res);
	PQfinish(conn);
	return outcome;
}

/*
 * One run of this program as a client of a server that is up, connected
 * by conn: its row into *rec.  instance names the server's start (NULL:
 * the client asks the server, which knows it).
 */
static mbm_run_outcome
measure_client(const client_connection *conn, const char *label,
			   const char *instance, const char *workload, int round, const mbm_limits *lim,
			   bool no_monitor, mbm_record **rec, char *err, size_t errlen)
{
	char		threads[32],
				time_s[48],
				warmup[48],
				events[48],
				seed[48],
				warmup_events[48],
				label_text[128],
				round_text[32],
				instance_text[200],
				file[200],
				results_file[220];
	const char *extra[20];
	int			n = 0;
	FILE	   *f;
	char		buf[65536];

	snprintf(threads, sizeof(threads), "--threads=%d", rq.clients);
	snprintf(time_s, sizeof(time_s), "--time=%g", lim->seconds);
	snprintf(warmup, sizeof(warmup), "--warmup-time=%g", lim->warmup);
	snprintf(events, sizeof(events), "--events=%lld", lim->events);
	snprintf(seed, sizeof(seed), "--rand-seed=%lld", lim->seed);
	snprintf(warmup_events, sizeof(warmup_events), "--warmup-events=%lld", lim->warmup_events);
	snprintf(label_text, sizeof(label_text), "--label=%s", label);
	snprintf(round_text, sizeof(round_text), "--round=%d", round);
	snprintf(file, sizeof(file), "%s/run.jsonl", progress.rundir);
	snprintf(results_file, sizeof(results_file), "--results-file=%s", file);
	extra[n++] = threads;
	extra[n++] = time_s;
	extra[n++] = lim->counted && lim->warmup_events > 0 ? warmup_events : warmup;
	if (lim->events > 0)
		extra[n++] = events;
	if (lim->counted)
	{
		extra[n++] = seed;
		/* the client stops at the window's ends, for lim->mark to mark them */
		if (lim->mark)
			extra[n++] = "--window-stop";
	}
	/* a row not kept: no connection but the workers' */
	if (no_monitor)
	{
		extra[n++] = "--server-status=off";
		extra[n++] = "--server-facts=off";
	}
	extra[n++] = label_text;
	extra[n++] = "--phase=post";
	extra[n++] = round_text;
	if (instance)
	{
		snprintf(instance_text, sizeof(instance_text), "--instance=%s", instance);
		extra[n++] = instance_text;
	}
	extra[n++] = results_file;
	extra[n++] = "run";
	extra[n++] = workload;
	unlink(file);
	if (run_client(conn->argv, conn->n, extra, n, lim->counted ? lim->mark : NULL, lim->mark_arg, err,
				   errlen) != 0)
	{
		snprintf(err + strlen(err), errlen - strlen(err), " (%s/client.log)", progress.logdir);
		return RUN_FAILED;
	}
	if ((f = fopen(file, "r")) == NULL || fgets(buf, sizeof(buf), f) == NULL)
	{
		snprintf(err, errlen, "the client recorded no run; see %s/client.log", progress.logdir);
		if (f)
			fclose(f);
		return RUN_FAILED;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if ((*rec = mbm_record_parse(buf, err, errlen)) == NULL)
		return RUN_FAILED;
	return RUN_OK;
}

mbm_run_outcome
mbm_measure_my(const mbm_myserver *srv, const char *instance, const char *workload, int round,
			   const mbm_limits *lim, mbm_record **rec, char *err, size_t errlen)
{
	client_connection c;

	return measure_client(my_connection(srv, &c), srv->build->label, instance, workload, round, lim,
						  false, rec, err, errlen);
}

mbm_run_outcome
mbm_measure_pg_wire(const mbm_pgserver *srv, const char *workload, int round, const mbm_limits *lim,
					bool no_monitor, mbm_record **rec, char *err, size_t errlen)
{
	client_connection c;

	return measure_client(pg_wire_connection(srv, &c), srv->build->label, NULL, workload, round, lim,
						  no_monitor, rec, err, errlen);
}

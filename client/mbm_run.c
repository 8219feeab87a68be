/*
 * mbm_run.c — run one workload: one thread and one connection per client.
 *
 * Mirrors the extension's coordinator: every client connects and prepares
 * its statements (per table, once), then the main thread moves all of them
 * through warm-up (events not counted), the measured window (progress lines
 * every --report-interval seconds) and stop.  An event is exactly what the
 * catalog says: one autocommit statement, or BEGIN, the statements, COMMIT
 * sent as text, as sysbench sends them.  Everything the DBMS does goes
 * through the options' driver (mbm_driver.h), so this loop is the same for
 * MySQL, MariaDB and Postgres.  Each client writes only its own slot; the main thread reads the slots for progress and, after joining the
 * threads, for the result.
 *
 * What the window cost is taken at its two ends: each client thread its own
 * CPU (RUSAGE_THREAD) just before its first measured event and when it
 * leaves its event loop, the main thread the server's SHOW GLOBAL STATUS
 * (the driver's counters, on a monitor connection) and the host's CPU and disk (mbm_cost.c) just
 * before it switches the clients to the measured phase and once every
 * client has finished its last event.  At both ends the clients are idle
 * while the snapshot is taken: after a warm-up they pause (PHASE_PAUSE)
 * once their last warm-up event is done, and after the stop they wait
 * before they close their statements and connections.  So the status
 * deltas hold the measured events, and nothing of the warm-up or teardown.
 *
 * For verdicts (results_schema/17_verdicts.sql): the main thread keeps the
 * QPS of each second of the window (mb_samples.h, fed whenever it wakes),
 * times the host-speed canary (mb_canary.h) while every client is idle,
 * right before the warm-up and right after the window's end snapshot, and
 * reads the data fingerprint (mbm_data_state) before any client connects.
 *
 * How a run is driven (docs/run-options.md, as the extension does it): an
 * event that hits an error of --ignore-errors is rolled back, counted by
 * code and left out of events, queries and latency, and the client goes
 * on; --db-ps-mode=disable sends each statement as text with its values
 * written in; --rate paces each client on a Poisson schedule of its own
 * (mb_pacer.h), its latency taken from the scheduled start; --events ends
 * the window once that many measured events have been claimed from a
 * shared counter (and finished), --warmup-events the warm-up the same way;
 * --reconnect makes each client close its connection and open a new one
 * every N events, the cost landing in the next event's latency.
 * --window-stop stops the whole process (SIGSTOP) at the two moments the
 * snapshots are taken, after the start one and before the end one, so that
 * a parent can mark the window on the server while nothing runs (microbench
 * compare zeroes and dumps a MariaDB's callgrind counts there).
 *
 * A run that stops early is never recorded: on SIGINT or SIGTERM the main
 * thread moves the clients to PHASE_STOP, prints what the measured window
 * holds so far marked as interrupted, and returns 128 + the signal; when a
 * client fails (the server went away, a statement failed) it prints that
 * client's error and returns 1.  Either way clients still blocked in a
 * statement have it cancelled (mbm_stop.c) rather than holding the exit up.
 */
#include "mbm.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mb_canary.h"
#include "mb_loop.h"
#include "mb_pacer.h"
#include "mb_report.h"
#include "mb_samples.h"

/*
 * PHASE_PAUSE: between warm-up and the window, while the window's start is
 * taken; PHASE_CLOSE: its end is taken, clients may close their connections.
 */
enum mbm_phase
{
	PHASE_SETUP, PHASE_WARMUP, PHASE_PAUSE, PHASE_MEASURE, PHASE_STOP, PHASE_CLOSE
};

/*
 * CLIENT_READY: connected and prepared, then running events; CLIENT_PAUSED:
 * idle in PHASE_PAUSE; CLIENT_STOPPED: out of the event loop, waiting for
 * PHASE_CLOSE.
 */
enum mbm_client_state
{
	CLIENT_STARTING, CLIENT_READY, CLIENT_PAUSED, CLIENT_STOPPED, CLIENT_DONE, CLIENT_FAILED
};

typedef struct mbm_client
{
	mbm_worker	worker;			/* running, connection id: for stopping */
	pthread_t	thread;
	int			index;
	const mbm_options *o;
	const mb_workload *w;
	int			range;
	atomic_int *phase;
	atomic_uint_fast64_t *claimed;	/* measured events begun, all clients (--events) */
	atomic_int	state;
	atomic_uint_fast64_t events;
	atomic_uint_fast64_t queries;
	atomic_uint_fast64_t errors;
	atomic_uint_fast64_t errors_by_code[MBM_MAX_IGNORED];	/* as o->ignore_codes */
	atomic_uint_fast64_t sessions;	/* connections opened, the first included */
	uint64_t	last_event_end_ns;
	/* --db-ps-mode=disable: one statement with its values, as text */
	char	   *literal;
	size_t		literal_len;
	mb_hist		latency;
	/* this thread's CPU over its measured events; read after the join */
	bool		measured;
	mb_rusage	cpu_start;
	mb_rusage	cpu_end;
	/* ... and its CPU run and wait times (the kernel's schedstat) */
	atomic_int	tid;			/* for the main thread's per-second readings */
	bool		sched_ok;
	mb_sched	sched_start;
	mb_sched	sched_end;
	char		error[512];
} mbm_client;

static double
wall_clock_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
sleep_ns(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t) (ns / 1000000000u);
	ts.tv_nsec = (long) (ns % 1000000000u);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/*
 * The client's statements, [table - 1][statement id]: prepared, or in text
 * mode the template with "?" (what an error message names; the text sent
 * has the values in it).
 */
typedef struct mbm_plans
{
	mbm_stmt ***stmts;
	char	 ***templates;
	int			tables;
	mbm_stmt   *begin;			/* BEGIN and COMMIT prepared (prepared_transactions), or NULL */
	mbm_stmt   *commit;
} mbm_plans;

static int
prepare_plans(mbm_client *c, mbm_conn *conn, mb_bind_ctx *bind, mbm_plans *plans)
{
	int			t;

	plans->tables = c->o->tables;
	plans->stmts = calloc(plans->tables, sizeof(mbm_stmt **));
	plans->templates = calloc(plans->tables, sizeof(char **));
	for (t = 0; t < plans->tables; t++)
	{
		int			s;

		plans->stmts[t] = calloc(MB_NUM_STMTS, sizeof(mbm_stmt *));
		plans->templates[t] = calloc(MB_NUM_STMTS, sizeof(char *));
		for (s = 0; s < MB_NUM_STMTS; s++)
		{
			const mb_stmt *stmt = &mb_catalog_stmts[s];
			int			nparams = mb_catalog_param_count(stmt, c->range);
			size_t		len = 256 + (size_t) nparams * 8;	/* ", $1000" or ", ?" each */
			char	   *sql;

			if (!mb_catalog_uses_stmt(c->w, stmt->id))
				continue;
			if (c->w->table_per_client &&
				t + 1 != mb_catalog_pick_table(c->w, bind, plans->tables, c->index))
				continue;
			sql = malloc(len);
			if (mb_catalog_render_sql(stmt, t + 1, c->range, c->o->driver->placeholder,
									  sql, len) < 0)
			{
				snprintf(c->error, sizeof(c->error), "statement %s too long", stmt->key);
				free(sql);
				return -1;
			}
			if (c->o->ps_disable ||
				(c->o->driver->sent_as_text && c->o->driver->sent_as_text(stmt)))
			{
				/* nothing to prepare: every execution is parsed afresh */
				plans->templates[t][s] = sql;
				continue;
			}
			plans->stmts[t][s] = c->o->driver->prepare(conn, sql, nparams, stmt, c->range,
													   c->error, sizeof(c->error));
			free(sql);
			if (plans->stmts[t][s] == NULL)
				return -1;
		}
	}
	if (!c->o->ps_disable && c->o->driver->prepared_transactions && c->w->in_transaction)
	{
		plans->begin = c->o->driver->prepare(conn, "BEGIN", 0, NULL, 0, c->error, sizeof(c->error));
		plans->commit = plans->begin ?
			c->o->driver->prepare(conn, "COMMIT", 0, NULL, 0, c->error, sizeof(c->error)) : NULL;
		if (plans->commit == NULL)
			return -1;
	}
	return 0;
}

/* Close and free the statements; the plans can then be prepared again. */
static void
close_plans(const mbm_driver *d, mbm_plans *plans)
{
	int			t,
				s;

	for (t = 0; plans->stmts && t < plans->tables; t++)
	{
		for (s = 0; plans->stmts[t] && s < MB_NUM_STMTS; s++)
			if (plans->stmts[t][s])
				d->stmt_close(plans->stmts[t][s]);
		free(plans->stmts[t]);
	}
	for (t = 0; plans->templates && t < plans->tables; t++)
	{
		for (s = 0; plans->templates[t] && s < MB_NUM_STMTS; s++)
			free(plans->templates[t][s]);
		free(plans->templates[t]);
	}
	if (plans->begin)
		d->stmt_close(plans->begin);
	if (plans->commit)
		d->stmt_close(plans->commit);
	plans->begin = plans->commit = NULL;
	free(plans->stmts);
	free(plans->templates);
	plans->stmts = NULL;
	plans->templates = NULL;
}

/* The code of the connection's last failure into code. */
static void
take_code(mbm_client *c, mbm_conn *conn, char *code)
{
	snprintf(code, MBM_CODE_LEN, "%s", mbm_error_code(conn));
}

/*
 * One statement with freshly drawn values: executed as prepared, or in text
 * mode rendered with its values as literals and sent as a query.  On
 * failure code is the DBMS's error code ("" for a failure of our own).
 */
static int
run_statement(mbm_client *c, mbm_conn *conn, mbm_plans *plans, int table,
			  const mb_stmt *stmt, mb_bind_ctx *bind, mb_text_buffers *texts,
			  mb_bind_value *values, char *code)
{
	const mbm_driver *d = c->o->driver;
	int			n = mb_catalog_bind(stmt, bind, texts, values);
	int			len;

	if (plans->stmts[table - 1][stmt->id] != NULL)
	{
		if (d->execute(plans->stmts[table - 1][stmt->id], values, n, c->error,
					   sizeof(c->error)) >= 0)
			return 0;
		take_code(c, conn, code);
		return -1;
	}
	len = mb_catalog_render_literal(stmt, table, c->range, values, d->quote_literal,
									conn, c->literal, c->literal_len);
	if (len < 0)
	{
		snprintf(c->error, sizeof(c->error), "statement %s with its values does not fit"
				 " %zu bytes", stmt->key, c->literal_len);
		code[0] = '\0';
		return -1;
	}
	if (d->text_execute(conn, c->literal, (size_t) len, plans->templates[table - 1][stmt->id],
						c->error, sizeof(c->error)) >= 0)
		return 0;
	take_code(c, conn, code);
	return -1;
}

/*
 * The server's ids of the clients' sessions ("12,13"), for a run's row:
 * which sessions ran its window.  NULL when the driver knows none.
 */
static char *
session_ids(mbm_client *clients, int n)
{
	char	   *list = malloc((size_t) n * 21 + 1);
	size_t		len = 0;
	int			i;

	if (list == NULL)
		return NULL;
	list[0] = '\0';
	for (i = 0; i < n; i++)
	{
		unsigned long id = atomic_load(&clients[i].worker.conn_id);

		if (id == 0)
			continue;
		len += sprintf(list + len, "%s%lu", len ? "," : "", id);
	}
	if (len == 0)
	{
		free(list);
		return NULL;
	}
	return list;
}

/* BEGIN or COMMIT: prepared (the driver's prepared_transactions), else as text; 0 or -1. */
static int
transaction_control(mbm_client *c, mbm_conn *conn, mbm_stmt *prepared, const char *sql)
{
	if (prepared)
		return c->o->driver->execute(prepared, NULL, 0, c->error, sizeof(c->error)) >= 0 ? 0 : -1;
	return c->o->driver->query(conn, sql, c->error, sizeof(c->error));
}

/*
 * One event: BEGIN?, the steps, COMMIT?; 0 on success, else -1 with the
 * error in c->error and its code in code.
 */
static int
run_event(mbm_client *c, mbm_conn *conn, mbm_plans *plans, mb_bind_ctx *bind,
		  mb_text_buffers *texts, mb_bind_value *values, char *code)
{
	const mb_workload *w = c->w;
	int			table = mb_catalog_pick_table(w, bind, plans->tables, c->index);
	int			i;

	mb_catalog_begin_event(bind);
	if (w->in_transaction && transaction_control(c, conn, plans->begin, "BEGIN") != 0)
	{
		take_code(c, conn, code);
		return -1;
	}
	for (i = 0; i < MB_MAX_STEPS && w->steps[i].stmt != MB_ST_NONE; i++)
	{
		const mb_stmt *stmt = &mb_catalog_stmts[w->steps[i].stmt];
		int			r;

		for (r = 0; r < w->steps[i].repeat; r++)
			if (run_statement(c, conn, plans, table, stmt, bind, texts, values, code) != 0)
				return -1;
	}
	if (w->in_transaction && transaction_control(c, conn, plans->commit, "COMMIT") != 0)
	{
		take_code(c, conn, code);
		return -1;
	}
	return 0;
}

/* The index of an error code in --ignore-errors, or -1. */
static int
ignored_index(const mbm_options *o, const char *code)
{
	int			i;

	for (i = 0; code[0] != '\0' && i < o->n_ignored; i++)
		if (strcmp(o->ignore_codes[i], code) == 0)
			return i;
	return -1;
}

/*
 * After an event failed with an ignored error: end its transaction.  The
 * server rolled back the whole transaction on a deadlock, but only the
 * statement on a duplicate key or (by default) a lock wait timeout, so the
 * transaction may still be open.  An autocommit statement has nothing left
 * to roll back.  0, or -1 with c->error set.
 */
static int
roll_back(mbm_client *c, mbm_conn *conn)
{
	if (!c->w->in_transaction)
		return 0;
	return c->o->driver->query(conn, "ROLLBACK", c->error, sizeof(c->error));
}

/* Connect, prepare the statements; the connection, or NULL with c->error set. */
static mbm_conn *
open_session(mbm_client *c, mb_bind_ctx *bind, mbm_plans *plans)
{
	const mbm_driver *d = c->o->driver;
	mbm_conn   *conn = mbm_connect(c->o, c->error, sizeof(c->error));

	if (conn == NULL)
		return NULL;
	atomic_store(&c->worker.conn_id, mbm_session_id(conn));
	atomic_fetch_add(&c->sessions, 1);
	if (prepare_plans(c, conn, bind, plans) != 0)
	{
		close_plans(d, plans);
		atomic_store(&c->worker.conn_id, 0);
		d->close(conn);
		return NULL;
	}
	return conn;
}

/* --reconnect: the old connection closed, a new one made and prepared. */
static mbm_conn *
reopen_session(mbm_client *c, mbm_conn *conn, mb_bind_ctx *bind, mbm_plans *plans)
{
	close_plans(c->o->driver, plans);
	atomic_store(&c->worker.conn_id, 0);
	c->o->driver->close(conn);
	return open_session(c, bind, plans);
}

/*
 * --rate: sleep until the scheduled start (CLOCK_MONOTONIC ns), in slices
 * short enough that a stop or a pause is seen at once.  The phase then.
 */
static int
wait_until(mbm_client *c, uint64_t when)
{
	for (;;)
	{
		int			phase = atomic_load(c->phase);
		uint64_t	now = mbm_now_ns();

		if (now >= when || phase >= PHASE_STOP || phase == PHASE_PAUSE)
			return phase;
		sleep_ns(when - now < 10000000 ? when - now : 10000000);
	}
}

/* A client thread's end: its statements, connection and buffers let go, in state. */
static void *
client_exit(mbm_client *c, mbm_plans *plans, mbm_conn *conn, mb_bind_value *values, int state)
{
	const mbm_driver *d = c->o->driver;

	close_plans(d, plans);
	if (conn)
		d->close(conn);
	free(values);
	free(c->literal);
	atomic_store(&c->state, state);
	if (d->thread_end)
		d->thread_end();
	atomic_store(&c->worker.running, false);
	return NULL;
}

/*
 * The bound values' array, for the most parameters a statement of the
 * workload has, and in text mode the buffer each statement is rendered
 * into.
 */
static mb_bind_value *
alloc_values(mbm_client *c)
{
	int			max_params = 1;
	int			s;

	for (s = 0; s < MB_NUM_STMTS; s++)
		if (mb_catalog_uses_stmt(c->w, (mb_stmt_id) s))
		{
			int			n = mb_catalog_param_count(&mb_catalog_stmts[s], c->range);

			if (n > max_params)
				max_params = n;
		}
	/*
	 * For a statement sent as text (ps_mode disable, or the driver's
	 * sent_as_text): the template, an integer of up to 11 characters and
	 * ", " per value, at most one c and one pad value, each escaped (every
	 * byte doubled at worst) and quoted.
	 */
	c->literal_len = 256 + (size_t) max_params * 13 + 2 * (MB_C_LEN + MB_PAD_LEN) + 8;
	c->literal = malloc(c->literal_len);
	return calloc(max_params, sizeof(mb_bind_value));
}

/*
 * PHASE_PAUSE: idle until it ends, in short sleeps, since the window starts
 * as soon as its snapshot is taken.
 */
static void
pause_client(mbm_client *c)
{
	atomic_store(&c->state, CLIENT_PAUSED);
	while (atomic_load(c->phase) == PHASE_PAUSE)
		sleep_ns(100000);
	atomic_store(&c->state, CLIENT_READY);
}

/* A measured event counted: its latency, or an ignored error's code. */
static void
count_event(mbm_client *c, int ignored, uint64_t start, uint64_t end, int qpe)
{
	c->last_event_end_ns = end;
	if (ignored >= 0)
	{
		/* a rolled-back event's latency is not mixed with the others' */
		atomic_fetch_add(&c->errors, 1);
		atomic_fetch_add(&c->errors_by_code[ignored], 1);
		return;
	}
	mb_hist_add(&c->latency, end - start);
	atomic_fetch_add(&c->events, 1);
	atomic_fetch_add(&c->queries, (uint_fast64_t) qpe);
}

/*
 * The events, from the warm-up to the stop: 0 then, or -1 when the client
 * failed (c->error says why).  *conn is the session's connection, a new one
 * after each --reconnect; NULL when a new one could not be made.
 */
static int
run_events(mbm_client *c, mbm_conn **conn, mbm_plans *plans, mb_bind_ctx *bind,
		   mb_bind_value *values)
{
	const mbm_options *o = c->o;
	mb_text_buffers texts;
	mb_pacer	pacer;
	bool		slot_pending = false;	/* --rate: scheduled, not yet run */
	uint64_t	scheduled = 0;
	uint64_t	session_events = 0;
	uint64_t	reconnect_started = 0;	/* --reconnect: when the old session began to close */
	int			qpe = mb_catalog_queries_per_event(c->w);

	if (o->rate > 0)
		mb_loop_pacer_init(&pacer, o->rate, o->threads, o->seeded, o->seed, c->index,
						   mbm_now_ns());
	for (;;)
	{
		int			phase = atomic_load(c->phase);
		uint64_t	start;
		char		code[MBM_CODE_LEN] = "";
		int			ignored = -1;	/* the ignored error that ended the event */

		if (phase >= PHASE_STOP)
			return 0;
		if (phase == PHASE_PAUSE)
		{
			pause_client(c);
			continue;
		}
		if (o->rate > 0)
		{
			/* a pause keeps the arrival it interrupted: the schedule goes on */
			if (!slot_pending)
				scheduled = mb_pacer_next(&pacer);
			slot_pending = true;
			phase = wait_until(c, scheduled);
			if (phase >= PHASE_STOP)
				return 0;
			if (phase == PHASE_PAUSE)
				continue;
			slot_pending = false;
		}
		if (phase == PHASE_MEASURE && !c->measured)
		{
			c->measured = true;
			mb_rusage_take(&c->cpu_start, true);
			c->sched_ok = mb_sched_self(&c->sched_start);
		}
		start = mb_loop_event_start(o->rate > 0 ? scheduled : 0, reconnect_started,
									mbm_now_ns());
		reconnect_started = 0;
		if (phase == PHASE_WARMUP && o->warmup_events > 0 &&
			!mb_loop_claim_granted(o->warmup_events, atomic_fetch_add(c->claimed, 1)))
		{
			/* the warm-up's events are taken: idle until the main thread pauses */
			while (atomic_load(c->phase) == PHASE_WARMUP)
				sleep_ns(1000000);
			continue;
		}
		if (phase == PHASE_MEASURE && o->event_limit > 0 &&
			!mb_loop_claim_granted(o->event_limit, atomic_fetch_add(c->claimed, 1)))
		{
			/* every event is taken: idle until the main thread ends the window */
			while (atomic_load(c->phase) < PHASE_STOP)
				sleep_ns(1000000);
			return 0;
		}
		if (run_event(c, *conn, plans, bind, &texts, values, code) != 0)
		{
			ignored = ignored_index(o, code);
			if (ignored < 0 || roll_back(c, *conn) != 0)
			{
				/* after the stop, an error is our own KILL QUERY or as good as one */
				return atomic_load(c->phase) >= PHASE_STOP ? 0 : -1;
			}
		}
		if (phase == PHASE_MEASURE)
			count_event(c, ignored, start, mbm_now_ns(), qpe);
		/* no new session when the run is over */
		if (atomic_load(c->phase) < PHASE_STOP &&
			mb_loop_reconnect_due(o->reconnect, &session_events, o->event_limit,
								  atomic_load(c->claimed)))
		{
			reconnect_started = mbm_now_ns();
			*conn = reopen_session(c, *conn, bind, plans);
			if (*conn == NULL)
				return -1;
		}
	}
}

static void *
client_main(void *arg)
{
	mbm_client *c = arg;
	const mbm_options *o = c->o;
	const mbm_driver *d = o->driver;
	mbm_conn   *conn;
	mbm_plans	plans = {0};
	mb_rng		rng;
	mb_bind_ctx bind;
	mb_bind_value *values;

	if (d->thread_init)
		d->thread_init();
	atomic_store(&c->tid, (int) gettid());
	mb_rng_seed(&rng, o->seeded ? o->seed : mbm_now_ns() ^ ((uint64_t) c->index << 40),
				(uint64_t) c->index);
	mb_bind_ctx_init(&bind, &rng, (uint32_t) o->table_size, c->range, o->rand_type);
	values = alloc_values(c);

	conn = open_session(c, &bind, &plans);
	if (conn == NULL)
		return client_exit(c, &plans, conn, values, CLIENT_FAILED);
	atomic_store(&c->state, CLIENT_READY);

	while (atomic_load(c->phase) == PHASE_SETUP)
		sleep_ns(1000000);
	if (run_events(c, &conn, &plans, &bind, values) != 0)
		return client_exit(c, &plans, conn, values, CLIENT_FAILED);
	if (c->measured)
	{
		mb_rusage_take(&c->cpu_end, true);
		c->sched_ok &= mb_sched_self(&c->sched_end);
	}
	atomic_store(&c->state, CLIENT_STOPPED);
	while (atomic_load(c->phase) < PHASE_CLOSE)
		sleep_ns(1000000);
	return client_exit(c, &plans, conn, values, CLIENT_DONE);
}

/* The index of the first failed client, or -1. */
static int
failed_client(mbm_client *clients, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if (atomic_load(&clients[i].state) == CLIENT_FAILED)
			return i;
	return -1;
}

static void
collect(mbm_client *clients, int n, uint64_t *events, uint64_t *queries,
		uint64_t *errors, mb_hist *latency)
{
	int			i;

	*events = *queries = *errors = 0;
	mb_hist_reset(latency);
	for (i = 0; i < n; i++)
	{
		*events += atomic_load(&clients[i].events);
		*queries += atomic_load(&clients[i].queries);
		*errors += atomic_load(&clients[i].errors);
		mb_hist_merge(latency, &clients[i].latency);
	}
}

/* The queries the clients have counted so far. */
static uint64_t
sum_queries(mbm_client *clients, int n)
{
	uint64_t	queries = 0;
	int			i;

	for (i = 0; i < n; i++)
		queries += atomic_load(&clients[i].queries);
	return queries;
}

/*
 * The client threads' CPU run and wait times over their measured events,
 * summed; false when a thread could not read its own.
 */
static bool
sum_client_sched(mbm_client *clients, int n, mb_sched *sum)
{
	bool		known = n > 0;
	int			i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < n; i++)
	{
		known &= clients[i].measured && clients[i].sched_ok;
		if (clients[i].measured && clients[i].sched_ok)
			mb_sched_add_delta(sum, &clients[i].sched_end, &clients[i].sched_start);
	}
	return known;
}

/*
 * The client threads' CPU times now, summed, for the per-second samples
 * (read by the main thread from each thread's schedstat); false when one
 * cannot be read.
 */
static bool
read_clients_sched(mbm_client *clients, int n, mb_sched *sum)
{
	int			i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < n; i++)
	{
		char		path[64];
		mb_sched	one;
		int			tid = atomic_load(&clients[i].tid);

		snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
		if (tid <= 0 || !mb_sched_read(path, &one))
			return false;
		sum->run_ns += one.run_ns;
		sum->wait_ns += one.wait_ns;
	}
	return true;
}

/*
 * Wait out a phase, printing progress lines when asked; 0, -1 if a client
 * failed, 1 if a stop signal came.  seconds 0: no time limit.  With an event
 * limit (limit > 0, the measured window) the phase also ends once every
 * event has been claimed; the clients then finish those in flight.  With
 * samples (the measured window), every wake reads the clients' queries for
 * the per-second QPS, and no sleep goes past the time the open sample is
 * due: it closes within about the timer's slack of its second.
 */
static int
run_phase(mbm_client *clients, int n, double seconds, double interval,
		  atomic_uint_fast64_t *claimed, int64_t limit, mb_samples *samples)
{
	uint64_t	start = mbm_now_ns();
	uint64_t	end = seconds > 0 ? start + (uint64_t) (seconds * 1e9) : UINT64_MAX;
	uint64_t	next = interval > 0 ? start + (uint64_t) (interval * 1e9) : UINT64_MAX;
	uint64_t	prev_events = 0,
				prev_queries = 0,
				prev_errors = 0;
	mb_hist    *prev = calloc(1, sizeof(mb_hist));
	mb_hist    *cur = calloc(1, sizeof(mb_hist));
	mb_hist    *delta = calloc(1, sizeof(mb_hist));
	int			rc = 0;

	for (;;)
	{
		uint64_t	now = mbm_now_ns();
		uint64_t	wake;
		uint64_t	slice = limit > 0 ? 1000000 : 10000000;

		if (samples)
		{
			mb_sched	sched;
			bool		due = mb_samples_due(samples, now);

			mb_samples_tick(samples, now, sum_queries(clients, n),
							due && read_clients_sched(clients, n, &sched) ? &sched : NULL);
		}
		if (failed_client(clients, n) >= 0)
		{
			rc = -1;
			break;
		}
		if (mbm_stop_signal() != 0)
		{
			rc = 1;
			break;
		}
		if (now >= end)
			break;
		if (limit > 0 && atomic_load(claimed) >= (uint_fast64_t) limit)
			break;
		if (now >= next)
		{
			uint64_t	events,
						queries,
						errors;
			mb_interval_figures f;
			char		line[256];

			collect(clients, n, &events, &queries, &errors, cur);
			mb_hist_subtract(delta, cur, prev);
			f.elapsed_s = (now - start) / 1e9;
			f.threads = n;
			f.tps = (events - prev_events) / interval;
			f.qps = (queries - prev_queries) / interval;
			f.p95_ms = mb_hist_percentile_ms(delta, 95.0);
			f.errors_per_s = (errors - prev_errors) / interval;
			mb_report_interval_line(line, sizeof(line), &f);
			printf("%s\n", line);
			fflush(stdout);
			prev_events = events;
			prev_queries = queries;
			prev_errors = errors;
			memcpy(prev, cur, sizeof(mb_hist));
			next += (uint64_t) (interval * 1e9);
			continue;
		}
		/* short sleeps: a signal, a failure or the last event is seen soon */
		wake = next < end ? next : end;
		if (samples && mb_samples_due_ns(samples) < wake)
			wake = mb_samples_due_ns(samples);
		if (wake > now)
			sleep_ns(wake - now < slice ? wake - now : slice);
	}
	free(prev);
	free(cur);
	free(delta);
	return rc;
}

/*
 * Wait until every client is in state (CLIENT_PAUSED, CLIENT_STOPPED): has
 * finished its event, however long that takes, and is idle.  False as soon
 * as a client fails or a stop signal comes (the run is then not recorded,
 * and mbm_workers_wait() hurries the clients).
 */
static bool
wait_clients_idle(mbm_client *clients, int n, int state)
{
	for (;;)
	{
		int			idle = 0;
		int			i;

		if (failed_client(clients, n) >= 0 || mbm_stop_signal() != 0)
			return false;
		for (i = 0; i < n; i++)
			idle += atomic_load(&clients[i].state) == state;
		if (idle == n)
			return true;
		sleep_ns(100000);
	}
}

/* The client threads' CPU over their measured events, summed. */
static void
sum_client_cpu(mbm_client *clients, int n, mb_rusage *sum)
{
	int			i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < n; i++)
	{
		mb_rusage	d;

		if (!clients[i].measured)
			continue;
		mb_rusage_delta(&d, &clients[i].cpu_end, &clients[i].cpu_start);
		sum->user_us += d.user_us;
		sum->system_us += d.system_us;
		sum->voluntary_cs += d.voluntary_cs;
		sum->involuntary_cs += d.involuntary_cs;
	}
}

static void
print_summary(const mbm_options *o, const mbm_result *r)
{
	int			i;

	printf("\nSQL statistics:\n");
	printf("    transactions:                        %-10llu (%.2f per sec.)\n",
		   (unsigned long long) r->events, r->events / r->elapsed_s);
	printf("    queries:                             %-10llu (%.2f per sec.)\n",
		   (unsigned long long) r->queries, r->queries / r->elapsed_s);
	printf("    ignored errors:                      %-10llu (%.2f per sec.)\n",
		   (unsigned long long) r->errors, r->errors / r->elapsed_s);
	for (i = 0; i < o->n_ignored; i++)
		if (r->errors_by_code[i] > 0)
			printf("        error %-5s                      %-10llu (%.2f per sec.)\n",
				   o->ignore_codes[i], (unsigned long long) r->errors_by_code[i],
				   r->errors_by_code[i] / r->elapsed_s);
	if (o->reconnect > 0)
		printf("    sessions:                            %-10llu (%d thread(s), every %d events)\n",
			   (unsigned long long) r->sessions, o->threads, o->reconnect);
	if (r->rows_scanned >= 0)
		printf("    rows scanned:                        %-10lld (%.2f per sec.)\n",
			   (long long) r->rows_scanned, r->rows_scanned / r->elapsed_s);
	printf("\nGeneral statistics:\n");
	printf("    total time:                          %.4fs\n", r->elapsed_s);
	printf("    total number of events:              %llu\n", (unsigned long long) r->events);
	if (r->canary_before_us > 0 && r->canary_after_us > 0)
		printf("    canary:                              %.0f us before, %.0f us after\n",
			   r->canary_before_us, r->canary_after_us);
	printf("\nLatency (ms):\n");
	printf("         avg:                            %10.2f\n", mb_hist_avg_ms(&r->latency));
	printf("         max:                            %10.2f\n", mb_hist_max_ms(&r->latency));
	printf("         95th percentile:                %10.2f\n", mb_hist_percentile_ms(&r->latency, 95));
	printf("         99th percentile:                %10.2f\n", mb_hist_percentile_ms(&r->latency, 99));
	fflush(stdout);
	mbm_cost_print(r, o->threads);
}

/* Rows one scan reads, per client: the table's row count, read before the run. */
static int
count_scan_rows(const mbm_options *o, int64_t *rows, char *err, size_t errlen)
{
	mbm_conn   *conn = mbm_connect(o, err, errlen);
	int			i;

	if (conn == NULL)
		return -1;
	for (i = 0; i < o->threads; i++)
	{
		char		sql[64];
		char		count[32];

		snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM sbtest%d", (i % o->tables) + 1);
		if (mbm_query_value(o, conn, sql, count, sizeof(count), err, errlen) != 0)
		{
			o->driver->close(conn);
			return -1;
		}
		rows[i] = atoll(count);
	}
	o->driver->close(conn);
	return 0;
}

static const char *
phase_name(int phase)
{
	return phase == PHASE_SETUP ? "set-up" : "warm-up";
}

/*
 * One run from its set-up to its record.  mbm_run() moves it through its
 * steps in order: open (the server, its tables and facts, the cost probe,
 * the data fingerprint), start the clients, measure (warm-up, the window
 * and its two cost snapshots), stop the clients, and finish (the result
 * summed up, printed and recorded).  Each step sees whether an earlier one
 * failed or was interrupted (ended()) and then does nothing.
 */
typedef struct mbm_run_state
{
	const mbm_options *o;
	const mb_workload *w;
	int			n;				/* clients asked for */
	int			started;		/* client threads started */
	mbm_client *clients;
	mbm_worker **workers;
	/* on the heap with the clients: an abandoned client still reads them */
	atomic_int *phase;
	atomic_uint_fast64_t *claimed;	/* measured events begun (--events) */
	int64_t    *scan_rows;		/* rows one scan reads, per client */
	mbm_result *r;
	/* how it ended, if early */
	int			failed;			/* the client whose error ends the run, or -1 */
	const char *failure;		/* a failure of no client */
	int			interrupted_in; /* the phase a stop signal came in, or -1 */
	bool		all_ended;		/* every client thread ended and was joined */
	/* the measured window */
	uint64_t	window_start;
	uint64_t	stopped_at;
	mbm_cost_probe probe;
	bool		probe_open;
	mbm_cost_snapshot cost_start;
	mbm_cost_snapshot cost_end;
	bool		window_costs;	/* both ends of the window were taken */
	mbm_session_cpu session_cpu;	/* the server threads of the clients' sessions */
	int			sample_capacity;
	double	   *sample_buffer;
	double	   *wait_buffer;
	int			tenth_capacity;
	double	   *tenth_buffer;	/* the tenths, then room to find the steady rate */
	double	   *steady_scratch;
	mb_samples	samples;
	bool		sched_end_read; /* sched_end: read at the window's end */
	mb_sched	sched_end;
} mbm_run_state;

/* Whether the run has already failed or been interrupted. */
static bool
ended(const mbm_run_state *rs)
{
	return rs->failure != NULL || rs->failed >= 0 || rs->interrupted_in >= 0;
}

static mbm_run_state *
run_new(const mbm_options *o, const mb_workload *w)
{
	mbm_run_state *rs = calloc(1, sizeof(mbm_run_state));

	if (rs == NULL)
		return NULL;
	rs->o = o;
	rs->w = w;
	rs->n = o->threads;
	rs->failed = -1;
	rs->interrupted_in = -1;
	rs->all_ended = true;
	rs->clients = calloc(rs->n, sizeof(mbm_client));
	rs->workers = calloc(rs->n, sizeof(mbm_worker *));
	rs->phase = malloc(sizeof(atomic_int));
	rs->claimed = malloc(sizeof(atomic_uint_fast64_t));
	rs->scan_rows = calloc(rs->n, sizeof(int64_t));
	rs->r = calloc(1, sizeof(mbm_result));
	rs->sample_capacity = mb_samples_capacity(o->time_s);
	rs->sample_buffer = calloc((size_t) rs->sample_capacity, sizeof(double));
	rs->wait_buffer = calloc((size_t) rs->sample_capacity, sizeof(double));
	rs->tenth_capacity = mb_samples_fine_capacity(o->time_s);
	rs->tenth_buffer = calloc((size_t) rs->tenth_capacity, sizeof(double));
	rs->steady_scratch = calloc((size_t) rs->tenth_capacity, sizeof(double));
	if (rs->clients == NULL || rs->workers == NULL || rs->phase == NULL ||
		rs->claimed == NULL || rs->scan_rows == NULL || rs->r == NULL)
		rs->failure = "out of memory";
	if (rs->sample_buffer == NULL || rs->wait_buffer == NULL)
		rs->sample_capacity = 0;	/* no per-second QPS, the run goes on */
	if (rs->tenth_buffer == NULL || rs->steady_scratch == NULL)
		rs->tenth_capacity = 0;		/* nor a steady rate */
	mb_samples_init(&rs->samples, rs->sample_buffer, rs->wait_buffer, rs->sample_capacity,
					0, NULL);
	if (rs->phase)
		atomic_init(rs->phase, PHASE_SETUP);
	if (rs->claimed)
		atomic_init(rs->claimed, 0);
	if (rs->r)
	{
		rs->r->workload = w;
		rs->r->range = mb_catalog_effective_range(w, o->range_size);
		rs->r->rows_scanned = -1;
		rs->r->canary_before_us = -1;
		rs->r->canary_after_us = -1;
	}
	return rs;
}

static void
run_free(mbm_run_state *rs)
{
	/* abandoned clients may still write to their slots: leave them be */
	if (rs->all_ended)
	{
		free(rs->clients);
		free(rs->phase);
		free(rs->claimed);
	}
	mbm_cost_snapshot_free(&rs->cost_start);
	mbm_cost_snapshot_free(&rs->cost_end);
	mbm_session_cpu_free(&rs->session_cpu);
	if (rs->probe_open)
		mbm_cost_close(&rs->probe);
	free(rs->workers);
	free(rs->scan_rows);
	if (rs->r)
	{
		free(rs->r->server_status);
		free(rs->r->data_state);
		free(rs->r->client_pids);
	}
	free(rs->r);
	free(rs->sample_buffer);
	free(rs->wait_buffer);
	free(rs->tenth_buffer);
	free(rs->steady_scratch);
	free(rs);
}

/*
 * Step 1: the server, its tables and what it says of itself, the rows a
 * scan reads, the cost probe (its own connection) and the data's
 * fingerprint, all before any client connects.  0, or an exit code with
 * the message printed.
 */
static int
run_open(mbm_run_state *rs)
{
	const mbm_options *o = rs->o;
	mbm_result *r = rs->r;
	char		err[512];
	bool		missing = false;
	mbm_conn   *conn;

	if (rs->failure)
	{
		fprintf(stderr, "%s: %s\n", mbm_progname, rs->failure);
		return MBM_EXIT_FAILED;
	}
	if (!o->no_server_facts)
	{
		conn = mbm_connect(o, err, sizeof(err));
		if (conn == NULL)
		{
			fprintf(stderr, "%s: %s\n", mbm_progname, err);
			return MBM_EXIT_BAD_INPUT;
		}
		if (o->driver->check_tables(conn, o, &missing, err, sizeof(err)) != 0 ||
			o->driver->server_facts(conn, &r->server, err, sizeof(err)) != 0)
		{
			fprintf(stderr, "%s: %s\n", mbm_progname, err);
			o->driver->close(conn);
			return missing ? MBM_EXIT_BAD_INPUT : MBM_EXIT_FAILED;
		}
		o->driver->close(conn);
	}
	if (rs->w->table_per_client && count_scan_rows(o, rs->scan_rows, err, sizeof(err)) != 0)
	{
		fprintf(stderr, "%s: %s\n", mbm_progname, err);
		return MBM_EXIT_FAILED;
	}
	if (mbm_cost_open(o, &rs->probe, err, sizeof(err)) != 0)
	{
		fprintf(stderr, "%s: monitor connection: %s\n", mbm_progname, err);
		return MBM_EXIT_FAILED;
	}
	rs->probe_open = true;
	mb_host_collect(&r->host);
	r->data_state = mbm_data_state(&rs->probe, o, rs->w);
	if (mbm_stop_signal() != 0)
	{
		printf("interrupted by %s before %s started: nothing measured, not recorded\n",
			   mbm_stop_signal_name(), rs->w->name);
		fflush(stdout);
		return 128 + mbm_stop_signal();
	}
	return 0;
}

/* The run's first line: what runs where, and what drives it differently. */
static void
run_announce(const mbm_run_state *rs)
{
	const mbm_options *o = rs->o;
	char		window[128];
	char		warmup[64];
	char		driven[256] = "";
	size_t		len = 0;

	if (o->event_limit > 0 && o->time_s > 0)
		snprintf(window, sizeof(window), "%lld events or %.0fs, whichever first,",
				 (long long) o->event_limit, o->time_s);
	else if (o->event_limit > 0)
		snprintf(window, sizeof(window), "%lld events", (long long) o->event_limit);
	else
		snprintf(window, sizeof(window), "%.0fs", o->time_s);
	if (o->ps_disable)
		len += (size_t) snprintf(driven + len, sizeof(driven) - len, ", statements as text");
	if (o->rate > 0)
		len += (size_t) snprintf(driven + len, sizeof(driven) - len, ", %g events/s", o->rate);
	if (o->reconnect > 0)
		len += (size_t) snprintf(driven + len, sizeof(driven) - len,
								 ", reconnect every %d events", o->reconnect);
	if (o->warmup_events > 0)
		snprintf(warmup, sizeof(warmup), "%lld warm-up events", (long long) o->warmup_events);
	else
		snprintf(warmup, sizeof(warmup), "%.0fs warm-up", o->warmup_s);
	printf("%s %s: %s on %s %s, %d thread(s)%s, %s measured after %s\n\n",
		   mbm_progname, MBM_VERSION, rs->w->name, rs->r->server.dbms, rs->r->server.version,
		   rs->n, driven, window, warmup);
	fflush(stdout);
}

/* Step 2: every client thread started, connected and its statements prepared. */
static void
run_start_clients(mbm_run_state *rs)
{
	int			i;

	for (i = 0; i < rs->n; i++)
	{
		mbm_client *c = &rs->clients[i];

		c->index = i;
		c->o = rs->o;
		c->w = rs->w;
		c->range = rs->r->range;
		c->phase = rs->phase;
		c->claimed = rs->claimed;
		atomic_init(&c->state, CLIENT_STARTING);
		atomic_init(&c->worker.running, true);
		atomic_init(&c->worker.conn_id, 0);
		rs->workers[i] = &c->worker;
		if (pthread_create(&c->thread, NULL, client_main, c) != 0)
		{
			rs->failure = "cannot start a client thread";
			return;
		}
		rs->started++;
	}
	for (;;)
	{
		int			ready = 0;

		if ((rs->failed = failed_client(rs->clients, rs->started)) >= 0)
			return;
		if (mbm_stop_signal() != 0)
		{
			rs->interrupted_in = PHASE_SETUP;
			return;
		}
		for (i = 0; i < rs->started; i++)
			ready += atomic_load(&rs->clients[i].state) == CLIENT_READY;
		if (ready == rs->n)
			return;
		sleep_ns(1000000);
	}
}

/* How a phase ended (run_phase()'s code, wait_clients_idle()'s false) into rs. */
static void
note_phase_end(mbm_run_state *rs, int rc, int phase)
{
	if (rc < 0)
		rs->failed = failed_client(rs->clients, rs->n);
	else if (rc > 0)
		rs->interrupted_in = phase;
}

/*
 * The server threads of the clients' sessions at the window's start, every
 * client idle: what counted code ran on (mbm_session_cpu.c).
 */
static void
start_session_cpu(mbm_run_state *rs)
{
	unsigned long *ids = malloc((size_t) rs->n * sizeof(unsigned long));
	int			i;

	if (ids == NULL)
	{
		snprintf(rs->session_cpu.note, sizeof(rs->session_cpu.note), "not read: out of memory");
		return;
	}
	for (i = 0; i < rs->n; i++)
		ids[i] = atomic_load(&rs->clients[i].worker.conn_id);
	mbm_session_cpu_start(&rs->session_cpu, rs->o, rs->probe.monitor, rs->probe.local, ids, rs->n);
	free(ids);
}

/*
 * Step 3: the host-speed canary while every client is idle, the warm-up,
 * the pause for the window's start snapshot (server and host costs), the
 * measured window with its per-second samples, and after the stop, once
 * every client has finished its last event, the end snapshot and the
 * canary again.
 */
static void
run_measure(mbm_run_state *rs)
{
	const mbm_options *o = rs->o;
	mbm_client *clients = rs->clients;
	mb_sched	sched_now;

	if (!ended(rs))
		rs->r->canary_before_us = mb_canary_run_us();
	if (!ended(rs) && (o->warmup_s > 0 || o->warmup_events > 0))
	{
		/* --warmup-events: exactly that many, claimed as the window's are */
		atomic_store(rs->phase, PHASE_WARMUP);
		note_phase_end(rs, run_phase(clients, rs->n, o->warmup_events > 0 ? 0 : o->warmup_s, 0,
									 rs->claimed, o->warmup_events, NULL),
					   PHASE_WARMUP);
		/* the clients finish their events and pause for the snapshot */
		if (!ended(rs))
		{
			atomic_store(rs->phase, PHASE_PAUSE);
			if (!wait_clients_idle(clients, rs->n, CLIENT_PAUSED))
				note_phase_end(rs, failed_client(clients, rs->n) >= 0 ? -1 : 1, PHASE_WARMUP);
		}
		atomic_store(rs->claimed, 0);
	}
	if (!ended(rs))
	{
		/*
		 * before the status snapshot: asking which threads serve the
		 * sessions is a statement, and none of the window's
		 */
		start_session_cpu(rs);
		mbm_cost_take(&rs->probe, &rs->cost_start, true);
		/* every client idle and the monitor's reads done: the parent opens its window */
		if (o->window_stop)
			raise(SIGSTOP);
		/* a Postgres session is a process: the backend's pid */
		if (strcmp(o->driver->name, "pgsql") == 0)
			rs->r->client_pids = session_ids(clients, rs->n);
		rs->window_start = mbm_now_ns();
		rs->r->started_at = wall_clock_s();
		mb_samples_init(&rs->samples, rs->sample_buffer, rs->wait_buffer, rs->sample_capacity,
						rs->window_start,
						read_clients_sched(clients, rs->n, &sched_now) ? &sched_now : NULL);
		mb_samples_set_fine(&rs->samples, rs->tenth_capacity > 0 ? rs->tenth_buffer : NULL,
							rs->tenth_capacity);
		atomic_store(rs->phase, PHASE_MEASURE);
		note_phase_end(rs, run_phase(clients, rs->n, o->time_s, o->report_interval, rs->claimed,
									 o->event_limit, &rs->samples), PHASE_MEASURE);
	}
	rs->stopped_at = mbm_now_ns();
	atomic_store(rs->phase, PHASE_STOP);
	/* the window's end: every last event done, no statement closed yet */
	if (!ended(rs) && wait_clients_idle(clients, rs->started, CLIENT_STOPPED))
	{
		/* ... and closes it before the monitor reads anything */
		if (o->window_stop)
			raise(SIGSTOP);
		rs->r->server_cpu_known = mbm_session_cpu_end(&rs->session_cpu, &rs->r->server_cpu);
		snprintf(rs->r->cpu_note, sizeof(rs->r->cpu_note), "%s", rs->session_cpu.note);
		mbm_cost_take(&rs->probe, &rs->cost_end, false);
		rs->window_costs = true;
		/* the threads are idle but alive: the last second's CPU times */
		rs->sched_end_read = read_clients_sched(clients, rs->started, &rs->sched_end);
		/* after the snapshot, so that the host's CPU does not count it */
		rs->r->canary_after_us = mb_canary_run_us();
	}
	atomic_store(rs->phase, PHASE_CLOSE);
}

/*
 * Step 4: the clients close their statements and connections and end.  At
 * the end of the window each finishes its event, however long it takes;
 * after a failure or a signal nobody waits for long events.
 */
static void
run_stop_clients(mbm_run_state *rs)
{
	int			i;

	rs->all_ended = mbm_workers_wait(rs->o, rs->workers, rs->started, ended(rs), NULL);
	for (i = 0; rs->all_ended && i < rs->started; i++)
		pthread_join(rs->clients[i].thread, NULL);
	/* a signal while the last events finished: the run is complete, but stopped */
	if (!ended(rs) && mbm_stop_signal() != 0)
		rs->interrupted_in = PHASE_MEASURE;
	if (!ended(rs))
		rs->failed = failed_client(rs->clients, rs->started);
}

/* The clients' counts, samples, CPU and the window's costs into the result. */
static void
run_collect(mbm_run_state *rs)
{
	const mbm_options *o = rs->o;
	mbm_client *clients = rs->clients;
	mbm_result *r = rs->r;
	uint64_t	window_end = 0;
	int			n = rs->n;
	int			i;

	for (i = 0; i < n; i++)
		if (clients[i].last_event_end_ns > window_end)
			window_end = clients[i].last_event_end_ns;
	if (window_end <= rs->window_start)
		window_end = rs->window_start + 1;
	r->elapsed_s = (window_end - rs->window_start) / 1e9;
	r->ended_at = r->started_at + r->elapsed_s;
	collect(clients, n, &r->events, &r->queries, &r->errors, &r->latency);
	/* the same end and queries as the run's QPS */
	mb_samples_finish(&rs->samples, window_end, r->queries,
					  rs->sched_end_read ? &rs->sched_end : NULL);
	r->qps_per_second = rs->samples.qps;
	r->cpu_wait_per_second = rs->samples.wait_share;
	r->n_samples = rs->samples.count;
	r->qps_tenths = rs->samples.fine_qps;
	r->n_tenths = rs->samples.fine_count;
	r->steady_known = mb_samples_steady(&rs->samples, rs->steady_scratch, &r->qps_steady,
										&r->steady_set_aside);
	r->sched_known = sum_client_sched(clients, n, &r->sched);
	for (i = 0; i < n; i++)
	{
		int			e;

		r->sessions += atomic_load(&clients[i].sessions);
		for (e = 0; e < o->n_ignored; e++)
			r->errors_by_code[e] += atomic_load(&clients[i].errors_by_code[e]);
	}
	if (rs->window_costs && rs->all_ended && rs->interrupted_in < 0)
	{
		sum_client_cpu(clients, n, &r->client_cpu);
		mbm_cost_finish(&rs->probe, &rs->cost_start, &rs->cost_end, r);
	}
	if (rs->w->table_per_client)
	{
		r->rows_scanned = 0;
		for (i = 0; i < n; i++)
			r->rows_scanned += (int64_t) atomic_load(&clients[i].events) * rs->scan_rows[i];
	}
}

/*
 * Step 5: what the run came to.  Interrupted before the window: nothing;
 * failed: the error; interrupted in the window: what was measured, marked
 * so nobody takes it for a result; else the summary and the record.  An
 * exit code.
 */
static int
run_finish(mbm_run_state *rs, bool *in_file_only)
{
	const mbm_options *o = rs->o;
	mbm_result *r = rs->r;

	if (rs->interrupted_in == PHASE_SETUP || rs->interrupted_in == PHASE_WARMUP)
	{
		printf("interrupted by %s during %s: nothing measured, not recorded\n",
			   mbm_stop_signal_name(), phase_name(rs->interrupted_in));
		fflush(stdout);
		return 128 + mbm_stop_signal();
	}
	if (rs->interrupted_in < 0 && (rs->failure != NULL || rs->failed >= 0))
	{
		if (rs->failure != NULL)
			fprintf(stderr, "%s: %s\n", mbm_progname, rs->failure);
		else
			fprintf(stderr, "%s: client %d: %s\n", mbm_progname, rs->failed + 1,
					rs->clients[rs->failed].error);
		return MBM_EXIT_FAILED;
	}
	run_collect(rs);
	if (rs->interrupted_in == PHASE_MEASURE)
	{
		if (r->events > 0)
			print_summary(o, r);
		printf("\ninterrupted by %s after %.1f s of the measured window: %snot recorded\n",
			   mbm_stop_signal_name(), (rs->stopped_at - rs->window_start) / 1e9,
			   r->events > 0 ? "" : "nothing measured, ");
		fflush(stdout);
		return 128 + mbm_stop_signal();
	}
	print_summary(o, r);
	return o->no_record ? MBM_EXIT_OK : mbm_record_result(o, r, in_file_only);
}

int
mbm_run(const mbm_options *o, const mb_workload *w, bool *in_file_only)
{
	mbm_run_state *rs = run_new(o, w);
	int			rc;

	if (in_file_only)
		*in_file_only = false;
	if (rs == NULL)
	{
		fprintf(stderr, "%s: out of memory\n", mbm_progname);
		return MBM_EXIT_FAILED;
	}
	rc = run_open(rs);
	if (rc == 0)
	{
		run_announce(rs);
		run_start_clients(rs);
		run_measure(rs);
		run_stop_clients(rs);
		rc = run_finish(rs, in_file_only);
	}
	run_free(rs);
	return rc;
}

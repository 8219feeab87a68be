/*
 * mb_worker.c — one benchmark client: a dynamic background worker.
 *
 * A worker connects to the caller's database as the caller's role, prepares
 * the workload's statements once (plans kept for the whole run), then
 * runs events until the coordinator says stop.  Every event is exactly one
 * transaction, as the catalog defines it: an autocommit workload's single
 * statement, or the statements of a BEGIN ... COMMIT workload.  A write
 * benchmark therefore pays one commit per event, as it does under sysbench.
 *
 * Latency is taken around the whole event, transaction start and commit
 * included, and only events that began in the measured phase are counted.
 * What those events cost (CPU, context switches, WAL, buffers, hardware
 * counters) is a snapshot before the first measured event subtracted from
 * one after the last: nothing is added per event, so counting costs nothing.
 * An error whose SQLSTATE the run ignores (ignore_errors: deadlocks, lock
 * timeouts, serialization failures, duplicate keys by default) rolls the
 * event's transaction back, is counted by code, and the client goes on.
 * Any other error leaves the worker: its text goes to the slot so the
 * coordinator can re-raise it with the worker's SQLSTATE, and the
 * coordinator stops the other workers.
 *
 * Options of the run: ps_mode disable sends each statement as SQL text with
 * its values as literals (parsed and planned every time); rate paces the
 * events on a Poisson schedule (mb_pacer.h), latency counted from the
 * scheduled start; event_limit ends the measured window after exactly N
 * events; reconnect makes a client leave after every N events, to be
 * replaced by a new background worker, i.e. a new backend session.  A SIGTERM from anyone but the coordinator (e.g.
 * pg_terminate_backend) is marked in the slot first, so that the caller is
 * told the client was terminated rather than that it vanished.
 */
#include "postgres.h"

#include <time.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/instrument.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/procarray.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/plancache.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "mb_count_window.h"
#include "mb_loop.h"
#include "mb_sched.h"
#include "mb_shared.h"

/* Longest statement text: random-points with a large R has R placeholders. */
#define MB_MAX_SQL_BASE 256

/*
 * One prepared statement for one table.  SPI parses and plans it once; each
 * execution then goes straight to the plan cache and the executor
 * (execute_prepared), as a client's Bind and Execute do, without SPI's
 * per-call connection, parameter list and result tuple table.
 */
typedef struct mb_plan
{
	SPIPlanPtr	plan;
	CachedPlanSource *source;	/* the plan's one statement */
	ParamListInfo params;		/* reused by every execution */
} mb_plan;

/* The worker's private state for the run. */
typedef struct mb_worker_ctx
{
	mb_run_shared *shared;
	mb_worker_slot *slot;
	int			client_index;
	const mb_workload *workload;
	int			queries_per_event;
	mb_plan   **plans;			/* [table - 1][stmt id], NULL if unused */
	mb_bind_ctx bind;			/* draws from the slot's rng */
	mb_text_buffers texts;
	mb_bind_value *bind_values; /* room for the largest statement */
	text	   *c_text;			/* reused varlena for c values */
	text	   *pad_text;		/* reused varlena for pad values */
	char	   *sql;			/* ps_mode disable: the statement with literals */
	size_t		sql_len;
	mb_hw_counters hw;			/* this process's instructions and cycles */
	uint64		session_events; /* events in this session (reconnect) */
} mb_worker_ctx;

/* Why the event loop ended. */
typedef enum mb_loop_end
{
	MB_LOOP_STOP,				/* the run is over */
	MB_LOOP_RECONNECT			/* time for a new session */
} mb_loop_end;

/*
 * The counters that, subtracted, give what a window of events cost.  The
 * CPU run and wait times are taken whether costs are collected or not:
 * comparisons need them to see a run that had to share its CPU.
 */
typedef struct mb_cost_snapshot
{
	bool		sched_valid;
	mb_sched	sched;
	mb_rusage	rusage;
	WalUsage	wal;
	BufferUsage buffers;
	mb_hw_snapshot hw;
} mb_cost_snapshot;

/* This worker's slot, for the SIGTERM handler. */
static mb_worker_slot *my_slot = NULL;

int64
mb_now_us(void)
{
	return (int64) (mb_now_ns() / 1000);
}

uint64
mb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64) ts.tv_sec * UINT64CONST(1000000000) + (uint64) ts.tv_nsec;
}

static mb_phase
current_phase(mb_worker_ctx *ctx)
{
	return (mb_phase) pg_atomic_read_u32(&ctx->shared->phase);
}

/* A parameter list for nargs values of the given types, filled per execution. */
static ParamListInfo
make_params(int nargs, const Oid *argtypes)
{
	ParamListInfo params;
	int			i;

	if (nargs == 0)
		return NULL;
	params = MemoryContextAllocZero(TopMemoryContext,
									offsetof(ParamListInfoData, params) +
									sizeof(ParamExternData) * nargs);
	params->numParams = nargs;
	for (i = 0; i < nargs; i++)
	{
		params->params[i].pflags = PARAM_FLAG_CONST;
		params->params[i].ptype = argtypes[i];
	}
	return params;
}

/*
 * Where result rows go.  A client's server would convert each row to text
 * and send it; here each row's values are formed (as that conversion would
 * need them) and dropped, which is all the benchmark needs of them.
 */
static bool
receive_row(TupleTableSlot *slot, DestReceiver *self)
{
	slot_getallattrs(slot);
	return true;
}

static void
receiver_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
}

static void
receiver_nothing(DestReceiver *self)
{
}

static DestReceiver row_receiver = {
	receive_row, receiver_startup, receiver_nothing, receiver_nothing, DestNone
};

/*
 * Prepare every statement the workload uses, for every table, and keep the
 * plans for the whole run.  Parameter types follow the value kinds: keys are
 * int4, c and pad values text (assignment to char(n) casts them).
 */
static void
prepare_statements(mb_worker_ctx *ctx)
{
	int			tables = ctx->shared->tables;
	int			range = ctx->shared->range;
	int			max_args = 1;
	int			t;

	ctx->plans = MemoryContextAllocZero(TopMemoryContext,
										sizeof(mb_plan *) * tables);
	for (t = 0; t < tables; t++)
	{
		int			s;

		ctx->plans[t] = MemoryContextAllocZero(TopMemoryContext,
											   sizeof(mb_plan) * MB_NUM_STMTS);
		for (s = 0; s < MB_NUM_STMTS; s++)
		{
			const mb_stmt *stmt = &mb_catalog_stmts[s];
			int			nargs;
			Oid		   *argtypes;
			bool	   *is_text;
			size_t		buflen;
			char	   *sql;
			int			i;
			SPIPlanPtr	plan;
			List	   *sources;

			if (!mb_catalog_uses_stmt(ctx->workload, stmt->id))
				continue;
			/* scan touches only its own table */
			if (ctx->workload->table_per_client &&
				t + 1 != mb_catalog_pick_table(ctx->workload, &ctx->bind,
											   tables, ctx->client_index))
				continue;

			nargs = mb_catalog_param_count(stmt, range);
			buflen = MB_MAX_SQL_BASE + (size_t) nargs * 8;
			sql = palloc(buflen);
			if (mb_catalog_render_sql(stmt, t + 1, range, MB_PLACEHOLDER_DOLLAR,
									  sql, buflen) < 0)
				elog(ERROR, "statement \"%s\" does not fit its buffer", stmt->key);

			argtypes = palloc(sizeof(Oid) * Max(nargs, 1));
			is_text = palloc(sizeof(bool) * Max(nargs, 1));
			mb_catalog_param_kinds(stmt, range, is_text);
			for (i = 0; i < nargs; i++)
				argtypes[i] = is_text[i] ? TEXTOID : INT4OID;
			pfree(is_text);

			max_args = Max(max_args, nargs);
			if (ctx->shared->ps_disable)
				continue;		/* every execution parses and plans its text */
			plan = SPI_prepare(sql, nargs, argtypes);
			if (plan == NULL)
				elog(ERROR, "could not prepare \"%s\": %s", sql,
					 SPI_result_code_string(SPI_result));
			if (SPI_keepplan(plan) != 0)
				elog(ERROR, "could not keep the plan of \"%s\"", sql);
			sources = SPI_plan_get_plan_sources(plan);
			if (list_length(sources) != 1)
				elog(ERROR, "\"%s\" is not exactly one statement", sql);
			ctx->plans[t][s].plan = plan;
			ctx->plans[t][s].source = linitial(sources);
			ctx->plans[t][s].params = make_params(nargs, argtypes);
		}
	}

	/* integers of up to 11 characters, at most one c and one pad, quoted */
	ctx->sql_len = MB_MAX_SQL_BASE + (size_t) max_args * 16 +
		2 * (MB_C_LEN + MB_PAD_LEN) + 16;
	ctx->sql = MemoryContextAlloc(TopMemoryContext, ctx->sql_len);
	ctx->bind_values = MemoryContextAlloc(TopMemoryContext,
										  sizeof(mb_bind_value) * max_args);
	ctx->c_text = MemoryContextAlloc(TopMemoryContext, VARHDRSZ + MB_C_LEN);
	SET_VARSIZE(ctx->c_text, VARHDRSZ + MB_C_LEN);
	ctx->pad_text = MemoryContextAlloc(TopMemoryContext, VARHDRSZ + MB_PAD_LEN);
	SET_VARSIZE(ctx->pad_text, VARHDRSZ + MB_PAD_LEN);
}

/*
 * A Postgres string literal: E'...' with backslashes doubled when there is a
 * backslash (so the text means the same whatever standard_conforming_strings
 * is), quotes doubled.  Returns the length, or -1 if out is too small.
 */
static int
quote_pg_literal(const char *text, int len, char *out, size_t outlen, void *arg)
{
	bool		backslash = memchr(text, '\\', len) != NULL;
	size_t		n = 0;
	int			i;

	if (outlen < (size_t) len * 2 + 4)
		return -1;
	if (backslash)
		out[n++] = 'E';
	out[n++] = '\'';
	for (i = 0; i < len; i++)
	{
		if (text[i] == '\'' || text[i] == '\\')
			out[n++] = text[i];
		out[n++] = text[i];
	}
	out[n++] = '\'';
	out[n] = '\0';
	return (int) n;
}

/* ps_mode disable: the statement as text with its values, parsed and planned now. */
static int
execute_literal(mb_worker_ctx *ctx, int table, const mb_stmt *stmt)
{
	if (mb_catalog_render_literal(stmt, table, ctx->shared->range, ctx->bind_values,
								  quote_pg_literal, NULL, ctx->sql, ctx->sql_len) < 0)
		elog(ERROR, "statement \"%s\" does not fit its buffer", stmt->key);
	return SPI_execute(ctx->sql, false, 0);
}

/*
 * Execute a prepared statement with the values in its parameter list, as
 * Postgres executes a client's Bind and Execute: a new snapshot for the
 * statement (at READ COMMITTED it sees everything committed before it
 * starts), the plan from the plan cache (revalidated, replanned if
 * invalidated), the executor from start to end, and the command counter
 * advanced after it so the transaction's next statement sees its writes.
 * Everything it allocates is in the transaction's memory or owned by its
 * resource owner, so an error needs no cleanup here: the abort does it.
 */
static void
execute_prepared(mb_plan *p)
{
	CachedPlan *cplan;
	PlannedStmt *pstmt;
	QueryDesc  *qdesc;

	/* planning may need a snapshot too, as Bind has one */
	PushActiveSnapshot(GetTransactionSnapshot());
	cplan = GetCachedPlan(p->source, p->params, CurrentResourceOwner, NULL);
	if (list_length(cplan->stmt_list) != 1)
		elog(ERROR, "\"%s\" is now rewritten into %d statements",
			 p->source->query_string, list_length(cplan->stmt_list));
	pstmt = linitial_node(PlannedStmt, cplan->stmt_list);

	qdesc = CreateQueryDesc(pstmt, p->source->query_string, GetActiveSnapshot(),
							InvalidSnapshot, &row_receiver, p->params, NULL, 0);
	ExecutorStart(qdesc, 0);
#if PG_VERSION_NUM >= 180000
	ExecutorRun(qdesc, ForwardScanDirection, 0);
#else
	ExecutorRun(qdesc, ForwardScanDirection, 0, true);
#endif
	ExecutorFinish(qdesc);
	ExecutorEnd(qdesc);
	FreeQueryDesc(qdesc);

	PopActiveSnapshot();
	ReleaseCachedPlan(cplan, CurrentResourceOwner);
	CommandCounterIncrement();
}

/* Run one statement with freshly drawn values. */
static void
execute_statement(mb_worker_ctx *ctx, int table, mb_stmt_id id)
{
	const mb_stmt *stmt = &mb_catalog_stmts[id];
	mb_plan    *p = &ctx->plans[table - 1][id];
	int			n = mb_catalog_bind(stmt, &ctx->bind, &ctx->texts, ctx->bind_values);
	int			i;
	int			ret;

	if (ctx->shared->ps_disable)
	{
		ret = execute_literal(ctx, table, stmt);
		if (ret < 0)
			elog(ERROR, "statement \"%s\" failed: %s", stmt->key,
				 SPI_result_code_string(ret));
		if (SPI_tuptable != NULL)
			SPI_freetuptable(SPI_tuptable);
		return;
	}

	for (i = 0; i < n; i++)
	{
		mb_bind_value *v = &ctx->bind_values[i];
		Datum		value;

		if (!v->is_text)
			value = Int32GetDatum(v->int_value);
		else if (v->text == ctx->texts.c)
		{
			memcpy(VARDATA(ctx->c_text), v->text, MB_C_LEN);
			value = PointerGetDatum(ctx->c_text);
		}
		else
		{
			memcpy(VARDATA(ctx->pad_text), v->text, MB_PAD_LEN);
			value = PointerGetDatum(ctx->pad_text);
		}
		p->params->params[i].value = value;
		p->params->params[i].isnull = false;
	}
	execute_prepared(p);
}

/*
 * One event = one transaction.  An autocommit workload has one statement,
 * so both kinds of event reduce to: start, run the steps, commit.
 */
static void
run_event(mb_worker_ctx *ctx)
{
	const mb_workload *w = ctx->workload;
	int			table = mb_catalog_pick_table(w, &ctx->bind, ctx->shared->tables,
											  ctx->client_index);
	bool		use_spi = ctx->shared->ps_disable;	/* SQL text: SPI_execute */
	int			i;

	mb_catalog_begin_event(&ctx->bind);

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (use_spi)
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		/* SPI wants an outer snapshot; each statement still takes its own */
		PushActiveSnapshot(GetTransactionSnapshot());
	}
	for (i = 0; i < MB_MAX_STEPS && w->steps[i].stmt != MB_ST_NONE; i++)
	{
		int			r;

		for (r = 0; r < w->steps[i].repeat; r++)
			execute_statement(ctx, table, w->steps[i].stmt);
	}
	if (use_spi)
	{
		PopActiveSnapshot();
		SPI_finish();
	}
	CommitTransactionCommand();
}

/* Wait (briefly sleeping) until the coordinator leaves the setup phase. */
static void
wait_for_start(mb_worker_ctx *ctx)
{
	while (current_phase(ctx) == MB_PHASE_SETUP)
	{
		CHECK_FOR_INTERRUPTS();
		pg_usleep(1000L);
	}
}

/*
 * Snapshot the cost counters.  The hardware counters are read last at the
 * start and first at the end, so they cover as little of this as they can.
 */
static void
take_costs(mb_worker_ctx *ctx, mb_cost_snapshot *snap, bool at_start)
{
	snap->sched_valid = mb_sched_self(&snap->sched);
	if (!ctx->shared->collect_costs)
		return;
	if (!at_start)
		mb_hw_read(&ctx->hw, &snap->hw);
	mb_rusage_take(&snap->rusage, false);
	snap->wal = pgWalUsage;
	snap->buffers = pgBufferUsage;
	if (at_start)
		mb_hw_read(&ctx->hw, &snap->hw);
}

/* This session's share of the window's cost, added to the client's slot. */
static void
record_costs(mb_worker_ctx *ctx, const mb_cost_snapshot *start,
			 const mb_cost_snapshot *end)
{
	mb_worker_costs *c = &ctx->slot->costs;
	mb_rusage	ru;
	uint64		instructions = 0;
	uint64		cycles = 0;
	bool		counted = false;
	char		note[sizeof(c->hw_note)];

	/* a session that could not read its CPU times makes the total unknown */
	if (start->sched_valid && end->sched_valid)
		mb_sched_add_delta(&ctx->slot->sched, &end->sched, &start->sched);
	else
		ctx->slot->sched_unknown = true;
	if (!ctx->shared->collect_costs)
		return;
	mb_rusage_delta(&ru, &end->rusage, &start->rusage);
	c->rusage.user_us += ru.user_us;
	c->rusage.system_us += ru.system_us;
	c->rusage.voluntary_cs += ru.voluntary_cs;
	c->rusage.involuntary_cs += ru.involuntary_cs;
	c->wal_records += end->wal.wal_records - start->wal.wal_records;
	c->wal_fpi += end->wal.wal_fpi - start->wal.wal_fpi;
	c->wal_bytes += (int64) (end->wal.wal_bytes - start->wal.wal_bytes);
	c->shared_hit += end->buffers.shared_blks_hit - start->buffers.shared_blks_hit;
	c->shared_read += end->buffers.shared_blks_read - start->buffers.shared_blks_read;
	c->shared_dirtied += end->buffers.shared_blks_dirtied - start->buffers.shared_blks_dirtied;
	c->shared_written += end->buffers.shared_blks_written - start->buffers.shared_blks_written;

	strlcpy(note, ctx->hw.note, sizeof(note));
	if (ctx->hw.group_fd >= 0)
		counted = mb_hw_delta(&end->hw, &start->hw, &instructions, &cycles,
							  note, sizeof(note));
	c->instructions += instructions;
	c->cycles += cycles;
	/* a session that could not count makes the client's total unknown */
	if (!c->measured || !counted)
		strlcpy(c->hw_note, note, sizeof(c->hw_note));
	c->hw_counted = counted && (c->hw_counted || !c->measured);
	pg_memory_barrier();
	c->measured = true;
}

/* Is the error one the run ignores?  Its index in ignore_codes, or -1. */
static int
ignored_error_index(mb_worker_ctx *ctx, int sqlerrcode)
{
	int			i;

	for (i = 0; i < ctx->shared->n_ignored; i++)
		if (ctx->shared->ignore_codes[i] == sqlerrcode)
			return i;
	return -1;
}

/*
 * One event, surviving the errors the run ignores: the transaction is
 * rolled back, resources released as at any abort, and the client goes on.
 * Returns -1 for a successful event, else the ignored code's index.  Any
 * other error propagates and ends the run.
 */
static int
run_event_guarded(mb_worker_ctx *ctx)
{
	MemoryContext cxt = CurrentMemoryContext;
	volatile int failed = -1;

	if (ctx->shared->n_ignored == 0)
	{
		run_event(ctx);
		return -1;
	}
	PG_TRY();
	{
		run_event(ctx);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		failed = ignored_error_index(ctx, edata->sqlerrcode);
		FreeErrorData(edata);
		if (failed < 0)
			PG_RE_THROW();

		HOLD_INTERRUPTS();
		FlushErrorState();
		AbortCurrentTransaction();
		MemoryContextSwitchTo(cxt);
		RESUME_INTERRUPTS();
	}
	PG_END_TRY();
	return failed;
}

/*
 * Sleep until the scheduled start of a paced event, or until the run
 * stops.  Returns the phase when it is time to start.
 */
static mb_phase
wait_until(mb_worker_ctx *ctx, uint64 when_ns)
{
	for (;;)
	{
		uint64		now = mb_now_ns();
		mb_phase	phase;

		CHECK_FOR_INTERRUPTS();
		phase = current_phase(ctx);
		if (now >= when_ns || phase >= MB_PHASE_STOP)
			return phase;
		if (when_ns - now < 2 * 1000 * 1000)
			pg_usleep((long) ((when_ns - now) / 1000));
		else
		{
			long		ms = (long) Min((when_ns - now) / 1000000 - 1, 100);
			int			rc = WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
									   ms, PG_WAIT_EXTENSION);

			if (rc & WL_LATCH_SET)
				ResetLatch(MyLatch);
		}
	}
}

/*
 * An event limit is reached: tell the coordinator, and wait until the
 * phase moves past 'phase' (the warm-up's limit: the window opens; the
 * window's: the run stops).
 */
static mb_phase
wait_for_next_phase(mb_worker_ctx *ctx, mb_phase phase)
{
	mb_phase	now;

	SetLatch(ctx->shared->coordinator_latch);
	while ((now = current_phase(ctx)) <= phase)
	{
		CHECK_FOR_INTERRUPTS();
		pg_usleep(1000L);
	}
	return now;
}

/*
 * Whether the event about to begin in phase may run: a warm-up of
 * warmup_events or a window of event_limit events grants each event to one
 * client.  A client refused waits for the next phase, which it returns in
 * *phase.
 */
static bool
claim_event(mb_worker_ctx *ctx, mb_phase *phase)
{
	mb_run_shared *shared = ctx->shared;

	if (*phase == MB_PHASE_WARMUP && shared->warmup_events > 0 &&
		!mb_loop_claim_granted(shared->warmup_events,
							   pg_atomic_fetch_add_u64(&shared->warmup_claimed, 1)))
	{
		*phase = wait_for_next_phase(ctx, MB_PHASE_WARMUP);
		return false;
	}
	if (*phase == MB_PHASE_MEASURE && shared->event_limit > 0 &&
		!mb_loop_claim_granted(shared->event_limit,
							   pg_atomic_fetch_add_u64(&shared->events_claimed, 1)))
	{
		*phase = wait_for_next_phase(ctx, MB_PHASE_MEASURE);
		return false;
	}
	return true;
}

/* A warm-up event of a warm-up of warmup_events has finished: the last one tells the coordinator. */
static void
warmup_event_done(mb_worker_ctx *ctx)
{
	mb_run_shared *shared = ctx->shared;

	if (pg_atomic_add_fetch_u64(&shared->warmup_done, 1) >= (uint64) shared->warmup_events)
		SetLatch(shared->coordinator_latch);
}

static void
count_event(mb_worker_ctx *ctx, int failed, uint64 start_ns, uint64 end_ns)
{
	mb_worker_slot *slot = ctx->slot;

	slot->last_event_end_us = (int64) (end_ns / 1000);
	if (failed >= 0)
	{
		/* a failed event's latency is not mixed with the others' */
		pg_atomic_write_u64(&slot->errors, pg_atomic_read_u64(&slot->errors) + 1);
		pg_atomic_write_u64(&slot->errors_by_code[failed],
							pg_atomic_read_u64(&slot->errors_by_code[failed]) + 1);
		return;
	}
	mb_hist_add(&slot->latency, end_ns > start_ns ? end_ns - start_ns : 0);
	pg_atomic_write_u64(&slot->events, pg_atomic_read_u64(&slot->events) + 1);
	pg_atomic_write_u64(&slot->queries,
						pg_atomic_read_u64(&slot->queries) + ctx->queries_per_event);
}

/*
 * Run events until the run stops or the client leaves to reconnect.  In a
 * counted run (count_window) only the measured events themselves are
 * collected, each from its transaction's start to its commit
 * (mb_count_window.h).
 */
static mb_loop_end
event_loop(mb_worker_ctx *ctx, bool measuring, mb_cost_snapshot *cost_start)
{
	mb_worker_slot *slot = ctx->slot;
	mb_run_shared *shared = ctx->shared;
	mb_cost_snapshot cost_end;
	mb_loop_end end = MB_LOOP_STOP;

	if (shared->rate > 0 && !slot->pacer_started)
	{
		mb_loop_pacer_init(&slot->pacer, shared->rate, shared->clients, shared->seeded,
						   shared->seed, ctx->client_index, mb_now_ns());
		slot->pacer_started = true;
	}
	if (shared->count_window)
		mb_count_window_instrument();

	for (;;)
	{
		mb_phase	phase;
		uint64		scheduled_ns;
		uint64		start_ns;
		uint64		end_ns;
		int			failed;
		bool		counted;

		CHECK_FOR_INTERRUPTS();
		phase = current_phase(ctx);
		if (phase >= MB_PHASE_STOP)
			break;

		scheduled_ns = 0;
		if (shared->rate > 0)
		{
			scheduled_ns = mb_pacer_next(&slot->pacer);
			phase = wait_until(ctx, scheduled_ns);
			if (phase >= MB_PHASE_STOP)
				break;
		}
		start_ns = mb_loop_event_start(scheduled_ns, slot->reconnect_started_ns, mb_now_ns());
		slot->reconnect_started_ns = 0; /* once per session, not per event */

		if (!claim_event(ctx, &phase))
		{
			if (phase >= MB_PHASE_STOP)
				break;
			continue;			/* the window opened: claim one of its events */
		}
		if (phase == MB_PHASE_MEASURE && !measuring)
		{
			measuring = true;
			take_costs(ctx, cost_start, true);
			if (shared->count_window)
				mb_count_window_open();
		}

		counted = shared->count_window && phase == MB_PHASE_MEASURE;
		if (counted)
			mb_count_window_toggle();
		failed = run_event_guarded(ctx);
		if (counted)
			mb_count_window_toggle();
		end_ns = mb_now_ns();
		if (phase == MB_PHASE_MEASURE)
			count_event(ctx, failed, start_ns, end_ns);
		else if (shared->warmup_events > 0)
			warmup_event_done(ctx);

		/* rate-limited inside; keeps pg_stat_* current */
		pgstat_report_stat(false);

		if (mb_loop_reconnect_due(shared->reconnect, &ctx->session_events, shared->event_limit,
								  pg_atomic_read_u64(&shared->events_claimed)))
		{
			end = MB_LOOP_RECONNECT;
			break;
		}
	}
	if (measuring)
	{
		if (shared->count_window)
			mb_count_window_close();
		take_costs(ctx, &cost_end, false);
		record_costs(ctx, cost_start, &cost_end);
	}
	return end;
}

void
mb_error_capture(mb_error_report *report)
{
	ErrorData  *edata;
	MemoryContext oldcxt = MemoryContextSwitchTo(TopMemoryContext);

	edata = CopyErrorData();
	MemoryContextSwitchTo(oldcxt);
	report->sqlerrcode = edata->sqlerrcode;
	strlcpy(report->message, edata->message ? edata->message : "", sizeof(report->message));
	strlcpy(report->detail, edata->detail ? edata->detail : "", sizeof(report->detail));
	strlcpy(report->hint, edata->hint ? edata->hint : "", sizeof(report->hint));
	pg_memory_barrier();
}

void
mb_error_rethrow(const mb_error_report *report, const char *prefix)
{
	pg_memory_barrier();
	ereport(ERROR,
			(errcode(report->sqlerrcode ? report->sqlerrcode : ERRCODE_INTERNAL_ERROR),
			 errmsg("%s: %s", prefix, report->message),
			 report->detail[0] ? errdetail("%s", report->detail) : 0,
			 report->hint[0] ? errhint("%s", report->hint) : 0));
	pg_unreachable();
}

/*
 * Refuse, before any worker starts, a role the workers could not connect as:
 * one without LOGIN (a SET ROLE target, say) before Postgres 17, which lets
 * a background worker bypass that check, or one whose connection limit
 * leaves no room for the clients.
 */
void
mb_check_worker_role(Oid role_id, int clients)
{
	HeapTuple	tup = SearchSysCache1(AUTHOID, ObjectIdGetDatum(role_id));
	Form_pg_authid role;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for role %u", role_id);
	role = (Form_pg_authid) GETSTRUCT(tup);
#ifndef BGWORKER_BYPASS_ROLELOGINCHECK
	if (!role->rolcanlogin)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("the benchmark clients would run as role \"%s\", which cannot log in",
						NameStr(role->rolname)),
				 errdetail("Each client is a background worker connected as the current role."),
				 errhint("Call this as a role with LOGIN, not after SET ROLE to a group role.")));
#endif
	if (role->rolconnlimit >= 0 && !role->rolsuper &&
		CountUserBackends(role_id) + clients > role->rolconnlimit)
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
				 errmsg("%d benchmark clients would exceed the connection limit of role \"%s\" (%d)",
						clients, NameStr(role->rolname), role->rolconnlimit),
				 errhint("Use fewer clients or raise the role's CONNECTION LIMIT.")));
	ReleaseSysCache(tup);
}

BackgroundWorkerHandle *
mb_register_worker(const char *function, const char *name, dsm_segment *seg, int extra)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	MemoryContext oldcxt;
	bool		registered;

	memset(&worker, 0, sizeof(worker));
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_ConsistentState;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(worker.bgw_library_name, BGW_MAXLEN, "microbench");
	snprintf(worker.bgw_function_name, BGW_MAXLEN, "%s", function);
	snprintf(worker.bgw_name, BGW_MAXLEN, "%s", name);
	snprintf(worker.bgw_type, BGW_MAXLEN, "microbench");
	worker.bgw_main_arg = UInt32GetDatum(dsm_segment_handle(seg));
	memcpy(worker.bgw_extra, &extra, sizeof(int));
	worker.bgw_notify_pid = MyProcPid;

	oldcxt = MemoryContextSwitchTo(TopMemoryContext);
	registered = RegisterDynamicBackgroundWorker(&worker, &handle);
	MemoryContextSwitchTo(oldcxt);
	return registered ? handle : NULL;
}

/* Connect to the database as the role, with no privilege the role lacks. */
void
mb_worker_connect(Oid database_id, Oid role_id)
{
#ifdef BGWORKER_BYPASS_ROLELOGINCHECK
	/* LOGIN says who may open a session; a client acts inside the caller's */
	BackgroundWorkerInitializeConnectionByOid(database_id, role_id,
											  BGWORKER_BYPASS_ROLELOGINCHECK);
#else
	BackgroundWorkerInitializeConnectionByOid(database_id, role_id, 0);
#endif
}

/* The slot goes away with the mapping: the SIGTERM handler must not touch it. */
static void
forget_slot(dsm_segment *seg, Datum arg)
{
	my_slot = NULL;
}

/* SIGTERM: note that the run lost this client, then die as usual. */
static void
mb_worker_sigterm(SIGNAL_ARGS)
{
	if (my_slot != NULL)
		pg_atomic_write_u32(&my_slot->terminated, 1);
	die(postgres_signal_arg);
}

void
mb_worker_main(Datum main_arg)
{
	dsm_segment *seg;
	mb_worker_ctx ctx;
	char		activity[128];
	const char *search_path;
	bool		reconnected;
	bool		measuring = false;
	mb_cost_snapshot cost_start;
	mb_loop_end end;

	pqsignal(SIGTERM, mb_worker_sigterm);
	BackgroundWorkerUnblockSignals();

	/* no resource owner: the mapping lives as long as this process */
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("microbench worker could not map the run's shared memory")));

	memset(&ctx, 0, sizeof(ctx));
	ctx.shared = (mb_run_shared *) dsm_segment_address(seg);
	memcpy(&ctx.client_index, MyBgworkerEntry->bgw_extra, sizeof(int));
	ctx.slot = &ctx.shared->slots[ctx.client_index];
	ctx.slot->pid = MyProcPid;
	my_slot = ctx.slot;
	on_dsm_detach(seg, forget_slot, (Datum) 0);
	ctx.workload = &mb_catalog_workloads[ctx.shared->workload_index];
	ctx.queries_per_event = mb_catalog_queries_per_event(ctx.workload);
	reconnected = ctx.slot->sessions > 0;

	/*
	 * Each client its own stream, kept in its slot so that a new session
	 * goes on where the old one stopped; unseeded runs differ from run to
	 * run.
	 */
	if (!reconnected)
		mb_rng_seed(&ctx.slot->rng,
					ctx.shared->seeded ? ctx.shared->seed
					: (uint64) mb_now_ns() ^ ((uint64) MyProcPid << 32),
					(uint64) ctx.client_index);
	mb_bind_ctx_init(&ctx.bind, &ctx.slot->rng, ctx.shared->table_size,
					 ctx.shared->range, ctx.shared->rand_type);

	ctx.hw.group_fd = ctx.hw.cycles_fd = -1;
	if (ctx.shared->collect_costs)
		(void) mb_hw_open(&ctx.hw);
	else
		strlcpy(ctx.hw.note, "not collected (microbench.collect_costs is off)",
				sizeof(ctx.hw.note));
	/* a new session inside the window: what connecting costs is counted */
	if (reconnected && pg_atomic_read_u32(&ctx.shared->phase) == MB_PHASE_MEASURE)
	{
		measuring = true;
		take_costs(&ctx, &cost_start, true);
	}

	PG_TRY();
	{
		/* The caller's role, never more: a superuser caller is the only way to get one. */
		mb_worker_connect(ctx.shared->database_id, ctx.shared->role_id);

		/* Statements name the tables unqualified, exactly as the catalog has them. */
		search_path = quote_identifier(ctx.shared->schema);
		SetConfigOption("search_path", search_path, PGC_USERSET, PGC_S_SESSION);
		snprintf(activity, sizeof(activity), "microbench %s client %d",
				 ctx.workload->name, ctx.client_index + 1);
		SetConfigOption("application_name", "microbench", PGC_USERSET, PGC_S_SESSION);

		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		PushActiveSnapshot(GetTransactionSnapshot());
		pgstat_report_activity(STATE_RUNNING, activity);
		prepare_statements(&ctx);
		SPI_finish();
		PopActiveSnapshot();
		CommitTransactionCommand();
		ctx.slot->sessions++;

		if (!reconnected)
		{
			pg_atomic_write_u32(&ctx.slot->state, MB_WORKER_READY);
			wait_for_start(&ctx);
		}
		pg_atomic_write_u32(&ctx.slot->state, MB_WORKER_RUNNING);
		end = event_loop(&ctx, measuring, &cost_start);
	}
	PG_CATCH();
	{
		mb_error_capture(&ctx.slot->error);
		pg_atomic_write_u32(&ctx.slot->state, MB_WORKER_FAILED);
		PG_RE_THROW();
	}
	PG_END_TRY();

	pgstat_report_activity(STATE_IDLE, NULL);
	mb_hw_close(&ctx.hw);
	if (end == MB_LOOP_RECONNECT)
		ctx.slot->reconnect_started_ns = mb_now_ns();
	pg_memory_barrier();
	/* the coordinator starts the next session once this process is gone */
	pg_atomic_write_u32(&ctx.slot->state, end == MB_LOOP_RECONNECT ?
						MB_WORKER_RECONNECTING : MB_WORKER_DONE);
	dsm_detach(seg);
	proc_exit(0);
}

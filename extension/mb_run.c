/*
 * mb_run.c — bench_run(): the coordinator of one microbenchmark run.
 *
 * The calling backend validates the request, finds the sbtest tables,
 * creates a dynamic shared memory segment for the run and starts one dynamic
 * background worker per client (mb_worker.c).  It then drives the phases:
 * setup (workers prepare statements), warm-up (events not counted), the
 * measured window (progress NOTICEs every report_interval seconds), stop.
 * Finally it merges the workers' counters, histograms and costs, adds the
 * host's CPU and disk figures over the same window, and inserts the result
 * into microbench.runs, returning that row.
 *
 * Stopping: whatever ends the caller's query — an error, a cancel, a
 * terminate — detaches the segment, and the detach callback moves the run to
 * the abort phase and asks the postmaster to terminate every worker, so no
 * worker outlives a run.  A worker's own error is re-raised here with its
 * SQLSTATE and text; a worker terminated by someone else, or one waiting for
 * a lock this transaction holds (it would wait forever), ends the run with
 * an error saying so.  Only a finished run writes a row.
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "lib/stringinfo.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "mb_canary.h"
#include "mb_count_window.h"
#include "mb_data_state.h"
#include "mb_direct_pages.h"
#include "mb_host.h"
#include "mb_load.h"
#include "mb_load_rollback.h"
#include "mb_report.h"
#include "mb_samples.h"
#include "mb_sched.h"
#include "mb_shared.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(bench_run);

void		_PG_init(void);

/* microbench.collect_costs: count what each run costs (on by default) */
static bool mb_collect_costs = true;

/* microbench.direct_pages: whether this build has the direct page path */
#ifdef MB_DIRECT_PAGES
static bool mb_direct_pages_built = true;
#else
static bool mb_direct_pages_built = false;
#endif

/* the reports' scope, read in SQL alone (microbench.scoped_runs()) */
static char *mb_report_host = NULL;
static char *mb_report_campaign = NULL;

void
_PG_init(void)
{
	DefineCustomBoolVariable("microbench.collect_costs",
							 "Records what each benchmark run costs: CPU, context switches, WAL, buffers, hardware counters, host CPU and disk.",
							 "The counters are read at the two ends of the measured window only.",
							 &mb_collect_costs, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("microbench.direct_load",
							 "Lets bench_prepare write the sbtest tables' pages directly, WAL-logged, instead of through shared buffers.",
							 "The rows and pages are the same either way; off loads through Postgres's bulk-insert path, as COPY does.",
							 &mb_direct_load, true, PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("microbench.direct_pages",
							 "Shows whether this build of microbench has the direct load's page writing.",
							 "It is compiled only for the Postgres majors whose page layouts its tests prove (15, 17, 18); elsewhere bench_prepare loads through Postgres's bulk-insert path.",
							 &mb_direct_pages_built, mb_direct_pages_built, PGC_INTERNAL,
							 GUC_NOT_IN_SAMPLE | GUC_DISALLOW_IN_FILE,
							 NULL, NULL, NULL);
	DefineCustomEnumVariable("microbench.inject_load_error",
							 "For tests: makes microbench_load_table fail on purpose at the given step.",
							 NULL,
							 &mb_inject_load_error, MB_LOAD_STEP_NONE, mb_load_step_options,
							 PGC_SUSET, GUC_NOT_IN_SAMPLE | GUC_NO_SHOW_ALL,
							 NULL, NULL, NULL);
	/*
	 * Read by the reports' microbench.scoped_runs() (results_schema/
	 * 12_fleet.sql) alone; defined here because the prefix is reserved.
	 */
	DefineCustomStringVariable("microbench.report_host",
							   "Makes the reports read the runs of this host (its label) alone.",
							   "Empty: the runs of every host.",
							   &mb_report_host, "", PGC_USERSET, 0,
							   NULL, NULL, NULL);
	DefineCustomStringVariable("microbench.report_campaign",
							   "Makes the reports read the runs of this campaign alone.",
							   "Empty: the runs of every campaign, and those of none.",
							   &mb_report_campaign, "", PGC_USERSET, 0,
							   NULL, NULL, NULL);
	MarkGUCPrefixReserved("microbench");
}

/* Longest run we accept: a week, far beyond any report's 930 s. */
#define MB_MAX_SECONDS (7 * 24 * 3600.0)

/* How long workers may take to connect and prepare before we give up. */
#define MB_SETUP_TIMEOUT_US (30 * INT64CONST(1000000))

/* How often the coordinator looks for clients stuck behind its own locks. */
#define MB_LOCK_CHECK_INTERVAL_US (200 * INT64CONST(1000))

/* The coordinator's view of a run in progress. */
typedef struct mb_run
{
	dsm_segment *seg;
	mb_run_shared *shared;
	BackgroundWorkerHandle **handles;
	int			started;		/* handles registered so far */
	int64		next_lock_check_us;
	int		   *sched_pids;		/* each client's pid at the last CPU reading */
} mb_run;

/*
 * The run in progress in this backend, for the detach callback.  It lives in
 * TopMemoryContext: the callback can run during error recovery, after
 * bench_run's stack frame is gone.
 */
static mb_run *active_run = NULL;

/* The validated request. */
typedef struct mb_request
{
	const mb_workload *workload;
	int			workload_index;
	double		seconds;
	double		warmup;
	int			clients;
	int			range;
	int			tables;
	uint32		table_size;
	mb_rand_type rand_type;
	bool		seeded;
	int64		seed;
	char	   *label;
	char	   *phase;
	double		report_interval;
	Oid			namespace_id;
	int			n_ignored;
	int			ignore_codes[MB_MAX_IGNORED];
	char	   *ignored_text;	/* the codes as recorded, e.g. "40P01,23505" */
	bool		ps_disable;
	double		rate;
	int64		event_limit;
	int			reconnect;
	int			round;			/* 0: not given */
	int64		warmup_events;	/* > 0: warm up for these events, not seconds */
	bool		count_window;	/* mark the window for callgrind (mb_count_window.h) */
	bool		checkpoint;		/* a CHECKPOINT between the warm-up and the window */
} mb_request;

/* What the run ignores unless told otherwise: what concurrency causes. */
static const char *const default_ignored[] = {"40P01", "40001", "55P03", "23505"};

static void
check_duration(const char *name, double value, bool allow_zero)
{
	if (isnan(value) || isinf(value) || value < 0 || (!allow_zero && value == 0) ||
		value > MB_MAX_SECONDS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s must be %s and at most %.0f seconds, not %g",
						name, allow_zero ? "zero or positive" : "positive",
						MB_MAX_SECONDS, value)));
}

/* The relation sbtest<n> in the namespace, or InvalidOid. */
static Oid
sbtest_relid(Oid namespace_id, int n)
{
	char		relname[NAMEDATALEN];

	snprintf(relname, sizeof(relname), "sbtest%d", n);
	return get_relname_relid(relname, namespace_id);
}

/*
 * Find the tables: sbtest1 as the search path resolves it, and how many
 * consecutive sbtestN live beside it.  Errors say to run bench_prepare.
 */
static int
find_tables(mb_request *req, int wanted)
{
	Oid			relid = RelnameGetRelid("sbtest1");
	int			present = 0;
	int			t;

	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table \"sbtest1\" does not exist in the search path"),
				 errhint("Run SELECT bench_prepare(); to create and load the sbtest tables.")));
	req->namespace_id = get_rel_namespace(relid);
	while (OidIsValid(sbtest_relid(req->namespace_id, present + 1)))
		present++;
	if (wanted > present)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("tables => %d asks for more sbtest tables than the %d in schema \"%s\"",
						wanted, present, get_namespace_name(req->namespace_id)),
				 errhint("Run SELECT bench_prepare(%d); or ask for fewer tables.", wanted)));

	for (t = 1; t <= (wanted > 0 ? wanted : present); t++)
	{
		Oid			tr = sbtest_relid(req->namespace_id, t);
		HeapTuple	tup;
		static const char *const columns[] = {"id", "k", "c", "pad"};
		int			i;

		for (i = 0; i < lengthof(columns); i++)
			if (get_attnum(tr, columns[i]) == InvalidAttrNumber)
				ereport(ERROR,
						(errcode(ERRCODE_WRONG_OBJECT_TYPE),
						 errmsg("table \"sbtest%d\" has no column \"%s\"", t, columns[i]),
						 errhint("Run SELECT bench_prepare(); to recreate the sbtest tables.")));

		/* A table made in this very transaction is invisible to the workers. */
		tup = SearchSysCache1(RELOID, ObjectIdGetDatum(tr));
		if (HeapTupleIsValid(tup))
		{
			bool		mine = TransactionIdIsCurrentTransactionId(
															   HeapTupleHeaderGetXmin(tup->t_data));

			ReleaseSysCache(tup);
			if (mine)
				ereport(ERROR,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("table \"sbtest%d\" was created or changed in the current transaction", t),
						 errdetail("The benchmark clients run in their own sessions and cannot see it, or would wait for its lock."),
						 errhint("Commit after bench_prepare() and call bench_run() in a new transaction.")));
		}
	}
	return wanted > 0 ? wanted : present;
}

/*
 * The key range rand_id() draws from.  bench_prepare records it; for tables
 * loaded otherwise (e.g. by sysbench) the largest id is the table size.
 */
static uint32
find_table_size(Oid namespace_id)
{
	Datum		args[1];
	Oid			argtypes[1] = {TEXTOID};
	bool		isnull;
	int64		size = 0;
	int			ret;

	args[0] = CStringGetTextDatum(get_namespace_name(namespace_id));
	ret = SPI_execute_with_args(
								"SELECT table_size FROM microbench.datasets WHERE schema_name = $1",
								1, argtypes, args, NULL, true, 1);
	if (ret == SPI_OK_SELECT && SPI_processed == 1)
		size = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
										   SPI_tuptable->tupdesc, 1, &isnull));
	else
	{
		char	   *sql = psprintf("SELECT coalesce(max(id), 0)::bigint FROM %s.sbtest1",
								   quote_identifier(get_namespace_name(namespace_id)));

		ret = SPI_execute(sql, true, 1);
		if (ret == SPI_OK_SELECT && SPI_processed == 1)
			size = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
											   SPI_tuptable->tupdesc, 1, &isnull));
	}
	if (size <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table \"sbtest1\" is empty"),
				 errhint("Run SELECT bench_prepare(); to load the sbtest tables.")));
	if (size > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("table size %lld is beyond the integer id range", (long long) size)));
	return (uint32) size;
}

/* Add one SQLSTATE to the ignored ones, refusing what must never be ignored. */
static void
add_ignored(mb_request *req, const char *code, StringInfo text)
{
	int			i;

	if (strlen(code) != 5 || strspn(code, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") != 5)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" in ignore_errors is not a SQLSTATE", code),
				 errhint("Give five-character codes such as 40P01 (deadlock) or 23505 (unique violation).")));
	/* operator intervention (cancel, terminate, shutdown) always stops a run */
	if (strncmp(code, "57", 2) == 0 || strncmp(code, "XX", 2) == 0 ||
		strncmp(code, "58", 2) == 0 || strncmp(code, "53", 2) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("SQLSTATE %s cannot be ignored", code),
				 errdetail("Classes 53 (resources), 57 (operator intervention), 58 (system) and XX (internal) always stop a run.")));
	for (i = 0; i < req->n_ignored; i++)
		if (req->ignore_codes[i] == MAKE_SQLSTATE(code[0], code[1], code[2], code[3], code[4]))
			return;
	if (req->n_ignored >= MB_MAX_IGNORED)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("ignore_errors holds more than %d codes", MB_MAX_IGNORED)));
	req->ignore_codes[req->n_ignored++] =
		MAKE_SQLSTATE(code[0], code[1], code[2], code[3], code[4]);
	appendStringInfo(text, "%s%s", text->len ? "," : "", code);
}

/*
 * What a counted run (microbench compare --metric instructions) asks:
 * warmup_events, a warm-up of exactly so many events, so that what a
 * write's window starts from is a function of the seed; count_window, the
 * window marked for valgrind's callgrind by the client that runs it (one
 * client, one session: mb_count_window.h); checkpoint, a CHECKPOINT right
 * before the window, so that which pages a write's window logs whole is a
 * function of the seed too.
 */
static void
parse_count_options(FunctionCallInfo fcinfo, mb_request *req)
{
	req->warmup_events = PG_ARGISNULL(17) ? 0 : PG_GETARG_INT64(17);
	if (!PG_ARGISNULL(17) && req->warmup_events < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("warmup_events must be positive, not %lld", (long long) req->warmup_events),
				 errhint("Leave warmup_events NULL to warm up for warmup seconds.")));
	req->count_window = !PG_ARGISNULL(18) && PG_GETARG_BOOL(18);
	req->checkpoint = !PG_ARGISNULL(19) && PG_GETARG_BOOL(19);
	if (!req->count_window)
		return;
	if (!mb_count_window_available())
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("this build of microbench cannot mark a window for valgrind"),
				 errdetail("It was compiled without valgrind/callgrind.h."),
				 errhint("Install Debian's valgrind package and rebuild the extension.")));
	if (req->clients != 1 || req->reconnect != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("count_window counts the window of one client in one session"),
				 errhint("Give clients => 1 and no reconnect with count_window => true.")));
}

/*
 * The options that shape a run like sysbench's: ignore_errors, ps_mode,
 * rate, events, reconnect.
 */
static void
parse_run_options(FunctionCallInfo fcinfo, mb_request *req)
{
	StringInfoData ignored;
	char	   *ps_mode;

	initStringInfo(&ignored);
	if (PG_ARGISNULL(11))
	{
		int			i;

		for (i = 0; i < lengthof(default_ignored); i++)
			add_ignored(req, default_ignored[i], &ignored);
	}
	else
	{
		ArrayType  *codes = PG_GETARG_ARRAYTYPE_P(11);
		Datum	   *elems;
		bool	   *nulls;
		int			n;
		int			i;

		deconstruct_array(codes, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
		for (i = 0; i < n; i++)
		{
			if (nulls[i])
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("ignore_errors must not contain NULL")));
			add_ignored(req, text_to_cstring(DatumGetTextPP(elems[i])), &ignored);
		}
	}
	req->ignored_text = ignored.data;

	ps_mode = PG_ARGISNULL(12) ? "auto" : text_to_cstring(PG_GETARG_TEXT_PP(12));
	if (strcmp(ps_mode, "auto") != 0 && strcmp(ps_mode, "disable") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown ps_mode \"%s\"", ps_mode),
				 errhint("ps_mode is \"auto\" (prepared statements) or \"disable\" (SQL text, parsed and planned every time).")));
	req->ps_disable = strcmp(ps_mode, "disable") == 0;

	req->rate = PG_ARGISNULL(13) ? 0 : PG_GETARG_FLOAT8(13);
	if (isnan(req->rate) || isinf(req->rate) || req->rate < 0 || req->rate > 1e8)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("rate must be between 0 (no limit) and 100000000 events per second, not %g",
						req->rate)));

	req->event_limit = PG_ARGISNULL(14) ? 0 : PG_GETARG_INT64(14);
	if (!PG_ARGISNULL(14) && req->event_limit < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("events must be positive, not %lld", (long long) req->event_limit),
				 errhint("Leave events NULL to run for seconds only.")));

	req->reconnect = PG_ARGISNULL(15) ? 0 : PG_GETARG_INT32(15);
	if (req->reconnect < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("reconnect must be zero (never) or positive, not %d", req->reconnect)));

	req->round = PG_ARGISNULL(16) ? 0 : PG_GETARG_INT32(16);
	if (!PG_ARGISNULL(16) && req->round < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("round must be positive, not %d", req->round),
				 errhint("Leave round NULL when the run is not part of a comparison's rounds.")));
	parse_count_options(fcinfo, req);
}

static void
parse_request(FunctionCallInfo fcinfo, mb_request *req)
{
	char	   *name;
	char	   *rand_name;
	int			i;

	memset(req, 0, sizeof(*req));
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("workload must not be NULL"),
				 errhint("SELECT name FROM bench_workloads(); lists the workloads.")));
	name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	req->workload = mb_catalog_find(name);
	if (req->workload == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown workload \"%s\"", name),
				 errhint("SELECT name FROM bench_workloads(); lists the workloads.")));
	req->workload_index = (int) (req->workload - mb_catalog_workloads);

	for (i = 1; i <= 3; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("seconds, clients and warmup must not be NULL")));
	req->seconds = PG_GETARG_FLOAT8(1);
	/* with an event limit, seconds => 0 means no time limit */
	check_duration("seconds", req->seconds,
				   !PG_ARGISNULL(14));
	req->clients = PG_GETARG_INT32(2);
	if (req->clients < 1 || req->clients > max_worker_processes)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients must be between 1 and max_worker_processes (%d), not %d",
						max_worker_processes, req->clients),
				 errhint("Each client is a background worker; raise max_worker_processes to run more.")));
	req->warmup = PG_GETARG_FLOAT8(3);
	check_duration("warmup", req->warmup, true);

	req->range = 0;
	if (!PG_ARGISNULL(4))
	{
		int			r = PG_GETARG_INT32(4);

		if (r <= 0 || r > 100000)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("range_size must be between 1 and 100000, not %d", r)));
		if (req->workload->default_range == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("workload \"%s\" has no range to set", req->workload->name)));
		req->range = r;
	}
	req->range = mb_catalog_effective_range(req->workload, req->range);

	req->tables = 0;
	if (!PG_ARGISNULL(5))
	{
		req->tables = PG_GETARG_INT32(5);
		if (req->tables < 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("tables must be positive, not %d", req->tables)));
	}

	rand_name = PG_ARGISNULL(6) ? "uniform" : text_to_cstring(PG_GETARG_TEXT_PP(6));
	if (mb_rand_type_parse(rand_name, &req->rand_type) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown rand_type \"%s\"", rand_name),
				 errhint("Use one of: %s.", mb_rand_type_names())));

	req->seeded = !PG_ARGISNULL(7);
	req->seed = req->seeded ? PG_GETARG_INT64(7) : 0;
	req->label = PG_ARGISNULL(8) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(8));
	req->phase = PG_ARGISNULL(9) ? "post" : text_to_cstring(PG_GETARG_TEXT_PP(9));
	if (strcmp(req->phase, "pre") != 0 && strcmp(req->phase, "post") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown phase \"%s\"", req->phase),
				 errhint("phase is \"pre\" (right after the load) or \"post\" (after the write benchmarks).")));
	req->report_interval = PG_ARGISNULL(10) ? 0 : PG_GETARG_FLOAT8(10);
	check_duration("report_interval", req->report_interval, true);
	parse_run_options(fcinfo, req);
}

/* Detach callback: whatever ends the run early, the workers go too. */
static void
abort_workers(dsm_segment *seg, Datum arg)
{
	mb_run	   *run = active_run;
	int			i;

	if (run == NULL || run->seg != seg)
		return;
	if (pg_atomic_read_u32(&run->shared->phase) < MB_PHASE_STOP)
		pg_atomic_write_u32(&run->shared->phase, MB_PHASE_ABORT);
	for (i = 0; i < run->started; i++)
		TerminateBackgroundWorker(run->handles[i]);
	for (i = 0; i < run->started; i++)
		pfree(run->handles[i]);
	if (run->handles)
		pfree(run->handles);
	if (run->sched_pids)
		pfree(run->sched_pids);
	pfree(run);
	active_run = NULL;
}

/*
 * Start (or, for a client that reconnects, restart) the background worker
 * of client i.  Its handle lives in TopMemoryContext: the detach callback
 * needs it, even during error recovery.
 */
static void
start_worker(mb_run *run, int i)
{
	char		name[BGW_MAXLEN];
	BackgroundWorkerHandle *handle;

	snprintf(name, sizeof(name), "microbench client %d", i + 1);
	handle = mb_register_worker("mb_worker_main", name, run->seg, i);
	if (handle == NULL)
	{
		int			w;

		/*
		 * The clients already started stop before the error is raised, not
		 * merely told to: nothing of a run that failed to start may outlive
		 * the call.  (The detach callback only terminates: during error
		 * recovery it cannot wait.)
		 */
		pg_atomic_write_u32(&run->shared->phase, MB_PHASE_ABORT);
		for (w = 0; w < run->started; w++)
			TerminateBackgroundWorker(run->handles[w]);
		for (w = 0; w < run->started; w++)
			WaitForBackgroundWorkerShutdown(run->handles[w]);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start benchmark client %d of %d", i + 1, run->shared->clients),
				 errdetail("All background worker slots are in use (max_worker_processes = %d).",
						   max_worker_processes),
				 errhint("Raise max_worker_processes (restart needed) or use fewer clients.")));
	}
	if (run->handles[i] != NULL)
		pfree(run->handles[i]);
	run->handles[i] = handle;
}

static void
start_workers(mb_run *run, const mb_request *req)
{
	int			i;

	run->handles = MemoryContextAllocZero(TopMemoryContext,
										  sizeof(BackgroundWorkerHandle *) * req->clients);
	for (i = 0; i < req->clients; i++)
	{
		start_worker(run, i);
		run->started = i + 1;
	}
}

/*
 * Re-raise a failed worker's error, or complain about a worker that
 * vanished; start the next session of a client that left to reconnect.
 * Called whenever the coordinator waits.
 */
static void
check_workers(mb_run *run)
{
	int			i;

	for (i = 0; i < run->started; i++)
	{
		mb_worker_slot *slot = &run->shared->slots[i];
		uint32		state = pg_atomic_read_u32(&slot->state);
		pid_t		pid;

		if (state == MB_WORKER_FAILED)
			mb_error_rethrow(&slot->error,
							 psprintf("benchmark client %d failed", i + 1));
		if (state != MB_WORKER_DONE &&
			GetBackgroundWorkerPid(run->handles[i], &pid) == BGWH_STOPPED)
		{
			pg_memory_barrier();
			state = pg_atomic_read_u32(&slot->state);
			if (state == MB_WORKER_FAILED)
				continue;		/* reported on the next call */
			if (state == MB_WORKER_RECONNECTING)
			{
				/* the old session is gone: the next one, unless the run is over */
				if (pg_atomic_read_u32(&run->shared->phase) >= MB_PHASE_STOP)
					pg_atomic_write_u32(&slot->state, MB_WORKER_DONE);
				else
				{
					pg_atomic_write_u32(&slot->state, MB_WORKER_STARTING);
					start_worker(run, i);
				}
				continue;
			}
			if (state != MB_WORKER_DONE &&
				pg_atomic_read_u32(&slot->terminated))
				ereport(ERROR,
						(errcode(ERRCODE_ADMIN_SHUTDOWN),
						 errmsg("benchmark client %d was terminated", i + 1),
						 errdetail("Its background worker (PID %d) received SIGTERM, from pg_terminate_backend() or a server shutdown; the run was stopped and nothing was recorded.",
								   slot->pid)));
			if (state != MB_WORKER_DONE)
				ereport(ERROR,
						(errcode(ERRCODE_CONNECTION_FAILURE),
						 errmsg("benchmark client %d exited before the run finished", i + 1),
						 errdetail("The run was stopped and nothing was recorded."),
						 errhint("See the server log for why it stopped.")));
		}
	}
}

/* Does this backend block the process with that PID? */
static bool
blocked_by_me(int pid)
{
	ArrayType  *blockers;
	Datum	   *elems;
	int			n;
	int			i;

	blockers = DatumGetArrayTypeP(DirectFunctionCall1(pg_blocking_pids,
													  Int32GetDatum(pid)));
	deconstruct_array(blockers, INT4OID, sizeof(int32), true, TYPALIGN_INT,
					  &elems, NULL, &n);
	for (i = 0; i < n; i++)
		if (DatumGetInt32(elems[i]) == MyProcPid)
			return true;
	return false;
}

/*
 * A client waiting for a lock that the caller's transaction holds would wait
 * forever: the transaction cannot end before bench_run returns.  Only a
 * client whose wait event says "lock" is looked at closely.
 */
static void
check_blocked_by_caller(mb_run *run)
{
	int			i;

	if (mb_now_us() < run->next_lock_check_us)
		return;
	run->next_lock_check_us = mb_now_us() + MB_LOCK_CHECK_INTERVAL_US;
	for (i = 0; i < run->started; i++)
	{
		int			pid = run->shared->slots[i].pid;
		PGPROC	   *proc = pid != 0 ? BackendPidGetProc(pid) : NULL;

		if (proc == NULL ||
			(proc->wait_event_info & 0xFF000000) != PG_WAIT_LOCK)
			continue;
		if (blocked_by_me(pid))
			ereport(ERROR,
					(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
					 errmsg("benchmark client %d is waiting for a lock held by this transaction", i + 1),
					 errdetail("The clients run in their own sessions, and this transaction keeps its locks until bench_run() returns."),
					 errhint("Commit or roll back what locked the sbtest tables or their rows (LOCK TABLE, SELECT ... FOR UPDATE, a write), then call bench_run() in a new transaction.")));
	}
}

/* Sleep up to timeout_ms, waking for interrupts and worker state changes. */
static void
coordinator_wait(mb_run *run, long timeout_ms)
{
	int			rc;

	/* wake often enough to notice clients stuck behind our locks */
	timeout_ms = Min(timeout_ms, MB_LOCK_CHECK_INTERVAL_US / 1000);
	rc = WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
				   Max(timeout_ms, 1), PG_WAIT_EXTENSION);
	if (rc & WL_LATCH_SET)
		ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
	check_workers(run);
	check_blocked_by_caller(run);
}

static bool
all_workers_in(mb_run *run, mb_worker_state state)
{
	int			i;

	for (i = 0; i < run->started; i++)
		if (pg_atomic_read_u32(&run->shared->slots[i].state) != (uint32) state)
			return false;
	return true;
}

/* Sum of the workers' measured histograms. */
static void
merge_histograms(mb_run *run, mb_hist *into)
{
	int			i;

	mb_hist_reset(into);
	for (i = 0; i < run->started; i++)
		mb_hist_merge(into, &run->shared->slots[i].latency);
}

static uint64
sum_counter(mb_run *run, size_t offset)
{
	uint64		total = 0;
	int			i;

	for (i = 0; i < run->started; i++)
		total += pg_atomic_read_u64((pg_atomic_uint64 *)
									((char *) &run->shared->slots[i] + offset));
	return total;
}

/* The measured window's figures, merged over the clients. */
typedef struct mb_totals
{
	uint64		events;
	uint64		queries;
	uint64		errors;
	int64		rows_scanned;	/* scan only */
	mb_hist		latency;
	uint64		errors_by_code[MB_MAX_IGNORED];
	uint64		sessions;		/* sessions the clients opened */
	mb_worker_costs costs;		/* summed over the clients */
	bool		costs_counted;
	mb_host_cpu host_cpu;		/* host-wide, over the window */
	mb_disk		disk;			/* the data directory's device(s) */
	char		disk_note[256];
} mb_totals;

/*
 * The block devices holding the data directory and pg_wal: one, or two
 * when pg_wal lives elsewhere.  Their counters are added up.
 */
typedef struct mb_data_disks
{
	int			count;
	char		device[2][64];
	char		note[256];		/* why there is none */
} mb_data_disks;

static void
find_data_disks(mb_data_disks *disks)
{
	char		wal_dir[MAXPGPATH];
	char		device[64];
	char		why[256];

	memset(disks, 0, sizeof(*disks));
	if (mb_disk_of_path(DataDir, disks->device[0], sizeof(disks->device[0]),
						disks->note, sizeof(disks->note)))
		disks->count = 1;
	snprintf(wal_dir, sizeof(wal_dir), "%s/pg_wal", DataDir);
	if (mb_disk_of_path(wal_dir, device, sizeof(device), why, sizeof(why)) &&
		(disks->count == 0 || strcmp(device, disks->device[0]) != 0))
		strlcpy(disks->device[disks->count++], device, sizeof(device));
}

static void
take_disks(const mb_data_disks *disks, mb_disk *sum)
{
	int			i;

	memset(sum, 0, sizeof(*sum));
	sum->valid = disks->count > 0;
	for (i = 0; i < disks->count; i++)
	{
		mb_disk		one;

		mb_disk_take(disks->device[i], &one);
		sum->valid &= one.valid;
		sum->reads += one.reads;
		sum->read_sectors += one.read_sectors;
		sum->writes += one.writes;
		sum->write_sectors += one.write_sectors;
		snprintf(sum->device + strlen(sum->device), sizeof(sum->device) - strlen(sum->device),
				 "%s%s", i ? "," : "", disks->device[i]);
	}
}

/* The clients' costs, added up; a figure one client could not count is lost for all. */
static void
sum_costs(mb_run *run, mb_totals *t)
{
	mb_worker_costs *sum = &t->costs;
	bool		hw = true;
	int			i;

	memset(sum, 0, sizeof(*sum));
	t->costs_counted = run->shared->collect_costs;
	for (i = 0; i < run->started; i++)
	{
		const mb_worker_costs *c = &run->shared->slots[i].costs;

		if (!c->measured)
			continue;			/* no event of this client was measured */
		sum->rusage.user_us += c->rusage.user_us;
		sum->rusage.system_us += c->rusage.system_us;
		sum->rusage.voluntary_cs += c->rusage.voluntary_cs;
		sum->rusage.involuntary_cs += c->rusage.involuntary_cs;
		sum->wal_records += c->wal_records;
		sum->wal_fpi += c->wal_fpi;
		sum->wal_bytes += c->wal_bytes;
		sum->shared_hit += c->shared_hit;
		sum->shared_read += c->shared_read;
		sum->shared_dirtied += c->shared_dirtied;
		sum->shared_written += c->shared_written;
		sum->instructions += c->instructions;
		sum->cycles += c->cycles;
		/* the note of the first client that could not count, else what was counted */
		if (hw && (!c->hw_counted || sum->hw_note[0] == '\0'))
			strlcpy(sum->hw_note, c->hw_note, sizeof(sum->hw_note));
		hw &= c->hw_counted;
	}
	sum->hw_counted = hw && t->costs_counted;
	if (!t->costs_counted)
		strlcpy(sum->hw_note, "not collected (microbench.collect_costs is off)",
				sizeof(sum->hw_note));
}

static void
collect_totals(mb_run *run, mb_totals *t)
{
	t->events = sum_counter(run, offsetof(mb_worker_slot, events));
	t->queries = sum_counter(run, offsetof(mb_worker_slot, queries));
	t->errors = sum_counter(run, offsetof(mb_worker_slot, errors));
	merge_histograms(run, &t->latency);
	{
		int			i;
		int			c;

		t->sessions = 0;
		for (c = 0; c < MB_MAX_IGNORED; c++)
			t->errors_by_code[c] = 0;
		for (i = 0; i < run->started; i++)
		{
			t->sessions += run->shared->slots[i].sessions;
			for (c = 0; c < run->shared->n_ignored; c++)
				t->errors_by_code[c] +=
					pg_atomic_read_u64(&run->shared->slots[i].errors_by_code[c]);
		}
	}
}

/* A progress line in sysbench's --report-interval style. */
static void
report_progress(mb_run *run, double elapsed, double interval,
				mb_totals *previous)
{
	mb_totals  *now = palloc(sizeof(mb_totals));
	mb_hist    *delta = palloc(sizeof(mb_hist));
	mb_interval_figures f;
	char		line[256];

	collect_totals(run, now);
	mb_hist_subtract(delta, &now->latency, &previous->latency);
	f.elapsed_s = elapsed;
	f.threads = run->started;
	f.tps = (now->events - previous->events) / interval;
	f.qps = (now->queries - previous->queries) / interval;
	f.p95_ms = mb_hist_percentile_ms(delta, 95.0);
	f.errors_per_s = (now->errors - previous->errors) / interval;
	mb_report_interval_line(line, sizeof(line), &f);
	ereport(NOTICE, (errmsg_internal("%s", line)));
	memcpy(previous, now, sizeof(mb_totals));
	pfree(now);
	pfree(delta);
}

/*
 * The clients' CPU run and wait times, summed, for the per-second samples:
 * read from each worker's /proc/PID/schedstat.  False when one cannot be
 * read, or a client has a new process since the last reading (it
 * reconnected: its counters started again from zero).
 */
static bool
read_clients_sched(mb_run *run, mb_sched *sum)
{
	bool		valid = true;
	int			i;

	if (run->sched_pids == NULL)
		run->sched_pids = MemoryContextAllocZero(TopMemoryContext,
												 sizeof(int) * run->shared->clients);
	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < run->started; i++)
	{
		int			pid = run->shared->slots[i].pid;
		char		path[64];
		mb_sched	one;

		snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
		/* (no pid at the first reading: it only sets the baseline) */
		valid &= pid > 0 && (run->sched_pids[i] == 0 || pid == run->sched_pids[i]) &&
			mb_sched_read(path, &one);
		run->sched_pids[i] = pid;
		if (valid)
		{
			sum->run_ns += one.run_ns;
			sum->wait_ns += one.wait_ns;
		}
	}
	return valid;
}

/*
 * Sleep through a phase of 'seconds' (0: until the event limit is reached),
 * reporting progress if asked.  The measured window (window_start given)
 * also ends when every one of the run's events has begun, and keeps the
 * QPS of each of its seconds in samples.
 */
static void
run_phase(mb_run *run, double seconds, double report_interval,
		  TimestampTz *window_start, mb_samples *samples)
{
	int64		start_us = mb_now_us();
	int64		end_us = seconds > 0 ? start_us + (int64) (seconds * 1e6) : PG_INT64_MAX;
	int64		limit = window_start ? run->shared->event_limit : 0;
	int64		next_report_us = report_interval > 0 ?
		start_us + (int64) (report_interval * 1e6) : PG_INT64_MAX;
	mb_totals  *previous = NULL;

	if (window_start)
		*window_start = GetCurrentTimestamp();
	if (report_interval > 0)
		previous = palloc0(sizeof(mb_totals));

	for (;;)
	{
		int64		now = mb_now_us();
		int64		until = Min(end_us, next_report_us);

		if (samples)
		{
			mb_sched	sched;
			bool		due = mb_samples_due(samples, (uint64) now * 1000);

			mb_samples_tick(samples, (uint64) now * 1000,
							sum_counter(run, offsetof(mb_worker_slot, queries)),
							due && read_clients_sched(run, &sched) ? &sched : NULL);
			/* wake at the next second boundary, so samples are a second long */
			until = Min(until, (int64) (mb_samples_due_ns(samples) / 1000));
		}
		if (now >= end_us)
			break;
		if (limit > 0 &&
			pg_atomic_read_u64(&run->shared->events_claimed) >= (uint64) limit)
			break;
		if (now >= next_report_us)
		{
			report_progress(run, (now - start_us) / 1e6, report_interval, previous);
			next_report_us += (int64) (report_interval * 1e6);
			continue;
		}
		coordinator_wait(run, (long) ((until - now + 999) / 1000));
	}
}

static void
set_phase(mb_run *run, mb_phase phase)
{
	pg_memory_barrier();
	pg_atomic_write_u32(&run->shared->phase, phase);
}

/* What the comparison of this run with others needs (17_verdicts.sql). */
typedef struct mb_verdict_data
{
	mb_samples	samples;		/* QPS (and CPU wait) of each second of the window */
	mb_sched	sched;			/* the clients' CPU times over the window */
	bool		sched_known;
	double		canary_before_us;	/* host-speed canary, <= 0: failed */
	double		canary_after_us;
	char	   *data_state;		/* fingerprint of the tables, jsonb text */
	int			nclients;		/* the clients' processes at the end */
	Datum	   *client_pids;
} mb_verdict_data;

/* A float8[] of v[0..n-1]. */
static Datum
float8_array(const double *v, int n)
{
	Datum	   *items = palloc(sizeof(Datum) * Max(n, 1));
	int			i;

	for (i = 0; i < n; i++)
		items[i] = Float8GetDatum(v[i]);
	return PointerGetDatum(construct_array(items, n, FLOAT8OID, sizeof(float8),
										   FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

/*
 * The result row's columns as they are gathered: a name, a type and a value
 * (or a null) each, for one INSERT with the values bound.
 */
#define MB_MAX_COLUMNS 80
typedef struct mb_row
{
	const char *columns[MB_MAX_COLUMNS];
	Datum		values[MB_MAX_COLUMNS];
	char		nulls[MB_MAX_COLUMNS];
	Oid			types[MB_MAX_COLUMNS];
	int			n;
} mb_row;

static void
add_column(mb_row *row, const char *name, Oid type, Datum value, bool isnull)
{
	Assert(row->n < MB_MAX_COLUMNS);
	row->columns[row->n] = name;
	row->types[row->n] = type;
	row->values[row->n] = value;
	row->nulls[row->n] = isnull ? 'n' : ' ';
	row->n++;
}

/* a null's value is not even computed: it may be undefined then */
#define COL(row_, name_, type_, value_, isnull_) \
	add_column((row_), (name_), (type_), (isnull_) ? (Datum) 0 : (value_), (isnull_))
#define TEXT_COL(row_, name_, str_) \
	COL(row_, name_, TEXTOID, (str_) ? CStringGetTextDatum(str_) : (Datum) 0, (str_) == NULL)
#define INT4_COL(row_, name_, v_, isnull_) COL(row_, name_, INT4OID, Int32GetDatum(v_), isnull_)
#define INT8_COL(row_, name_, v_, isnull_) COL(row_, name_, INT8OID, Int64GetDatum(v_), isnull_)
#define FLOAT8_COL(row_, name_, v_, isnull_) COL(row_, name_, FLOAT8OID, Float8GetDatum(v_), isnull_)

/* What was run, what it did in the window, and on which host. */
static void
add_run_columns(mb_row *row, const mb_request *req, const mb_totals *t,
				TimestampTz started_at, TimestampTz ended_at, double elapsed)
{
	mb_host_facts host;
	int64		rows_scanned = t->rows_scanned;
	bool		is_scan = req->workload->table_per_client;

	mb_host_collect(&host);
	TEXT_COL(row, "label", req->label);
	TEXT_COL(row, "workload", req->workload->name);
	TEXT_COL(row, "phase", req->phase);
	INT4_COL(row, "tables", req->tables, false);
	INT8_COL(row, "table_size", req->table_size, false);
	INT4_COL(row, "range_size", req->range, req->range == 0);
	INT4_COL(row, "clients", req->clients, false);
	TEXT_COL(row, "rand_type", mb_rand_type_name(req->rand_type));
	INT8_COL(row, "seed", req->seed, !req->seeded);
	FLOAT8_COL(row, "seconds", req->seconds, false);
	/* a warm-up of events took no seconds of its own */
	FLOAT8_COL(row, "warmup", req->warmup_events > 0 ? 0 : req->warmup, false);
	COL(row, "started_at", TIMESTAMPTZOID, TimestampTzGetDatum(started_at), false);
	COL(row, "ended_at", TIMESTAMPTZOID, TimestampTzGetDatum(ended_at), false);
	FLOAT8_COL(row, "elapsed_seconds", elapsed, false);
	INT8_COL(row, "events", (int64) t->events, false);
	INT8_COL(row, "queries", (int64) t->queries, false);
	INT8_COL(row, "errors", (int64) t->errors, false);
	INT8_COL(row, "rows_scanned", rows_scanned, !is_scan);
	FLOAT8_COL(row, "qps", t->queries / elapsed, false);
	FLOAT8_COL(row, "tps", t->events / elapsed, false);
	FLOAT8_COL(row, "rows_per_second", rows_scanned / elapsed, !is_scan);
	FLOAT8_COL(row, "lat_avg_ms", mb_hist_avg_ms(&t->latency), t->events == 0);
	FLOAT8_COL(row, "lat_p95_ms", mb_hist_percentile_ms(&t->latency, 95.0), t->events == 0);
	FLOAT8_COL(row, "lat_p99_ms", mb_hist_percentile_ms(&t->latency, 99.0), t->events == 0);
	FLOAT8_COL(row, "lat_max_ms", mb_hist_max_ms(&t->latency), t->events == 0);
	TEXT_COL(row, "host", host.hostname);
	TEXT_COL(row, "cpu_model", host.cpu_model[0] ? host.cpu_model : NULL);
	INT4_COL(row, "cpu_cores", host.cpu_cores, false);
	INT8_COL(row, "memory_bytes", host.memory_bytes, host.memory_bytes == 0);
	TEXT_COL(row, "kernel", host.kernel);
	TEXT_COL(row, "harness_compiler", mb_harness_compiler());
}

/* How the run was driven, and the errors it was told to ignore by code. */
static void
add_driving_columns(mb_row *row, const mb_request *req, const mb_totals *t)
{
	StringInfoData by_code;
	int			c;

	TEXT_COL(row, "ps_mode", req->ps_disable ? "disable" : "auto");
	FLOAT8_COL(row, "rate", req->rate, req->rate == 0);
	INT8_COL(row, "event_limit", req->event_limit, req->event_limit == 0);
	INT8_COL(row, "warmup_events", req->warmup_events, req->warmup_events == 0);
	INT4_COL(row, "reconnect", req->reconnect, req->reconnect == 0);
	INT8_COL(row, "sessions", (int64) t->sessions, false);
	TEXT_COL(row, "ignored_errors", req->ignored_text[0] ? req->ignored_text : NULL);

	initStringInfo(&by_code);
	appendStringInfoChar(&by_code, '{');
	for (c = 0; c < req->n_ignored; c++)
		if (t->errors_by_code[c] > 0)
			appendStringInfo(&by_code, "%s\"%s\": %llu", by_code.len > 1 ? ", " : "",
							 unpack_sql_state(req->ignore_codes[c]),
							 (unsigned long long) t->errors_by_code[c]);
	appendStringInfoChar(&by_code, '}');
	COL(row, "errors_by_code", TEXTOID, CStringGetTextDatum(by_code.data), false);
}

/* What the clients' measured events cost, and the host over the same window. */
static void
add_cost_columns(mb_row *row, const mb_totals *t)
{
	bool		costs = t->costs_counted;
	bool		hw = t->costs.hw_counted;
	bool		cpu = costs && t->host_cpu.valid;
	bool		disk = costs && t->disk.valid;

	FLOAT8_COL(row, "cpu_user_seconds", t->costs.rusage.user_us / 1e6, !costs);
	FLOAT8_COL(row, "cpu_system_seconds", t->costs.rusage.system_us / 1e6, !costs);
	INT8_COL(row, "voluntary_cs", t->costs.rusage.voluntary_cs, !costs);
	INT8_COL(row, "involuntary_cs", t->costs.rusage.involuntary_cs, !costs);
	INT8_COL(row, "wal_records", t->costs.wal_records, !costs);
	INT8_COL(row, "wal_fpi", t->costs.wal_fpi, !costs);
	INT8_COL(row, "wal_bytes", t->costs.wal_bytes, !costs);
	INT8_COL(row, "shared_blks_hit", t->costs.shared_hit, !costs);
	INT8_COL(row, "shared_blks_read", t->costs.shared_read, !costs);
	INT8_COL(row, "shared_blks_dirtied", t->costs.shared_dirtied, !costs);
	INT8_COL(row, "shared_blks_written", t->costs.shared_written, !costs);
	INT8_COL(row, "instructions", (int64) t->costs.instructions, !hw);
	INT8_COL(row, "cycles", (int64) t->costs.cycles, !hw);
	TEXT_COL(row, "hw_counters_note", t->costs.hw_note[0] ? t->costs.hw_note : NULL);
	FLOAT8_COL(row, "host_cpu_user_seconds", t->host_cpu.user_us / 1e6, !cpu);
	FLOAT8_COL(row, "host_cpu_system_seconds", t->host_cpu.system_us / 1e6, !cpu);
	FLOAT8_COL(row, "host_cpu_iowait_seconds", t->host_cpu.iowait_us / 1e6, !cpu);
	FLOAT8_COL(row, "host_cpu_idle_seconds", t->host_cpu.idle_us / 1e6, !cpu);
	FLOAT8_COL(row, "host_cpu_steal_seconds", t->host_cpu.steal_us / 1e6, !cpu);
	INT8_COL(row, "host_context_switches", t->host_cpu.context_switches, !cpu);
	TEXT_COL(row, "disk_device", disk ? t->disk.device : NULL);
	INT8_COL(row, "disk_reads", t->disk.reads, !disk);
	FLOAT8_COL(row, "disk_read_kb", t->disk.read_sectors / 2.0, !disk);
	INT8_COL(row, "disk_writes", t->disk.writes, !disk);
	FLOAT8_COL(row, "disk_write_kb", t->disk.write_sectors / 2.0, !disk);
	TEXT_COL(row, "disk_note", !costs ? "not collected (microbench.collect_costs is off)"
			 : disk ? NULL : t->disk_note);
}

/* The share of each second of the window the clients waited for a CPU. */
static Datum
wait_share_array(const mb_samples *samples)
{
	Datum	   *shares = palloc(sizeof(Datum) * samples->count);
	bool	   *unknown = palloc(sizeof(bool) * samples->count);
	int			dims[1] = {samples->count};
	int			lbs[1] = {1};
	int			i;

	for (i = 0; i < samples->count; i++)
	{
		unknown[i] = samples->wait_share[i] < 0;
		shares[i] = Float8GetDatum(unknown[i] ? 0 : samples->wait_share[i]);
	}
	return PointerGetDatum(construct_md_array(shares, unknown, 1, dims, lbs, FLOAT8OID,
											  sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

/* What a comparison needs to judge this run (17_verdicts.sql). */
static void
add_verdict_columns(mb_row *row, const mb_request *req, const mb_totals *t,
					const mb_verdict_data *v)
{
	double		steady = 0,
				set_aside = 0;
	bool		known;

	COL(row, "qps_per_second", FLOAT8ARRAYOID,
		float8_array(v->samples.qps, v->samples.count), false);
	COL(row, "qps_tenths", FLOAT8ARRAYOID,
		float8_array(v->samples.fine_qps, v->samples.fine_count), v->samples.fine_count == 0);
	known = mb_samples_steady(&v->samples, palloc(sizeof(double) * Max(v->samples.fine_count, 1)),
							  &steady, &set_aside);
	FLOAT8_COL(row, "qps_steady", steady, !known);
	FLOAT8_COL(row, "steady_set_aside", set_aside, !known);
	/* where a count written per process (valgrind's) is to be read */
	COL(row, "client_pids", INT4ARRAYOID,
		PointerGetDatum(construct_array(v->client_pids, v->nclients, INT4OID,
										sizeof(int32), true, TYPALIGN_INT)),
		v->nclients == 0);
	TEXT_COL(row, "instructions_counter", t->costs.hw_counted ? "perf_event" : NULL);
	FLOAT8_COL(row, "canary_before_us", v->canary_before_us, v->canary_before_us <= 0);
	FLOAT8_COL(row, "canary_after_us", v->canary_after_us, v->canary_after_us <= 0);
	TEXT_COL(row, "data_state", v->data_state);
	INT4_COL(row, "round", req->round, req->round == 0);
	FLOAT8_COL(row, "cpu_run_seconds", v->sched.run_ns / 1e9, !v->sched_known);
	FLOAT8_COL(row, "cpu_wait_seconds", v->sched.wait_ns / 1e9, !v->sched_known);
	COL(row, "cpu_wait_per_second", FLOAT8ARRAYOID, wait_share_array(&v->samples), false);
}

#undef COL
#undef TEXT_COL
#undef INT4_COL
#undef INT8_COL
#undef FLOAT8_COL

/* Insert the row, its values bound; the inserted row is SPI's tuple table. */
static void
insert_row(mb_row *row)
{
	StringInfoData sql;
	int			ret;
	int			i;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "INSERT INTO microbench.runs (dbms, version, version_string, compiler, driver, instance");
	for (i = 0; i < row->n; i++)
		appendStringInfo(&sql, ", %s", row->columns[i]);
	appendStringInfoString(&sql, ") VALUES ('postgres', pg_catalog.current_setting('server_version'),"
						   " pg_catalog.version(),"
						   " pg_catalog.substring(pg_catalog.version(), 'compiled by ([^,]+)'),"
						   " 'extension',"
	/* the server start, named as the pgsql driver names it (client/drivers/pgsql/mbm_pgsql.c) */
						   " pg_catalog.format('port %s, started %s', pg_catalog.current_setting('port'),"
						   " pg_catalog.to_char(pg_catalog.pg_postmaster_start_time() AT TIME ZONE 'UTC',"
						   " 'YYYY-MM-DD HH24:MI:SS.US'))");
	for (i = 0; i < row->n; i++)
		appendStringInfo(&sql, ", $%d%s", i + 1,
						 strcmp(row->columns[i], "errors_by_code") == 0 ||
						 strcmp(row->columns[i], "data_state") == 0 ? "::pg_catalog.jsonb" : "");
	appendStringInfoString(&sql, ") RETURNING *");

	ret = SPI_execute_with_args(sql.data, row->n, row->types, row->values, row->nulls, false, 1);
	if (ret != SPI_OK_INSERT_RETURNING || SPI_processed != 1)
		elog(ERROR, "could not record the run in microbench.runs: %s",
			 SPI_result_code_string(ret));
}

/* Insert the result row and return it. */
static Datum
record_result(FunctionCallInfo fcinfo, const mb_request *req,
			  mb_totals *t, TimestampTz started_at, TimestampTz ended_at,
			  double elapsed, const mb_verdict_data *v)
{
	mb_row		row;
	TupleDesc	tupdesc;

	row.n = 0;
	add_run_columns(&row, req, t, started_at, ended_at, elapsed);
	add_driving_columns(&row, req, t);
	add_cost_columns(&row, t);
	add_verdict_columns(&row, req, t, v);
	insert_row(&row);

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "bench_run must return a row type");
	/* copied into the caller's context, so it outlives SPI_finish */
	return PointerGetDatum(SPI_returntuple(SPI_tuptable->vals[0],
										   SPI_tuptable->tupdesc));
}

/*
 * The clients' processes as the run ends: a count that a tool writes per
 * process when it exits (valgrind's, microbench compare --metric
 * instructions) is read for them.
 */
static void
note_clients(mb_run *run, mb_verdict_data *v)
{
	int			i;

	v->nclients = run->started;
	v->client_pids = palloc(sizeof(Datum) * Max(run->started, 1));
	for (i = 0; i < run->started; i++)
		v->client_pids[i] = Int32GetDatum(run->shared->slots[i].pid);
}

/*
 * The clients' CPU run and wait times over the window, from their own
 * readings (which follow a client across reconnects); unknown when one
 * client could not read its own.
 */
static void
sum_sched(mb_run *run, mb_verdict_data *v)
{
	int			i;

	memset(&v->sched, 0, sizeof(v->sched));
	v->sched_known = run->started > 0;
	for (i = 0; i < run->started; i++)
	{
		const mb_worker_slot *slot = &run->shared->slots[i];

		v->sched_known &= !slot->sched_unknown;
		v->sched.run_ns += slot->sched.run_ns;
		v->sched.wait_ns += slot->sched.wait_ns;
	}
}

/*
 * A fingerprint of the data the run is about to read, as jsonb text
 * (mb_data_state.h), over its sbtest tables.  Two labels whose reads saw
 * different fingerprints read different data (a write workload ran in
 * between, a VACUUM did not), and the reports say so.
 */
static char *
data_fingerprint(const mb_request *req)
{
	Datum	   *oids = palloc(sizeof(Datum) * req->tables);
	Oid			argtype = OIDARRAYOID;
	Datum		arg;
	int			t;

	for (t = 1; t <= req->tables; t++)
		oids[t - 1] = ObjectIdGetDatum(sbtest_relid(req->namespace_id, t));
	arg = PointerGetDatum(construct_array(oids, req->tables, OIDOID, sizeof(Oid), true,
										  TYPALIGN_INT));
	/* the search_path is pinned to pg_catalog here (bench_run) */
	if (SPI_execute_with_args(MB_PG_DATA_STATE_SELECT
							  " FROM pg_class c WHERE c.oid = ANY ($1)",
							  1, &argtype, &arg, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "could not read the state of the sbtest tables");
	return SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
}

/*
 * Rows one scan event reads, per client: the live rows of the table that
 * client scans.  Nothing changes the tables during a scan run, so counting
 * them once is exact.
 */
static int64 *
count_scan_rows(const mb_request *req, int tables, int clients)
{
	int64	   *rows = palloc0(sizeof(int64) * clients);
	int			client;
	bool		isnull;

	for (client = 0; client < clients; client++)
	{
		int			t = (client % tables) + 1;
		char	   *sql = psprintf("SELECT count(*) FROM %s.%s",
								   quote_identifier(get_namespace_name(req->namespace_id)),
								   quote_identifier(psprintf("sbtest%d", t)));

		if (SPI_execute(sql, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
			elog(ERROR, "could not count the rows of sbtest%d", t);
		rows[client] = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
												   SPI_tuptable->tupdesc, 1, &isnull));
	}
	return rows;
}

/*
 * The run's shared segment, set up for the request's clients, and the
 * detach callback that stops them on any way out.
 */
static mb_run *
create_run(const mb_request *req)
{
	mb_run	   *run = MemoryContextAllocZero(TopMemoryContext, sizeof(mb_run));
	int			i;
	int			j;

	run->seg = dsm_create(MB_RUN_SHARED_SIZE(req->clients), 0);
	run->shared = dsm_segment_address(run->seg);
	memset(run->shared, 0, MB_RUN_SHARED_SIZE(req->clients));
	run->shared->database_id = MyDatabaseId;
	run->shared->role_id = GetUserId();
	run->shared->workload_index = req->workload_index;
	run->shared->clients = req->clients;
	run->shared->tables = req->tables;
	run->shared->table_size = req->table_size;
	run->shared->range = req->range;
	run->shared->rand_type = req->rand_type;
	run->shared->seeded = req->seeded;
	run->shared->seed = (uint64) req->seed;
	run->shared->collect_costs = mb_collect_costs;
	run->shared->ps_disable = req->ps_disable;
	run->shared->rate = req->rate;
	run->shared->event_limit = req->event_limit;
	run->shared->warmup_events = req->warmup_events;
	run->shared->count_window = req->count_window;
	run->shared->reconnect = req->reconnect;
	run->shared->n_ignored = req->n_ignored;
	memcpy(run->shared->ignore_codes, req->ignore_codes, sizeof(req->ignore_codes));
	run->shared->coordinator_latch = MyLatch;
	pg_atomic_init_u64(&run->shared->events_claimed, 0);
	pg_atomic_init_u64(&run->shared->warmup_claimed, 0);
	pg_atomic_init_u64(&run->shared->warmup_done, 0);
	strlcpy(run->shared->schema, get_namespace_name(req->namespace_id), NAMEDATALEN);
	pg_atomic_init_u32(&run->shared->phase, MB_PHASE_SETUP);
	for (i = 0; i < req->clients; i++)
	{
		mb_worker_slot *slot = &run->shared->slots[i];

		pg_atomic_init_u32(&slot->state, MB_WORKER_STARTING);
		pg_atomic_init_u64(&slot->events, 0);
		pg_atomic_init_u64(&slot->queries, 0);
		pg_atomic_init_u64(&slot->errors, 0);
		for (j = 0; j < MB_MAX_IGNORED; j++)
			pg_atomic_init_u64(&slot->errors_by_code[j], 0);
	}
	active_run = run;
	on_dsm_detach(run->seg, abort_workers, (Datum) 0);
	return run;
}

/* Setup: all clients connected and prepared, or an error. */
static void
await_clients_ready(mb_run *run)
{
	int64		setup_deadline = mb_now_us() + MB_SETUP_TIMEOUT_US;

	while (!all_workers_in(run, MB_WORKER_READY))
	{
		if (mb_now_us() > setup_deadline)
			ereport(ERROR,
					(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
					 errmsg("benchmark clients were not ready after %d seconds",
							(int) (MB_SETUP_TIMEOUT_US / 1000000)),
					 errhint("A lock on the sbtest tables may be held by another session or by this transaction; commit it and retry.")));
		coordinator_wait(run, 10);
	}
}

/* The per-second samples of a window of req->seconds, starting now. */
static void
start_samples(mb_run *run, const mb_request *req, mb_samples *samples)
{
	int			capacity = mb_samples_capacity(req->seconds);
	mb_sched	sched;

	mb_samples_init(samples, palloc(sizeof(double) * capacity),
					palloc(sizeof(double) * capacity), capacity,
					(uint64) mb_now_us() * 1000,
					read_clients_sched(run, &sched) ? &sched : NULL);
	capacity = mb_samples_fine_capacity(req->seconds);
	mb_samples_set_fine(samples, palloc(sizeof(double) * capacity), capacity);
}

/* The host's CPU and disk at the window's start (microbench.collect_costs). */
typedef struct mb_host_window
{
	mb_data_disks disks;
	mb_host_cpu cpu_start;
	mb_disk		disk_start;
} mb_host_window;

static void
host_window_start(mb_host_window *hw)
{
	if (!mb_collect_costs)
		return;
	find_data_disks(&hw->disks);
	take_disks(&hw->disks, &hw->disk_start);
	mb_host_cpu_take(&hw->cpu_start);
}

/* The host's CPU and disk over the window into t. */
static void
host_window_end(const mb_host_window *hw, mb_totals *t)
{
	mb_host_cpu cpu_end;
	mb_disk		disk_end;

	if (!mb_collect_costs)
		return;
	mb_host_cpu_take(&cpu_end);
	take_disks(&hw->disks, &disk_end);
	mb_host_cpu_delta(&t->host_cpu, &cpu_end, &hw->cpu_start);
	mb_disk_delta(&t->disk, &disk_end, &hw->disk_start);
	strlcpy(t->disk_note, hw->disks.note, sizeof(t->disk_note));
}

/*
 * The window ends when the last measured event did, at least a microsecond
 * after it began: the events in flight at the stop are counted in it.
 */
static int64
window_end(mb_run *run, int64 window_start_us)
{
	int64		end_us = 0;
	int			i;

	for (i = 0; i < run->started; i++)
		end_us = Max(end_us, run->shared->slots[i].last_event_end_us);
	return Max(end_us, window_start_us + 1);
}

/*
 * The warm-up: warmup seconds of events, or exactly warmup_events of them
 * (every one finished); then, asked for, a checkpoint, as the caller's
 * own CHECKPOINT (superuser or pg_checkpoint).  With no warm-up, every
 * event a client runs is a measured one.
 */
static void
warm_up(mb_run *run, const mb_request *req)
{
	if (req->warmup_events > 0)
	{
		set_phase(run, MB_PHASE_WARMUP);
		while (pg_atomic_read_u64(&run->shared->warmup_done) < (uint64) req->warmup_events)
			coordinator_wait(run, 10);
	}
	else if (req->warmup > 0)
	{
		set_phase(run, MB_PHASE_WARMUP);
		run_phase(run, req->warmup, 0, NULL, NULL);
	}
	if (req->checkpoint && SPI_execute("CHECKPOINT", false, 0) != SPI_OK_UTILITY)
		elog(ERROR, "CHECKPOINT before the window failed");
}

/* Rows the scan clients read: each one's events times its table's rows. */
static int64
sum_rows_scanned(mb_run *run, const int64 *scan_rows)
{
	int64		rows = 0;
	int			i;

	for (i = 0; scan_rows != NULL && i < run->started; i++)
		rows += (int64) pg_atomic_read_u64(&run->shared->slots[i].events) * scan_rows[i];
	return rows;
}

Datum
bench_run(PG_FUNCTION_ARGS)
{
	mb_request	req;
	mb_run	   *run;
	mb_totals  *totals;
	int64		window_start_us;
	int64		window_end_us;
	TimestampTz started_at;
	TimestampTz ended_at;
	double		elapsed;
	int64	   *scan_rows = NULL;
	int			i;
	int			guc_nest_level;
	mb_host_window host_window;
	mb_verdict_data verdict;
	Datum		result;

	mb_check_sql_version();
	parse_request(fcinfo, &req);
	mb_check_worker_role(GetUserId(), req.clients);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* the caller's search_path finds the tables ... */
	req.tables = find_tables(&req, req.tables);
	/* ... and nothing else: our own queries must not be redirected by it */
	guc_nest_level = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp",
							 PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE,
							 true, 0, false);
	req.table_size = find_table_size(req.namespace_id);
	if (req.workload->table_per_client)
		scan_rows = count_scan_rows(&req, req.tables, req.clients);
	verdict.data_state = data_fingerprint(&req);

	run = create_run(&req);

	/*
	 * The machine's speed, timed before the clients exist and again after
	 * they have exited: on a server pinned to one CPU, a client still
	 * starting up or tearing down would compete with the canary.
	 */
	verdict.canary_before_us = mb_canary_run_us();
	start_workers(run, &req);
	await_clients_ready(run);

	warm_up(run, &req);

	host_window_start(&host_window);
	start_samples(run, &req, &verdict.samples);
	set_phase(run, MB_PHASE_MEASURE);
	window_start_us = verdict.samples.start_ns / 1000;
	run_phase(run, req.seconds, req.report_interval, &started_at, &verdict.samples);
	set_phase(run, MB_PHASE_STOP);

	/* let every client finish the event in flight; it is counted */
	while (!all_workers_in(run, MB_WORKER_DONE))
		coordinator_wait(run, 1);
	totals = palloc0(sizeof(mb_totals));
	host_window_end(&host_window, totals);
	window_end_us = window_end(run, window_start_us);
	elapsed = (window_end_us - window_start_us) / 1e6;
	ended_at = started_at + (window_end_us - window_start_us);

	collect_totals(run, totals);
	{
		mb_sched	sched;

		mb_samples_finish(&verdict.samples, (uint64) window_end_us * 1000, totals->queries,
						  read_clients_sched(run, &sched) ? &sched : NULL);
	}
	sum_sched(run, &verdict);
	note_clients(run, &verdict);
	sum_costs(run, totals);
	totals->rows_scanned = sum_rows_scanned(run, scan_rows);

	for (i = 0; i < run->started; i++)
		WaitForBackgroundWorkerShutdown(run->handles[i]);
	verdict.canary_after_us = mb_canary_run_us();
	dsm_detach(run->seg);

	result = record_result(fcinfo, &req, totals, started_at, ended_at, elapsed, &verdict);
	AtEOXact_GUC(true, guc_nest_level);
	SPI_finish();
	PG_RETURN_DATUM(result);
}

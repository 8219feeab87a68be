/*
 * mb_suite.c — what bench_suite needs from C: the post-write maintenance.
 * (The suite's order is data: microbench.suite_order, generated from
 * common/mb_suite.c into the results schema.)
 *
 * microbench_vacuum_analyze() runs VACUUM (ANALYZE) on the
 * sbtest tables: VACUUM refuses to run inside a function or procedure, so a
 * background worker, connected as the caller, runs it at top level the way a
 * client's own VACUUM would run, and the caller waits for it.
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/namespace.h"
#include "commands/vacuum.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "parser/parse_node.h"
#include "parser/parser.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "mb_shared.h"

PG_FUNCTION_INFO_V1(microbench_vacuum_analyze);

PGDLLEXPORT void mb_maintenance_main(Datum main_arg);

/* What the caller hands the maintenance worker, and what it hands back. */
typedef struct mb_maintenance_shared
{
	Oid			database_id;
	Oid			role_id;
	int			tables;
	char		schema[NAMEDATALEN];
	bool		done;
	bool		failed;
	mb_error_report error;
} mb_maintenance_shared;

/* VACUUM (ANALYZE) one table as a top-level statement of this session. */
static void
vacuum_analyze_table(const char *schema, int table)
{
	char	   *sql = psprintf("VACUUM (ANALYZE) %s.%s", quote_identifier(schema),
							   quote_identifier(psprintf("sbtest%d", table)));
	List	   *parsed;
	RawStmt    *raw;
	ParseState *pstate;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	pgstat_report_activity(STATE_RUNNING, sql);
#if PG_VERSION_NUM >= 140000
	parsed = raw_parser(sql, RAW_PARSE_DEFAULT);
#else
	parsed = raw_parser(sql);
#endif
	raw = linitial_node(RawStmt, parsed);
	pstate = make_parsestate(NULL);
	pstate->p_sourcetext = sql;
	/* isTopLevel: VACUUM manages its own transactions, as for a client */
	ExecVacuum(pstate, castNode(VacuumStmt, raw->stmt), true);
	CommitTransactionCommand();
}

void
mb_maintenance_main(Datum main_arg)
{
	dsm_segment *seg;
	mb_maintenance_shared *shared;
	int			t;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("microbench maintenance worker could not map its shared memory")));
	shared = dsm_segment_address(seg);
	mb_worker_connect(shared->database_id, shared->role_id);

	PG_TRY();
	{
		for (t = 1; t <= shared->tables; t++)
			vacuum_analyze_table(shared->schema, t);
	}
	PG_CATCH();
	{
		mb_error_capture(&shared->error);
		shared->failed = true;
		PG_RE_THROW();
	}
	PG_END_TRY();
	pg_memory_barrier();
	shared->done = true;
	dsm_detach(seg);
	proc_exit(0);
}

/* Terminate the worker if the caller's query ends early. */
static void
maintenance_detach(dsm_segment *seg, Datum arg)
{
	BackgroundWorkerHandle *handle = (BackgroundWorkerHandle *) DatumGetPointer(arg);

	TerminateBackgroundWorker(handle);
}

Datum
microbench_vacuum_analyze(PG_FUNCTION_ARGS)
{
	int			tables = PG_GETARG_INT32(0);
	Oid			relid = RelnameGetRelid("sbtest1");
	dsm_segment *seg;
	mb_maintenance_shared *shared;
	BackgroundWorkerHandle *handle;
	pid_t		pid;

	mb_check_sql_version();
	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table \"sbtest1\" does not exist in the search path"),
				 errhint("Run SELECT bench_prepare(); to create and load the sbtest tables.")));
	if (tables < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tables must be positive, not %d", tables)));

	mb_check_worker_role(GetUserId(), 1);
	seg = dsm_create(sizeof(mb_maintenance_shared), 0);
	shared = dsm_segment_address(seg);
	memset(shared, 0, sizeof(*shared));
	shared->database_id = MyDatabaseId;
	shared->role_id = GetUserId();
	shared->tables = tables;
	strlcpy(shared->schema, get_namespace_name(get_rel_namespace(relid)), NAMEDATALEN);

	handle = mb_register_worker("mb_maintenance_main", "microbench maintenance", seg, 0);
	if (handle == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start the maintenance worker"),
				 errhint("Raise max_worker_processes (restart needed).")));
	on_dsm_detach(seg, maintenance_detach, PointerGetDatum(handle));

	if (WaitForBackgroundWorkerStartup(handle, &pid) != BGWH_STARTED &&
		!shared->done && !shared->failed)
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("the maintenance worker did not start")));
	WaitForBackgroundWorkerShutdown(handle);
	pg_memory_barrier();
	if (shared->failed)
		mb_error_rethrow(&shared->error, "VACUUM (ANALYZE) of the sbtest tables failed");
	if (!shared->done)
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("the maintenance worker exited before VACUUM (ANALYZE) finished")));
	dsm_detach(seg);
	pfree(handle);
	PG_RETURN_VOID();
}

/*
 * mb_load.c — microbench_load_table(): the bulk loader behind bench_prepare.
 *
 * bench_prepare (SQL, in the install script) creates each sbtest table and
 * its two indexes, still empty, and calls this function in the same
 * transaction to fill them.  Rows are built in C with the catalog's value
 * generator, each straight into a copy of a template tuple
 * (mb_load_rows.c).  Neither path below maintains indexes row by row: the
 * direct path builds the indexes on id and k from the rows it writes, and
 * every other index is built by Postgres after the load, as REINDEX builds
 * one.
 *
 * The rows are written frozen, as COPY FREEZE writes them, only when that
 * is safe, by COPY FREEZE's own rules: the table's file was made in the
 * current subtransaction (created, or truncated), so that a rollback removes
 * every row with the file; no cursor of this session is open, and no query
 * in progress has the table open, so no older snapshot can ever scan the
 * table and see rows it should not.  Frozen rows cost the first benchmark
 * nothing: no reader has to set hint bits or freeze them later.
 *
 * Three paths, chosen per call and named in the result:
 *
 * - "direct" (mb_load_pages.c): heap pages, visibility map and the indexes
 *   on id and k written as pages past shared buffers.  Only in builds that
 *   have it (MB_DIRECT_PAGES: the majors whose page layouts CI proves), with
 *   microbench.direct_load on, when freezing is safe, into an empty
 *   permanent heap table that is not logically decoded (the decoder needs
 *   each row's record).
 * - "bulk-insert, frozen": Postgres's bulk-insert path (table_multi_insert,
 *   as COPY FREEZE), where freezing is safe but the direct path is not
 *   taken.
 * - "bulk-insert": the same with rows that are not frozen, visible only as
 *   the current subtransaction commits, as any insert's.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/index.h"
#include "catalog/pg_am_d.h"
#include "catalog/storage.h"
#include "commands/trigger.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/portal.h"
#include "utils/rel.h"
#include "utils/relcache.h"

#include "mb_direct_pages.h"
#include "mb_load.h"
#include "mb_load_pages.h"
#include "mb_load_rollback.h"
#include "mb_load_rows.h"
#include "mb_shared.h"

PG_FUNCTION_INFO_V1(microbench_load_table);

bool		mb_direct_load = true;

/* rows per table_multi_insert call on the bulk-insert path */
#define MB_LOAD_BATCH 1000

#if PG_VERSION_NUM >= 160000
#define mb_set_new_file(rel, persistence) RelationSetNewRelfilenumber(rel, persistence)
#else
#define mb_set_new_file(rel, persistence) RelationSetNewRelfilenode(rel, persistence)
#endif

typedef enum mb_load_path
{
	MB_LOAD_DIRECT,
	MB_LOAD_BULK_FROZEN,
	MB_LOAD_BULK
} mb_load_path;

static const char *const load_path_names[] = {"direct", "bulk-insert, frozen", "bulk-insert"};

/* A new row for the bulk-insert path: the template with id's values. */
static HeapTuple
make_row(const mb_row_template *tpl, int32 id, mb_rng *rng, uint32 table_size)
{
	HeapTuple	tuple = palloc(tpl->size);

	memcpy(tuple, tpl->tuple, tpl->size);
	tuple->t_data = (HeapTupleHeader) ((char *) tuple + HEAPTUPLESIZE);
	mb_load_fill_row(tpl, (char *) tuple->t_data, id, rng, table_size);
	return tuple;
}

/* N of sbtestN; 0 for a table named otherwise */
static uint64
table_number(const char *relname)
{
	unsigned int n;
	char		extra;

	if (sscanf(relname, "sbtest%u%c", &n, &extra) == 1)
		return n;
	return 0;
}

/*
 * Whether rows may be written frozen, by COPY FREEZE's rules: a rollback of
 * this subtransaction must take them with the file, and no snapshot older
 * than the load may ever scan the table.  Such a snapshot belongs to an
 * open cursor (a ready portal: plpgsql's FOR loops too), or to a query in
 * progress that has the table open (its refcount beyond ours), say one that
 * calls this function while it scans the table.  COPY FREEZE checks for
 * the first with the registered snapshots themselves, which any call from a
 * function also has; the table's refcount says directly whether a running
 * query reads it.
 */
static bool
freezing_is_safe(Relation rel)
{
	return mb_load_file_is_new_here(rel) &&
		ThereAreNoReadyPortals() &&
		rel->rd_refcnt == 1 &&
		!AfterTriggerPendingOnRel(RelationGetRelid(rel));
}

static mb_load_path
choose_path(Relation rel)
{
	if (!freezing_is_safe(rel))
		return MB_LOAD_BULK;
#ifdef MB_DIRECT_PAGES
	if (mb_direct_load &&
		rel->rd_rel->relam == HEAP_TABLE_AM_OID &&
		rel->rd_rel->relpersistence == RELPERSISTENCE_PERMANENT &&
		!RelationIsLogicallyLogged(rel) &&
		RelationGetNumberOfBlocks(rel) == 0)
		return MB_LOAD_DIRECT;
#endif
	return MB_LOAD_BULK_FROZEN;
}

/* The rows on Postgres's bulk-insert path, as COPY (FREEZE) writes them. */
static void
load_through_buffers(Relation rel, const mb_row_template *tpl, int64 table_size,
					 mb_rng *rng, bool frozen)
{
	BulkInsertState bistate = GetBulkInsertState();
	TupleTableSlot *slots[MB_LOAD_BATCH];
	CommandId	cid = GetCurrentCommandId(true);
	int			options = TABLE_INSERT_SKIP_FSM | (frozen ? TABLE_INSERT_FROZEN : 0);
	bool		first_batch = true;
	int64		id;
	int			i;

	for (i = 0; i < MB_LOAD_BATCH; i++)
		slots[i] = MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsHeapTuple);

	for (id = 1; id <= table_size;)
	{
		int			n = 0;

		CHECK_FOR_INTERRUPTS();
		/* the slots own the rows: storing the next one frees the last */
		for (; n < MB_LOAD_BATCH && id <= table_size; n++, id++)
			ExecStoreHeapTuple(make_row(tpl, (int32) id, rng, (uint32) table_size),
							   slots[n], true);
		table_multi_insert(rel, slots, n, cid, options, bistate);
		if (first_batch)
			mb_load_reached(MB_LOAD_STEP_FIRST_BATCH);
		first_batch = false;
	}

	for (i = 0; i < MB_LOAD_BATCH; i++)
		ExecDropSingleTupleTableSlot(slots[i]);
	FreeBulkInsertState(bistate);
	table_finish_bulk_insert(rel, options);
}

/*
 * Builds the table's indexes that the load did not (those not in "built")
 * from its rows, as REINDEX does: each gets a new, empty file and is built
 * into it.  A rollback of this subtransaction discards the new file and the
 * old one comes back intact; and, unlike a file truncated in place, a new
 * small file is WAL-logged at commit under wal_level = minimal, as the
 * table's is.
 */
static void
build_other_indexes(Relation rel, List *index_oids, List *built)
{
	ListCell   *lc;
	bool		first = true;

	foreach(lc, index_oids)
	{
		Relation	index;
		IndexInfo  *info;

		if (list_member_oid(built, lfirst_oid(lc)))
			continue;
		index = index_open(lfirst_oid(lc), AccessExclusiveLock);
		info = BuildIndexInfo(index);
		mb_set_new_file(index, index->rd_rel->relpersistence);
		index_build(rel, index, info, true, true);
		index_close(index, NoLock);
		if (first)
			mb_load_reached(MB_LOAD_STEP_AFTER_INDEX);
		first = false;
	}
}

Datum
microbench_load_table(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int64		table_size = PG_GETARG_INT64(1);
	uint64		seed = PG_ARGISNULL(2) ? mb_now_ns() : (uint64) PG_GETARG_INT64(2);
	Relation	rel;
	mb_row_template tpl;
	mb_rng		rng;
	mb_load_path path;
	List	   *index_oids;
	List	   *built = NIL;

	mb_check_sql_version();
	if (table_size < 0 || table_size > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("table_size must be between 0 and %d, not %lld",
						PG_INT32_MAX, (long long) table_size)));

	rel = table_open(relid, RowExclusiveLock);
	if (pg_class_aclcheck(relid, GetUserId(), ACL_INSERT) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for table %s", RelationGetRelationName(rel))));
	if (rel->rd_rel->relkind != RELKIND_RELATION)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table", RelationGetRelationName(rel))));
	/* indexes are rebuilt whole: only a table no other transaction can see */
	if (rel->rd_createSubid == InvalidSubTransactionId &&
		MB_NEW_FILE_SUBID(rel) == InvalidSubTransactionId)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table \"%s\" was not created or truncated in the current transaction",
						RelationGetRelationName(rel)),
				 errhint("Use bench_prepare(), which creates and loads the tables together.")));
	mb_load_check_shape(rel);

	/*
	 * The stream is the table's number, as in microbench-mysql prepare: one
	 * seed gives the same rows every time and in every DBMS.
	 */
	mb_rng_seed(&rng, seed, table_number(RelationGetRelationName(rel)));
	mb_load_make_template(rel, &tpl);
	index_oids = RelationGetIndexList(rel);
	path = choose_path(rel);
	if (path == MB_LOAD_BULK)
		ereport(NOTICE,
				(errmsg("the rows of \"%s\" are not written frozen: it was not created or truncated in this subtransaction, or a cursor or query of this session could read it",
						RelationGetRelationName(rel)),
				 errhint("Run VACUUM (FREEZE) on it before measuring, so that the first runs do not pay for setting hint bits.")));
#ifdef MB_DIRECT_PAGES
	if (path == MB_LOAD_DIRECT)
		built = mb_load_pages(rel, &tpl, table_size, &rng, index_oids);
	else
#endif
	{
		load_through_buffers(rel, &tpl, table_size, &rng, path == MB_LOAD_BULK_FROZEN);
		mb_load_reached(MB_LOAD_STEP_INDEXES);
	}
	build_other_indexes(rel, index_oids, built);
	heap_freetuple(tpl.tuple);
	table_close(rel, NoLock);
	mb_load_reached(MB_LOAD_STEP_END);

	PG_RETURN_TEXT_P(cstring_to_text(load_path_names[path]));
}

/*
 * mb_load.c — microbench_load_table(): the bulk loader behind bench_prepare.
 *
 * bench_prepare (SQL, in the install script) creates each sbtest table and
 * calls this function in the same transaction to fill it; it adds the
 * primary key and the k index afterwards, since building an index once is
 * far cheaper than maintaining it row by row.  Rows are built here in C with
 * the catalog's value generator and written with table_multi_insert, the path
 * COPY uses, in batches.  Because the table was created in this very
 * transaction, rows can be written frozen (as COPY FREEZE does): no reader
 * ever has to set hint bits or freeze them later, so the first benchmark
 * does not pay for the load's housekeeping.
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "mb_shared.h"
#include "mb_values.h"

PG_FUNCTION_INFO_V1(microbench_load_table);

#define MB_LOAD_BATCH 1000

/* char(120) and char(60) are stored blank-padded to their length. */
#define MB_C_WIDTH	120
#define MB_PAD_WIDTH 60

/* The table must be (id int4, k int4, c char(120), pad char(60)). */
static void
check_shape(Relation rel)
{
	TupleDesc	desc = RelationGetDescr(rel);
	static const char *const names[] = {"id", "k", "c", "pad"};
	static const Oid types[] = {INT4OID, INT4OID, BPCHAROID, BPCHAROID};
	static const int32 typmods[] = {-1, -1, MB_C_WIDTH + VARHDRSZ, MB_PAD_WIDTH + VARHDRSZ};
	int			i;

	if (desc->natts != 4)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("table \"%s\" does not have the sbtest columns",
						RelationGetRelationName(rel))));
	for (i = 0; i < 4; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (att->attisdropped || strcmp(NameStr(att->attname), names[i]) != 0 ||
			att->atttypid != types[i] || att->atttypmod != typmods[i])
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("column %d of table \"%s\" is not %s of the sbtest layout",
							i + 1, RelationGetRelationName(rel), names[i])));
	}
}

/* A blank-padded bpchar datum of 'width' chars whose first 'len' come from fill. */
static Datum
make_bpchar(char *storage, int width)
{
	SET_VARSIZE(storage, VARHDRSZ + width);
	return PointerGetDatum(storage);
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

Datum
microbench_load_table(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int64		table_size = PG_GETARG_INT64(1);
	uint64		seed = PG_ARGISNULL(2) ? mb_now_ns() : (uint64) PG_GETARG_INT64(2);
	Relation	rel;
	BulkInsertState bistate;
	TupleTableSlot *slots[MB_LOAD_BATCH];
	MemoryContext batch_cxt;
	MemoryContext oldcxt;
	CommandId	cid = GetCurrentCommandId(true);
	int			options = TABLE_INSERT_SKIP_FSM | TABLE_INSERT_FROZEN;
	mb_rng		rng;
	int64		id;
	int			i;

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
	/* frozen rows are only safe in a table no other transaction has seen */
	if (rel->rd_createSubid == InvalidSubTransactionId)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("table \"%s\" was not created in the current transaction",
						RelationGetRelationName(rel)),
				 errhint("Use bench_prepare(), which creates and loads the tables together.")));
	check_shape(rel);

	/*
	 * The stream is the table's number, as in microbench-mysql prepare: one
	 * seed gives the same rows every time and in every DBMS.
	 */
	mb_rng_seed(&rng, seed, table_number(RelationGetRelationName(rel)));
	bistate = GetBulkInsertState();
	for (i = 0; i < MB_LOAD_BATCH; i++)
		slots[i] = table_slot_create(rel, NULL);
	batch_cxt = AllocSetContextCreate(CurrentMemoryContext, "microbench load batch",
									  ALLOCSET_DEFAULT_SIZES);

	for (id = 1; id <= table_size;)
	{
		int			n = 0;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(batch_cxt);
		oldcxt = MemoryContextSwitchTo(batch_cxt);
		for (; n < MB_LOAD_BATCH && id <= table_size; n++, id++)
		{
			TupleTableSlot *slot = slots[n];
			char	   *c = palloc(VARHDRSZ + MB_C_WIDTH);
			char	   *pad = palloc(VARHDRSZ + MB_PAD_WIDTH);

			mb_values_c(&rng, VARDATA(c));
			memset(VARDATA(c) + MB_C_LEN, ' ', MB_C_WIDTH - MB_C_LEN);
			mb_values_pad(&rng, VARDATA(pad));
			memset(VARDATA(pad) + MB_PAD_LEN, ' ', MB_PAD_WIDTH - MB_PAD_LEN);

			ExecClearTuple(slot);
			slot->tts_values[0] = Int32GetDatum((int32) id);
			slot->tts_values[1] = Int32GetDatum((int32) mb_rng_uniform(&rng, 1, (uint32) table_size));
			slot->tts_values[2] = make_bpchar(c, MB_C_WIDTH);
			slot->tts_values[3] = make_bpchar(pad, MB_PAD_WIDTH);
			memset(slot->tts_isnull, 0, sizeof(bool) * 4);
			ExecStoreVirtualTuple(slot);
		}
		MemoryContextSwitchTo(oldcxt);
		table_multi_insert(rel, slots, n, cid, options, bistate);
	}

	for (i = 0; i < MB_LOAD_BATCH; i++)
		ExecDropSingleTupleTableSlot(slots[i]);
	FreeBulkInsertState(bistate);
	table_finish_bulk_insert(rel, options);
	MemoryContextDelete(batch_cxt);
	table_close(rel, NoLock);

	PG_RETURN_INT64(table_size);
}

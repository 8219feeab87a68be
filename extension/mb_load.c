/*
 * mb_load.c — microbench_load_table(): the bulk loader behind bench_prepare.
 *
 * bench_prepare (SQL, in the install script) creates each sbtest table and
 * calls this function in the same transaction to fill it; it adds the
 * primary key and the k index afterwards, since building an index once is
 * far cheaper than maintaining it row by row.  Rows are built here in C with
 * the catalog's value generator, each straight into a copy of a template
 * tuple, and written with table_multi_insert, the path COPY uses, in
 * batches.  Because the table was created in this very
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

/*
 * Every row has the same shape and size, so each is a copy of one template
 * tuple with its four values written in place: no per-row datums, no
 * second copy of the data into a tuple.  The template comes from
 * heap_form_tuple itself, so its header and layout (alignment, short varlena
 * headers, blank padding) are exactly what Postgres would build; the places
 * of c's and pad's characters in it are found by searching for marker
 * values.
 */
typedef struct mb_row_template
{
	HeapTuple	tuple;			/* header and data of any row */
	Size		size;			/* HEAPTUPLESIZE + t_len */
	int			id_offset;		/* offsets of the values from t_data */
	int			k_offset;
	int			c_offset;
	int			pad_offset;
} mb_row_template;

/* the offset of the first len-byte run of ch in tuple data, or -1 */
static int
find_run(HeapTuple tuple, char ch, int len)
{
	const char *data = (const char *) tuple->t_data;
	int			i;
	int			run = 0;

	for (i = tuple->t_data->t_hoff; i < (int) tuple->t_len; i++)
	{
		run = data[i] == ch ? run + 1 : 0;
		if (run == len)
			return i - len + 1;
	}
	return -1;
}

static void
make_row_template(Relation rel, mb_row_template *tpl)
{
	TupleDesc	desc = RelationGetDescr(rel);
	char	   *c = palloc(VARHDRSZ + MB_C_WIDTH);
	char	   *pad = palloc(VARHDRSZ + MB_PAD_WIDTH);
	Datum		values[4];
	bool		isnull[4] = {false, false, false, false};

	/* distinct markers: the ids and digits cannot contain them */
	memset(VARDATA(c), 'C', MB_C_LEN);
	memset(VARDATA(c) + MB_C_LEN, ' ', MB_C_WIDTH - MB_C_LEN);
	SET_VARSIZE(c, VARHDRSZ + MB_C_WIDTH);
	memset(VARDATA(pad), 'P', MB_PAD_LEN);
	memset(VARDATA(pad) + MB_PAD_LEN, ' ', MB_PAD_WIDTH - MB_PAD_LEN);
	SET_VARSIZE(pad, VARHDRSZ + MB_PAD_WIDTH);
	/* the ints as marker bytes too: 0x49494949 ('IIII'), 0x4b4b4b4b ('KKKK') */
	values[0] = Int32GetDatum(0x49494949);
	values[1] = Int32GetDatum(0x4b4b4b4b);
	values[2] = PointerGetDatum(c);
	values[3] = PointerGetDatum(pad);

	tpl->tuple = heap_form_tuple(desc, values, isnull);
	tpl->size = HEAPTUPLESIZE + tpl->tuple->t_len;
	tpl->id_offset = find_run(tpl->tuple, 'I', 4);
	tpl->k_offset = find_run(tpl->tuple, 'K', 4);
	tpl->c_offset = find_run(tpl->tuple, 'C', MB_C_LEN);
	tpl->pad_offset = find_run(tpl->tuple, 'P', MB_PAD_LEN);
	if (tpl->id_offset < 0 || tpl->k_offset < 0 || tpl->c_offset < 0 || tpl->pad_offset < 0)
		elog(ERROR, "could not find the columns in a row of \"%s\"",
			 RelationGetRelationName(rel));
	pfree(c);
	pfree(pad);
}

/* A new row: the template with these values, c and pad drawn from rng. */
static HeapTuple
make_row(const mb_row_template *tpl, int32 id, mb_rng *rng, uint32 table_size)
{
	HeapTuple	tuple = palloc(tpl->size);
	char	   *data;
	int32		k;

	memcpy(tuple, tpl->tuple, tpl->size);
	tuple->t_data = (HeapTupleHeader) ((char *) tuple + HEAPTUPLESIZE);
	data = (char *) tuple->t_data;
	/* draws in the catalog's order: c, pad, then k */
	mb_values_c(rng, data + tpl->c_offset);
	mb_values_pad(rng, data + tpl->pad_offset);
	k = (int32) mb_rng_uniform(rng, 1, table_size);
	memcpy(data + tpl->id_offset, &id, sizeof(id));
	memcpy(data + tpl->k_offset, &k, sizeof(k));
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

Datum
microbench_load_table(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int64		table_size = PG_GETARG_INT64(1);
	uint64		seed = PG_ARGISNULL(2) ? mb_now_ns() : (uint64) PG_GETARG_INT64(2);
	Relation	rel;
	BulkInsertState bistate;
	TupleTableSlot *slots[MB_LOAD_BATCH];
	mb_row_template tpl;
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
	make_row_template(rel, &tpl);
	bistate = GetBulkInsertState();
	for (i = 0; i < MB_LOAD_BATCH; i++)
		slots[i] = MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsHeapTuple);

	for (id = 1; id <= table_size;)
	{
		int			n = 0;

		CHECK_FOR_INTERRUPTS();
		/* the slots own the rows: storing the next one frees the last */
		for (; n < MB_LOAD_BATCH && id <= table_size; n++, id++)
			ExecStoreHeapTuple(make_row(&tpl, (int32) id, &rng, (uint32) table_size),
							   slots[n], true);
		table_multi_insert(rel, slots, n, cid, options, bistate);
	}

	for (i = 0; i < MB_LOAD_BATCH; i++)
		ExecDropSingleTupleTableSlot(slots[i]);
	FreeBulkInsertState(bistate);
	table_finish_bulk_insert(rel, options);
	heap_freetuple(tpl.tuple);
	table_close(rel, NoLock);

	PG_RETURN_INT64(table_size);
}

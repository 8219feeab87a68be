/*
 * mb_load.c — microbench_load_table(): the bulk loader behind bench_prepare.
 *
 * bench_prepare (SQL, in the install script) creates each sbtest table and
 * its two indexes, still empty, and calls this function in the same
 * transaction to fill them.  The direct path below builds the indexes on id
 * and k from the rows it writes (mb_btree.c), with no scan of the table and
 * no general sort; any other index, and every index on the bulk-insert
 * path, is built by Postgres after the load, as TRUNCATE rebuilds the
 * indexes of a table created in the same transaction.  Rows are built here
 * in C with the catalog's value generator, each straight into a copy of a
 * template tuple.  Because the table was created in this very transaction, rows can
 * be written frozen (as COPY FREEZE does): no reader ever has to set hint
 * bits or freeze them later, so the first benchmark does not pay for the
 * load's housekeeping.
 *
 * Two ways to write them, the same rows on the same pages either way:
 *
 * - Directly (the default, microbench.direct_load): heap pages are filled in
 *   local memory, WAL-logged as full pages and appended to the file, and the
 *   visibility map is written the same way, as CLUSTER and index builds
 *   write their pages.  No shared buffer, no page written twice.  For a
 *   large table a parallel worker logs each batch of pages while this
 *   backend fills the next one (see "The WAL-logging helper" below).
 * - Through Postgres's bulk-insert path (table_multi_insert, as COPY):
 *   when the table already has pages, is not a permanent heap table, or is
 *   logically decoded (the decoder needs row records, not pages), or when
 *   direct_load is off.
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/parallel.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "access/xloginsert.h"
#include "catalog/catalog.h"
#include "catalog/index.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_type.h"
#include "catalog/storage.h"
#include "executor/instrument.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "storage/condition_variable.h"
#include "storage/predicate.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "storage/smgr.h"
#include "storage/spin.h"
#include "storage/sync.h"
#include "utils/acl.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/wait_event.h"

#include "mb_btree.h"
#include "mb_shared.h"
#include "mb_values.h"

PG_FUNCTION_INFO_V1(microbench_load_table);

/* microbench.direct_load: write the heap pages directly (on by default) */
bool		mb_direct_load = true;

/* rows per table_multi_insert call on the bulk-insert path */
#define MB_LOAD_BATCH 1000

/*
 * Pages the direct path builds before it logs and writes them: log_newpages
 * puts this many in one WAL record.
 */
#define MB_PAGES_PER_WRITE XLR_MAX_BLOCK_ID

/* alignment of the page buffer, enough for direct I/O (PG_IO_ALIGN_SIZE) */
#define MB_IO_ALIGN 4096

#if PG_VERSION_NUM >= 160000
typedef RelFileLocator mb_rel_locator;
#define MB_REL_LOCATOR(rel) (&(rel)->rd_locator)
#define MB_SMGR_LOCATOR(smgr) ((smgr)->smgr_rlocator)
#else
typedef RelFileNode mb_rel_locator;
#define MB_REL_LOCATOR(rel) (&(rel)->rd_node)
#define MB_SMGR_LOCATOR(smgr) ((smgr)->smgr_rnode)
#endif

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

/*
 * Writes row id's values into data, a copy of the template's tuple data;
 * c and pad drawn from rng.
 */
static int32
fill_row(const mb_row_template *tpl, char *data, int32 id, mb_rng *rng, uint32 table_size)
{
	int32		k;

	/* draws in the catalog's order: c, pad, then k */
	mb_values_c(rng, data + tpl->c_offset);
	mb_values_pad(rng, data + tpl->pad_offset);
	k = (int32) mb_rng_uniform(rng, 1, table_size);
	memcpy(data + tpl->id_offset, &id, sizeof(id));
	memcpy(data + tpl->k_offset, &k, sizeof(k));
	return k;
}

/* A new row for the bulk-insert path: the template with id's values. */
static HeapTuple
make_row(const mb_row_template *tpl, int32 id, mb_rng *rng, uint32 table_size)
{
	HeapTuple	tuple = palloc(tpl->size);

	memcpy(tuple, tpl->tuple, tpl->size);
	tuple->t_data = (HeapTupleHeader) ((char *) tuple + HEAPTUPLESIZE);
	fill_row(tpl, (char *) tuple->t_data, id, rng, table_size);
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
 * Whether the rows can be written as pages directly.  The pages must be the
 * table's only ones (nothing of it in shared buffers), heap pages, and made
 * durable by WAL: an unlogged or temporary table keeps the bulk-insert path,
 * and so does a logically decoded one, whose decoder needs each row's
 * record.
 */
static bool
can_write_pages_directly(Relation rel)
{
	return mb_direct_load &&
		rel->rd_rel->relam == HEAP_TABLE_AM_OID &&
		rel->rd_rel->relpersistence == RELPERSISTENCE_PERMANENT &&
		!RelationIsLogicallyLogged(rel) &&
		RelationGetNumberOfBlocks(rel) == 0;
}

/*
 * Rebuilds the table's indexes that the load did not build (those not in
 * "built"), as TRUNCATE rebuilds the indexes of a table created in the same
 * transaction: emptied, then built by Postgres from the loaded rows.  Neither
 * load path maintains indexes row by row.
 */
static void
rebuild_indexes(Relation rel, List *index_oids, List *built)
{
	ListCell   *lc;

	foreach(lc, index_oids)
	{
		Relation	index;
		IndexInfo  *info;

		if (list_member_oid(built, lfirst_oid(lc)))
			continue;
		index = index_open(lfirst_oid(lc), AccessExclusiveLock);
		info = BuildIndexInfo(index);
		RelationTruncate(index, 0);
		index_build(rel, index, info, true, true);
		index_close(index, NoLock);
	}
}

/* The rows the bulk-insert path writes, as COPY FREEZE would. */
static void
load_through_buffers(Relation rel, const mb_row_template *tpl, int64 table_size,
					 mb_rng *rng)
{
	BulkInsertState bistate = GetBulkInsertState();
	TupleTableSlot *slots[MB_LOAD_BATCH];
	CommandId	cid = GetCurrentCommandId(true);
	int			options = TABLE_INSERT_SKIP_FSM | TABLE_INSERT_FROZEN;
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
	}

	for (i = 0; i < MB_LOAD_BATCH; i++)
		ExecDropSingleTupleTableSlot(slots[i]);
	FreeBulkInsertState(bistate);
	table_finish_bulk_insert(rel, options);
}

/*
 * The WAL-logging helper.  Logging the pages is about half of a large
 * direct load (the records, and the backend's own writes of WAL once the
 * WAL buffers fill), so with a parallel worker beside it the backend fills
 * the next batch of pages while the worker logs the last one.  A batch is
 * appended to the file only after it is logged: its pages then carry their
 * records' LSNs, as with log_newpages in one process, and no page reaches
 * the file before its WAL record exists.  The batches pass through a ring in
 * the parallel context's shared memory.  A batch also carries the pages of
 * the primary key (mb_btree.c) finished while its heap pages were filled.
 */

/* batches in the ring: enough that neither side waits on a brief stall */
#define MB_LOG_SLOTS 8

/*
 * Primary-key pages a batch carries: a leaf holds about 400 entries, a
 * batch about 1100 rows.  Any more (a tiny index fillfactor) are logged and
 * written by the backend itself.
 */
#define MB_LOG_INDEX_PAGES 8

/* pages per slot of the ring: the heap's, then the primary key's */
#define MB_LOG_SLOT_PAGES (MB_PAGES_PER_WRITE + MB_LOG_INDEX_PAGES)

/*
 * Smallest table worth a helper: starting a parallel worker costs a few
 * milliseconds, about what logging 100k rows' pages costs.
 */
#define MB_LOG_HELPER_MIN_ROWS 100000

/* how long the backend waits for the helper before checking it still runs */
#define MB_LOG_HELPER_CHECK_MS 1000

#define MB_LOAD_KEY_RING UINT64CONST(0x4D42000000000001)

PGDLLEXPORT void mb_load_log_main(dsm_segment *seg, shm_toc *toc);

typedef struct mb_log_ring
{
	slock_t		mutex;			/* protects handed, logged and finished */
	uint64		handed;			/* batches the backend has handed over */
	uint64		logged;			/* batches the helper has logged */
	bool		finished;		/* the backend hands over no more */
	ConditionVariable changed;	/* broadcast when any of the three changes */
	mb_rel_locator locator;
	mb_rel_locator index_locator;	/* the primary key's, if it is built */
	int			npages[MB_LOG_SLOTS];
	BlockNumber first_block[MB_LOG_SLOTS];
	int			nindex[MB_LOG_SLOTS];	/* primary-key pages in the batch */
	BlockNumber index_blocks[MB_LOG_SLOTS][MB_LOG_INDEX_PAGES];
	Size		pages_offset;	/* from the ring's start to slot 0's pages */
	BufferUsage bufusage;		/* the helper's, for the statement's totals */
	WalUsage	walusage;
} mb_log_ring;

/* Size of the ring: the header, then MB_LOG_SLOTS aligned batches of pages. */
#define MB_LOG_RING_SIZE \
	(MAXALIGN(sizeof(mb_log_ring)) + MB_IO_ALIGN + \
	 (Size) MB_LOG_SLOTS * MB_LOG_SLOT_PAGES * BLCKSZ)

static char *
ring_batch(mb_log_ring *ring, uint64 seq)
{
	return (char *) ring + ring->pages_offset +
		(Size) (seq % MB_LOG_SLOTS) * MB_LOG_SLOT_PAGES * BLCKSZ;
}

/* A batch's i-th primary-key page, after its heap pages. */
static Page
batch_index_page(char *batch, int i)
{
	return (Page) (batch + (Size) (MB_PAGES_PER_WRITE + i) * BLCKSZ);
}

/*
 * Logs n pages stored one after another from "pages", as full-page images
 * of the given blocks; the records set their LSNs.
 */
static void
log_pages(mb_rel_locator *locator, char *pages, int n, BlockNumber *blocks)
{
	Page		page_array[MB_PAGES_PER_WRITE];
	int			i;

	Assert(n <= MB_PAGES_PER_WRITE);
	for (i = 0; i < n; i++)
		page_array[i] = pages + (Size) i * BLCKSZ;
	log_newpages(locator, MAIN_FORKNUM, n, blocks, page_array, true);
}

/* Logs one batch of heap pages, blocks first_block onwards. */
static void
log_batch(mb_rel_locator *locator, char *batch, BlockNumber first_block, int n)
{
	BlockNumber blocks[MB_PAGES_PER_WRITE];
	int			i;

	for (i = 0; i < n; i++)
		blocks[i] = first_block + i;
	log_pages(locator, batch, n, blocks);
}

/* The helper: logs each batch handed over, in order, until told to stop. */
void
mb_load_log_main(dsm_segment *seg, shm_toc *toc)
{
	mb_log_ring *ring = shm_toc_lookup(toc, MB_LOAD_KEY_RING, false);

	InstrStartParallelQuery();
	for (;;)
	{
		uint64		handed;
		uint64		logged;
		bool		finished;

		SpinLockAcquire(&ring->mutex);
		handed = ring->handed;
		logged = ring->logged;
		finished = ring->finished;
		SpinLockRelease(&ring->mutex);

		if (logged < handed)
		{
			int			slot = logged % MB_LOG_SLOTS;
			char	   *batch = ring_batch(ring, logged);

			log_batch(&ring->locator, batch, ring->first_block[slot], ring->npages[slot]);
			if (ring->nindex[slot] > 0)
				log_pages(&ring->index_locator, batch_index_page(batch, 0),
						  ring->nindex[slot], ring->index_blocks[slot]);
			SpinLockAcquire(&ring->mutex);
			ring->logged++;
			SpinLockRelease(&ring->mutex);
			ConditionVariableBroadcast(&ring->changed);
		}
		else if (finished)
			break;
		else
			ConditionVariableSleep(&ring->changed, PG_WAIT_EXTENSION);
	}
	ConditionVariableCancelSleep();
	InstrEndParallelQuery(&ring->bufusage, &ring->walusage);
}

/*
 * The direct path.  Pages are built MB_PAGES_PER_WRITE at a time, then
 * logged (here or by the helper) and appended to the table's file.
 */
typedef struct mb_page_writer mb_page_writer;

/* An index built from the load, and its pages waiting to be logged. */
typedef struct mb_index_build
{
	mb_page_writer *w;
	Relation	index;
	mb_btree_builder *btree;
	bool		rides_ring;		/* its pages may ride with the heap's batches */
	char	   *pages;			/* up to MB_PAGES_PER_WRITE pages, logged together */
	BlockNumber blocks[MB_PAGES_PER_WRITE];
	int			npages;
} mb_index_build;

struct mb_page_writer
{
	Relation	rel;
	bool		use_wal;		/* false under wal_level = minimal */
	XLogRecPtr	start_redo;		/* the redo pointer before the first page */
	char	   *pages;			/* the batch being filled */
	BlockNumber first_block;	/* the block number of pages[0] */
	char	   *local_pages;	/* palloc'd batch, when there is no helper */
	mb_index_build *id_build;	/* the index on id being built, or NULL */
	mb_index_build *k_build;	/* the index on k being built, or NULL */
	ParallelContext *pcxt;		/* the helper's, or NULL */
	mb_log_ring *ring;
	uint64		appended;		/* batches of the ring written to the file */
	int			index_pages;	/* primary-key pages the batch being filled
								 * (number ring->handed) carries so far */
};

/* Appends n logged (or, under wal_level = minimal, unlogged) pages. */
static void
append_pages(mb_page_writer *w, char *batch, BlockNumber first_block, int n)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		Page		page = batch + (Size) i * BLCKSZ;

		PageSetChecksumInplace(page, first_block + i);
		smgrextend(RelationGetSmgr(w->rel), MAIN_FORKNUM, first_block + i, page, true);
	}
}

/*
 * Starts the helper if the load is large enough and a parallel worker is
 * to be had; otherwise the backend logs the pages itself.  Like parallel
 * index builds, it is off when max_parallel_maintenance_workers is 0.
 */
static void
start_log_helper(mb_page_writer *w, int64 table_size)
{
	mb_log_ring *ring;

	if (!w->use_wal || table_size < MB_LOG_HELPER_MIN_ROWS ||
		max_parallel_maintenance_workers == 0 || !IsUnderPostmaster ||
		IsInParallelMode())
		return;

	EnterParallelMode();
	w->pcxt = CreateParallelContext("microbench", "mb_load_log_main", 1);
	shm_toc_estimate_chunk(&w->pcxt->estimator, MB_LOG_RING_SIZE);
	shm_toc_estimate_keys(&w->pcxt->estimator, 1);
	InitializeParallelDSM(w->pcxt);
	if (w->pcxt->seg == NULL)
	{
		/* no dynamic shared memory to be had: no helper */
		DestroyParallelContext(w->pcxt);
		ExitParallelMode();
		w->pcxt = NULL;
		return;
	}
	ring = shm_toc_allocate(w->pcxt->toc, MB_LOG_RING_SIZE);
	memset(ring, 0, sizeof(mb_log_ring));
	SpinLockInit(&ring->mutex);
	ConditionVariableInit(&ring->changed);
	ring->locator = *MB_REL_LOCATOR(w->rel);
	if (w->id_build != NULL)
		ring->index_locator = *MB_REL_LOCATOR(w->id_build->index);
	/* segments are mapped page-aligned, so the offset aligns in both */
	ring->pages_offset = (char *) TYPEALIGN(MB_IO_ALIGN, (char *) ring + sizeof(mb_log_ring)) -
		(char *) ring;
	shm_toc_insert(w->pcxt->toc, MB_LOAD_KEY_RING, ring);

	LaunchParallelWorkers(w->pcxt);
	if (w->pcxt->nworkers_launched == 0)
	{
		DestroyParallelContext(w->pcxt);
		ExitParallelMode();
		w->pcxt = NULL;
		return;
	}
	w->ring = ring;
	w->pages = ring_batch(ring, 0);
}

/*
 * Waits until the helper has logged the oldest batch not yet appended.  A
 * helper's error comes here through CHECK_FOR_INTERRUPTS; a helper gone
 * without one is caught by the periodic check.
 */
static void
wait_for_logged_batch(mb_page_writer *w)
{
	mb_log_ring *ring = w->ring;

	for (;;)
	{
		uint64		logged;
		pid_t		pid;

		SpinLockAcquire(&ring->mutex);
		logged = ring->logged;
		SpinLockRelease(&ring->mutex);
		if (logged > w->appended)
			break;
		if (ConditionVariableTimedSleep(&ring->changed, MB_LOG_HELPER_CHECK_MS,
										PG_WAIT_EXTENSION))
		{
			CHECK_FOR_INTERRUPTS();
			if (GetBackgroundWorkerPid(w->pcxt->worker[0].bgwhandle, &pid) == BGWH_STOPPED)
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("the WAL-logging helper of the load of \"%s\" stopped before it logged every page",
								RelationGetRelationName(w->rel))));
		}
	}
	ConditionVariableCancelSleep();
}

/* Appends the oldest batch of the ring, once it is logged. */
static void
append_logged_batch(mb_page_writer *w)
{
	mb_log_ring *ring = w->ring;
	int			slot = w->appended % MB_LOG_SLOTS;
	char	   *batch = ring_batch(ring, w->appended);
	int			i;

	wait_for_logged_batch(w);
	append_pages(w, batch, ring->first_block[slot], ring->npages[slot]);
	for (i = 0; i < ring->nindex[slot]; i++)
		mb_btree_write_page(w->id_build->btree, batch_index_page(batch, i), ring->index_blocks[slot][i]);
	w->appended++;
}

/*
 * Hands over the first n pages of the batch being filled: to the helper,
 * or logged and appended here.  Then w->pages is the next batch to fill.
 */
static void
write_pages(mb_page_writer *w, int n)
{
	mb_log_ring *ring = w->ring;
	uint64		handed;
	uint64		logged;

	if (ring == NULL)
	{
		if (w->use_wal)
			log_batch(MB_REL_LOCATOR(w->rel), w->pages, w->first_block, n);
		append_pages(w, w->pages, w->first_block, n);
		w->first_block += n;
		return;
	}

	SpinLockAcquire(&ring->mutex);
	handed = ring->handed;
	ring->npages[handed % MB_LOG_SLOTS] = n;
	ring->first_block[handed % MB_LOG_SLOTS] = w->first_block;
	ring->nindex[handed % MB_LOG_SLOTS] = w->index_pages;
	ring->handed = ++handed;
	logged = ring->logged;
	SpinLockRelease(&ring->mutex);
	ConditionVariableBroadcast(&ring->changed);
	w->first_block += n;

	/* append what is logged already, and wait only when the ring is full */
	while (w->appended < logged)
		append_logged_batch(w);
	while (handed - w->appended >= MB_LOG_SLOTS)
		append_logged_batch(w);
	w->pages = ring_batch(ring, handed);
	w->index_pages = 0;
}

/* Logs an index's pages gathered here, then puts them in its file. */
static void
flush_index_pages(mb_index_build *ib)
{
	int			i;

	if (ib->npages == 0)
		return;
	if (ib->w->use_wal)
		log_pages(MB_REL_LOCATOR(ib->index), ib->pages, ib->npages, ib->blocks);
	for (i = 0; i < ib->npages; i++)
		mb_btree_write_page(ib->btree, ib->pages + (Size) i * BLCKSZ, ib->blocks[i]);
	ib->npages = 0;
}

/*
 * mb_btree's emit callback.  A primary-key page finished during the load
 * rides with the heap batch being filled, to be logged by the helper; any
 * other page (no helper, no room left in the batch, or the index on k,
 * built after the load) is gathered here and logged with the next ones.
 */
static void
emit_index_page(void *arg, Page page, BlockNumber block)
{
	mb_index_build *ib = (mb_index_build *) arg;
	mb_page_writer *w = ib->w;

	if (ib->rides_ring && w->ring != NULL && w->index_pages < MB_LOG_INDEX_PAGES)
	{
		memcpy(batch_index_page(w->pages, w->index_pages), page, BLCKSZ);
		/* only the backend changes ring->handed: no lock to read it */
		w->ring->index_blocks[w->ring->handed % MB_LOG_SLOTS][w->index_pages++] = block;
		return;
	}
	memcpy(ib->pages + (Size) ib->npages * BLCKSZ, page, BLCKSZ);
	ib->blocks[ib->npages++] = block;
	if (ib->npages == MB_PAGES_PER_WRITE)
		flush_index_pages(ib);
}

static mb_index_build *
begin_index_build(mb_page_writer *w, Relation index, bool rides_ring)
{
	mb_index_build *ib = palloc0(sizeof(mb_index_build));

	ib->w = w;
	ib->index = index;
	ib->rides_ring = rides_ring;
	ib->pages = (char *) TYPEALIGN(MB_IO_ALIGN, palloc((Size) MB_PAGES_PER_WRITE * BLCKSZ + MB_IO_ALIGN));
	ib->btree = mb_btree_begin(index, emit_index_page, ib);
	return ib;
}

static void
finish_index_build(mb_index_build *ib)
{
	BlockNumber pages;

	mb_btree_finish(ib->btree);
	flush_index_pages(ib);
	pages = mb_btree_write_metapage(ib->btree);
	ereport(DEBUG1,
			(errmsg_internal("microbench_load_table: built index \"%s\" from the load (%u pages)",
							 RelationGetRelationName(ib->index), pages)));
}

/* Appends the helper's last batches and lets it go. */
static void
finish_log_helper(mb_page_writer *w)
{
	mb_log_ring *ring = w->ring;
	uint64		handed;

	if (ring == NULL)
		return;
	SpinLockAcquire(&ring->mutex);
	ring->finished = true;
	handed = ring->handed;
	SpinLockRelease(&ring->mutex);
	ConditionVariableBroadcast(&ring->changed);
	while (w->appended < handed)
		append_logged_batch(w);

	WaitForParallelWorkersToFinish(w->pcxt);
	InstrAccumParallelQuery(&ring->bufusage, &ring->walusage);
	DestroyParallelContext(w->pcxt);
	ExitParallelMode();
	ereport(DEBUG1,
			(errmsg_internal("microbench_load_table: a parallel helper logged the %llu batches of \"%s\"",
							 (unsigned long long) handed, RelationGetRelationName(w->rel))));
	w->pcxt = NULL;
	w->ring = NULL;
	w->pages = w->local_pages;
}

/*
 * The visibility map's layout, from visibilitymap.c (unchanged since 9.6):
 * after the page header, BITS_PER_HEAPBLOCK bits per heap page, the lowest
 * bits of each byte for the first page.
 */
#define MB_VM_BYTES_PER_PAGE (BLCKSZ - MAXALIGN(SizeOfPageHeaderData))
#define MB_VM_HEAP_PAGES_PER_BYTE (BITS_PER_BYTE / BITS_PER_HEAPBLOCK)
#define MB_VM_HEAP_PAGES_PER_PAGE (MB_VM_BYTES_PER_PAGE * MB_VM_HEAP_PAGES_PER_BYTE)

/*
 * Marks heap pages 0 .. heap_pages - 1 all-visible and all-frozen in the
 * visibility map, as heap_multi_insert does for frozen rows; without it the
 * index-only scans of the covered workloads would fetch heap pages.
 */
static void
write_visibility_map(mb_page_writer *w, BlockNumber heap_pages)
{
	const uint8 flags = VISIBILITYMAP_ALL_VISIBLE | VISIBILITYMAP_ALL_FROZEN;
	SMgrRelation smgr = RelationGetSmgr(w->rel);
	Page		page = w->pages;
	BlockNumber map_pages = (heap_pages + MB_VM_HEAP_PAGES_PER_PAGE - 1) / MB_VM_HEAP_PAGES_PER_PAGE;
	BlockNumber block;

	if (!smgrexists(smgr, VISIBILITYMAP_FORKNUM))
		smgrcreate(smgr, VISIBILITYMAP_FORKNUM, false);
	for (block = 0; block < map_pages; block++)
	{
		BlockNumber covered = Min(MB_VM_HEAP_PAGES_PER_PAGE,
								  heap_pages - block * MB_VM_HEAP_PAGES_PER_PAGE);
		uint8	   *map = (uint8 *) PageGetContents(page);
		BlockNumber i;

		PageInit(page, BLCKSZ, 0);
		for (i = 0; i < covered; i++)
			map[i / MB_VM_HEAP_PAGES_PER_BYTE] |=
				flags << (BITS_PER_HEAPBLOCK * (i % MB_VM_HEAP_PAGES_PER_BYTE));
		/* not a standard page: the map lies between pd_lower and pd_upper */
		if (w->use_wal)
			log_newpage(MB_REL_LOCATOR(w->rel), VISIBILITYMAP_FORKNUM, block, page, false);
		PageSetChecksumInplace(page, block);
		smgrextend(RelationGetSmgr(w->rel), VISIBILITYMAP_FORKNUM, block, page, true);
	}
	/* as vm_extend does: other backends drop what they know of the map's size */
	CacheInvalidateSmgr(MB_SMGR_LOCATOR(RelationGetSmgr(w->rel)));
}

/*
 * Asks the checkpointer to fsync a fork at the next checkpoint; false if its
 * queue is full.
 */
static bool
register_fork_sync(SMgrRelation smgr, ForkNumber fork)
{
#if PG_VERSION_NUM >= 170000
	smgrregistersync(smgr, fork);
	return true;
#else
	BlockNumber blocks = smgrnblocks(smgr, fork);
	BlockNumber segments = blocks == 0 ? 1 : (blocks - 1) / RELSEG_SIZE + 1;
	BlockNumber segno;

	for (segno = 0; segno < segments; segno++)
	{
		FileTag		tag;

		/* the tag is hashed whole: zero the padding too, as md.c does */
		memset(&tag, 0, sizeof(tag));
		tag.handler = SYNC_HANDLER_MD;
		tag.forknum = fork;
#if PG_VERSION_NUM >= 160000
		tag.rlocator = smgr->smgr_rlocator.locator;
#else
		tag.rnode = smgr->smgr_rnode.node;
#endif
		tag.segno = segno;
		if (!RegisterSyncRequest(&tag, SYNC_REQUEST, false))
			return false;
	}
	return true;
#endif
}

/*
 * The pages bypassed shared buffers, so no checkpoint knows to flush them.
 * WAL covers a crash only if replay starts before the pages' records, that
 * is, if no checkpoint began during the load: then the next checkpoint
 * must fsync the files, and asking the checkpointer is enough.  If one did
 * begin, its redo point may lie after some of the records, so the files are
 * synced now.  DELAY_CHKPT_START keeps a checkpoint from passing its redo
 * point between the check and the request (Postgres 17's bulk writes do the
 * same).  Under wal_level = minimal, the commit syncs the new table itself.
 */
static void
make_pages_durable(mb_page_writer *w)
{
	SMgrRelation smgrs[4];
	ForkNumber	forks[4];
	int			nfiles = 0;
	bool		registered = false;
	int			i;

	if (!w->use_wal)
		return;
	smgrs[nfiles] = RelationGetSmgr(w->rel);
	forks[nfiles++] = MAIN_FORKNUM;
	smgrs[nfiles] = RelationGetSmgr(w->rel);
	forks[nfiles++] = VISIBILITYMAP_FORKNUM;
	if (w->id_build != NULL)
	{
		smgrs[nfiles] = RelationGetSmgr(w->id_build->index);
		forks[nfiles++] = MAIN_FORKNUM;
	}
	if (w->k_build != NULL)
	{
		smgrs[nfiles] = RelationGetSmgr(w->k_build->index);
		forks[nfiles++] = MAIN_FORKNUM;
	}

	Assert((MyProc->delayChkptFlags & DELAY_CHKPT_START) == 0);
	MyProc->delayChkptFlags |= DELAY_CHKPT_START;
	PG_TRY();
	{
		if (w->start_redo == GetRedoRecPtr())
		{
			registered = true;
			for (i = 0; i < nfiles && registered; i++)
				registered = register_fork_sync(smgrs[i], forks[i]);
		}
	}
	PG_FINALLY();
	{
		MyProc->delayChkptFlags &= ~DELAY_CHKPT_START;
	}
	PG_END_TRY();
	if (!registered)
	{
		ereport(DEBUG1,
				(errmsg_internal("microbench_load_table: a checkpoint began during the load of \"%s\"; syncing it",
								 RelationGetRelationName(w->rel))));
		for (i = 0; i < nfiles; i++)
			smgrimmedsync(smgrs[i], forks[i]);
	}
}

/*
 * Each row's k and place, kept during the load for the index on k: 10
 * bytes a row, and 8 more while they are sorted.
 */
typedef struct mb_row_places
{
	int32	   *k;
	BlockNumber *block;
	OffsetNumber *offset;
} mb_row_places;

/* the memory keep_row_places and add_by_k take for table_size rows */
#define MB_ROW_PLACES_BYTES(rows) \
	((Size) (rows) * (sizeof(int32) + sizeof(BlockNumber) + sizeof(OffsetNumber) + \
					  2 * sizeof(uint32)) + 2 * sizeof(uint32))

static void
keep_row_places(mb_row_places *places, int64 table_size)
{
	places->k = MemoryContextAllocHuge(CurrentMemoryContext, table_size * sizeof(int32));
	places->block = MemoryContextAllocHuge(CurrentMemoryContext, table_size * sizeof(BlockNumber));
	places->offset = MemoryContextAllocHuge(CurrentMemoryContext, table_size * sizeof(OffsetNumber));
}

/*
 * Adds every row's (k, place) to the index on k in the order of k, then of
 * place.  k lies in 1 .. table_size, so a counting sort does it in two
 * passes; it keeps rows of equal k in load order, which is place order.
 */
static void
add_by_k(mb_btree_builder *btree, mb_row_places *places, int64 table_size)
{
	uint32	   *next = MemoryContextAllocHuge(CurrentMemoryContext,
											  (table_size + 2) * sizeof(uint32));
	uint32	   *order = MemoryContextAllocHuge(CurrentMemoryContext, table_size * sizeof(uint32));
	uint32		start = 0;
	int64		i;

	memset(next, 0, (table_size + 2) * sizeof(uint32));
	for (i = 0; i < table_size; i++)
	{
		if (places->k[i] < 1 || places->k[i] > table_size)
			elog(ERROR, "k = %d of row %lld lies outside 1 .. %lld",
				 places->k[i], (long long) i + 1, (long long) table_size);
		next[places->k[i]]++;
	}
	for (i = 1; i <= table_size; i++)
	{
		uint32		count = next[i];

		next[i] = start;
		start += count;
	}
	for (i = 0; i < table_size; i++)
		order[next[places->k[i]]++] = (uint32) i;
	for (i = 0; i < table_size; i++)
	{
		uint32		row = order[i];

		if ((i & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		mb_btree_add(btree, places->k[row], places->block[row], places->offset[row]);
	}
	pfree(next);
	pfree(order);
}

/*
 * The rows written as pages: each row is the template, with the header
 * heap_insert would give a frozen row, placed as heap_multi_insert places
 * rows (a page takes rows while it has room for one more plus the
 * fillfactor's reserve), every page all-visible.  An index on id (id_index,
 * or NULL) gets each row's entry as the row is placed; one on k (k_index)
 * after the load, from the rows' k and places kept meanwhile.
 */
static void
load_pages_directly(Relation rel, mb_row_template *tpl, int64 table_size, mb_rng *rng,
					Relation id_index, Relation k_index)
{
	HeapTupleHeader header = tpl->tuple->t_data;
	Size		row_len = tpl->tuple->t_len;
	Size		room_needed = MAXALIGN(row_len) +
		RelationGetTargetPageFreeSpace(rel, HEAP_DEFAULT_FILLFACTOR);
	char	   *buffer;
	mb_page_writer w;
	Page		page;
	int			filled;
	int64		id;
	mb_row_places places = {0};

	if (table_size == 0)
		return;
	/* as heap_multi_insert: fail now rather than after the work */
	CheckForSerializableConflictIn(rel, NULL, InvalidBlockNumber);

	header->t_infomask &= ~HEAP_XACT_MASK;
	header->t_infomask2 &= ~HEAP2_XACT_MASK;
	header->t_infomask |= HEAP_XMAX_INVALID;
	HeapTupleHeaderSetXmin(header, GetCurrentTransactionId());
	HeapTupleHeaderSetXminFrozen(header);
	HeapTupleHeaderSetCmin(header, GetCurrentCommandId(true));
	HeapTupleHeaderSetXmax(header, 0);

	buffer = palloc((Size) MB_PAGES_PER_WRITE * BLCKSZ + MB_IO_ALIGN);
	memset(&w, 0, sizeof(w));
	w.rel = rel;
	w.use_wal = RelationNeedsWAL(rel);
	w.start_redo = GetRedoRecPtr();
	w.local_pages = (char *) TYPEALIGN(MB_IO_ALIGN, buffer);
	w.pages = w.local_pages;
	w.first_block = 0;
	if (id_index != NULL)
		w.id_build = begin_index_build(&w, id_index, true);
	if (k_index != NULL)
	{
		w.k_build = begin_index_build(&w, k_index, false);
		keep_row_places(&places, table_size);
	}
	start_log_helper(&w, table_size);

	filled = 1;
	page = w.pages;
	PageInit(page, BLCKSZ, 0);
	for (id = 1; id <= table_size; id++)
	{
		OffsetNumber offset;
		BlockNumber block;
		HeapTupleHeader row;
		int32		k;

		if (PageGetHeapFreeSpace(page) < room_needed)
		{
			PageSetAllVisible(page);
			if (filled == MB_PAGES_PER_WRITE)
			{
				CHECK_FOR_INTERRUPTS();
				write_pages(&w, filled);
				filled = 0;
			}
			page = w.pages + (Size) filled++ * BLCKSZ;
			PageInit(page, BLCKSZ, 0);
		}
		offset = PageAddItem(page, (Item) header, row_len, InvalidOffsetNumber, false, true);
		if (offset == InvalidOffsetNumber)
			elog(ERROR, "could not add row %lld to a page of \"%s\"",
				 (long long) id, RelationGetRelationName(rel));
		block = w.first_block + filled - 1;
		row = (HeapTupleHeader) PageGetItem(page, PageGetItemId(page, offset));
		ItemPointerSet(&row->t_ctid, block, offset);
		k = fill_row(tpl, (char *) row, (int32) id, rng, (uint32) table_size);
		if (w.id_build != NULL)
			mb_btree_add(w.id_build->btree, (int32) id, block, offset);
		if (places.k != NULL)
		{
			places.k[id - 1] = k;
			places.block[id - 1] = block;
			places.offset[id - 1] = offset;
		}
	}
	PageSetAllVisible(page);
	write_pages(&w, filled);
	finish_log_helper(&w);

	write_visibility_map(&w, w.first_block);
	if (w.id_build != NULL)
		finish_index_build(w.id_build);
	if (w.k_build != NULL)
	{
		add_by_k(w.k_build->btree, &places, table_size);
		pfree(places.k);
		pfree(places.block);
		pfree(places.offset);
		finish_index_build(w.k_build);
	}
	make_pages_durable(&w);
	pgstat_count_heap_insert(rel, table_size);
	pfree(buffer);
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
	index_oids = RelationGetIndexList(rel);
	if (can_write_pages_directly(rel))
	{
		Relation	id_index = NULL;
		Relation	k_index = NULL;
		ListCell   *lc;

		/*
		 * The first index on id and the first on k that mb_btree can build
		 * are built from the load; the one on k only if the rows' k and
		 * places fit in maintenance_work_mem, as a sort would.
		 */
		foreach(lc, table_size > 0 ? index_oids : NIL)
		{
			Relation	index;
			AttrNumber	column;

			index = index_open(lfirst_oid(lc), AccessExclusiveLock);
			column = mb_btree_column(rel, index);
			if (column == MB_BTREE_ID && id_index == NULL)
				id_index = index;
			else if (column == MB_BTREE_K && k_index == NULL &&
					 MB_ROW_PLACES_BYTES(table_size) <= (Size) maintenance_work_mem * 1024)
				k_index = index;
			else
			{
				index_close(index, NoLock);
				continue;
			}
			built = lappend_oid(built, RelationGetRelid(index));
		}
		load_pages_directly(rel, &tpl, table_size, &rng, id_index, k_index);
		if (id_index != NULL)
			index_close(id_index, NoLock);
		if (k_index != NULL)
			index_close(k_index, NoLock);
	}
	else
		load_through_buffers(rel, &tpl, table_size, &rng);
	rebuild_indexes(rel, index_oids, built);
	heap_freetuple(tpl.tuple);
	table_close(rel, NoLock);

	PG_RETURN_INT64(table_size);
}

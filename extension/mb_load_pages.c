/*
 * mb_load_pages.c — the direct load: an sbtest table's rows written as
 * pages, past shared buffers, with its visibility map and its indexes on id
 * and k built from the same rows.
 *
 * Only compiled where CI proves the pages identical to Postgres's own
 * (MB_DIRECT_PAGES, mb_direct_pages.h), and only used where that is as safe as
 * COPY FREEZE (mb_load.c decides).  The rows are frozen: the table's file
 * was made in this very subtransaction, so a rollback removes the file and
 * everything written to it, and no snapshot of this session can have seen
 * the table empty.
 *
 * Rows are placed as heap_multi_insert places them (a page takes rows while
 * it has room for one more plus the fillfactor's reserve), each a copy of
 * the template with the header heap_insert gives a frozen row, every page
 * all-visible; the visibility map says so, as heap_multi_insert's does for
 * frozen rows.  Each fork goes to the file through mb_fork_writer, which
 * WAL-logs the pages as full images and makes the fork durable (Postgres's
 * bulk-write API on 17 and later).
 *
 * For a large table a parallel worker, the helper, owns the heap's writer:
 * logging the pages is about half of the load, so while it logs and writes
 * one batch of pages the backend fills the next.  The batches pass through
 * a ring in the parallel context's shared memory.  Each fork has exactly
 * one writer: the heap's is the helper's (or the backend's when there is no
 * helper), the map's and the indexes' are the backend's.
 */
#include "postgres.h"

#include "mb_direct_pages.h"

#ifdef MB_DIRECT_PAGES

#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/parallel.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "executor/instrument.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/bufpage.h"
#include "storage/condition_variable.h"
#include "storage/predicate.h"
#include "storage/shm_toc.h"
#include "storage/smgr.h"
#include "storage/spin.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/wait_event.h"

#include "mb_btree.h"
#include "mb_fork_writer.h"
#include "mb_load_pages.h"
#include "mb_load_rollback.h"
#include "mb_load_rows.h"

/* heap pages filled before they are handed on: one WAL record's worth */
#define MB_BATCH_PAGES XLR_MAX_BLOCK_ID

/* batches in the helper's ring: enough that neither side waits on a stall */
#define MB_RING_SLOTS 8

/*
 * Smallest table worth a helper: starting a parallel worker costs a few
 * milliseconds, about what logging 100k rows' pages costs.
 */
#define MB_HELPER_MIN_ROWS 100000

/* how long the backend waits for the helper before checking it still runs */
#define MB_HELPER_CHECK_MS 1000

/* alignment of the page buffers, enough for direct I/O */
#define MB_IO_ALIGN 4096

#define MB_LOAD_KEY_RING UINT64CONST(0x4D42000000000001)

PGDLLEXPORT void mb_load_pages_helper_main(dsm_segment *seg, shm_toc *toc);

typedef struct mb_heap_ring
{
	slock_t		mutex;			/* protects handed, taken and finished */
	uint64		handed;			/* batches the backend has handed over */
	uint64		taken;			/* batches the helper has given its writer */
	bool		finished;		/* the backend hands over no more */
	ConditionVariable changed;	/* broadcast when any of the three changes */
	mb_rel_locator locator;
	bool		use_wal;
	bool		fail_in_helper; /* microbench.inject_load_error = helper */
	int			npages[MB_RING_SLOTS];
	BlockNumber first_block[MB_RING_SLOTS];
	Size		pages_offset;	/* from the ring's start to slot 0's pages */
	BufferUsage bufusage;		/* the helper's, for the statement's totals */
	WalUsage	walusage;
} mb_heap_ring;

#define MB_RING_SIZE \
	(MAXALIGN(sizeof(mb_heap_ring)) + MB_IO_ALIGN + \
	 (Size) MB_RING_SLOTS * MB_BATCH_PAGES * BLCKSZ)

static char *
ring_batch(mb_heap_ring *ring, uint64 seq)
{
	return (char *) ring + ring->pages_offset +
		(Size) (seq % MB_RING_SLOTS) * MB_BATCH_PAGES * BLCKSZ;
}

/* The helper: writes each batch handed over, in order, until told to stop. */
void
mb_load_pages_helper_main(dsm_segment *seg, shm_toc *toc)
{
	mb_heap_ring *ring = shm_toc_lookup(toc, MB_LOAD_KEY_RING, false);
	mb_fork_writer *writer;

	InstrStartParallelQuery();
	writer = mb_fork_writer_begin(ring->locator, MAIN_FORKNUM, ring->use_wal);
	for (;;)
	{
		uint64		handed;
		uint64		taken;
		bool		finished;

		SpinLockAcquire(&ring->mutex);
		handed = ring->handed;
		taken = ring->taken;
		finished = ring->finished;
		SpinLockRelease(&ring->mutex);

		if (taken < handed)
		{
			int			slot = taken % MB_RING_SLOTS;
			char	   *batch = ring_batch(ring, taken);
			int			i;

			for (i = 0; i < ring->npages[slot]; i++)
				mb_fork_writer_write(writer, ring->first_block[slot] + i,
									 batch + (Size) i * BLCKSZ, true);
			if (ring->fail_in_helper)
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("microbench.inject_load_error: the load's helper fails at step \"helper\"")));
			SpinLockAcquire(&ring->mutex);
			ring->taken++;
			SpinLockRelease(&ring->mutex);
			ConditionVariableBroadcast(&ring->changed);
		}
		else if (finished)
			break;
		else
			ConditionVariableSleep(&ring->changed, PG_WAIT_EXTENSION);
	}
	ConditionVariableCancelSleep();
	mb_fork_writer_finish(writer);
	InstrEndParallelQuery(&ring->bufusage, &ring->walusage);
}

/*
 * Where the backend's filled heap pages go: to the helper through the
 * ring, or to the backend's own writer.
 */
typedef struct mb_heap_sink
{
	Relation	rel;
	char	   *pages;			/* the batch being filled */
	BlockNumber first_block;	/* the block number of pages[0] */
	mb_fork_writer *writer;		/* the backend's, when there is no helper */
	char	   *local_pages;	/* its batch buffer */
	ParallelContext *pcxt;		/* the helper's, or NULL */
	mb_heap_ring *ring;
	uint64		handed;			/* batches handed to the helper */
} mb_heap_sink;

/*
 * Starts the helper if the load is large enough and a parallel worker is
 * to be had; like parallel index builds, not when
 * max_parallel_maintenance_workers is 0.  Returns whether it runs.
 */
static bool
start_helper(mb_heap_sink *sink, int64 table_size, bool use_wal)
{
	mb_heap_ring *ring;

	if (table_size < MB_HELPER_MIN_ROWS || max_parallel_maintenance_workers == 0 ||
		!IsUnderPostmaster || IsInParallelMode())
		return false;

	EnterParallelMode();
	sink->pcxt = CreateParallelContext("microbench", "mb_load_pages_helper_main", 1);
	shm_toc_estimate_chunk(&sink->pcxt->estimator, MB_RING_SIZE);
	shm_toc_estimate_keys(&sink->pcxt->estimator, 1);
	InitializeParallelDSM(sink->pcxt);
	if (sink->pcxt->seg == NULL)
	{
		/* no dynamic shared memory to be had */
		DestroyParallelContext(sink->pcxt);
		ExitParallelMode();
		sink->pcxt = NULL;
		return false;
	}
	ring = shm_toc_allocate(sink->pcxt->toc, MB_RING_SIZE);
	memset(ring, 0, sizeof(mb_heap_ring));
	SpinLockInit(&ring->mutex);
	ConditionVariableInit(&ring->changed);
	ring->locator = MB_REL_LOCATOR(sink->rel);
	ring->use_wal = use_wal;
	ring->fail_in_helper = mb_inject_load_error == MB_LOAD_STEP_HELPER;
	/* segments are mapped page-aligned, so the offset aligns in both */
	ring->pages_offset = (char *) TYPEALIGN(MB_IO_ALIGN, (char *) ring + sizeof(mb_heap_ring)) -
		(char *) ring;
	shm_toc_insert(sink->pcxt->toc, MB_LOAD_KEY_RING, ring);

	LaunchParallelWorkers(sink->pcxt);
	if (sink->pcxt->nworkers_launched == 0)
	{
		DestroyParallelContext(sink->pcxt);
		ExitParallelMode();
		sink->pcxt = NULL;
		return false;
	}
	sink->ring = ring;
	sink->pages = ring_batch(ring, 0);
	return true;
}

static void
start_heap_sink(mb_heap_sink *sink, Relation rel, int64 table_size)
{
	bool		use_wal = RelationNeedsWAL(rel);

	memset(sink, 0, sizeof(*sink));
	sink->rel = rel;
	if (start_helper(sink, table_size, use_wal))
		return;
	sink->writer = mb_fork_writer_begin(MB_REL_LOCATOR(rel), MAIN_FORKNUM, use_wal);
	sink->local_pages = (char *) TYPEALIGN(MB_IO_ALIGN,
										   palloc((Size) MB_BATCH_PAGES * BLCKSZ + MB_IO_ALIGN));
	sink->pages = sink->local_pages;
}

/*
 * Waits until the helper has fewer than "most" batches left to take.  A
 * helper's error comes here through CHECK_FOR_INTERRUPTS; a helper gone
 * without one is caught by the periodic check.
 */
static void
wait_for_helper(mb_heap_sink *sink, uint64 most)
{
	mb_heap_ring *ring = sink->ring;

	for (;;)
	{
		uint64		taken;
		pid_t		pid;

		SpinLockAcquire(&ring->mutex);
		taken = ring->taken;
		SpinLockRelease(&ring->mutex);
		if (sink->handed - taken < most)
			break;
		if (ConditionVariableTimedSleep(&ring->changed, MB_HELPER_CHECK_MS, PG_WAIT_EXTENSION))
		{
			CHECK_FOR_INTERRUPTS();
			if (GetBackgroundWorkerPid(sink->pcxt->worker[0].bgwhandle, &pid) == BGWH_STOPPED)
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("the helper writing the pages of \"%s\" stopped before it wrote them all",
								RelationGetRelationName(sink->rel))));
		}
	}
	ConditionVariableCancelSleep();
}

/*
 * Hands on the first n pages of the batch being filled; then sink->pages is
 * the next batch to fill.
 */
static void
hand_on_pages(mb_heap_sink *sink, int n)
{
	mb_heap_ring *ring = sink->ring;
	int			i;

	if (ring == NULL)
	{
		for (i = 0; i < n; i++)
			mb_fork_writer_write(sink->writer, sink->first_block + i,
								 sink->pages + (Size) i * BLCKSZ, true);
		sink->first_block += n;
		return;
	}

	SpinLockAcquire(&ring->mutex);
	ring->npages[sink->handed % MB_RING_SLOTS] = n;
	ring->first_block[sink->handed % MB_RING_SLOTS] = sink->first_block;
	ring->handed = ++sink->handed;
	SpinLockRelease(&ring->mutex);
	ConditionVariableBroadcast(&ring->changed);
	sink->first_block += n;
	/* the next slot must be free before it is filled */
	wait_for_helper(sink, MB_RING_SLOTS);
	sink->pages = ring_batch(ring, sink->handed);
}

/* Waits for the heap's writer to finish: the heap is then durable. */
static void
finish_heap_sink(mb_heap_sink *sink)
{
	mb_heap_ring *ring = sink->ring;

	if (ring == NULL)
	{
		mb_fork_writer_finish(sink->writer);
		return;
	}
	SpinLockAcquire(&ring->mutex);
	ring->finished = true;
	SpinLockRelease(&ring->mutex);
	ConditionVariableBroadcast(&ring->changed);
	WaitForParallelWorkersToFinish(sink->pcxt);
	InstrAccumParallelQuery(&ring->bufusage, &ring->walusage);
	DestroyParallelContext(sink->pcxt);
	ExitParallelMode();
	ereport(DEBUG1,
			(errmsg_internal("microbench_load_table: a parallel helper wrote the %llu batches of \"%s\"",
							 (unsigned long long) sink->handed, RelationGetRelationName(sink->rel))));
	sink->pcxt = NULL;
	sink->ring = NULL;
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
write_visibility_map(Relation rel, BlockNumber heap_pages)
{
	const uint8 flags = VISIBILITYMAP_ALL_VISIBLE | VISIBILITYMAP_ALL_FROZEN;
	SMgrRelation smgr = RelationGetSmgr(rel);
	BlockNumber map_pages = (heap_pages + MB_VM_HEAP_PAGES_PER_PAGE - 1) / MB_VM_HEAP_PAGES_PER_PAGE;
	Page		page = (Page) TYPEALIGN(MB_IO_ALIGN, palloc(BLCKSZ + MB_IO_ALIGN));
	mb_fork_writer *writer;
	BlockNumber block;

	if (!smgrexists(smgr, VISIBILITYMAP_FORKNUM))
		smgrcreate(smgr, VISIBILITYMAP_FORKNUM, false);
	writer = mb_fork_writer_begin(MB_REL_LOCATOR(rel), VISIBILITYMAP_FORKNUM, RelationNeedsWAL(rel));
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
		mb_fork_writer_write(writer, block, page, false);
	}
	mb_fork_writer_finish(writer);
	/* as vm_extend does: other backends drop what they know of the map's size */
#if PG_VERSION_NUM >= 160000
	CacheInvalidateSmgr(RelationGetSmgr(rel)->smgr_rlocator);
#else
	CacheInvalidateSmgr(RelationGetSmgr(rel)->smgr_rnode);
#endif
}

/* An index built from the load. */
typedef struct mb_index_build
{
	Relation	index;
	mb_btree_builder *btree;
	mb_fork_writer *writer;
} mb_index_build;

/* mb_btree's emit callback: each finished page goes to the index's writer */
static void
write_index_page(void *arg, Page page, BlockNumber block)
{
	mb_index_build *ib = (mb_index_build *) arg;

	mb_fork_writer_write(ib->writer, block, page, true);
}

static mb_index_build *
begin_index_build(Relation index)
{
	mb_index_build *ib = palloc0(sizeof(mb_index_build));

	ib->index = index;
	ib->writer = mb_fork_writer_begin(MB_REL_LOCATOR(index), MAIN_FORKNUM, RelationNeedsWAL(index));
	ib->btree = mb_btree_begin(index, write_index_page, ib);
	return ib;
}

/* Writes the index's last pages, makes them durable, then its metapage. */
static void
finish_index_build(mb_index_build *ib)
{
	BlockNumber pages;

	mb_btree_finish(ib->btree);
	mb_fork_writer_finish(ib->writer);
	mb_load_reached(MB_LOAD_STEP_AFTER_INDEX);
	pages = mb_btree_write_metapage(ib->btree);
	ereport(DEBUG1,
			(errmsg_internal("microbench_load_table: built index \"%s\" from the load (%u pages)",
							 RelationGetRelationName(ib->index), pages)));
	index_close(ib->index, NoLock);
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
 * Opens the first index on id and the first on k that mb_btree can build
 * from this load; the one on k only if the rows' k and places fit in
 * maintenance_work_mem, as a sort would have to.
 */
static void
choose_indexes(Relation rel, List *index_oids, int64 table_size,
			   Relation *id_index, Relation *k_index)
{
	ListCell   *lc;

	*id_index = NULL;
	*k_index = NULL;
	foreach(lc, table_size > 0 ? index_oids : NIL)
	{
		Relation	index = index_open(lfirst_oid(lc), AccessExclusiveLock);
		AttrNumber	column = mb_btree_column(rel, index);

		if (column == MB_BTREE_ID && *id_index == NULL)
			*id_index = index;
		else if (column == MB_BTREE_K && *k_index == NULL &&
				 MB_ROW_PLACES_BYTES(table_size) <= (Size) maintenance_work_mem * 1024)
			*k_index = index;
		else
			index_close(index, NoLock);
	}
}

List *
mb_load_pages(Relation rel, mb_row_template *tpl, int64 table_size, mb_rng *rng,
			  List *index_oids)
{
	HeapTupleHeader header = tpl->tuple->t_data;
	Size		row_len = tpl->tuple->t_len;
	Size		room_needed = MAXALIGN(row_len) +
		RelationGetTargetPageFreeSpace(rel, HEAP_DEFAULT_FILLFACTOR);
	mb_heap_sink sink;
	Relation	id_index;
	Relation	k_index;
	mb_index_build *id_build = NULL;
	mb_index_build *k_build = NULL;
	mb_row_places places = {0};
	List	   *built = NIL;
	Page		page;
	int			filled;
	bool		first_batch = true;
	int64		id;

	if (table_size == 0)
		return NIL;
	/* as heap_multi_insert: fail now rather than after the work */
	CheckForSerializableConflictIn(rel, NULL, InvalidBlockNumber);

	header->t_infomask &= ~HEAP_XACT_MASK;
	header->t_infomask2 &= ~HEAP2_XACT_MASK;
	header->t_infomask |= HEAP_XMAX_INVALID;
	HeapTupleHeaderSetXmin(header, GetCurrentTransactionId());
	HeapTupleHeaderSetXminFrozen(header);
	HeapTupleHeaderSetCmin(header, GetCurrentCommandId(true));
	HeapTupleHeaderSetXmax(header, 0);

	choose_indexes(rel, index_oids, table_size, &id_index, &k_index);
	if (id_index != NULL)
	{
		id_build = begin_index_build(id_index);
		built = lappend_oid(built, RelationGetRelid(id_index));
	}
	if (k_index != NULL)
	{
		k_build = begin_index_build(k_index);
		built = lappend_oid(built, RelationGetRelid(k_index));
		keep_row_places(&places, table_size);
	}
	start_heap_sink(&sink, rel, table_size);

	filled = 1;
	page = sink.pages;
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
			if (filled == MB_BATCH_PAGES)
			{
				CHECK_FOR_INTERRUPTS();
				hand_on_pages(&sink, filled);
				filled = 0;
				if (first_batch)
					mb_load_reached(MB_LOAD_STEP_FIRST_BATCH);
				first_batch = false;
			}
			page = sink.pages + (Size) filled++ * BLCKSZ;
			PageInit(page, BLCKSZ, 0);
		}
		offset = PageAddItem(page, (Item) header, row_len, InvalidOffsetNumber, false, true);
		if (offset == InvalidOffsetNumber)
			elog(ERROR, "could not add row %lld to a page of \"%s\"",
				 (long long) id, RelationGetRelationName(rel));
		block = sink.first_block + filled - 1;
		row = (HeapTupleHeader) PageGetItem(page, PageGetItemId(page, offset));
		ItemPointerSet(&row->t_ctid, block, offset);
		k = mb_load_fill_row(tpl, (char *) row, (int32) id, rng, (uint32) table_size);
		if (id_build != NULL)
			mb_btree_add(id_build->btree, (int32) id, block, offset);
		if (places.k != NULL)
		{
			places.k[id - 1] = k;
			places.block[id - 1] = block;
			places.offset[id - 1] = offset;
		}
	}
	PageSetAllVisible(page);
	hand_on_pages(&sink, filled);
	finish_heap_sink(&sink);
	write_visibility_map(rel, sink.first_block);
	pgstat_count_heap_insert(rel, table_size);
	mb_load_reached(MB_LOAD_STEP_INDEXES);

	if (id_build != NULL)
		finish_index_build(id_build);
	if (k_build != NULL)
	{
		add_by_k(k_build->btree, &places, table_size);
		pfree(places.k);
		pfree(places.block);
		pfree(places.offset);
		finish_index_build(k_build);
	}
	return built;
}

#endif							/* MB_DIRECT_PAGES */

/*
 * mb_btree.c — builds an sbtest table's indexes on id and k from the rows
 * of bench_prepare's direct load, instead of a scan of the table and a sort
 * per index afterwards.
 *
 * The loader knows every row's id, k and place.  Ids arrive in order, so
 * the primary key's entries (id, ctid) can be added as the rows are placed;
 * k's entries are sorted by the loader (a counting sort: k lies in 1 ..
 * table_size) and added after the load.  The pages are laid out by the
 * rules Postgres's own btree build follows (nbtsort.c): entries with equal
 * keys merged into posting lists when the index deduplicates, leaves filled
 * to the index's fillfactor and upper levels to 70%, the last item of a
 * full page moved to the next page and its truncated copy left as the high
 * key, a "minus infinity" first item on each upper-level page, block
 * numbers handed out in the order pages are started, the metapage last.
 * The result is the index CREATE INDEX would build, page for page
 * (test/sql/02_prepare.sql compares them byte by byte where pageinspect is
 * installed, and checks them with amcheck).
 *
 * Only an index this file can build exactly is taken: an empty (metapage
 * only) btree on id or k alone, ascending, with the default operator class,
 * whose file was made in the current subtransaction (a rollback removes it
 * whole); on k, not unique (random k repeat, and Postgres's build reports
 * that).  Each finished page goes to the caller's emit callback, which
 * writes it (mb_fork_writer.c: WAL-logged, past shared buffers).  The
 * metapage, already in the file since CREATE INDEX, is rewritten last
 * through shared buffers, so that no stale copy of the empty index's
 * metapage can survive there.
 *
 * Only compiled where the page layouts are proven (MB_DIRECT_PAGES).
 */
#include "postgres.h"

#include "mb_direct_pages.h"

#ifdef MB_DIRECT_PAGES

#include "access/nbtree.h"
#include "access/xloginsert.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_opfamily_d.h"
#include "catalog/pg_type_d.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/bufpage.h"
#include "utils/inval.h"
#include "utils/rel.h"

#include "mb_btree.h"
#include "mb_load_rollback.h"

/* alignment of page buffers, enough for direct I/O (PG_IO_ALIGN_SIZE) */
#define MB_BTREE_IO_ALIGN 4096

/* The page being filled on one level of the tree. */
typedef struct mb_btree_level
{
	Page		page;
	Page		spare;			/* the next page's buffer */
	BlockNumber block;
	OffsetNumber last_offset;	/* P_HIKEY while the page has no items */
	Size		last_extra;		/* posting-list bytes of the last item */
	IndexTuple	low_key;		/* the parent's downlink to this page */
	Size		full_below;		/* free space below which the page is full */
	uint32		level;
	struct mb_btree_level *parent;
} mb_btree_level;

struct mb_btree_builder
{
	Relation	index;
	BTScanInsert key;			/* for suffix truncation of high keys */
	mb_btree_emit emit;
	void	   *emit_arg;
	BlockNumber next_block;		/* the next block number to hand out */
	BlockNumber pages_emitted;
	mb_btree_level *leaf;
	BlockNumber root;			/* once finished: the root, and its level */
	uint32		root_level;
	IndexTuple	entry;			/* one leaf entry, reused for every row */
	int32	   *entry_key;		/* where the key sits in it */
	BTDedupState dedup;			/* the pending posting list, if deduplicating */
};

static Page
alloc_page(void)
{
	char	   *raw = palloc(BLCKSZ + MB_BTREE_IO_ALIGN);

	return (Page) TYPEALIGN(MB_BTREE_IO_ALIGN, raw);
}

AttrNumber
mb_btree_column(Relation heap, Relation index)
{
	Form_pg_index form = index->rd_index;
	AttrNumber	column;

	if (index->rd_rel->relam != BTREE_AM_OID ||
		!form->indisvalid || !form->indisready ||
		form->indnatts != 1 || form->indnkeyatts != 1 ||
		index->rd_opfamily[0] != INTEGER_BTREE_FAM_OID ||
		index->rd_opcintype[0] != INT4OID ||
		index->rd_indoption[0] != 0 ||
		RelationGetIndexExpressions(index) != NIL ||
		RelationGetIndexPredicate(index) != NIL ||
		!mb_load_file_is_new_here(index) ||
		RelationNeedsWAL(index) != RelationNeedsWAL(heap) ||
		RelationGetNumberOfBlocks(index) != 1)
		return InvalidAttrNumber;
	column = form->indkey.values[0];
	if (column == MB_BTREE_ID || (column == MB_BTREE_K && !form->indisunique))
		return column;
	return InvalidAttrNumber;
}

mb_btree_builder *
mb_btree_begin(Relation index, mb_btree_emit emit, void *emit_arg)
{
	mb_btree_builder *b;
	Datum		value = Int32GetDatum(0);
	bool		isnull = false;

	b = palloc0(sizeof(mb_btree_builder));
	b->index = index;
	b->key = _bt_mkscankey(index, NULL);
	b->key->allequalimage = _bt_allequalimage(index, false);
	b->emit = emit;
	b->emit_arg = emit_arg;
	/* block 0 is the metapage, already there */
	b->next_block = BTREE_METAPAGE + 1;
	b->entry = index_form_tuple(RelationGetDescr(index), &value, &isnull);
	b->entry_key = (int32 *) ((char *) b->entry + IndexInfoFindDataOffset(b->entry->t_info));
	if (b->key->allequalimage && !index->rd_index->indisunique &&
		BTGetDeduplicateItems(index))
	{
		b->dedup = palloc0(sizeof(BTDedupStateData));
		b->dedup->deduplicate = true;
		/*
		 * As Postgres's build: a posting list takes at most the space a
		 * leaf at fillfactor 90 leaves free, less the line pointer.
		 */
		b->dedup->maxpostingsize = MAXALIGN_DOWN((BLCKSZ * 10 / 100)) - sizeof(ItemIdData);
		b->dedup->htids = palloc(b->dedup->maxpostingsize);
	}
	return b;
}

/* Starts the next page of a level and gives it the next block number. */
static void
start_page(mb_btree_builder *b, mb_btree_level *lv)
{
	BTPageOpaque opaque;

	_bt_pageinit(lv->page, BLCKSZ);
	opaque = BTPageGetOpaque(lv->page);
	opaque->btpo_prev = P_NONE;
	opaque->btpo_next = P_NONE;
	opaque->btpo_level = lv->level;
	opaque->btpo_flags = lv->level == 0 ? BTP_LEAF : 0;
	opaque->btpo_cycleid = 0;
	/* room for the high key's line pointer, filled in when the page is full */
	((PageHeader) lv->page)->pd_lower += sizeof(ItemIdData);
	lv->block = b->next_block++;
	lv->last_offset = P_HIKEY;
}

static mb_btree_level *
new_level(mb_btree_builder *b, uint32 level)
{
	mb_btree_level *lv = palloc0(sizeof(mb_btree_level));

	lv->level = level;
	lv->page = alloc_page();
	lv->spare = alloc_page();
	lv->full_below = level == 0 ? BTGetTargetPageFreeSpace(b->index) :
		BLCKSZ * (100 - BTREE_NONLEAF_FILLFACTOR) / 100;
	start_page(b, lv);
	return lv;
}

/*
 * Adds an item at the given offset; an upper level's first item keeps only
 * its downlink (its key is "minus infinity").
 */
static void
put_item(Page page, IndexTuple item, OffsetNumber offset, bool minus_infinity)
{
	IndexTupleData bare;
	Size		size = MAXALIGN(IndexTupleSize(item));

	if (minus_infinity)
	{
		bare = *item;
		bare.t_info = sizeof(IndexTupleData);
		BTreeTupleSetNAtts(&bare, 0, false);
		item = &bare;
		size = sizeof(IndexTupleData);
	}
	if (PageAddItem(page, (Item) item, size, offset, false, false) == InvalidOffsetNumber)
		elog(ERROR, "could not add an item to an index page being built");
}

static void add_to_level(mb_btree_builder *b, mb_btree_level *lv, IndexTuple item,
						 Size posting_extra);

static void
emit_page(mb_btree_builder *b, Page page, BlockNumber block)
{
	b->emit(b->emit_arg, page, block);
	b->pages_emitted++;
}

/*
 * The page of level lv cannot take another item: its last item moves to a
 * new page, a copy of it (truncated on leaves) becomes the old page's high
 * key, the parent gets a downlink to the old page, and the old page is
 * emitted.
 */
static void
finish_page(mb_btree_builder *b, mb_btree_level *lv)
{
	Page		old_page = lv->page;
	BlockNumber old_block = lv->block;
	OffsetNumber last = lv->last_offset;
	bool		is_leaf = lv->level == 0;
	ItemId		last_id = PageGetItemId(old_page, last);
	IndexTuple	last_item = (IndexTuple) PageGetItem(old_page, last_id);
	ItemId		high_id;

	lv->page = lv->spare;
	start_page(b, lv);
	put_item(lv->page, last_item, P_FIRSTKEY, !is_leaf);

	/* the last item's line pointer becomes the high key's */
	high_id = PageGetItemId(old_page, P_HIKEY);
	*high_id = *last_id;
	ItemIdSetUnused(last_id);
	((PageHeader) old_page)->pd_lower -= sizeof(ItemIdData);
	if (is_leaf)
	{
		IndexTuple	left = (IndexTuple) PageGetItem(old_page,
													PageGetItemId(old_page, OffsetNumberPrev(last)));
		IndexTuple	truncated = _bt_truncate(b->index, left, last_item, b->key);

		if (!PageIndexTupleOverwrite(old_page, P_HIKEY, (Item) truncated,
									 IndexTupleSize(truncated)))
			elog(ERROR, "could not set the high key of a page of index \"%s\"",
				 RelationGetRelationName(b->index));
		pfree(truncated);
	}

	if (lv->parent == NULL)
		lv->parent = new_level(b, lv->level + 1);
	BTreeTupleSetDownLink(lv->low_key, old_block);
	add_to_level(b, lv->parent, lv->low_key, 0);
	pfree(lv->low_key);
	lv->low_key = CopyIndexTuple((IndexTuple) PageGetItem(old_page,
														  PageGetItemId(old_page, P_HIKEY)));

	BTPageGetOpaque(old_page)->btpo_next = lv->block;
	BTPageGetOpaque(lv->page)->btpo_prev = old_block;
	emit_page(b, old_page, old_block);
	lv->spare = old_page;
	lv->last_offset = P_FIRSTKEY;
}

/*
 * Adds an item to a level.  A page is full when the item does not fit, or
 * when its free space fell below the fill target (counting the bytes the
 * last item's posting list gives back when it becomes a truncated high key)
 * and it holds two items or more.
 */
static void
add_to_level(mb_btree_builder *b, mb_btree_level *lv, IndexTuple item, Size posting_extra)
{
	Size		free_space = PageGetFreeSpace(lv->page);
	Size		size = MAXALIGN(IndexTupleSize(item));
	bool		is_leaf = lv->level == 0;
	Size		last_extra = lv->last_extra;

	lv->last_extra = posting_extra;
	/* a leaf keeps room for the heap TID a truncated high key may need */
	if (free_space < size + (is_leaf ? MAXALIGN(sizeof(ItemPointerData)) : 0) ||
		(free_space + last_extra < lv->full_below && lv->last_offset > P_FIRSTKEY))
		finish_page(b, lv);

	if (lv->last_offset == P_HIKEY)
	{
		/* the first page of a level: its low key is minus infinity */
		lv->low_key = palloc0(sizeof(IndexTupleData));
		lv->low_key->t_info = sizeof(IndexTupleData);
		BTreeTupleSetNAtts(lv->low_key, 0, false);
	}
	lv->last_offset = OffsetNumberNext(lv->last_offset);
	put_item(lv->page, item, lv->last_offset, !is_leaf && lv->last_offset == P_FIRSTKEY);
}

/* Adds the pending posting list (or its lone entry) to the leaves. */
static void
add_pending(mb_btree_builder *b)
{
	BTDedupState d = b->dedup;

	if (d->nitems == 1)
		add_to_level(b, b->leaf, d->base, 0);
	else
	{
		IndexTuple	posting = _bt_form_posting(d->base, d->htids, d->nhtids);

		add_to_level(b, b->leaf, posting,
					 IndexTupleSize(posting) - BTreeTupleGetPostingOffset(posting));
		pfree(posting);
	}
	pfree(d->base);
	d->base = NULL;
	d->nmaxitems = 0;
	d->nhtids = 0;
	d->nitems = 0;
	d->phystupsize = 0;
}

void
mb_btree_add(mb_btree_builder *b, int32 key, BlockNumber block, OffsetNumber offset)
{
	if (b->leaf == NULL)
		b->leaf = new_level(b, 0);
	ItemPointerSet(&b->entry->t_tid, block, offset);
	*b->entry_key = key;
	if (b->dedup == NULL)
	{
		add_to_level(b, b->leaf, b->entry, 0);
		return;
	}
	/* an equal key joins the pending posting list while it has room */
	if (b->dedup->base != NULL &&
		_bt_keep_natts_fast(b->index, b->dedup->base, b->entry) >
		IndexRelationGetNumberOfKeyAttributes(b->index) &&
		_bt_dedup_save_htid(b->dedup, b->entry))
		return;
	if (b->dedup->base != NULL)
		add_pending(b);
	_bt_dedup_start_pending(b->dedup, CopyIndexTuple(b->entry), InvalidOffsetNumber);
}

void
mb_btree_finish(mb_btree_builder *b)
{
	mb_btree_level *lv;

	b->root = P_NONE;
	b->root_level = 0;
	if (b->dedup != NULL && b->dedup->base != NULL)
		add_pending(b);

	/* each level's last page: link it upwards (or make it the root), emit it */
	for (lv = b->leaf; lv != NULL; lv = lv->parent)
	{
		OffsetNumber off;
		OffsetNumber last = PageGetMaxOffsetNumber(lv->page);

		if (lv->parent == NULL)
		{
			BTPageGetOpaque(lv->page)->btpo_flags |= BTP_ROOT;
			b->root = lv->block;
			b->root_level = lv->level;
		}
		else
		{
			BTreeTupleSetDownLink(lv->low_key, lv->block);
			add_to_level(b, lv->parent, lv->low_key, 0);
		}
		/* the rightmost page has no high key: its items move up one slot */
		for (off = P_HIKEY; off < last; off = OffsetNumberNext(off))
			*PageGetItemId(lv->page, off) = *PageGetItemId(lv->page, OffsetNumberNext(off));
		((PageHeader) lv->page)->pd_lower -= sizeof(ItemIdData);
		emit_page(b, lv->page, lv->block);
	}
}

BlockNumber
mb_btree_write_metapage(mb_btree_builder *b)
{
	Buffer		meta;

	meta = ReadBufferExtended(b->index, MAIN_FORKNUM, BTREE_METAPAGE, RBM_NORMAL, NULL);
	LockBuffer(meta, BUFFER_LOCK_EXCLUSIVE);
	START_CRIT_SECTION();
	_bt_initmetapage(BufferGetPage(meta), b->root, b->root_level, b->key->allequalimage);
	MarkBufferDirty(meta);
	if (RelationNeedsWAL(b->index))
		log_newpage_buffer(meta, true);
	END_CRIT_SECTION();
	UnlockReleaseBuffer(meta);
	/* forget any cached copy of the empty index's metapage */
	CacheInvalidateRelcache(b->index);
	return b->pages_emitted + 1;
}

#endif							/* MB_DIRECT_PAGES */

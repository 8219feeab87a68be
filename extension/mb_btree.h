/*
 * mb_btree.h — builds an sbtest table's indexes on id and k from the rows
 * of bench_prepare's direct load (mb_btree.c).
 */
#ifndef MB_BTREE_H
#define MB_BTREE_H

#include "access/attnum.h"
#include "storage/block.h"
#include "storage/bufpage.h"
#include "storage/off.h"
#include "utils/relcache.h"

/* the sbtest columns an index built here may cover */
#define MB_BTREE_ID 1
#define MB_BTREE_K 2

typedef struct mb_btree_builder mb_btree_builder;

/*
 * Called with each finished page, to write it (WAL-logged): each block
 * once, upper levels after leaves with higher block numbers.  The page's
 * memory is reused once the callback returns.
 */
typedef void (*mb_btree_emit) (void *arg, Page page, BlockNumber block);

/*
 * The column (MB_BTREE_ID or MB_BTREE_K) of an index mb_btree can build,
 * or InvalidAttrNumber.
 */
extern AttrNumber mb_btree_column(Relation heap, Relation index);

extern mb_btree_builder *mb_btree_begin(Relation index, mb_btree_emit emit, void *emit_arg);

/* The next entry: in order of key, then of heap TID. */
extern void mb_btree_add(mb_btree_builder *b, int32 key, BlockNumber block, OffsetNumber offset);

/* Emits the last page of each level. */
extern void mb_btree_finish(mb_btree_builder *b);

/*
 * Once every page is written and durable: points the metapage at the root;
 * returns the index's pages.
 */
extern BlockNumber mb_btree_write_metapage(mb_btree_builder *b);

#endif							/* MB_BTREE_H */

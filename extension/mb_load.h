/*
 * mb_load.h — microbench_load_table()'s setting and the direct path's
 * entry.
 *
 * mb_load.c chooses the path and runs the bulk-insert one; mb_load_pages.c
 * is the direct path, mb_fork_writer.c and mb_btree.c its helpers.
 */
#ifndef MB_LOAD_H
#define MB_LOAD_H

#include "nodes/pg_list.h"
#include "utils/relcache.h"

#include "mb_direct_pages.h"
#include "mb_load_rows.h"
#include "mb_rand.h"

/* microbench.direct_load: use the direct path where it is safe (default on) */
extern bool mb_direct_load;

#ifdef MB_DIRECT_PAGES

/*
 * The direct path (mb_load_pages.c): rows 1 .. table_size written as frozen,
 * all-visible heap pages with their visibility map into rel, whose file has
 * no pages yet.  Of the indexes in index_oids, those mb_btree.c can lay out
 * exactly are built from the rows; returns their OIDs (the caller has the
 * others built).
 */
extern List *mb_load_pages(Relation rel, mb_row_template *tpl, int64 table_size, mb_rng *rng,
						   List *index_oids);

#endif							/* MB_DIRECT_PAGES */

#endif							/* MB_LOAD_H */

/*
 * mb_load_pages.h — the direct load: an sbtest table's rows written as
 * pages, with its visibility map and its indexes on id and k
 * (mb_load_pages.c).
 *
 * Only in builds that have it (mb_direct_pages.h); mb_load.c decides when it
 * is safe to take.
 */
#ifndef MB_LOAD_PAGES_H
#define MB_LOAD_PAGES_H

#include "nodes/pg_list.h"
#include "utils/relcache.h"

#include "mb_direct_pages.h"
#include "mb_load_rows.h"
#include "mb_rand.h"

#ifdef MB_DIRECT_PAGES

/*
 * Rows 1 .. table_size written as frozen, all-visible heap pages with their
 * visibility map into rel, whose file has no pages yet.  Of the indexes in
 * index_oids, those mb_btree.c can lay out exactly are built from the rows;
 * returns their OIDs (the caller has the others built).
 */
extern List *mb_load_pages(Relation rel, mb_row_template *tpl, int64 table_size, mb_rng *rng,
						   List *index_oids);

#endif							/* MB_DIRECT_PAGES */

#endif							/* MB_LOAD_PAGES_H */

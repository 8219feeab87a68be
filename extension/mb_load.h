/*
 * mb_load.h — what the loader's parts share: the test hook that makes a
 * load fail at a chosen step, and whether a relation's file is new here.
 *
 * mb_load.c chooses the path and runs the bulk-insert one; mb_load_pages.c
 * is the direct path, mb_fork_writer.c and mb_btree.c its helpers.
 */
#ifndef MB_LOAD_H
#define MB_LOAD_H

#include "nodes/pg_list.h"
#include "utils/guc.h"
#include "utils/relcache.h"

#include "mb_direct_pages.h"
#include "mb_load_rows.h"
#include "mb_rand.h"

/* microbench.direct_load: use the direct path where it is safe (default on) */
extern bool mb_direct_load;

/*
 * microbench.inject_load_error (superuser, for tests): the step at which a
 * load fails on purpose, to show that a failed load leaves nothing behind.
 */
typedef enum mb_load_step
{
	MB_LOAD_STEP_NONE,
	MB_LOAD_STEP_FIRST_BATCH,	/* after the first rows are written */
	MB_LOAD_STEP_HELPER,		/* in the parallel helper, after its first batch */
	MB_LOAD_STEP_INDEXES,		/* the table written, its indexes not yet */
	MB_LOAD_STEP_AFTER_INDEX,	/* the first index written (its metapage not, on the direct path) */
	MB_LOAD_STEP_END			/* everything done, before returning */
} mb_load_step;

extern int	mb_inject_load_error;
extern const struct config_enum_entry mb_load_step_options[];

/* Fails with an injected error if the load is set to fail at this step. */
extern void mb_load_reached(mb_load_step step);

/*
 * Whether rel's file was made in the current subtransaction (the relation
 * created, or given a new file as by TRUNCATE): rolling it back then
 * removes the file whole, whatever was written to it.
 */
extern bool mb_load_file_is_new_here(Relation rel);

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

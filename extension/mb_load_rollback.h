/*
 * mb_load_rollback.h — what lets a failed load leave nothing behind:
 * whether a relation's file was made in this subtransaction, and the test
 * hook that makes a load fail at a chosen step (mb_load_rollback.c).
 */
#ifndef MB_LOAD_ROLLBACK_H
#define MB_LOAD_ROLLBACK_H

#include "utils/guc.h"
#include "utils/relcache.h"

/* the relcache's name for the subtransaction that gave a relation its file */
#if PG_VERSION_NUM >= 160000
#define MB_NEW_FILE_SUBID(rel) ((rel)->rd_newRelfilelocatorSubid)
#else
#define MB_NEW_FILE_SUBID(rel) ((rel)->rd_newRelfilenodeSubid)
#endif

/*
 * Whether rel's file was made in the current subtransaction (the relation
 * created, or given a new file as by TRUNCATE): rolling it back then
 * removes the file whole, whatever was written to it.
 */
extern bool mb_load_file_is_new_here(Relation rel);

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

#endif							/* MB_LOAD_ROLLBACK_H */

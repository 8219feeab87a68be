/*
 * mb_load_rollback.c — what lets a failed load leave nothing behind:
 * whether a relation's file was made in this subtransaction, and the test
 * hook that makes a load fail at a chosen step.
 *
 * A load writes frozen rows, and pages past shared buffers, only into a
 * file made in the current subtransaction: rolling that back removes the
 * file whole, where frozen rows, or pages no buffer holds, could not be
 * taken back one by one.  Every file of the loader asks the one question
 * here and reports its steps here, so the tests (18_load_safety.sql) can
 * fail a load at each step and check that nothing of it survives.
 */
#include "postgres.h"

#include "access/xact.h"
#include "utils/guc.h"
#include "utils/rel.h"

#include "mb_load_rollback.h"

int			mb_inject_load_error = MB_LOAD_STEP_NONE;

const struct config_enum_entry mb_load_step_options[] = {
	{"none", MB_LOAD_STEP_NONE, false},
	{"first_batch", MB_LOAD_STEP_FIRST_BATCH, false},
	{"helper", MB_LOAD_STEP_HELPER, false},
	{"before_indexes", MB_LOAD_STEP_INDEXES, false},
	{"after_index", MB_LOAD_STEP_AFTER_INDEX, false},
	{"end", MB_LOAD_STEP_END, false},
	{NULL, 0, false}
};

bool
mb_load_file_is_new_here(Relation rel)
{
	SubTransactionId here = GetCurrentSubTransactionId();

	return rel->rd_createSubid == here || MB_NEW_FILE_SUBID(rel) == here;
}

void
mb_load_reached(mb_load_step step)
{
	if (mb_inject_load_error == step)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("microbench.inject_load_error: the load fails at step \"%s\"",
						mb_load_step_options[step].name)));
}

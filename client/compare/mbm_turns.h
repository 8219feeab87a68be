/*
 * mbm_turns.h — --turns (mbm_turns.c): the builds' servers up side by
 * side, the timed runs of one workload taking turns on them.
 */
#ifndef MBM_TURNS_H
#define MBM_TURNS_H

#include "mbm_state.h"

/* One DBMS's builds abs, n of them, on workload in round. */
extern mbm_run_outcome mbm_turns_run(const mbm_any_build *const *abs, int n, const char *workload,
									 int round);

#endif							/* MBM_TURNS_H */

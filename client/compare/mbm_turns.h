/*
 * mbm_turns.h — --turns and --keep-up (mbm_turns.c): the builds' servers
 * up side by side, the timed runs of one workload, or of all of a round's,
 * taking turns on them.
 */
#ifndef MBM_TURNS_H
#define MBM_TURNS_H

#include "mbm_state.h"

/* One DBMS's builds abs, n of them, on workload in round: one start each. */
extern mbm_run_outcome mbm_turns_run(const mbm_any_build *const *abs, int n, const char *workload,
									 int round);
/*
 * --keep-up: the same builds on the nws workloads ws (indexes into
 * rq.workloads) of round, all on one start of each build; a write's
 * tables loaded again before each of its runs.
 */
extern mbm_run_outcome mbm_turns_keep_up(const mbm_any_build *const *abs, int n, const int *ws,
										 int nws, int round);

#endif							/* MBM_TURNS_H */

/*
 * mbm_count_sides.h — a round's counted runs with the builds side by side
 * (mbm_count_sides.c): a process a build, each with its own server, the
 * rows handed back to the runner, which keeps them as they come.
 */
#ifndef MBM_COUNT_SIDES_H
#define MBM_COUNT_SIDES_H

#include <stdbool.h>

#include "mbm_record.h"
#include "mbm_state.h"

/* How a build's counted runs of a round ended. */
typedef enum mbm_count_end
{
	COUNT_DONE, COUNT_OUT_OF_TIME, COUNT_BUILD_FAILED, COUNT_STOPPED
} mbm_count_end;

/* A build's counted runs of round for the cells[column][workload] asked. */
typedef mbm_count_end (*mbm_count_build_fn) (const mbm_any_build *ab, int round,
											 bool cells[MBM_COLUMNS][MBM_MAX_WORKLOADS]);

/*
 * Whether the round can run its builds side by side: two builds or more,
 * two CPUs or more, and every cell's window already set (by round 1, whose
 * builds take turns, so that one build's first run sets it for all).
 */
extern bool mbm_count_sides_possible(bool cells[MBM_COLUMNS][MBM_MAX_WORKLOADS]);

/*
 * The round's builds side by side, as many at a time as there are CPUs,
 * each in a process of its own calling count_build: the end the round
 * came to (the first build to fail or to run out of time says).
 */
extern mbm_count_end mbm_count_sides(int round, bool cells[MBM_COLUMNS][MBM_MAX_WORKLOADS],
									 mbm_count_build_fn count_build);

/* The port of the counted server of this process: its side's, or RUN_PORT. */
extern int	mbm_count_side_port(void);

/* The name of this process's MariaDB socket in the work directory. */
extern const char *mbm_count_side_socket(void);

/*
 * A counted run's row kept: by the runner itself (mbm_run_keep), or, in a
 * side's process, handed to the runner, which keeps it.
 */
extern void mbm_count_keep(const mbm_any_build *ab, const char *workload, int round,
						   mbm_run_outcome outcome, mbm_record *run, const char *err, const char *log,
						   double run_s, const char *around);

#endif							/* MBM_COUNT_SIDES_H */

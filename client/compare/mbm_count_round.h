/*
 * mbm_count_round.h — a round's counted runs (mbm_count_round.c): each
 * build's server is started under valgrind once for all its reads and once
 * for each write, and each round has a seed of its own.
 */
#ifndef MBM_COUNT_ROUND_H
#define MBM_COUNT_ROUND_H

#include <stdbool.h>

#include "mbm_state.h"

/*
 * The counted runs of round for the cells[column][workload] asked
 * (mbm_column: Postgres in-server, MariaDB/MySQL, Postgres over the wire),
 * every build in turn or side by side.  False when
 * --max-minutes ran out before the round's last run.
 */
extern bool mbm_count_round(int round, bool cells[MBM_COLUMNS][MBM_MAX_WORKLOADS]);

#endif							/* MBM_COUNT_ROUND_H */

/*
 * mbm_count_round.h — a round's counted runs (mbm_count_round.c): one
 * start under valgrind a build for its reads, one a write, each round its
 * own seed.
 */
#ifndef MBM_COUNT_ROUND_H
#define MBM_COUNT_ROUND_H

#include <stdbool.h>

/*
 * The counted runs of round for the cells[family][workload] asked (family
 * 0 Postgres, 1 MariaDB/MySQL), every build in turn.  False when
 * --max-minutes ran out before the round's last run.
 */
extern bool mbm_count_round(int round, bool cells[2][64]);

#endif							/* MBM_COUNT_ROUND_H */

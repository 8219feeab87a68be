/*
 * mbm_rounds.h — microbench compare's schedule (mbm_rounds.c): the runs,
 * and the rounds until every cell is decided.
 */
#ifndef MBM_ROUNDS_H
#define MBM_ROUNDS_H

/* Every run of the comparison, round after round, until it is decided or --max-minutes is spent. */
extern void mbm_rounds_run(void);

#endif							/* MBM_ROUNDS_H */

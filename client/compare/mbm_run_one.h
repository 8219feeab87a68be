/*
 * mbm_run_one.h — one timed run of microbench compare (mbm_run_one.c),
 * from the copy of the pristine data to its removal; the start, the timed
 * run and the keeping of a run that the turns and the counted runs share.
 */
#ifndef MBM_RUN_ONE_H
#define MBM_RUN_ONE_H

#include <stdbool.h>
#include <stddef.h>

#include "mbm_record.h"
#include "mbm_state.h"

/* One timed run of ab, on a fresh copy of its pristine data and a fresh start of its server. */
extern mbm_run_outcome mbm_run_one(const mbm_any_build *ab, const char *workload, int round);
/* The time one timed run takes from copy to removal: measured, else guessed. */
extern double mbm_run_estimate(void);
/*
 * A timed run of ab on its server s, up, the machine watched while it
 * runs: its record into *rec.  instance names a MariaDB/MySQL server's
 * start (NULL: the server says).
 */
extern mbm_run_outcome mbm_run_timed(const mbm_any_build *ab, const mbm_server *s, const char *instance,
									 const char *workload, int round, double warmup, mbm_record **rec,
									 char *err, size_t errlen);
/*
 * A run's outcome kept: the order file, runs.jsonl and the results database
 * when it succeeded, its progress line either way (around: what the copy,
 * start and stop took; NULL for a turn on a server already up).
 */
extern void mbm_run_keep(const mbm_any_build *ab, const char *workload, int round, bool counted,
						 mbm_run_outcome outcome, mbm_record *rec, const char *err, const char *log,
						 double run_s, const char *around);

#endif							/* MBM_RUN_ONE_H */

/*
 * mbm_count.h — counted runs on a server up under valgrind's callgrind
 * (mbm_count.c): the instructions of the measured window, nothing else.
 */
#ifndef MBM_COUNT_H
#define MBM_COUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "mbm_measure.h"
#include "mbm_state.h"

/* valgrind (and for MariaDB callgrind_control) on PATH: 0, or -1 with a one-line reason. */
extern int	mbm_count_tools(bool control, char *err, size_t errlen);
/* What counts: "callgrind 3.19.0". */
extern const char *mbm_count_counter(void);
/* The seed of round's counted runs: --seed + round, for every build alike. */
extern long long mbm_count_seed(int round);
/* The events every counted run warms up with before its window, on its own connection. */
extern long long mbm_count_warmup_events(void);
/* The settings ab's counted Postgres server has that a timed one has not ("\n"-separated), or NULL. */
extern const char *mbm_count_server_settings(const mbm_any_build *ab);
/* The command to start ab's counted server under (its DBMS and path), its count directory made anew. */
extern char *const *mbm_count_wrapper(const mbm_any_build *ab);
/*
 * A counted server just started (ab's, pgs or mys by its family), made
 * ready: every block of the tables and indexes read into its buffers, and
 * a MariaDB's instrumentation on, or over the wire the postmaster's.  0, or
 * -1 with err set.
 */
extern int	mbm_count_ready(const mbm_any_build *ab, const mbm_pgserver *pgs,
							const mbm_myserver *mys, char *err, size_t errlen);
/*
 * A counted run of workload on ab's server, ready: lim's window (seed,
 * warm-up events, events or seconds, a checkpoint first), its row with the
 * window's instructions into *rec (the caller frees it).
 */
extern mbm_run_outcome mbm_count_measure(const mbm_any_build *ab, const mbm_pgserver *pgs,
										 const mbm_myserver *mys, const char *workload, int round,
										 const mbm_limits *lim, mbm_record **rec, char *err,
										 size_t errlen);
/* A counted server that did not start: what valgrind's log says of why, added to err. */
extern void mbm_count_explain_start(const char *log, char *err, size_t errlen);

#endif							/* MBM_COUNT_H */

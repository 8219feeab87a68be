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
/* The settings a counted Postgres server has that a timed one has not ("\n"-separated). */
extern const char *mbm_count_pg_settings(void);
/*
 * The command to start a counted server under, for each kind of server
 * (Postgres in-server, over the wire, MariaDB or MySQL), its count
 * directory made anew.
 */
extern char *const *mbm_count_wrapper_pg(void);
extern char *const *mbm_count_wrapper_pg_wire(void);
extern char *const *mbm_count_wrapper_my(void);
/*
 * A counted server just started, made ready: every block of the tables
 * and indexes read into its buffers, and a MariaDB's instrumentation on.
 * 0, or -1 with err set.
 */
extern int	mbm_count_ready_pg(const mbm_pgserver *pgs, char *err, size_t errlen);
extern int	mbm_count_ready_my(const mbm_myserver *mys, char *err, size_t errlen);
/*
 * A counted run of workload on a server that is ready, in-server, over
 * the wire or on MariaDB/MySQL: lim's window (seed, warm-up events, events
 * or seconds, a checkpoint first), its row with the window's instructions
 * into *rec (the caller frees it).
 */
extern mbm_run_outcome mbm_count_pg(const mbm_pgserver *pgs, const char *workload, int round,
									const mbm_limits *lim, mbm_record **rec, char *err, size_t errlen);
extern mbm_run_outcome mbm_count_pg_wire(const mbm_pgserver *pgs, const char *workload, int round,
										 const mbm_limits *lim, mbm_record **rec, char *err,
										 size_t errlen);
extern mbm_run_outcome mbm_count_my(const mbm_myserver *mys, const char *workload, int round,
									const mbm_limits *lim, mbm_record **rec, char *err, size_t errlen);
/* A counted server that did not start: what valgrind's log says of why, added to err. */
extern void mbm_count_explain_start(const char *log, char *err, size_t errlen);

#endif							/* MBM_COUNT_H */

/*
 * mbm_count.h — counted runs (mbm_count.c): the server under valgrind,
 * the instructions of a query.
 */
#ifndef MBM_COUNT_H
#define MBM_COUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "mbm_state.h"

/* valgrind (and for MariaDB callgrind_control) on PATH: 0, or -1 with a one-line reason. */
extern int	mbm_count_tools(bool mariadb, char *err, size_t errlen);
/* What counts a Postgres's (pg) or a MariaDB's runs: "cachegrind 3.19.0". */
extern const char *mbm_count_counter(bool pg);
/* The command to start a counted run's server under, its count directory made anew. */
extern char *const *mbm_count_wrapper(bool pg);
/* Each workload's rate under valgrind on the first build of each DBMS: the events of its passes. */
extern int	mbm_count_probe(char *err, size_t errlen);
/* A counted run of workload w on ab's server, up: its row (a JSON line) into *line. */
extern mbm_run_outcome mbm_count_run(const mbm_any_build *ab, const char *workload, int w,
									 int round, char **line, char *err, size_t errlen);
/* The event counts of the two counted passes of a cell (family 0 Postgres, 1 MariaDB/MySQL). */
extern void mbm_count_events(int family, int w, long long *n1, long long *n2);

#endif							/* MBM_COUNT_H */

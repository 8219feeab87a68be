/*
 * mbm_measure.h — one measurement on a server the runner started and that
 * is up (mbm_measure.c), its row as a JSON line.
 */
#ifndef MBM_MEASURE_H
#define MBM_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "mbm_state.h"

/* What ends a measurement: a timed run's window, or a counted pass's events. */
typedef struct mbm_limits
{
	double		seconds;		/* the window */
	double		warmup;
	long long	events;			/* > 0: the window ends after this many */
	bool		counted;		/* a counted pass: --seed's sequence; the server does the client's work alone */
} mbm_limits;

/* bench_run() in Postgres srv, or this program's mysql driver against srv: the row into *line. */
extern mbm_run_outcome mbm_measure_pg(const mbm_pgserver *srv, const char *workload, int round,
									  const mbm_limits *lim, char **line, char *err, size_t errlen);
extern mbm_run_outcome mbm_measure_my(const mbm_myserver *srv, const char *instance,
									  const char *workload, int round, const mbm_limits *lim,
									  char **line, char *err, size_t errlen);
/* A number in a run's JSON line ("key": value, or the first of an array), or def. */
extern double mbm_json_number(const char *line, const char *key, double def);
/* This program as a client of srv, `microbench --db-driver=mysql ... extra`: 0 or -1. */
extern int	mbm_my_client(const mbm_myserver *srv, const char *const *extra, int nextra,
						  char *err, size_t errlen);

#endif							/* MBM_MEASURE_H */

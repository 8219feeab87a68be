/*
 * mbm_measure.h — one measurement on a server the runner started and that
 * is up (mbm_measure.c), its row as a run's record.
 */
#ifndef MBM_MEASURE_H
#define MBM_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "mbm_record.h"
#include "mbm_state.h"

/* What a run is asked: a timed run its seconds and warm-up; a counted one its window. */
typedef struct mbm_limits
{
	double		seconds;		/* the window (0 with events: no time limit) */
	double		warmup;
	long long	events;			/* > 0: the window ends after this many */
	bool		counted;		/* a counted run: the window marked for callgrind, what follows */
	long long	seed;			/* its key sequence */
	long long	warmup_events;	/* its warm-up, in events */
	bool		checkpoint;		/* Postgres: a checkpoint right before its window */

	/*
	 * A client's run (MariaDB/MySQL, Postgres over the wire): called with
	 * the client stopped and every connection
	 * idle as the window opens (edge 1) and closes (edge 2), to mark it on
	 * the server; 0, or -1 with err set to give up the run
	 */
	int			(*mark) (int edge, void *arg, char *err, size_t errlen);
	void	   *mark_arg;
} mbm_limits;

/* bench_run() in Postgres srv, or this program's mysql driver against srv: the row into *rec. */
extern mbm_run_outcome mbm_measure_pg(const mbm_pgserver *srv, const char *workload, int round,
									  const mbm_limits *lim, mbm_record **rec, char *err, size_t errlen);
extern mbm_run_outcome mbm_measure_my(const mbm_myserver *srv, const char *instance,
									  const char *workload, int round, const mbm_limits *lim,
									  mbm_record **rec, char *err, size_t errlen);
/*
 * This program's pgsql driver against Postgres srv over its socket: the
 * row into *rec; no_monitor: without the connection that reads the
 * server's counters and the data's state (--server-status=off).
 */
extern mbm_run_outcome mbm_measure_pg_wire(const mbm_pgserver *srv, const char *workload, int round,
										   const mbm_limits *lim, bool no_monitor, mbm_record **rec,
										   char *err, size_t errlen);
/*
 * This program as a client of srv, `microbench --db-driver=mysql ... extra`:
 * 0 or -1.  mark (NULL: none) is called each time the client stops itself
 * (--window-stop), with the stop's number, before it goes on.
 */
extern int	mbm_my_client(const mbm_myserver *srv, const char *const *extra, int nextra,
						  int (*mark) (int edge, void *arg, char *err, size_t errlen),
						  void *mark_arg, char *err, size_t errlen);

#endif							/* MBM_MEASURE_H */

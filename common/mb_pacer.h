/*
 * mb_pacer.h — the schedule of a rate-limited run (rate => / --rate).
 *
 * As sysbench and pgbench do, events arrive as a Poisson process: the gaps
 * between scheduled starts are exponentially distributed with mean
 * 1 / (rate per client).  Each client has its own pacer and random stream,
 * separate from the one drawing keys, so a seeded run draws the same keys
 * with or without a rate.  A client that falls behind starts its next
 * event at once, and that event's latency is taken from its scheduled
 * start: the queueing delay shows, as it would for a real arrival.
 */
#ifndef MB_PACER_H
#define MB_PACER_H

#include <stdint.h>

#include "mb_rand.h"

typedef struct mb_pacer
{
	double		mean_gap_ns;	/* 1e9 / events per second of this client */
	double		next_ns;		/* scheduled start of the next event */
	mb_rng		rng;
} mb_pacer;

/* Schedule rate_per_client events per second from start_ns on. */
extern void mb_pacer_init(mb_pacer *pacer, double rate_per_client,
						  uint64_t seed, uint64_t stream, uint64_t start_ns);

/* The scheduled start of the next event, advancing the schedule. */
extern uint64_t mb_pacer_next(mb_pacer *pacer);

#endif							/* MB_PACER_H */

/*
 * mb_pacer.c — Poisson schedule of a rate-limited run (see mb_pacer.h).
 */
#include "mb_pacer.h"

#include <math.h>

void
mb_pacer_init(mb_pacer *pacer, double rate_per_client, uint64_t seed,
			  uint64_t stream, uint64_t start_ns)
{
	pacer->mean_gap_ns = 1e9 / rate_per_client;
	mb_rng_seed(&pacer->rng, seed, stream);
	pacer->next_ns = (double) start_ns;
	/* the first arrival, like every other, comes after an exponential gap */
	(void) mb_pacer_next(pacer);
}

uint64_t
mb_pacer_next(mb_pacer *pacer)
{
	uint64_t	scheduled = (uint64_t) pacer->next_ns;

	/* 1 - u is in (0, 1]: the logarithm is finite */
	pacer->next_ns += -log(1.0 - mb_rng_double(&pacer->rng)) * pacer->mean_gap_ns;
	return scheduled;
}

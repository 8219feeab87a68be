/*
 * mb_canary.c — the host-speed canary (see mb_canary.h).
 */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime under -std=c99 */

#include "mb_canary.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "mb_rand.h"

/* 2 MiB of 8-byte slots: larger than a typical per-core L2 */
#define CANARY_SLOTS	(256 * 1024)
#define CANARY_LOADS	40000
#define CANARY_MULS		400000
#define CANARY_REPEATS	5

static uint64_t *canary_cycle;	/* canary_cycle[i] is the slot after i */

/* One random cycle through every slot (Sattolo's shuffle), fixed seed. */
static int
canary_build(void)
{
	mb_rng		rng;
	uint64_t	i;

	canary_cycle = malloc(sizeof(uint64_t) * CANARY_SLOTS);
	if (canary_cycle == NULL)
		return 0;
	for (i = 0; i < CANARY_SLOTS; i++)
		canary_cycle[i] = i;
	mb_rng_seed(&rng, 0x63616e617279ULL, 0);
	for (i = CANARY_SLOTS - 1; i > 0; i--)
	{
		uint64_t	j = mb_rng_next(&rng) % i;	/* j < i: one single cycle */
		uint64_t	t = canary_cycle[i];

		canary_cycle[i] = canary_cycle[j];
		canary_cycle[j] = t;
	}
	/* store addresses, so the chase is one load per step */
	for (i = 0; i < CANARY_SLOTS; i++)
		canary_cycle[i] = (uint64_t) (uintptr_t) &canary_cycle[canary_cycle[i]];
	return 1;
}

/* The timed work; returns a value that depends on all of it. */
static uint64_t
canary_work(void)
{
	uint64_t	p = (uint64_t) (uintptr_t) canary_cycle;
	uint64_t	x = 0x9e3779b97f4a7c15ULL;

#if defined(__x86_64__) && defined(__GNUC__)
	uint64_t	n = CANARY_LOADS;
	uint64_t	m = CANARY_MULS;
	uint64_t	k = 0x2545f4914f6cdd1dULL;

	__asm__ volatile(
		"1:\n\t"
		"movq (%[p]), %[p]\n\t"
		"decq %[n]\n\t"
		"jnz 1b\n\t"
		"2:\n\t"
		"imulq %[k], %[x]\n\t"
		"addq $1, %[x]\n\t"
		"decq %[m]\n\t"
		"jnz 2b\n\t"
		: [p] "+r"(p), [x] "+r"(x), [n] "+r"(n), [m] "+r"(m)
		: [k] "r"(k)
		: "cc", "memory");
#else
	{
		volatile uint64_t *const *chase = (volatile uint64_t *const *) (uintptr_t) p;
		uint64_t	i;

		for (i = 0; i < CANARY_LOADS; i++)
			chase = (volatile uint64_t *const *) (uintptr_t) *(volatile uint64_t *) chase;
		p = (uint64_t) (uintptr_t) chase;
		for (i = 0; i < CANARY_MULS; i++)
			x = x * 0x2545f4914f6cdd1dULL + 1;
	}
#endif
	return p ^ x;
}

static double
canary_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

double
mb_canary_run_us(void)
{
	double		times[CANARY_REPEATS];
	static volatile uint64_t sink;
	int			i;
	int			j;

	if (canary_cycle == NULL && !canary_build())
		return -1;
	/*
	 * One untimed repetition first: after the caller slept (waiting for its
	 * clients), the core may be clocked down and the cycle out of the
	 * caches, which would make the timing after a run read slower than the
	 * one before it for no reason of the machine's.
	 */
	sink ^= canary_work();
	for (i = 0; i < CANARY_REPEATS; i++)
	{
		double		start = canary_now_us();

		sink ^= canary_work();
		times[i] = canary_now_us() - start;
	}
	/* insertion sort of five: the median ignores one preempted repetition */
	for (i = 1; i < CANARY_REPEATS; i++)
		for (j = i; j > 0 && times[j - 1] > times[j]; j--)
		{
			double		t = times[j];

			times[j] = times[j - 1];
			times[j - 1] = t;
		}
	return times[CANARY_REPEATS / 2];
}

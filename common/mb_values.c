/*
 * mb_values.c — random c/pad column values (see mb_values.h).
 *
 * Runs once per row during the load (millions of rows), so digits are taken
 * 18 at a time from one 64-bit draw instead of one draw per digit.
 */
#include "mb_values.h"

#include <string.h>

#define MB_VALUES_GROUP_DIGITS	11
#define MB_VALUES_MAX_GROUPS	10	/* c has 10, pad 5 */
#define MB_VALUES_POOL_DIGITS	18
#define MB_VALUES_POOL_MOD		UINT64_C(1000000000000000000)	/* 10^18 */
/* largest multiple of 10^18 not above 2^63 */
#define MB_VALUES_POOL_LIMIT	(UINT64_C(9) * MB_VALUES_POOL_MOD)

/*
 * A uniform integer in [0, 10^18), i.e. 18 independent uniform digits.
 * Drawing from 63 bits (dropping xoroshiro128+'s weakest low bit) and
 * rejecting values >= 9 * 10^18 keeps it exactly uniform; the rejection
 * rate is about 2.4%.
 */
static uint64_t
mb_values_pool(mb_rng *rng)
{
	uint64_t	x;

	do
	{
		x = mb_rng_next(rng) >> 1;
	} while (x >= MB_VALUES_POOL_LIMIT);
	return x % MB_VALUES_POOL_MOD;
}

/*
 * Each pool's 18 digits go out least significant first, as they always
 * have.  Peeling them off the 64-bit pool one by one is a chain of 18
 * dependent divisions; instead the pool is split into two 9-digit halves,
 * each half into 4 + 4 + 1 digits, and each 4-digit chunk is copied from a
 * table of every chunk's digits (40 kB).  The same digits in the same order
 * at a third of the cost, which matters: the load spent a sixth of its time
 * here.  The table is filled when the program or library is loaded, before
 * any thread can use it.
 */
static char mb_values_quads[10000][4];

__attribute__((constructor))
static void
mb_values_fill_quads(void)
{
	int			v;

	for (v = 0; v < 10000; v++)
	{
		mb_values_quads[v][0] = (char) ('0' + v % 10);
		mb_values_quads[v][1] = (char) ('0' + v / 10 % 10);
		mb_values_quads[v][2] = (char) ('0' + v / 100 % 10);
		mb_values_quads[v][3] = (char) ('0' + v / 1000);
	}
}

/* the 4 digits of v (< 10^4), least significant first */
static inline void
mb_values_four(uint32_t v, char *out)
{
	memcpy(out, mb_values_quads[v], 4);
}

/* the 9 digits of half (< 10^9), least significant first */
static inline void
mb_values_nine(uint32_t half, char *out)
{
	uint32_t	upper = half / 10000;
	uint32_t	top = upper / 10000;

	mb_values_four(half - upper * 10000, out);
	mb_values_four(upper - top * 10000, out + 4);
	out[8] = (char) ('0' + top);
}

/* out = groups (at most MB_VALUES_MAX_GROUPS) groups of 11 digits joined by '-' */
static void
mb_values_digit_groups(mb_rng *rng, char *out, int groups)
{
	/* whole pools cover the digits; the rest of the last one is unused */
	char		digits[(MB_VALUES_MAX_GROUPS * MB_VALUES_GROUP_DIGITS /
						MB_VALUES_POOL_DIGITS + 1) * MB_VALUES_POOL_DIGITS];
	int			needed = groups * MB_VALUES_GROUP_DIGITS;
	int			have;
	int			g;

	for (have = 0; have < needed; have += MB_VALUES_POOL_DIGITS)
	{
		uint64_t	pool = mb_values_pool(rng);
		uint32_t	high = (uint32_t) (pool / 1000000000);

		mb_values_nine((uint32_t) (pool - (uint64_t) high * 1000000000), digits + have);
		mb_values_nine(high, digits + have + 9);
	}
	for (g = 0; g < groups; g++)
	{
		if (g > 0)
			*out++ = '-';
		memcpy(out, digits + g * MB_VALUES_GROUP_DIGITS, MB_VALUES_GROUP_DIGITS);
		out += MB_VALUES_GROUP_DIGITS;
	}
}

void
mb_values_c(mb_rng *rng, char *out)
{
	mb_values_digit_groups(rng, out, 10);
}

void
mb_values_pad(mb_rng *rng, char *out)
{
	mb_values_digit_groups(rng, out, 5);
}

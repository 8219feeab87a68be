/*
 * mb_values.c — random c/pad column values (see mb_values.h).
 *
 * Runs once per row during the load (millions of rows), so digits are taken
 * 18 at a time from one 64-bit draw instead of one draw per digit.
 */
#include "mb_values.h"

#define MB_VALUES_GROUP_DIGITS	11
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

void
mb_values_digit_groups(mb_rng *rng, char *out, int groups)
{
	uint64_t	pool = 0;
	int			left = 0;
	int			g;
	int			i;

	for (g = 0; g < groups; g++)
	{
		if (g > 0)
			*out++ = '-';
		for (i = 0; i < MB_VALUES_GROUP_DIGITS; i++)
		{
			if (left == 0)
			{
				pool = mb_values_pool(rng);
				left = MB_VALUES_POOL_DIGITS;
			}
			*out++ = (char) ('0' + (int) (pool % 10));
			pool /= 10;
			left--;
		}
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

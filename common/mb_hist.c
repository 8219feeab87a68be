/*
 * mb_hist.c — log-scale latency histogram (see mb_hist.h).
 *
 * Bucket i covers [MIN * r^i, MIN * r^(i+1)) with r = (MAX/MIN)^(1/BUCKETS),
 * about 1.8% wide, so a percentile is off by at most one bucket's width.
 * Values below MIN land in bucket 0, values at or above MAX in the last one.
 */
#include "mb_hist.h"

#include <math.h>
#include <string.h>

#define MB_HIST_NS_PER_MS 1000000.0

/*
 * Buckets per decade of log10(ns / MIN); 128 with the header's constants.
 * Base 10 rather than e because log10 and pow(10, .) are exact at powers of
 * ten, so round values like 1 ms fall cleanly at a bucket's lower edge
 * instead of a rounding error away from it.
 */
static double
mb_hist_scale(void)
{
	return MB_HIST_BUCKETS / log10(MB_HIST_MAX_NS / MB_HIST_MIN_NS);
}

void
mb_hist_reset(mb_hist *hist)
{
	memset(hist, 0, sizeof(*hist));
}

/*
 * Bucketing runs once per event, so it avoids log10: each bucket's upper
 * bound is kept as an integer (the smallest value past the bucket), and a
 * value's leading bit and the four bits after it (a cell 1/16 of a power
 * of two wide, under three buckets) give the first bucket to try; at most
 * a few comparisons then find its bucket.  The bounds come from
 * mb_hist_bucket_upper_ns, so bucket and bound always agree.  The tables are
 * filled when the program or library is loaded, before any thread runs.
 */
#define MB_HIST_CELL_BITS 4
static uint64_t mb_hist_uppers[MB_HIST_BUCKETS];
static uint16_t mb_hist_cell_first[64 << MB_HIST_CELL_BITS];

static int
mb_hist_cell(uint64_t ns)
{
	int			e = 63 - __builtin_clzll(ns);

	return (e << MB_HIST_CELL_BITS) |
		(int) ((ns >> (e - MB_HIST_CELL_BITS)) & ((1 << MB_HIST_CELL_BITS) - 1));
}

__attribute__((constructor))
static void
mb_hist_fill_tables(void)
{
	int			b;
	int			cell;

	for (b = 0; b < MB_HIST_BUCKETS - 1; b++)
		mb_hist_uppers[b] = (uint64_t) ceil(mb_hist_bucket_upper_ns(b));
	mb_hist_uppers[MB_HIST_BUCKETS - 1] = UINT64_MAX;
	/* a cell's first bucket is its smallest value's (the cells of MIN..MAX) */
	b = 0;
	for (cell = mb_hist_cell((uint64_t) MB_HIST_MIN_NS); cell <= mb_hist_cell((uint64_t) MB_HIST_MAX_NS); cell++)
	{
		int			e = cell >> MB_HIST_CELL_BITS;
		uint64_t	lowest = (uint64_t) ((1 << MB_HIST_CELL_BITS) | (cell & ((1 << MB_HIST_CELL_BITS) - 1)))
			<< (e - MB_HIST_CELL_BITS);

		while (lowest >= mb_hist_uppers[b])
			b++;
		mb_hist_cell_first[cell] = (uint16_t) b;
	}
}

int
mb_hist_bucket(uint64_t ns)
{
	int			b;

	if (ns < (uint64_t) MB_HIST_MIN_NS)
		return 0;
	if (ns >= (uint64_t) MB_HIST_MAX_NS)
		return MB_HIST_BUCKETS - 1;
	b = mb_hist_cell_first[mb_hist_cell(ns)];
	while (ns >= mb_hist_uppers[b])
		b++;
	return b;
}

double
mb_hist_bucket_upper_ns(int bucket)
{
	if (bucket < 0)
		bucket = 0;
	if (bucket >= MB_HIST_BUCKETS - 1)
		return MB_HIST_MAX_NS;
	return pow(10.0, log10(MB_HIST_MIN_NS) + (bucket + 1) / mb_hist_scale());
}

void
mb_hist_add(mb_hist *hist, uint64_t ns)
{
	hist->counts[mb_hist_bucket(ns)]++;
	hist->total++;
	hist->sum_ns += ns;
	if (ns > hist->max_ns)
		hist->max_ns = ns;
}

void
mb_hist_merge(mb_hist *into, const mb_hist *from)
{
	int			i;

	for (i = 0; i < MB_HIST_BUCKETS; i++)
		into->counts[i] += from->counts[i];
	into->total += from->total;
	into->sum_ns += from->sum_ns;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
}

/*
 * The maximum of the difference cannot be recovered from two snapshots, so
 * the result keeps a's maximum (an upper bound for the interval's maximum).
 * Percentiles of the difference are still capped by it, which is harmless
 * since it can only be larger than the true interval maximum.  into may be
 * a or b.
 */
void
mb_hist_subtract(mb_hist *into, const mb_hist *a, const mb_hist *b)
{
	int			i;
	uint64_t	max_ns = a->max_ns;

	for (i = 0; i < MB_HIST_BUCKETS; i++)
		into->counts[i] = a->counts[i] - b->counts[i];
	into->total = a->total - b->total;
	into->sum_ns = a->sum_ns - b->sum_ns;
	into->max_ns = into->total > 0 ? max_ns : 0;
}

/*
 * Rank = ceil(total * pct / 100), clamped to [1, total]; the answer is the
 * upper bound of the first bucket whose cumulative count reaches the rank,
 * capped at the exact maximum (so p100 is the exact maximum, and the last,
 * open-ended bucket reports the maximum rather than MB_HIST_MAX_NS).
 */
double
mb_hist_percentile_ms(const mb_hist *hist, double pct)
{
	double		rank_d;
	uint64_t	rank;
	uint64_t	cum = 0;
	double		upper;
	int			i;

	if (hist->total == 0)
		return 0.0;

	rank_d = ceil((double) hist->total * pct / 100.0);
	if (!(rank_d >= 1.0))		/* also catches NaN */
		rank = 1;
	else if (rank_d >= (double) hist->total)
		rank = hist->total;
	else
		rank = (uint64_t) rank_d;

	for (i = 0; i < MB_HIST_BUCKETS; i++)
	{
		cum += hist->counts[i];
		if (cum >= rank)
			break;
	}
	if (i >= MB_HIST_BUCKETS - 1)
		return (double) hist->max_ns / MB_HIST_NS_PER_MS;

	upper = mb_hist_bucket_upper_ns(i);
	if (upper > (double) hist->max_ns)
		upper = (double) hist->max_ns;
	return upper / MB_HIST_NS_PER_MS;
}

double
mb_hist_avg_ms(const mb_hist *hist)
{
	if (hist->total == 0)
		return 0.0;
	return (double) hist->sum_ns / (double) hist->total / MB_HIST_NS_PER_MS;
}

double
mb_hist_max_ms(const mb_hist *hist)
{
	return (double) hist->max_ns / MB_HIST_NS_PER_MS;
}

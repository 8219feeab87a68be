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

int
mb_hist_bucket(uint64_t ns)
{
	double		b;

	if ((double) ns < MB_HIST_MIN_NS)
		return 0;
	if ((double) ns >= MB_HIST_MAX_NS)
		return MB_HIST_BUCKETS - 1;
	b = (log10((double) ns) - log10(MB_HIST_MIN_NS)) * mb_hist_scale();
	if (b >= MB_HIST_BUCKETS - 1)
		return MB_HIST_BUCKETS - 1;
	return (int) b;
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

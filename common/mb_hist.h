/*
 * mb_hist.h — log-scale latency histogram with percentiles.
 *
 * Like sysbench's histogram: fixed log-spaced buckets over a wide range, so
 * recording an event is a few arithmetic operations and histograms of many
 * clients (or of successive progress intervals) merge by adding counts.
 * Percentiles report the upper bound of the bucket holding the rank, as
 * sysbench does; the exact maximum and sum are kept beside the buckets.
 * The struct is plain data so the extension can place it in shared memory.
 */
#ifndef MB_HIST_H
#define MB_HIST_H

#include <stdint.h>

#define MB_HIST_BUCKETS 1024
#define MB_HIST_MIN_NS	1000.0			/* 1 microsecond */
#define MB_HIST_MAX_NS	100000000000.0	/* 100 seconds */

typedef struct mb_hist
{
	uint64_t	counts[MB_HIST_BUCKETS];
	uint64_t	total;			/* number of values recorded */
	uint64_t	sum_ns;			/* sum of all values */
	uint64_t	max_ns;			/* exact maximum */
} mb_hist;

extern void mb_hist_reset(mb_hist *hist);
extern void mb_hist_add(mb_hist *hist, uint64_t ns);
/* into += from */
extern void mb_hist_merge(mb_hist *into, const mb_hist *from);
/* into = a - b, bucket by bucket (b must be an earlier snapshot of a) */
extern void mb_hist_subtract(mb_hist *into, const mb_hist *a, const mb_hist *b);
/* Value (ms) at percentile pct in (0, 100]; 0 when the histogram is empty. */
extern double mb_hist_percentile_ms(const mb_hist *hist, double pct);
extern double mb_hist_avg_ms(const mb_hist *hist);
extern double mb_hist_max_ms(const mb_hist *hist);
/* The bucket index a value falls in, and a bucket's upper bound in ns. */
extern int	mb_hist_bucket(uint64_t ns);
extern double mb_hist_bucket_upper_ns(int bucket);

#endif							/* MB_HIST_H */

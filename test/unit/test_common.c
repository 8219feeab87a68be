/*
 * test_common.c — unit tests for the DBMS-independent modules in common/:
 * random numbers and distributions (mb_rand), the latency histogram
 * (mb_hist), c/pad value generation (mb_values), the cost snapshots
 * (mb_cost), the statement texts of the catalog (mb_catalog), the
 * Poisson schedule of rate-limited runs (mb_pacer), the per-second QPS of
 * a window (mb_samples) and the host-speed canary (mb_canary).  Prints TAP;
 * exits non-zero if any check fails.
 *
 * Statistical checks use fixed seeds, so they are repeatable; the tolerances
 * are several standard deviations wide so a correct implementation passes
 * with any seed, while a wrong formula (off-by-one range, biased digits,
 * wrong exponent) does not.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/mb_canary.h"
#include "../../common/mb_catalog.h"
#include "../../common/mb_cost.h"
#include "../../common/mb_hist.h"
#include "../../common/mb_loop.h"
#include "../../common/mb_pacer.h"
#include "../../common/mb_rand.h"
#include "../../common/mb_samples.h"
#include "../../common/mb_values.h"

static int	test_count = 0;
static int	test_failed = 0;

#if defined(__GNUC__)
#define TEST_PRINTF_ATTR __attribute__((format(printf, 5, 6)))
#else
#define TEST_PRINTF_ATTR
#endif

static void test_ok(int cond, const char *expr, const char *file, int line,
					const char *fmt,...) TEST_PRINTF_ATTR;

static void
test_ok(int cond, const char *expr, const char *file, int line,
		const char *fmt,...)
{
	va_list		ap;

	test_count++;
	printf("%sok %d - ", cond ? "" : "not ", test_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
	{
		test_failed++;
		printf("#   failed: %s (%s:%d)\n", expr, file, line);
	}
	fflush(stdout);
}

#define CHECK(cond, ...) test_ok((cond) ? 1 : 0, #cond, __FILE__, __LINE__, __VA_ARGS__)

#define SEED 20240501u

/* Draw n values of dist, counting values per offset from lo into counts. */
static int
draw_counts(mb_rand_dist *dist, mb_rng *rng, long n, long *counts)
{
	long		i;
	int			in_bounds = 1;
	uint32_t	v;

	for (i = 0; i < n; i++)
	{
		v = mb_rand_dist_draw(dist, rng);
		if (v < dist->lo || v > dist->hi)
		{
			in_bounds = 0;
			continue;
		}
		if (counts)
			counts[v - dist->lo]++;
	}
	return in_bounds;
}

/* ------------------------------------------------------------------ */

static void
test_seeding(void)
{
	mb_rng		a,
				b,
				c,
				z;
	int			i;
	int			same = 1;
	int			equal_ab = 0;
	int			nonzero = 1;

	mb_rng_seed(&a, 42, 3);
	mb_rng_seed(&b, 42, 3);
	for (i = 0; i < 1000; i++)
		if (mb_rng_next(&a) != mb_rng_next(&b))
			same = 0;
	CHECK(same, "rng: same seed and stream give the identical sequence");

	mb_rng_seed(&a, 42, 3);
	mb_rng_seed(&c, 42, 4);
	for (i = 0; i < 1000; i++)
		if (mb_rng_next(&a) == mb_rng_next(&c))
			equal_ab++;
	CHECK(equal_ab == 0, "rng: streams 3 and 4 of one seed differ (%d equal draws of 1000)",
		  equal_ab);

	mb_rng_seed(&a, 42, 3);
	mb_rng_seed(&c, 43, 3);
	CHECK(mb_rng_next(&a) != mb_rng_next(&c), "rng: different seeds differ on the same stream");

	/* seed 0 / stream 0 is the likeliest accidental input */
	mb_rng_seed(&z, 0, 0);
	if (z.s[0] == 0 && z.s[1] == 0)
		nonzero = 0;
	for (i = 0; i < 100; i++)
		if (mb_rng_next(&z) != 0)
			break;
	CHECK(nonzero && i < 100, "rng: seed 0 stream 0 gives a non-zero state and output");
}

static void
test_rng_double_and_uniform(void)
{
	mb_rng		rng;
	int			i;
	int			ok_double = 1;
	int			ok_uniform = 1;
	int			ok_edges = 1;
	int			saw_lo = 0,
				saw_hi = 0;
	double		d,
				sum = 0.0;
	uint32_t	v;

	mb_rng_seed(&rng, SEED, 1);
	for (i = 0; i < 200000; i++)
	{
		d = mb_rng_double(&rng);
		if (!(d >= 0.0 && d < 1.0))
			ok_double = 0;
		sum += d;
	}
	CHECK(ok_double && fabs(sum / 200000 - 0.5) < 0.005,
		  "rng: mb_rng_double stays in [0,1) with mean 0.5 (mean %.4f)", sum / 200000);

	for (i = 0; i < 200000; i++)
	{
		v = mb_rng_uniform(&rng, 5, 9);
		if (v < 5 || v > 9)
			ok_uniform = 0;
		saw_lo |= (v == 5);
		saw_hi |= (v == 9);
	}
	CHECK(ok_uniform && saw_lo && saw_hi,
		  "rng: mb_rng_uniform(5, 9) stays in bounds and reaches both ends");

	if (mb_rng_uniform(&rng, 7, 7) != 7)
		ok_edges = 0;
	for (i = 0; i < 1000; i++)
	{
		v = mb_rng_uniform(&rng, UINT32_MAX - 1, UINT32_MAX);
		if (v < UINT32_MAX - 1)
			ok_edges = 0;
		(void) mb_rng_uniform(&rng, 0, UINT32_MAX);
	}
	CHECK(ok_edges, "rng: mb_rng_uniform handles lo == hi and ranges at UINT32_MAX");
}

static void
test_uniform_dist(void)
{
	mb_rand_dist dist;
	mb_rng		rng;
	long		counts[100];
	int			in_bounds;
	int			i;
	int			all_seen = 1;
	long		minc = -1,
				maxc = 0;

	memset(counts, 0, sizeof(counts));
	mb_rng_seed(&rng, SEED, 2);
	mb_rand_dist_init(&dist, MB_RAND_UNIFORM, 1, 100);
	in_bounds = draw_counts(&dist, &rng, 1000000, counts);
	for (i = 0; i < 100; i++)
	{
		if (counts[i] == 0)
			all_seen = 0;
		if (minc < 0 || counts[i] < minc)
			minc = counts[i];
		if (counts[i] > maxc)
			maxc = counts[i];
	}
	CHECK(in_bounds, "uniform: 1e6 draws on [1,100] all within bounds");
	CHECK(all_seen, "uniform: every value of [1,100] appears");
	CHECK(minc >= 9000 && maxc <= 11000,
		  "uniform: each value's count within +-10%% of 10000 (min %ld, max %ld)", minc, maxc);
}

/* generalised harmonic number H_{n,q} = sum_{k=1..n} k^-q */
static double
harmonic(int n, double q)
{
	double		h = 0.0;
	int			k;

	for (k = n; k >= 1; k--)
		h += pow((double) k, -q);
	return h;
}

static void
test_zipfian_one(double q, uint32_t lo, int n, long draws, int stream)
{
	mb_rand_dist dist;
	mb_rng		rng;
	long	   *counts = calloc((size_t) n, sizeof(long));
	int			in_bounds;
	double		expect1,
				got1,
				expect2,
				got2,
				hn,
				chi2 = 0.0,
				chi2_limit;
	int			k;

	mb_rng_seed(&rng, SEED, (uint64_t) stream);
	mb_rand_dist_init(&dist, MB_RAND_ZIPFIAN, lo, lo + (uint32_t) n - 1);
	dist.zipf_exp = q;
	mb_rand_dist_update(&dist);
	in_bounds = draw_counts(&dist, &rng, draws, counts);

	hn = harmonic(n, q);
	for (k = 0; k < n; k++)
	{
		double		e = draws * pow((double) (k + 1), -q) / hn;

		chi2 += (counts[k] - e) * (counts[k] - e) / e;
	}
	/* n-1 degrees of freedom: mean n-1, sd sqrt(2(n-1)); allow 6 sd */
	chi2_limit = (n - 1) + 6.0 * sqrt(2.0 * (n - 1));

	expect1 = 1.0 / hn;
	got1 = (double) counts[0] / draws;
	expect2 = expect1 * pow(2.0, -q);
	got2 = (double) counts[1] / draws;

	CHECK(in_bounds, "zipfian q=%.1f: %ld draws on [%u,%u] all within bounds",
		  q, draws, dist.lo, dist.hi);
	CHECK(fabs(got1 - expect1) <= 0.05 * expect1,
		  "zipfian q=%.1f n=%d: P(rank 1) %.5f within 5%% of 1/H = %.5f",
		  q, n, got1, expect1);
	CHECK(fabs(got2 - expect2) <= 0.05 * expect2,
		  "zipfian q=%.1f n=%d: P(rank 2) %.5f within 5%% of 2^-q/H = %.5f",
		  q, n, got2, expect2);
	CHECK(chi2 <= chi2_limit,
		  "zipfian q=%.1f n=%d: chi-square vs k^-q/H over all ranks %.1f <= %.1f",
		  q, n, chi2, chi2_limit);
	CHECK(counts[0] > counts[1] && counts[1] > counts[9] && counts[9] > counts[n - 1],
		  "zipfian q=%.1f: count(rank 1) > rank 2 > rank 10 > rank n (%ld, %ld, %ld, %ld)",
		  q, counts[0], counts[1], counts[9], counts[n - 1]);
	free(counts);
}

/*
 * The parameter types every typed driver gives a statement: text exactly
 * for c and pad values, in bind order, an IN list as long as the range.
 */
static void
test_param_kinds(void)
{
	const mb_stmt *insert = &mb_catalog_stmts[MB_ST_INSERT_EVENT_ID];
	const mb_stmt *points = &mb_catalog_stmts[MB_ST_RANDOM_POINTS];
	const mb_stmt *inlist = &mb_catalog_stmts[MB_ST_UPDATE_INLIST];
	bool		kinds[1100];
	int			n,
				i,
				texts;

	n = mb_catalog_param_count(insert, 0);
	memset(kinds, 1, sizeof(kinds));
	mb_catalog_param_kinds(insert, 0, kinds);
	CHECK(n == 4 && !kinds[0] && !kinds[1] && kinds[2] && kinds[3],
		  "param kinds: insert (id, k, c, pad) binds int, int, text, text (%d values)", n);

	n = mb_catalog_param_count(points, 1000);
	memset(kinds, 1, sizeof(kinds));
	mb_catalog_param_kinds(points, 1000, kinds);
	for (i = 0, texts = 0; i < n; i++)
		texts += kinds[i];
	CHECK(n == 1000 && texts == 0, "param kinds: random-points R=1000 binds 1000 ints (%d, %d text)",
		  n, texts);

	n = mb_catalog_param_count(inlist, 0);
	memset(kinds, 0, sizeof(kinds));
	mb_catalog_param_kinds(inlist, 0, kinds);
	for (i = 0, texts = 0; i < n; i++)
		texts += kinds[i];
	CHECK(texts == 1 && kinds[0], "param kinds: update-inlist binds one text (c) first, then %d ints",
		  n - 1);
}

/* The event loop's shared decisions (mb_loop.h), as both drivers take them. */
static void
test_loop(void)
{
	mb_pacer	a,
				b;
	uint64_t	session = 0;
	int			due = 0;
	int			i;

	CHECK(mb_loop_event_start(0, 0, 500) == 500, "loop: an unpaced event starts now");
	CHECK(mb_loop_event_start(0, 300, 500) == 300,
		  "loop: a new session's first event starts when the old one began to close");
	CHECK(mb_loop_event_start(200, 300, 500) == 200,
		  "loop: a paced event starts at its scheduled time, a late arrival's wait included");

	CHECK(mb_loop_claim_granted(0, 1000000), "loop: no event limit grants every claim");
	CHECK(mb_loop_claim_granted(3, 2) && !mb_loop_claim_granted(3, 3),
		  "loop: a limit of 3 grants the third claim (2 before it) and refuses the fourth");

	for (i = 0; i < 10; i++)
		due += mb_loop_reconnect_due(4, &session, 0, 0);
	CHECK(due == 2 && session == 2, "loop: reconnect every 4 events: due twice in 10, 2 into the third session (%d, %llu)",
		  due, (unsigned long long) session);
	session = 3;
	CHECK(!mb_loop_reconnect_due(4, &session, 100, 100),
		  "loop: no new session once the event limit has claimed every event");
	session = 0;
	CHECK(!mb_loop_reconnect_due(0, &session, 0, 0), "loop: reconnect 0 never reconnects");

	/* client 1's schedule: its share of the rate, its own stream, seeded */
	mb_loop_pacer_init(&a, 1000, 4, true, 42, 1, 0);
	mb_pacer_init(&b, 250, 42, 1 + MB_LOOP_PACER_STREAM, 0);
	CHECK(mb_pacer_next(&a) == mb_pacer_next(&b) && mb_pacer_next(&a) == mb_pacer_next(&b),
		  "loop: a paced client draws from stream index + 0x70000000 at rate / clients");
}

static void
test_zipfian(void)
{
	mb_rand_dist dist;

	mb_rand_dist_init(&dist, MB_RAND_ZIPFIAN, 1, 10);
	CHECK(dist.zipf_exp == 0.8, "zipfian: default exponent is 0.8");

	test_zipfian_one(0.8, 1, 1000, 1000000, 3);
	/* exponent 1 exercises the log limit of the hat integral */
	test_zipfian_one(1.0, 1000, 100, 400000, 4);
	/* a steep exponent, where accepting the hat without rejection is 7% off */
	test_zipfian_one(2.0, 5, 50, 400000, 10);
}

static void
test_gaussian(void)
{
	mb_rand_dist dist;
	mb_rng		rng;
	long		counts[1000];
	int			in_bounds;
	int			i;
	double		sum = 0.0;
	long		middle = 0;
	long		n = 500000;
	double		mean,
				frac;

	memset(counts, 0, sizeof(counts));
	mb_rng_seed(&rng, SEED, 5);
	mb_rand_dist_init(&dist, MB_RAND_GAUSSIAN, 1, 1000);
	in_bounds = draw_counts(&dist, &rng, n, counts);
	for (i = 0; i < 1000; i++)
	{
		sum += (double) (i + 1) * counts[i];
		/* values 251..750: the middle half of the range */
		if (i + 1 >= 251 && i + 1 <= 750)
			middle += counts[i];
	}
	mean = sum / n;
	frac = (double) middle / n;
	CHECK(in_bounds, "gaussian: draws on [1,1000] all within bounds");
	CHECK(fabs(mean - 500.5) < 5.0, "gaussian: mean %.2f near the centre 500.5", mean);
	CHECK(frac > 0.9, "gaussian: middle 50%% of the range holds %.3f of draws (> 0.9)", frac);
}

static void
test_pareto(void)
{
	mb_rand_dist dist;
	mb_rng		rng;
	long		counts[1000];
	int			in_bounds;
	int			i;
	long		low = 0;
	long		n = 500000;
	double		frac;

	memset(counts, 0, sizeof(counts));
	mb_rng_seed(&rng, SEED, 6);
	mb_rand_dist_init(&dist, MB_RAND_PARETO, 1, 1000);
	in_bounds = draw_counts(&dist, &rng, n, counts);
	for (i = 0; i < 200; i++)
		low += counts[i];
	frac = (double) low / n;
	CHECK(in_bounds, "pareto: draws on [1,1000] all within bounds");
	CHECK(frac >= 0.70 && frac <= 0.90,
		  "pareto: lowest 20%% of the range gets %.3f of draws (0.70..0.90)", frac);
}

static void
test_special(void)
{
	mb_rand_dist dist;
	mb_rng		rng;
	long		i;
	long		n = 500000;
	long		hot = 0;
	int			in_bounds = 1;
	uint32_t	v;
	uint32_t	lo = 1,
				hi = 100000;
	double		frac;

	mb_rng_seed(&rng, SEED, 7);
	mb_rand_dist_init(&dist, MB_RAND_SPECIAL, lo, hi);
	for (i = 0; i < n; i++)
	{
		v = mb_rand_dist_draw(&dist, &rng);
		if (v < lo || v > hi)
			in_bounds = 0;
		/* the central 1% of 100000 values: offsets 49500..50499 */
		if (v - lo >= 49500 && v - lo < 50500)
			hot++;
	}
	frac = (double) hot / n;
	CHECK(in_bounds, "special: draws on [1,100000] all within bounds");
	CHECK(frac >= 0.74 && frac <= 0.80,
		  "special: central 1%% of the range gets %.4f of draws (0.74..0.80)", frac);
}

static void
test_degenerate_ranges(void)
{
	mb_rand_type types[] = {MB_RAND_UNIFORM, MB_RAND_ZIPFIAN, MB_RAND_GAUSSIAN,
	MB_RAND_PARETO, MB_RAND_SPECIAL};
	mb_rand_dist dist;
	mb_rng		rng;
	int			t,
				i;
	int			ok_single = 1;
	int			ok_full = 1;
	int			ok_two = 1;
	uint32_t	v;

	mb_rng_seed(&rng, SEED, 8);
	for (t = 0; t < 5; t++)
	{
		mb_rand_dist_init(&dist, types[t], 77, 77);
		for (i = 0; i < 1000; i++)
			if (mb_rand_dist_draw(&dist, &rng) != 77)
				ok_single = 0;

		/* 2^32 values: range width does not fit in uint32 */
		mb_rand_dist_init(&dist, types[t], 0, UINT32_MAX);
		for (i = 0; i < 1000; i++)
			(void) mb_rand_dist_draw(&dist, &rng);
		if (dist.zipf_h_n != dist.zipf_h_n)		/* NaN */
			ok_full = 0;

		mb_rand_dist_init(&dist, types[t], UINT32_MAX - 1, UINT32_MAX);
		for (i = 0; i < 1000; i++)
		{
			v = mb_rand_dist_draw(&dist, &rng);
			if (v < UINT32_MAX - 1)
				ok_two = 0;
		}
	}
	CHECK(ok_single, "all distributions: lo == hi always returns lo");
	CHECK(ok_full, "all distributions: full uint32 range draws without NaN constants");
	CHECK(ok_two, "all distributions: range at UINT32_MAX stays within bounds");
}

static void
test_type_names(void)
{
	const char *names[] = {"uniform", "zipfian", "gaussian", "pareto", "special"};
	mb_rand_type type;
	int			i;
	int			round_trip = 1;

	for (i = 0; i < 5; i++)
	{
		if (mb_rand_type_parse(names[i], &type) != 0 ||
			strcmp(mb_rand_type_name(type), names[i]) != 0)
			round_trip = 0;
	}
	CHECK(round_trip, "rand type: parse and name round-trip for all five names");
	CHECK(mb_rand_type_parse("zipfian", &type) == 0 && type == MB_RAND_ZIPFIAN,
		  "rand type: \"zipfian\" parses to MB_RAND_ZIPFIAN");
	CHECK(mb_rand_type_parse("normal", &type) == -1 &&
		  mb_rand_type_parse("Uniform", &type) == -1 &&
		  mb_rand_type_parse("", &type) == -1,
		  "rand type: unknown, wrong-case and empty names give -1");
	CHECK(strcmp(mb_rand_type_names(), "uniform, zipfian, gaussian, pareto, special") == 0,
		  "rand type: mb_rand_type_names lists the five names");
}

/* ------------------------------------------------------------------ */

#define MS 1000000ull

static void
fill_ms(mb_hist *h, int from, int to)
{
	int			v;

	for (v = from; v <= to; v++)
		mb_hist_add(h, (uint64_t) v * MS);
}

static int
within_bucket(double got, double expect)
{
	/* one bucket's width: r = (MAX/MIN)^(1/BUCKETS) */
	double		r = exp(log(MB_HIST_MAX_NS / MB_HIST_MIN_NS) / MB_HIST_BUCKETS);

	return got >= expect && got <= expect * r;
}

static void
test_hist(void)
{
	static mb_hist whole,
				lo_half,
				hi_half,
				merged,
				diff,
				empty;
	double		p50,
				p95,
				p99;
	int			b;
	int			monotone = 1;

	mb_hist_reset(&whole);
	fill_ms(&whole, 1, 1000);
	p50 = mb_hist_percentile_ms(&whole, 50);
	p95 = mb_hist_percentile_ms(&whole, 95);
	p99 = mb_hist_percentile_ms(&whole, 99);
	CHECK(whole.total == 1000, "hist: total counts every value");
	CHECK(within_bucket(p50, 500), "hist: p50 of 1..1000 ms is %.3f, within one bucket above 500", p50);
	CHECK(within_bucket(p95, 950), "hist: p95 of 1..1000 ms is %.3f, within one bucket above 950", p95);
	CHECK(within_bucket(p99, 990), "hist: p99 of 1..1000 ms is %.3f, within one bucket above 990", p99);
	CHECK(mb_hist_percentile_ms(&whole, 100) == 1000.0,
		  "hist: p100 is the exact max 1000 ms");
	CHECK(mb_hist_max_ms(&whole) == 1000.0, "hist: max is exactly 1000 ms");
	CHECK(fabs(mb_hist_avg_ms(&whole) - 500.5) < 1e-9,
		  "hist: avg is exactly 500.5 ms (%.6f)", mb_hist_avg_ms(&whole));

	mb_hist_reset(&lo_half);
	mb_hist_reset(&hi_half);
	fill_ms(&lo_half, 1, 500);
	fill_ms(&hi_half, 501, 1000);
	mb_hist_reset(&merged);
	mb_hist_merge(&merged, &lo_half);
	mb_hist_merge(&merged, &hi_half);
	CHECK(memcmp(&merged, &whole, sizeof(mb_hist)) == 0,
		  "hist: merge of halves 1..500 and 501..1000 equals the whole");

	mb_hist_subtract(&diff, &whole, &lo_half);
	CHECK(memcmp(diff.counts, hi_half.counts, sizeof(diff.counts)) == 0 &&
		  diff.total == hi_half.total && diff.sum_ns == hi_half.sum_ns &&
		  diff.max_ns == whole.max_ns,
		  "hist: whole minus lower half equals upper half (max kept from a)");
	CHECK(within_bucket(mb_hist_percentile_ms(&diff, 50), 750),
		  "hist: p50 of the difference is near 750 ms (%.3f)", mb_hist_percentile_ms(&diff, 50));

	mb_hist_reset(&empty);
	CHECK(mb_hist_percentile_ms(&empty, 95) == 0.0 && mb_hist_avg_ms(&empty) == 0.0 &&
		  mb_hist_max_ms(&empty) == 0.0,
		  "hist: empty histogram gives 0 for percentile, avg and max");
	mb_hist_subtract(&diff, &whole, &whole);
	CHECK(diff.total == 0 && mb_hist_percentile_ms(&diff, 99) == 0.0,
		  "hist: a minus itself is empty");

	CHECK(mb_hist_bucket(0) == 0 && mb_hist_bucket(999) == 0 &&
		  mb_hist_bucket(UINT64_MAX) == MB_HIST_BUCKETS - 1 &&
		  mb_hist_bucket((uint64_t) MB_HIST_MAX_NS) == MB_HIST_BUCKETS - 1,
		  "hist: values below MIN go to bucket 0, above MAX to the last bucket");

	for (b = 0; b < MB_HIST_BUCKETS - 1; b++)
		if (!(mb_hist_bucket_upper_ns(b) < mb_hist_bucket_upper_ns(b + 1)))
			monotone = 0;
	CHECK(monotone && fabs(mb_hist_bucket_upper_ns(MB_HIST_BUCKETS - 1) - MB_HIST_MAX_NS) < 1.0,
		  "hist: bucket upper bounds increase up to MAX");

	/*
	 * mb_hist_bucket and mb_hist_bucket_upper_ns must agree, or percentiles
	 * would report a bound below the value: sweep the whole range.
	 */
	{
		double		x;
		uint64_t	ns;
		int			agree = 1;
		uint64_t	bad = 0;

		for (x = MB_HIST_MIN_NS; x < MB_HIST_MAX_NS; x *= 1.0007)
		{
			ns = (uint64_t) x;
			b = mb_hist_bucket(ns);
			if ((double) ns >= mb_hist_bucket_upper_ns(b) ||
				(b > 0 && (double) ns < mb_hist_bucket_upper_ns(b - 1)))
			{
				agree = 0;
				bad = ns;
				break;
			}
		}
		CHECK(agree, "hist: every value from MIN to MAX lies within its bucket's bounds (first bad %llu)",
			  (unsigned long long) bad);

		/* and exactly at every edge: the last value inside, the first past */
		agree = 1;
		for (b = 0; b < MB_HIST_BUCKETS - 1 && agree; b++)
		{
			uint64_t	first_past = (uint64_t) ceil(mb_hist_bucket_upper_ns(b));

			if (mb_hist_bucket(first_past - 1) != b || mb_hist_bucket(first_past) != b + 1)
			{
				agree = 0;
				bad = first_past;
			}
		}
		CHECK(agree, "hist: at every bucket edge the value below is inside, the edge itself in the next (first bad %llu)",
			  (unsigned long long) bad);
	}

	/*
	 * The rank rule exactly: 50 values at 1 ms and 50 at 100 ms.  Rank
	 * ceil(100 * 50 / 100) = 50 is reached in the 1 ms bucket; p50.5 needs
	 * rank 51, the first 100 ms value.
	 */
	mb_hist_reset(&merged);
	for (b = 0; b < 50; b++)
	{
		mb_hist_add(&merged, 1 * MS);
		mb_hist_add(&merged, 100 * MS);
	}
	CHECK(mb_hist_percentile_ms(&merged, 50) > 1.0 &&
		  within_bucket(mb_hist_percentile_ms(&merged, 50), 1.0),
		  "hist: p50 of 50x1ms + 50x100ms is in the 1 ms bucket (%.4f)",
		  mb_hist_percentile_ms(&merged, 50));
	CHECK(mb_hist_percentile_ms(&merged, 50.5) == 100.0,
		  "hist: p50.5 of 50x1ms + 50x100ms is 100 ms, capped at the exact max (%.4f)",
		  mb_hist_percentile_ms(&merged, 50.5));

	/* a single huge value: the open last bucket reports the exact max */
	mb_hist_reset(&empty);
	mb_hist_add(&empty, 200000000000ull);
	CHECK(mb_hist_percentile_ms(&empty, 99) == 200000.0,
		  "hist: value above MAX reports its exact value (%.1f ms)",
		  mb_hist_percentile_ms(&empty, 99));
}

/* ------------------------------------------------------------------ */

static int
check_layout(const char *s, int len)
{
	int			i;

	for (i = 0; i < len; i++)
	{
		if (i % 12 == 11)
		{
			if (s[i] != '-')
				return 0;
		}
		else if (s[i] < '0' || s[i] > '9')
			return 0;
	}
	return 1;
}

static void
test_values(void)
{
	char		c[MB_C_LEN + 8];
	char		pad[MB_PAD_LEN + 8];
	mb_rng		rng;
	long		digits[10];
	/* per digit position of c: catches a bias tied to where a digit sits */
	static long pos_digits[MB_C_LEN][10];
	long		total = 0;
	long		pos_min = -1,
				pos_max = 0;
	int			i,
				j;
	int			layout_ok = 1;
	int			no_overrun = 1;
	double		fmin = 1.0,
				fmax = 0.0,
				f;

	mb_rng_seed(&rng, SEED, 9);
	memset(digits, 0, sizeof(digits));
	for (i = 0; i < 100000; i++)
	{
		memset(c, '#', sizeof(c));
		memset(pad, '#', sizeof(pad));
		mb_values_c(&rng, c);
		mb_values_pad(&rng, pad);
		if (c[MB_C_LEN] != '#' || pad[MB_PAD_LEN] != '#')
			no_overrun = 0;
		if (!check_layout(c, MB_C_LEN) || !check_layout(pad, MB_PAD_LEN))
			layout_ok = 0;
		for (j = 0; j < MB_C_LEN; j++)
			if (c[j] >= '0' && c[j] <= '9')
			{
				digits[c[j] - '0']++;
				pos_digits[j][c[j] - '0']++;
				total++;
			}
	}
	for (i = 0; i < 10; i++)
	{
		f = (double) digits[i] / total;
		if (f < fmin)
			fmin = f;
		if (f > fmax)
			fmax = f;
	}
	for (j = 0; j < MB_C_LEN; j++)
	{
		if (j % 12 == 11)
			continue;
		for (i = 0; i < 10; i++)
		{
			if (pos_min < 0 || pos_digits[j][i] < pos_min)
				pos_min = pos_digits[j][i];
			if (pos_digits[j][i] > pos_max)
				pos_max = pos_digits[j][i];
		}
	}
	CHECK(MB_C_LEN == 119 && MB_PAD_LEN == 59, "values: c is 119 chars, pad 59 chars");
	CHECK(no_overrun, "values: c and pad write exactly their length (no NUL, no overrun)");
	CHECK(layout_ok, "values: digits everywhere except '-' at every 12th char");
	CHECK(total == 100000L * 110, "values: each c holds 110 digits");
	CHECK(fmin >= 0.098 && fmax <= 0.102,
		  "values: digit frequencies in 100k c values within 2%% of 10%% (min %.5f, max %.5f)",
		  fmin, fmax);
	CHECK(pos_min >= 9500 && pos_max <= 10500,
		  "values: at every digit position each digit appears 10000 +-5%% times (min %ld, max %ld)",
		  pos_min, pos_max);
}

/*
 * The values as they were first defined: each pool of 18 digits peeled off
 * one digit at a time, least significant first.  Loads must keep producing
 * exactly these rows for a given seed (the drivers and the extension load
 * the same data), however the digits are computed.
 */
static void
reference_digit_groups(mb_rng *rng, char *out, int groups)
{
	uint64_t	pool = 0;
	int			left = 0;
	int			g,
				i;

	for (g = 0; g < groups; g++)
	{
		if (g > 0)
			*out++ = '-';
		for (i = 0; i < 11; i++)
		{
			if (left == 0)
			{
				uint64_t	x;

				do
					x = mb_rng_next(rng) >> 1;
				while (x >= UINT64_C(9000000000000000000));
				pool = x % UINT64_C(1000000000000000000);
				left = 18;
			}
			*out++ = (char) ('0' + (int) (pool % 10));
			pool /= 10;
			left--;
		}
	}
}

static void
test_values_reference(void)
{
	mb_rng		fast,
				ref;
	char		c[MB_C_LEN],
				pad[MB_PAD_LEN],
				c_ref[MB_C_LEN],
				pad_ref[MB_PAD_LEN];
	long		differ = 0;
	int			i;

	mb_rng_seed(&fast, SEED, 3);
	mb_rng_seed(&ref, SEED, 3);
	for (i = 0; i < 200000; i++)
	{
		mb_values_c(&fast, c);
		mb_values_pad(&fast, pad);
		reference_digit_groups(&ref, c_ref, 10);
		reference_digit_groups(&ref, pad_ref, 5);
		if (memcmp(c, c_ref, MB_C_LEN) != 0 || memcmp(pad, pad_ref, MB_PAD_LEN) != 0)
			differ++;
	}
	CHECK(differ == 0 && mb_rng_next(&fast) == mb_rng_next(&ref),
		  "values: 200k rows' c and pad equal the digit-by-digit definition, same draws (%ld differ)",
		  differ);
}

/*
 * Cost snapshots: CPU burnt between two snapshots shows up, host CPU time
 * advances, a tmpfs path has no block device (and says why), and hardware
 * counters that ran only part of the window are refused, not scaled.
 */
static void
test_costs(void)
{
	mb_rusage	a;
	mb_rusage	b;
	mb_rusage	d;
	mb_host_cpu ca;
	mb_host_cpu cb;
	mb_host_cpu cd;
	mb_hw_snapshot start = {true, 1000, 2000, 100, 100};
	mb_hw_snapshot full = {true, 5000, 6000, 300, 300};
	mb_hw_snapshot part = {true, 5000, 6000, 300, 250};
	mb_hw_snapshot broken = {false, 0, 0, 0, 0};
	mb_hw_counters hw;
	uint64_t	instructions = 0;
	uint64_t	cycles = 0;
	char		note[160];
	char		device[64];
	char		why[256];
	volatile double x = 1;
	long		i;

	mb_rusage_take(&a, true);
	mb_host_cpu_take(&ca);
	for (i = 0; i < 30000000; i++)
		x = x * 1.0000001 + 1e-9;
	/* sleeping gives the CPU up: at least one voluntary switch, here and host-wide */
	usleep(2000);
	mb_rusage_take(&b, true);
	mb_host_cpu_take(&cb);
	mb_rusage_delta(&d, &b, &a);
	mb_host_cpu_delta(&cd, &cb, &ca);
	CHECK(d.user_us + d.system_us > 0, "costs: a busy loop shows in the thread's CPU (%lld us)",
		  (long long) (d.user_us + d.system_us));
	CHECK(d.voluntary_cs >= 1 && d.voluntary_cs == b.voluntary_cs - a.voluntary_cs &&
		  d.involuntary_cs == b.involuntary_cs - a.involuntary_cs,
		  "costs: a sleep shows as a voluntary context switch of the thread (%lld voluntary, %lld involuntary)",
		  (long long) d.voluntary_cs, (long long) d.involuntary_cs);
	CHECK(cd.valid && cd.user_us + cd.system_us > 0 && cd.context_switches >= 1 &&
		  cd.context_switches == cb.context_switches - ca.context_switches,
		  "costs: /proc/stat gives host CPU time and context switches (%lld switches)",
		  (long long) cd.context_switches);

	CHECK(mb_hw_delta(&full, &start, &instructions, &cycles, note, sizeof(note)) &&
		  instructions == 4000 && cycles == 4000,
		  "costs: hardware counters that ran the whole window give exact deltas");
	CHECK(!mb_hw_delta(&part, &start, &instructions, &cycles, note, sizeof(note)) &&
		  strstr(note, "multiplexed") != NULL,
		  "costs: multiplexed hardware counters are refused, not scaled (%s)", note);
	CHECK(!mb_hw_delta(&full, &broken, &instructions, &cycles, note, sizeof(note)),
		  "costs: an unreadable snapshot gives no figure");
	if (mb_hw_open(&hw))
	{
		mb_hw_snapshot s1;
		mb_hw_snapshot s2;

		mb_hw_read(&hw, &s1);
		for (i = 0; i < 1000000; i++)
			x = x * 1.0000001 + 1e-9;
		mb_hw_read(&hw, &s2);
		CHECK(mb_hw_delta(&s2, &s1, &instructions, &cycles, note, sizeof(note)) &&
			  instructions > 1000000,
			  "costs: the hardware counters count a loop (%llu instructions, %s)",
			  (unsigned long long) instructions, hw.note);
		mb_hw_close(&hw);
	}
	else
		CHECK(hw.group_fd < 0 && strlen(hw.note) > 20,
			  "costs: refused hardware counters say why: %s", hw.note);

	CHECK(mb_disk_of_path("/", device, sizeof(device), why, sizeof(why)) ? device[0] != '\0'
		  : strstr(why, "block device") != NULL,
		  "costs: the root file system's device is found, or the reason given (%s)",
		  device[0] ? device : why);
	CHECK(!mb_disk_of_path("/proc", device, sizeof(device), why, sizeof(why)) &&
		  strstr(why, "not a block device") != NULL,
		  "costs: /proc is on no block device, and the reason says so");
	CHECK(!mb_disk_of_path("/no/such/dir", device, sizeof(device), why, sizeof(why)) &&
		  strstr(why, "cannot stat") != NULL,
		  "costs: a missing path is reported as such");
}

/* A test quoting: SQL-standard single quotes, quotes doubled. */
static int
quote_sql(const char *text, int len, char *out, size_t outlen, void *arg)
{
	size_t		n = 0;
	int			i;

	(void) arg;
	if (outlen < 3)
		return -1;
	out[n++] = '\'';
	for (i = 0; i < len; i++)
	{
		if (n + 3 >= outlen)
			return -1;
		if (text[i] == '\'')
			out[n++] = '\'';
		out[n++] = text[i];
	}
	out[n++] = '\'';
	out[n] = '\0';
	return (int) n;
}

/*
 * Unprepared statement texts: the values the prepared form binds, in the
 * same places, integers in decimal and text through the DBMS's quoting.
 */
static void
test_literal_render(void)
{
	const mb_stmt *point = NULL;
	const mb_stmt *inlist = NULL;
	const mb_stmt *insert = NULL;
	mb_bind_value v[4];
	char		buf[512];
	int			i;
	int			n;

	for (i = 0; i < MB_NUM_STMTS; i++)
	{
		if (strcmp(mb_catalog_stmts[i].sql, "SELECT c FROM sbtest{T} WHERE id = ?") == 0)
			point = &mb_catalog_stmts[i];
		if (strstr(mb_catalog_stmts[i].sql, "IN ({L})") != NULL &&
			mb_catalog_stmts[i].list_len == MB_LIST_RANGE)
			inlist = &mb_catalog_stmts[i];
		if (mb_catalog_stmts[i].id == MB_ST_INSERT_EVENT_ID)
			insert = &mb_catalog_stmts[i];
	}
	CHECK(point != NULL && inlist != NULL && insert != NULL,
		  "render: the catalog has point, IN-list and insert statements");
	if (point == NULL || inlist == NULL || insert == NULL)
		return;

	memset(v, 0, sizeof(v));
	v[0].int_value = 4711;
	n = mb_catalog_render_literal(point, 3, 0, v, quote_sql, NULL, buf, sizeof(buf));
	CHECK(n > 0 && strcmp(buf, "SELECT c FROM sbtest3 WHERE id = 4711") == 0,
		  "render: a point query with its key inlined (%s)", buf);

	v[0].int_value = 1; v[1].int_value = 2; v[2].int_value = 3;
	n = mb_catalog_render_literal(inlist, 1, 3, v, quote_sql, NULL, buf, sizeof(buf));
	CHECK(n > 0 && strstr(buf, "IN (1, 2, 3)") != NULL, "render: an IN list of R=3 values (%s)", buf);

	v[0].int_value = 7;
	v[1].int_value = 8;
	v[2].is_text = true; v[2].text = "it's"; v[2].text_len = 4;
	v[3].is_text = true; v[3].text = "12-34"; v[3].text_len = 5;
	n = mb_catalog_render_literal(insert, 2, 0, v, quote_sql, NULL, buf, sizeof(buf));
	CHECK(n > 0 && strstr(buf, "VALUES (7, 8, 'it''s', '12-34')") != NULL,
		  "render: text values go through the quoting function (%s)", buf);
	CHECK(mb_catalog_render_literal(insert, 2, 0, v, quote_sql, NULL, buf, 20) == -1,
		  "render: a buffer too small is refused, not overrun");
}

/*
 * The rate schedule: gaps of a Poisson process (mean 1/rate, standard
 * deviation equal to the mean, about 1/e of them longer than the mean), and
 * a count of arrivals in a window that holds the rate.
 */
static void
test_pacer(void)
{
	mb_pacer	p;
	const int	n = 200000;
	double		sum = 0;
	double		sumsq = 0;
	int			longer = 0;
	uint64_t	prev;
	uint64_t	start = 1000000000ull;
	int			i;
	int			in_window = 0;

	mb_pacer_init(&p, 2000.0, 42, 7, start);
	prev = start;
	for (i = 0; i < n; i++)
	{
		uint64_t	t = mb_pacer_next(&p);
		double		gap = (double) (t - prev);

		if (t < prev)
			break;
		sum += gap;
		sumsq += gap * gap;
		if (gap > 500000.0)
			longer++;
		if (t < start + 3000000000ull)
			in_window++;
		prev = t;
	}
	{
		double		mean = sum / n;
		double		sd = sqrt(sumsq / n - mean * mean);

		CHECK(i == n, "pacer: scheduled starts never go back in time");
		CHECK(fabs(mean - 500000.0) < 0.01 * 500000.0,
			  "pacer: mean gap is 1/rate within 1%% (%.0f ns for 2000/s)", mean);
		CHECK(fabs(sd / mean - 1.0) < 0.02,
			  "pacer: gaps are exponential, sd/mean = %.3f", sd / mean);
		CHECK(fabs(longer / (double) n - exp(-1.0)) < 0.01,
			  "pacer: %.3f of the gaps exceed the mean (1/e = 0.368)", longer / (double) n);
		CHECK(abs(in_window - 6000) < 6000 * 0.05,
			  "pacer: %d arrivals in 3 s at 2000/s (within 5%%)", in_window);
	}
}

/*
 * The per-second sampler, fed by a synthetic query counter at known times
 * (no clock is read): how many samples a window gives, their values, a
 * late reading divided by the stretch it actually closed, the tail rule and
 * what happens past the buffer.
 */
#define NS_PER_S 1000000000ull
#define T0 (7 * NS_PER_S)		/* the window starts at an arbitrary time */

/* The counter: 'rate' queries per second from the window start, whole queries. */
static uint64_t
counter_at(uint64_t t_ns, uint64_t rate)
{
	return (t_ns - T0) * rate / NS_PER_S;
}

/*
 * A window of len_ns at 'rate' q/s, the counter read every step_ns (the
 * last reading before the end), then finished at its end.
 */
static void
feed_window(mb_samples *s, double *buf, int cap, uint64_t len_ns, uint64_t step_ns,
			uint64_t rate)
{
	uint64_t	t;

	mb_samples_init(s, buf, NULL, cap, T0, NULL);
	for (t = T0 + step_ns; t < T0 + len_ns; t += step_ns)
		mb_samples_tick(s, t, counter_at(t, rate), NULL);
	mb_samples_finish(s, T0 + len_ns, counter_at(T0 + len_ns, rate), NULL);
}

static int
all_near(const double *v, int n, double want)
{
	int			i;

	for (i = 0; i < n; i++)
		if (fabs(v[i] - want) > 1e-9 * want)
			return 0;
	return 1;
}

static void
test_samples(void)
{
	double		buf[16];
	mb_samples	s;

	CHECK(mb_samples_capacity(2.6) == 4 && mb_samples_capacity(0.3) == 2 &&
		  mb_samples_capacity(600) == 602,
		  "samples: capacity is the whole seconds plus two (%d for 2.6 s)",
		  mb_samples_capacity(2.6));
	CHECK(mb_samples_capacity(0) == 86400 && mb_samples_capacity(1e9) == 86400,
		  "samples: a window bounded by events only, or longer than a day, keeps a day (%d)",
		  mb_samples_capacity(0));

	mb_samples_init(&s, buf, NULL, 16, T0, NULL);
	CHECK(mb_samples_due_ns(&s) == T0 + NS_PER_S, "samples: the first is due a second after the start");
	mb_samples_tick(&s, T0 + NS_PER_S - 1, 999, NULL);
	CHECK(s.count == 0, "samples: a reading 1 ns before the second closes nothing");
	mb_samples_tick(&s, T0 + NS_PER_S, 1000, NULL);
	CHECK(s.count == 1 && buf[0] == 1000.0 && mb_samples_due_ns(&s) == T0 + 2 * NS_PER_S,
		  "samples: a reading at the second closes it (%d sample, %.1f q/s), the next is due a second later",
		  s.count, buf[0]);

	/* 2.6 s read every 10 ms at 1000 q/s: two full seconds and a 0.6 s tail */
	feed_window(&s, buf, 16, 2600000000ull, 10000000ull, 1000);
	CHECK(s.count == 3 && s.dropped == 0 && all_near(buf, 3, 1000.0),
		  "samples: 2.6 s at 1000 q/s gives 3 samples of 1000 (%d: %.3f %.3f %.3f)",
		  s.count, buf[0], buf[1], buf[2]);
	CHECK(fabs(buf[0] + buf[1] + buf[2] * 0.6 - 2600) < 1e-6,
		  "samples: 2.6 s: sum of qps x duration = the 2600 queries (%.6f)",
		  buf[0] + buf[1] + buf[2] * 0.6);

	feed_window(&s, buf, 16, 2200000000ull, 10000000ull, 1000);
	CHECK(s.count == 2 && s.dropped == 0 && all_near(buf, 2, 1000.0),
		  "samples: 2.2 s gives 2 samples: the 0.2 s tail is dropped (%d)", s.count);
	CHECK(fabs(buf[0] + buf[1] - 2000) < 1e-6,
		  "samples: 2.2 s: the samples hold the 2000 queries before the tail (%.6f)",
		  buf[0] + buf[1]);

	feed_window(&s, buf, 16, 2500000000ull, 10000000ull, 1000);
	CHECK(s.count == 3 && all_near(buf, 3, 1000.0),
		  "samples: a tail of exactly 0.5 s is kept (%d samples)", s.count);
	feed_window(&s, buf, 16, 2499999999ull, 10000000ull, 1000);
	CHECK(s.count == 2, "samples: a tail 1 ns short of 0.5 s is dropped (%d samples)", s.count);

	feed_window(&s, buf, 16, 300000000ull, 10000000ull, 1000);
	CHECK(s.count == 1 && fabs(buf[0] - 1000.0) < 1e-9,
		  "samples: a 0.3 s window has one sample, over all of it (%d: %.3f q/s)", s.count, buf[0]);
	feed_window(&s, buf, 16, 1000ull, 10000000ull, 1000000000ull);
	CHECK(s.count == 1 && fabs(buf[0] - 1e9) < 1e-3,
		  "samples: so has a 1 us window (%d: %.0f q/s)", s.count, buf[0]);

	/*
	 * Late readings: 1000 q/s for 1.3 s, then 3000 q/s.  The first second
	 * is only seen at 1.3 s; the next sample ends at the whole second 2.0 s
	 * (at least 0.5 s on), seen at 2.05 s; the one after is due at 3.0 s,
	 * where the window ends: its 0.95 s are kept.
	 */
	{
		uint64_t	q13 = 1300,
					q205 = q13 + 750 * 3,
					q29 = q205 + 850 * 3,
					q30 = q29 + 300;

		mb_samples_init(&s, buf, NULL, 16, T0, NULL);
		mb_samples_tick(&s, T0 + 400000000ull, 400, NULL);
		mb_samples_tick(&s, T0 + 1300000000ull, q13, NULL);
		CHECK(s.count == 1 && fabs(buf[0] - 1300 / 1.3) < 1e-9 &&
			  mb_samples_due_ns(&s) == T0 + 2000000000ull,
			  "samples: a reading 0.3 s late closes a 1.3 s sample: 1300 / 1.3 = %.3f q/s,"
			  " the next due at the whole second 2.0 s", buf[0]);
		mb_samples_tick(&s, T0 + 1900000000ull, q13 + 600 * 3, NULL);
		CHECK(s.count == 1, "samples: a reading before the next is due closes nothing");
		mb_samples_tick(&s, T0 + 2050000000ull, q205, NULL);
		CHECK(s.count == 2 && fabs(buf[1] - 3000.0) < 1e-9 && mb_samples_due_ns(&s) == T0 + 3000000000ull,
			  "samples: the 0.75 s sample is its queries over 0.75 s (%.3f q/s); the next due at 3.0 s",
			  buf[1]);
		mb_samples_tick(&s, T0 + 2900000000ull, q29, NULL);
		mb_samples_finish(&s, T0 + 3000000000ull, q30, NULL);
		CHECK(s.count == 3 && fabs(buf[2] - 3000.0) < 1e-9,
			  "samples: the 0.95 s left at the end is kept (%.3f q/s, %d samples)", buf[2], s.count);
		mb_samples_init(&s, buf, NULL, 16, T0, NULL);
		mb_samples_tick(&s, T0 + 1900000000ull, 1900, NULL);
		CHECK(s.count == 1 && mb_samples_due_ns(&s) == T0 + 3000000000ull,
			  "samples: after a reading at 1.9 s the next is due at 3.0 s, not at 2.0 s (no sliver)");
	}

	/* a full buffer: later samples are counted in dropped, the tail too */
	feed_window(&s, buf, 2, 5700000000ull, 10000000ull, 1000);
	CHECK(s.count == 2 && s.dropped == 4 && all_near(buf, 2, 1000.0),
		  "samples: capacity 2 over 5.7 s keeps 2 and drops 4 (5 seconds and the tail) (%d, %d)",
		  s.count, s.dropped);
	/* a reading exactly at the end closed the last second: nothing left to finish */
	mb_samples_init(&s, buf, NULL, 16, T0, NULL);
	mb_samples_tick(&s, T0 + NS_PER_S, 1000, NULL);
	mb_samples_tick(&s, T0 + 2 * NS_PER_S, 2500, NULL);
	mb_samples_finish(&s, T0 + 2 * NS_PER_S, 2500, NULL);
	CHECK(s.count == 2 && buf[1] == 1500.0,
		  "samples: a window ending at a reading that closed its last second adds nothing (%d)",
		  s.count);
}

/*
 * The tenths and the steady rate: a window read every 10 ms whose counter
 * runs at 'rate' except from slow_from to slow_to (ns after the start),
 * where it runs at slow_rate; 'wobble' alternates each tenth's rate by
 * that many q/s up and down (a quiet machine's own spread).
 */
static void
feed_disturbed(mb_samples *s, double *tenths, int cap, uint64_t len_ns, double rate,
			   uint64_t slow_from, uint64_t slow_to, double slow_rate, double wobble)
{
	double		q = 0;
	uint64_t	t;
	uint64_t	step = 10000000ull;

	mb_samples_init(s, NULL, NULL, 0, T0, NULL);
	mb_samples_set_fine(s, tenths, cap);
	for (t = step; t <= len_ns; t += step)
	{
		double		r = t > slow_from && t <= slow_to ? slow_rate : rate;

		r += ((t - 1) / 100000000ull) % 2 ? wobble : -wobble;
		q += r * step / 1e9;
		if (t < len_ns)
			mb_samples_tick(s, T0 + t, (uint64_t) (q + 1e-6), NULL);
	}
	mb_samples_finish(s, T0 + len_ns, (uint64_t) (q + 1e-6), NULL);
}

static void
test_steady(void)
{
	double		tenths[64];
	double		scratch[64];
	double		steady = -1,
				set_aside = -1;
	mb_samples	s;
	bool		known;
	int			i;
	double		mean = 0;

	CHECK(mb_samples_fine_capacity(5) == 52 && mb_samples_fine_capacity(0) == 36000 &&
		  mb_samples_fine_capacity(7200) == 36000,
		  "steady: room for ten tenths a second plus two, an hour at most (%d for 5 s)",
		  mb_samples_fine_capacity(5));

	/* 5 s at 10000 q/s, of which 0.5 s at 4000: five tenths set aside */
	feed_disturbed(&s, tenths, 64, 5 * NS_PER_S, 10000, 2000000000ull, 2500000000ull, 4000, 0);
	for (i = 0; i < s.fine_count; i++)
		mean += tenths[i] / s.fine_count;
	CHECK(s.fine_count == 50 && s.fine_dropped == 0,
		  "steady: 5 s gives 50 tenths (%d, %d dropped)", s.fine_count, s.fine_dropped);
	known = mb_samples_steady(&s, scratch, &steady, &set_aside);
	CHECK(known &&
		  fabs(steady - 10000) < 1 && fabs(set_aside - 0.1) < 1e-9,
		  "steady: half a second at 40%% leaves the steady rate at 10000 q/s (%.1f), 10%% set aside"
		  " (%.3f); the mean is %.0f", steady, set_aside, mean);

	/* a quiet machine's own wobble (+-2%) sets nothing aside */
	feed_disturbed(&s, tenths, 64, 5 * NS_PER_S, 10000, 0, 0, 0, 200);
	known = mb_samples_steady(&s, scratch, &steady, &set_aside);
	CHECK(known && set_aside == 0 &&
		  fabs(steady - 10000) < 5,
		  "steady: tenths 2%% either side of the level set nothing aside (%.3f; %.1f q/s)",
		  set_aside, steady);
	/* a dip of 4%: less than the smallest drop set aside */
	feed_disturbed(&s, tenths, 64, 5 * NS_PER_S, 10000, 1000000000ull, 3000000000ull, 9600, 0);
	known = mb_samples_steady(&s, scratch, &steady, &set_aside);
	CHECK(known && set_aside == 0,
		  "steady: a 4%% dip is not a disturbance (%.3f set aside)", set_aside);
	/* 30 q/s: three queries a tenth, whole queries only; nothing set aside */
	feed_disturbed(&s, tenths, 64, 5 * NS_PER_S, 33, 0, 0, 0, 0);
	known = mb_samples_steady(&s, scratch, &steady, &set_aside);
	CHECK(known && set_aside == 0,
		  "steady: a slow workload's few queries a tenth set nothing aside (%.3f; %.1f q/s)",
		  set_aside, steady);
	/* too short, or tenths that did not fit: no steady rate */
	feed_disturbed(&s, tenths, 64, 400000000ull, 10000, 0, 0, 0, 0);
	steady = -1;
	CHECK(!mb_samples_steady(&s, scratch, &steady, &set_aside) && steady == -1,
		  "steady: 4 tenths give no steady rate (%d tenths)", s.fine_count);
	feed_disturbed(&s, tenths, 20, 5 * NS_PER_S, 10000, 0, 0, 0, 0);
	CHECK(s.fine_count == 20 && s.fine_dropped == 30 &&
		  !mb_samples_steady(&s, scratch, &steady, &set_aside),
		  "steady: tenths past the buffer (%d dropped) give no steady rate", s.fine_dropped);
	/* no tenths kept: the whole seconds are as before, due times too */
	mb_samples_init(&s, tenths, NULL, 16, T0, NULL);
	CHECK(mb_samples_due_ns(&s) == T0 + NS_PER_S && !mb_samples_steady(&s, scratch, &steady, &set_aside),
		  "steady: without a tenths buffer the next reading is due at the second, and no steady rate");
	mb_samples_set_fine(&s, scratch, 64);
	CHECK(mb_samples_due_ns(&s) == T0 + NS_PER_S / 10,
		  "steady: with one, a reading is due at the first tenth");
}

/*
 * The canary is a timing: nothing about its value can be asserted on a
 * machine of unknown speed and load but that it is a time.  It returns,
 * twice (the second call reuses the cycle the first built).
 */
static void
test_canary(void)
{
	double		a = mb_canary_run_us();
	double		b = mb_canary_run_us();

	CHECK(a > 0 && isfinite(a), "canary: returns a positive, finite time (%.0f us)", a);
	CHECK(b > 0 && isfinite(b), "canary: and again on a second call (%.0f us)", b);
}

int
main(void)
{
	test_seeding();
	test_rng_double_and_uniform();
	test_uniform_dist();
	test_zipfian();
	test_param_kinds();
	test_loop();
	test_gaussian();
	test_pareto();
	test_special();
	test_degenerate_ranges();
	test_type_names();
	test_hist();
	test_values();
	test_values_reference();
	test_costs();
	test_literal_render();
	test_pacer();
	test_samples();
	test_steady();
	test_canary();

	printf("1..%d\n", test_count);
	if (test_failed)
		printf("# %d of %d checks failed\n", test_failed, test_count);
	return test_failed ? 1 : 0;
}

/*
 * mb_samples.c — QPS for each second and each tenth of the measured
 * window, and the run's steady rate (see mb_samples.h).
 */
#include "mb_samples.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* a day of one-second samples at most; a longer run keeps the first day */
#define MB_SAMPLES_MAX	86400
/* an hour of tenths at most; a longer run has no steady rate */
#define MB_FINE_MAX		36000

/*
 * A tenth is disturbed when it falls below the run's level (the median
 * tenth) by more than MB_STEADY_SPREADS times the tenths' usual spread,
 * and by at least MB_STEADY_MIN_DROP of the level: on a quiet machine
 * about one tenth in 30,000 strays that far by chance.
 */
#define MB_STEADY_SPREADS	4.0
#define MB_STEADY_MIN_DROP	0.05

int
mb_samples_capacity(double seconds)
{
	if (seconds <= 0 || seconds >= MB_SAMPLES_MAX)
		return MB_SAMPLES_MAX;
	return (int) seconds + 2;
}

int
mb_samples_fine_capacity(double seconds)
{
	if (seconds <= 0 || seconds * 10 >= MB_FINE_MAX)
		return MB_FINE_MAX;
	return (int) (seconds * 10) + 2;
}

/* The first whole step from the window's start at least half a step after now. */
static uint64_t
next_due(uint64_t window_start_ns, uint64_t now_ns, uint64_t step_ns)
{
	return window_start_ns +
		((now_ns + step_ns / 2 - window_start_ns + step_ns - 1) / step_ns) * step_ns;
}

static void
set_start_sched(mb_samples *s, const mb_sched *sched)
{
	s->start_sched_valid = sched != NULL;
	if (sched != NULL)
		s->start_sched = *sched;
}

void
mb_samples_init(mb_samples *s, double *buffer, double *wait_share, int capacity,
				uint64_t window_start_ns, const mb_sched *sched)
{
	s->qps = buffer;
	s->wait_share = wait_share;
	s->capacity = capacity;
	s->count = 0;
	s->dropped = 0;
	s->window_start_ns = window_start_ns;
	s->due_ns = window_start_ns + MB_SAMPLE_NS;
	s->start_ns = window_start_ns;
	s->start_queries = 0;
	set_start_sched(s, sched);
	s->fine_qps = NULL;
	s->fine_capacity = s->fine_count = s->fine_dropped = 0;
}

void
mb_samples_set_fine(mb_samples *s, double *buffer, int capacity)
{
	s->fine_qps = buffer;
	s->fine_capacity = buffer != NULL ? capacity : 0;
	s->fine_count = 0;
	s->fine_dropped = 0;
	s->fine_due_ns = s->window_start_ns + MB_FINE_SAMPLE_NS;
	s->fine_start_ns = s->window_start_ns;
	s->fine_start_queries = s->start_queries;
}

uint64_t
mb_samples_due_ns(const mb_samples *s)
{
	if (s->fine_qps != NULL && s->fine_due_ns < s->due_ns)
		return s->fine_due_ns;
	return s->due_ns;
}

bool
mb_samples_due(const mb_samples *s, uint64_t now_ns)
{
	return now_ns >= s->due_ns;
}

static void
close_sample(mb_samples *s, uint64_t now_ns, uint64_t queries, const mb_sched *sched)
{
	double		seconds = (now_ns - s->start_ns) / 1e9;

	if (s->count < s->capacity)
	{
		if (s->wait_share != NULL)
		{
			mb_sched	d = {0, 0};

			s->wait_share[s->count] = -1;
			if (sched != NULL && s->start_sched_valid)
			{
				mb_sched_add_delta(&d, sched, &s->start_sched);
				s->wait_share[s->count] = mb_sched_wait_share(&d);
			}
		}
		s->qps[s->count++] = (queries - s->start_queries) / seconds;
	}
	else
		s->dropped++;
	s->start_ns = now_ns;
	s->start_queries = queries;
	set_start_sched(s, sched);
	s->due_ns = next_due(s->window_start_ns, now_ns, MB_SAMPLE_NS);
}

static void
close_fine(mb_samples *s, uint64_t now_ns, uint64_t queries)
{
	if (s->fine_count < s->fine_capacity)
		s->fine_qps[s->fine_count++] =
			(queries - s->fine_start_queries) / ((now_ns - s->fine_start_ns) / 1e9);
	else
		s->fine_dropped++;
	s->fine_start_ns = now_ns;
	s->fine_start_queries = queries;
	s->fine_due_ns = next_due(s->window_start_ns, now_ns, MB_FINE_SAMPLE_NS);
}

void
mb_samples_tick(mb_samples *s, uint64_t now_ns, uint64_t queries, const mb_sched *sched)
{
	if (s->fine_qps != NULL && now_ns >= s->fine_due_ns)
		close_fine(s, now_ns, queries);
	if (mb_samples_due(s, now_ns))
		close_sample(s, now_ns, queries, sched);
}

void
mb_samples_finish(mb_samples *s, uint64_t window_end_ns, uint64_t queries,
				  const mb_sched *sched)
{
	if (s->fine_qps != NULL && window_end_ns > s->fine_start_ns &&
		(window_end_ns - s->fine_start_ns >= MB_FINE_SAMPLE_NS / 2 || s->fine_count == 0))
		close_fine(s, window_end_ns, queries);
	if (window_end_ns <= s->start_ns)
		return;
	if (window_end_ns - s->start_ns >= MB_SAMPLE_NS / 2 || s->count == 0)
		close_sample(s, window_end_ns, queries, sched);
}

static int
compare_doubles(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return (x > y) - (x < y);
}

/* The median of v[0..n-1], which it sorts (so that quartiles can be read after). */
double
mb_sort_median(double *v, int n)
{
	qsort(v, n, sizeof(double), compare_doubles);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool
mb_samples_steady(const mb_samples *s, double *scratch, double *qps, double *set_aside)
{
	int			n = s->fine_count;
	int			kept = 0;
	int			i;
	double		level,
				spread,
				cutoff,
				sum = 0;

	if (s->fine_qps == NULL || n < 5 || s->fine_dropped > 0)
		return false;
	memcpy(scratch, s->fine_qps, sizeof(double) * n);
	level = mb_sort_median(scratch, n);
	for (i = 0; i < n; i++)
		scratch[i] = fabs(s->fine_qps[i] - level);
	/*
	 * the tenths' usual spread (the median absolute deviation, scaled to a
	 * standard deviation), but never less than counting whole queries in a
	 * tenth makes it: a slow workload's tenths hold a few queries each
	 */
	spread = fmax(1.4826 * mb_sort_median(scratch, n), sqrt(level / (MB_FINE_SAMPLE_NS / 1e9)));
	cutoff = level - fmax(MB_STEADY_SPREADS * spread, MB_STEADY_MIN_DROP * level);
	for (i = 0; i < n; i++)
		if (s->fine_qps[i] >= cutoff)
		{
			sum += s->fine_qps[i];
			kept++;
		}
	*qps = sum / kept;
	*set_aside = (double) (n - kept) / n;
	return true;
}

/*
 * mb_samples.c — QPS for each second of the measured window (see mb_samples.h).
 */
#include "mb_samples.h"

#include <stddef.h>

/* a day of one-second samples at most; a longer run keeps the first day */
#define MB_SAMPLES_MAX	86400

int
mb_samples_capacity(double seconds)
{
	if (seconds <= 0 || seconds >= MB_SAMPLES_MAX)
		return MB_SAMPLES_MAX;
	return (int) seconds + 2;
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
}

uint64_t
mb_samples_due_ns(const mb_samples *s)
{
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
	/* the first whole second from the window's start at least 0.5 s away */
	s->due_ns = s->window_start_ns +
		((now_ns + MB_SAMPLE_NS / 2 - s->window_start_ns + MB_SAMPLE_NS - 1) / MB_SAMPLE_NS) * MB_SAMPLE_NS;
}

void
mb_samples_tick(mb_samples *s, uint64_t now_ns, uint64_t queries, const mb_sched *sched)
{
	if (mb_samples_due(s, now_ns))
		close_sample(s, now_ns, queries, sched);
}

void
mb_samples_finish(mb_samples *s, uint64_t window_end_ns, uint64_t queries,
				  const mb_sched *sched)
{
	if (window_end_ns <= s->start_ns)
		return;
	if (window_end_ns - s->start_ns >= MB_SAMPLE_NS / 2 || s->count == 0)
		close_sample(s, window_end_ns, queries, sched);
}

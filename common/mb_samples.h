/*
 * mb_samples.h — QPS for each second of a run's measured window, for
 * each tenth of a second too, and the run's steady rate from the tenths.
 *
 * A run's single QPS hides how it got there: a warm-up that had not
 * finished, a checkpoint, a neighbour that started half-way.  Both drivers
 * keep the QPS of every second of the window, whatever the progress
 * interval, so that the reports can see variability and trends inside a
 * run, and can build an interval from a single run when there are too few
 * runs to use.
 *
 * The coordinator (the extension's calling backend, the client's main
 * thread) reads the clients' summed query counter whenever it wakes and
 * hands it here; a sample is closed at the first reading at or after its
 * due time, a whole second from the window's start (so lateness does not
 * add up over a long run), and its QPS is the queries of that stretch
 * divided by its actual length (a sample that closed 2 ms late is not
 * inflated).  After a late reading the next sample is due at the first
 * whole second at least half a second away, so no sample is a sliver.  At
 * the end of the window the partial last second is kept when it is at
 * least half a second long, or when the whole window is shorter than that,
 * so that every run has at least one sample.
 *
 * With each reading the caller may pass the clients' summed CPU run and
 * wait times (mb_sched.h), read when a sample is due (mb_samples_due); each
 * sample then also gets the share of the clients' time spent waiting for a
 * CPU, or -1 where a reading was missing.
 *
 * Given a second buffer (mb_samples_set_fine), the same readings also make
 * samples of a tenth of a second.  A neighbour that takes the CPU for a
 * moment slows a few tenths and leaves the rest of the run as it was, and
 * interference only ever slows a run (Chen and Revels, "Robust benchmarking
 * in noisy environments", 2016): so mb_samples_steady takes the run's
 * level as the median tenth, sets aside the tenths that fell well below
 * it, and returns the mean rate of the rest with the share set aside.  A
 * disturbed second moves the run's mean, not its steady rate.
 */
#ifndef MB_SAMPLES_H
#define MB_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>

#include "mb_sched.h"

#define MB_SAMPLE_NS	1000000000ULL
#define MB_FINE_SAMPLE_NS	100000000ULL

typedef struct mb_samples
{
	double	   *qps;			/* caller's buffer */
	double	   *wait_share;		/* caller's buffer, or NULL: no CPU waits */
	int			capacity;
	int			count;
	int			dropped;		/* samples past capacity */
	uint64_t	window_start_ns;	/* samples end at whole seconds from here */
	uint64_t	due_ns;			/* when the open sample should close */
	uint64_t	start_ns;		/* start of the open sample */
	uint64_t	start_queries;	/* queries counted when it opened */
	bool		start_sched_valid;	/* start_sched was read */
	mb_sched	start_sched;	/* CPU times when it opened */
	/* the tenths of a second: fine_qps NULL when not kept */
	double	   *fine_qps;
	int			fine_capacity;
	int			fine_count;
	int			fine_dropped;
	uint64_t	fine_due_ns;
	uint64_t	fine_start_ns;
	uint64_t	fine_start_queries;
} mb_samples;

/* Buffer size for a window of 'seconds' (0: bounded by events only). */
extern int	mb_samples_capacity(double seconds);

/*
 * wait_share: a second buffer of the same capacity for the CPU wait shares,
 * or NULL; sched: the CPU times at the window's start (NULL: unknown).
 */
extern void mb_samples_init(mb_samples *s, double *buffer, double *wait_share,
							int capacity, uint64_t window_start_ns, const mb_sched *sched);

/* Buffer size for the tenths of a window of 'seconds' (an hour at most). */
extern int	mb_samples_fine_capacity(double seconds);

/* Keep tenths of a second too, in buffer (after mb_samples_init). */
extern void mb_samples_set_fine(mb_samples *s, double *buffer, int capacity);

/* The time at which the open sample (a second's or a tenth's) should be closed. */
extern uint64_t mb_samples_due_ns(const mb_samples *s);

/* Whether a reading at now_ns closes the open sample (then read the CPU times). */
extern bool mb_samples_due(const mb_samples *s, uint64_t now_ns);

/*
 * A reading of the summed query counter, with the clients' summed CPU
 * times if the sample is due (NULL: not read, or not comparable with the
 * last reading); closes the sample when due.
 */
extern void mb_samples_tick(mb_samples *s, uint64_t now_ns, uint64_t queries,
							const mb_sched *sched);

/* The end of the window: keep the last partial second if long enough. */
extern void mb_samples_finish(mb_samples *s, uint64_t window_end_ns,
							  uint64_t queries, const mb_sched *sched);

/* The median of v[0..n-1], which it sorts in place. */
extern double mb_sort_median(double *v, int n);

/*
 * The run's steady rate from its tenths (qps) and the share of the tenths
 * set aside as disturbed; false, leaving both alone, when there are fewer
 * than five tenths (half a second) or some did not fit the buffer.  scratch: room for
 * fine_count doubles.
 */
extern bool mb_samples_steady(const mb_samples *s, double *scratch, double *qps,
							  double *set_aside);

#endif							/* MB_SAMPLES_H */

/*
 * mb_sched.h — how long the processes that ran a benchmark's statements
 * waited for a CPU while they could have run, as the kernel counts it
 * (/proc/PID/schedstat: time on a CPU, then time runnable on a run queue).
 *
 * A host-speed canary timed before and after a run says how fast a CPU is,
 * not how much of it the server got: a CPU-bound neighbour on the server's
 * CPU halves its throughput while a 1 ms canary still finishes inside one
 * time slice.  The share of time the clients (in-server: the background
 * workers running the statements; over the wire: the client's threads)
 * spent waiting for a CPU shows exactly that, per run and per second, so
 * that a comparison can name a run that was disturbed and set its pair
 * aside.  Linux only; where the file cannot be read, nothing is recorded.
 */
#ifndef MB_SCHED_H
#define MB_SCHED_H

#include <stdbool.h>
#include <stdint.h>

/* Nanoseconds on a CPU, and runnable but waiting for one. */
typedef struct mb_sched
{
	uint64_t	run_ns;
	uint64_t	wait_ns;
} mb_sched;

/* A schedstat file's first two fields; false when it cannot be read. */
extern bool mb_sched_read(const char *path, mb_sched *out);

/* The calling thread's figures (/proc/thread-self/schedstat). */
extern bool mb_sched_self(mb_sched *out);

/* Adds b - a to sum (all counters only grow). */
extern void mb_sched_add_delta(mb_sched *sum, const mb_sched *b, const mb_sched *a);

/* wait / (run + wait) of d, or -1 when d has no time at all. */
extern double mb_sched_wait_share(const mb_sched *d);

#endif							/* MB_SCHED_H */

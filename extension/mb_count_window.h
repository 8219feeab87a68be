/*
 * mb_count_window.h — how a benchmark client marks its measured window for
 * valgrind's callgrind, so that a counted run (microbench compare --metric
 * instructions, the server started under callgrind with
 * --instr-atstart=no --collect-atstart=no) counts the measured events and
 * nothing else.
 *
 * The client starts callgrind's instrumentation as its event loop begins
 * (its warm-up events then warm the simulated caches, their costs still
 * uncollected), zeroes the counts as the window opens, collects only while
 * an event runs (transaction start to commit: not the loop's own timing and
 * bookkeeping, the statistics flush or the waits, which depend on the clock
 * valgrind slows), and dumps the counts, named MB_COUNT_WINDOW_NAME, as the
 * window closes.  Zeroing drops what a forked process inherits from the
 * postmaster; only the window is in the dump.
 *
 * These are callgrind's client requests (valgrind/callgrind.h, in Debian's
 * valgrind package): a few instructions that do nothing outside valgrind.
 * A library built without that header cannot mark a window and says so
 * (mb_count_window_available).
 */
#ifndef MB_COUNT_WINDOW_H
#define MB_COUNT_WINDOW_H

#include <stdbool.h>

/* the name callgrind gives the dump: its "desc: Trigger: Client Request:" line */
#define MB_COUNT_WINDOW_NAME "microbench window"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define MB_HAVE_CALLGRIND 1
#endif
#endif

#ifdef MB_HAVE_CALLGRIND

static inline bool
mb_count_window_available(void)
{
	return true;
}

/* The event loop begins: instrument from here on (collection stays off). */
static inline void
mb_count_window_instrument(void)
{
	CALLGRIND_START_INSTRUMENTATION;
}

/* The window opens: nothing counted before it stays. */
static inline void
mb_count_window_open(void)
{
	CALLGRIND_ZERO_STATS;
}

/* Collection on as an event begins, off as it ends. */
static inline void
mb_count_window_toggle(void)
{
	CALLGRIND_TOGGLE_COLLECT;
}

/* The window closes: its counts into a dump of their own; instrumentation off. */
static inline void
mb_count_window_close(void)
{
	CALLGRIND_DUMP_STATS_AT(MB_COUNT_WINDOW_NAME);
	CALLGRIND_STOP_INSTRUMENTATION;
}

#else

static inline bool
mb_count_window_available(void)
{
	return false;
}

static inline void
mb_count_window_instrument(void)
{
}

static inline void
mb_count_window_open(void)
{
}

static inline void
mb_count_window_toggle(void)
{
}

static inline void
mb_count_window_close(void)
{
}

#endif							/* MB_HAVE_CALLGRIND */

#endif							/* MB_COUNT_WINDOW_H */

/*
 * mb_shared.h — the dynamic shared memory a run's coordinator and its
 * workers share.
 *
 * The coordinator (the backend that called bench_run) creates one segment
 * per run: the run's parameters, a phase word it alone writes, and one slot
 * per client that only that client's worker writes while it runs.  (The
 * slot's state word is the one the coordinator also writes: before the
 * client's worker starts, and once the postmaster says it has stopped, so
 * never while the worker can.)  Nothing is locked: at any time every shared
 * word has exactly one writer; counters are 64-bit atomics so
 * that the coordinator's progress reads are never torn, and the histogram
 * buckets are read for progress lines only (an off-by-one count there is
 * harmless; the final figures are read after the workers have finished).
 */
#ifndef MB_SHARED_H
#define MB_SHARED_H

#include "postgres.h"

#include "port/atomics.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"

#include "mb_catalog.h"
#include "mb_cost.h"
#include "mb_hist.h"
#include "mb_pacer.h"
#include "mb_sched.h"
#include "storage/latch.h"

/* The run's phase, written by the coordinator only. */
typedef enum mb_phase
{
	MB_PHASE_SETUP = 0,			/* workers connect and prepare statements */
	MB_PHASE_WARMUP,			/* run events, count nothing */
	MB_PHASE_MEASURE,			/* run events and count them */
	MB_PHASE_STOP,				/* finish the event in flight and exit */
	MB_PHASE_ABORT				/* exit at once: the run failed */
} mb_phase;

/*
 * An error raised in a background worker, kept in shared memory so that the
 * backend that started the worker can raise it again with the worker's
 * SQLSTATE, message, detail and hint.
 */
typedef struct mb_error_report
{
	int			sqlerrcode;
	char		message[512];
	char		detail[512];
	char		hint[256];
} mb_error_report;

/* Copy the error being handled (inside PG_CATCH) into a report. */
extern void mb_error_capture(mb_error_report *report);
/* Raise a captured error in this backend, its message after a prefix. */
#ifdef pg_noreturn				/* Postgres 18 replaced pg_attribute_noreturn */
extern pg_noreturn void mb_error_rethrow(const mb_error_report *report, const char *prefix);
#else
extern void mb_error_rethrow(const mb_error_report *report, const char *prefix) pg_attribute_noreturn();
#endif

/*
 * A client's state: written by its worker while it runs; by the coordinator
 * before the worker starts and after it has stopped (to start the next
 * session of a reconnecting client, or to close one that stopped at the end).
 */
typedef enum mb_worker_state
{
	MB_WORKER_STARTING = 0,
	MB_WORKER_READY,			/* statements prepared, waiting for warm-up */
	MB_WORKER_RUNNING,
	MB_WORKER_DONE,				/* left the event loop normally */
	MB_WORKER_FAILED,			/* error text in the slot */
	MB_WORKER_RECONNECTING		/* exited to be replaced by a fresh session */
} mb_worker_state;

/* At most this many SQLSTATEs in ignore_errors. */
#define MB_MAX_IGNORED 16

/*
 * What one client's measured events cost, from its first measured event to
 * the stop: added to by each session of the client as it leaves its event
 * loop (a client that reconnects has several).
 */
typedef struct mb_worker_costs
{
	bool		measured;		/* the client ran in the measured window */
	mb_rusage	rusage;			/* CPU and context switches (getrusage) */
	int64		wal_records;	/* pgWalUsage */
	int64		wal_fpi;
	int64		wal_bytes;
	int64		shared_hit;		/* pgBufferUsage */
	int64		shared_read;
	int64		shared_dirtied;
	int64		shared_written;
	bool		hw_counted;		/* instructions and cycles are valid */
	uint64		instructions;
	uint64		cycles;
	char		hw_note[160];	/* what was counted, or why not */
} mb_worker_costs;

typedef struct mb_worker_slot
{
	pg_atomic_uint32 state;		/* mb_worker_state */
	int			pid;
	/* measured window only */
	pg_atomic_uint64 events;
	pg_atomic_uint64 queries;
	pg_atomic_uint64 errors;	/* events ended by an ignored error */
	pg_atomic_uint64 errors_by_code[MB_MAX_IGNORED];	/* as ignore_codes */
	/* set by the worker's SIGTERM handler: someone terminated it */
	pg_atomic_uint32 terminated;
	int64		last_event_end_us;	/* end of its last measured event */
	mb_hist		latency;			/* successful measured events only */
	mb_worker_costs costs;
	/* CPU run and wait times of its measured events, all sessions added */
	mb_sched	sched;
	bool		sched_unknown;	/* a session could not read them */
	mb_error_report error;		/* for the coordinator to re-raise */

	/*
	 * Carried from one session of the client to the next when it reconnects:
	 * the random streams go on where they were, and the first event of the
	 * new session is timed from the moment the old one began to leave.
	 */
	uint64		sessions;		/* sessions opened so far */
	mb_rng		rng;
	mb_pacer	pacer;
	bool		pacer_started;
	uint64		reconnect_started_ns;	/* 0 when not reconnecting */
} mb_worker_slot;

typedef struct mb_run_shared
{
	/* parameters, fixed before the workers start */
	Oid			database_id;
	Oid			role_id;
	int			workload_index; /* into mb_catalog_workloads[] */
	int			clients;
	int			tables;
	uint32		table_size;
	int			range;			/* R, 0 if the workload has none */
	mb_rand_type rand_type;
	bool		seeded;
	uint64		seed;
	bool		collect_costs;	/* microbench.collect_costs */
	char		schema[NAMEDATALEN];	/* where the sbtest tables are */
	bool		ps_disable;		/* ps_mode disable: SQL text with literals */
	double		rate;			/* events per second, all clients; 0: no limit */
	int64		event_limit;	/* measured events to run; 0: no limit */
	int64		warmup_events;	/* warm-up events to run; 0: warm up for seconds */
	bool		count_window;	/* mark the measured window for callgrind (mb_count_window.h) */
	int			reconnect;		/* new session every N events; 0: never */
	int			n_ignored;
	int			ignore_codes[MB_MAX_IGNORED];	/* SQLSTATEs, as sqlerrcode */
	Latch	   *coordinator_latch;	/* set when an event limit is reached */

	pg_atomic_uint32 phase;		/* mb_phase */
	pg_atomic_uint64 events_claimed;	/* measured events begun (event_limit) */
	pg_atomic_uint64 warmup_claimed;	/* warm-up events begun (warmup_events) */
	pg_atomic_uint64 warmup_done;	/* ... and finished */
	mb_worker_slot slots[FLEXIBLE_ARRAY_MEMBER];
} mb_run_shared;

#define MB_RUN_SHARED_SIZE(clients) \
	(offsetof(mb_run_shared, slots) + sizeof(mb_worker_slot) * (clients))

/*
 * Fails unless the installed SQL definitions are the version this library
 * was built for (mb_version.c); every SQL-callable entry point calls it first.
 */
extern void mb_check_sql_version(void);
/* The compiler that built this library ("gcc 12.2.0", "Debian Clang 16.0.6"), mb_version.c. */
extern const char *mb_harness_compiler(void);

/* Microseconds on a monotonic clock: event latencies and windows. */
extern int64 mb_now_us(void);
/* Nanoseconds on the same clock. */
extern uint64 mb_now_ns(void);

/* The background worker's entry point (mb_worker.c). */
extern PGDLLEXPORT void mb_worker_main(Datum main_arg);

/*
 * Workers connect as the calling role, never as anyone else: the caller
 * checks up front that the role can connect (mb_check_worker_role), and the
 * worker connects with mb_worker_connect.
 */
extern void mb_check_worker_role(Oid role_id, int clients);
extern void mb_worker_connect(Oid database_id, Oid role_id);

/*
 * Register a dynamic background worker of this library running function,
 * mapping seg, with extra (a client index) in bgw_extra; never restarted,
 * and this backend is notified when it starts and stops.  The handle is in
 * TopMemoryContext, because detach callbacks use it during error recovery.
 * NULL when no worker slot is free.
 */
extern BackgroundWorkerHandle *mb_register_worker(const char *function, const char *name,
												  dsm_segment *seg, int extra);

#endif							/* MB_SHARED_H */

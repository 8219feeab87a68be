/*
 * mbm.h — shared declarations of microbench, the client that runs the
 * catalog over a client connection: against MySQL and MariaDB (driver
 * mysql) and against Postgres (driver pgsql, libpq).
 *
 * The client runs the catalog of common/ with the same statements, values,
 * transaction boundaries and counting as the Postgres extension, and
 * records its runs in the same results schema.  The core, in this folder,
 * never names a DBMS: mbm_main.c (command line), mbm_driver.h (what a
 * driver does) and mbm_driver.c (the calls every module makes through it),
 * mbm_run.c (clients, phases, progress, summary: one run loop for every
 * driver), mbm_suite.c (the standard suite), mbm_tables.c and mbm_rows.c
 * (prepare's parallel table loading and its rows, for every driver),
 * mbm_results.c (results database or JSON-lines file), mbm_load.c (results
 * files into the results database), mbm_stop.c (SIGINT, SIGTERM and
 * stopping busy threads), mbm_cost.c (what a run cost: server counter
 * deltas, host CPU and disk), mbm_json.c (JSON text).  The drivers are in
 * drivers/, one folder each, listed in drivers/mbm_drivers.c.  How a run
 * is driven beyond that (ignored errors, statement mode, rate, event
 * limit, reconnects) is the same as the extension's: docs/run-options.md.
 */
#ifndef MBM_H
#define MBM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "mb_catalog.h"
#include "mb_cost.h"
#include "mb_hist.h"
#include "mb_host.h"
#include "mb_rand.h"
#include "mb_sched.h"
#include "mb_values.h"
#include "mbm_driver.h"

#define MBM_VERSION "0.2"

/* The most error numbers --ignore-errors takes (the extension's limit too). */
#define MBM_MAX_IGNORED		16

/* How the client was called, for messages: microbench or microbench-mysql. */
extern const char *mbm_progname;

/* Exit codes: 2 for anything the user can fix in the request. */
#define MBM_EXIT_OK			0
#define MBM_EXIT_FAILED		1
#define MBM_EXIT_BAD_INPUT	2

typedef struct mbm_options
{
	int			threads;
	double		time_s;
	double		warmup_s;
	int			tables;
	int64_t		table_size;
	int			range_size;		/* 0: the catalog's */
	mb_rand_type rand_type;
	bool		seeded;
	uint64_t	seed;
	double		report_interval;
	/* how the run is driven (docs/run-options.md) */
	int			n_ignored;		/* error codes an event may hit and the run go on */
	char		ignore_codes[MBM_MAX_IGNORED][MBM_CODE_LEN];
	char		ignored_text[MBM_MAX_IGNORED * MBM_CODE_LEN];	/* as recorded, "1213,1205,1062" */
	bool		ps_disable;		/* SQL text with literals instead of prepared statements */
	bool		no_server_status;	/* --server-status=off: no status or fingerprint reads */
	bool		no_server_facts;	/* --server-facts=off: no connection before the clients' */
	double		rate;			/* events per second over all threads; 0: no limit */
	int64_t		event_limit;	/* measured events; 0: none */
	int64_t		warmup_events;	/* warm-up events; 0: warm up for warmup_s */
	bool		window_stop;	/* --window-stop: SIGSTOP at both ends of the window */
	int			reconnect;		/* new connection every N events; 0: never */
	/* the DBMS: its driver, whose own options say where the server is */
	const mbm_driver *driver;
	/* recording */
	const char *label;
	const char *phase;
	int			round;			/* the comparison's round, 0: not given */
	const char *instance;		/* the server start, as a runner names it; NULL: ask the server */
	const char *results_db;		/* libpq conninfo */
	const char *results_file;	/* JSON-lines fallback */
	bool		no_record;		/* suite warm-up: measure, keep nothing */
	bool		in_suite;		/* say how to load the results file once, at the end */
	/* suite */
	double		read_time_s;
	double		write_time_s;
	double		insert_time_s;
	const char *workloads;		/* comma-separated subset, NULL for all */
} mbm_options;

/* ---- mbm_rows.c: a table's rows as a load's data stream ---- */

/* id and k up to 10 digits each, c, pad, three tabs and the newline */
#define MBM_ROW_MAX		(10 + 1 + 10 + 1 + MB_C_LEN + 1 + MB_PAD_LEN + 1)

typedef struct mbm_row_source
{
	atomic_bool *stop;			/* when set, the data ends here */
	mb_rng	   *rng;
	int64_t		next_id;		/* the next row to make */
	int64_t		table_size;
	char		row[MBM_ROW_MAX];	/* a row split between two reads */
	int			row_len;
	int			row_sent;
} mbm_row_source;

/* An mbm_load_read_fn over an mbm_row_source. */
extern unsigned int mbm_row_source_read(void *arg, char *buf, unsigned int len);

/* ---- mbm_tables.c: prepare's tables, loaded in parallel ---- */

/*
 * What a driver's prepare does for each table, on a connection of its
 * loader thread.  arg is the driver's, shared by every loader: arg_size
 * bytes, zeroed, that mbm_load_tables() allocates and frees once no loader
 * uses it any more (an abandoned one still does: then never).
 */
typedef struct mbm_table_loader
{
	/*
	 * What comes before any table, on a connection of its own (drop the
	 * tables beyond --tables, find where they go, set up arg ...): 0, or
	 * -1 with err set.  NULL: nothing.
	 */
	int			(*begin) (const mbm_options *o, void *arg, mbm_conn *conn, char *err,
						  size_t errlen);
	/*
	 * A connection for loading, set up for it: NULL with err set.  NULL:
	 * mbm_connect_bulk()'s as it is.
	 */
	mbm_conn   *(*connect) (const mbm_options *o, void *arg, char *err, size_t errlen);
	/*
	 * Create sbtest<table> and load it with the rows of stream table of
	 * seed, its indexes and statistics made: 0, or -1 with err set.  Once
	 * *stop is set, end early (mbm_load_step() checks it).
	 */
	int			(*load_table) (const mbm_options *o, void *arg, mbm_conn *conn, int table,
							   uint64_t seed, atomic_bool *stop, char *err, size_t errlen);
	size_t		arg_size;
} mbm_table_loader;

/*
 * Load sbtest1..o->tables, one loader thread and connection per table, up
 * to --threads at once; failures and a stop are reported here.  An exit
 * code: 0 when every table was loaded.
 */
extern int	mbm_load_tables(const mbm_options *o, const mbm_table_loader *tl);
/* One statement of a table's load, unless *stop is set; 0, or -1 with err set. */
extern int	mbm_load_step(const mbm_options *o, mbm_conn *conn, atomic_bool *stop,
						  const char *sql, char *err, size_t errlen);
/*
 * The end of a driver's check_tables: 0 when first_missing is 0 (every
 * table is there), else -1, *missing set, and err naming the table that
 * database db lacks and the prepare that makes it.
 */
extern int	mbm_tables_missing(const mbm_options *o, const char *db, int first_missing,
							   bool *missing, char *err, size_t errlen);

/* ---- mbm_driver.c ---- */

/* Connect with the driver's settings; NULL with err set. */
extern mbm_conn *mbm_connect(const mbm_options *o, char *err, size_t errlen);
/* The same, giving up on connect, reads and writes after timeout_s seconds. */
extern mbm_conn *mbm_connect_timeout(const mbm_options *o, unsigned int timeout_s,
									 char *err, size_t errlen);
/* A connection on which load_stream may run; NULL with err set. */
extern mbm_conn *mbm_connect_bulk(const mbm_options *o, char *err, size_t errlen);
/* A statement as text through the options' driver; 0 or -1 with err set. */
extern int	mbm_query(const mbm_options *o, mbm_conn *conn, const char *sql,
					  char *err, size_t errlen);
/* The first column of the first row of sql as text into out ("" if none); 0 or -1. */
extern int	mbm_query_value(const mbm_options *o, mbm_conn *conn, const char *sql,
							char *out, size_t outlen, char *err, size_t errlen);

/* ---- mbm_stop.c: SIGINT, SIGTERM and stopping worker threads ---- */

/* What the main thread needs to know of a client or loader thread. */
typedef struct mbm_worker
{
	atomic_bool running;		/* true from before the thread starts to its end */
	atomic_ulong conn_id;		/* the server's id of its session (mbm_session_id()), 0 if none */
} mbm_worker;

/*
 * Catch SIGINT and SIGTERM: the handler only notes which one came.  Call it
 * before creating any thread: threads created after it never take them.
 */
extern void mbm_stop_install(void);
/* The signal that asked us to stop, or 0. */
extern int	mbm_stop_signal(void);
extern const char *mbm_stop_signal_name(void);
/*
 * Wait until no worker is running.  With hurry, or once a stop signal has
 * come (then *stop, if given, is set for workers that watch it), those
 * still busy after a second get KILL QUERY, and after two seconds the wait
 * gives up: returns false, the workers are abandoned (do not free what they
 * use; exit soon).  True when all have ended.
 */
extern bool mbm_workers_wait(const mbm_options *o, mbm_worker **workers, int n,
							 bool hurry, atomic_bool *stop);
/* Whether mbm_workers_wait() gave up on any thread. */
extern bool mbm_stop_abandoned(void);
/* rc, or, after a stop signal, end the process with that signal (status 128 + N). */
extern int	mbm_stop_exit(int rc);

/* ---- mbm_run.c ---- */

/* The outcome of a run, what the result row is made of. */
typedef struct mbm_result
{
	const mb_workload *workload;
	int			range;
	mbm_server_facts server;
	mb_host_facts host;
	double		started_at;		/* epoch seconds, measured window */
	double		ended_at;
	double		elapsed_s;
	uint64_t	events;
	uint64_t	queries;
	uint64_t	errors;			/* events ended by an ignored error */
	uint64_t	errors_by_code[MBM_MAX_IGNORED];	/* as o->ignore_codes */
	uint64_t	sessions;		/* connections the client threads opened */
	int64_t		rows_scanned;	/* -1 unless scan */
	mb_hist		latency;
	/* what the measured window cost; none of it unless costs_measured */
	bool		costs_measured;
	mb_rusage	client_cpu;		/* the client threads, summed */
	bool		server_cpu_known;	/* server_cpu was read (mbm_session_cpu.c) */
	mb_rusage	server_cpu;		/* the server threads of the sessions, summed */
	char		cpu_note[256];	/* what server_cpu covers, or why it is unknown */
	bool		server_local;	/* host_cpu and disk mean something */
	mb_host_cpu host_cpu;
	mb_disk		disk;			/* valid: the datadir's device was counted */
	char		disk_note[256]; /* why not */
	char	   *server_status;	/* JSON object of SHOW GLOBAL STATUS deltas, or NULL */
	/* for the summary: which counter (NULL: none), how it is labelled, its delta in units */
	const char *status_name[MBM_COST_STATUS_SHOWN];
	const char *status_label[MBM_COST_STATUS_SHOWN];
	double		status_delta[MBM_COST_STATUS_SHOWN];
	/* for verdicts (results_schema/17_verdicts.sql) */
	const double *qps_per_second;	/* QPS of each second of the window */
	int			n_samples;
	const double *qps_tenths;	/* ... and of each tenth of a second */
	int			n_tenths;
	bool		steady_known;	/* the steady rate from the tenths (mb_samples.h) */
	double		qps_steady;
	double		steady_set_aside;	/* the share of tenths set aside as disturbed */
	double		canary_before_us;	/* mb_canary_run_us(); < 0: not taken */
	double		canary_after_us;
	char	   *data_state;		/* JSON object, or NULL: nothing could be read */
	char	   *client_pids;	/* the server's ids of the workers' sessions as the window opened ("1,2"), or NULL */
	bool		sched_known;	/* the client threads' CPU run and wait times were read */
	mb_sched	sched;			/* ... summed over the window */
	const double *cpu_wait_per_second;	/* per sample, -1: unknown; NULL: none */
} mbm_result;

/*
 * Run w and record it.  Returns an exit code; after a stop signal, 128 + N
 * and nothing recorded.  *in_file_only (if not NULL) is set when the results
 * database failed and the run was kept in the results file instead (exit
 * code 1).
 */
extern int	mbm_run(const mbm_options *o, const mb_workload *w, bool *in_file_only);

/* ---- mbm_session_cpu.c ---- */

/* One server thread's figures at one end of the window. */
typedef struct mbm_thread_cpu
{
	int			tid;
	unsigned long long starttime;	/* since boot, in ticks: the same thread at both ends */
	uint64_t	run_ns;			/* on a CPU, user and system (schedstat) */
	unsigned long long user_ticks;	/* what splits it (stat) */
	unsigned long long system_ticks;
	int64_t		voluntary_cs;
	int64_t		involuntary_cs;
} mbm_thread_cpu;

/* The server threads of the clients' sessions, read at the window's start. */
typedef struct mbm_session_cpu
{
	int			n;
	mbm_thread_cpu *start;
	bool		processes;		/* each session is a process (a Postgres backend) */
	char		note[256];		/* what the figure covers, or why there is none */
} mbm_session_cpu;

extern void mbm_session_cpu_free(mbm_session_cpu *sc);
/* The window's start: false, with sc->note set, when the CPU cannot be read. */
extern bool mbm_session_cpu_start(mbm_session_cpu *sc, const mbm_options *o, mbm_conn *monitor,
								  bool local, const unsigned long *session_ids, int n);
/* The window's end: the threads' CPU summed into out; false, with sc->note set, when not. */
extern bool mbm_session_cpu_end(mbm_session_cpu *sc, mb_rusage *out);

/* ---- mbm_cost.c ---- */

typedef struct mbm_status mbm_status;

/* What the main thread needs to take the server's and the host's costs. */
typedef struct mbm_cost_probe
{
	const mbm_driver *driver;
	mbm_conn   *monitor;		/* its own connection, for the status counters */
	bool		local;			/* the server runs on this host */
	bool		disk_known;		/* disk_device holds the server's datadir */
	char		disk_device[64];
	char		disk_note[256]; /* why there are no disk figures */
	char		status_note[512];	/* why a status snapshot failed */
} mbm_cost_probe;

/* One end of the measured window. */
typedef struct mbm_cost_snapshot
{
	mbm_status *status;			/* NULL: SHOW GLOBAL STATUS failed */
	mb_host_cpu host_cpu;
	mb_disk		disk;
} mbm_cost_snapshot;

/*
 * Connect the monitor and find out whether the server is local and which
 * block device holds its datadir; 0, or -1 with err set (no connection).
 */
extern int	mbm_cost_open(const mbm_options *o, mbm_cost_probe *p, char *err, size_t errlen);
extern void mbm_cost_close(mbm_cost_probe *p);
/* at_start: right before the measured phase; else right after its last event. */
extern void mbm_cost_take(mbm_cost_probe *p, mbm_cost_snapshot *s, bool at_start);
extern void mbm_cost_snapshot_free(mbm_cost_snapshot *s);
/* The window's server and host costs into r (client_cpu is the caller's). */
extern void mbm_cost_finish(const mbm_cost_probe *p, const mbm_cost_snapshot *start,
							const mbm_cost_snapshot *end, mbm_result *r);
/* The summary's "Cost per query" block. */
extern void mbm_cost_print(const mbm_result *r, int clients);
/*
 * A fingerprint of the tables the run reads, on the monitor connection:
 * {"data_bytes", "index_bytes", "rows", "history_length"}, each key only
 * when it could be read; malloc'ed JSON, or NULL when nothing could.
 */
extern char *mbm_data_state(mbm_cost_probe *p, const mbm_options *o, const mb_workload *w);

/* ---- mbm_suite.c ---- */
extern int	mbm_suite(const mbm_options *o);

/* ---- mbm_results.c ---- */
/* An exit code; *in_file_only as for mbm_run(). */
extern int	mbm_record_result(const mbm_options *o, const mbm_result *r,
							  bool *in_file_only);
/*
 * Whether a --results-db conninfo is acceptable: 0, or -1 with a one-line
 * reason in err that never repeats the conninfo (it may hold a password).
 */
extern int	mbm_results_db_check(const char *conninfo, char *err, size_t errlen);
/*
 * The same for any option that takes a libpq conninfo (--NAME): 0, or -1
 * with the reason in err; or_else names what else the option may be ("a
 * database name, ") for the message.
 */
/* text as one shell word, quoted when a shell would read it otherwise, to stdout */
extern void mbm_print_shell_word(const char *text);
extern int	mbm_conninfo_check(const char *option, const char *conninfo, const char *or_else,
							   char *err, size_t errlen);
/*
 * Connect to the results database (conninfo NULL: libpq's environment),
 * giving up after 10 s unless told otherwise; NULL with a one-line reason
 * in err.
 */
struct pg_conn;
extern struct pg_conn *mbm_results_connect(const char *conninfo, char *err, size_t errlen);
/*
 * A connection to a results database that microbench.push_run() loads runs
 * into: NULL with err set, and *no_schema when it answered but has no
 * push_run() (a schema older than this program's).
 */
extern struct pg_conn *mbm_push_connect(const char *conninfo, bool *no_schema, char *err,
										size_t errlen);
/* How to load a results file into the results database: the load command. */
extern void mbm_print_load_recipe(const char *results_file, const char *results_db);

/* ---- mbm_load.c ---- */
/*
 * microbench-mysql load: the JSON lines of n files ("-": standard input)
 * into the results database, all or nothing; an exit code.
 */
extern int	mbm_load(const mbm_options *o, char *const *paths, int n);

/* ---- mbm_parse.c ---- */
/*
 * text as an integer in [min, max] for option --name: 0, or -1 with the
 * message in err.
 */
extern int	mbm_parse_int(const char *name, const char *text, long long min, long long max,
						  long long *value, char *err, size_t errlen);

/* ---- mbm_json.c ---- */
/* s as a JSON string, quotes and control characters escaped. */
extern void mbm_json_string(FILE *f, const char *s);
/* Whether every character of s is a digit (an integer counter). */
extern bool mbm_is_integer(const char *s);

/* Nanoseconds and seconds on the monotonic clock. */
static inline uint64_t
mbm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

static inline double
mbm_now_s(void)
{
	return mbm_now_ns() / 1e9;
}

#endif							/* MBM_H */

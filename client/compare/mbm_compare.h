/*
 * mbm_compare.h — microbench compare, the comparison runner: what its
 * files share.  Its steps, a file each, each using only those listed
 * after it: mbm_compare.c the command; mbm_rounds.c the schedule and the
 * rounds until every cell is decided; mbm_run_one.c one run on a fresh
 * server start (mbm_turns.c: --turns, runs taking turns on servers up side
 * by side); mbm_finish.c every way out; mbm_reports.c the reports and
 * the manifest; mbm_setup.c what is made once (the extension, the results
 * database, the pristine data); mbm_request.c the request and its checks;
 * mbm_labels.c the labels as reports name them; mbm_state.c what they
 * share.  Below them: mbm_proc.c supervises the
 * processes it starts (each server in its own process group, pinned,
 * stopped on every way out); mbm_pgserver.c is a Postgres installation,
 * a data directory and the server on it (initdb, start, stop);
 * mbm_myserver.c the same for MariaDB and MySQL (install-db).
 */
#ifndef MBM_COMPARE_H
#define MBM_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <libpq-fe.h>

/* ---- mbm_proc.c ---- */

/* How a child process runs: as whom, on which CPUs, with its output where. */
typedef struct mbm_spawn
{
	const char *user;			/* NULL: as we are; else drop to this user (we are root) */
	const char *cpus;			/* taskset-style list, NULL: any */
	const char *log;			/* stdout and stderr appended here; NULL: /dev/null */
} mbm_spawn;

/*
 * Catch INT, TERM, HUP and PIPE: the handler notes the signal and cancels
 * the statement of mbm_proc_set_cancel()'s connection, nothing more.
 */
extern void mbm_proc_catch_signals(void);
/* The signal that asked us to stop, or 0. */
extern int	mbm_proc_stop_signal(void);
/* The statement to cancel when a signal comes (NULL: none). */
extern void mbm_proc_set_cancel(PGcancel *cancel);

/*
 * Start argv[0] (a path) with argv in a process group of its own; the
 * pid, or -1 with err set.  Every child is remembered until reaped, so
 * that mbm_proc_kill_all() finds it on any way out.
 */
extern pid_t mbm_proc_start(char *const argv[], const mbm_spawn *how, char *err, size_t errlen);
/* A server started as user, pinned to cpus, logging to log: its pid, or 0. */
extern pid_t mbm_proc_server(char *const argv[], const char *user, const char *cpus, const char *log,
							 char *err, size_t errlen);
/*
 * Wait for pid to end, at most timeout_s seconds (0: no limit, but a stop
 * signal ends the wait and kills its group); 0 and its exit status, or -1.
 */
extern int	mbm_proc_wait(pid_t pid, double timeout_s, int *status);
/* Run a command to its end: 0 when it exited 0, else -1 with err set. */
extern int	mbm_proc_run(char *const argv[], const mbm_spawn *how, char *err, size_t errlen);
/* Run argv (a path) and take the first line of its output into out: 0 or -1. */
extern int	mbm_proc_output(char *const argv[], char *out, size_t outlen);
/*
 * Wait, at most 120 s, until ready(arg) while the child pid (a server
 * named what, logging to log) runs: 0, or -1 with err set when it ended,
 * the wait ran out or a stop signal came (the caller stops it).
 */
extern int	mbm_proc_await(pid_t pid, bool (*ready) (void *arg), void *arg, const char *what,
						   const char *log, char *err, size_t errlen);
/* Whether pid (a child) is still running; reaps it when it has ended. */
extern bool mbm_proc_alive(pid_t pid);
/* SIGKILL every child's process group and reap them: the last resort. */
extern void mbm_proc_kill_all(void);
/*
 * Pin this process to the CPUs that cpus (the servers') leaves, all of
 * them when it leaves none; that list into others.
 */
extern void mbm_proc_pin_others(const char *cpus, char *others, size_t len);
/* CPUs as a taskset list: whether this machine has them all. */
extern bool mbm_proc_cpus_valid(const char *cpus);
/*
 * argv[0..n) moved behind wrapper (a command and its options, NULL-ended:
 * a run's server under valgrind), at most max entries; the new count.
 */
extern int	mbm_proc_wrap(char *const *wrapper, char **argv, int n, int max);
/*
 * --set's NAME=VALUE lines into argv from n on (at most max entries), each
 * as flag (if not NULL) then prefix NAME=VALUE: "-c" "x=1" for postgres,
 * "--x=1" for mariadbd; the new count.
 */
extern int	mbm_settings_args(const char *settings, const char *flag, const char *prefix,
							  char **argv, int n, int max);
/* Give path (recursively) to user: the servers run as it. */
extern int	mbm_proc_chown(const char *path, const char *user);
/* Copy a stopped data directory as user (a reflink where the file system can): 0 or -1. */
extern int	mbm_proc_copy(const char *from, const char *to, const char *user, char *err,
						  size_t errlen);
/* Remove a directory tree; 0 or -1. */
extern int	mbm_proc_remove_tree(const char *path);

/* ---- mbm_pgserver.c ---- */

/* A Postgres installation (a --pg build) and what the runner knows of it. */
typedef struct mbm_pgbuild
{
	const char *label;
	const char *prefix;
	char		bindir[1024];
	int			major;
	char		version[128];	/* postgres --version */
	char		cc[256];		/* pg_config --cc */
	char		cflags[1024];	/* pg_config --cflags */
	char	   *settings;		/* -c NAME=VALUE options from --set, "\n"-separated, or NULL */
} mbm_pgbuild;

/* A server started on a data directory. */
typedef struct mbm_pgserver
{
	const mbm_pgbuild *build;
	char		datadir[1024];
	char		sockdir[1024];
	int			port;
	pid_t		pid;			/* the postmaster; 0: not running */
	char		log[1024];
} mbm_pgserver;

/* What every server gets (the work directory, CPUs, clients); set once. */
typedef struct mbm_pgsetup
{
	const char *workdir;		/* sockets go here */
	const char *logdir;
	const char *owner;			/* the user servers run as, NULL: ourselves */
	const char *cpus;			/* servers pinned here; NULL: not pinned */
	int			clients;
	char	   *const *wrapper;	/* the run's server started under this (valgrind ...); NULL: none */
} mbm_pgsetup;

extern mbm_pgsetup mbm_pg;

/* Fill b from b->prefix: 0, or -1 with a one-line reason (not a Postgres installation). */
extern int	mbm_pgbuild_inspect(mbm_pgbuild *b, char *err, size_t errlen);
/* What pg_config OPTION says of b, its first line: 0 or -1. */
extern int	mbm_pg_config(const mbm_pgbuild *b, const char *option, char *out, size_t outlen);
/* initdb into dir as the owner: 0 or -1 with err set. */
extern int	mbm_pg_initdb(const mbm_pgbuild *b, const char *dir, char *err, size_t errlen);
/*
 * Start b's postgres on datadir, pinned, and wait until it accepts
 * connections: 0, or -1 with err set (it did not start; its log says why).
 * pristine: the server that makes the pristine data, with as little WAL
 * as can be.
 */
extern int	mbm_pg_start(mbm_pgserver *s, const mbm_pgbuild *b, const char *datadir, int port,
						 const char *logname, bool pristine, char *err, size_t errlen);
/* A connection to database db of s: NULL with err set. */
extern PGconn *mbm_pg_connect(const mbm_pgserver *s, const char *db, char *err, size_t errlen);
/* Fast shutdown, waited for; harder signals when it does not come. */
extern void mbm_pg_stop(mbm_pgserver *s);
/* One statement, its first value (or "") into out: 0, or -1 with err set. */
extern int	mbm_pg_exec(PGconn *conn, const char *sql, int nparams, const char *const *params,
						char *out, size_t outlen, char *err, size_t errlen);

/* ---- mbm_myserver.c ---- */

/* A MariaDB or MySQL server binary (a --mariadb or --mysql build). */
typedef struct mbm_mybuild
{
	const char *kind;			/* "mariadb" or "mysql", as the option named it */
	const char *label;
	const char *binary;			/* as given */
	char		binary_real[1024];
	char		bindir[1024];
	char		basedir[1024];	/* /usr for /usr/sbin/mariadbd */
	char		install_db[2100];	/* or "" when initialize */
	bool		initialize;		/* MySQL 8+: mysqld --initialize-insecure makes the data */
	char		version[256];	/* --version */
	char		cc[256];		/* the server's C++ compiler and flags, from */
	char		cflags[1024];	/* the INFO_BIN its build installed; or "" */
	char	   *settings;		/* --set NAME=VALUE lines, or NULL */
	bool		pool_size_max;	/* has innodb_buffer_pool_size_max (valgrind must be told it) */
} mbm_mybuild;

typedef struct mbm_myserver
{
	const mbm_mybuild *build;
	char		datadir[1024];
	char		sock[128];
	pid_t		pid;
	char		log[1024];
} mbm_myserver;

struct mbm_options;

/* Fill b from b->binary: 0, or -1 with a one-line reason. */
extern int	mbm_mybuild_inspect(mbm_mybuild *b, char *err, size_t errlen);
/* Whether b's --verbose --help names option: what this version of the server has. */
extern bool mbm_mybuild_has_option(const mbm_mybuild *b, const char *option);
/* install-db into dir: 0 or -1 with err set. */
extern int	mbm_my_install_db(const mbm_mybuild *b, const char *dir, char *err, size_t errlen);
/* Start b on datadir, pinned, waited for: 0, or -1 with err set. */
extern int	mbm_my_start(mbm_myserver *s, const mbm_mybuild *b, const char *datadir,
						 const char *sockname, const char *logname, char *err, size_t errlen);
/* One statement as the admin (over the socket): 0 or -1 with err set. */
extern int	mbm_my_sql(const mbm_myserver *s, const char *sql, char *err, size_t errlen);
/* The mysql driver's options for s: its socket, the admin user. */
extern const char *mbm_my_user(const mbm_mybuild *b);
extern void mbm_my_client_options(const mbm_myserver *s, struct mbm_options *o);
/* A clean shutdown waited for; SIGKILL to the group when it does not come. */
extern void mbm_my_stop(mbm_myserver *s);

/* ---- the runner: what its steps share ---- */

#define MAX_BUILDS 8
/* a socket in the work directory in TMPDIR must fit a 108-byte sun_path */
#define MBM_TMPDIR_MAX 64
#define RUN_PORT 55401
#define PRISTINE_PORT 55400
#define RESULTS_PORT 55399

/* A build of either family, in the order the options gave them. */
typedef struct mbm_any_build
{
	const char *label;
	mbm_pgbuild *pg;			/* one of these two */
	mbm_mybuild *my;
} mbm_any_build;

/* What was asked (mbm_request.c fills it, nothing changes it after). */
typedef struct mbm_request
{
	mbm_pgbuild builds[MAX_BUILDS];	/* --pg */
	int			nbuilds;
	mbm_mybuild my[MAX_BUILDS];		/* --mariadb, --mysql */
	int			nmy;
	mbm_any_build all[2 * MAX_BUILDS];	/* both, as given: the run order's base */
	int			nall;
	mbm_pgbuild results_pg;		/* the Postgres of the results database */
	const char *workloads[64];	/* in the suite's order */
	int			nworkloads;
	int			rounds;
	double		seconds;
	double		warmup;
	long long	table_size;
	int			tables;
	int			clients;
	long long	seed;
	double		max_minutes;
	double		threshold;
	double		confidence;
	double		precision;		/* go on until every interval is within +-this; 0: no */
	const char *cpus;
	const char *results_db;
	const char *out;
	bool		keep;
	const char *sets[32];
	int			nsets;
	bool		timed;			/* --metric qps or both: QPS, the headline */
	bool		counted;		/* --metric instructions or both: instructions per query */
	double		count_threshold;	/* the smallest change in instructions called a difference */
	bool		cache_sim;		/* --cache-sim: valgrind's simulated caches too, and estimated cycles */
	double		wait_quiet;		/* --wait-quiet: minutes to wait for a quiet machine first; 0: none */
	int			turns;			/* --turns: timed runs a build per start, the builds' servers up together */
} mbm_request;

/* How the comparison went, for the progress lines, the manifest and the exit. */
typedef struct mbm_progress
{
	char		workdir[MBM_TMPDIR_MAX + 32];
	char		logdir[900];
	char		tool_cpus[256];
	char		started_at[64];
	uint64_t	start_ns;
	int			runs;
	int			failed_runs;
	int			rounds_done;
	double		run_s;			/* measured runs' wall time, summed */
	double		copy_s,
				boot_s,
				stop_s,
				remove_s;		/* the overhead around them, summed */
	double		pristine_s;		/* making the pristine directories */
	long long	pristine_bytes;
	FILE	   *order;			/* "round dbms workload label status" per run */
	char		status[128];
} mbm_progress;

/* Outcomes of one run. */
typedef enum mbm_run_outcome
{
	RUN_OK, RUN_FAILED, RUN_BUILD_FAILED, RUN_STOPPED
} mbm_run_outcome;

/* mbm_labels.c: the base label, the others, a list of labels as a bound text[] literal */
extern const char *mbm_base_label(void);
extern int	mbm_other_labels(const char **others);
extern char *mbm_labels_literal(const char *const *labels, int n);

/* mbm_state.c: what the steps share, at the bottom: they use it, it uses none of them */
extern mbm_request rq;
extern mbm_progress progress;
extern mbm_pgserver run_pg_server;	/* the server of the run under way */
extern mbm_myserver run_my_server;	/* ... when it is a MariaDB or MySQL one */
extern mbm_pgserver turn_pg_servers[MAX_BUILDS];	/* --turns: the servers up side by side */
extern mbm_myserver turn_my_servers[MAX_BUILDS];
extern mbm_pgserver results_server;
extern PGconn *results;

/* A line on stderr, "microbench compare: " first and tail last. */
extern void mbm_compare_say(const char *tail, const char *fmt, ...)
			__attribute__((format(printf, 2, 3)));
#define say(...) mbm_compare_say("", __VA_ARGS__)
/* A request refused: one line, exit 2, nothing written. */
#define refuse(...) \
	do { mbm_compare_say(" (microbench compare --help)", __VA_ARGS__); exit(MBM_EXIT_BAD_INPUT); } while (0)
/* Seconds since the comparison began; s as m:ss into buf, which it returns. */
extern double mbm_elapsed_s(void);
extern char *mbm_clock_text(double s, char *buf);

/* mbm_machine.c: whether the machine was quiet, checked between rounds and during every run */
typedef struct mbm_machine_reading mbm_machine_reading;
/* The CPUs and processes now: the start of a stretch mbm_machine_end closes (and frees). */
extern mbm_machine_reading *mbm_machine_begin(void);
/* The share of a CPU others took since begin (server_group: the server's, or 0), a note naming them. */
extern double mbm_machine_end(mbm_machine_reading *before, pid_t server_group, char *note, size_t notelen);
extern void mbm_machine_free(mbm_machine_reading *r);
/* Whether a run with that share of a CPU taken by others was busy. */
extern bool mbm_machine_busy(double share);
/* Counts a timed run (what: "pg update-index round 2 b") for the report's first line. */
extern void mbm_machine_note_run(const char *what, double share, const char *note);
/* The fixed task timed on the servers' CPUs: whether quiet; prints a line. */
extern bool mbm_machine_check(int before_round);
/* --wait-quiet: check until quiet, at most minutes. */
extern void mbm_machine_wait_quiet(double minutes);
/* "machine: quiet (+-1.0%...)" or "machine: busy (...)". */
extern void mbm_machine_header(char *buf, size_t len);
/* The manifest's "machine" member, a line ending with a comma. */
extern void mbm_machine_manifest(FILE *f);

/* mbm_request.c: the request and its checks; a refusal writes nothing */
extern void mbm_request_parse(int argc, char **argv);
/* The settings of a build of DBMS dbms labelled label ("\n"-separated), or NULL. */
extern char *mbm_request_settings(const char *dbms, const char *label);

/* mbm_measure.c: one measurement on the server up, its row as a JSON line */
typedef struct mbm_limits
{
	double		seconds;		/* the window */
	double		warmup;
	long long	events;			/* > 0: the window ends after this many */
	bool		counted;		/* a counted pass: --seed's sequence; the server does the client's work alone */
} mbm_limits;
extern mbm_run_outcome mbm_measure_pg(const mbm_pgserver *srv, const char *workload, int round,
									  const mbm_limits *lim, char **line, char *err, size_t errlen);
extern mbm_run_outcome mbm_measure_my(const mbm_myserver *srv, const char *instance,
									  const char *workload, int round, const mbm_limits *lim,
									  char **line, char *err, size_t errlen);
/* A number in a run's JSON line ("key": value, or the first of an array), or def. */
extern double mbm_json_number(const char *line, const char *key, double def);
/* This program as a client of srv, `microbench --db-driver=mysql ... extra`: 0 or -1. */
extern int	mbm_my_client(const mbm_myserver *srv, const char *const *extra, int nextra,
						  char *err, size_t errlen);

/* mbm_setup.c: what is made once, before the first run */
/* This tree's extension in build b, built and installed when it lacks it. */
extern int	mbm_setup_extension(const mbm_pgbuild *b, char *err, size_t errlen);
/* The results database: --results-db's, or a server of our own. */
extern int	mbm_setup_results(char *err, size_t errlen);
/* One pristine data directory per Postgres major and MariaDB/MySQL version. */
extern int	mbm_setup_pristine(char *err, size_t errlen);
/* Where build ab's pristine data is. */
extern const char *mbm_pristine_path(const mbm_any_build *ab, char *buf, size_t len);

/* mbm_count.c: counted runs, the server under valgrind */
/* valgrind (and for MariaDB callgrind_control) on PATH: 0, or -1 with a one-line reason. */
extern int	mbm_count_tools(bool mariadb, char *err, size_t errlen);
/* What counts a Postgres's (pg) or a MariaDB's runs: "cachegrind 3.19.0". */
extern const char *mbm_count_counter(bool pg);
/* The command to start a counted run's server under, its count directory made anew. */
extern char *const *mbm_count_wrapper(bool pg);
/* Each workload's rate under valgrind on the first build of each DBMS: the events of its passes. */
extern int	mbm_count_probe(char *err, size_t errlen);
/* A counted run of workload w on ab's server, up: its row (a JSON line) into *line. */
extern mbm_run_outcome mbm_count_run(const mbm_any_build *ab, const char *workload, int w,
									 int round, char **line, char *err, size_t errlen);
/* The event counts of the two counted passes of a cell (family 0 Postgres, 1 MariaDB/MySQL). */
extern void mbm_count_events(int family, int w, long long *n1, long long *n2);

/* mbm_run_one.c: one run, from the copy of the pristine data to its removal */
extern mbm_run_outcome mbm_run_one(const mbm_any_build *ab, const char *workload, int w,
								   int round, bool counted);
/* The time one run takes from copy to removal: measured, else guessed. */
extern double mbm_run_estimate(void);
/*
 * A fresh copy of ab's pristine data at copy, and ab's server started on
 * it as pgs or mys (by its family; port for Postgres, sockname for
 * MariaDB/MySQL, both in the work directory): 0, or -1 with err set and the
 * copy removed.  What the copy and the start took into copy_s, start_s.
 */
extern int	mbm_run_start(const mbm_any_build *ab, mbm_pgserver *pgs, mbm_myserver *mys,
						  const char *copy, int port, const char *sockname, const char *logname,
						  double *copy_s, double *start_s, char *err, size_t errlen);
/*
 * A timed run of ab on its server, up (pgs or mys, whichever its family's),
 * the machine watched while it runs: its row into *line.  instance names a
 * MariaDB/MySQL server's start (NULL: the server says).
 */
extern mbm_run_outcome mbm_run_timed(const mbm_any_build *ab, const mbm_pgserver *pgs,
									 const mbm_myserver *mys, const char *instance,
									 const char *workload, int round, double warmup, char **line,
									 char *err, size_t errlen);
/*
 * A run's outcome kept: the order file, runs.jsonl and the results database
 * when it succeeded, its progress line either way (around: what the copy,
 * start and stop took; NULL for a turn on a server already up).
 */
extern void mbm_run_keep(const mbm_any_build *ab, const char *workload, int round, bool counted,
						 mbm_run_outcome outcome, char *line, const char *err, const char *log,
						 double run_s, const char *around);

/*
 * mbm_turns.c: --turns: the builds' servers up side by side, the timed runs
 * of one workload taking turns on them (abs: one DBMS's builds, n of them)
 */
extern mbm_run_outcome mbm_turns_run(const mbm_any_build *const *abs, int n, const char *workload,
									 int round);

/* mbm_reports.c: the report files, the failed runs under them, the manifest */
extern void mbm_reports_write(void);
extern void mbm_manifest_write(void);

/* mbm_finish.c: stop servers, write the reports and manifest, remove the work directory, exit */
extern void mbm_finish(const char *status, int code) __attribute__((noreturn));
/* After a stop signal: mbm_finish() with 128 + its number; else nothing. */
extern void mbm_stop_if_signalled(void);

/* mbm_rounds.c: the schedule of runs, and the rounds until every cell is decided */
extern void mbm_rounds_run(void);

/* mbm_compare.c: microbench compare ...: argv[0] is "compare"; an exit code. */
extern int	mbm_compare_main(int argc, char **argv);

#endif							/* MBM_COMPARE_H */

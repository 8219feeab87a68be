/*
 * mbm_state.h — what the steps of microbench compare share (mbm_state.c):
 * the limits, the builds, the request as checked, how the comparison
 * goes, the servers up, the results database's connection; the runner's
 * messages and its clock.  The bottom of the steps: it uses none of them,
 * only the records of the servers it keeps.
 */
#ifndef MBM_STATE_H
#define MBM_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <string.h>

#include <libpq-fe.h>

#include "mbm_myserver.h"
#include "mbm_pgserver.h"

#define MAX_BUILDS 8
/* the workloads one comparison may run: the catalog's, with room to grow */
#define MBM_MAX_WORKLOADS 64

/* What a cell measures: --metric qps (timed runs) or instructions (counted runs). */
typedef enum mbm_metric
{
	MBM_TIMED,
	MBM_COUNTED
} mbm_metric;
#define MBM_METRICS 2
/* a socket in the work directory in TMPDIR must fit a 108-byte sun_path */
#define MBM_TMPDIR_MAX 64
#define RUN_PORT 55401
#define PRISTINE_PORT 55400
#define RESULTS_PORT 55399

/*
 * The kinds of measured server.  A build's kind is chosen once, as the
 * request is checked (a Postgres build once per path); mbm_kinds.c holds
 * each kind's operations and the steps above it call those, never testing
 * a kind themselves.  MariaDB and MySQL share their operations and their
 * report column, not their names.
 */
typedef enum mbm_kind_id
{
	MBM_KIND_PG,				/* Postgres in-server: bench_run() */
	MBM_KIND_PG_WIRE,			/* Postgres over the wire: this program's pgsql driver */
	MBM_KIND_MARIADB,			/* MariaDB, this program's mysql driver */
	MBM_KIND_MYSQL				/* MySQL, the same */
} mbm_kind_id;
#define MBM_KINDS 4

/*
 * A report's columns the runner keeps apart: Postgres in-server, MariaDB or
 * MySQL, Postgres over the wire.
 */
typedef enum mbm_column_id
{
	MBM_COLUMN_PG,
	MBM_COLUMN_MY,
	MBM_COLUMN_PG_WIRE
} mbm_column_id;
#define MBM_COLUMNS 3

/*
 * A kind's names and column, in one place.  The names are the results
 * schema's: runs.dbms (family), and run_column()'s (dbms: the run's dbms,
 * or postgres-wire) that its compare() reports by; short is the reports'
 * header's.
 */
typedef struct mbm_kind_names
{
	mbm_column_id column;
	const char *family;			/* postgres, mariadb or mysql */
	const char *dbms;			/* postgres, postgres-wire, mariadb or mysql */
	const char *short_name;		/* pg, pg-wire, ma or my */
} mbm_kind_names;

extern const mbm_kind_names mbm_kind_name[MBM_KINDS];

/*
 * A build of either family, in the order the options gave them; as
 * measured (rq.measured), a Postgres build once per path (--path), its
 * kind saying which.
 */
typedef struct mbm_any_build
{
	const char *label;
	mbm_pgbuild *pg;			/* one of these two */
	mbm_mybuild *my;
	mbm_kind_id kind;
} mbm_any_build;

static inline mbm_column_id
mbm_column(const mbm_any_build *ab)
{
	return mbm_kind_name[ab->kind].column;
}

/* The column's name as the results schema's compare() has it (dbms, or postgres-wire). */
static inline const char *
mbm_column_dbms(const mbm_any_build *ab)
{
	return mbm_kind_name[ab->kind].dbms;
}

/* The column of a name compare() gives (mariadb and mysql share theirs). */
static inline mbm_column_id
mbm_column_of_dbms(const char *dbms)
{
	for (int k = 0; k < MBM_KINDS; k++)
		if (strcmp(dbms, mbm_kind_name[k].dbms) == 0)
			return mbm_kind_name[k].column;
	return MBM_COLUMN_MY;
}

/* The column's short name, as the reports' headers have it: pg, pg-wire, ma or my. */
static inline const char *
mbm_column_short(const mbm_any_build *ab)
{
	return mbm_kind_name[ab->kind].short_name;
}

/*
 * A measured server, up or not: its build (NULL: none started), and the
 * record of its family's server.  While it is up, pid, log and command
 * are its process's, whichever the kind.
 */
typedef struct mbm_server
{
	const mbm_any_build *build;
	mbm_pgserver pg;
	mbm_myserver my;
	pid_t		pid;
	const char *log;
	const char *command;
} mbm_server;

/* What was asked (mbm_request.c fills it, nothing changes it after). */
typedef struct mbm_request
{
	mbm_pgbuild builds[MAX_BUILDS];	/* --pg */
	int			nbuilds;
	mbm_mybuild my[MAX_BUILDS];		/* --mariadb, --mysql */
	int			nmy;
	mbm_any_build all[2 * MAX_BUILDS];	/* both, as given: the run order's base */
	int			nall;
	bool		in_server;		/* --path: Postgres measured in-server (bench_run), */
	bool		over_wire;		/* ... over the wire (the pgsql driver), or both */
	mbm_any_build measured[3 * MAX_BUILDS];	/* all, a Postgres build once per path */
	int			nmeasured;
	mbm_pgbuild results_pg;		/* the Postgres of the results database */
	const char *workloads[MBM_MAX_WORKLOADS];	/* in the suite's order */
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
	const char *push;			/* --push: the central database each run goes to as well */
	const char *campaign;		/* --campaign: the name that groups a fleet's runs */
	const char *host_label;		/* --host-label: this host's name in the fleet [its hostname] */
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
	bool		keep_up;		/* --keep-up: those servers up for all of a round's timed runs */
	const mbm_pgbuild *harness;	/* --harness: whose compiler and flags build the extension for all */
} mbm_request;

/* --path as asked: "in-server", "wire" or "both". */
static inline const char *
mbm_path_text(const mbm_request *r)
{
	return r->in_server && r->over_wire ? "both" : r->over_wire ? "wire" : "in-server";
}

/* How the comparison went, for the progress lines, the manifest and the exit. */
typedef struct mbm_progress
{
	char		workdir[MBM_TMPDIR_MAX + 32];
	char		rundir[MBM_TMPDIR_MAX + 48];	/* this process's runs: workdir, or a side's under it */
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
				remove_s,
				reload_s;		/* the overhead around them, summed */
	double		pristine_s;		/* making the pristine directories */
	long long	pristine_bytes;
	long long	count_events[MBM_COLUMNS][MBM_MAX_WORKLOADS];	/* a counted cell's window: events a run ([column][workload], 0: not yet) */
	char		counted_command[3 * MAX_BUILDS][4096];	/* each build's counted server, as started (rq.measured's order) */
	int			counted_runs;	/* counted runs so far, and their time from copy to removal */
	double		counted_s;
	FILE	   *order;			/* "round dbms workload label status" per run */
	char		status[128];
} mbm_progress;

/* Outcomes of one run. */
typedef enum mbm_run_outcome
{
	RUN_OK, RUN_FAILED, RUN_BUILD_FAILED, RUN_STOPPED
} mbm_run_outcome;

/* The request as checked, how the comparison goes, the servers up, the results database. */
extern mbm_request rq;
extern mbm_progress progress;
extern mbm_server run_server;	/* the server of the run under way, or of the pristine data */
extern mbm_server turn_servers[MAX_BUILDS];	/* --turns: the servers up side by side */
extern mbm_pgserver results_server;
extern PGconn *results;

/* A line on stderr, "microbench compare: " first and tail last. */
extern void mbm_say(const char *tail, const char *fmt, ...)
			__attribute__((format(printf, 2, 3)));
#define say(...) mbm_say("", __VA_ARGS__)
/* A request refused: one line, exit 2, nothing written. */
#define refuse(...) \
	do { mbm_say(" (microbench compare --help)", __VA_ARGS__); exit(MBM_EXIT_BAD_INPUT); } while (0)
/* Seconds since the comparison began; s as m:ss into buf, which it returns. */
extern double mbm_elapsed_s(void);
extern char *mbm_clock_text(double s, char *buf);

#endif							/* MBM_STATE_H */

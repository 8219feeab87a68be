/*
 * mbm_count.c — counted runs (microbench compare --metric instructions) on
 * a server that is up under valgrind's callgrind: the instructions of the
 * measured window, and nothing else.
 *
 * Postgres: the server runs uninstrumented (--instr-atstart=no) until the
 * background worker that runs the events starts callgrind itself, zeroes
 * the counts as its window opens, collects only while an event runs (its
 * transaction's start to its commit) and dumps the window when it closes
 * (bench_run(count_window => true), extension/mb_count_window.h): the
 * dump is exactly the window's events, and nothing the worker inherited
 * from the postmaster or did between events.  MariaDB and MySQL: the
 * client stops itself at the window's two ends (--window-stop) with every
 * connection idle, and the runner zeroes the server's counts at the first
 * stop and dumps them at the second (callgrind_control, as the server's
 * user); only what the server's commands do is collected
 * (--toggle-collect=dispatch_command*), per thread, and the threads that
 * ran commands are summed.  Either way the events before the window warm
 * up whatever a session warms once (plans, the first execution of a
 * statement), and bench_prewarm() or a full read of every table and index
 * puts the data in the buffers first (mbm_count_ready_pg, _my).  Postgres over
 * the wire (--path wire): the workers' backends, inside PostgresMain, a
 * window as the difference of two runs (wire_measure).
 * docs/methodology.md says what the count holds and what it leaves out.
 */
#include "mbm.h"
#include "mbm_callgrind.h"
#include "mbm_count.h"
#include "mbm_measure.h"
#include "mbm_myserver.h"
#include "mbm_pgserver.h"
#include "mbm_proc.h"
#include "mbm_state.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What runs a counted server, found on PATH by mbm_count_tools(). */
static char valgrind[1024];
static char callgrind_control[1024];
static char counter_name[160];	/* "callgrind 3.19.0" */
static char wrapper_text[2][1200];
static char *wrapper[24];

/* name on PATH into path: whether it is there and runs. */
static bool
on_path(const char *name, char *path, size_t len)
{
	const char *p = getenv("PATH");

	while (p && *p)
	{
		size_t		n = strcspn(p, ":");

		snprintf(path, len, "%.*s/%s", (int) n, p, name);
		if (n > 0 && access(path, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

int
mbm_count_tools(bool control, char *err, size_t errlen)
{
	char		version[128] = "";
	char	   *argv[] = {valgrind, "--version", NULL};

	if (!on_path("valgrind", valgrind, sizeof(valgrind)) ||
		(control && !on_path("callgrind_control", callgrind_control, sizeof(callgrind_control))))
	{
		snprintf(err, errlen, "--metric instructions counts under valgrind, which is not installed:"
				 " apt-get install valgrind (Debian's package valgrind)");
		return -1;
	}
	if (mbm_proc_output(argv, version, sizeof(version)) != 0 || strncmp(version, "valgrind-", 9) != 0)
	{
		snprintf(err, errlen, "%s --version does not say it is valgrind (\"%s\")", valgrind, version);
		return -1;
	}
	/*
	 * The counter names its definition of an instruction: the counts of
	 * valgrind's own (each repetition, "callgrind 3.19.0") differ from
	 * these by work no CPU does, and a comparison refuses to mix two
	 * counters (microbench.check_counters)
	 */
	snprintf(counter_name, sizeof(counter_name), "callgrind %s, REP once", version + 9);
	return 0;
}

const char *
mbm_count_counter(void)
{
	return counter_name;
}

long long
mbm_count_seed(int round)
{
	return rq.seed + round;
}

long long
mbm_count_warmup_events(void)
{
	/*
	 * Postgres's plan cache settles on the sixth execution of a statement,
	 * MariaDB's prepared statement after its first; a scan of 100,000 rows
	 * takes seconds an event under valgrind, so no more than that
	 */
	return 10;
}

/* The directory valgrind writes the counts of the server up into. */
static const char *
count_dir(void)
{
	static char dir[128];

	snprintf(dir, sizeof(dir), "%s/count", progress.rundir);
	return dir;
}

/*
 * The WAL writer initialises WAL pages ahead of the backends whenever it
 * wakes, as many as it can: which of a write's pages its backend (or
 * in-server its worker) initialises itself depends on the clock, and
 * valgrind slows the clock's work unequally for two builds.  Over the wire
 * 1% of an update-index window on Postgres 18; in-server, where the worker
 * runs its events back to back, AdvanceXLInsertBuffer's share of a delete
 * moved from 24 to 8,156 instructions a query with the seed (the functions
 * of the gcc-vs-clang counts showed it).  A small WAL buffer and a writer
 * that wakes every ten seconds keep that within a few pages.
 */
#define MBM_PG_COUNT_SETTINGS "wal_buffers=64kB\nwal_writer_delay=10s\n"

const char *
mbm_count_pg_settings(void)
{
	return MBM_PG_COUNT_SETTINGS;
}

/*
 * The options every counted server starts under, its count directory made
 * anew: the number of them in wrapper.  instrumented: from its start, not
 * only once its window is near.
 */
static int
wrapper_common(bool instrumented)
{
	int			n = 0;

	mbm_proc_remove_tree(count_dir());
	mkdir(count_dir(), 01777);
	chmod(count_dir(), 01777);
	wrapper[n++] = valgrind;
	wrapper[n++] = "--tool=callgrind";
	if (!instrumented)
		wrapper[n++] = "--instr-atstart=no";
	wrapper[n++] = "--collect-atstart=no";
	snprintf(wrapper_text[0], sizeof(wrapper_text[0]), "--callgrind-out-file=%s/cg.%%p", count_dir());
	wrapper[n++] = wrapper_text[0];
	/*
	 * Each instruction's address and the jumps between them: a REP string
	 * instruction jumps to itself, and the executions of the block that
	 * starts at it are its repetitions, which valgrind counts one by one
	 * and a CPU does not (mbm_callgrind.c takes them off)
	 */
	wrapper[n++] = "--dump-instr=yes";
	wrapper[n++] = "--collect-jumps=yes";
	wrapper[n++] = "--dump-line=no";
	wrapper[n++] = rq.cache_sim ? "--cache-sim=yes" : "--cache-sim=no";
	if (rq.cache_sim)
	{
		/*
		 * One model on every machine rather than what the host reports (a
		 * VM may say anything: this one's LL is "512 MiB, 2-way"), so that
		 * estimated cycles mean the same wherever they were counted
		 */
		wrapper[n++] = "--I1=32768,8,64";
		wrapper[n++] = "--D1=32768,8,64";
		wrapper[n++] = "--LL=8388608,16,64";
	}
	return n;
}

/*
 * Postgres in-server: start-up and prewarming at a fifth of valgrind's
 * instrumented cost; the worker turns instrumentation on itself.
 */
char *const *
mbm_count_wrapper_pg(void)
{
	wrapper[wrapper_common(false)] = NULL;
	return wrapper;
}

/*
 * Over the wire the postmaster is instrumented from its start: its
 * backends are, and only callgrind_control could turn it on later, whose
 * gdbserver breaking into the postmaster's select() as a child's SIGCHLD
 * arrives made callgrind 3.19 abort ("threads.c:247
 * (vgCallgrind_post_signal): Assertion 'sigNum ==
 * vgCallgrind_current_state.sig' failed"), one counted comparison in about
 * fifteen (docs/compare.md).
 */
char *const *
mbm_count_wrapper_pg_wire(void)
{
	int			n = wrapper_common(true);

	/*
	 * Only what a backend does for its client's messages: collected inside
	 * PostgresMain, less the reads from the socket (whether the next
	 * message is there yet depends on time) and the statistics flush (it
	 * runs by the clock).  Each --toggle-collect turns collection on
	 * entering its function and off leaving it, nested.
	 */
	wrapper[n++] = "--toggle-collect=PostgresMain";
	wrapper[n++] = "--toggle-collect=secure_read";
	wrapper[n++] = "--toggle-collect=pgstat_report_stat";
	/*
	 * ... and the session's start: the backend that starts first after
	 * autovacuum has touched a catalog writes the relation cache's init
	 * file anew (2.2 million instructions on Postgres 15), which depends
	 * on the clock too.
	 */
	wrapper[n++] = "--toggle-collect=InitPostgres";
	wrapper[n] = NULL;
	return wrapper;
}

char *const *
mbm_count_wrapper_my(void)
{
	int			n = wrapper_common(false);

	wrapper[n++] = "--separate-threads=yes";

	/*
	 * Only the commands: whether a command's packet is already there when
	 * the thread reads it (one recv) or not yet (recv, poll, recv) depends
	 * on time, 0.1-0.3% of a query under load.
	 */
	wrapper[n++] = "--toggle-collect=dispatch_command*";
	wrapper[n] = NULL;
	return wrapper;
}

/*
 * callgrind_control OPTION [ARG] on MariaDB server srv, as its user: 0 or
 * -1.  Never on a Postgres server: its gdbserver breaking into a
 * postmaster as a SIGCHLD arrives aborts callgrind (mbm_count_wrapper_pg_wire).
 */
static int
callgrind(const mbm_myserver *srv, const char *option, const char *arg, char *err, size_t errlen)
{
	char		pid[32];
	char		log[1100];
	char	   *argv[] = {callgrind_control, (char *) option, (char *) (arg ? arg : pid), pid, NULL};
	mbm_spawn	how = {mbm_servers.my_user, NULL, log};

	snprintf(pid, sizeof(pid), "%d", (int) srv->pid);
	snprintf(log, sizeof(log), "%s/callgrind.log", progress.logdir);
	if (arg == NULL)
		argv[3] = NULL;
	return mbm_proc_run(argv, &how, err, errlen);
}

int
mbm_count_ready_pg(const mbm_pgserver *pgs, char *err, size_t errlen)
{
	PGconn	   *conn = mbm_pg_connect(pgs, "microbench", err, errlen);
	int			rc = conn ? mbm_pg_exec(conn, "SELECT bench_prewarm()", 0, NULL, NULL, 0, err,
									   errlen) : -1;

	PQfinish(conn);
	return rc;
}

int
mbm_count_ready_my(const mbm_myserver *mys, char *err, size_t errlen)
{
	int			t;

	/* every leaf of the primary key (the rows) and of the secondary index */
	for (t = 1; t <= rq.tables; t++)
	{
		char		sql[256];

		snprintf(sql, sizeof(sql), "SELECT SUM(LENGTH(pad)) FROM sbtest.sbtest%d FORCE INDEX (PRIMARY)", t);
		if (mbm_my_sql(mys, sql, err, errlen) != 0)
			return -1;
		snprintf(sql, sizeof(sql), "SELECT SUM(k) FROM sbtest.sbtest%d FORCE INDEX (k_%d)", t, t);
		if (mbm_my_sql(mys, sql, err, errlen) != 0)
			return -1;
	}
	/* from here on instrumented, for the simulated caches to warm with the warm-up */
	return callgrind(mys, "--instr=on", NULL, err, errlen);
}

/*
 * -1 and why in err when the dump at path cannot tell REP repetitions (it
 * has no instructions' addresses: not written with mbm_count_wrapper_*'s
 * options), 0 otherwise.
 */
static int
no_repeats_known(const mbm_cg_counts *c, const char *path, char *err, size_t errlen)
{
	if (c->repeats_known)
		return 0;
	snprintf(err, errlen, "%s has no instructions' addresses (callgrind's --dump-instr=yes), so its REP"
			 " instructions' repetitions cannot be told from the instructions a CPU counts", path);
	return -1;
}

/*
 * The counts of the Postgres worker that ran the window: its dump, which
 * the worker wrote (cg.PID.1, named MB_COUNT_WINDOW_NAME) before
 * bench_run() returned; the extension's own share into harness.
 */
static int
pg_window_count(const mbm_record *rec, mbm_cg_counts *c, mbm_cg_functions *fns, char *err, size_t errlen)
{
	int			pid = (int) mbm_record_number(rec, "client_pids", 0);
	char		path[256];

	snprintf(path, sizeof(path), "%s/cg.%d.1", count_dir(), pid);
	if (pid <= 0 || mbm_callgrind_read(path, "/microbench.so", NULL, c, fns) != 0)
	{
		snprintf(err, errlen, "no count of the background worker's window (pid %d) in %s: was the"
				 " extension built with valgrind/callgrind.h?", pid, count_dir());
		return -1;
	}
	if (strcmp(c->trigger, "Client Request: microbench window") != 0 || c->v[MBM_CG_IR] <= 0)
	{
		snprintf(err, errlen, "%s is not a window's count (\"%s\")", path, c->trigger);
		return -1;
	}
	return no_repeats_known(c, path, err, errlen);
}

/*
 * Of process pid's files of callgrind's latest dump (cg.PID.PART, with
 * -THREAD per thread), the sum over those in which a function whose name
 * starts with function ran, added to *sum and their functions to *fns: how
 * many were.  A dump's files are complete once callgrind_control -d has
 * returned.
 */
static int
add_latest_dump(pid_t pid, const char *function, mbm_cg_counts *sum, mbm_cg_functions *fns)
{
	char		prefix[64];
	DIR		   *d = opendir(count_dir());
	struct dirent *e;
	int			part = 0;
	int			files = 0;

	snprintf(prefix, sizeof(prefix), "cg.%d.", (int) pid);
	while (d && (e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && atoi(e->d_name + strlen(prefix)) > part)
			part = atoi(e->d_name + strlen(prefix));
	if (d)
		rewinddir(d);
	while (d && part > 0 && (e = readdir(d)) != NULL)
	{
		char		path[512];
		mbm_cg_counts c;
		mbm_cg_functions thread = {0};
		bool		whole;
		int			k;

		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || atoi(e->d_name + strlen(prefix)) != part)
			continue;
		snprintf(path, sizeof(path), "%s/%s", count_dir(), e->d_name);
		whole = mbm_callgrind_read(path, NULL, function, &c, &thread) == 0 && c.has_function;
		if (whole && !c.repeats_known)
			sum->repeats_known = false;
		if (whole)
			mbm_cg_functions_add(fns, &thread, 1.0);
		mbm_cg_functions_free(&thread);
		if (!whole)
			continue;
		for (k = 0; k < MBM_CG_NEVENTS; k++)
			sum->v[k] += c.v[k];
		snprintf(sum->caches, sizeof(sum->caches), "%s", c.caches);
		files++;
	}
	if (d)
		closedir(d);
	return files;
}

/*
 * The counts of a MariaDB window: the threads that ran commands (the
 * client's connection; InnoDB's background threads, whose work depends on
 * time, stay out).
 */
static int
my_window_count(const mbm_myserver *srv, mbm_cg_counts *sum, mbm_cg_functions *fns, char *err,
				size_t errlen)
{
	memset(sum, 0, sizeof(*sum));
	sum->repeats_known = true;
	if (add_latest_dump(srv->pid, "dispatch_command", sum, fns) == 0)
	{
		snprintf(err, errlen, "no thread that ran commands in callgrind's latest dump in %s", count_dir());
		return -1;
	}
	return no_repeats_known(sum, count_dir(), err, errlen);
}

/*
 * Postgres over the wire.  A backend forked by a postmaster under valgrind
 * cannot be reached by callgrind_control (valgrind's gdbserver is not
 * there after a fork), so its window cannot be marked from outside: a
 * backend's count is its total at exit, collected inside PostgresMain only
 * (mbm_count_wrapper_pg_wire), and the window is the difference of two runs of
 * the same seed on the same server, one with the cell's window and one
 * with a window of one event.  Connecting, preparing, the warm-up and
 * exiting are in both and cancel.  The backends are the workers' (the
 * client's row names them: client_pids).
 */
typedef struct wire_run
{
	int			nbackends;
	pid_t		backends[16];
	long long	total;			/* their instructions, summed */
} wire_run;

/* A write's checkpoint, right before its window: the client stops there with every connection idle. */
static int
checkpoint_at_window(int edge, void *arg, char *err, size_t errlen)
{
	PGconn	   *conn;
	int			rc;

	if (edge != 1)
		return 0;
	if ((conn = mbm_pg_connect(arg, "microbench", err, errlen)) == NULL)
		return -1;
	rc = mbm_pg_exec(conn, "CHECKPOINT", 0, NULL, NULL, 0, err, errlen);
	PQfinish(conn);
	return rc;
}

/* The backends that ran the window, from the client's row (client_pids: its workers' sessions). */
static int
window_backends(const mbm_record *rec, wire_run *wr, char *err, size_t errlen)
{
	long long	pids[16];
	int			i;

	wr->nbackends = mbm_record_numbers(rec, "client_pids", pids, 16);
	for (i = 0; i < wr->nbackends; i++)
		wr->backends[i] = (pid_t) pids[i];
	if (wr->nbackends == 0)
	{
		snprintf(err, errlen, "the client's row names no backend of its workers (client_pids)");
		return -1;
	}
	return 0;
}

/* The totals of the run's backends, written as each exited (cg.PID): waited for, summed, and their functions'. */
static int
wire_backend_totals(const wire_run *wr, mbm_cg_counts *sum, mbm_cg_functions *fns, char *err,
					size_t errlen)
{
	int			i,
				k;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < wr->nbackends; i++)
	{
		char		path[512];
		mbm_cg_counts c;
		uint64_t	deadline = mbm_now_ns() + 120 * 1000000000ull;

		snprintf(path, sizeof(path), "%s/cg.%d", count_dir(), (int) wr->backends[i]);
		while (mbm_callgrind_read(path, NULL, NULL, &c, fns) != 0)
		{
			if (mbm_now_ns() > deadline || mbm_proc_stop_signal())
			{
				snprintf(err, errlen, "backend %d wrote no count (%s) within 120 s of its client's end",
						 (int) wr->backends[i], path);
				return -1;
			}
			usleep(20000);
		}
		if (no_repeats_known(&c, path, err, errlen) != 0)
			return -1;
		for (k = 0; k < MBM_CG_NEVENTS; k++)
			sum->v[k] += c.v[k];
		snprintf(sum->caches, sizeof(sum->caches), "%s", c.caches);
	}
	return 0;
}

/*
 * A counted run over the wire: the cell's run (lim), then the same seed
 * with a window of one event; the window's counts are the first's totals
 * less the second's, for its events less one, scaled to its events, and
 * so each function's (*fns).  The cell's run goes first, so that a write's
 * window works on the pristine data (its checkpoint right before it).
 */
static mbm_run_outcome
wire_measure(const mbm_pgserver *pgs, const char *workload, int round, const mbm_limits *lim,
			 mbm_record **rec, mbm_cg_counts *c, mbm_cg_functions *fns, wire_run *full, wire_run *one,
			 char *err, size_t errlen)
{
	mbm_cg_functions full_fns = {0},
				one_fns = {0};
	mbm_limits	with_mark = *lim;
	mbm_limits	one_event = *lim;
	mbm_cg_counts tail;
	mbm_record *rec_one = NULL;
	mbm_run_outcome outcome;
	double		events;
	int			k;

	/* the client's workers only: the connection that reads the server's counters looks as often as time says */
	with_mark.mark = lim->checkpoint ? checkpoint_at_window : NULL;
	with_mark.mark_arg = (void *) pgs;
	outcome = mbm_measure_pg_wire(pgs, workload, round, &with_mark, false, rec, err, errlen);
	if (outcome == RUN_OK && lim->events == 0 && !lim->checkpoint && mbm_record_number(*rec, "events", 0) < 2)
	{
		/*
		 * A cell's first window, timed, held one event (a scan of many
		 * rows): a window of one event is what the second run cancels, so
		 * this cell's windows hold two.  A read changes nothing: again on
		 * the same server.
		 */
		mbm_record_free(*rec);
		*rec = NULL;
		with_mark.seconds = 0;
		with_mark.events = 2;
		outcome = mbm_measure_pg_wire(pgs, workload, round, &with_mark, false, rec, err, errlen);
	}
	if (outcome != RUN_OK || window_backends(*rec, full, err, errlen) != 0 ||
		wire_backend_totals(full, c, &full_fns, err, errlen) != 0)
	{
		mbm_cg_functions_free(&full_fns);
		return RUN_FAILED;
	}
	full->total = mbm_cg_instructions(c);
	one_event.seconds = 0;
	one_event.events = 1;
	one_event.checkpoint = false;
	one_event.mark = NULL;
	/* its row is not kept: no monitor connection */
	outcome = mbm_measure_pg_wire(pgs, workload, round, &one_event, true, &rec_one, err, errlen);
	if (outcome != RUN_OK || window_backends(rec_one, one, err, errlen) != 0 ||
		wire_backend_totals(one, &tail, &one_fns, err, errlen) != 0)
	{
		mbm_record_free(rec_one);
		mbm_cg_functions_free(&full_fns);
		mbm_cg_functions_free(&one_fns);
		return RUN_FAILED;
	}
	mbm_record_free(rec_one);
	one->total = mbm_cg_instructions(&tail);
	events = mbm_record_number(*rec, "events", 0);
	if (events >= 2)
	{
		mbm_cg_functions_add(fns, &full_fns, events / (events - 1));
		mbm_cg_functions_add(fns, &one_fns, -events / (events - 1));
	}
	mbm_cg_functions_free(&full_fns);
	mbm_cg_functions_free(&one_fns);
	if (events < 2 || mbm_cg_instructions(c) <= mbm_cg_instructions(&tail))
	{
		snprintf(err, errlen, "a window of %.0f events over the wire counts no more than one of 1 event"
				 " (%lld, %lld)", events, mbm_cg_instructions(c), mbm_cg_instructions(&tail));
		return RUN_FAILED;
	}
	for (k = 0; k < MBM_CG_NEVENTS; k++)
		c->v[k] = (long long) ((c->v[k] - tail.v[k]) * events / (events - 1) + 0.5);
	return RUN_OK;
}

/* The client's stops: the window opens (zero the counts), the window closes (dump them). */
static int
mark_my_window(int edge, void *arg, char *err, size_t errlen)
{
	const mbm_myserver *srv = arg;

	return edge == 1 ? callgrind(srv, "-z", NULL, err, errlen) :
		edge == 2 ? callgrind(srv, "-d", "window", err, errlen) : 0;
}

/*
 * The simulated caches' figures of counts into the record (null without
 * --cache-sim): I1 misses, D1 misses, LL misses, and estimated cycles, L1
 * hits + 5 x LL hits + 35 x LL misses (Turner-Trauring's weights,
 * docs/methodology.md), a REP instruction's fetch once per execution as
 * its count; its data accesses, one a repetition, stay as valgrind
 * simulated them.
 */
static void
add_cache_figures(mbm_record *rec, const mbm_cg_counts *c)
{
	const long long *v = c->v;
	long long	l1_misses = v[MBM_CG_I1MR] + v[MBM_CG_D1MR] + v[MBM_CG_D1MW];
	long long	ll_misses = v[MBM_CG_ILMR] + v[MBM_CG_DLMR] + v[MBM_CG_DLMW];
	long long	l1_hits = mbm_cg_instructions(c) + v[MBM_CG_DR] + v[MBM_CG_DW] - l1_misses;

	mbm_record_set_int_or_null(rec, "i1_misses", rq.cache_sim, v[MBM_CG_I1MR]);
	mbm_record_set_int_or_null(rec, "d1_misses", rq.cache_sim, v[MBM_CG_D1MR] + v[MBM_CG_D1MW]);
	mbm_record_set_int_or_null(rec, "ll_misses", rq.cache_sim, ll_misses);
	mbm_record_set_int_or_null(rec, "estimated_cycles", rq.cache_sim,
							   l1_hits + 5 * (l1_misses - ll_misses) + 35 * ll_misses);
}

/*
 * The run's row with its window's counts, as a CPU counts instructions (a
 * REP string instruction once) and as valgrind does (instructions_valgrind),
 * each function's (functions: [object, function, self, inclusive,
 * self_valgrind, inclusive_valgrind] in instructions of the window), and a
 * note that says what they hold.
 */
static void
add_counts(const mbm_cg_counts *c, const mbm_cg_functions *fns, const char *note,
		   const char *settings, bool harness_known, mbm_record *rec)
{
	mbm_record_set_int(rec, "instructions", mbm_cg_instructions(c));
	mbm_record_set_text(rec, "instructions_counter", counter_name);
	mbm_record_set_text(rec, "hw_counters_note", note);
	add_cache_figures(rec, c);
	mbm_record_set_int_or_null(rec, "harness_instructions", harness_known, c->object_instructions);
	mbm_record_set_text(rec, "count_settings", settings);
	mbm_record_set_int(rec, "instructions_valgrind", c->v[MBM_CG_IR]);
	mbm_record_set_json(rec, "functions", mbm_cg_functions_json(fns));
}

/* Why a counted Postgres server has its count settings (mbm_count_pg_settings), as its runs record it. */
static const char pg_settings_why[] = "wal_buffers=64kB, wal_writer_delay=10s: the WAL writer initialises"
	" WAL pages ahead of the backend whenever it wakes, which moves a write's work by the clock";

/* The simulated caches' text for a note: "; simulated caches ..." or "". */
static const char *
caches_text(const mbm_cg_counts *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", rq.cache_sim ? "; simulated caches " : "", rq.cache_sim ? c->caches : "");
	return buf;
}

/*
 * A counted run's end, whatever its kind: a window that did not run the
 * events asked fails; otherwise its counts and note go into the row.
 */
static mbm_run_outcome
finish_count(mbm_run_outcome outcome, const mbm_limits *lim, mbm_record *rec, char *err,
			 size_t errlen)
{
	if (outcome == RUN_OK && lim->events > 0 && mbm_record_number(rec, "events", 0) != lim->events)
	{
		snprintf(err, errlen, "the window ran %.0f of its %lld events", mbm_record_number(rec, "events", 0),
				 lim->events);
		return RUN_FAILED;
	}
	return outcome;
}

mbm_run_outcome
mbm_count_pg(const mbm_pgserver *pgs, const char *workload, int round, const mbm_limits *lim,
			 mbm_record **rec, char *err, size_t errlen)
{
	mbm_cg_counts c;
	mbm_cg_functions fns = {0};
	mbm_run_outcome outcome;
	char		note[2048],
				caches[320];

	*rec = NULL;
	outcome = mbm_measure_pg(pgs, workload, round, lim, rec, err, errlen);
	if (outcome == RUN_OK && pg_window_count(*rec, &c, &fns, err, errlen) != 0)
		outcome = RUN_FAILED;
	if ((outcome = finish_count(outcome, lim, *rec, err, errlen)) == RUN_OK)
	{
		snprintf(note, sizeof(note), "%s: the window of the background worker (pid %.0f): each of its"
				 " %.0f events from its transaction's start to its commit, after %lld warm-up events%s;"
				 " nothing of connecting, preparing, the warm-up, the statistics flush or the waits between"
				 " events, nor what the process inherited from the postmaster%s", counter_name,
				 mbm_record_number(*rec, "client_pids", 0), mbm_record_number(*rec, "events", 0),
				 lim->warmup_events, lim->checkpoint ? " and a checkpoint" : "",
				 caches_text(&c, caches, sizeof(caches)));
		add_counts(&c, &fns, note, pg_settings_why, true, *rec);
	}
	mbm_cg_functions_free(&fns);
	return outcome;
}

mbm_run_outcome
mbm_count_pg_wire(const mbm_pgserver *pgs, const char *workload, int round, const mbm_limits *lim,
				  mbm_record **rec, char *err, size_t errlen)
{
	mbm_cg_counts c;
	mbm_cg_functions fns = {0};
	mbm_run_outcome outcome;
	wire_run	wr[2] = {{0}, {0}};
	char		note[2048],
				caches[320],
				pids[2][200] = {"", ""};
	double		events;
	int			i,
				r;

	*rec = NULL;
	outcome = wire_measure(pgs, workload, round, lim, rec, &c, &fns, &wr[0], &wr[1], err, errlen);
	if ((outcome = finish_count(outcome, lim, *rec, err, errlen)) == RUN_OK)
	{
		for (r = 0; r < 2; r++)
			for (i = 0; i < wr[r].nbackends; i++)
				snprintf(pids[r] + strlen(pids[r]), sizeof(pids[r]) - strlen(pids[r]), "%s%d",
						 i ? ", " : "", (int) wr[r].backends[i]);
		events = mbm_record_number(*rec, "events", 0);
		snprintf(note, sizeof(note), "%s: over the wire, the backends of the client's workers (pids %s),"
				 " inside PostgresMain less the reads from the socket and the statistics flush, to their"
				 " exit (%lld instructions), less the same of a run of the same seed with a window of one"
				 " event (pids %s, %lld):"
				 " the window's %.0f events after %lld warm-up events%s, per event as events 2 to %.0f;"
				 " nothing of connecting (the session's start is not collected at all), preparing, the warm-up or exiting,"
				 " nor of the postmaster%s",
				 counter_name, pids[0], wr[0].total, pids[1], wr[1].total, events, lim->warmup_events,
				 lim->checkpoint ? " and a checkpoint" : "", events, caches_text(&c, caches, sizeof(caches)));
		add_counts(&c, &fns, note, pg_settings_why, false, *rec);
	}
	mbm_cg_functions_free(&fns);
	return outcome;
}

mbm_run_outcome
mbm_count_my(const mbm_myserver *mys, const char *workload, int round, const mbm_limits *lim,
			 mbm_record **rec, char *err, size_t errlen)
{
	const char *settings = "innodb_force_recovery=2: no purge, which runs by the clock, and valgrind"
		" slows the clock's work unequally for two builds";
	mbm_limits	with_mark = *lim;
	mbm_cg_counts c;
	mbm_cg_functions fns = {0};
	mbm_run_outcome outcome;
	char		note[2048],
				caches[320];

	*rec = NULL;
	with_mark.mark = mark_my_window;
	with_mark.mark_arg = (void *) mys;
	outcome = mbm_measure_my(mys, NULL, workload, round, &with_mark, rec, err, errlen);
	if (outcome == RUN_OK && my_window_count(mys, &c, &fns, err, errlen) != 0)
		outcome = RUN_FAILED;
	if ((outcome = finish_count(outcome, lim, *rec, err, errlen)) == RUN_OK)
	{
		snprintf(note, sizeof(note), "%s: the server's commands (dispatch_command) between the window's"
				 " two marks, its %.0f events after %lld warm-up events on the same connection; the server"
				 " does not purge (%s)%s", counter_name, mbm_record_number(*rec, "events", 0),
				 lim->warmup_events, settings, caches_text(&c, caches, sizeof(caches)));
		add_counts(&c, &fns, note, settings, false, *rec);
	}
	mbm_cg_functions_free(&fns);
	return outcome;
}

/*
 * A server that did not start under valgrind because valgrind could not
 * read its debug info (valgrind before 3.20 and the DWARF 5 that clang 14
 * and later write with -g): say so, and the way round it, in err.
 */
void
mbm_count_explain_start(const char *log, char *err, size_t errlen)
{
	FILE	   *f = fopen(log, "r");
	char		line[512];
	bool		found = false;

	if (f == NULL)
		return;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = strstr(line, "debuginfo reader") != NULL;
	fclose(f);
	if (found)
		snprintf(err + strlen(err), errlen - strlen(err),
				 " (valgrind %s cannot read its debug info, as before 3.20 it cannot read the DWARF 5 of"
				 " clang 14 and later: compare copies without it, objcopy --strip-debug, whose code is the"
				 " same, or build with -gdwarf-4)", counter_name);
}

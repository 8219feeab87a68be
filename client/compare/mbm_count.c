/*
 * mbm_count.c — counted runs (microbench compare --metric instructions):
 * the run's server under valgrind, and the instructions of a query taken
 * as the difference of two event counts of one seeded sequence, so that
 * start-up, connecting, preparing, plan caching and the first touch of
 * every page cancel.  A counted run is: a first pass of N1 events (or, the
 * first time a cell is counted, a one-second probe that also sets N1 and
 * N2 for every build and round of that cell) that warms the shared
 * buffers, then a pass of N1 events and a pass of N2, each counted; the
 * run's row is the N2 pass's with events, queries and instructions the
 * differences.
 *
 * What is counted is the work of the process or thread that ran the
 * events, nothing else: the server's background work depends on elapsed
 * time, which valgrind stretches.  Postgres: cachegrind writes one count
 * per process when it exits, read for the background worker that ran the
 * pass (the row's client_pids).  MariaDB and MySQL: callgrind with a count
 * per thread of the commands it ran (dispatch_command), zeroed before a
 * pass and dumped after it (callgrind_control, as the server's user); the
 * server's main thread serves every connection and purge does not run
 * (mbm_myserver.c says why).  docs/methodology.md says what the count
 * measures and misses.
 */
#include "mbm.h"
#include "mbm_count.h"
#include "mbm_measure.h"
#include "mbm_myserver.h"
#include "mbm_pgserver.h"
#include "mbm_proc.h"
#include "mbm_setup.h"
#include "mbm_state.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What runs a counted server, found on PATH by mbm_count_tools(). */
static char valgrind[1024];
static char callgrind_control[1024];
static char counter_name[128];	/* "cachegrind 3.19.0" */
static char cache_desc[256];	/* with --cache-sim: "I1 32768 B, 64 B, 8-way associative; D1 ...; LL ..." */
static char wrapper_text[6][1200];
static char *wrapper[16];

/* The event counts of each cell, set by its probe: [family][workload]. */
static long long cell_n1[2][64],
			cell_n2[2][64];

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
mbm_count_tools(bool mariadb, char *err, size_t errlen)
{
	char		version[128] = "";
	char	   *argv[] = {valgrind, "--version", NULL};

	if (!on_path("valgrind", valgrind, sizeof(valgrind)) ||
		(mariadb && !on_path("callgrind_control", callgrind_control, sizeof(callgrind_control))))
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
	/* the counter names its tool: Postgres's processes by cachegrind, a MariaDB's threads by callgrind */
	snprintf(counter_name, sizeof(counter_name), "%s", version + 9);
	return 0;
}

const char *
mbm_count_counter(bool pg)
{
	static char name[160];

	snprintf(name, sizeof(name), "%s %s", pg ? "cachegrind" : "callgrind", counter_name);
	return name;
}

/* The directory valgrind writes the counts of the run under way into. */
static const char *
count_dir(void)
{
	static char dir[128];

	snprintf(dir, sizeof(dir), "%s/count", progress.workdir);
	return dir;
}

char *const *
mbm_count_wrapper(bool pg)
{
	int			n = 0;

	mbm_proc_remove_tree(count_dir());
	mkdir(count_dir(), 01777);
	chmod(count_dir(), 01777);
	wrapper[n++] = valgrind;
	if (pg)
		snprintf(wrapper_text[0], sizeof(wrapper_text[0]), "--tool=cachegrind");
	else
		snprintf(wrapper_text[0], sizeof(wrapper_text[0]), "--tool=callgrind");
	wrapper[n++] = wrapper_text[0];
	snprintf(wrapper_text[1], sizeof(wrapper_text[1]), "--%s-out-file=%s/cg.%%p",
			 pg ? "cachegrind" : "callgrind", count_dir());
	wrapper[n++] = wrapper_text[1];
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
	if (!pg)
	{
		wrapper[n++] = "--separate-threads=yes";
		wrapper[n++] = "--dump-instr=no";
		wrapper[n++] = "--collect-jumps=no";

		/*
		 * Only the commands: whether a command's packet is already there
		 * when the thread reads it (one recv) or not yet (recv, poll, recv)
		 * depends on time, 0.1-0.3% of a query under load.
		 */
		wrapper[n++] = "--collect-atstart=no";
		wrapper[n++] = "--toggle-collect=dispatch_command*";
	}
	wrapper[n] = NULL;
	return wrapper;
}

/*
 * valgrind's counts of one pass: instructions and, with --cache-sim, the
 * simulated caches' accesses and misses, under cachegrind's and
 * callgrind's event names.
 */
static const char *const event_names[] = {"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"};
enum
{
	IR, DR, DW, I1MR, D1MR, D1MW, ILMR, DLMR, DLMW, NEVENTS
};
typedef struct pass_counts
{
	long long	v[NEVENTS];		/* by event_names */
} pass_counts;

/* The index of an event name of valgrind's "events:" line, or -1 for one not kept. */
static int
event_index(const char *name, size_t len)
{
	int			i;

	for (i = 0; i < NEVENTS; i++)
		if (strlen(event_names[i]) == len && strncmp(event_names[i], name, len) == 0)
			return i;
	return -1;
}

/* The numbers of a totals line into *c, in the order of the events line. */
static void
take_totals(const char *events, const char *totals, pass_counts *c)
{
	const char *e = events;
	char	   *t = (char *) totals;

	memset(c, 0, sizeof(*c));
	for (;;)
	{
		size_t		len;
		long long	v;
		char	   *end;
		int			k;

		e += strspn(e, " ");
		len = strcspn(e, " \n");
		v = strtoll(t, &end, 10);
		if (len == 0 || end == t)
			break;
		if ((k = event_index(e, len)) >= 0)
			c->v[k] = v;
		e += len;
		t = end;
	}
}

/* A "desc: I1 cache: 32768 B, 64 B, 8-way associative" line into cache_desc, once per cache. */
static void
note_cache(const char *desc)
{
	char		level[8];
	size_t		len = strlen(cache_desc);
	const char *size = strchr(desc, ':') + 1;

	snprintf(level, sizeof(level), "%.*s", (int) strcspn(desc, " "), desc);
	if (strstr(cache_desc, level) != NULL || len + 2 >= sizeof(cache_desc))
		return;
	size += strspn(size, " ");
	snprintf(cache_desc + len, sizeof(cache_desc) - len, "%s%s %.*s", len ? "; " : "", level,
			 (int) strcspn(size, "\n"), size);
}

/*
 * The counts of file path: its "events:" line names them, the line that
 * starts with prefix holds them.  0, or -1 when the file has no such line
 * within 60 s (valgrind may still be writing it) or, with marker, no line
 * holds marker.
 */
static int
read_counts(const char *path, const char *prefix, const char *marker, pass_counts *c)
{
	int			tries;

	for (tries = 0; tries < 1200 && !mbm_proc_stop_signal(); tries++)
	{
		FILE	   *f = fopen(path, "r");
		char		line[4096];
		char		events[512] = "";
		bool		found = false;
		bool		marked = marker == NULL;

		while (f && fgets(line, sizeof(line), f))
		{
			if (strncmp(line, "events: ", 8) == 0)
				snprintf(events, sizeof(events), "%.*s", (int) sizeof(events) - 1, line + 8);
			else if (strncmp(line, "desc: ", 6) == 0 && strstr(line, " cache:"))
				note_cache(line + 6);
			else if (strncmp(line, prefix, strlen(prefix)) == 0 && events[0])
			{
				take_totals(events, line + strlen(prefix), c);
				found = true;
			}
			marked |= marker && strstr(line, marker) != NULL;
		}
		if (f)
			fclose(f);
		if (found)
			return marked ? 0 : -1;
		usleep(50000);
	}
	return -1;
}

/* The counts of the Postgres process that ran a pass (cachegrind's file of it): 0 or -1. */
static int
pg_pass_count(const char *line, pass_counts *c, char *err, size_t errlen)
{
	int			pid = (int) mbm_json_number(line, "client_pids", 0);
	char		path[256];

	snprintf(path, sizeof(path), "%s/cg.%d", count_dir(), pid);
	if (pid > 0 && read_counts(path, "summary: ", NULL, c) == 0 && c->v[IR] > 0)
		return 0;
	snprintf(err, errlen, "no count of the background worker (pid %d) in %s", pid, count_dir());
	return -1;
}

/* callgrind_control OPTION [ARG] on the server, as its user: 0 or -1. */
static int
callgrind(const char *option, const char *arg, char *err, size_t errlen)
{
	char		pid[32];
	char		log[1100];
	char	   *argv[] = {callgrind_control, (char *) option, (char *) (arg ? arg : pid), pid, NULL};
	mbm_spawn	how = {mbm_pg.owner ? "mysql" : NULL, NULL, log};

	snprintf(pid, sizeof(pid), "%d", (int) run_my_server.pid);
	snprintf(log, sizeof(log), "%s/callgrind.log", progress.logdir);
	if (arg == NULL)
		argv[3] = NULL;
	return mbm_proc_run(argv, &how, err, errlen);
}

/*
 * The instructions of the commands of the last pass: of the files of
 * callgrind's latest dump (cg.PID.PART-THREAD), the sum over the threads
 * that ran commands (dispatch_command in them; with the main thread
 * serving every connection, that one).  InnoDB's background threads, whose
 * work depends on time, stay out; the client's check of the tables runs
 * the same commands in every pass and cancels in the difference of two.
 */
static int
my_pass_count(pass_counts *sum, char *err, size_t errlen)
{
	char		prefix[64];
	DIR		   *d = opendir(count_dir());
	struct dirent *e;
	int			part = 0;
	int			threads = 0;

	memset(sum, 0, sizeof(*sum));
	snprintf(prefix, sizeof(prefix), "cg.%d.", (int) run_my_server.pid);
	while (d && (e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && atoi(e->d_name + strlen(prefix)) > part)
			part = atoi(e->d_name + strlen(prefix));
	if (d)
		rewinddir(d);
	while (d && part > 0 && (e = readdir(d)) != NULL)
	{
		char		path[512];
		pass_counts c;

		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || atoi(e->d_name + strlen(prefix)) != part)
			continue;
		snprintf(path, sizeof(path), "%s/%s", count_dir(), e->d_name);
		if (read_counts(path, "totals: ", "dispatch_command", &c) == 0 && c.v[IR] > 0)
		{
			int			k;

			for (k = 0; k < NEVENTS; k++)
				sum->v[k] += c.v[k];
			threads++;
		}
	}
	if (d)
		closedir(d);
	if (threads == 0)
	{
		snprintf(err, errlen, "no connection's thread in callgrind's dump %d in %s", part, count_dir());
		return -1;
	}
	return 0;
}

/* One pass of events on the server up: its row into *line, with counted its counts into *c. */
static mbm_run_outcome
pass(const mbm_any_build *ab, const char *workload, int round, const mbm_limits *lim,
	 bool counted, char **line, pass_counts *c, char *err, size_t errlen)
{
	mbm_run_outcome outcome;

	if (ab->pg)
		outcome = mbm_measure_pg(&run_pg_server, workload, round, lim, line, err, errlen);
	else
	{
		if (counted && callgrind("-z", NULL, err, errlen) != 0)
			return RUN_FAILED;
		outcome = mbm_measure_my(&run_my_server, NULL, workload, round, lim, line, err, errlen);
		if (outcome == RUN_OK && counted && callgrind("-d", "pass", err, errlen) != 0)
			outcome = RUN_FAILED;
	}
	if (outcome != RUN_OK || !counted)
		return outcome;
	if ((ab->pg ? pg_pass_count(*line, c, err, errlen) : my_pass_count(c, err, errlen)) != 0)
		return RUN_FAILED;
	if (lim->events > 0 && mbm_json_number(*line, "events", 0) != lim->events)
	{
		snprintf(err, errlen, "the pass ran %.0f of its %lld events", mbm_json_number(*line, "events", 0),
				 lim->events);
		return RUN_FAILED;
	}
	return RUN_OK;
}

/*
 * The simulated caches' figures of a run's counts d (long pass less short)
 * as text into out[0..3]: I1 misses, D1 misses, LL misses, and estimated
 * cycles, L1 hits + 5 x LL hits + 35 x LL misses (Turner-Trauring's
 * weights, docs/methodology.md).
 */
static void
cache_figures(const pass_counts *d, char out[4][32])
{
	const long long *v = d->v;
	long long	l1_misses = v[I1MR] + v[D1MR] + v[D1MW];
	long long	ll_misses = v[ILMR] + v[DLMR] + v[DLMW];
	long long	l1_hits = v[IR] + v[DR] + v[DW] - l1_misses;

	snprintf(out[0], 32, "%lld", v[I1MR]);
	snprintf(out[1], 32, "%lld", v[D1MR] + v[D1MW]);
	snprintf(out[2], 32, "%lld", ll_misses);
	snprintf(out[3], 32, "%lld", l1_hits + 5 * (l1_misses - ll_misses) + 35 * ll_misses);
}

/*
 * The row of a counted run: the long pass's, less the short pass's events,
 * queries, instructions and, with --cache-sim, the simulated caches' figures.
 */
static mbm_run_outcome
combine(const mbm_any_build *ab, const char *short_pass, const char *long_pass,
		const pass_counts *s, const pass_counts *l, char **line, char *err, size_t errlen)
{
	pass_counts d;
	char		count[32];
	char		cache[4][32];
	char		note[1024];
	const char *params[9] = {long_pass, short_pass, count, mbm_count_counter(ab->pg != NULL), note};
	char		out[65536];
	int			i;

	for (i = 0; i < NEVENTS; i++)
		d.v[i] = l->v[i] - s->v[i];
	snprintf(count, sizeof(count), "%lld", d.v[IR]);
	cache_figures(&d, cache);
	for (i = 0; i < 4; i++)
		params[5 + i] = rq.cache_sim ? cache[i] : NULL;
	snprintf(note, sizeof(note), "%s: instructions of the %s that ran the events, the pass of"
			 " %.0f events less the pass of %.0f (one seeded sequence), so that start-up and warm-up"
			 " cancel%s%s", mbm_count_counter(ab->pg != NULL),
			 ab->pg ? "background worker" : "connection's commands",
			 mbm_json_number(long_pass, "events", 0), mbm_json_number(short_pass, "events", 0),
			 rq.cache_sim ? "; simulated caches " : "", rq.cache_sim ? cache_desc : "");
	if (mbm_pg_exec(results,
					"SELECT ($1::jsonb || jsonb_build_object("
					"'events', ($1::jsonb->>'events')::bigint - ($2::jsonb->>'events')::bigint,"
					"'queries', ($1::jsonb->>'queries')::bigint - ($2::jsonb->>'queries')::bigint,"
					"'instructions', $3::bigint, 'instructions_counter', $4::text,"
					"'hw_counters_note', $5::text, 'i1_misses', $6::bigint, 'd1_misses', $7::bigint,"
					"'ll_misses', $8::bigint, 'estimated_cycles', $9::bigint))::text",
					9, params, out, sizeof(out), err, errlen) != 0)
		return RUN_FAILED;
	*line = strdup(out);
	return RUN_OK;
}

/*
 * The events of a cell's passes from its rate under valgrind: half a
 * second, and 1.5 more; but at least 10 and 30 more, since a probe slowed
 * by a busy machine would otherwise leave a difference of a handful of
 * events, whose count per query still carries what the first events of a
 * pass do once (a MariaDB update-index: 563,023 instructions a query over
 * 4 events, 82,322 over 795).
 */
static void
set_passes(int family, int w, double rate)
{
	cell_n1[family][w] = (long long) fmax(10, ceil(0.5 * rate));
	cell_n2[family][w] = cell_n1[family][w] + (long long) fmax(30, ceil(1.5 * rate));
}

/*
 * A server that did not start under valgrind because valgrind could not
 * read its debug info (valgrind before 3.20 and the DWARF 5 that clang 14
 * and later write with -g): say so, and the way round it, in err.
 */
static void
explain_debuginfo(const char *log, char *err, size_t errlen)
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

/* Half a second of each workload on ab's server under valgrind, up: each cell's passes. */
static int
probe_build(const mbm_any_build *ab, char *err, size_t errlen)
{
	mbm_limits	lim = {0.5, 0, 0, true};
	int			w;

	for (w = 0; w < rq.nworkloads; w++)
	{
		char	   *line = NULL;
		pass_counts c;

		if (pass(ab, rq.workloads[w], 1, &lim, false, &line, &c, err, errlen) != RUN_OK)
			return -1;
		set_passes(ab->pg ? 0 : 1, w, mbm_json_number(line, "events", 0) / mbm_json_number(line, "elapsed_seconds", 1));
		free(line);
	}
	return 0;
}

int
mbm_count_probe(char *err, size_t errlen)
{
	int			family,
				k;

	for (family = 0; family < 2; family++)
		for (k = 0; k < rq.nall; k++)
		{
			const mbm_any_build *ab = &rq.all[k];
			char		copy[1100],
						pristine[1100];
			int			failed;

			if ((ab->pg != NULL) != (family == 0))
				continue;
			printf("== the rate of each workload on %s %s under valgrind, for the passes of its counted runs\n",
				   ab->pg ? "postgres" : ab->my->kind, ab->label);
			fflush(stdout);
			snprintf(copy, sizeof(copy), "%s/run", progress.workdir);
			mbm_pristine_path(ab, pristine, sizeof(pristine));
			if (mbm_proc_copy(pristine, copy, ab->pg ? mbm_pg.owner : (mbm_pg.owner ? "mysql" : NULL),
							  err, errlen) != 0)
				return -1;
			mbm_pg.wrapper = mbm_count_wrapper(ab->pg != NULL);
			failed = ab->pg ? mbm_pg_start(&run_pg_server, ab->pg, copy, RUN_PORT, "probe.log", false, err, errlen) :
				mbm_my_start(&run_my_server, ab->my, copy, "my.sock", "probe.log", err, errlen);
			mbm_pg.wrapper = NULL;
			if (failed != 0)
			{
				char		log[1200];

				snprintf(log, sizeof(log), "%s/probe.log", progress.logdir);
				explain_debuginfo(log, err, errlen);
			}
			if (failed == 0)
				failed = probe_build(ab, err, errlen);
			mbm_pg_stop(&run_pg_server);
			mbm_my_stop(&run_my_server);
			mbm_proc_remove_tree(copy);
			if (failed)
				return -1;
			break;
		}
	return 0;
}

/*
 * A counted run of workload w on ab's server, up: a pass that warms the
 * buffers, then the two counted passes of the cell's event counts
 * (mbm_count_probe() set them, the same for every build and round).
 */
mbm_run_outcome
mbm_count_run(const mbm_any_build *ab, const char *workload, int w, int round, char **line,
			  char *err, size_t errlen)
{
	int			family = ab->pg ? 0 : 1;
	mbm_limits	lim = {600, 0, cell_n1[family][w], true};
	mbm_run_outcome outcome;
	char	   *first = NULL,
			   *short_pass = NULL,
			   *long_pass = NULL;
	pass_counts warm,
				short_count,
				long_count;

	outcome = pass(ab, workload, round, &lim, false, &first, &warm, err, errlen);
	if (outcome == RUN_OK)
		outcome = pass(ab, workload, round, &lim, true, &short_pass, &short_count, err, errlen);
	lim.events = cell_n2[family][w];
	if (outcome == RUN_OK)
		outcome = pass(ab, workload, round, &lim, true, &long_pass, &long_count, err, errlen);
	if (outcome == RUN_OK)
		outcome = combine(ab, short_pass, long_pass, &short_count, &long_count, line, err, errlen);
	free(first);
	free(short_pass);
	free(long_pass);
	return outcome;
}

void
mbm_count_events(int family, int w, long long *n1, long long *n2)
{
	*n1 = cell_n1[family][w];
	*n2 = cell_n2[family][w];
}

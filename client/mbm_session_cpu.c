/*
 * mbm_session_cpu.c — the CPU of the server's threads that ran the
 * clients' statements, over the measured window: a Postgres backend per
 * session, a MariaDB or MySQL connection thread per session.  It is what a
 * count of instructions covers (the server's user code), so it says how
 * much of a query's time a count can speak for (docs/costs.md).
 *
 * Read from /proc/TID/{stat,schedstat,status} when the server runs on this
 * host.  schedstat's run time is exact to the nanosecond; stat's user and
 * system ticks (10 ms) only split it: a thread's ticks are sampled, its run
 * time is not.  A thread is the same at both ends when its start time is:
 * an id the kernel gave to another thread meanwhile is not read as ours.
 * Nothing is estimated: a thread that cannot be read leaves the figure
 * NULL, and the note says why.
 */
#include "mbm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read one thread's figures; false when it is gone or cannot be read. */
static bool
thread_read(int tid, mbm_thread_cpu *t)
{
	char		path[64];
	char		buf[1024];
	const char *p;
	FILE	   *f;
	size_t		len;
	unsigned long long utime,
				stime,
				starttime;
	mb_sched	sched;

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	if ((f = fopen(path, "r")) == NULL)
		return false;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	/* the name in parentheses may hold anything: the fields follow its last ')' */
	if ((p = strrchr(buf, ')')) == NULL ||
		sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu"
			   " %*d %*d %*d %*d %*d %*d %llu", &utime, &stime, &starttime) != 3)
		return false;
	t->user_ticks = utime;
	t->system_ticks = stime;
	t->starttime = starttime;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", tid);
	if (!mb_sched_read(path, &sched))
		return false;
	t->run_ns = sched.run_ns;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if ((f = fopen(path, "r")) == NULL)
		return false;
	while (fgets(buf, sizeof(buf), f))
	{
		long long	v;

		if (sscanf(buf, "voluntary_ctxt_switches: %lld", &v) == 1)
			t->voluntary_cs = v;
		else if (sscanf(buf, "nonvoluntary_ctxt_switches: %lld", &v) == 1)
			t->involuntary_cs = v;
	}
	fclose(f);
	return true;
}

void
mbm_session_cpu_free(mbm_session_cpu *sc)
{
	free(sc->start);
	sc->start = NULL;
	sc->n = 0;
}

/* The thread that serves a session, from the driver's queries; -1 with the note set. */
static int
session_thread(const mbm_options *o, mbm_conn *monitor, unsigned long session_id,
			   char *note, size_t notelen)
{
	const char *const *sql = o->driver->session_thread_sql;
	char		err[256] = "";
	int			i;

	if (sql == NULL)
		return (int) session_id;
	for (i = 0; sql[i] != NULL; i++)
	{
		char		query[256];
		char		value[32];
		char	   *end;
		long		tid;

		snprintf(query, sizeof(query), sql[i], session_id);
		if (mbm_query_value(o, monitor, query, value, sizeof(value), err, sizeof(err)) != 0)
			continue;
		tid = strtol(value, &end, 10);
		if (end != value && *end == '\0' && tid > 0 && tid <= 0x3fffffff)
			return (int) tid;
		snprintf(err, sizeof(err), "no thread for session %lu", session_id);
	}
	snprintf(note, notelen, "the server did not say which thread serves a session: %.200s", err);
	return -1;
}

/*
 * Find the threads of the clients' sessions and read them: the window's
 * start.  false, with sc->note set, when the figure cannot be had.
 */
bool
mbm_session_cpu_start(mbm_session_cpu *sc, const mbm_options *o, mbm_conn *monitor,
					  bool local, const unsigned long *session_ids, int n)
{
	int			i;

	mbm_session_cpu_free(sc);
	sc->note[0] = '\0';
	if (o->reconnect > 0)
	{
		snprintf(sc->note, sizeof(sc->note),
				 "not read: --reconnect gives each session's events to several server threads");
		return false;
	}
	if (monitor == NULL || !local)
	{
		snprintf(sc->note, sizeof(sc->note), monitor == NULL ? "not read (--server-status=off)" :
				 "not read: the server is not on this host");
		return false;
	}
	if ((sc->start = calloc((size_t) n, sizeof(mbm_thread_cpu))) == NULL)
	{
		snprintf(sc->note, sizeof(sc->note), "not read: out of memory");
		return false;
	}
	sc->n = n;
	sc->processes = o->driver->session_thread_sql == NULL;
	for (i = 0; i < n; i++)
	{
		int			tid = session_thread(o, monitor, session_ids[i], sc->note, sizeof(sc->note));

		if (tid < 0)
			return false;
		sc->start[i].tid = tid;
	}
	/* the reads last microseconds: all after the queries, nearest to the window */
	for (i = 0; i < n; i++)
		if (!thread_read(sc->start[i].tid, &sc->start[i]))
		{
			snprintf(sc->note, sizeof(sc->note), "not read: /proc/%d (the server's thread of"
					 " session %lu) cannot be read: a server in another PID namespace?",
					 sc->start[i].tid, session_ids[i]);
			return false;
		}
	return true;
}

/*
 * Read the same threads again, the window's end, and sum what each used in
 * between into out.  false, with sc->note set, when a thread is gone.
 */
bool
mbm_session_cpu_end(mbm_session_cpu *sc, mb_rusage *out)
{
	int			i;

	memset(out, 0, sizeof(*out));
	if (sc->note[0] != '\0' || sc->start == NULL)
		return false;
	for (i = 0; i < sc->n; i++)
	{
		const mbm_thread_cpu *a = &sc->start[i];
		mbm_thread_cpu b;
		int64_t		run_us;
		unsigned long long ticks;
		double		user_part;

		if (!thread_read(a->tid, &b) || b.starttime != a->starttime)
		{
			snprintf(sc->note, sizeof(sc->note), "not read: the server's thread %d ended"
					 " in the window", a->tid);
			return false;
		}
		run_us = (int64_t) ((b.run_ns - a->run_ns) / 1000);
		ticks = (b.user_ticks - a->user_ticks) + (b.system_ticks - a->system_ticks);
		/* under one tick in all: too little to split, and next to nothing */
		user_part = ticks > 0 ? (double) (b.user_ticks - a->user_ticks) / ticks : 1.0;
		out->user_us += (int64_t) (run_us * user_part + 0.5);
		out->system_us += run_us - (int64_t) (run_us * user_part + 0.5);
		out->voluntary_cs += b.voluntary_cs - a->voluntary_cs;
		out->involuntary_cs += b.involuntary_cs - a->involuntary_cs;
	}
	snprintf(sc->note, sizeof(sc->note), "the server's %d %s of the clients' sessions (/proc)",
			 sc->n, sc->processes ? (sc->n == 1 ? "backend" : "backends") :
			 (sc->n == 1 ? "thread" : "threads"));
	return true;
}

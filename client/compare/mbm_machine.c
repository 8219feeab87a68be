/*
 * mbm_machine.c — whether the machine was quiet while microbench compare
 * measured, and what took it when it was not.
 *
 * A timed ratio is only the builds' when both ran on the same machine.  A
 * canary timed right before a run does not see a neighbour that starts a
 * second later, so there are two checks:
 *   - before the first round and between rounds, a fixed CPU task is
 *     timed a few times on each of the servers' CPUs (nothing else of the
 *     comparison runs then): on a quiet machine its times agree within
 *     about 1%, and their spread (half the interquartile range, and how
 *     far the checks' medians lie apart) is the machine's headline figure;
 *   - during every run, the CPU time the kernel counted on the servers'
 *     CPUs and on the runner's (/proc/stat), less what the server's
 *     processes, the kernel's threads (its I/O) and the runner (with the
 *     client it started and the results server) used themselves
 *     (/proc/PID/stat): what is left, other processes took.  A
 *     run whose neighbours took more than MBM_BUSY_SHARE of a CPU is busy:
 *     its row says so and names the busiest (busy_share, busy_note), and
 *     the comparison sets its pair aside (comparison_pairs).
 * The report's first line says which it was, and the manifest keeps the
 * figures.  --wait-quiet repeats the first check until the machine is
 * quiet.
 */
#include "mbm.h"
#include "mbm_machine.h"
#include "mbm_proc.h"
#include "mbm_state.h"
#include "mb_samples.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MBM_CHECK_WINDOWS	7		/* timings of the task per CPU and check */
#define MBM_CHECK_WINDOW_S	0.15	/* each about this long */
#define MBM_QUIET_SPREAD	0.02	/* the task's times within +-2%: quiet */
#define MBM_BUSY_SHARE		0.20	/* neighbours took more of a CPU: busy */
#define MBM_MAX_CHECKS		256
#define MBM_MAX_PROCS		8192
#define MBM_MAX_CPUS		256
#define MBM_MAX_NAMES		128		/* other processes' names, to sum their CPU by */

/* One reading of the CPUs and of every process's CPU time. */
typedef struct mbm_proc_ticks
{
	int			pid;
	int			ppid;
	int			pgrp;
	unsigned long long start;	/* starttime: a pid reused is another process */
	unsigned long long ticks;	/* utime + stime + cutime + cstime */
	unsigned long long own_ticks;	/* utime + stime: what it ran itself */
	char		comm[32];
} mbm_proc_ticks;

struct mbm_machine_reading
{
	unsigned long long busy[MBM_MAX_CPUS];
	unsigned long long total[MBM_MAX_CPUS];
	int			ncpus;
	mbm_proc_ticks *procs;
	int			nprocs;
};

/* What the checks found, for the report's first line and the manifest. */
static struct
{
	long long	iterations;		/* the task's size, set by the first check */
	int			nchecks;
	int			before_round[MBM_MAX_CHECKS];
	double		spread[MBM_MAX_CHECKS];	/* half the interquartile range over the median */
	double		median_ms[MBM_MAX_CHECKS];
	double		others[MBM_MAX_CHECKS];	/* the share of the CPUs others took meanwhile */
	int			busy_runs;
	int			runs;
	char		busiest[512];	/* the busiest run's note */
	double		busiest_share;
}			machine;

/* The fixed task: a dependent chain of integer steps the compiler cannot fold. */
static unsigned long long
fixed_task(long long iterations)
{
	volatile unsigned long long sink;
	unsigned long long x = 88172645463325252ULL;
	long long	i;

	for (i = 0; i < iterations; i++)
	{
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	sink = x;
	return sink;
}

static double
timed_task_ms(long long iterations)
{
	uint64_t	t0 = mbm_now_ns();

	(void) fixed_task(iterations);
	return (mbm_now_ns() - t0) / 1e6;
}

/* The CPUs in a list like "0", "0-1" or "0,2": whether cpu is one. */
static bool
cpu_in(const char *list, int cpu)
{
	const char *p = list;

	while (*p)
	{
		char	   *end;
		long		lo = strtol(p, &end, 10),
					hi = lo;

		if (end == p)
			return false;
		p = end;
		if (*p == '-')
		{
			hi = strtol(p + 1, &end, 10);
			p = end;
		}
		if (cpu >= lo && cpu <= hi)
			return true;
		if (*p == ',')
			p++;
		else
			break;
	}
	return false;
}

/* Every CPU's busy and total ticks from /proc/stat (steal counts as busy: a neighbour's). */
static void
read_cpus(mbm_machine_reading *r)
{
	FILE	   *f = fopen("/proc/stat", "r");
	char		line[512];

	r->ncpus = 0;
	while (f && fgets(line, sizeof(line), f))
	{
		int			cpu;
		unsigned long long v[8] = {0};

		if (strncmp(line, "cpu", 3) != 0 || !isdigit((unsigned char) line[3]))
			continue;
		if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
				   &v[3], &v[4], &v[5], &v[6], &v[7]) < 5 || cpu < 0 || cpu >= MBM_MAX_CPUS)
			continue;
		/*
		 * user nice system idle iowait irq softirq steal: interrupts are
		 * left out of busy, as the kernel's threads are (mbm_machine_end),
		 * since most serve the server's own I/O
		 */
		r->total[cpu] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
		r->busy[cpu] = v[0] + v[1] + v[2] + v[7];
		if (cpu + 1 > r->ncpus)
			r->ncpus = cpu + 1;
	}
	if (f)
		fclose(f);
}

/* One process's entry from /proc/PID/stat; false when it is gone. */
static bool
read_proc(int pid, mbm_proc_ticks *p)
{
	char		path[64],
				buf[1024];
	FILE	   *f;
	char	   *open_paren,
			   *close_paren;
	size_t		n;
	unsigned long long utime,
				stime;
	long long	cutime,
				cstime;
	int			pgrp;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the name is in parentheses and may hold spaces or parentheses itself */
	if ((open_paren = strchr(buf, '(')) == NULL || (close_paren = strrchr(buf, ')')) == NULL)
		return false;
	if (sscanf(close_paren + 2, "%*c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld"
			   " %*d %*d %*d %*d %llu", &p->ppid, &pgrp, &utime, &stime, &cutime, &cstime, &p->start) != 7)
		return false;
	p->pid = pid;
	p->pgrp = pgrp;
	p->own_ticks = utime + stime;
	p->ticks = utime + stime + (cutime > 0 ? cutime : 0) + (cstime > 0 ? cstime : 0);
	n = close_paren - open_paren - 1;
	if (n >= sizeof(p->comm))
		n = sizeof(p->comm) - 1;
	memcpy(p->comm, open_paren + 1, n);
	p->comm[n] = '\0';
	return true;
}

static void
read_procs(mbm_machine_reading *r)
{
	DIR		   *d = opendir("/proc");
	struct dirent *e;

	if (r->procs == NULL)
		r->procs = malloc(sizeof(mbm_proc_ticks) * MBM_MAX_PROCS);
	r->nprocs = 0;
	while (d && r->procs && (e = readdir(d)) != NULL && r->nprocs < MBM_MAX_PROCS)
		if (isdigit((unsigned char) e->d_name[0]) &&
			read_proc(atoi(e->d_name), &r->procs[r->nprocs]))
			r->nprocs++;
	if (d)
		closedir(d);
}

mbm_machine_reading *
mbm_machine_begin(void)
{
	mbm_machine_reading *r = calloc(1, sizeof(mbm_machine_reading));

	if (r != NULL)
	{
		read_procs(r);
		read_cpus(r);
	}
	return r;
}

/*
 * A process's ticks since the first reading (all of them if it started
 * since): with its reaped children's (own false), or its own alone, which
 * names a neighbour without charging it a whole child's life at once.
 */
static unsigned long long
ticks_since(const mbm_machine_reading *before, const mbm_proc_ticks *p, bool own)
{
	unsigned long long now = own ? p->own_ticks : p->ticks;
	int			i;

	for (i = 0; i < before->nprocs; i++)
		if (before->procs[i].pid == p->pid && before->procs[i].start == p->start)
		{
			unsigned long long then = own ? before->procs[i].own_ticks : before->procs[i].ticks;

			return now >= then ? now - then : 0;
		}
	return now;
}

/*
 * The share of the CPUs' time (those in list, those not in it, or all when
 * list is NULL) that went to none of ours.
 */
static double
others_share(const mbm_machine_reading *a, const mbm_machine_reading *b, const char *list, bool in,
			 unsigned long long ours)
{
	unsigned long long busy = 0,
				total = 0;
	int			cpu;

	for (cpu = 0; cpu < a->ncpus && cpu < b->ncpus; cpu++)
		if (list == NULL || cpu_in(list, cpu) == in)
		{
			busy += b->busy[cpu] - a->busy[cpu];
			total += b->total[cpu] - a->total[cpu];
		}
	if (total == 0)
		return 0;
	return busy > ours ? (double) (busy - ours) / total : 0;
}

/*
 * The end of a stretch begun with mbm_machine_begin (which it frees): the
 * share of a CPU others took on the servers' CPUs or on the runner's,
 * whichever is more, and a note naming the CPUs' shares and the busiest
 * other processes.  server_group: the process group of the server (0:
 * none up).
 */
double
mbm_machine_end(mbm_machine_reading *before, pid_t server_group, char *note, size_t notelen)
{
	mbm_machine_reading *after = mbm_machine_begin();
	unsigned long long server = 0,
				runner = 0;
	char		names[MBM_MAX_NAMES][32];
	unsigned long long name_ticks[MBM_MAX_NAMES];
	int			nnames = 0;
	int			top[3] = {-1, -1, -1};
	unsigned long long top_ticks[3] = {0, 0, 0};
	double		on_servers,
				on_runner,
				seconds;
	int			i,
				k;
	pid_t		self = getpid();

	note[0] = '\0';
	if (before == NULL || after == NULL || before->procs == NULL || after->procs == NULL)
	{
		mbm_machine_free(before);
		mbm_machine_free(after);
		return 0;
	}
	for (i = 0; i < after->nprocs; i++)
	{
		const mbm_proc_ticks *p = &after->procs[i];
		unsigned long long t = ticks_since(before, p, false);

		/*
		 * the kernel's threads (kthreadd's children) mostly do the server's
		 * I/O: counted with the server, as is the results server with the
		 * runner
		 */
		if ((server_group > 0 && p->pgrp == server_group) || p->pid == 2 || p->ppid == 2)
			server += t;
		else if (p->pid == self || (results_server.pid > 0 && p->pgrp == results_server.pid))
			runner += t;
		else if ((t = ticks_since(before, p, true)) > 0)
		{
			/* by name: a compile is many short cc1 processes */
			for (k = 0; k < nnames && strcmp(names[k], p->comm) != 0; k++)
				;
			if (k == nnames && nnames < MBM_MAX_NAMES)
			{
				snprintf(names[nnames], sizeof(names[0]), "%s", p->comm);
				name_ticks[nnames++] = 0;
			}
			if (k < nnames)
				name_ticks[k] += t;
		}
	}
	for (i = 0; i < nnames; i++)
		for (k = 0; k < 3; k++)
			if (name_ticks[i] > top_ticks[k])
			{
				memmove(&top[k + 1], &top[k], sizeof(int) * (2 - k));
				memmove(&top_ticks[k + 1], &top_ticks[k], sizeof(top_ticks[0]) * (2 - k));
				top[k] = i;
				top_ticks[k] = name_ticks[i];
				break;
			}
	if (server_group == 0)
	{
		/* no server up (a check): the runner may have run on any CPU */
		on_servers = on_runner = others_share(before, after, NULL, true, runner + server);
		snprintf(note, notelen, "others took %.0f%% of the CPUs", on_servers * 100);
	}
	else if (strcmp(progress.tool_cpus, rq.cpus) == 0)
		on_servers = on_runner = others_share(before, after, rq.cpus, true, server + runner);
	else
	{
		on_servers = others_share(before, after, rq.cpus, true, server);
		on_runner = others_share(before, after, rq.cpus, false, runner);
	}
	seconds = 0;
	for (i = 0; i < after->ncpus && i < before->ncpus; i++)
		if (cpu_in(rq.cpus, i))
		{
			seconds = (after->total[i] - before->total[i]) / (double) sysconf(_SC_CLK_TCK);
			break;
		}
	if (server_group != 0)
		snprintf(note, notelen, "others took %.0f%% of the servers' CPU(s) %s and %.0f%% of the runner's %s",
				 on_servers * 100, rq.cpus, on_runner * 100, progress.tool_cpus);
	for (k = 0; k < 3 && top[k] >= 0 && seconds > 0; k++)
		snprintf(note + strlen(note), notelen - strlen(note), "%s %s %.0f%%", k == 0 ? "; busiest:" : ",",
				 names[top[k]],
				 100.0 * top_ticks[k] / sysconf(_SC_CLK_TCK) / seconds);
	mbm_machine_free(before);
	mbm_machine_free(after);
	return fmax(on_servers, on_runner);
}

void
mbm_machine_free(mbm_machine_reading *r)
{
	if (r)
		free(r->procs);
	free(r);
}

/* A run's share and note: counted for the report's first line. */
void
mbm_machine_note_run(const char *what, double share, const char *note)
{
	machine.runs++;
	if (share > MBM_BUSY_SHARE)
		machine.busy_runs++;
	if (share > machine.busiest_share)
	{
		machine.busiest_share = share;
		snprintf(machine.busiest, sizeof(machine.busiest), "%s: %s", what, note);
	}
}

bool
mbm_machine_busy(double share)
{
	return share > MBM_BUSY_SHARE;
}

/*
 * The check: MBM_CHECK_WINDOWS timings of the fixed task on each of the
 * servers' CPUs, the runner pinned there meanwhile; returns whether it was
 * quiet, and prints a line.
 */
bool
mbm_machine_check(int before_round)
{
	double		ms[MBM_CHECK_WINDOWS * MBM_MAX_CPUS];
	int			n = 0;
	int			cpu,
				w;
	long		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t	saved,
				one;
	mbm_machine_reading *start;
	char		note[512];
	double		others,
				median,
				lo,
				hi,
				spread;
	int			c = machine.nchecks < MBM_MAX_CHECKS ? machine.nchecks : MBM_MAX_CHECKS - 1;

	sched_getaffinity(0, sizeof(saved), &saved);
	if (machine.iterations == 0)
	{
		/* the task's size: about MBM_CHECK_WINDOW_S on this machine, fixed from now on */
		long long	it = 1 << 16;

		while (timed_task_ms(it) < MBM_CHECK_WINDOW_S * 1000 / 4 && it < (1LL << 40))
			it *= 2;
		machine.iterations = (long long) (it * MBM_CHECK_WINDOW_S * 1000 / timed_task_ms(it));
	}
	start = mbm_machine_begin();
	for (cpu = 0; cpu < ncpu && cpu < MBM_MAX_CPUS; cpu++)
	{
		if (!cpu_in(rq.cpus, cpu))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one) != 0)
			continue;
		for (w = 0; w < MBM_CHECK_WINDOWS; w++)
			ms[n++] = timed_task_ms(machine.iterations);
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	/* the runner itself ran the task: not counted as a neighbour */
	others = mbm_machine_end(start, 0, note, sizeof(note));
	if (n == 0)
		return true;
	median = mb_sort_median(ms, n);
	/*
	 * half the interquartile range: one window that met the kernel's
	 * writeback of the last run does not make a quiet machine busy, while a
	 * neighbour shows in every window (and in others' share)
	 */
	lo = ms[n / 4];
	hi = ms[n - 1 - n / 4];
	spread = (hi - lo) / 2 / median;
	machine.before_round[c] = before_round;
	machine.spread[c] = spread;
	machine.median_ms[c] = median;
	machine.others[c] = others;
	machine.nchecks = c + 1;
	printf("== machine check before round %d: a fixed task %.1f ms (+-%.1f%%) on CPU(s) %s; %s\n",
		   before_round, median, spread * 100, rq.cpus, note);
	fflush(stdout);
	return spread <= MBM_QUIET_SPREAD && others <= MBM_BUSY_SHARE;
}

/* --wait-quiet: the first check again every few seconds until it is quiet, at most minutes. */
void
mbm_machine_wait_quiet(double minutes)
{
	uint64_t	until = mbm_now_ns() + (uint64_t) (minutes * 60e9);

	while (!mbm_machine_check(1))
	{
		struct timespec pause = {5, 0};

		/* a stop is the rounds' to carry out: they check for one first */
		if (mbm_proc_stop_signal())
			return;
		if (mbm_now_ns() >= until)
		{
			say("the machine was not quiet within --wait-quiet's %g minute(s); measuring all the same,"
				" and the report says so", minutes);
			return;
		}
		machine.nchecks--;		/* only the check that let the runs begin counts */
		nanosleep(&pause, NULL);
	}
}

/* The report's first line: quiet, with the task's spread, or busy, with what was seen. */
void
mbm_machine_header(char *buf, size_t len)
{
	double		spread = 0,
				others = 0,
				lo = 0,
				hi = 0;
	int			i;

	for (i = 0; i < machine.nchecks; i++)
	{
		spread = fmax(spread, machine.spread[i]);
		others = fmax(others, machine.others[i]);
		if (i == 0 || machine.median_ms[i] < lo)
			lo = machine.median_ms[i];
		if (machine.median_ms[i] > hi)
			hi = machine.median_ms[i];
	}
	/* the checks' medians apart count too: a machine that slowed between rounds */
	if (lo > 0)
		spread = fmax(spread, (hi - lo) / 2 / lo);
	if (spread <= MBM_QUIET_SPREAD && others <= MBM_BUSY_SHARE && machine.busy_runs == 0)
		snprintf(buf, len, "machine: quiet (+-%.1f%%: a fixed CPU task timed %d times on the servers' CPU(s) %s"
				 " in each of %d checks; no run shared its CPUs with a busy neighbour)",
				 spread * 100, MBM_CHECK_WINDOWS, rq.cpus, machine.nchecks);
	else
	{
		snprintf(buf, len, "machine: busy (a fixed CPU task timed on the servers' CPU(s) %s varied +-%.1f%%"
				 " over %d checks, others taking up to %.0f%% of the CPUs meanwhile; %d of %d runs shared"
				 " their CPUs with a neighbour taking more than %.0f%% of one, their pairs set aside",
				 rq.cpus, spread * 100, machine.nchecks, others * 100, machine.busy_runs, machine.runs,
				 MBM_BUSY_SHARE * 100);
		if (machine.busy_runs > 0)
			snprintf(buf + strlen(buf), len - strlen(buf), "; the busiest: %s", machine.busiest);
		snprintf(buf + strlen(buf), len - strlen(buf), ")");
	}
}

/* The checks' figures as the manifest's "machine" object. */
void
mbm_machine_manifest(FILE *f)
{
	char		header[2048];
	int			i;

	mbm_machine_header(header, sizeof(header));
	fprintf(f, "  \"machine\": {\"verdict\": \"%s\", \"task_iterations\": %lld, \"windows_per_cpu\": %d,"
			" \"busy_share\": %g, \"runs\": %d, \"busy_runs\": %d, \"checks\": [",
			strncmp(header, "machine: quiet", 14) == 0 ? "quiet" : "busy", machine.iterations,
			MBM_CHECK_WINDOWS, MBM_BUSY_SHARE, machine.runs, machine.busy_runs);
	for (i = 0; i < machine.nchecks; i++)
		fprintf(f, "%s{\"before_round\": %d, \"median_ms\": %.3f, \"spread\": %.4f, \"others_share\": %.3f}",
				i ? ", " : "", machine.before_round[i], machine.median_ms[i], machine.spread[i],
				machine.others[i]);
	fprintf(f, "]},\n");
}

/*
 * mbm_count_sides.c — a round's counted runs with the builds side by side.
 *
 * valgrind counts the instructions of the process it runs whatever else
 * the machine runs beside it, so the builds of a counted round need not
 * take turns.  On a machine of two CPUs or more each build's runs of the
 * round go in a process of its own (fork), with its own server port, its
 * own run directory (the data's copy, valgrind's count files, the client's
 * row) and its own logs (logs/counted-COLUMN-LABEL); the round takes about
 * as long as its slowest build instead of the sum of them.  A side's
 * process hands each run's row back over a pipe and the runner keeps it
 * (runs.jsonl, the results database, the progress line) as it comes, so
 * nothing a side measured is lost when another fails or a signal stops
 * them.  Round 1 takes turns: a cell's first run sets its window's events
 * for every build (mbm_count_round.c).
 */
#include "mbm.h"
#include "mbm_count_sides.h"
#include "mbm_proc.h"
#include "mbm_run_one.h"
#include "mbm_setup.h"
#include "mbm_state.h"

#include <errno.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The sides' servers listen above the turns' ports (RUN_PORT + 1 + build). */
#define SIDE_PORT (RUN_PORT + 1 + MAX_BUILDS)

/* This process's side: -1 in the runner itself. */
static int	my_side = -1;
static int	my_pipe = -1;

/*
 * What a side hands the runner: a run ('R': its strings are the workload,
 * the row, the error, the log and what was around it) or the side's end
 * ('E': its share of the progress; its string, the counted server's
 * command).
 */
typedef struct side_record
{
	char		kind;
	int			round;
	int			outcome;
	double		run_s;
	size_t		len[5];
	int			counted_runs;
	double		counted_s,
				copy_s,
				boot_s,
				stop_s,
				progress_run_s;
} side_record;

/* A side's process, as the runner knows it. */
typedef struct side
{
	int			measured;		/* rq.measured's index */
	pid_t		pid;
	int			fd;				/* the pipe's end to read, -1 once at its end */
} side;

bool
mbm_count_sides_possible(bool cells[MBM_COLUMNS][MBM_MAX_WORKLOADS])
{
	int			col,
				w;

	if (rq.nmeasured < 2 || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return false;
	for (col = 0; col < MBM_COLUMNS; col++)
		for (w = 0; w < rq.nworkloads; w++)
			if (cells[col][w] && progress.count_events[col][w] <= 0)
				return false;
	return true;
}

int
mbm_count_side_port(void)
{
	return my_side < 0 ? RUN_PORT : SIDE_PORT + my_side;
}

const char *
mbm_count_side_socket(void)
{
	static char name[32];

	if (my_side < 0)
		return "my.sock";
	snprintf(name, sizeof(name), "my-side-%d.sock", my_side);
	return name;
}

/* n bytes written to fd, or read from it (into): 0, or -1 at the pipe's end or on an error. */
static int
move_all(int fd, void *buf, size_t n, bool into)
{
	char	   *p = buf;

	while (n > 0)
	{
		ssize_t		m = into ? read(fd, p, n) : write(fd, p, n);

		if (m < 0 && errno == EINTR)
			continue;
		if (m <= 0)
			return -1;
		p += m;
		n -= (size_t) m;
	}
	return 0;
}

/* A record and its strings (NULL: none) to the runner. */
static void
send_record(side_record *rec, const char *strings[5])
{
	int			i;

	for (i = 0; i < 5; i++)
		rec->len[i] = strings[i] ? strlen(strings[i]) + 1 : 0;
	if (move_all(my_pipe, rec, sizeof(*rec), false) != 0)
		return;
	for (i = 0; i < 5; i++)
		if (rec->len[i] > 0 && move_all(my_pipe, (void *) strings[i], rec->len[i], false) != 0)
			return;
}

void
mbm_count_keep(const mbm_any_build *ab, const char *workload, int round, mbm_run_outcome outcome,
			   mbm_record *run, const char *err, const char *log, double run_s, const char *around)
{
	side_record rec = {.kind = 'R', .round = round, .outcome = outcome, .run_s = run_s};
	/* the run's record crosses the pipe as its line, parsed again by the runner */
	char	   *line = run ? mbm_record_line(run) : NULL;
	const char *strings[5] = {workload, line, err, log, around};

	if (my_side < 0)
		mbm_run_keep(ab, workload, round, true, outcome, run, err, log, run_s, around);
	else
		send_record(&rec, strings);
	free(line);
}

/*
 * A side's process: its own run directory and logs, its own connection to
 * the results database, the build's counted runs; its share of the
 * progress to the runner at the end.  It never returns.
 */
static void
run_side(int k, int fd, int round, bool cells[MBM_COLUMNS][MBM_MAX_WORKLOADS], mbm_count_build_fn count_build)
{
	const mbm_any_build *ab = &rq.measured[k];
	mbm_progress before = progress;
	side_record rec = {.kind = 'E'};
	const char *strings[5] = {NULL};
	char		err[512];
	cpu_set_t	every;
	long		c;
	mbm_count_end end;

	my_side = k;
	my_pipe = fd;
	/* a runner killed outright takes its sides with it, and they their servers */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		_exit(COUNT_STOPPED);
	mbm_proc_forget_inherited();
	/*
	 * The servers are not pinned (the sides' would share the measured CPUs,
	 * and a count does not see where it ran): they inherit this process's
	 * CPUs, every one, not the runner's own
	 */
	mbm_servers.cpus = NULL;
	CPU_ZERO(&every);
	for (c = 0; c < sysconf(_SC_NPROCESSORS_ONLN) && c < CPU_SETSIZE; c++)
		CPU_SET(c, &every);
	sched_setaffinity(0, sizeof(every), &every);
	snprintf(progress.rundir, sizeof(progress.rundir), "%s/side-%d", progress.workdir, k);
	mkdir(progress.rundir, 01777);
	chmod(progress.rundir, 01777);
	snprintf(progress.logdir, sizeof(progress.logdir), "%s/logs/counted-%s-%s", rq.out,
			 mbm_column_dbms(ab), ab->label);
	mkdir(progress.logdir, 01777);
	chmod(progress.logdir, 01777);
	/* the runner's connection is the runner's: a side talks on its own */
	if ((results = mbm_results_connect_again(err, sizeof(err))) == NULL)
	{
		say("%s %s, round %d: %s", mbm_column_dbms(ab), ab->label, round, err);
		_exit(COUNT_BUILD_FAILED);
	}
	end = count_build(ab, round, cells);
	rec.counted_runs = progress.counted_runs - before.counted_runs;
	rec.counted_s = progress.counted_s - before.counted_s;
	rec.copy_s = progress.copy_s - before.copy_s;
	rec.boot_s = progress.boot_s - before.boot_s;
	rec.stop_s = progress.stop_s - before.stop_s;
	rec.progress_run_s = progress.run_s - before.run_s;
	strings[0] = progress.counted_command[k];
	send_record(&rec, strings);
	PQfinish(results);
	fflush(stdout);
	fflush(stderr);
	_exit(end);
}

/* A side started for rq.measured[k]: 0, or -1 (said why). */
static int
start_side(side *s, int k, int round, bool cells[MBM_COLUMNS][MBM_MAX_WORKLOADS], mbm_count_build_fn count_build)
{
	int			fds[2];

	if (pipe(fds) != 0)
	{
		say("cannot make a pipe for a side's counted runs: %s", strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	if (progress.order)
		fflush(progress.order);
	s->measured = k;
	s->pid = fork();
	if (s->pid < 0)
	{
		say("cannot start a side's counted runs: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (s->pid == 0)
	{
		close(fds[0]);
		run_side(k, fds[1], round, cells, count_build);
	}
	close(fds[1]);
	s->fd = fds[0];
	return 0;
}

/* The next record of side s taken: a run kept, or the side's progress added; false at its end. */
static bool
take_record(side *s)
{
	side_record rec;
	char	   *strings[5] = {NULL};
	bool		ok = move_all(s->fd, &rec, sizeof(rec), true) == 0;
	int			i;

	for (i = 0; ok && i < 5; i++)
		if (rec.len[i] > 0)
			ok = (strings[i] = malloc(rec.len[i])) != NULL &&
				move_all(s->fd, strings[i], rec.len[i], true) == 0 && strings[i][rec.len[i] - 1] == '\0';
	if (ok && rec.kind == 'R' && strings[0])
	{
		char		err[256];
		mbm_record *run = strings[1] ? mbm_record_parse(strings[1], err, sizeof(err)) : NULL;

		if (strings[1] && run == NULL)
			say("a side's run could not be read back: %s", err);
		mbm_run_keep(&rq.measured[s->measured], strings[0], rec.round, true,
					 run ? rec.outcome : RUN_FAILED, run, run || !strings[1] ? strings[2] : err,
					 strings[3], rec.run_s, strings[4]);
		mbm_record_free(run);
	}
	else if (ok && rec.kind == 'E')
	{
		progress.counted_runs += rec.counted_runs;
		progress.counted_s += rec.counted_s;
		progress.copy_s += rec.copy_s;
		progress.boot_s += rec.boot_s;
		progress.stop_s += rec.stop_s;
		progress.run_s += rec.progress_run_s;
		/* the manifest names a build's counted server as it first ran */
		if (strings[0] && progress.counted_command[s->measured][0] == '\0')
			snprintf(progress.counted_command[s->measured], sizeof(progress.counted_command[0]), "%s",
					 strings[0]);
	}
	for (i = 0; i < 5; i++)
		free(strings[i]);
	return ok;
}

/* Side s at its end: reaped; how its build's runs ended. */
static mbm_count_end
end_side(side *s)
{
	int			status = 0;

	close(s->fd);
	s->fd = -1;
	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) <= COUNT_STOPPED)
		return (mbm_count_end) WEXITSTATUS(status);
	say("the counted runs of %s %s ended with status %d", mbm_column_dbms(&rq.measured[s->measured]),
		rq.measured[s->measured].label, status);
	return mbm_proc_stop_signal() ? COUNT_STOPPED : COUNT_BUILD_FAILED;
}

mbm_count_end
mbm_count_sides(int round, bool cells[MBM_COLUMNS][MBM_MAX_WORKLOADS], mbm_count_build_fn count_build)
{
	side		sides[3 * MAX_BUILDS];
	long		at_once = sysconf(_SC_NPROCESSORS_ONLN);
	int			started = 0,
				running = 0,
				i;
	bool		told_to_stop = false;
	mbm_count_end end = COUNT_DONE;

	while (running > 0 || (started < rq.nmeasured && end == COUNT_DONE && !mbm_proc_stop_signal()))
	{
		struct pollfd pfd[3 * MAX_BUILDS];
		int			map[3 * MAX_BUILDS];
		int			n = 0;

		while (running < at_once && started < rq.nmeasured && end == COUNT_DONE &&
			   !mbm_proc_stop_signal())
		{
			/* the builds in the round's order, as when they take turns */
			int			k = round % 2 ? started : rq.nmeasured - 1 - started;

			if (start_side(&sides[started], k, round, cells, count_build) != 0)
			{
				end = COUNT_BUILD_FAILED;
				break;
			}
			started++;
			running++;
		}
		if (mbm_proc_stop_signal() && !told_to_stop)
		{
			for (i = 0; i < started; i++)
				if (sides[i].fd >= 0)
					kill(sides[i].pid, SIGTERM);
			told_to_stop = true;
		}
		for (i = 0; i < started; i++)
			if (sides[i].fd >= 0)
			{
				pfd[n].fd = sides[i].fd;
				pfd[n].events = POLLIN;
				map[n++] = i;
			}
		if (n == 0 || poll(pfd, n, 200) <= 0)
			continue;
		for (i = 0; i < n; i++)
			if ((pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) && !take_record(&sides[map[i]]))
			{
				mbm_count_end e = end_side(&sides[map[i]]);

				running--;
				if (e > end)
					end = e;
			}
	}
	return mbm_proc_stop_signal() && end < COUNT_STOPPED ? COUNT_STOPPED : end;
}

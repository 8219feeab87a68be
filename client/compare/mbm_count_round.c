/*
 * mbm_count_round.c — a round's counted runs (--metric instructions).
 *
 * A count does not depend on how long a server has been up, only on what
 * it holds: so one start of a build under valgrind serves all its read
 * cells of the round (the reads change nothing), and each write cell gets a
 * fresh copy of the pristine data and a start of its own.  Every start is
 * made ready first (mbm_server_prewarm: the tables and indexes read into the
 * buffers).  In round 1 the builds take turns, A B (and B A in a round
 * that takes turns again); from round 2, once every cell's window is set,
 * they run side by side on a machine of two CPUs or more
 * (mbm_count_sides.c): a count does not depend on what runs beside it.
 *
 * Each round draws its own key sequence (mbm_count_seed), the same for
 * every build of the round: the pairs stay paired, and their spread says
 * how much a count depends on the keys a run drew.  A cell's window holds
 * the same number of events for every build and round: the first run of
 * the cell counts for FIRST_WINDOW_S of valgrind's time and sets it.
 * Before its window every run warms up on its own connection
 * (mbm_count_warmup_events); a Postgres write checkpoints right before its
 * window, so that which of its pages take a full-page image is a function
 * of the seed alone.
 */
#include "mbm.h"
#include "mbm_count.h"
#include "mbm_count_round.h"
#include "mbm_count_sides.h"
#include "mbm_finish.h"
#include "mbm_kinds.h"
#include "mbm_measure.h"
#include "mbm_proc.h"
#include "mbm_run_one.h"
#include "mbm_state.h"

#include <stdlib.h>
#include <string.h>

/* The first window of a cell, in valgrind's seconds: its events are every later window's */
#define FIRST_WINDOW_S 1.0

/* The time a counted run takes, start and prewarm shared out: measured, else guessed. */
static double
run_estimate(void)
{
	return progress.counted_runs > 0 ? progress.counted_s / progress.counted_runs : 5;
}

/* One counted run of workload w on ab's server, ready; kept, its outcome returned. */
static mbm_run_outcome
count_one(const mbm_any_build *ab, int w, int round, const char *log, const char *around)
{
	int			family = mbm_column(ab);
	const mb_workload *wl = mb_catalog_find(rq.workloads[w]);
	long long  *events = &progress.count_events[family][w];
	mbm_limits	lim = {
		.seconds = *events > 0 ? 0 : FIRST_WINDOW_S,
		.events = *events,
		.counted = true,
		.seed = mbm_count_seed(round),
		.warmup_events = mbm_count_warmup_events(),
		.checkpoint = mbm_kind_checkpoints_writes(ab) && wl != NULL && wl->group == MB_GROUP_WRITE,
	};
	char		err[1024] = "";
	mbm_record *rec = NULL;
	uint64_t	t0 = mbm_now_ns();
	mbm_run_outcome outcome;

	outcome = mbm_server_counted(&run_server, rq.workloads[w], round, &lim, &rec, err, sizeof(err));
	if (outcome != RUN_OK && mbm_proc_stop_signal())
		outcome = RUN_STOPPED;
	if (outcome == RUN_OK && *events == 0)
		*events = (long long) mbm_record_number(rec, "events", 0);
	progress.run_s += (mbm_now_ns() - t0) / 1e9;
	if (outcome != RUN_STOPPED)
		mbm_count_keep(ab, rq.workloads[w], round, outcome, rec, err, log, (mbm_now_ns() - t0) / 1e9,
					   around);
	mbm_record_free(rec);
	return outcome;
}

/*
 * ab's server started once under valgrind on a fresh copy of its pristine
 * data, made ready, and the counted runs of the n workloads ws on it; then
 * stopped and the copy removed.
 */
static mbm_run_outcome
count_on_one_start(const mbm_any_build *ab, const int *ws, int n, int round)
{
	char		copy[1100],
				err[1024] = "",
				around[160];
	double		copy_s,
				start_s;
	uint64_t	t0 = mbm_now_ns(),
				t1;
	mbm_run_outcome outcome = RUN_OK;
	const char *log;
	int			i,
				started;

	snprintf(copy, sizeof(copy), "%s/run", progress.rundir);
	started = mbm_server_start(&run_server, ab, copy,
							   &(mbm_place) {mbm_count_side_port(), mbm_count_side_socket(), "server.log"},
							   true, &copy_s, &start_s, err, sizeof(err));
	log = run_server.log;
	if (started != 0)
	{
		say("%s", err);
		return mbm_proc_stop_signal() ? RUN_STOPPED : RUN_BUILD_FAILED;
	}
	progress.copy_s += copy_s;
	progress.boot_s += start_s;
	snprintf(progress.counted_command[ab - rq.measured], sizeof(progress.counted_command[0]), "%s",
			 run_server.command);
	t1 = mbm_now_ns();
	if (mbm_server_prewarm(&run_server, err, sizeof(err)) != 0)
	{
		say("%s %s: the counted server could not be made ready: %s", mbm_column_dbms(ab), ab->label, err);
		outcome = mbm_proc_stop_signal() ? RUN_STOPPED : RUN_BUILD_FAILED;
	}
	snprintf(around, sizeof(around), "%s start of %d counted run(s): copy %.1f, start %.1f, ready %.1f s",
			 n > 1 ? "one" : "a", n, copy_s, start_s, (mbm_now_ns() - t1) / 1e9);
	for (i = 0; i < n && outcome != RUN_STOPPED && outcome != RUN_BUILD_FAILED; i++)
		if ((outcome = count_one(ab, ws[i], round, log, around)) != RUN_STOPPED && mbm_proc_stop_signal())
			outcome = RUN_STOPPED;
	t1 = mbm_now_ns();
	mbm_server_stop(&run_server);
	mbm_proc_remove_tree(copy);
	progress.stop_s += (mbm_now_ns() - t1) / 1e9;
	progress.counted_runs += n;
	progress.counted_s += (mbm_now_ns() - t0) / 1e9 + copy_s + start_s;
	return outcome;
}

/* The workloads of cells[family] that are reads (writes: false) into ws: how many. */
static int
cells_of(const bool *cells, bool writes, int *ws)
{
	int			n = 0,
				w;

	for (w = 0; w < rq.nworkloads; w++)
	{
		const mb_workload *wl = mb_catalog_find(rq.workloads[w]);

		if (cells[w] && (wl != NULL && wl->group == MB_GROUP_WRITE) == writes)
			ws[n++] = w;
	}
	return n;
}

/* Whether the budget leaves room for runs more counted runs; says so when not. */
static bool
room_for(int runs, int round)
{
	if (rq.max_minutes <= 0 || mbm_elapsed_s() + runs * run_estimate() <= rq.max_minutes * 60)
		return true;
	say("--max-minutes (%g) spent in round %d; the report says about how many more"
		" rounds each undecided cell needs", rq.max_minutes, round);
	return false;
}

/* A build's counted runs of the round: its reads on one start, then each write on a start of its own. */
static mbm_count_end
count_build(const mbm_any_build *ab, int round, bool cells[MBM_COLUMNS][MBM_MAX_WORKLOADS])
{
	const bool *mine = cells[mbm_column(ab)];
	int			ws[MBM_MAX_WORKLOADS];
	int			n = cells_of(mine, false, ws),
				i;
	mbm_run_outcome outcome = RUN_OK;

	if (n > 0 && !room_for(n, round))
		return COUNT_OUT_OF_TIME;
	if (n > 0)
		outcome = count_on_one_start(ab, ws, n, round);
	n = cells_of(mine, true, ws);
	for (i = 0; i < n && outcome != RUN_BUILD_FAILED && outcome != RUN_STOPPED; i++)
	{
		if (!room_for(1, round))
			return COUNT_OUT_OF_TIME;
		outcome = count_on_one_start(ab, &ws[i], 1, round);
	}
	return outcome == RUN_STOPPED || mbm_proc_stop_signal() ? COUNT_STOPPED :
		outcome == RUN_BUILD_FAILED ? COUNT_BUILD_FAILED : COUNT_DONE;
}

bool
mbm_count_round(int round, bool cells[MBM_COLUMNS][MBM_MAX_WORKLOADS])
{
	mbm_count_end end = COUNT_DONE;
	int			k;

	if (mbm_count_sides_possible(cells))
		end = mbm_count_sides(round, cells, count_build);
	else
		for (k = 0; k < rq.nmeasured && end == COUNT_DONE; k++)
			end = count_build(&rq.measured[round % 2 ? k : rq.nmeasured - 1 - k], round, cells);
	mbm_stop_if_signalled();
	if (end == COUNT_BUILD_FAILED)
		mbm_finish("a build failed", MBM_EXIT_FAILED);
	return end == COUNT_DONE;
}

/*
 * mbm_rounds.c — microbench compare's schedule: rounds of runs, the builds
 * taking turns within each (A B, then B A), and between rounds the
 * verdicts so far, so that after --rounds rounds only the cells still
 * undecided run again.
 */
#include "mbm.h"
#include "mbm_rounds.h"
#include "mbm_count_round.h"
#include "mbm_finish.h"
#include "mbm_labels.h"
#include "mbm_machine.h"
#include "mbm_run_one.h"
#include "mbm_state.h"
#include "mbm_turns.h"

#include <stdlib.h>
#include <string.h>

/*
 * Whether the cell of workload is still undecided in any comparison of the
 * base with another build, at the interim level: a twenty-fifth of the
 * report's error rate, since every look at the runs so far is one more
 * chance to stop on a lucky draw (docs/methodology.md).
 */
static int
undecided_cells(const char *metric, double threshold_value, bool (*undecided)[MBM_MAX_WORKLOADS], int *decided,
				int *differences, int *same)
{
	char		interim[32],
				threshold[32],
				precision[32],
				confidence[32];
	char		err[512];
	const char *others[2 * MAX_BUILDS];
	int			nothers = mbm_other_labels(others);
	int			i,
				w;
	int			cells = 0;

	snprintf(interim, sizeof(interim), "%.6f", 1 - (1 - rq.confidence) / 25);
	snprintf(threshold, sizeof(threshold), "%g", threshold_value);
	snprintf(precision, sizeof(precision), "%g", rq.precision);
	snprintf(confidence, sizeof(confidence), "%g", rq.confidence);
	*decided = *differences = *same = 0;
	for (w = 0; w < rq.nworkloads; w++)
	{
		int			col;

		for (col = 0; col < MBM_COLUMNS; col++)
			undecided[col][w] = false;
	}
	for (i = 0; i < nothers; i++)
	{
		const char *params[7] = {mbm_base_label(), others[i], interim, threshold, precision, confidence,
		metric};
		/* with --precision, an interval wider than asked keeps its cell going */
		PGresult   *res = PQexecParams(results,
									   "SELECT c.dbms, c.workload, c.verdict, $5::float8 > 0 AND"
									   " (p.ci_low IS NULL OR greatest(p.ci_high / p.ratio - 1, 1 - p.ci_low / p.ratio) > $5::float8)"
									   " FROM microbench.compare($1, $2, $7, confidence => $3::float8, threshold => $4::float8) c"
									   " JOIN microbench.compare($1, $2, $7, confidence => $6::float8, threshold => $4::float8) p"
									   " USING (dbms, workload)"
									   " WHERE c.base_runs > 0 AND c.other_runs > 0",
									   7, NULL, params, NULL, NULL, 0);
		int			r;

		if (PQresultStatus(res) != PGRES_TUPLES_OK)
		{
			snprintf(err, sizeof(err), "%s", PQresultErrorMessage(res));
			say("cannot ask the results database which cells are decided: %s", err);
			PQclear(res);
			return -1;
		}
		for (r = 0; r < PQntuples(res); r++)
		{
			const char *verdict = PQgetvalue(res, r, 2);
			const char *dbms = PQgetvalue(res, r, 0);
			mbm_column_id family = mbm_column_of_dbms(dbms);

			cells++;
			if (strcmp(verdict, "inconclusive") == 0 || strcmp(PQgetvalue(res, r, 3), "t") == 0)
			{
				for (w = 0; w < rq.nworkloads; w++)
					if (strcmp(rq.workloads[w], PQgetvalue(res, r, 1)) == 0)
						undecided[family][w] = true;
			}
			if (strcmp(verdict, "inconclusive") != 0)
			{
				(*decided)++;
				*differences += strcmp(verdict, "difference") == 0;
				*same += strcmp(verdict, "equivalent") == 0;
			}
		}
		PQclear(res);
	}
	return cells;
}

/* Cells still to run: [metric][column][workload] (mbm_column). */
typedef bool undecided_map[MBM_METRICS][MBM_COLUMNS][MBM_MAX_WORKLOADS];

/* Whether the request asked for metric m. */
static bool
asked(mbm_metric m)
{
	return m == MBM_TIMED ? rq.timed : rq.counted;
}

/* Whether workload w writes. */
static bool
is_write(int w)
{
	const mb_workload *wl = mb_catalog_find(rq.workloads[w]);

	return wl != NULL && wl->group == MB_GROUP_WRITE;
}

/*
 * Whether workload w's timed runs take --turns on live servers: reads only.
 * A write's later turn would read what the earlier ones wrote, and every
 * run of a write reads the pristine data.
 */
static bool
takes_turns(int w)
{
	return rq.turns > 1 && !is_write(w);
}

/* Whether build ab runs workload w, timed or counted, in round. */
static bool
runs_in_round(undecided_map undecided, mbm_metric m, const mbm_any_build *ab, int w, int round)
{
	if (!asked(m))
		return false;
	return round <= rq.rounds || undecided[m][mbm_column(ab)][w];
}

/*
 * --keep-up: a round's timed runs, a DBMS (a report column) at a time, on
 * one start of each of its builds: its workloads with a cell to run, the
 * reads first (a write's run loads its tables again, the reads never see
 * what a write did).  False when the budget ran out.
 */
static bool
keep_up_round(int round, undecided_map undecided)
{
	int			c,
				k,
				w;

	for (c = 0; c < MBM_COLUMNS; c++)
	{
		mbm_column_id column = (mbm_column_id) (round % 2 ? c : MBM_COLUMNS - 1 - c);
		const mbm_any_build *builds[MAX_BUILDS];
		int			ws[MBM_MAX_WORKLOADS];
		int			nbuilds = 0,
					nws = 0,
					writes;

		for (k = 0; k < rq.nmeasured; k++)
		{
			const mbm_any_build *ab = &rq.measured[(c + round) % 2 ? rq.nmeasured - 1 - k : k];

			if (mbm_column(ab) == column)
				builds[nbuilds++] = ab;
		}
		for (writes = 0; writes < 2; writes++)
			for (w = 0; w < rq.nworkloads; w++)
				if (nbuilds > 0 && is_write(w) == writes &&
					runs_in_round(undecided, MBM_TIMED, builds[0], w, round))
					ws[nws++] = w;
		if (nws == 0)
			continue;
		/* a DBMS's runs that would not end within the budget do not begin */
		if (rq.max_minutes > 0 &&
			mbm_elapsed_s() + nbuilds * nws * rq.turns * mbm_run_estimate() > rq.max_minutes * 60)
		{
			say("--max-minutes (%g) spent in round %d; the report says about how many more"
				" rounds each undecided cell needs", rq.max_minutes, round);
			return false;
		}
		if (mbm_turns_keep_up(builds, nbuilds, ws, nws, round) == RUN_BUILD_FAILED)
			mbm_finish("a build failed", MBM_EXIT_FAILED);
		mbm_stop_if_signalled();
	}
	return true;
}

/*
 * One round: for each workload with a timed cell to run, the builds take
 * turns, A B then B A, the order turning from one step and round to the
 * next; with --turns, a DBMS's builds run a read's timed runs as turns on
 * servers up side by side (mbm_turns.c).  Then the counted cells: each
 * build's server is started under valgrind once for all its reads and once
 * for each write (mbm_count_round.c).  False when the budget ran out
 * before the round ended.
 */
static bool
run_round(int round, undecided_map undecided)
{
	bool		counted[MBM_COLUMNS][MBM_MAX_WORKLOADS];
	int			step = 0;
	int			w,
				k;

	if (rq.keep_up && !keep_up_round(round, undecided))
		return false;
	for (w = 0; w < rq.nworkloads && !rq.keep_up; w++)
	{
		const mbm_any_build *turns[MBM_COLUMNS][MAX_BUILDS];
		int			nturns[MBM_COLUMNS] = {0};
		int			runs_here = 0;
		int			family;

		for (k = 0; k < rq.nmeasured; k++)
			runs_here += runs_in_round(undecided, MBM_TIMED, &rq.measured[k], w, round) *
				(takes_turns(w) ? rq.turns : 1);
		if (runs_here == 0)
			continue;
		step++;
		/* a step that would not end within the budget does not begin */
		if (rq.max_minutes > 0 &&
			mbm_elapsed_s() + runs_here * mbm_run_estimate() > rq.max_minutes * 60)
		{
			say("--max-minutes (%g) spent in round %d; the report says about how many more"
				" rounds each undecided cell needs", rq.max_minutes, round);
			return false;
		}
		for (k = 0; k < rq.nmeasured; k++)
		{
			const mbm_any_build *ab = &rq.measured[(step + round) % 2 ? rq.nmeasured - 1 - k : k];
			mbm_run_outcome outcome;

			if (!runs_in_round(undecided, MBM_TIMED, ab, w, round))
				continue;
			if (takes_turns(w))
			{
				family = mbm_column(ab);
				turns[family][nturns[family]++] = ab;
				continue;
			}
			outcome = mbm_run_one(ab, rq.workloads[w], round);
			mbm_stop_if_signalled();
			if (outcome == RUN_BUILD_FAILED)
				mbm_finish("a build failed", MBM_EXIT_FAILED);
		}
		for (family = 0; family < MBM_COLUMNS; family++)
		{
			if (nturns[family] == 0)
				continue;
			if (mbm_turns_run(turns[family], nturns[family], rq.workloads[w], round) ==
				RUN_BUILD_FAILED)
				mbm_finish("a build failed", MBM_EXIT_FAILED);
			mbm_stop_if_signalled();
		}
	}
	memset(counted, 0, sizeof(counted));
	for (k = 0; k < rq.nmeasured; k++)
		for (w = 0; w < rq.nworkloads; w++)
			counted[mbm_column(&rq.measured[k])][w] |= runs_in_round(undecided, MBM_COUNTED, &rq.measured[k], w, round);
	return !rq.counted || mbm_count_round(round, counted);
}

/*
 * With --cache-sim the report of estimated cycles is asked for too, and a
 * cell goes on while its cycles are undecided: the simulated caches see
 * where each server start put its memory, so a cell's cycles spread more
 * than its instructions.  Marks those cells in undecided and says how many
 * are decided at the end of line; false if the results database failed.
 */
static bool
undecided_cycles(double threshold, bool (*undecided)[MBM_MAX_WORKLOADS], char *line, size_t linelen)
{
	bool		cycles[MBM_COLUMNS][MBM_MAX_WORKLOADS];
	int			decided,
				differences,
				same,
				cells,
				col,
				w;

	cells = undecided_cells("estimated_cycles", threshold, cycles, &decided, &differences, &same);
	if (cells < 0)
		return false;
	for (col = 0; col < MBM_COLUMNS; col++)
		for (w = 0; w < rq.nworkloads; w++)
			undecided[col][w] |= cycles[col][w];
	snprintf(line + strlen(line), linelen - strlen(line), "; estimated cycles %d of %d decided", decided, cells);
	return true;
}

/* After a round: which cells of each metric are still undecided, and a line that says how many are. */
static void
judge_round(int round, undecided_map undecided)
{
	char		line[512] = "";
	char		c1[16];
	mbm_metric	m;

	for (m = MBM_TIMED; m < MBM_METRICS; m++)
	{
		int			decided,
					differences,
					same,
					cells;
		double		threshold = m == MBM_TIMED ? rq.threshold : rq.count_threshold;

		if (!asked(m))
			continue;
		cells = undecided_cells(m == MBM_TIMED ? "qps" : "instructions", threshold, undecided[m],
								&decided, &differences, &same);
		if (cells < 0)
			mbm_finish("the results database failed", MBM_EXIT_FAILED);
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 "%s%s%d of %d cell(s) decided (%d difference(s), %d the same within %g%%)",
				 line[0] ? "; " : "", rq.timed && rq.counted ? (m == MBM_TIMED ? "QPS " : "instructions ") : "",
				 decided, cells, differences, same, threshold * 100);

		if (m == MBM_COUNTED && rq.cache_sim && !undecided_cycles(threshold, undecided[m], line, sizeof(line)))
			mbm_finish("the results database failed", MBM_EXIT_FAILED);
	}
	progress.rounds_done = round;
	printf("== after round %d: %s, %s in\n", round, line, mbm_clock_text(mbm_elapsed_s(), c1));
	fflush(stdout);
}

/*
 * Rounds: every cell for --rounds rounds, then only the cells still
 * undecided, until none is or --max-minutes is spent (0: exactly
 * --rounds rounds).
 */
void
mbm_rounds_run(void)
{
	undecided_map *undecided = calloc(1, sizeof(undecided_map));
	int			round;

	for (round = 1;; round++)
	{
		int			w,
					k,
					cells_to_run = 0;

		for (w = 0; w < rq.nworkloads; w++)
		{
			bool		any = false;

			for (mbm_metric m = MBM_TIMED; m < MBM_METRICS; m++)
				for (k = 0; k < rq.nmeasured; k++)
					any |= runs_in_round(*undecided, m, &rq.measured[k], w, round);
			cells_to_run += any;
		}
		if (cells_to_run == 0 || (rq.max_minutes == 0 && round > rq.rounds))
			break;
		/* the machine checked before the timed runs of every round */
		if (rq.timed && round == 1 && rq.wait_quiet > 0)
			mbm_machine_wait_quiet(rq.wait_quiet);
		else if (rq.timed)
			(void) mbm_machine_check(round);
		mbm_stop_if_signalled();
		printf("== round %d: %d workload(s)\n", round, cells_to_run);
		fflush(stdout);
		if (!run_round(round, *undecided))
			break;
		judge_round(round, *undecided);
	}
	free(undecided);
}

/*
 * mbm_rounds.c — microbench compare's schedule: rounds of runs, the builds
 * taking turns within each (A B, then B A), and between rounds the
 * verdicts so far, so that after --rounds rounds only the cells still
 * undecided run again.
 */
#include "mbm.h"
#include "mbm_compare.h"

#include <stdlib.h>
#include <string.h>

/*
 * Whether the cell of workload is still undecided in any comparison of the
 * base with another build, at the interim level: a twenty-fifth of the
 * report's error rate, since every look at the runs so far is one more
 * chance to stop on a lucky draw (docs/methodology.md).
 */
static int
undecided_cells(bool (*undecided)[64], int *decided, int *differences, int *same)
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
	snprintf(threshold, sizeof(threshold), "%g", rq.threshold);
	snprintf(precision, sizeof(precision), "%g", rq.precision);
	snprintf(confidence, sizeof(confidence), "%g", rq.confidence);
	*decided = *differences = *same = 0;
	for (w = 0; w < rq.nworkloads; w++)
		undecided[0][w] = undecided[1][w] = false;
	for (i = 0; i < nothers; i++)
	{
		const char *params[6] = {mbm_base_label(), others[i], interim, threshold, precision, confidence};
		/* with --precision, an interval wider than asked keeps its cell going */
		PGresult   *res = PQexecParams(results,
									   "SELECT c.dbms, c.workload, c.verdict, $5::float8 > 0 AND"
									   " (p.ci_low IS NULL OR greatest(p.ci_high / p.ratio - 1, 1 - p.ci_low / p.ratio) > $5::float8)"
									   " FROM microbench.compare($1, $2, confidence => $3::float8, threshold => $4::float8) c"
									   " JOIN microbench.compare($1, $2, confidence => $6::float8, threshold => $4::float8) p"
									   " USING (dbms, workload)"
									   " WHERE c.base_runs > 0 AND c.other_runs > 0",
									   6, NULL, params, NULL, NULL, 0);
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
			int			family = strcmp(PQgetvalue(res, r, 0), "postgres") == 0 ? 0 : 1;

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

/*
 * One round: for each workload with a cell to run, the builds take turns,
 * A B then B A, the order turning from one step and round to the next.
 * False when the budget ran out before the round ended.
 */
static bool
run_round(int round, bool (*undecided)[64])
{
	int			step = 0;
	int			w,
				k;

	for (w = 0; w < rq.nworkloads; w++)
	{
		int			runs_here = 0;

		if (round > rq.rounds && !undecided[0][w] && !undecided[1][w])
			continue;
		step++;
		for (k = 0; k < rq.nall; k++)
			runs_here += round <= rq.rounds || undecided[rq.all[k].pg ? 0 : 1][w];
		/* a step that would not end within the budget does not begin */
		if (rq.max_minutes > 0 &&
			mbm_elapsed_s() + runs_here * mbm_run_estimate() > rq.max_minutes * 60)
		{
			say("--max-minutes (%g) spent in round %d; the report says about how many more"
				" rounds each undecided cell needs", rq.max_minutes, round);
			return false;
		}
		for (k = 0; k < rq.nall; k++)
		{
			const mbm_any_build *ab = &rq.all[(step + round) % 2 ? rq.nall - 1 - k : k];
			mbm_run_outcome outcome;

			if (round > rq.rounds && !undecided[ab->pg ? 0 : 1][w])
				continue;
			outcome = mbm_run_one(ab, rq.workloads[w], round);
			mbm_stop_if_signalled();
			if (outcome == RUN_BUILD_FAILED)
				mbm_finish("a build failed", MBM_EXIT_FAILED);
		}
	}
	return true;
}

/*
 * Rounds: every cell for --rounds rounds, then only the cells still
 * undecided, until none is or --max-minutes is spent (0: exactly
 * --rounds rounds).
 */
void
mbm_rounds_run(void)
{
	bool		(*undecided)[64] = calloc(2, sizeof(*undecided));
	int			round;

	for (round = 1;; round++)
	{
		int			w,
					cells_to_run = 0,
					decided,
					differences,
					same,
					cells;
		char		c1[16];

		for (w = 0; w < rq.nworkloads; w++)
			cells_to_run += round <= rq.rounds || undecided[0][w] || undecided[1][w];
		if (cells_to_run == 0 || (rq.max_minutes == 0 && round > rq.rounds))
			break;
		printf("== round %d: %d workload(s)\n", round, cells_to_run);
		fflush(stdout);
		if (!run_round(round, undecided))
			break;
		cells = undecided_cells(undecided, &decided, &differences, &same);
		progress.rounds_done = round;
		if (cells >= 0)
			printf("== after round %d: %d of %d cell(s) decided (%d difference(s), %d the same"
				   " within %g%%), %s in\n", round, decided, cells, differences, same,
				   rq.threshold * 100, mbm_clock_text(mbm_elapsed_s(), c1));
		fflush(stdout);
		if (cells < 0)
			mbm_finish("the results database failed", MBM_EXIT_FAILED);
	}
	free(undecided);
}

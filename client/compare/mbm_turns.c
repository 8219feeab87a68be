/*
 * mbm_turns.c — --turns N: one workload's timed runs of a round as turns
 * on servers up side by side.  Each build of the DBMS gets a fresh copy of
 * its pristine data and a fresh start, all of them at once; then the
 * builds take N short turns each, A B, B A, A B, ..., so that a change in
 * the host's speed lasting seconds falls on both builds alike instead of
 * on one run of a pair; then every server is stopped and its copy removed.
 * The round's turns of a build are one start, so the model (the results
 * schema's compare()) averages them into one value a side: a start's luck
 * is counted once however many turns it ran.
 *
 * --keep-up: the builds' servers are started once a round, and every
 * workload of the round takes its turns on them, the reads first; before
 * each run of a write its server's tables are loaded again as the pristine
 * data has them, so that every run reads the same data as on a fresh
 * start.  A round's runs of a build are still one start, and the model
 * still counts that start once a workload.
 */
#include "mbm.h"
#include "mbm_turns.h"
#include "mbm_kinds.h"
#include "mb_catalog.h"
#include "mbm_proc.h"
#include "mbm_run_one.h"
#include "mbm_state.h"

#include <stdlib.h>
#include <string.h>

/*
 * The warm-up of a turn after a start's first: the data is in the server's
 * buffers already, only the CPU's caches and the new session's own (plans,
 * catalogue) are cold.  A tenth of the window, at most --warmup.
 */
static double
later_turn_warmup(void)
{
	return rq.seconds / 10 < rq.warmup ? rq.seconds / 10 : rq.warmup;
}

/* Every server of the turns stopped and its copy removed. */
static void
stop_all(int n, char copies[][1100])
{
	int			k;

	for (k = 0; k < n; k++)
	{
		mbm_server_stop(&turn_servers[k]);
		if (copies[k][0])
			mbm_proc_remove_tree(copies[k]);
		copies[k][0] = '\0';
	}
}

/* The servers of abs, each on a fresh copy of its pristine data: RUN_OK, or how it failed (all stopped). */
static mbm_run_outcome
start_all(const mbm_any_build *const *abs, int n, int round, char copies[][1100],
		  char instances[][160])
{
	char		sockname[32],
				logname[32],
				err[1024] = "";
	int			k;

	memset(copies, 0, MAX_BUILDS * sizeof(copies[0]));
	for (k = 0; k < n; k++)
	{
		const mbm_any_build *ab = abs[k];
		double		copy_s,
					start_s;

		snprintf(copies[k], sizeof(copies[k]), "%s/turn-%d", progress.workdir, k);
		snprintf(sockname, sizeof(sockname), "my-%d.sock", k);
		snprintf(logname, sizeof(logname), "server-%d.log", k);
		if (mbm_server_start(&turn_servers[k], ab, copies[k],
							 &(mbm_place) {RUN_PORT + 1 + k, sockname, logname}, false,
							 &copy_s, &start_s, err, sizeof(err)) != 0)
		{
			copies[k][0] = '\0';	/* removed already */
			say("%s", err);
			stop_all(n, copies);
			return mbm_proc_stop_signal() ? RUN_STOPPED : RUN_BUILD_FAILED;
		}
		progress.copy_s += copy_s;
		progress.boot_s += start_s;
		/* MariaDB tells its start to the second: two started in one second would be one */
		snprintf(instances[k], sizeof(instances[k]), "%s round %d turns, pid %d", ab->label, round,
				 (int) turn_servers[k].pid);
	}
	return RUN_OK;
}

/*
 * The turns of one workload on the servers up: A B, B A, ...: each build as
 * often first as last.  reload: a build's tables loaded again before each
 * of its runs (a write's, on a server kept up).  RUN_OK, RUN_STOPPED, or
 * RUN_BUILD_FAILED when a reload failed.
 */
static mbm_run_outcome
take_turns(const mbm_any_build *const *abs, int n, const char *workload, int round, bool reload,
		   char instances[][160])
{
	char		err[1024] = "";
	mbm_run_outcome outcome = RUN_OK;
	int			t,
				j,
				k;

	for (t = 0; t < rq.turns && outcome != RUN_STOPPED; t++)
	{
		for (j = 0; j < n; j++)
		{
			const mbm_any_build *ab;
			mbm_record *rec = NULL;
			uint64_t	r0;
			double		run_s;

			k = t % 2 ? n - 1 - j : j;
			ab = abs[k];
			if (reload)
			{
				r0 = mbm_now_ns();
				if (mbm_server_reload(&turn_servers[k], err, sizeof(err)) != 0)
				{
					say("%s %s: its tables could not be loaded again for %s: %s", mbm_column_dbms(ab),
						ab->label, workload, err);
					return mbm_proc_stop_signal() ? RUN_STOPPED : RUN_BUILD_FAILED;
				}
				progress.reload_s += (mbm_now_ns() - r0) / 1e9;
			}
			r0 = mbm_now_ns();
			outcome = mbm_run_timed(ab, &turn_servers[k], instances[k], workload, round,
									t == 0 ? rq.warmup : later_turn_warmup(), &rec, err, sizeof(err));
			run_s = (mbm_now_ns() - r0) / 1e9;
			progress.run_s += run_s;
			if (outcome == RUN_STOPPED)
			{
				mbm_record_free(rec);
				break;
			}
			mbm_run_keep(ab, workload, round, false, outcome, rec, err, turn_servers[k].log, run_s, NULL);
			mbm_record_free(rec);
		}
	}
	return outcome == RUN_STOPPED ? RUN_STOPPED : RUN_OK;
}

mbm_run_outcome
mbm_turns_run(const mbm_any_build *const *abs, int n, const char *workload, int round)
{
	char		copies[MAX_BUILDS][1100];
	char		instances[MAX_BUILDS][160];
	mbm_run_outcome outcome;
	uint64_t	t1;

	if ((outcome = start_all(abs, n, round, copies, instances)) != RUN_OK)
		return outcome;
	outcome = take_turns(abs, n, workload, round, false, instances);
	t1 = mbm_now_ns();
	stop_all(n, copies);
	progress.stop_s += (mbm_now_ns() - t1) / 1e9;
	return outcome;
}

mbm_run_outcome
mbm_turns_keep_up(const mbm_any_build *const *abs, int n, const int *ws, int nws, int round)
{
	char		copies[MAX_BUILDS][1100];
	char		instances[MAX_BUILDS][160];
	mbm_run_outcome outcome;
	uint64_t	t1;
	int			i;

	if ((outcome = start_all(abs, n, round, copies, instances)) != RUN_OK)
		return outcome;
	for (i = 0; i < nws && outcome == RUN_OK; i++)
	{
		const mb_workload *wl = mb_catalog_find(rq.workloads[ws[i]]);

		outcome = take_turns(abs, n, rq.workloads[ws[i]], round,
							 wl != NULL && wl->group == MB_GROUP_WRITE, instances);
		if (outcome == RUN_OK && mbm_proc_stop_signal())
			outcome = RUN_STOPPED;
	}
	t1 = mbm_now_ns();
	stop_all(n, copies);
	progress.stop_s += (mbm_now_ns() - t1) / 1e9;
	return outcome;
}

/*
 * mbm_finish.c — every way out of microbench compare, done or stopped:
 * servers stopped, the reports and manifest written from the runs so far,
 * the work directory removed, no child left.
 */
#include "mbm.h"
#include "mbm_finish.h"
#include "mbm_fleet.h"
#include "mbm_kinds.h"
#include "mbm_pgserver.h"
#include "mbm_proc.h"
#include "mbm_reports.h"
#include "mbm_setup.h"
#include "mbm_state.h"

#include <signal.h>
#include <stdlib.h>

void
mbm_finish(const char *status, int code)
{
	int			n = progress.runs + progress.failed_runs;

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	snprintf(progress.status, sizeof(progress.status), "%s", status);
	mbm_server_stop(&run_server);
	for (int k = 0; k < MAX_BUILDS; k++)
		mbm_server_stop(&turn_servers[k]);
	mbm_setup_stop();
	if (progress.order)
	{
		mbm_reports_write();
		mbm_manifest_write();
	}
	if (n > 0)
	{
		char		reload[48] = "";

		if (rq.keep_up)
			snprintf(reload, sizeof(reload), ", reload %.2f", progress.reload_s / n);
		printf("%d run(s) in %s: per run %.1f s measured, %.2f s around it (copy %.2f, start %.2f,"
			   " stop %.2f, remove %.2f%s)%s\n", n, mbm_clock_text(mbm_elapsed_s(), (char[16]) {0}),
			   progress.run_s / n,
			   (progress.copy_s + progress.boot_s + progress.stop_s + progress.remove_s +
				progress.reload_s) / n,
			   progress.copy_s / n, progress.boot_s / n, progress.stop_s / n,
			   progress.remove_s / n, reload,
			   progress.failed_runs ? "; some runs failed, see manifest.json" : "");
	}
	mbm_fleet_finish();
	PQfinish(results);
	results = NULL;
	mbm_pg_stop(&results_server);
	mbm_proc_kill_all();
	if (progress.order)
		fclose(progress.order);
	if (progress.workdir[0])
	{
		if (rq.keep)
			printf("kept: %s\n", progress.workdir);
		else
			mbm_proc_remove_tree(progress.workdir);
	}
	fflush(stdout);
	exit(code);
}

void
mbm_stop_if_signalled(void)
{
	int			sig = mbm_proc_stop_signal();

	if (sig)
	{
		char		status[64];

		say("interrupted by SIG%s: servers stopped; the runs finished so far are in %s/runs.jsonl",
			sig == SIGINT ? "INT" : sig == SIGTERM ? "TERM" : sig == SIGHUP ? "HUP" : "PIPE", rq.out);
		snprintf(status, sizeof(status), "interrupted by SIG%s",
				 sig == SIGINT ? "INT" : sig == SIGTERM ? "TERM" : sig == SIGHUP ? "HUP" : "PIPE");
		mbm_finish(status, 128 + sig);
	}
}

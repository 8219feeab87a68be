/*
 * mbm_run_one.c — one timed run of microbench compare: a fresh copy of
 * the build's pristine data, a fresh start of its server pinned to the
 * measured CPUs, the measurement (mbm_measure.c), the server stopped and
 * the copy removed; the run's row kept in runs.jsonl and loaded into
 * the results database at once, so nothing measured is lost, with the
 * fleet's tags and pushed to its central database (mbm_fleet.c).  A timed
 * run on a server that is up and the keeping of a run are shared with
 * the turns of mbm_turns.c, the start and the keeping with the counted
 * runs of mbm_count_round.c.
 */
#include "mbm.h"
#include "mbm_run_one.h"
#include "mbm_fleet.h"
#include "mbm_kinds.h"
#include "mbm_machine.h"
#include "mbm_measure.h"
#include "mbm_proc.h"
#include "mbm_setup.h"
#include "mbm_state.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The time one run takes from copy to removal: measured, else guessed. */
double
mbm_run_estimate(void)
{
	if (progress.runs + progress.failed_runs > 0)
		return (progress.run_s + progress.copy_s + progress.boot_s + progress.stop_s +
				progress.remove_s + progress.reload_s) / (progress.runs + progress.failed_runs);
	return rq.seconds + rq.warmup + 3;
}

/* The run's record, written once: kept in runs.jsonl and loaded into the results database. */
static void
record_run(mbm_record *rec)
{
	char		path[1200];
	FILE	   *f;
	char	   *line;
	const char *ins[1];
	char		err[512];

	mbm_fleet_tag(rec);
	if ((line = mbm_record_line(rec)) == NULL)
	{
		say("out of memory for a run's record");
		return;
	}
	ins[0] = line;
	snprintf(path, sizeof(path), "%s/runs.jsonl", rq.out);
	if ((f = fopen(path, "a")) != NULL)
	{
		fprintf(f, "%s\n", line);
		fclose(f);
	}
	if (mbm_pg_exec(results, "SELECT microbench.push_run($1::jsonb)", 1, ins, NULL, 0, err,
					sizeof(err)) != 0)
		say("the results database did not take a run (%s); it is in %s", err, path);
	mbm_fleet_push(line);
	free(line);
}

/*
 * The run's figure on its progress line: QPS, or a counted run's
 * instructions per query; then what the run took and, for a run on a
 * fresh start, the copy, start and stop around it (around: NULL for a turn).
 */
static void
print_run(const mbm_any_build *ab, const char *workload, int round, bool counted, const mbm_record *rec,
		  double run_s, const char *around)
{
	double		queries = mbm_record_number(rec, "queries", 0);
	double		left = rq.max_minutes > 0 ? rq.max_minutes * 60 - mbm_elapsed_s() : -1;
	char		figure[64];
	char		c1[16],
				c2[16];

	if (counted)
		snprintf(figure, sizeof(figure), "%10.0f instr/query",
				 queries > 0 ? mbm_record_number(rec, "instructions", 0) / queries : 0);
	else
		snprintf(figure, sizeof(figure), "%10.0f QPS", mbm_record_number(rec, "qps", 0));
	printf("   round %d  %-8s %-26s %-10s %s  (run %.1f s%s%s; %s in%s%s)\n", round,
		   mbm_column_dbms(ab), workload, ab->label, figure, run_s,
		   around ? "; " : "", around ? around : "", mbm_clock_text(mbm_elapsed_s(), c1),
		   left >= 0 ? ", " : "", left >= 0 ? strcat(mbm_clock_text(left, c2), " left") : "");
	fflush(stdout);
}

void
mbm_run_keep(const mbm_any_build *ab, const char *workload, int round, bool counted,
			 mbm_run_outcome outcome, mbm_record *rec, const char *err, const char *log, double run_s,
			 const char *around)
{
	const char *dbms = mbm_column_dbms(ab);

	fprintf(progress.order, "%d %s %s %s %s %s\n", round, dbms, workload, ab->label,
			outcome == RUN_OK ? "ok" : "failed", counted ? "instructions" : "qps");
	if (outcome != RUN_OK)
	{
		progress.failed_runs++;
		printf("   round %d  %-8s %-26s %s: FAILED (%s); see %s\n", round, dbms, workload, ab->label,
			   err, log);
		fflush(stdout);
		return;
	}
	record_run(rec);
	progress.runs++;
	print_run(ab, workload, round, counted, rec, run_s, around);
}

mbm_run_outcome
mbm_run_timed(const mbm_any_build *ab, const mbm_server *s, const char *instance, const char *workload,
			  int round, double warmup, mbm_record **rec, char *err, size_t errlen)
{
	mbm_machine_reading *neighbours = mbm_machine_begin();
	mbm_limits	timed = {.seconds = rq.seconds, .warmup = warmup};
	mbm_run_outcome outcome;
	char		note[768],
				what[256];
	double		share;

	outcome = mbm_server_timed(s, instance, workload, round, &timed, rec, err, errlen);
	share = mbm_machine_end(neighbours, s->pid, note, sizeof(note));
	if (outcome == RUN_OK)
	{
		/* the share of a CPU other processes took while it ran, and the note naming them */
		mbm_record_set_double(*rec, "busy_share", share, "%.4f");
		mbm_record_set_text(*rec, "busy_note", note);
		snprintf(what, sizeof(what), "%s %s round %d %s",
				 mbm_column_short(ab),
				 workload, round, ab->label);
		mbm_machine_note_run(what, share, note);
		if (mbm_machine_busy(share))
			printf("   round %d  %-8s %-26s %-10s busy: %s\n", round,
				   mbm_column_dbms(ab), workload, ab->label, note);
	}
	if (outcome != RUN_OK && mbm_proc_stop_signal())
		outcome = RUN_STOPPED;
	return outcome;
}

/*
 * One timed run of build ab: a fresh copy of its pristine data, a fresh
 * start of its server, the run, the server stopped and the copy removed.
 */
mbm_run_outcome
mbm_run_one(const mbm_any_build *ab, const char *workload, int round)
{
	char		copy[1100];
	char		err[1024] = "";
	uint64_t	t2,
				t3,
				t4,
				t5;
	double		copy_s,
				start_s;
	mbm_run_outcome outcome;
	mbm_record *rec = NULL;
	const char *log;
	char		around[128];

	snprintf(copy, sizeof(copy), "%s/run", progress.rundir);
	if (mbm_server_start(&run_server, ab, copy, &(mbm_place) {RUN_PORT, "my.sock", "server.log"}, false,
						 &copy_s, &start_s, err, sizeof(err)) != 0)
	{
		say("%s", err);
		return mbm_proc_stop_signal() ? RUN_STOPPED : RUN_BUILD_FAILED;
	}
	log = run_server.log;
	t2 = mbm_now_ns();
	outcome = mbm_run_timed(ab, &run_server, NULL, workload, round, rq.warmup, &rec, err, sizeof(err));
	t3 = mbm_now_ns();
	mbm_server_stop(&run_server);
	t4 = mbm_now_ns();
	mbm_proc_remove_tree(copy);
	t5 = mbm_now_ns();

	progress.copy_s += copy_s;
	progress.boot_s += start_s;
	progress.run_s += (t3 - t2) / 1e9;
	progress.stop_s += (t4 - t3) / 1e9;
	progress.remove_s += (t5 - t4) / 1e9;
	if (outcome != RUN_STOPPED)
	{
		snprintf(around, sizeof(around), "copy %.1f, start %.1f, stop %.1f s", copy_s, start_s,
				 (t5 - t3) / 1e9);
		mbm_run_keep(ab, workload, round, false, outcome, rec, err, log, (t3 - t2) / 1e9, around);
	}
	mbm_record_free(rec);
	return outcome;
}

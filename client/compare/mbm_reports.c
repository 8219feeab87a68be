/*
 * mbm_reports.c — what microbench compare leaves in --out besides
 * runs.jsonl: the reports (text, markdown, SVG) with the runs that failed
 * under them, and manifest.json, which says what ran and in which order.
 */
#include "mbm.h"
#include "mbm_reports.h"
#include "mbm_setup.h"
#include "mbm_fleet.h"
#include "mbm_count.h"
#include "mbm_kinds.h"
#include "mbm_labels.h"
#include "mbm_machine.h"
#include "mbm_state.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* One line of the order run (work directory's "order"): a run and how it ended. */
typedef struct order_entry
{
	int			round;
	char		dbms[32];
	char		workload[64];
	char		label[64];
	char		status[16];		/* "ok" or "failed" */
	char		metric[16];		/* "qps" or "instructions": timed or counted */
} order_entry;

/* The order run so far, to read with next_order_entry; NULL if it cannot be opened. */
static FILE *
open_order(void)
{
	char		path[1200];

	fflush(progress.order);
	snprintf(path, sizeof(path), "%s/order", progress.workdir);
	return fopen(path, "r");
}

static bool
next_order_entry(FILE *order, order_entry *e)
{
	char		line[512];

	while (fgets(line, sizeof(line), order))
		if (sscanf(line, "%d %31s %63s %63s %15s %15s", &e->round, e->dbms, e->workload, e->label,
				   e->status, e->metric) == 6)
			return true;
	return false;
}

/*
 * The runs that failed, per cell and build, from the order run: a line
 * each under the report, so a cell with fewer pairs than its neighbours
 * says why.  Prints nothing when every run finished.
 */
static void
print_failed_runs(FILE *f, const char *lead, const char *metric)
{
	char		cells[256][192];
	int			counts[256];
	int			ncells = 0,
				i;
	order_entry e;
	FILE	   *order;

	if (progress.failed_runs == 0 || (order = open_order()) == NULL)
		return;
	while (next_order_entry(order, &e))
	{
		char		cell[192];

		/* a counted run fails for its instructions and its estimated cycles alike */
		if (strcmp(e.status, "failed") != 0 ||
			strcmp(e.metric, strcmp(metric, "qps") == 0 ? "qps" : "instructions") != 0)
			continue;
		snprintf(cell, sizeof(cell), "%s %s, %s", e.dbms, e.workload, e.label);
		for (i = 0; i < ncells && strcmp(cells[i], cell) != 0; i++)
			;
		if (i == ncells && ncells < 256)
		{
			snprintf(cells[ncells], sizeof(cells[0]), "%s", cell);
			counts[ncells++] = 0;
		}
		if (i < ncells)
			counts[i]++;
	}
	fclose(order);
	for (i = 0; i < ncells; i++)
		fprintf(f, "%sfailed: %s: %d run(s), left out of the cell (manifest.json's order, logs/server.log)\n",
				lead, cells[i], counts[i]);
}

/*
 * The reports of one metric, named report.EXT or, for the second metric
 * of --metric both, report-instructions.EXT: text, markdown and SVG from
 * the results database's own report functions (the text one also on
 * stdout), the failed runs under the first two.
 */
static void
write_metric_reports(const char *metric, double threshold_value, const char *name)
{
	static const char *const formats[][2] = {{"text", "txt"}, {"markdown", "md"}, {"svg", "svg"}};
	char		confidence[32],
				threshold[32];
	char	   *others;
	const char *other[2 * MAX_BUILDS];
	int			nothers = mbm_other_labels(other);
	int			i;

	char		machine[2048];

	mbm_machine_header(machine, sizeof(machine));
	snprintf(confidence, sizeof(confidence), "%g", rq.confidence);
	snprintf(threshold, sizeof(threshold), "%g", threshold_value);
	others = mbm_labels_literal(other, nothers);
	for (i = 0; i < 3; i++)
	{
		const char *params[6] = {mbm_base_label(), nothers == 1 ? other[0] : others,
		formats[i][0], confidence, threshold, metric};
		PGresult   *res = PQexecParams(results, nothers == 1 ?
									   "SELECT microbench.bench_report($1, $2, $3, confidence => $4::float8,"
									   " threshold => $5::float8, metric => $6)" :
									   "SELECT microbench.bench_relative($1, $2::text[], $3,"
									   " confidence => $4::float8, threshold => $5::float8, metric => $6)",
									   6, NULL, params, NULL, NULL, 0);
		char		path[1200];
		FILE	   *f;

		snprintf(path, sizeof(path), "%s/%s.%s", rq.out, name, formats[i][1]);
		if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
			(f = fopen(path, "w")) != NULL)
		{
			/* a timed report says first whether the machine was quiet */
			if (i < 2 && strcmp(metric, "qps") == 0)
				fprintf(f, "%s%s\n\n", i == 0 ? "-- " : "", machine);
			fprintf(f, "%s\n", PQgetvalue(res, 0, 0));
			if (i < 2)
				print_failed_runs(f, i == 0 ? "-- " : "- ", metric);
			fclose(f);
			if (i == 0)
			{
				if (strcmp(metric, "qps") == 0)
					printf("\n-- %s\n", machine);
				printf("\n%s\n", PQgetvalue(res, 0, 0));
				print_failed_runs(stdout, "-- ", metric);
			}
		}
		else
			say("could not write %s: %s", path, PQresultErrorMessage(res));
		PQclear(res);
	}
	free(others);
}

/*
 * With --metric both, what the counts say about QPS (34_count_clock.sql):
 * report-count-clock.EXT (text, markdown, SVG), the text also on stdout
 * and the markdown also a section of report.md.  Nothing when no cell has
 * both counted and timed runs.
 */
static void
write_count_clock(void)
{
	static const char *const formats[][2] = {{"text", "txt"}, {"markdown", "md"}, {"svg", "svg"}};
	char		confidence[32],
				threshold[32],
				count_threshold[32];
	const char *other[2 * MAX_BUILDS];
	char	   *others = mbm_labels_literal(other, mbm_other_labels(other));
	int			i;

	snprintf(confidence, sizeof(confidence), "%g", rq.confidence);
	snprintf(threshold, sizeof(threshold), "%g", rq.threshold);
	snprintf(count_threshold, sizeof(count_threshold), "%g", rq.count_threshold);
	for (i = 0; i < 3; i++)
	{
		const char *params[6] = {mbm_base_label(), others, formats[i][0], confidence, threshold,
		count_threshold};
		PGresult   *res = PQexecParams(results,
									   "SELECT microbench.count_clock_report($1, $2::text[], $3,"
									   " confidence => $4::float8, threshold => $5::float8,"
									   " count_threshold => $6::float8)",
									   6, NULL, params, NULL, NULL, 0);
		const char *body = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 ?
			PQgetvalue(res, 0, 0) : NULL;
		char		path[1200];
		FILE	   *f;

		snprintf(path, sizeof(path), "%s/report-count-clock.%s", rq.out, formats[i][1]);
		if (body == NULL)
			say("could not write %s: %s", path, PQresultErrorMessage(res));
		else if (body[0] != '\0' && (f = fopen(path, "w")) != NULL)
		{
			fprintf(f, "%s\n", body);
			fclose(f);
			if (i == 0)
				printf("\n%s\n", body);
			/* report.md's section: what the counts mean for its QPS */
			snprintf(path, sizeof(path), "%s/report.md", rq.out);
			if (i == 1 && (f = fopen(path, "a")) != NULL)
			{
				fprintf(f, "\n## What the counts say about QPS\n\n%s\n", body);
				fclose(f);
			}
		}
		PQclear(res);
	}
	free(others);
}

/*
 * The reports of each metric asked: QPS in report.*, or instructions when
 * only they were counted; with --cache-sim the estimated cycles too; with
 * both, count and clock side by side.
 */
void
mbm_reports_write(void)
{
	if (results == NULL || progress.runs == 0)
		return;
	if (rq.timed)
		write_metric_reports("qps", rq.threshold, "report");
	if (rq.counted)
		write_metric_reports("instructions", rq.count_threshold,
							 rq.timed ? "report-instructions" : "report");
	if (rq.cache_sim)
		write_metric_reports("estimated_cycles", rq.count_threshold, "report-cycles");
	if (rq.timed && rq.counted)
		write_count_clock();
}

static void
json_pair(FILE *f, const char *key, const char *value, bool last)
{
	mbm_json_string(f, key);
	fputs(": ", f);
	if (value)
		mbm_json_string(f, value);
	else
		fputs("null", f);
	fputs(last ? "" : ", ", f);
}

/*
 * The manifest's "metric" and, for counted runs, "counted": the counter,
 * the threshold, the harness (the compiler and flags that built the
 * extension for every build), each round's seed, the warm-up, and the
 * events of every cell's window.
 */
static void
write_counting(FILE *f)
{
	int			column,
				w,
				k;
	bool		first = true;

	fprintf(f, "  \"metric\": \"%s\",\n", rq.timed && rq.counted ? "both" : rq.timed ? "qps" : "instructions");
	if (!rq.counted)
		return;
	fprintf(f, "  \"counted\": {");
	json_pair(f, "counter", mbm_count_counter(), false);
	fprintf(f, "\"threshold\": %g, \"cache_sim\": %s, \"seed_of_round_1\": %lld,"
			" \"seeds\": \"round r: --seed + r, every build alike\", \"warmup_events\": %lld,"
			" \"windows\": [", rq.count_threshold, rq.cache_sim ? "true" : "false",
			mbm_count_seed(1), mbm_count_warmup_events());
	for (column = 0; column < MBM_COLUMNS; column++)
	{
		const char *dbms = NULL;

		/* the column's name, as its builds' kind has it */
		for (k = 0; k < rq.nmeasured; k++)
			if (mbm_column(&rq.measured[k]) == (mbm_column_id) column)
				dbms = mbm_column_dbms(&rq.measured[k]);
		for (w = 0; w < rq.nworkloads && dbms != NULL; w++)
		{
			if (progress.count_events[column][w] == 0)
				continue;
			fprintf(f, "%s\n    {", first ? "" : ",");
			json_pair(f, "dbms", dbms, false);
			json_pair(f, "workload", rq.workloads[w], false);
			fprintf(f, "\"events\": %lld}", progress.count_events[column][w]);
			first = false;
		}
	}
	/* the in-server harness: one compiler and its flags build it into every build */
	if (rq.harness != NULL && mbm_setup_harness_compiler()[0] != '\0')
	{
		fprintf(f, "\n  ], \"harness\": {");
		json_pair(f, "label", rq.harness->label, false);
		json_pair(f, "compiler", mbm_setup_harness_compiler(), false);
		json_pair(f, "cc", rq.harness->cc, false);
		json_pair(f, "cflags", rq.harness->cflags, true);
		fprintf(f, "}, \"servers\": [");
	}
	else
		fprintf(f, "\n  ], \"servers\": [");
	/* what a count by hand repeats (docs/compare.md): a count depends on the server's command line */
	for (w = 0, first = true; w < rq.nmeasured; w++)
	{
		if (progress.counted_command[w][0] == '\0')
			continue;
		fprintf(f, "%s\n    {", first ? "" : ",");
		json_pair(f, "label", rq.measured[w].label, false);
		json_pair(f, "dbms", mbm_column_dbms(&rq.measured[w]), false);
		json_pair(f, "command", progress.counted_command[w], true);
		fprintf(f, "}");
		first = false;
	}
	fprintf(f, "\n  ]},\n");
}

/* manifest.json: what ran (builds, settings, host, CPUs, the cost around a run, the order). */
void
mbm_manifest_write(void)
{
	char		path[1200];
	char		finished[64];
	struct utsname un;
	time_t		now = time(NULL);
	FILE	   *f;
	FILE	   *order;
	int			i,
				n = progress.runs + progress.failed_runs;
	bool		first = true;

	snprintf(path, sizeof(path), "%s/manifest.json", rq.out);
	if ((f = fopen(path, "w")) == NULL)
		return;
	strftime(finished, sizeof(finished), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	uname(&un);
	fprintf(f, "{\n  ");
	json_pair(f, "tool", "microbench compare " MBM_VERSION, false);
	json_pair(f, "status", progress.status, false);
	json_pair(f, "started_at", progress.started_at, false);
	json_pair(f, "finished_at", finished, false);
	fprintf(f, "\n  \"host\": {");
	json_pair(f, "name", un.nodename, false);
	json_pair(f, "kernel", un.release, false);
	fprintf(f, "\"cpus\": %ld},\n", sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(f, "  \"cpus\": {");
	json_pair(f, "servers", rq.cpus, false);
	json_pair(f, "runner", progress.tool_cpus, true);
	fprintf(f, "},\n  \"data\": {\"pristine\": \"one directory per major version, copied for every run\","
			" \"tables\": %d, \"table_size\": %lld, \"seed\": %lld, \"bytes\": %lld, \"made_in_seconds\": %.1f},\n",
			rq.tables, rq.table_size, rq.seed, progress.pristine_bytes, progress.pristine_s);
	fprintf(f, "  \"runs\": {\"rounds\": %d, \"rounds_asked\": %d, \"seconds\": %g, \"warmup\": %g,"
			" \"turns\": %d, \"keep_up\": %s, \"clients\": %d, \"max_minutes\": %g, \"threshold\": %g, \"confidence\": %g,"
			" \"postgres_path\": \"%s\", \"done\": %d, \"failed\": %d},\n",
			progress.rounds_done, rq.rounds, rq.seconds, rq.warmup, rq.turns,
			rq.keep_up ? "true" : "false", rq.clients, rq.max_minutes,
			rq.threshold, rq.confidence, mbm_path_text(&rq), progress.runs, progress.failed_runs);
	write_counting(f);
	mbm_fleet_manifest(f);
	if (rq.timed)
		mbm_machine_manifest(f);
	fprintf(f, "  \"seconds_per_run\": {\"measured\": %.2f, \"copy\": %.2f, \"start\": %.2f,"
			" \"stop\": %.2f, \"remove\": %.2f, \"reload\": %.2f},\n",
			n ? progress.run_s / n : 0, n ? progress.copy_s / n : 0,
			n ? progress.boot_s / n : 0, n ? progress.stop_s / n : 0,
			n ? progress.remove_s / n : 0, n ? progress.reload_s / n : 0);
	fprintf(f, "  \"builds\": [");
	for (i = 0; i < rq.nall; i++)
	{
		mbm_build_facts facts;

		mbm_build_facts_of(&rq.all[i], &facts);
		fprintf(f, "%s\n    {", i ? "," : "");
		json_pair(f, "dbms", mbm_kind_name[rq.all[i].kind].family, false);
		json_pair(f, "label", rq.all[i].label, false);
		json_pair(f, "path", facts.path, false);
		json_pair(f, "version", facts.version, false);
		json_pair(f, "cc", facts.cc, false);
		json_pair(f, "cflags", facts.cflags, false);
		{
			char	   *flat = facts.settings ? strdup(facts.settings) : NULL;
			char	   *c;

			/* one line, as --set gave them: "a=1 b=2" */
			for (c = flat; c && *c; c++)
				if (*c == '\n')
					*c = c[1] ? ' ' : '\0';
			json_pair(f, "settings", flat, true);
			free(flat);
		}
		fputc('}', f);
	}
	fprintf(f, "\n  ],\n  \"order\": [");
	if ((order = open_order()) != NULL)
	{
		order_entry e;

		while (next_order_entry(order, &e))
		{
			fprintf(f, "%s\n    {\"round\": %d, ", first ? "" : ",", e.round);
			json_pair(f, "dbms", e.dbms, false);
			json_pair(f, "workload", e.workload, false);
			json_pair(f, "label", e.label, false);
			json_pair(f, "status", e.status, false);
			json_pair(f, "metric", e.metric, true);
			fputc('}', f);
			first = false;
		}
		fclose(order);
	}
	fprintf(f, "\n  ]\n}\n");
	fclose(f);
}

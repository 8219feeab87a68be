/*
 * mbm_run_one.c — one run of microbench compare: a fresh copy of the
 * build's pristine data, a fresh start of its server pinned to the
 * measured CPUs, the measurement (bench_run() in a Postgres, this
 * program's mysql driver against a MariaDB or MySQL), the server stopped
 * and the copy removed; the run's row kept in runs.jsonl and loaded into
 * the results database at once, so nothing measured is lost.
 */
#include "mbm.h"
#include "mbm_compare.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The time one run takes from copy to removal: measured, else guessed. */
double
mbm_run_estimate(void)
{
	if (progress.runs + progress.failed_runs > 0)
		return (progress.run_s + progress.copy_s + progress.boot_s + progress.stop_s +
				progress.remove_s) / (progress.runs + progress.failed_runs);
	return rq.seconds + rq.warmup + 3;
}

/* One run on a Postgres server that is up: bench_run() in it; its row as JSON into *line. */
static mbm_run_outcome
measure_pg(const mbm_pgbuild *b, const char *workload, int round, char **line, char *err,
		   size_t errlen)
{
	char		seconds[32],
				warmup[32],
				clients[16],
				tables[16],
				round_text[16];
	const char *params[7];
	const char *sql = "SELECT (to_jsonb(r) - 'run_id')::text"
		" FROM bench_run($1, seconds => $2::float8, warmup => $3::float8, clients => $4::int,"
		" tables => $5::int, label => $6, phase => 'post', round => $7::int) r";
	PGconn	   *conn;
	PGresult   *res;
	PGcancel   *cancel;
	mbm_run_outcome outcome = RUN_OK;

	snprintf(seconds, sizeof(seconds), "%g", rq.seconds);
	snprintf(warmup, sizeof(warmup), "%g", rq.warmup);
	snprintf(clients, sizeof(clients), "%d", rq.clients);
	snprintf(tables, sizeof(tables), "%d", rq.tables);
	snprintf(round_text, sizeof(round_text), "%d", round);
	params[0] = workload;
	params[1] = seconds;
	params[2] = warmup;
	params[3] = clients;
	params[4] = tables;
	params[5] = b->label;
	params[6] = round_text;
	conn = mbm_pg_connect(&run_pg_server, "microbench", err, errlen);
	if (conn == NULL)
		return RUN_FAILED;
	cancel = PQgetCancel(conn);
	mbm_proc_set_cancel(cancel);
	res = mbm_proc_stop_signal() ? NULL : PQexecParams(conn, sql, 7, NULL, params, NULL, NULL, 0);
	mbm_proc_set_cancel(NULL);
	PQfreeCancel(cancel);
	if (res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		*line = strdup(PQgetvalue(res, 0, 0));
	else
	{
		snprintf(err, errlen, "%s", res ? PQresultErrorMessage(res) : "interrupted");
		err[strcspn(err, "\n")] = '\0';
		outcome = RUN_FAILED;
	}
	PQclear(res);
	PQfinish(conn);
	return outcome;
}

/* One run on a MariaDB or MySQL server that is up: the client's run, its JSON line into *line. */
static mbm_run_outcome
measure_my(const mbm_mybuild *b, const char *workload, int round, char **line, char *err,
		   size_t errlen)
{
	char		threads[32],
				time_s[48],
				warmup[48],
				label[128],
				round_text[32],
				file[200],
				results_file[220];
	const char *extra[] = {threads, time_s, warmup, label, "--phase=post", round_text,
	results_file, "run", workload};
	FILE	   *f;
	char		buf[65536];

	snprintf(threads, sizeof(threads), "--threads=%d", rq.clients);
	snprintf(time_s, sizeof(time_s), "--time=%g", rq.seconds);
	snprintf(warmup, sizeof(warmup), "--warmup-time=%g", rq.warmup);
	snprintf(label, sizeof(label), "--label=%s", b->label);
	snprintf(round_text, sizeof(round_text), "--round=%d", round);
	snprintf(file, sizeof(file), "%s/run.jsonl", progress.workdir);
	snprintf(results_file, sizeof(results_file), "--results-file=%s", file);
	unlink(file);
	if (mbm_my_client(&run_my_server, extra, 9, err, errlen) != 0)
	{
		snprintf(err + strlen(err), errlen - strlen(err), " (%s/client.log)", progress.logdir);
		return RUN_FAILED;
	}
	if ((f = fopen(file, "r")) == NULL || fgets(buf, sizeof(buf), f) == NULL)
	{
		snprintf(err, errlen, "the client recorded no run; see %s/client.log", progress.logdir);
		if (f)
			fclose(f);
		return RUN_FAILED;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	*line = strdup(buf);
	return RUN_OK;
}

/* The run's JSON line kept in runs.jsonl and loaded into the results database. */
static void
record_run(const char *line)
{
	char		path[1200];
	FILE	   *f;
	const char *ins[1] = {line};
	char		err[512];

	snprintf(path, sizeof(path), "%s/runs.jsonl", rq.out);
	if ((f = fopen(path, "a")) != NULL)
	{
		fprintf(f, "%s\n", line);
		fclose(f);
	}
	if (mbm_pg_exec(results, "INSERT INTO microbench.import_queue (doc) VALUES ($1)", 1, ins,
					NULL, 0, err, sizeof(err)) != 0 ||
		mbm_pg_exec(results, "SELECT microbench.import_runs()", 0, NULL, NULL, 0, err,
					sizeof(err)) != 0)
		say("the results database did not take a run (%s); it is in %s", err, path);
}

/*
 * One run of build ab: a fresh copy of its pristine data, a fresh start
 * of its server, the run, the server stopped and the copy removed.
 */
mbm_run_outcome
mbm_run_one(const mbm_any_build *ab, const char *workload, int round)
{
	char		copy[1100];
	char		pristine[1100];
	char		err[1024] = "";
	uint64_t	t0,
				t1,
				t2,
				t3,
				t4,
				t5;
	char		c1[16],
				c2[16];
	mbm_run_outcome outcome;
	char	   *line = NULL;
	const char *dbms = ab->pg ? "postgres" : ab->my->kind;
	const char *log;
	int			started;

	snprintf(copy, sizeof(copy), "%s/run", progress.workdir);
	mbm_pristine_path(ab, pristine, sizeof(pristine));
	t0 = mbm_now_ns();
	if (mbm_proc_copy(pristine, copy, ab->pg ? mbm_pg.owner : (mbm_pg.owner ? "mysql" : NULL),
					  err, sizeof(err)) != 0)
	{
		say("%s", err);
		return mbm_proc_stop_signal() ? RUN_STOPPED : RUN_BUILD_FAILED;
	}
	t1 = mbm_now_ns();
	started = ab->pg ? mbm_pg_start(&run_pg_server, ab->pg, copy, RUN_PORT, "server.log", false, err, sizeof(err)) :
		mbm_my_start(&run_my_server, ab->my, copy, "server.log", err, sizeof(err));
	if (started != 0)
	{
		say("%s", err);
		mbm_proc_remove_tree(copy);
		return mbm_proc_stop_signal() ? RUN_STOPPED : RUN_BUILD_FAILED;
	}
	log = ab->pg ? run_pg_server.log : run_my_server.log;
	t2 = mbm_now_ns();
	outcome = ab->pg ? measure_pg(ab->pg, workload, round, &line, err, sizeof(err)) :
		measure_my(ab->my, workload, round, &line, err, sizeof(err));
	if (outcome != RUN_OK && mbm_proc_stop_signal())
		outcome = RUN_STOPPED;
	t3 = mbm_now_ns();
	mbm_pg_stop(&run_pg_server);
	mbm_my_stop(&run_my_server);
	t4 = mbm_now_ns();
	mbm_proc_remove_tree(copy);
	t5 = mbm_now_ns();

	progress.copy_s += (t1 - t0) / 1e9;
	progress.boot_s += (t2 - t1) / 1e9;
	progress.run_s += (t3 - t2) / 1e9;
	progress.stop_s += (t4 - t3) / 1e9;
	progress.remove_s += (t5 - t4) / 1e9;
	if (outcome == RUN_STOPPED)
	{
		free(line);
		return outcome;
	}
	fprintf(progress.order, "%d %s %s %s %s\n", round, dbms, workload, ab->label,
			outcome == RUN_OK ? "ok" : "failed");
	if (outcome == RUN_FAILED)
	{
		progress.failed_runs++;
		printf("   round %d  %-8s %-26s %s: FAILED (%s); see %s\n", round, dbms, workload, ab->label,
			   err, log);
		fflush(stdout);
		return outcome;
	}
	record_run(line);
	progress.runs++;
	{
		const char *p = strstr(line, "\"qps\": ");
		double		left = rq.max_minutes > 0 ? rq.max_minutes * 60 - mbm_elapsed_s() : -1;

		printf("   round %d  %-8s %-26s %-10s %10.0f QPS  (run %.1f s; copy %.1f, start %.1f, stop %.1f s;"
			   " %s in%s%s)\n", round, dbms, workload, ab->label, p ? atof(p + 7) : 0, (t3 - t2) / 1e9,
			   (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t5 - t3) / 1e9, mbm_clock_text(mbm_elapsed_s(), c1),
			   left >= 0 ? ", " : "", left >= 0 ? strcat(mbm_clock_text(left, c2), " left") : "");
		fflush(stdout);
	}
	free(line);
	return RUN_OK;
}

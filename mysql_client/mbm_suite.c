/*
 * mbm_suite.c — the standard suite against MySQL/MariaDB.
 *
 * Walks common/mb_suite.c, the order the extension's bench_suite walks:
 * warm-up (measured, not recorded), pre reads, writes, maintenance, post
 * reads, delete and insert.  Each run is recorded as soon as it finishes, so
 * a failure later keeps everything before it; a run the results database
 * could not take goes to the results file and the suite carries on, to
 * exit 1 at the end.  SIGINT or SIGTERM ends the suite after what has been
 * recorded (the run it interrupts is not).  The maintenance step is
 * ANALYZE TABLE and a wait for InnoDB's dirty pages to be written, the
 * MySQL counterpart of VACUUM (ANALYZE) and CHECKPOINT.
 */
#include "mbm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mb_suite.h"

/* Longest wait for dirty pages, so a busy server cannot hang the suite. */
#define MBM_FLUSH_TIMEOUT_S 300
/* Without the privilege to force a flush, how long to give the page cleaner. */
#define MBM_UNFORCED_WAIT_S 10

static double
monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool
selected(const mbm_options *o, const char *workload)
{
	const char *p = o->workloads;
	size_t		len = strlen(workload);

	if (p == NULL)
		return true;
	while (*p)
	{
		size_t		n = strcspn(p, ",");

		if (n == len && strncmp(p, workload, n) == 0)
			return true;
		p += n;
		if (*p == ',')
			p++;
	}
	return false;
}

static double
step_seconds(const mbm_options *o, const mb_suite_step *s)
{
	switch (s->class_)
	{
		case MB_CLASS_READ:
			return o->read_time_s;
		case MB_CLASS_WRITE:
			return o->write_time_s;
		case MB_CLASS_INSERT:
			return o->insert_time_s;
	}
	return o->read_time_s;
}

/* The first value of a one-row query, as text; 0 on success. */
static int
query_text(MYSQL *conn, const char *sql, char *out, size_t outlen)
{
	MYSQL_RES  *res;
	MYSQL_ROW	row;
	int			rc = -1;

	if (mysql_real_query(conn, sql, (unsigned long) strlen(sql)) != 0 ||
		(res = mysql_store_result(conn)) == NULL)
		return -1;
	row = mysql_fetch_row(res);
	if (row && row[0] && strspn(row[0], "0123456789.") == strlen(row[0]))
	{
		snprintf(out, outlen, "%s", row[0]);
		rc = 0;
	}
	mysql_free_result(res);
	return rc;
}

/* One number from SHOW GLOBAL STATUS, or -1. */
static long long
global_status(MYSQL *conn, const char *name)
{
	char		sql[128];
	MYSQL_RES  *res;
	MYSQL_ROW	row;
	long long	v = -1;

	snprintf(sql, sizeof(sql), "SHOW GLOBAL STATUS LIKE '%s'", name);
	if (mysql_real_query(conn, sql, (unsigned long) strlen(sql)) != 0 ||
		(res = mysql_store_result(conn)) == NULL)
		return -1;
	row = mysql_fetch_row(res);
	if (row && row[1])
		v = atoll(row[1]);
	mysql_free_result(res);
	return v;
}

/*
 * The suite's post-write maintenance: ANALYZE TABLE, then a wait for InnoDB's
 * dirty pages to be written.  Also the command "maintain", for scripts that
 * walk the suite's steps themselves (test/demo.sh, microbench-compare).
 */
int
mbm_maintain(const mbm_options *o)
{
	char		err[512];
	MYSQL	   *conn = mbm_connect(o, err, sizeof(err));
	double		deadline = monotonic_s() + MBM_FLUSH_TIMEOUT_S;
	long long	dirty;
	char		old_pct[64];
	bool		forced;
	int			t;

	if (conn == NULL)
	{
		fprintf(stderr, "microbench-mysql: %s\n", err);
		return MBM_EXIT_FAILED;
	}
	for (t = 1; t <= o->tables; t++)
	{
		char		sql[64];

		snprintf(sql, sizeof(sql), "ANALYZE TABLE sbtest%d", t);
		if (mbm_query(conn, sql, err, sizeof(err)) != 0)
		{
			fprintf(stderr, "microbench-mysql: %s\n", err);
			mysql_close(conn);
			return MBM_EXIT_FAILED;
		}
	}
	/*
	 * InnoDB keeps dirty pages in memory while idle; setting
	 * innodb_max_dirty_pages_pct to 0 makes the page cleaner write them all,
	 * which is what "wait for dirty pages to drain" means.  The old value is
	 * put back afterwards.  Without the privilege we wait a little and say so.
	 */
	forced = query_text(conn, "SELECT @@GLOBAL.innodb_max_dirty_pages_pct", old_pct,
						sizeof(old_pct)) == 0 &&
		mbm_query(conn, "SET GLOBAL innodb_max_dirty_pages_pct = 0", err, sizeof(err)) == 0;
	if (!forced)
	{
		printf("maintenance: cannot force a flush (%s); waiting at most %d s\n", err,
			   MBM_UNFORCED_WAIT_S);
		deadline = monotonic_s() + MBM_UNFORCED_WAIT_S;
	}
	/* a stop signal ends the wait, not the restore below */
	while ((dirty = global_status(conn, "Innodb_buffer_pool_pages_dirty")) > 0 &&
		   monotonic_s() < deadline && mbm_stop_signal() == 0)
		usleep(100000);
	if (forced)
	{
		char		sql[128];

		snprintf(sql, sizeof(sql), "SET GLOBAL innodb_max_dirty_pages_pct = %s", old_pct);
		if (mbm_query(conn, sql, err, sizeof(err)) != 0)
			fprintf(stderr, "microbench-mysql: could not restore innodb_max_dirty_pages_pct: %s\n", err);
	}
	printf("maintenance: ANALYZE TABLE done; %lld dirty pages left\n", dirty < 0 ? 0 : dirty);
	mysql_close(conn);
	return mbm_stop_signal() != 0 ? 128 + mbm_stop_signal() : MBM_EXIT_OK;
}

int
mbm_suite(const mbm_options *o)
{
	int			steps = 0;
	int			n = 0;
	double		started = monotonic_s();
	bool		any_write = false;
	int			in_file = 0;	/* runs the results database did not take */
	int			rc = MBM_EXIT_OK;
	int			i;

	/* an unprepared database is a request to fix, not a failure at step 1 */
	{
		char		err[512];
		MYSQL	   *conn = mbm_connect(o, err, sizeof(err));
		bool		missing = false;

		if (conn == NULL || mbm_check_tables(conn, o, &missing, err, sizeof(err)) != 0)
		{
			fprintf(stderr, "microbench-mysql: %s\n", err);
			if (conn)
				mysql_close(conn);
			return conn == NULL || missing ? MBM_EXIT_BAD_INPUT : MBM_EXIT_FAILED;
		}
		mysql_close(conn);
	}
	for (i = 0; i < mb_suite_num_steps; i++)
	{
		const mb_suite_step *s = &mb_suite_steps[i];

		if (s->kind == MB_SUITE_RUN && selected(o, s->workload) && s->class_ == MB_CLASS_WRITE)
			any_write = true;
	}
	for (i = 0; i < mb_suite_num_steps; i++)
	{
		const mb_suite_step *s = &mb_suite_steps[i];

		if ((s->kind == MB_SUITE_RUN && selected(o, s->workload)) ||
			s->kind == MB_SUITE_WARMUP || (s->kind == MB_SUITE_MAINTENANCE && any_write))
			steps++;
	}

	for (i = 0; i < mb_suite_num_steps; i++)
	{
		const mb_suite_step *s = &mb_suite_steps[i];
		double		remaining = 0;
		mbm_options step_o = *o;
		bool		fell_back = false;
		int			j;

		if ((s->kind == MB_SUITE_RUN && !selected(o, s->workload)) ||
			(s->kind == MB_SUITE_MAINTENANCE && !any_write))
			continue;
		n++;
		for (j = i; j < mb_suite_num_steps; j++)
			if (mb_suite_steps[j].kind != MB_SUITE_MAINTENANCE &&
				(mb_suite_steps[j].kind == MB_SUITE_WARMUP || selected(o, mb_suite_steps[j].workload)))
				remaining += o->warmup_s + step_seconds(o, &mb_suite_steps[j]);
		printf("\n[%d of %d] %s %s%s%s%s — elapsed %.0fs, about %.0fs to go\n", n, steps,
			   mb_suite_kind_name(s->kind),
			   s->workload ? s->workload : "ANALYZE TABLE + dirty page flush",
			   s->phase ? " (" : "", s->phase ? s->phase : "", s->phase ? ")" : "",
			   monotonic_s() - started, remaining);
		fflush(stdout);

		if (s->kind == MB_SUITE_MAINTENANCE)
			rc = mbm_maintain(o);
		else
		{
			step_o.time_s = step_seconds(o, s);
			step_o.phase = s->phase ? s->phase : "pre";
			step_o.no_record = s->kind == MB_SUITE_WARMUP;
			step_o.in_suite = true;
			rc = mbm_run(&step_o, mb_catalog_find(s->workload), &fell_back);
		}
		if (fell_back)
		{
			/* kept in the file: nothing is lost, and the next run may get through */
			in_file++;
			rc = MBM_EXIT_OK;
		}
		if (rc == MBM_EXIT_OK && mbm_stop_signal() != 0)
			rc = 128 + mbm_stop_signal();
		if (rc != MBM_EXIT_OK)
		{
			if (mbm_stop_signal() != 0)
				fprintf(stderr, "microbench-mysql: suite interrupted by %s at step %d of %d;"
						" earlier runs are recorded\n", mbm_stop_signal_name(), n, steps);
			else
				fprintf(stderr, "microbench-mysql: suite stopped at step %d of %d; earlier runs are recorded\n",
						n, steps);
			break;
		}
	}
	if (i == mb_suite_num_steps)
		printf("\nsuite done in %.0fs\n", monotonic_s() - started);
	if (in_file > 0)
		fprintf(stderr, "microbench-mysql: the results database did not take %d run(s);"
				" they are in %s\n", in_file, o->results_file);
	if (o->results_db == NULL || in_file > 0)
		mbm_print_load_recipe(o->results_file, o->results_db);
	if (i < mb_suite_num_steps)
		return mbm_stop_signal() != 0 ? 128 + mbm_stop_signal() : rc;
	return in_file > 0 ? MBM_EXIT_FAILED : MBM_EXIT_OK;
}

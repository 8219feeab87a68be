/*
 * mbm_suite.c — the standard suite, through the options' driver.
 *
 * Walks common/mb_suite.c, the order the extension's bench_suite walks:
 * warm-up (measured, not recorded), pre reads, writes, maintenance, post
 * reads, delete and insert.  Each run is recorded as soon as it finishes, so
 * a failure later keeps everything before it; a run the results database
 * could not take goes to the results file and the suite carries on, to
 * exit 1 at the end.  SIGINT or SIGTERM ends the suite after what has been
 * recorded (the run it interrupts is not).  The maintenance step is the
 * driver's: VACUUM ANALYZE and CHECKPOINT on Postgres, as the extension's
 * suite does; ANALYZE TABLE and a wait for InnoDB's dirty pages to be
 * written on MySQL, their counterpart there.
 */
#include "mbm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mb_suite.h"

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

int
mbm_suite(const mbm_options *o)
{
	int			steps = 0;
	int			n = 0;
	double		started = mbm_now_s();
	bool		any_write = false;
	int			in_file = 0;	/* runs the results database did not take */
	int			rc = MBM_EXIT_OK;
	int			i;

	/* an unprepared database is a request to fix, not a failure at step 1 */
	{
		char		err[512];
		mbm_conn   *conn = mbm_connect(o, err, sizeof(err));
		bool		missing = false;

		if (conn == NULL || o->driver->check_tables(conn, o, &missing, err, sizeof(err)) != 0)
		{
			fprintf(stderr, "%s: %s\n", mbm_progname, err);
			if (conn)
				o->driver->close(conn);
			return conn == NULL || missing ? MBM_EXIT_BAD_INPUT : MBM_EXIT_FAILED;
		}
		o->driver->close(conn);
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
			   s->workload ? s->workload : o->driver->maintain_title,
			   s->phase ? " (" : "", s->phase ? s->phase : "", s->phase ? ")" : "",
			   mbm_now_s() - started, remaining);
		fflush(stdout);

		if (s->kind == MB_SUITE_MAINTENANCE)
			rc = o->driver->cmd_maintain(o);
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
				fprintf(stderr, "%s: suite interrupted by %s at step %d of %d;"
						" earlier runs are recorded\n", mbm_progname, mbm_stop_signal_name(), n, steps);
			else
				fprintf(stderr, "%s: suite stopped at step %d of %d; earlier runs are recorded\n", mbm_progname,
						n, steps);
			break;
		}
	}
	if (i == mb_suite_num_steps)
		printf("\nsuite done in %.0fs\n", mbm_now_s() - started);
	if (in_file > 0)
		fprintf(stderr, "%s: the results database did not take %d run(s);"
				" they are in %s\n", mbm_progname, in_file, o->results_file);
	if (o->results_db == NULL || in_file > 0)
		mbm_print_load_recipe(o->results_file, o->results_db);
	if (i < mb_suite_num_steps)
		return mbm_stop_signal() != 0 ? 128 + mbm_stop_signal() : rc;
	return in_file > 0 ? MBM_EXIT_FAILED : MBM_EXIT_OK;
}

/*
 * mbm_compare.c — microbench compare: two or more builds of Postgres,
 * MariaDB or MySQL compared on identical data, every run on a fresh server
 * start from pristine data.
 *
 * Before anything: every input is checked (builds, labels, workloads,
 * settings, CPUs, --out) and a refusal writes nothing.  Then, once: the
 * extension is built into a build that lacks this microbench's, one pristine
 * data directory is made per major version (initdb, the sbtest tables
 * loaded by bench_prepare with the seed, a checkpoint, a clean stop), and
 * a results database is started unless --results-db names one.  Then
 * rounds: for each workload the builds take turns, A B then B A, each run
 * on a fresh copy of the pristine directory and a fresh start of its
 * server, pinned to --cpus, the only server up while it is measured; the
 * run is bench_run() in that server, its row appended to runs.jsonl and
 * loaded into the results database at once.  After --rounds rounds only
 * the cells still undecided run again (decided between rounds at a
 * stricter level, as docs/methodology.md explains), until every cell is
 * decided or --max-minutes is spent.  The reports come from the results
 * database's own report functions, so the verdicts are the same as
 * everywhere else.  This file is the command; each step has a file of
 * its own (mbm_compare.h lists them, top first), every way out too
 * (mbm_finish.c).
 *
 * Exit status: 0 done; 1 a build did not start or its extension could not
 * be built (the runs so far kept and reported); 2 bad input (nothing
 * written); 128 + N after signal N (INT, TERM, HUP, PIPE), the runs so far
 * kept and reported.  Whatever the way out, no server, shared memory
 * segment or work directory is left behind (mbm_proc.c).
 */
#include "mbm.h"
#include "mbm_compare.h"
#include "mbm_files.h"
#include "mbm_fleet.h"
#include "mbm_finish.h"
#include "mbm_pgserver.h"
#include "mbm_proc.h"
#include "mbm_request.h"
#include "mbm_rounds.h"
#include "mbm_setup.h"
#include "mbm_state.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


/*
 * The work directory in $TMPDIR or /tmp (sockets, copies, the order run),
 * --out and its logs/; the servers' users (postgres, mysql) write there too.
 */
static void
make_directories(void)
{
	char		path[1200];
	const char *tmpdir = getenv("TMPDIR");

	if (tmpdir == NULL || tmpdir[0] == '\0')
		tmpdir = "/tmp";
	/* the servers' sockets live in it, and a socket's path has 107 bytes */
	if (strlen(tmpdir) > MBM_TMPDIR_MAX)
		refuse("TMPDIR is %zu characters long, over %d: the work directory made in it holds the servers' "
			   "unix sockets, whose paths must stay under 108 bytes; set TMPDIR to a shorter directory",
			   strlen(tmpdir), MBM_TMPDIR_MAX);
	if (mkdir(rq.out, 0755) != 0 && errno != EEXIST)
		refuse("cannot make --out %s: %s", rq.out, strerror(errno));
	snprintf(progress.logdir, sizeof(progress.logdir), "%s/logs", rq.out);
	mkdir(progress.logdir, 0755);
	snprintf(progress.workdir, sizeof(progress.workdir), "%s/microbench-compare.XXXXXX", tmpdir);
	if (mkdtemp(progress.workdir) == NULL)
	{
		progress.workdir[0] = '\0';
		say("cannot make a work directory in %s: %s", tmpdir, strerror(errno));
		exit(MBM_EXIT_FAILED);
	}
	chmod(progress.workdir, 01777);
	snprintf(progress.rundir, sizeof(progress.rundir), "%s", progress.workdir);
	chmod(progress.logdir, 01777);
	snprintf(path, sizeof(path), "%s/order", progress.workdir);
	progress.order = fopen(path, "w");
}

/* Everything made once before the first run (mbm_setup.c), or the way out. */
static void
set_up(void)
{
	char		err[1024];
	int			i;

	for (i = 0; i < rq.nbuilds; i++)
		if (mbm_setup_extension(&rq.builds[i], rq.harness, err, sizeof(err)) != 0)
		{
			say("%s", err);
			mbm_finish("the extension could not be built", MBM_EXIT_FAILED);
		}
	/* a MariaDB comparison's results database needs the extension's report functions */
	if (rq.nbuilds == 0 && rq.results_db == NULL &&
		mbm_setup_extension(&rq.results_pg, &rq.results_pg, err, sizeof(err)) != 0)
	{
		say("%s", err);
		mbm_finish("the extension could not be built", MBM_EXIT_FAILED);
	}
	mbm_stop_if_signalled();
	if (mbm_fleet_start(err, sizeof(err)) != 0)
	{
		say("%s", err);
		mbm_finish("the central database cannot take runs", MBM_EXIT_FAILED);
	}
	if (mbm_setup_results(err, sizeof(err)) != 0)
	{
		say("results database: %s", err);
		mbm_stop_if_signalled();
		mbm_finish("the results database failed", MBM_EXIT_FAILED);
	}
	if (mbm_setup_pristine(err, sizeof(err)) != 0)
	{
		say("pristine data: %s", err);
		mbm_stop_if_signalled();
		mbm_finish("the pristine data could not be made", MBM_EXIT_FAILED);
	}
}

int
mbm_compare_main(int argc, char **argv)
{
	int			i;
	time_t		now = time(NULL);

	mbm_progname = "microbench compare";
	if (argc > 1 && strcmp(argv[1], "build") == 0)
	{
		/* the source-build helper, a script installed beside the sources: configure and make, per compiler */
		char		err[1024];

		if (mbm_files_find(err, sizeof(err)) != 0)
		{
			say("%s", err);
			return MBM_EXIT_FAILED;
		}
		argv[1] = (char *) mbm_files_build_script();
		execv(argv[1], argv + 1);
		say("cannot run %s: %s", argv[1], strerror(errno));
		return MBM_EXIT_FAILED;
	}
	mbm_request_parse(argc, argv);
	{
		/*
		 * The extension's sources, built into each Postgres build and into
		 * the results database's server: found before any work.
		 */
		char		err[1024];

		if (mbm_files_find(err, sizeof(err)) != 0)
		{
			say("%s", err);
			return MBM_EXIT_FAILED;
		}
	}

	/* from here on, work: everything asked was checked */
	for (i = 0; i < rq.nbuilds; i++)
		rq.builds[i].settings = mbm_request_settings("postgres", rq.builds[i].label);
	for (i = 0; i < rq.nmy; i++)
		rq.my[i].settings = mbm_request_settings(rq.my[i].kind, rq.my[i].label);
	mbm_proc_catch_signals();
	progress.start_ns = mbm_now_ns();
	strftime(progress.started_at, sizeof(progress.started_at), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	/* the runner and its results server stay off the measured CPUs */
	mbm_proc_pin_others(rq.cpus, progress.tool_cpus, sizeof(progress.tool_cpus));
	make_directories();
	mbm_servers.workdir = progress.workdir;
	mbm_servers.logdir = progress.logdir;
	/* neither server runs as root */
	mbm_servers.pg_user = geteuid() == 0 ? "postgres" : NULL;
	mbm_servers.my_user = geteuid() == 0 ? "mysql" : NULL;
	mbm_servers.cpus = rq.cpus;
	mbm_servers.clients = rq.clients;

	set_up();
	printf("== %d workload(s), %d build(s); pristine data %.1f MB made in %.1f s; servers on CPU(s) %s\n",
		   rq.nworkloads, rq.nall, progress.pristine_bytes / 1048576.0, progress.pristine_s,
		   rq.cpus);
	fflush(stdout);
	mbm_rounds_run();
	mbm_finish("done", progress.failed_runs > 0 ? MBM_EXIT_FAILED : MBM_EXIT_OK);
}

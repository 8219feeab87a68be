/*
 * mbm_request.c — microbench compare's request: the options, and every
 * check that can be made before any work (the builds are real and
 * distinct, labels, --set, workloads, CPUs, --out, the results
 * database).  A refusal is one line and exit 2, and writes nothing.
 */
#include "mbm.h"
#include "mbm_request.h"
#include "mbm_count.h"
#include "mbm_kinds.h"
#include "mbm_labels.h"
#include "mbm_myserver.h"
#include "mbm_pgserver.h"
#include "mbm_proc.h"
#include "mbm_state.h"
#include "mb_suite.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
usage(void)
{
	printf("microbench compare — builds of a DBMS compared on identical data, every run on a\n"
		   "fresh server start from pristine data\n"
		   "\n"
		   "Usage: microbench compare --pg LABEL=PREFIX --pg LABEL=PREFIX [...] --out DIR [options]\n"
		   "       microbench compare --mariadb LABEL=BINARY --mariadb LABEL=BINARY [...] ...\n"
		   "       microbench compare build --src [LABEL=]DIR [...] --cc CC [...] --prefix-base PATH\n"
		   "\n"
		   "  --pg LABEL=PREFIX     a Postgres installation (PREFIX/bin/postgres); the first is\n"
		   "                        the base of the report; the extension is built into one\n"
		   "                        that lacks this microbench's\n"
		   "  --mariadb LABEL=BINARY, --mysql LABEL=BINARY  a mariadbd or mysqld; the first\n"
		   "                        of each DBMS has the base label too\n"
		   "  --set [LABEL:]NAME=VALUE  a server setting, for every build or one\n"
		   "  --workloads A,B,...   these workloads [every one, in the suite's order]\n"
		   "  --rounds N            rounds of every cell before only undecided ones go on [3]\n"
		   "  --max-minutes M       no run pair begins that would not end within M minutes\n"
		   "                        [60]; 0: exactly --rounds rounds\n"
		   "  --seconds S           measured seconds per run [10]\n"
		   "  --warmup S            warm-up seconds per run, after the fresh start [2]\n"
		   "  --turns N             a read's timed runs a build per start and round, the\n"
		   "                        builds' servers up side by side taking turns (A B,\n"
		   "                        B A, ...; later turns warm up for a tenth of\n"
		   "                        --seconds): a host whose speed changes for seconds at\n"
		   "                        a time then slows both builds alike [1: every run on\n"
		   "                        a start of its own; writes always]\n"
		   "  --keep-up             each build's server started once a round and kept up\n"
		   "                        for all its timed runs, every workload taking --turns\n"
		   "                        turns on it, the reads first; a write's tables loaded\n"
		   "                        again before each of its runs: short runs (--seconds\n"
		   "                        0.5) without a start each\n"
		   "  --table-size N  --tables N  --clients N  --seed N   [100000, 1, 1, 1]\n"
		   "  --metric M            qps (timed, the headline), instructions (instructions per\n"
		   "                        query counted under valgrind: decides on a noisy machine)\n"
		   "                        or both (then also what each count implies for QPS beside\n"
		   "                        the QPS measured: report-count-clock.*) [qps]\n"
		   "  --threshold T         smallest change called a difference [0.02; with --metric\n"
		   "                        instructions alone, of instructions: 0.005]\n"
		   "  --count-threshold T   the same for instructions with --metric both [0.005]\n"
		   "  --cache-sim           counted runs simulate the caches too: I1, D1 and LL misses\n"
		   "                        and estimated cycles per query (report-cycles.*)\n"
		   "  --path P              how Postgres builds are measured: in-server (bench_run in\n"
		   "                        the server), wire (this program's pgsql driver over a\n"
		   "                        socket, as sysbench), or both, a report column each\n"
		   "                        (pg, pg-wire) [in-server]\n"
		   "  --harness LABEL       the --pg build whose compiler and flags build the\n"
		   "                        extension (the in-server harness) for every build [the\n"
		   "                        first --pg build]\n"
		   "  --confidence C        of the report's intervals [0.95]\n"
		   "  --cpus LIST           CPUs the servers run on (the runner takes the others) [0]\n"
		   "  --wait-quiet[=M]      before the first round, wait up to M minutes [10] for a\n"
		   "                        quiet machine (a fixed CPU task timed within +-2%%, no\n"
		   "                        neighbour taking over 20%% of a CPU)\n"
		   "  --results-db CONNINFO put the runs here too (no password in it)\n"
		   "  --campaign NAME       the campaign this comparison is part of: the name that\n"
		   "                        groups the runs of a fleet's hosts (docs/fleet.md)\n"
		   "  --host-label NAME     this host's name in the fleet [its hostname]\n"
		   "  --push CONNINFO       push each run, tagged with the campaign, the host and its\n"
		   "                        facts, to this central database as it goes (no password in\n"
		   "                        it); runs it does not take stay in runs.jsonl for\n"
		   "                        microbench load; needs --campaign\n"
		   "  --out DIR             report.txt, report.md, report.svg, runs.jsonl,\n"
		   "                        manifest.json and logs/ (a new or empty directory)\n"
		   "  --keep                keep the work directory (pristine data, logs)\n"
		   "\n"
		   "build: Postgres or MariaDB source trees built with each compiler, alike, into\n"
		   "PATH-CC, or PATH-LABEL for labelled trees (a version series; docs/compare.md).\n"
		   "Exit status: 0 done, 1 a build failed (runs so far kept), 2 bad input (nothing\n"
		   "written), 128+N stopped by signal N (servers stopped, runs so far kept).\n");
}

/* ---- the request ---- */

static double
number(const char *opt, const char *text, double min, double max)
{
	char	   *end;
	double		v;

	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || isnan(v) || v < min || v > max)
		refuse("%s must be a number from %g to %g, not \"%s\"", opt, min, max, text);
	return v;
}

/* The options that take one number, its bounds, and where it goes. */
static const struct
{
	const char *name;
	double		min,
				max;
	double	   *real;			/* one of these three */
	int		   *whole;
	long long  *big;
}			numbers[] = {
	{"rounds", 1, 1000, NULL, &rq.rounds, NULL},
	{"seconds", 0.1, 86400, &rq.seconds, NULL, NULL},
	{"warmup", 0, 3600, &rq.warmup, NULL, NULL},
	{"table-size", 1, 2147483647, NULL, NULL, &rq.table_size},
	{"tables", 1, 1000, NULL, &rq.tables, NULL},
	{"clients", 1, 1000, NULL, &rq.clients, NULL},
	{"seed", 0, 9e15, NULL, NULL, &rq.seed},
	{"max-minutes", 0, 1e6, &rq.max_minutes, NULL, NULL},
	{"threshold", 0, 1, &rq.threshold, NULL, NULL},
	{"count-threshold", 0, 1, &rq.count_threshold, NULL, NULL},
	{"confidence", 0.5, 0.9999, &rq.confidence, NULL, NULL},
	{"wait-quiet", 0.1, 1440, &rq.wait_quiet, NULL, NULL},
	{"turns", 1, 100, NULL, &rq.turns, NULL},
};

static void
take_number(const char *name, const char *text)
{
	size_t		i;
	char		opt[64];

	snprintf(opt, sizeof(opt), "--%s", name);
	for (i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
	{
		double		v;

		if (strcmp(numbers[i].name, name) != 0)
			continue;
		v = number(opt, text, numbers[i].min, numbers[i].max);
		if (numbers[i].real)
			*numbers[i].real = v;
		else if (v != floor(v))
			refuse("%s must be a whole number, not \"%s\"", opt, text);
		else if (numbers[i].whole)
			*numbers[i].whole = (int) v;
		else
			*numbers[i].big = (long long) v;
	}
}

static bool
good_label(const char *l)
{
	if (!isalnum((unsigned char) l[0]))
		return false;
	for (; *l; l++)
		if (!isalnum((unsigned char) *l) && !strchr("_.+-", *l))
			return false;
	return true;
}

/* The workloads of a --workloads list in the suite's order; refuses unknown ones. */
static void
take_workloads(const char *list)
{
	char	   *copy = strdup(list);
	char	   *save = NULL;
	char	   *name;
	char		unknown[512] = "";
	int			i;

	for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save))
		if (mb_catalog_find(name) == NULL)
			snprintf(unknown + strlen(unknown), sizeof(unknown) - strlen(unknown), "%s%s",
					 unknown[0] ? ", " : "", name);
	if (unknown[0])
		refuse("unknown workload(s): %s; `microbench list` names the 32 there are", unknown);
	free(copy);
	rq.nworkloads = 0;
	for (i = 0; i < mb_suite_num_steps; i++)
	{
		const mb_suite_step *s = &mb_suite_steps[i];
		bool		wanted = false;
		bool		seen = false;
		const char *p = list;
		int			j;

		if (s->kind != MB_SUITE_RUN)
			continue;
		while (*p)
		{
			size_t		n = strcspn(p, ",");

			wanted |= n == strlen(s->workload) && strncmp(p, s->workload, n) == 0;
			p += n + (p[n] == ',');
		}
		for (j = 0; j < rq.nworkloads; j++)
			seen |= strcmp(rq.workloads[j], s->workload) == 0;
		if ((wanted || list[0] == '\0') && !seen && rq.nworkloads < MBM_MAX_WORKLOADS)
			rq.workloads[rq.nworkloads++] = s->workload;
	}
}

/* Two different installations that load modules from one directory are one build. */
static void
check_module_dirs(void)
{
	static const char *const what[] = {"--pkglibdir", "--sharedir"};
	int			i,
				j,
				k;

	for (i = 0; i < rq.nbuilds; i++)
		for (j = i + 1; j < rq.nbuilds; j++)
		{
			char		a[1024],
						b[1024];

			/* the same installation twice is an A/A comparison, not a mistake */
			if (realpath(rq.builds[i].bindir, a) && realpath(rq.builds[j].bindir, b) &&
				strcmp(a, b) == 0)
				continue;
			for (k = 0; k < 2; k++)
			{
				char		di[1024],
							dj[1024];

				if (mbm_pg_config(&rq.builds[i], what[k], di, sizeof(di)) == 0 &&
					mbm_pg_config(&rq.builds[j], what[k], dj, sizeof(dj)) == 0 &&
					strcmp(di, dj) == 0)
					refuse("--pg %s and --pg %s are different builds that share their %s (%s),"
						   " so both would load the same modules: build each with its own"
						   " (from the upstream tarball, not Debian's patched tree)",
						   rq.builds[i].label, rq.builds[j].label, what[k] + 2, di);
			}
		}
}

/*
 * --results-db must be reachable, and hold no runs under this comparison's
 * labels: the verdicts pair a label's runs by round, so older runs of a
 * "gcc" would be judged with the new ones.
 */
static void
check_results_db(void)
{
	PGconn	   *conn = PQconnectdb(rq.results_db);
	const char *labels[2 * MAX_BUILDS];
	char	   *array;
	char		taken[512] = "";
	char		exists[8] = "";
	char		err[512];
	const char *params[1];
	int			i;

	if (PQstatus(conn) != CONNECTION_OK)
	{
		snprintf(err, sizeof(err), "%s", PQerrorMessage(conn));
		err[strcspn(err, "\n")] = '\0';
		PQfinish(conn);
		refuse("cannot reach the results database: %s", err);
	}
	for (i = 0; i < rq.nall; i++)
		labels[i] = rq.all[i].label;
	params[0] = array = mbm_labels_literal(labels, rq.nall);
	if (mbm_pg_exec(conn, "SELECT to_regclass('microbench.runs') IS NOT NULL", 0, NULL,
					exists, sizeof(exists), err, sizeof(err)) != 0 ||
		(strcmp(exists, "t") == 0 &&
		 mbm_pg_exec(conn, "SELECT coalesce(string_agg(DISTINCT label, ', '), '')"
					 " FROM microbench.runs WHERE label = ANY ($1::text[])", 1, params,
					 taken, sizeof(taken), err, sizeof(err)) != 0))
	{
		PQfinish(conn);
		refuse("the results database: %s", err);
	}
	PQfinish(conn);
	free(array);
	if (taken[0])
		refuse("the results database already holds runs labelled %s; their verdicts would mix"
			   " those runs with this comparison's: choose new labels or another database", taken);
}

/* --pg LABEL=PREFIX, --mariadb or --mysql LABEL=BINARY: one more build, in the order given. */
static void
take_build(const char *kind, const char *arg)
{
	char	   *spec = strdup(arg);	/* ours to split: ps keeps showing the command as given */
	char	   *eq = strchr(spec, '=');
	bool		pg = strcmp(kind, "pg") == 0;

	if (eq == NULL || eq == spec || eq[1] == '\0')
		refuse("--%s wants LABEL=%s, not \"%s\"", kind, pg ? "PREFIX" : "BINARY", spec);
	if ((pg ? rq.nbuilds : rq.nmy) == MAX_BUILDS)
		refuse("at most %d builds of a DBMS", MAX_BUILDS);
	*eq = '\0';
	rq.all[rq.nall].label = spec;
	if (pg)
	{
		rq.builds[rq.nbuilds].label = spec;
		rq.builds[rq.nbuilds].prefix = eq + 1;
		rq.all[rq.nall].kind = MBM_KIND_PG;
		rq.all[rq.nall++].pg = &rq.builds[rq.nbuilds++];
	}
	else
	{
		rq.my[rq.nmy].kind = kind;
		rq.my[rq.nmy].label = spec;
		rq.my[rq.nmy].binary = eq + 1;
		rq.all[rq.nall].kind = strcmp(kind, "mysql") == 0 ? MBM_KIND_MYSQL : MBM_KIND_MARIADB;
		rq.all[rq.nall++].my = &rq.my[rq.nmy++];
	}
}

static void take_precision(const char *text);
static void take_fleet(int ch, const char *text);

/* An option that names one of two things or both: which into *first and *second. */
static void
take_one_or_both(const char *opt, const char *text, const char *one, const char *other, bool *first,
				 bool *second)
{
	*first = strcmp(text, one) == 0 || strcmp(text, "both") == 0;
	*second = strcmp(text, other) == 0 || strcmp(text, "both") == 0;
	if (!*first && !*second)
		refuse("%s is %s, %s or both, not \"%s\"", opt, one, other, text);
}

/* What a request is when an option does not say. */
static void
take_defaults(void)
{
	rq.rounds = 0;				/* set by check_metric() */
	rq.seconds = 10;
	rq.warmup = 2;
	rq.turns = 1;
	rq.table_size = 100000;
	rq.tables = 1;
	rq.clients = 1;
	rq.seed = 1;
	rq.max_minutes = 60;
	rq.threshold = -1;			/* set by check_metric() */
	rq.count_threshold = 0.005;
	rq.timed = true;
	rq.confidence = 0.95;
	rq.cpus = "0";
	rq.in_server = true;
}

/* The options that name a build or give a value, defaults set first; then what is left over. */
static void
take_options(int argc, char **argv, const char **workloads, bool *suite, const char **harness,
			 bool *path_given)
{
	static const struct option opts[] = {
		{"pg", required_argument, NULL, 'p'}, {"mariadb", required_argument, NULL, 'M'},
		{"mysql", required_argument, NULL, 'M'}, {"set", required_argument, NULL, 'S'},
		{"workloads", required_argument, NULL, 'w'}, {"rounds", required_argument, NULL, 'N'},
		{"seconds", required_argument, NULL, 'N'}, {"warmup", required_argument, NULL, 'N'},
		{"table-size", required_argument, NULL, 'N'}, {"tables", required_argument, NULL, 'N'},
		{"clients", required_argument, NULL, 'N'}, {"seed", required_argument, NULL, 'N'},
		{"max-minutes", required_argument, NULL, 'N'}, {"threshold", required_argument, NULL, 'N'},
		{"confidence", required_argument, NULL, 'N'}, {"cpus", required_argument, NULL, 'u'},
		{"results-db", required_argument, NULL, 'R'}, {"out", required_argument, NULL, 'o'},
		{"keep", no_argument, NULL, 'k'}, {"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'}, {"suite", no_argument, NULL, 'a'},
		{"precision", required_argument, NULL, 'P'}, {"metric", required_argument, NULL, 'm'},
		{"count-threshold", required_argument, NULL, 'N'}, {"cache-sim", no_argument, NULL, 'c'},
		{"wait-quiet", optional_argument, NULL, 'q'}, {"turns", required_argument, NULL, 'N'},
		{"harness", required_argument, NULL, 'H'}, {"path", required_argument, NULL, 'W'},
		{"push", required_argument, NULL, 'U'}, {"campaign", required_argument, NULL, 'C'},
		{"host-label", required_argument, NULL, 'L'}, {"keep-up", no_argument, NULL, 'K'},
		{NULL, 0, NULL, 0}
	};
	int			idx = 0;
	int			ch;

	take_defaults();
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, &idx)) != -1)
	{
		switch (ch)
		{
			case 'p':
			case 'M':
				take_build(opts[idx].name, optarg);
				break;
			case 'S':
				if (rq.nsets == 32)
					refuse("at most 32 --set");
				rq.sets[rq.nsets++] = optarg;
				break;
			case 'w':
				*workloads = optarg;
				break;
			case 'a':
				*suite = true;
				break;
			case 'P':
				take_precision(optarg);
				break;
			case 'm':
				take_one_or_both("--metric", optarg, "qps", "instructions", &rq.timed, &rq.counted);
				break;
			case 'c':
				rq.cache_sim = true;
				break;
			case 'H':
				*harness = optarg;
				break;
			case 'W':
				take_one_or_both("--path", optarg, "in-server", "wire", &rq.in_server, &rq.over_wire);
				*path_given = true;
				break;
			case 'q':
				rq.wait_quiet = 10;
				if (optarg)
					take_number(opts[idx].name, optarg);
				break;
			case 'N':
				take_number(opts[idx].name, optarg);
				break;
			case 'u':
				if (!mbm_proc_cpus_valid(optarg))
					refuse("--cpus \"%s\" is not a CPU list this machine has", optarg);
				rq.cpus = optarg;
				break;
			case 'R':
				{
					char		err[256];

					if (mbm_results_db_check(optarg, err, sizeof(err)) != 0)
						refuse("%s", err);
					rq.results_db = optarg;
					break;
				}
			case 'U':
			case 'C':
			case 'L':
				take_fleet(ch, optarg);
				break;
			case 'o':
				rq.out = optarg;
				break;
			case 'k':
				rq.keep = true;
				break;
			case 'K':
				rq.keep_up = true;
				break;
			case 'h':
				usage();
				exit(0);
			case 'V':
				printf("microbench compare %s\n", MBM_VERSION);
				exit(0);
			default:
				refuse("unknown or incomplete option \"%s\"", argv[optind - 1]);
		}
	}
	if (optind < argc)
		refuse("unexpected \"%s\"", argv[optind]);
}

/*
 * --push (a conninfo without a password), --campaign and --host-label (names
 * a fleet's reports print, so one printable line).
 */
static void
take_fleet(int ch, const char *text)
{
	const char *opt = ch == 'U' ? "--push" : ch == 'C' ? "--campaign" : "--host-label";
	const char *p;
	char		err[256];

	if (ch == 'U')
	{
		if (mbm_conninfo_check("push", text, "", err, sizeof(err)) != 0)
			refuse("%s", err);
		rq.push = text;
		return;
	}
	if (text[0] == '\0' || strlen(text) > 63)
		refuse("%s wants a name of 1 to 63 characters, not \"%s\"", opt, text);
	for (p = text; *p; p++)
		if ((unsigned char) *p < 0x20 || *p == 0x7f)
			refuse("%s \"%s\" holds a control character", opt, text);
	if (ch == 'C')
		rq.campaign = text;
	else
		rq.host_label = text;
}

/* --precision P or P%: a fraction. */
static void
take_precision(const char *text)
{
	char	   *pct = strdup(text);

	if (pct[0] && pct[strlen(pct) - 1] == '%')
		pct[strlen(pct) - 1] = '\0';
	rq.precision = number("--precision", pct, 0.01, 100) / 100;
	free(pct);
}

/* Two or more builds of each DBMS given, the bases labelled alike, every label good and once, every build real. */
static void
check_builds(void)
{
	int			i,
				j;

	if (rq.nall == 0)
		refuse("give two or more builds: --pg LABEL=PREFIX --pg LABEL=PREFIX (or --mariadb"
			   " LABEL=BINARY twice)");
	if (rq.nbuilds == 1 || rq.nmy == 1)
		refuse("one %s build (\"%s\") has nothing to be compared with: give two or more",
			   rq.nbuilds == 1 ? "Postgres" : rq.my[0].kind,
			   rq.nbuilds == 1 ? rq.builds[0].label : rq.my[0].label);
	if (rq.nbuilds > 0 && rq.nmy > 0 && strcmp(rq.builds[0].label, rq.my[0].label) != 0)
		refuse("the first --pg and the first --%s are the base of the report: give them the same"
			   " label (\"%s\" and \"%s\" differ)", rq.my[0].kind, rq.builds[0].label, rq.my[0].label);
	for (i = 0; i < rq.nall; i++)
	{
		char		err[512];

		if (!good_label(rq.all[i].label))
			refuse("label \"%s\" must be letters, digits and . _ + - only", rq.all[i].label);
		for (j = 0; j < i; j++)
			if (strcmp(rq.all[i].label, rq.all[j].label) == 0 &&
				mbm_column(&rq.all[i]) == mbm_column(&rq.all[j]))
				refuse("label \"%s\" is used twice for %s", rq.all[i].label,
					   mbm_kind_name[rq.all[i].kind].family);
		if (mbm_build_inspect(&rq.all[i], err, sizeof(err)) != 0)
			refuse("%s", err);
	}
	check_module_dirs();
}

/*
 * --harness LABEL: the Postgres build whose compiler and flags build the
 * extension for every build, so that the in-server harness is the same code
 * in each (default: the first --pg build).
 */
static void
choose_harness(const char *label)
{
	int			i;

	rq.harness = rq.nbuilds > 0 ? &rq.builds[0] : NULL;
	if (label == NULL)
		return;
	for (i = 0; i < rq.nbuilds; i++)
		if (strcmp(rq.builds[i].label, label) == 0)
			rq.harness = &rq.builds[i];
	if (rq.nbuilds == 0 || strcmp(rq.harness->label, label) != 0)
		refuse("--harness %s: no --pg build is labelled so (the harness is built with a Postgres"
			   " build's compiler and flags)", label);
}

/* The results database's Postgres: the first build's, or pg_config's on PATH. */
static void
choose_results_pg(void)
{
	char		bindir[1024] = "";
	char		err[512];
	FILE	   *f;

	if (rq.nbuilds > 0)
	{
		rq.results_pg = rq.builds[0];
		return;
	}
	if (rq.results_db)
		return;
	f = popen("pg_config --bindir 2>/dev/null", "r");
	if (f == NULL || fgets(bindir, sizeof(bindir), f) == NULL)
		bindir[0] = '\0';
	if (f)
		pclose(f);
	bindir[strcspn(bindir, "\n")] = '\0';
	if (bindir[0] == '\0')
		refuse("a Postgres is needed for the results: give --results-db or put pg_config on PATH");
	rq.results_pg.label = "results";
	rq.results_pg.prefix = strdup(dirname(bindir));
	if (mbm_pgbuild_inspect(&rq.results_pg, err, sizeof(err)) != 0)
		refuse("the results database's Postgres: %s", err);
}

/* Every --set [[DBMS/]LABEL:]NAME=VALUE well formed, naming a build there is. */
static void
check_sets(void)
{
	int			i,
				j;

	for (i = 0; i < rq.nsets; i++)
	{
		const char *spec = rq.sets[i];
		const char *eq = strchr(spec, '=');
		const char *colon = strchr(spec, ':');
		const char *slash;
		const char *label;
		const char *dbms = NULL;
		size_t		ll;
		bool		found = false;

		if (eq == NULL || eq == spec)
			refuse("--set wants [[DBMS/]LABEL:]NAME=VALUE, not \"%s\"", spec);
		if (colon == NULL || colon > eq)
			continue;
		slash = memchr(spec, '/', (size_t) (colon - spec));
		label = slash ? slash + 1 : spec;
		ll = (size_t) (colon - label);
		if (slash)
		{
			size_t		dl = (size_t) (slash - spec);

			dbms = dl == 8 && strncmp(spec, "postgres", 8) == 0 ? "postgres" :
				dl == 7 && strncmp(spec, "mariadb", 7) == 0 ? "mariadb" :
				dl == 5 && strncmp(spec, "mysql", 5) == 0 ? "mysql" : NULL;
			if (dbms == NULL)
				refuse("--set %s: the DBMS before / is postgres, mariadb or mysql", spec);
		}
		for (j = 0; j < rq.nall; j++)
			found |= strlen(rq.all[j].label) == ll && strncmp(rq.all[j].label, label, ll) == 0 &&
				(dbms == NULL || strcmp(dbms, mbm_kind_name[rq.all[j].kind].family) == 0);
		if (!found)
			refuse("--set %s: no %s%sbuild is labelled \"%.*s\"", spec, dbms ? dbms : "",
				   dbms ? " " : "", (int) ll, label);
	}
}

/* --out: given, and a new or empty directory. */
static void
check_out(void)
{
	DIR		   *d;
	struct dirent *e;

	if (rq.out == NULL)
		refuse("--out DIR is required");
	d = opendir(rq.out);
	if (d == NULL && errno != ENOENT)
		refuse("--out %s cannot be read: %s", rq.out, strerror(errno));
	while (d && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
		{
			closedir(d);
			refuse("--out %s is not empty: give a new or empty directory", rq.out);
		}
	if (d)
		closedir(d);
}

/*
 * What --metric asks: the defaults that depend on it (a counted comparison
 * alone takes --threshold for its instructions), and what counting needs:
 * valgrind, one client
 * (the work of several depends on how they interleave in time), and for a
 * MariaDB whether it must be told its pool's maximum.
 */
static void
check_metric(bool threshold_given)
{
	char		err[512];
	int			i;

	if (rq.counted && !rq.timed && threshold_given)
		rq.count_threshold = rq.threshold;
	if (rq.threshold < 0)
		rq.threshold = 0.02;
	if (rq.rounds == 0)
		rq.rounds = 3;
	if (rq.cache_sim && !rq.counted)
		refuse("--cache-sim simulates the caches of counted runs: give --metric instructions or both too");
	if (rq.keep_up && !rq.timed)
		refuse("--keep-up keeps the servers of timed runs up: give --metric qps or both too");
	if (!rq.counted)
		return;
	if (rq.clients != 1)
		refuse("--metric instructions counts the work of one client: give --clients 1, not %d",
			   rq.clients);
	if (mbm_count_tools(rq.nmy > 0, err, sizeof(err)) != 0)
		refuse("%s", err);
	for (i = 0; i < rq.nmy; i++)
		rq.my[i].pool_size_max = mbm_mybuild_has_option(&rq.my[i], "innodb-buffer-pool-size-max");
}

/*
 * The builds as measured: each Postgres build once per --path, in-server
 * first, so that a build's two paths run side by side in every step.
 */
static void
choose_paths(bool path_given)
{
	int			i;

	if (path_given && rq.nbuilds == 0)
		refuse("--path says how Postgres builds are measured: give --pg builds, or leave it out");
	for (i = 0; i < rq.nall; i++)
	{
		bool		pg = rq.all[i].kind == MBM_KIND_PG;

		/* the kind of each measured server, chosen here once: a Postgres build's by --path */
		if (!pg || rq.in_server)
			rq.measured[rq.nmeasured++] = rq.all[i];
		if (pg && rq.over_wire)
		{
			rq.measured[rq.nmeasured] = rq.all[i];
			rq.measured[rq.nmeasured++].kind = MBM_KIND_PG_WIRE;
		}
	}
}

/* The request from argv, every input checked; a refusal exits 2 with nothing written. */
void
mbm_request_parse(int argc, char **argv)
{
	const char *workloads = "";
	const char *harness = NULL;
	bool		suite = false;
	bool		path_given = false;

	take_options(argc, argv, &workloads, &suite, &harness, &path_given);
	check_builds();
	choose_paths(path_given);
	choose_harness(harness);
	check_metric(rq.threshold >= 0);
	if (rq.results_db)
		check_results_db();
	if (rq.push && rq.campaign == NULL)
		refuse("--push needs --campaign NAME: the name that groups this comparison's runs with"
			   " the other hosts'");
	choose_results_pg();
	check_sets();
	if (suite && workloads[0])
		refuse("give --workloads or --suite, not both");
	take_workloads(workloads);
	check_out();
}

/*
 * The settings of a build of DBMS dbms labelled label: the NAME=VALUE
 * lines of --set for every build, then its label's, then its
 * DBMS/label's; NULL when none.
 */
char *
mbm_request_settings(const char *dbms, const char *label)
{
	size_t		len = 1;
	char	   *out;
	int			pass,
				i;

	for (i = 0; i < rq.nsets; i++)
		len += strlen(rq.sets[i]) + 1;
	out = calloc(1, len);
	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < rq.nsets; i++)
		{
			const char *spec = rq.sets[i];
			const char *eq = strchr(spec, '=');
			const char *colon = strchr(spec, ':');
			const char *slash;
			bool		labelled = colon && colon < eq;

			if (!labelled)
			{
				if (pass == 0)
					sprintf(out + strlen(out), "%s\n", spec);
				continue;
			}
			slash = memchr(spec, '/', (size_t) (colon - spec));
			if ((pass == 1 && slash == NULL &&
				 strlen(label) == (size_t) (colon - spec) && strncmp(spec, label, strlen(label)) == 0) ||
				(pass == 2 && slash != NULL &&
				 strlen(dbms) == (size_t) (slash - spec) && strncmp(spec, dbms, strlen(dbms)) == 0 &&
				 strlen(label) == (size_t) (colon - slash - 1) &&
				 strncmp(slash + 1, label, strlen(label)) == 0))
				sprintf(out + strlen(out), "%s\n", colon + 1);
		}
	if (out[0] == '\0')
	{
		free(out);
		return NULL;
	}
	return out;
}

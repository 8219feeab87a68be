/*
 * mbm_compare.c — microbench compare: two or more builds of Postgres,
 * MariaDB or MySQL compared on identical data, every run on a fresh server
 * start from pristine data.
 *
 * Before anything: every input is checked (builds, labels, workloads,
 * settings, CPUs, --out) and a refusal writes nothing.  Then, once: the
 * extension is built into a build that lacks this tree's, one pristine
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
 * everywhere else.
 *
 * Exit status: 0 done; 1 a build did not start or its extension could not
 * be built (the runs so far kept and reported); 2 bad input (nothing
 * written); 128 + N after signal N (INT, TERM, HUP, PIPE), the runs so far
 * kept and reported.  Whatever the way out, no server, shared memory
 * segment or work directory is left behind (mbm_proc.c).
 */
#include "mbm.h"
#include "mbm_compare.h"
#include "mb_suite.h"

#include <ctype.h>
#include <dirent.h>
#include <libgen.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef MBM_SRC_DIR
#define MBM_SRC_DIR "."
#endif

#define MAX_BUILDS 8
#define RUN_PORT 55401
#define PRISTINE_PORT 55400
#define RESULTS_PORT 55399

/* What was asked. */
/* A build of either family, in the order the options gave them. */
typedef struct any_build
{
	const char *label;
	mbm_pgbuild *pg;			/* one of these two */
	mbm_mybuild *my;
} any_build;

typedef struct request
{
	mbm_pgbuild builds[MAX_BUILDS];	/* --pg */
	int			nbuilds;
	mbm_mybuild my[MAX_BUILDS];		/* --mariadb, --mysql */
	int			nmy;
	any_build	all[2 * MAX_BUILDS];	/* both, as given: the run order's base */
	int			nall;
	mbm_pgbuild results_pg;		/* the Postgres of the results database */
	const char *workloads[64];	/* in the suite's order */
	int			nworkloads;
	int			rounds;
	double		seconds;
	double		warmup;
	long long	table_size;
	int			tables;
	int			clients;
	long long	seed;
	double		max_minutes;
	double		threshold;
	double		confidence;
	double		precision;		/* go on until every interval is within +-this; 0: no */
	const char *cpus;
	const char *results_db;
	const char *out;
	bool		keep;
	const char *sets[32];
	int			nsets;
} request;

/* How the comparison went, for the progress lines, the manifest and the exit. */
typedef struct progress
{
	char		workdir[64];
	char		logdir[900];
	char		tool_cpus[256];
	char		started_at[64];
	uint64_t	start_ns;
	int			runs;
	int			failed_runs;
	int			rounds_done;
	double		run_s;			/* measured runs' wall time, summed */
	double		copy_s,
				boot_s,
				stop_s,
				remove_s;		/* the overhead around them, summed */
	double		pristine_s;		/* making the pristine directories */
	long long	pristine_bytes;
	FILE	   *order;			/* "round dbms workload label status" per run */
	char		status[128];
} progress;

static request rq;
static progress pg_progress;
static mbm_pgserver current;	/* the server of the run under way */
static mbm_myserver my_current;	/* ... when it is a MariaDB or MySQL one */
static mbm_pgserver results_server;
static PGconn *results;

/* A line on stderr, "microbench compare: " first and tail last. */
static void
say_with(const char *tail, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
say_with(const char *tail, const char *fmt, ...)
{
	va_list		ap;

	fprintf(stderr, "microbench compare: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", tail);
}

#define say(...) say_with("", __VA_ARGS__)
/* A request refused: one line, exit 2, nothing written. */
#define refuse(...) \
	do { say_with(" (microbench compare --help)", __VA_ARGS__); exit(MBM_EXIT_BAD_INPUT); } while (0)

static void
usage(void)
{
	printf("microbench compare — builds of a DBMS compared on identical data, every run on a\n"
		   "fresh server start from pristine data\n"
		   "\n"
		   "Usage: microbench compare --pg LABEL=PREFIX --pg LABEL=PREFIX [...] --out DIR [options]\n"
		   "       microbench compare --mariadb LABEL=BINARY --mariadb LABEL=BINARY [...] ...\n"
		   "       microbench compare build --src DIR --cc CC [--cc CC ...] --prefix-base PATH\n"
		   "\n"
		   "  --pg LABEL=PREFIX     a Postgres installation (PREFIX/bin/postgres); the first is\n"
		   "                        the base of the report; the extension is built into one\n"
		   "                        that lacks this tree's\n"
		   "  --mariadb LABEL=BINARY, --mysql LABEL=BINARY  a mariadbd or mysqld; the first\n"
		   "                        of each DBMS has the base label too\n"
		   "  --set [LABEL:]NAME=VALUE  a server setting, for every build or one\n"
		   "  --workloads A,B,...   these workloads [every one, in the suite's order]\n"
		   "  --rounds N            rounds of every cell before only undecided ones go on [3]\n"
		   "  --max-minutes M       no run pair begins that would not end within M minutes\n"
		   "                        [60]; 0: exactly --rounds rounds\n"
		   "  --seconds S           measured seconds per run [10]\n"
		   "  --warmup S            warm-up seconds per run, after the fresh start [2]\n"
		   "  --table-size N  --tables N  --clients N  --seed N   [100000, 1, 1, 1]\n"
		   "  --threshold T         smallest change called a difference [0.02]\n"
		   "  --confidence C        of the report's intervals [0.95]\n"
		   "  --cpus LIST           CPUs the servers run on (the runner takes the others) [0]\n"
		   "  --results-db CONNINFO put the runs here too (no password in it)\n"
		   "  --out DIR             report.txt, report.md, report.svg, runs.jsonl,\n"
		   "                        manifest.json and logs/ (a new or empty directory)\n"
		   "  --keep                keep the work directory (pristine data, logs)\n"
		   "\n"
		   "build: a Postgres or MariaDB source tree built with each compiler into\n"
		   "PATH-CC (docs/compare.md).\n"
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
	{"confidence", 0.5, 0.9999, &rq.confidence, NULL, NULL},
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
		if ((wanted || list[0] == '\0') && !seen && rq.nworkloads < 64)
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
 * Labels as a text[] literal, {"a","b"}, malloc'd: a bound parameter for
 * label = ANY ($1::text[]).  Labels are letters, digits and . _ + -
 * (good_label), so none needs escaping.
 */
static char *
labels_literal(const char *const *labels, int n)
{
	size_t		len = 3;
	char	   *array;
	int			i;

	for (i = 0; i < n; i++)
		len += strlen(labels[i]) + 3;
	if ((array = malloc(len)) == NULL)
		refuse("out of memory");
	strcpy(array, "{");
	for (i = 0; i < n; i++)
	{
		strcat(array, i ? ",\"" : "\"");
		strcat(array, labels[i]);
		strcat(array, "\"");
	}
	strcat(array, "}");
	return array;
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
	params[0] = array = labels_literal(labels, rq.nall);
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
		rq.all[rq.nall++].pg = &rq.builds[rq.nbuilds++];
	}
	else
	{
		rq.my[rq.nmy].kind = kind;
		rq.my[rq.nmy].label = spec;
		rq.my[rq.nmy].binary = eq + 1;
		rq.all[rq.nall++].my = &rq.my[rq.nmy++];
	}
}

static void
parse_request(int argc, char **argv)
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
		{"precision", required_argument, NULL, 'P'},
		{"mode", required_argument, NULL, 'X'}, {"restart", required_argument, NULL, 'X'},
		{"reload", required_argument, NULL, 'X'}, {"datadir", required_argument, NULL, 'X'},
		{NULL, 0, NULL, 0}
	};
	const char *workloads = "";
	bool		suite = false;
	int			idx = 0;
	int			ch;
	int			i,
				j;

	rq.rounds = 3;
	rq.seconds = 10;
	rq.warmup = 2;
	rq.table_size = 100000;
	rq.tables = 1;
	rq.clients = 1;
	rq.seed = 1;
	rq.max_minutes = 60;
	rq.threshold = 0.02;
	rq.confidence = 0.95;
	rq.cpus = "0";
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
				workloads = optarg;
				break;
			case 'a':
				suite = true;
				break;
			case 'P':
				{
					char	   *pct = strdup(optarg);

					if (pct[0] && pct[strlen(pct) - 1] == '%')
						pct[strlen(pct) - 1] = '\0';
					rq.precision = number("--precision", pct, 0.01, 100) / 100;
					free(pct);
					break;
				}
			case 'X':
				refuse("--%s no longer applies: every run is alone, on a fresh server start from"
					   " pristine data (docs/compare.md)", opts[idx].name);
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
			case 'o':
				rq.out = optarg;
				break;
			case 'k':
				rq.keep = true;
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
				(rq.all[i].pg != NULL) == (rq.all[j].pg != NULL))
				refuse("label \"%s\" is used twice for %s", rq.all[i].label,
					   rq.all[i].pg ? "postgres" : rq.all[i].my->kind);
		if (rq.all[i].pg ? mbm_pgbuild_inspect(rq.all[i].pg, err, sizeof(err)) != 0 :
			mbm_mybuild_inspect(rq.all[i].my, err, sizeof(err)) != 0)
			refuse("%s", err);
	}
	check_module_dirs();
	if (rq.results_db)
		check_results_db();
	/* the results database's Postgres: the first build's, or pg_config's on PATH */
	if (rq.nbuilds > 0)
		rq.results_pg = rq.builds[0];
	else if (rq.results_db == NULL)
	{
		char		bindir[1024] = "";
		char		err[512];
		FILE	   *f = popen("pg_config --bindir 2>/dev/null", "r");

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
	for (i = 0; i < rq.nsets; i++)
	{
		const char *spec = rq.sets[i];
		const char *eq = strchr(spec, '=');
		const char *colon = strchr(spec, ':');
		bool		found = false;

		if (eq == NULL || eq == spec)
			refuse("--set wants [[DBMS/]LABEL:]NAME=VALUE, not \"%s\"", spec);
		if (colon && colon < eq)
		{
			const char *slash = memchr(spec, '/', (size_t) (colon - spec));
			const char *label = slash ? slash + 1 : spec;
			size_t		ll = (size_t) (colon - label);
			const char *dbms = NULL;

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
					(dbms == NULL || strcmp(dbms, rq.all[j].pg ? "postgres" : rq.all[j].my->kind) == 0);
			if (!found)
				refuse("--set %s: no %s%sbuild is labelled \"%.*s\"", spec, dbms ? dbms : "",
					   dbms ? " " : "", (int) ll, label);
		}
	}
	if (suite && workloads[0])
		refuse("give --workloads or --suite, not both");
	take_workloads(workloads);
	if (rq.out == NULL)
		refuse("--out DIR is required");
	{
		DIR		   *d = opendir(rq.out);
		struct dirent *e;

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
}

/*
 * The settings of a build of DBMS dbms labelled label: the NAME=VALUE
 * lines of --set for every build, then its label's, then its
 * DBMS/label's; NULL when none.
 */
static char *
settings_of(const char *dbms, const char *label)
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

/* ---- the work directory, the extension, the pristine data, the results ---- */

static int	my_client(const mbm_myserver *srv, const char *const *extra, int nextra, char *err,
					  size_t errlen);

static char *
read_file(const char *path)
{
	FILE	   *f = fopen(path, "r");
	char	   *buf;
	long		n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t) n + 1);
	if (buf && fread(buf, 1, (size_t) n, f) != (size_t) n)
	{
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* This tree's install script, as extension/Makefile makes it; malloc'ed. */
static char *
tree_install_script(void)
{
	const char *header = "\\echo Use \"CREATE EXTENSION microbench\" to load this file. \\quit\n";
	char		dir[1100];
	char	   *names[64];
	int			n = 0;
	size_t		len = strlen(header);
	char	   *all;
	DIR		   *d;
	struct dirent *e;
	int			i;

	snprintf(dir, sizeof(dir), "%s/results_schema", MBM_SRC_DIR);
	if ((d = opendir(dir)) == NULL)
		return NULL;
	while ((e = readdir(d)) != NULL && n < 63)
		if (strlen(e->d_name) > 4 && strcmp(e->d_name + strlen(e->d_name) - 4, ".sql") == 0)
		{
			names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
			sprintf(names[n++], "%s/%s", dir, e->d_name);
		}
	closedir(d);
	qsort(names, (size_t) n, sizeof(char *), by_name);
	names[n] = malloc(strlen(MBM_SRC_DIR) + 64);
	sprintf(names[n++], "%s/extension/microbench_functions.sql", MBM_SRC_DIR);
	all = strdup(header);
	for (i = 0; i < n; i++)
	{
		char	   *part = read_file(names[i]);

		if (part == NULL)
		{
			free(all);
			all = NULL;
		}
		else if (all)
		{
			all = realloc(all, len + strlen(part) + 1);
			strcpy(all + len, part);
			len += strlen(part);
		}
		free(part);
		free(names[i]);
	}
	return all;
}

/*
 * The extension of this tree in build b: installed only when the installed
 * version's script differs from this tree's, or its library is missing.
 */
static int
ensure_extension(const mbm_pgbuild *b, char *err, size_t errlen)
{
	char		share[1024] = "",
				lib[1024] = "";
	char		path[2100];
	char		version[32] = "";
	char	   *control;
	char	   *installed;
	char	   *wanted = tree_install_script();
	bool		current;

	snprintf(path, sizeof(path), "%s/extension/microbench.control", MBM_SRC_DIR);
	if (wanted == NULL || (control = read_file(path)) == NULL)
	{
		snprintf(err, errlen, "this tree's extension is not in %s", MBM_SRC_DIR);
		free(wanted);
		return -1;
	}
	if (strstr(control, "default_version = '"))
		sscanf(strstr(control, "default_version = '") + 19, "%31[^']", version);
	free(control);
	if (mbm_pg_config(b, "--sharedir", share, sizeof(share)) != 0 ||
		mbm_pg_config(b, "--pkglibdir", lib, sizeof(lib)) != 0)
		share[0] = lib[0] = '\0';
	snprintf(path, sizeof(path), "%s/extension/microbench--%s.sql", share, version);
	installed = read_file(path);
	snprintf(path, sizeof(path), "%s/microbench.so", lib);
	current = installed && strcmp(installed, wanted) == 0 && access(path, R_OK) == 0;
	free(installed);
	free(wanted);
	if (current)
		return 0;
	printf("== building the microbench extension %s for %s (%s)\n", version, b->label, b->prefix);
	fflush(stdout);
	{
		/* the paths go in as arguments, never into the script's text */
		char		dir[1200],
					pgc[1100],
					log[1200];
		char	   *argv[] = {"/bin/sh", "-c",
			"set -e; mkdir -p \"$1\"; cp -r \"$2/common\" \"$2/extension\" \"$2/results_schema\" \"$1\"/;"
			" rm -f \"$1\"/common/*.o \"$1\"/extension/*.o \"$1\"/extension/*.so;"
			" exec make -C \"$1/extension\" PG_CONFIG=\"$3\" install",
		"sh", dir, MBM_SRC_DIR, pgc, NULL};
		mbm_spawn	how = {NULL, NULL, log};

		snprintf(dir, sizeof(dir), "%s/build-%s", pg_progress.workdir, b->label);
		snprintf(pgc, sizeof(pgc), "%s/pg_config", b->bindir);
		snprintf(log, sizeof(log), "%s/build-%s.log", pg_progress.logdir, b->label);
		if (mbm_proc_run(argv, &how, err, errlen) != 0)
		{
			snprintf(err, errlen, "could not build the extension for %s; see %.900s", b->label, log);
			return -1;
		}
	}
	return 0;
}

static long long tree_bytes;

static int
add_size(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	if (flag == FTW_F)
		tree_bytes += st->st_size;
	return 0;
}

static const char *
pristine_dir(int major, char *buf, size_t len)
{
	snprintf(buf, len, "%s/pristine-%d", pg_progress.workdir, major);
	return buf;
}

/* The MariaDB/MySQL builds of one server version share a pristine directory: the first's. */
static int
my_pristine_owner(const mbm_mybuild *b)
{
	int			j;

	for (j = 0; j < rq.nmy; j++)
		if (strcmp(rq.my[j].version, b->version) == 0)
			return j;
	return 0;
}

static const char *
pristine_path(const any_build *ab, char *buf, size_t len)
{
	if (ab->pg)
		return pristine_dir(ab->pg->major, buf, len);
	snprintf(buf, len, "%s/my-pristine-%d", pg_progress.workdir, my_pristine_owner(ab->my));
	return buf;
}

/*
 * The pristine data of a MariaDB or MySQL version: install-db, the sbtest
 * tables loaded by the client with the seed, and a slow shutdown, so that
 * purge and the change buffer are done before anyone copies it.
 */
static int
make_my_pristine(const mbm_mybuild *b, const char *dir, char *err, size_t errlen)
{
	char		seed[48];
	const char *extra[] = {seed, "prepare"};

	printf("== pristine data for %s %s (%s): %lld rows x %d table(s), seed %lld\n",
		   b->kind, strstr(b->version, "Ver ") ? strstr(b->version, "Ver ") + 4 : b->version,
		   b->label, rq.table_size, rq.tables, rq.seed);
	fflush(stdout);
	snprintf(seed, sizeof(seed), "--rand-seed=%lld", rq.seed);
	if (mbm_my_install_db(b, dir, err, errlen) != 0 ||
		mbm_my_start(&my_current, b, dir, "pristine.log", err, errlen) != 0)
		return -1;
	if (mbm_my_sql(&my_current, "CREATE DATABASE IF NOT EXISTS sbtest", err, errlen) != 0 ||
		my_client(&my_current, extra, 2, err, errlen) != 0 ||
		mbm_my_sql(&my_current, "SET GLOBAL innodb_fast_shutdown = 0", err, errlen) != 0)
	{
		mbm_my_stop(&my_current);
		return -1;
	}
	mbm_my_stop(&my_current);
	return 0;
}

/* A new database db on srv with the extension in it, connected: NULL with err set. */
static PGconn *
new_database(const mbm_pgserver *srv, const char *db, char *err, size_t errlen)
{
	char		sql[128];
	PGconn	   *conn = mbm_pg_connect(srv, "postgres", err, errlen);

	snprintf(sql, sizeof(sql), "CREATE DATABASE %s", db);	/* a name of ours */
	if (conn == NULL || mbm_pg_exec(conn, sql, 0, NULL, NULL, 0, err, errlen) != 0)
	{
		PQfinish(conn);
		return NULL;
	}
	PQfinish(conn);
	conn = mbm_pg_connect(srv, db, err, errlen);
	if (conn == NULL ||
		mbm_pg_exec(conn, "SET client_min_messages = warning", 0, NULL, NULL, 0, err, errlen) != 0 ||
		mbm_pg_exec(conn, "CREATE EXTENSION microbench", 0, NULL, NULL, 0, err, errlen) != 0)
	{
		PQfinish(conn);
		return NULL;
	}
	return conn;
}

/* One pristine data directory per major: initdb, the tables, a checkpoint, a clean stop. */
static int
make_pristine(char *err, size_t errlen)
{
	uint64_t	t0 = mbm_now_ns();
	int			i,
				j;

	for (i = 0; i < rq.nbuilds; i++)
	{
		const mbm_pgbuild *b = &rq.builds[i];
		char		dir[1100];
		char		sql[256];
		char		value[64];
		PGconn	   *conn;
		bool		done = false;

		for (j = 0; j < i; j++)
			done |= rq.builds[j].major == b->major;
		if (done)
			continue;
		pristine_dir(b->major, dir, sizeof(dir));
		printf("== pristine data for Postgres %d (%s): %lld rows x %d table(s), seed %lld\n",
			   b->major, b->label, rq.table_size, rq.tables, rq.seed);
		fflush(stdout);
		if (mbm_pg_initdb(b, dir, err, errlen) != 0 ||
			mbm_pg_start(&current, b, dir, PRISTINE_PORT, "pristine.log", true, err, errlen) != 0)
			return -1;
		conn = new_database(&current, "microbench", err, errlen);
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM bench_prepare(%d, %lld, seed => %lld)",
				 rq.tables, rq.table_size, rq.seed);
		if (conn == NULL ||
			mbm_pg_exec(conn, sql, 0, NULL, value, sizeof(value), err, errlen) != 0 ||
			mbm_pg_exec(conn, "CHECKPOINT", 0, NULL, NULL, 0, err, errlen) != 0 ||
			mbm_pg_exec(conn, "CHECKPOINT", 0, NULL, NULL, 0, err, errlen) != 0)
		{
			PQfinish(conn);
			return -1;
		}
		PQfinish(conn);
		mbm_pg_stop(&current);
		tree_bytes = 0;
		nftw(dir, add_size, 16, FTW_PHYS);
		pg_progress.pristine_bytes += tree_bytes;
	}
	for (i = 0; i < rq.nmy; i++)
	{
		any_build	ab = {rq.my[i].label, NULL, &rq.my[i]};
		char		dir[1100];

		if (my_pristine_owner(&rq.my[i]) != i)
			continue;
		pristine_path(&ab, dir, sizeof(dir));
		if (make_my_pristine(&rq.my[i], dir, err, errlen) != 0)
			return -1;
		tree_bytes = 0;
		nftw(dir, add_size, 16, FTW_PHYS);
		pg_progress.pristine_bytes += tree_bytes;
	}
	pg_progress.pristine_s = (mbm_now_ns() - t0) / 1e9;
	return 0;
}

static int
start_results(char *err, size_t errlen)
{
	char		dir[1100];
	char		value[16];
	const char *saved_cpus = mbm_pg.cpus;

	if (rq.results_db)
	{
		results = PQconnectdb(rq.results_db);
		if (PQstatus(results) != CONNECTION_OK)
		{
			snprintf(err, errlen, "cannot reach the results database: %s", PQerrorMessage(results));
			err[strcspn(err, "\n")] = '\0';
			return -1;
		}
		if (mbm_pg_exec(results, "SELECT to_regclass('microbench.runs') IS NOT NULL", 0, NULL,
						value, sizeof(value), err, errlen) != 0)
			return -1;
		if (strcmp(value, "t") != 0 &&
			mbm_pg_exec(results, "CREATE EXTENSION IF NOT EXISTS microbench", 0, NULL, NULL, 0,
						err, errlen) != 0)
			return -1;
		return 0;
	}
	/* a results server of the first build's, on the runner's CPUs, not the measured ones */
	snprintf(dir, sizeof(dir), "%s/results", pg_progress.workdir);
	mbm_pg.cpus = pg_progress.tool_cpus;
	if (mbm_pg_initdb(&rq.results_pg, dir, err, errlen) != 0 ||
		mbm_pg_start(&results_server, &rq.results_pg, dir, RESULTS_PORT, "results.log", false, err, errlen) != 0)
	{
		mbm_pg.cpus = saved_cpus;
		return -1;
	}
	mbm_pg.cpus = saved_cpus;
	results = new_database(&results_server, "results", err, errlen);
	return results ? 0 : -1;
}

/* ---- runs ---- */

static double
elapsed_s(void)
{
	return (mbm_now_ns() - pg_progress.start_ns) / 1e9;
}

static char *
clock_text(double s, char *buf)
{
	if (s < 0)
		s = 0;
	sprintf(buf, "%d:%02d", (int) s / 60, (int) s % 60);
	return buf;
}

/* The time one run takes from copy to removal: measured, else guessed. */
static double
run_estimate(void)
{
	if (pg_progress.runs + pg_progress.failed_runs > 0)
		return (pg_progress.run_s + pg_progress.copy_s + pg_progress.boot_s + pg_progress.stop_s +
				pg_progress.remove_s) / (pg_progress.runs + pg_progress.failed_runs);
	return rq.seconds + rq.warmup + 3;
}

/* Outcomes of one run. */
enum run_outcome
{
	RUN_OK, RUN_FAILED, RUN_BUILD_FAILED, RUN_STOPPED
};

/* The client of a MariaDB or MySQL run: this program, as `microbench ... CMD`. */
static int
my_client(const mbm_myserver *srv, const char *const *extra, int nextra, char *err, size_t errlen)
{
	char		sock[200],
				user[96],
				tables[32],
				size[48],
				log[1100];
	char	   *argv[32];
	int			n = 0,
				i;
	mbm_spawn	how = {NULL, NULL, log};

	snprintf(sock, sizeof(sock), "--mysql-socket=%s", srv->sock);
	snprintf(user, sizeof(user), "--mysql-user=%s", mbm_my_user(srv->build));
	snprintf(tables, sizeof(tables), "--tables=%d", rq.tables);
	snprintf(size, sizeof(size), "--table-size=%lld", rq.table_size);
	snprintf(log, sizeof(log), "%s/client.log", pg_progress.logdir);
	argv[n++] = "/proc/self/exe";
	argv[n++] = "--db-driver=mysql";
	argv[n++] = sock;
	argv[n++] = user;
	argv[n++] = "--mysql-db=sbtest";
	argv[n++] = tables;
	argv[n++] = size;
	for (i = 0; i < nextra && n < 31; i++)
		argv[n++] = (char *) extra[i];
	argv[n] = NULL;
	/* on the runner's CPUs, which it inherits; in a group of its own, stopped with us */
	return mbm_proc_run(argv, &how, err, errlen);
}

/* One run on a Postgres server that is up: bench_run() in it; its row as JSON into *line. */
static enum run_outcome
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
	enum run_outcome outcome = RUN_OK;

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
	conn = mbm_pg_connect(&current, "microbench", err, errlen);
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
static enum run_outcome
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
	snprintf(file, sizeof(file), "%s/run.jsonl", pg_progress.workdir);
	snprintf(results_file, sizeof(results_file), "--results-file=%s", file);
	unlink(file);
	if (my_client(&my_current, extra, 9, err, errlen) != 0)
	{
		snprintf(err + strlen(err), errlen - strlen(err), " (%s/client.log)", pg_progress.logdir);
		return RUN_FAILED;
	}
	if ((f = fopen(file, "r")) == NULL || fgets(buf, sizeof(buf), f) == NULL)
	{
		snprintf(err, errlen, "the client recorded no run; see %s/client.log", pg_progress.logdir);
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
static enum run_outcome
run_one(const any_build *ab, const char *workload, int round)
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
	enum run_outcome outcome;
	char	   *line = NULL;
	const char *dbms = ab->pg ? "postgres" : ab->my->kind;
	const char *log;
	int			started;

	snprintf(copy, sizeof(copy), "%s/run", pg_progress.workdir);
	pristine_path(ab, pristine, sizeof(pristine));
	t0 = mbm_now_ns();
	if (mbm_proc_copy(pristine, copy, ab->pg ? mbm_pg.owner : (mbm_pg.owner ? "mysql" : NULL),
					  err, sizeof(err)) != 0)
	{
		say("%s", err);
		return mbm_proc_stop_signal() ? RUN_STOPPED : RUN_BUILD_FAILED;
	}
	t1 = mbm_now_ns();
	started = ab->pg ? mbm_pg_start(&current, ab->pg, copy, RUN_PORT, "server.log", false, err, sizeof(err)) :
		mbm_my_start(&my_current, ab->my, copy, "server.log", err, sizeof(err));
	if (started != 0)
	{
		say("%s", err);
		mbm_proc_remove_tree(copy);
		return mbm_proc_stop_signal() ? RUN_STOPPED : RUN_BUILD_FAILED;
	}
	log = ab->pg ? current.log : my_current.log;
	t2 = mbm_now_ns();
	outcome = ab->pg ? measure_pg(ab->pg, workload, round, &line, err, sizeof(err)) :
		measure_my(ab->my, workload, round, &line, err, sizeof(err));
	if (outcome != RUN_OK && mbm_proc_stop_signal())
		outcome = RUN_STOPPED;
	t3 = mbm_now_ns();
	mbm_pg_stop(&current);
	mbm_my_stop(&my_current);
	t4 = mbm_now_ns();
	mbm_proc_remove_tree(copy);
	t5 = mbm_now_ns();

	pg_progress.copy_s += (t1 - t0) / 1e9;
	pg_progress.boot_s += (t2 - t1) / 1e9;
	pg_progress.run_s += (t3 - t2) / 1e9;
	pg_progress.stop_s += (t4 - t3) / 1e9;
	pg_progress.remove_s += (t5 - t4) / 1e9;
	if (outcome == RUN_STOPPED)
	{
		free(line);
		return outcome;
	}
	fprintf(pg_progress.order, "%d %s %s %s %s\n", round, dbms, workload, ab->label,
			outcome == RUN_OK ? "ok" : "failed");
	if (outcome == RUN_FAILED)
	{
		pg_progress.failed_runs++;
		printf("   round %d  %-8s %-26s %s: FAILED (%s); see %s\n", round, dbms, workload, ab->label,
			   err, log);
		fflush(stdout);
		return outcome;
	}
	record_run(line);
	pg_progress.runs++;
	{
		const char *p = strstr(line, "\"qps\": ");
		double		left = rq.max_minutes > 0 ? rq.max_minutes * 60 - elapsed_s() : -1;

		printf("   round %d  %-8s %-26s %-10s %10.0f QPS  (run %.1f s; copy %.1f, start %.1f, stop %.1f s;"
			   " %s in%s%s)\n", round, dbms, workload, ab->label, p ? atof(p + 7) : 0, (t3 - t2) / 1e9,
			   (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t5 - t3) / 1e9, clock_text(elapsed_s(), c1),
			   left >= 0 ? ", " : "", left >= 0 ? strcat(clock_text(left, c2), " left") : "");
		fflush(stdout);
	}
	free(line);
	return RUN_OK;
}

/* ---- labels ---- */

/* The label every other is compared with: the first build's. */
static const char *
base_label(void)
{
	return rq.all[0].label;
}

/* The other labels, each once, in the order given; how many. */
static int
other_labels(const char **others)
{
	int			n = 0,
				i,
				j;

	for (i = 0; i < rq.nall; i++)
	{
		bool		seen = strcmp(rq.all[i].label, base_label()) == 0;

		for (j = 0; j < n; j++)
			seen |= strcmp(others[j], rq.all[i].label) == 0;
		if (!seen)
			others[n++] = rq.all[i].label;
	}
	return n;
}

/* ---- verdicts between rounds ---- */

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
	int			nothers = other_labels(others);
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
		const char *params[6] = {base_label(), others[i], interim, threshold, precision, confidence};
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

/* ---- reports and manifest ---- */

/* One line of the order run (work directory's "order"): a run and how it ended. */
typedef struct order_entry
{
	int			round;
	char		dbms[32];
	char		workload[64];
	char		label[64];
	char		status[16];		/* "ok" or "failed" */
} order_entry;

/* The order run so far, to read with next_order_entry; NULL if it cannot be opened. */
static FILE *
open_order(void)
{
	char		path[1200];

	fflush(pg_progress.order);
	snprintf(path, sizeof(path), "%s/order", pg_progress.workdir);
	return fopen(path, "r");
}

static bool
next_order_entry(FILE *order, order_entry *e)
{
	char		line[512];

	while (fgets(line, sizeof(line), order))
		if (sscanf(line, "%d %31s %63s %63s %15s", &e->round, e->dbms, e->workload, e->label,
				   e->status) == 5)
			return true;
	return false;
}

/*
 * The runs that failed, per cell and build, from the order run: a line
 * each under the report, so a cell with fewer pairs than its neighbours
 * says why.  Prints nothing when every run finished.
 */
static void
print_failed_runs(FILE *f, const char *lead)
{
	char		cells[256][192];
	int			counts[256];
	int			ncells = 0,
				i;
	order_entry e;
	FILE	   *order;

	if (pg_progress.failed_runs == 0 || (order = open_order()) == NULL)
		return;
	while (next_order_entry(order, &e))
	{
		char		cell[192];

		if (strcmp(e.status, "failed") != 0)
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

static void
write_reports(void)
{
	static const char *const formats[][2] = {{"text", "txt"}, {"markdown", "md"}, {"svg", "svg"}};
	char		confidence[32],
				threshold[32];
	char	   *others;
	const char *other[2 * MAX_BUILDS];
	int			nothers = other_labels(other);
	int			i;

	if (results == NULL || pg_progress.runs == 0)
		return;
	snprintf(confidence, sizeof(confidence), "%g", rq.confidence);
	snprintf(threshold, sizeof(threshold), "%g", rq.threshold);
	others = labels_literal(other, nothers);
	for (i = 0; i < 3; i++)
	{
		const char *params[5] = {base_label(), nothers == 1 ? other[0] : others,
		formats[i][0], confidence, threshold};
		PGresult   *res = PQexecParams(results, nothers == 1 ?
									   "SELECT microbench.bench_report($1, $2, $3, confidence => $4::float8,"
									   " threshold => $5::float8)" :
									   "SELECT microbench.bench_relative($1, $2::text[], $3,"
									   " confidence => $4::float8, threshold => $5::float8)",
									   5, NULL, params, NULL, NULL, 0);
		char		path[1200];
		FILE	   *f;

		snprintf(path, sizeof(path), "%s/report.%s", rq.out, formats[i][1]);
		if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
			(f = fopen(path, "w")) != NULL)
		{
			fprintf(f, "%s\n", PQgetvalue(res, 0, 0));
			if (i < 2)
				print_failed_runs(f, i == 0 ? "-- " : "- ");
			fclose(f);
			if (i == 0)
			{
				printf("\n%s\n", PQgetvalue(res, 0, 0));
				print_failed_runs(stdout, "-- ");
			}
		}
		else
			say("could not write %s: %s", path, PQresultErrorMessage(res));
		PQclear(res);
	}
	free(others);
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

static void
write_manifest(void)
{
	char		path[1200];
	char		finished[64];
	struct utsname un;
	time_t		now = time(NULL);
	FILE	   *f;
	FILE	   *order;
	int			i,
				n = pg_progress.runs + pg_progress.failed_runs;
	bool		first = true;

	snprintf(path, sizeof(path), "%s/manifest.json", rq.out);
	if ((f = fopen(path, "w")) == NULL)
		return;
	strftime(finished, sizeof(finished), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	uname(&un);
	fprintf(f, "{\n  ");
	json_pair(f, "tool", "microbench compare " MBM_VERSION, false);
	json_pair(f, "status", pg_progress.status, false);
	json_pair(f, "started_at", pg_progress.started_at, false);
	json_pair(f, "finished_at", finished, false);
	fprintf(f, "\n  \"host\": {");
	json_pair(f, "name", un.nodename, false);
	json_pair(f, "kernel", un.release, false);
	fprintf(f, "\"cpus\": %ld},\n", sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(f, "  \"cpus\": {");
	json_pair(f, "servers", rq.cpus, false);
	json_pair(f, "runner", pg_progress.tool_cpus, true);
	fprintf(f, "},\n  \"data\": {\"pristine\": \"one directory per major version, copied for every run\","
			" \"tables\": %d, \"table_size\": %lld, \"seed\": %lld, \"bytes\": %lld, \"made_in_seconds\": %.1f},\n",
			rq.tables, rq.table_size, rq.seed, pg_progress.pristine_bytes, pg_progress.pristine_s);
	fprintf(f, "  \"runs\": {\"rounds\": %d, \"rounds_asked\": %d, \"seconds\": %g, \"warmup\": %g,"
			" \"clients\": %d, \"max_minutes\": %g, \"threshold\": %g, \"confidence\": %g,"
			" \"done\": %d, \"failed\": %d},\n",
			pg_progress.rounds_done, rq.rounds, rq.seconds, rq.warmup, rq.clients, rq.max_minutes,
			rq.threshold, rq.confidence, pg_progress.runs, pg_progress.failed_runs);
	fprintf(f, "  \"seconds_per_run\": {\"measured\": %.2f, \"copy\": %.2f, \"start\": %.2f,"
			" \"stop\": %.2f, \"remove\": %.2f},\n",
			n ? pg_progress.run_s / n : 0, n ? pg_progress.copy_s / n : 0,
			n ? pg_progress.boot_s / n : 0, n ? pg_progress.stop_s / n : 0,
			n ? pg_progress.remove_s / n : 0);
	fprintf(f, "  \"builds\": [");
	for (i = 0; i < rq.nall; i++)
	{
		const mbm_pgbuild *b = rq.all[i].pg;
		const mbm_mybuild *m = rq.all[i].my;

		fprintf(f, "%s\n    {", i ? "," : "");
		json_pair(f, "dbms", b ? "postgres" : m->kind, false);
		json_pair(f, "label", rq.all[i].label, false);
		json_pair(f, "path", b ? b->prefix : m->binary, false);
		json_pair(f, "version", b ? b->version : m->version, false);
		json_pair(f, "cc", b ? b->cc : m->cc[0] ? m->cc : NULL, false);
		json_pair(f, "cflags", b ? b->cflags : m->cflags[0] ? m->cflags : NULL, false);
		{
			const char *set = b ? b->settings : m->settings;
			char	   *flat = set ? strdup(set) : NULL;
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
			json_pair(f, "status", e.status, true);
			fputc('}', f);
			first = false;
		}
		fclose(order);
	}
	fprintf(f, "\n  ]\n}\n");
	fclose(f);
}

/* ---- the way out, whichever it is ---- */

static void
finish(const char *status, int code) __attribute__((noreturn));

static void
finish(const char *status, int code)
{
	int			n = pg_progress.runs + pg_progress.failed_runs;

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	snprintf(pg_progress.status, sizeof(pg_progress.status), "%s", status);
	mbm_pg_stop(&current);
	mbm_my_stop(&my_current);
	if (pg_progress.order)
	{
		write_reports();
		write_manifest();
	}
	if (n > 0)
		printf("%d run(s) in %s: per run %.1f s measured, %.2f s around it (copy %.2f, start %.2f,"
			   " stop %.2f, remove %.2f)%s\n", n, clock_text(elapsed_s(), (char[16]) {0}),
			   pg_progress.run_s / n,
			   (pg_progress.copy_s + pg_progress.boot_s + pg_progress.stop_s + pg_progress.remove_s) / n,
			   pg_progress.copy_s / n, pg_progress.boot_s / n, pg_progress.stop_s / n,
			   pg_progress.remove_s / n,
			   pg_progress.failed_runs ? "; some runs failed, see manifest.json" : "");
	PQfinish(results);
	results = NULL;
	mbm_pg_stop(&results_server);
	mbm_proc_kill_all();
	if (pg_progress.order)
		fclose(pg_progress.order);
	if (pg_progress.workdir[0])
	{
		if (rq.keep)
			printf("kept: %s\n", pg_progress.workdir);
		else
			mbm_proc_remove_tree(pg_progress.workdir);
	}
	fflush(stdout);
	exit(code);
}

static void
stop_if_signalled(void)
{
	int			sig = mbm_proc_stop_signal();

	if (sig)
	{
		char		status[64];

		say("interrupted by SIG%s: servers stopped; the runs finished so far are in %s/runs.jsonl",
			sig == SIGINT ? "INT" : sig == SIGTERM ? "TERM" : sig == SIGHUP ? "HUP" : "PIPE", rq.out);
		snprintf(status, sizeof(status), "interrupted by SIG%s",
				 sig == SIGINT ? "INT" : sig == SIGTERM ? "TERM" : sig == SIGHUP ? "HUP" : "PIPE");
		finish(status, 128 + sig);
	}
}

int
mbm_compare_main(int argc, char **argv)
{
	char		err[1024];
	char		path[1200];
	int			i;
	int			round;
	bool		(*undecided)[64];
	bool		budget_spent = false;
	time_t		now = time(NULL);

	mbm_progname = "microbench compare";
	if (argc > 1 && strcmp(argv[1], "build") == 0)
	{
		/* the source-build helper, a script of this tree: configure and make, per compiler */
		char		script[1100];

		snprintf(script, sizeof(script), "%s/compare/microbench-build", MBM_SRC_DIR);
		argv[1] = script;
		execv(script, argv + 1);
		say("cannot run %s: %s", script, strerror(errno));
		return MBM_EXIT_FAILED;
	}
	parse_request(argc, argv);

	/* from here on, work: everything asked was checked */
	for (i = 0; i < rq.nbuilds; i++)
		rq.builds[i].settings = settings_of("postgres", rq.builds[i].label);
	for (i = 0; i < rq.nmy; i++)
		rq.my[i].settings = settings_of(rq.my[i].kind, rq.my[i].label);
	mbm_proc_catch_signals();
	pg_progress.start_ns = mbm_now_ns();
	strftime(pg_progress.started_at, sizeof(pg_progress.started_at), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	/* the runner and its results server stay off the measured CPUs */
	mbm_proc_pin_others(rq.cpus, pg_progress.tool_cpus, sizeof(pg_progress.tool_cpus));
	if (mkdir(rq.out, 0755) != 0 && errno != EEXIST)
		refuse("cannot make --out %s: %s", rq.out, strerror(errno));
	snprintf(pg_progress.logdir, sizeof(pg_progress.logdir), "%s/logs", rq.out);
	mkdir(pg_progress.logdir, 0755);
	snprintf(pg_progress.workdir, sizeof(pg_progress.workdir), "/tmp/microbench-compare.XXXXXX");
	if (mkdtemp(pg_progress.workdir) == NULL)
	{
		pg_progress.workdir[0] = '\0';
		say("cannot make a work directory in /tmp: %s", strerror(errno));
		return MBM_EXIT_FAILED;
	}
	/* the servers' users (postgres, mysql) write sockets, copies and logs here */
	chmod(pg_progress.workdir, 01777);
	chmod(pg_progress.logdir, 01777);
	mbm_pg.workdir = pg_progress.workdir;
	mbm_pg.logdir = pg_progress.logdir;
	mbm_pg.owner = geteuid() == 0 ? "postgres" : NULL;
	mbm_pg.cpus = rq.cpus;
	mbm_pg.clients = rq.clients;
	snprintf(path, sizeof(path), "%s/order", pg_progress.workdir);
	pg_progress.order = fopen(path, "w");

	for (i = 0; i < rq.nbuilds; i++)
		if (ensure_extension(&rq.builds[i], err, sizeof(err)) != 0)
		{
			say("%s", err);
			finish("the extension could not be built", MBM_EXIT_FAILED);
		}
	/* a MariaDB comparison's results database needs the extension's report functions */
	if (rq.nbuilds == 0 && rq.results_db == NULL &&
		ensure_extension(&rq.results_pg, err, sizeof(err)) != 0)
	{
		say("%s", err);
		finish("the extension could not be built", MBM_EXIT_FAILED);
	}
	stop_if_signalled();
	if (start_results(err, sizeof(err)) != 0)
	{
		say("results database: %s", err);
		stop_if_signalled();
		finish("the results database failed", MBM_EXIT_FAILED);
	}
	if (make_pristine(err, sizeof(err)) != 0)
	{
		say("pristine data: %s", err);
		stop_if_signalled();
		finish("the pristine data could not be made", MBM_EXIT_FAILED);
	}
	printf("== %d workload(s), %d build(s); pristine data %.1f MB made in %.1f s; servers on CPU(s) %s\n",
		   rq.nworkloads, rq.nall, pg_progress.pristine_bytes / 1048576.0, pg_progress.pristine_s,
		   rq.cpus);
	fflush(stdout);

	undecided = calloc(2, sizeof(*undecided));
	for (round = 1; !budget_spent; round++)
	{
		int			step = 0;
		int			w,
					cells_to_run = 0;

		for (w = 0; w < rq.nworkloads; w++)
			cells_to_run += round <= rq.rounds || undecided[0][w] || undecided[1][w];
		if (cells_to_run == 0)
			break;
		if (rq.max_minutes == 0 && round > rq.rounds)
			break;
		printf("== round %d: %d workload(s)\n", round, cells_to_run);
		fflush(stdout);
		for (w = 0; w < rq.nworkloads && !budget_spent; w++)
		{
			int			k;

			int			runs_here = 0;

			if (round > rq.rounds && !undecided[0][w] && !undecided[1][w])
				continue;
			step++;
			for (k = 0; k < rq.nall; k++)
				runs_here += round <= rq.rounds || undecided[rq.all[k].pg ? 0 : 1][w];
			/* a step that would not end within the budget does not begin */
			if (rq.max_minutes > 0 &&
				elapsed_s() + runs_here * run_estimate() > rq.max_minutes * 60)
			{
				say("--max-minutes (%g) spent in round %d; the report says about how many more"
					" rounds each undecided cell needs", rq.max_minutes, round);
				budget_spent = true;
				break;
			}
			for (k = 0; k < rq.nall; k++)
			{
				/* A B, then B A: the order turns from one step and round to the next */
				const any_build *ab = &rq.all[(step + round) % 2 ? rq.nall - 1 - k : k];
				enum run_outcome outcome;

				if (round > rq.rounds && !undecided[ab->pg ? 0 : 1][w])
					continue;
				outcome = run_one(ab, rq.workloads[w], round);
				stop_if_signalled();
				if (outcome == RUN_BUILD_FAILED)
					finish("a build failed", MBM_EXIT_FAILED);
			}
		}
		if (!budget_spent)
		{
			int			decided,
						differences,
						same;
			int			cells = undecided_cells(undecided, &decided, &differences, &same);
			char		c1[16];

			pg_progress.rounds_done = round;
			if (cells >= 0)
				printf("== after round %d: %d of %d cell(s) decided (%d difference(s), %d the same"
					   " within %g%%), %s in\n", round, decided, cells, differences, same,
					   rq.threshold * 100, clock_text(elapsed_s(), c1));
			fflush(stdout);
			if (cells < 0)
				finish("the results database failed", MBM_EXIT_FAILED);
		}
	}
	free(undecided);
	finish("done", pg_progress.failed_runs > 0 ? MBM_EXIT_FAILED : MBM_EXIT_OK);
}

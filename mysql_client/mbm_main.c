/*
 * mbm_main.c — microbench-mysql's command line.
 *
 * sysbench-familiar options (--threads, --time, --table-size, --mysql-host,
 * ...) and commands (list, prepare, run WORKLOAD, suite, maintain, cleanup,
 * and load FILE... for results files, mbm_load.c).  Every request
 * is validated before anything connects; a bad one gets a single line on
 * stderr and exit code 2.  The password is never an option: it comes from
 * MYSQL_PWD or from --defaults-file, and is never printed; an option that
 * tries to give one is refused without being repeated, and so is a
 * --results-db that holds one.  prepare, run and suite stop cleanly on
 * SIGINT and SIGTERM (mbm_stop.c).  The options that drive a run the way
 * sysbench's do (--ignore-errors, --db-ps-mode, --rate, --events,
 * --reconnect) are the extension's bench_run arguments under sysbench's
 * names; docs/run-options.md explains them for both.
 */
#include "mbm.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
usage(FILE *out)
{
	fprintf(out,
			"microbench-mysql %s — the microbench workloads against MySQL and MariaDB\n"
			"\n"
			"Usage: microbench-mysql [options] list | prepare | run WORKLOAD | suite | maintain | cleanup\n"
			"       microbench-mysql [--results-db=CONNINFO] load FILE...\n"
			"\n"
			"Commands:\n"
			"  list                 the 32 microbenchmarks (name, group, queries per event)\n"
			"  prepare              create and load sbtest1..N, index k_N after the load\n"
			"  run WORKLOAD         run one microbenchmark and record the result\n"
			"  suite                the standard suite, in the standard suite order\n"
			"                       (docs/workloads.md), recording each run\n"
			"  maintain             the suite's post-write step alone: ANALYZE TABLE and a\n"
			"                       wait for InnoDB's dirty pages to be written\n"
			"  cleanup              drop the sbtest tables\n"
			"  load FILE...         load results files (JSON lines; - for standard input)\n"
			"                       into --results-db, all or nothing; runs already there\n"
			"                       are skipped\n"
			"\n"
			"Run options:\n"
			"  --threads=N          clients, one connection each [1]\n"
			"  --time=SECONDS       measured window; 0: no limit, with --events [60]\n"
			"  --warmup-time=SECONDS  events before the window, not counted [5]\n"
			"  --tables=N           number of sbtest tables [1]\n"
			"  --table-size=N       rows per table (the key range) [1000000]\n"
			"  --range-size=N       R for workloads that have one [the catalog's]\n"
			"  --rand-type=NAME     uniform, zipfian, gaussian, pareto, special [uniform]\n"
			"  --rand-seed=N        repeatable key sequences [from the clock]\n"
			"  --report-interval=SECONDS  progress line every N seconds [0: none]\n"
			"  --ignore-errors=N,...  MySQL error numbers an event may hit without stopping\n"
			"                       the run: rolled back, counted by code [1213,1205,1062];\n"
			"                       none: every error stops it\n"
			"  --db-ps-mode=MODE    auto: prepared statements; disable: SQL text with the\n"
			"                       values written in, parsed every time [auto]\n"
			"  --rate=N             events per second over all threads, Poisson arrivals,\n"
			"                       latency from the scheduled start [0: no limit]\n"
			"  --events=N           stop after N measured events (with --time, whichever\n"
			"                       comes first; --time=0: no time limit) [no limit]\n"
			"  --reconnect=N        each thread connects anew every N events [0: never]\n"
			"\n"
			"Suite options:\n"
			"  --read-time=SECONDS  per read benchmark [60]\n"
			"  --write-time=SECONDS per write benchmark [90]\n"
			"  --insert-time=SECONDS  for the final delete and insert [60]\n"
			"  --workloads=A,B,...  run only these (warm-up and maintenance stay)\n"
			"\n"
			"Connection (the password comes from MYSQL_PWD or --defaults-file):\n"
			"  --mysql-host=HOST  --mysql-port=PORT  --mysql-socket=PATH\n"
			"  --mysql-user=USER  --mysql-db=DB [sbtest]  --defaults-file=FILE\n"
			"  --mysql-engine=ENGINE  storage engine for prepare [InnoDB]\n"
			"\n"
			"Recording:\n"
			"  --label=NAME         your name for the build, e.g. gcc or clang\n"
			"  --phase=pre|post     before or after the write benchmarks [post]\n"
			"  --results-db=CONNINFO  Postgres results database (libpq string or URI);\n"
			"                       no password in it: use PGPASSWORD or ~/.pgpass;\n"
			"                       load without it: libpq's PGHOST, PGDATABASE, ...\n"
			"  --results-file=PATH  JSON-lines file used when no results database is\n"
			"                       given or it cannot be reached [microbench-results.jsonl];\n"
			"                       load it later: microbench-mysql load PATH --results-db=...\n"
			"\n"
			"Ctrl-C (SIGINT) or SIGTERM stops prepare, run or suite within about two\n"
			"seconds: the run under way is summed up, marked interrupted and not recorded;\n"
			"exit status 130 (143 for SIGTERM).  A second Ctrl-C ends the client at once.\n",
			MBM_VERSION);
}

static void
bad_input(const char *fmt, const char *arg)
{
	fprintf(stderr, "microbench-mysql: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see --help)\n");
	exit(MBM_EXIT_BAD_INPUT);
}

static long long
parse_int(const char *name, const char *text, long long min, long long max)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
	{
		char		msg[256];

		snprintf(msg, sizeof(msg), "--%s must be an integer between %lld and %lld, not \"%%s\"",
				 name, min, max);
		bad_input(msg, text);
	}
	return v;
}

/*
 * --ignore-errors: comma-separated MySQL error numbers, "none" or "" for
 * none.  What ends a connection or a statement from outside (the client
 * library's own errors, shutdown, KILL) must stop a run whatever is asked:
 * going on would count events on a connection that is gone.
 */
static void
parse_ignore_errors(const char *text, mbm_options *o)
{
	char	   *copy = strdup(text);
	char	   *save = NULL;
	char	   *item;
	size_t		used = 0;
	char		msg[512];

	o->n_ignored = 0;
	o->ignored_text[0] = '\0';
	if (strcmp(text, "none") == 0)
	{
		free(copy);
		return;
	}
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save))
	{
		char	   *end;
		unsigned long code;
		int			i;
		bool		seen = false;
		size_t		len;

		/* "1213, 1205" as well as "1213,1205" */
		while (isspace((unsigned char) *item))
			item++;
		len = strlen(item);
		while (len > 0 && isspace((unsigned char) item[len - 1]))
			item[--len] = '\0';
		errno = 0;
		code = isdigit((unsigned char) item[0]) ? strtoul(item, &end, 10) : 0;
		if (!isdigit((unsigned char) item[0]) || errno != 0 || *end != '\0' ||
			code < 1 || code > 65535)
		{
			snprintf(msg, sizeof(msg), "--ignore-errors takes MySQL error numbers such as"
					 " 1213,1205,1062 (or none), not \"%.64s\"", item);
			bad_input("%s", msg);
		}
		if (mbm_error_never_ignored((unsigned int) code))
		{
			snprintf(msg, sizeof(msg), "--ignore-errors: error %lu cannot be ignored: client"
					 " and connection errors (2000-2999), shutdown and KILL always stop a run",
					 code);
			bad_input("%s", msg);
		}
		for (i = 0; i < o->n_ignored; i++)
			seen |= o->ignore_codes[i] == (unsigned int) code;
		if (seen)
			continue;
		if (o->n_ignored >= MBM_MAX_IGNORED)
		{
			snprintf(msg, sizeof(msg), "--ignore-errors holds more than %d error numbers",
					 MBM_MAX_IGNORED);
			bad_input("%s", msg);
		}
		o->ignore_codes[o->n_ignored++] = (unsigned int) code;
		used += (size_t) snprintf(o->ignored_text + used, sizeof(o->ignored_text) - used,
								  "%s%lu", used ? "," : "", code);
	}
	free(copy);
}

static double
parse_rate(const char *text)
{
	char	   *end;
	double		v;

	errno = 0;
	v = strtod(text, &end);
	if (errno != 0 || end == text || *end != '\0' || isnan(v) || v < 0 || v > 1e8)
		bad_input("--rate must be between 0 (no limit) and 100000000 events per second,"
				  " not \"%s\"", text);
	return v;
}

static double
parse_seconds(const char *name, const char *text, bool allow_zero)
{
	char	   *end;
	double		v;

	errno = 0;
	v = strtod(text, &end);
	if (errno != 0 || end == text || *end != '\0' || isnan(v) || isinf(v) ||
		v < 0 || (!allow_zero && v == 0) || v > 7 * 24 * 3600.0)
	{
		char		msg[256];

		snprintf(msg, sizeof(msg), "--%s must be %s seconds (at most a week), not \"%%s\"",
				 name, allow_zero ? "zero or more" : "a positive number of");
		bad_input(msg, text);
	}
	return v;
}

/*
 * An option getopt did not take.  Its name only: what follows "=" (or a
 * short option's letter) may be a password typed where it does not belong.
 */
static void
bad_option(const char *arg)
{
	char		name[64];

	if (optopt > 0 && optopt < 256 && isalnum(optopt))
		snprintf(name, sizeof(name), "-%c", optopt);
	else
		snprintf(name, sizeof(name), "%.*s", (int) strcspn(arg, "="), arg);
	if (strstr(name, "pass") != NULL || strcmp(name, "-p") == 0)
		bad_input("there is no option \"%s\": the password comes from MYSQL_PWD or"
				  " --defaults-file, never from the command line", name);
	bad_input("unknown or incomplete option \"%s\"", name);
}

enum
{
	OPT_THREADS = 1000, OPT_TIME, OPT_WARMUP, OPT_TABLES, OPT_TABLE_SIZE,
	OPT_RANGE_SIZE, OPT_RAND_TYPE, OPT_RAND_SEED, OPT_REPORT_INTERVAL,
	OPT_HOST, OPT_PORT, OPT_SOCKET, OPT_USER, OPT_DB, OPT_DEFAULTS_FILE,
	OPT_ENGINE, OPT_LABEL, OPT_PHASE, OPT_RESULTS_DB, OPT_RESULTS_FILE, OPT_HELP,
	OPT_READ_TIME, OPT_WRITE_TIME, OPT_INSERT_TIME, OPT_WORKLOADS,
	OPT_IGNORE_ERRORS, OPT_PS_MODE, OPT_RATE, OPT_EVENTS, OPT_RECONNECT
};

static const struct option long_options[] = {
	{"threads", required_argument, NULL, OPT_THREADS},
	{"time", required_argument, NULL, OPT_TIME},
	{"warmup-time", required_argument, NULL, OPT_WARMUP},
	{"tables", required_argument, NULL, OPT_TABLES},
	{"table-size", required_argument, NULL, OPT_TABLE_SIZE},
	{"range-size", required_argument, NULL, OPT_RANGE_SIZE},
	{"rand-type", required_argument, NULL, OPT_RAND_TYPE},
	{"rand-seed", required_argument, NULL, OPT_RAND_SEED},
	{"report-interval", required_argument, NULL, OPT_REPORT_INTERVAL},
	{"mysql-host", required_argument, NULL, OPT_HOST},
	{"mysql-port", required_argument, NULL, OPT_PORT},
	{"mysql-socket", required_argument, NULL, OPT_SOCKET},
	{"mysql-user", required_argument, NULL, OPT_USER},
	{"mysql-db", required_argument, NULL, OPT_DB},
	{"defaults-file", required_argument, NULL, OPT_DEFAULTS_FILE},
	{"mysql-engine", required_argument, NULL, OPT_ENGINE},
	{"label", required_argument, NULL, OPT_LABEL},
	{"phase", required_argument, NULL, OPT_PHASE},
	{"results-db", required_argument, NULL, OPT_RESULTS_DB},
	{"results-file", required_argument, NULL, OPT_RESULTS_FILE},
	{"help", no_argument, NULL, OPT_HELP},
	{"read-time", required_argument, NULL, OPT_READ_TIME},
	{"write-time", required_argument, NULL, OPT_WRITE_TIME},
	{"insert-time", required_argument, NULL, OPT_INSERT_TIME},
	{"workloads", required_argument, NULL, OPT_WORKLOADS},
	{"ignore-errors", required_argument, NULL, OPT_IGNORE_ERRORS},
	{"mysql-ignore-errors", required_argument, NULL, OPT_IGNORE_ERRORS},	/* sysbench's name */
	{"db-ps-mode", required_argument, NULL, OPT_PS_MODE},
	{"rate", required_argument, NULL, OPT_RATE},
	{"events", required_argument, NULL, OPT_EVENTS},
	{"reconnect", required_argument, NULL, OPT_RECONNECT},
	{NULL, 0, NULL, 0}
};

static void
parse_options(int argc, char **argv, mbm_options *o)
{
	int			ch;

	memset(o, 0, sizeof(*o));
	o->threads = 1;
	o->time_s = 60;
	o->warmup_s = 5;
	o->tables = 1;
	o->table_size = 1000000;
	o->rand_type = MB_RAND_UNIFORM;
	o->db = "sbtest";
	o->engine = "InnoDB";
	o->phase = "post";
	o->results_file = "microbench-results.jsonl";
	o->read_time_s = 60;
	o->write_time_s = 90;
	o->insert_time_s = 60;
	/* what concurrent writers cause: deadlock, lock wait timeout, duplicate key */
	parse_ignore_errors("1213,1205,1062", o);

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", long_options, NULL)) != -1)
	{
		switch (ch)
		{
			case OPT_THREADS:
				o->threads = (int) parse_int("threads", optarg, 1, 10000);
				break;
			case OPT_TIME:
				/* 0: no time limit, with --events (checked below) */
				o->time_s = parse_seconds("time", optarg, true);
				break;
			case OPT_WARMUP:
				o->warmup_s = parse_seconds("warmup-time", optarg, true);
				break;
			case OPT_TABLES:
				o->tables = (int) parse_int("tables", optarg, 1, 100000);
				break;
			case OPT_TABLE_SIZE:
				o->table_size = parse_int("table-size", optarg, 1, 2147483647);
				break;
			case OPT_RANGE_SIZE:
				o->range_size = (int) parse_int("range-size", optarg, 1, 100000);
				break;
			case OPT_RAND_TYPE:
				if (mb_rand_type_parse(optarg, &o->rand_type) != 0)
					bad_input("unknown --rand-type \"%s\"", optarg);
				break;
			case OPT_RAND_SEED:
				o->seeded = true;
				o->seed = (uint64_t) parse_int("rand-seed", optarg, 0, INT64_MAX);
				break;
			case OPT_REPORT_INTERVAL:
				o->report_interval = parse_seconds("report-interval", optarg, true);
				break;
			case OPT_HOST:
				o->host = optarg;
				break;
			case OPT_PORT:
				o->port = (int) parse_int("mysql-port", optarg, 1, 65535);
				break;
			case OPT_SOCKET:
				o->socket = optarg;
				break;
			case OPT_USER:
				o->user = optarg;
				break;
			case OPT_DB:
				o->db = optarg;
				break;
			case OPT_DEFAULTS_FILE:
				o->defaults_file = optarg;
				break;
			case OPT_ENGINE:
				if (optarg[0] == '\0' || strspn(optarg, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
												"abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(optarg))
					bad_input("--mysql-engine must be an engine name, not \"%s\"", optarg);
				o->engine = optarg;
				break;
			case OPT_LABEL:
				o->label = optarg;
				break;
			case OPT_PHASE:
				if (strcmp(optarg, "pre") != 0 && strcmp(optarg, "post") != 0)
					bad_input("--phase must be pre or post, not \"%s\"", optarg);
				o->phase = optarg;
				break;
			case OPT_RESULTS_DB:
				o->results_db = optarg;
				break;
			case OPT_RESULTS_FILE:
				o->results_file = optarg;
				break;
			case OPT_READ_TIME:
				o->read_time_s = parse_seconds("read-time", optarg, false);
				break;
			case OPT_WRITE_TIME:
				o->write_time_s = parse_seconds("write-time", optarg, false);
				break;
			case OPT_INSERT_TIME:
				o->insert_time_s = parse_seconds("insert-time", optarg, false);
				break;
			case OPT_WORKLOADS:
				o->workloads = optarg;
				break;
			case OPT_IGNORE_ERRORS:
				parse_ignore_errors(optarg, o);
				break;
			case OPT_PS_MODE:
				if (strcmp(optarg, "auto") != 0 && strcmp(optarg, "disable") != 0)
					bad_input("--db-ps-mode must be auto or disable, not \"%s\"", optarg);
				o->ps_disable = strcmp(optarg, "disable") == 0;
				break;
			case OPT_RATE:
				o->rate = parse_rate(optarg);
				break;
			case OPT_EVENTS:
				o->event_limit = parse_int("events", optarg, 1, INT64_MAX);
				break;
			case OPT_RECONNECT:
				o->reconnect = (int) parse_int("reconnect", optarg, 0, 2147483647);
				break;
			case OPT_HELP:
			case 'h':
				usage(stdout);
				exit(MBM_EXIT_OK);
			default:
				bad_option(argv[optind - 1]);
		}
	}
	if (o->time_s == 0 && o->event_limit == 0)
		bad_input("%s", "--time=0 means no time limit, which needs --events=N to end the run");
	if (o->results_db)
	{
		char		err[256];

		if (mbm_results_db_check(o->results_db, err, sizeof(err)) != 0)
			bad_input("%s", err);
	}
}

static void
list_workloads(void)
{
	int			i;

	printf("%-26s %-36s %s\n", "name", "group", "queries/event");
	for (i = 0; i < mb_catalog_num_workloads; i++)
	{
		const mb_workload *w = &mb_catalog_workloads[i];

		printf("%-26s %-36s %d\n", w->name, mb_catalog_group_name(w->group),
			   mb_catalog_queries_per_event(w));
	}
}

int
main(int argc, char **argv)
{
	mbm_options o;
	const char *command;
	int			rc = MBM_EXIT_FAILED;	/* set by every branch: bad_input() exits */

	parse_options(argc, argv, &o);
	if (optind >= argc)
		bad_input("%s", "no command given: list, prepare, run WORKLOAD, suite, maintain,"
				  " cleanup or load FILE...");
	command = argv[optind];

	if (strcmp(command, "list") == 0)
	{
		list_workloads();
		return MBM_EXIT_OK;
	}
	/* only Postgres: the MySQL client library is not needed */
	if (strcmp(command, "load") == 0)
	{
		if (optind + 1 >= argc)
			bad_input("%s", "load needs one or more results files (- for standard input)");
		return mbm_load(&o, argv + optind + 1, argc - optind - 1);
	}
	/* cleanup is a few quick DROPs: Ctrl-C may end it the usual way */
	if (strcmp(command, "prepare") == 0 || strcmp(command, "run") == 0 ||
		strcmp(command, "suite") == 0 || strcmp(command, "maintain") == 0)
		mbm_stop_install();
	if (mysql_library_init(0, NULL, NULL) != 0)
	{
		fprintf(stderr, "microbench-mysql: cannot initialise the MySQL client library\n");
		return MBM_EXIT_FAILED;
	}
	if (strcmp(command, "prepare") == 0)
		rc = mbm_prepare(&o);
	else if (strcmp(command, "suite") == 0)
	{
		/* the suite's runs last --read-time, --write-time and --insert-time */
		if (o.event_limit > 0)
			bad_input("%s", "--events is for run: a suite's runs last --read-time,"
					  " --write-time and --insert-time");
		if (o.workloads)
		{
			char	   *copy = strdup(o.workloads);
			char	   *save = NULL;
			char	   *name;

			for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save))
				if (mb_catalog_find(name) == NULL)
					bad_input("unknown workload \"%s\" in --workloads (microbench-mysql list shows them)", name);
			free(copy);
		}
		rc = mbm_suite(&o);
	}
	else if (strcmp(command, "cleanup") == 0)
		rc = mbm_cleanup(&o);
	else if (strcmp(command, "maintain") == 0)
		rc = mbm_maintain(&o);
	else if (strcmp(command, "run") == 0)
	{
		const mb_workload *w;

		if (optind + 1 >= argc)
			bad_input("%s", "run needs a workload name (microbench-mysql list shows them)");
		w = mb_catalog_find(argv[optind + 1]);
		if (w == NULL)
			bad_input("unknown workload \"%s\" (microbench-mysql list shows them)", argv[optind + 1]);
		if (o.range_size > 0 && w->default_range == 0)
			bad_input("workload \"%s\" has no range to set with --range-size", w->name);
		rc = mbm_run(&o, w, NULL);
	}
	else
		bad_input("unknown command \"%s\"", command);
	/* a thread left blocked in the library after a stop may still use it */
	if (!mbm_stop_abandoned())
		mysql_library_end();
	return mbm_stop_exit(rc);
}

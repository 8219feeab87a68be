/*
 * mbm_main.c — the client's command line (microbench; its default driver
 * is mysql).
 *
 * sysbench-familiar options (--db-driver, --threads, --time, --table-size,
 * ...) and commands (list, prepare, run WORKLOAD, suite, maintain, cleanup,
 * and load FILE... for results files, mbm_load.c).  The options of a
 * driver (--mysql-host, --pgsql-host, ...) are its own: each driver of
 * drivers/mbm_drivers.c declares them, parses them and prints their help,
 * and this file only routes them.  Every request is validated before
 * anything connects; a bad one gets a single line on stderr and exit code
 * 2.  The password is never an option: it comes from the driver's
 * environment or files (MYSQL_PWD or --defaults-file, PGPASSWORD or
 * ~/.pgpass), and is never printed; an option that tries to give one is
 * refused without being repeated, and so is a --results-db (or a driver's
 * database option) that holds one.  prepare, run and suite stop cleanly on
 * SIGINT and SIGTERM (mbm_stop.c).  The options that drive a run the way
 * sysbench's do (--ignore-errors, --db-ps-mode, --rate, --events,
 * --reconnect) are the extension's bench_run arguments under sysbench's
 * names; docs/run-options.md explains them for both.
 */
#include "mbm.h"
#include "compare/mbm_compare.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
usage(FILE *out)
{
	int			i;

	fprintf(out,
			"%s %s — the microbench workloads over a client connection:\n"
			"MySQL and MariaDB (--db-driver=mysql), Postgres (--db-driver=pgsql)\n"
			"\n"
			"Usage: %s [options] list | prepare | run WORKLOAD | suite | maintain | cleanup\n"
			"       %s [--results-db=CONNINFO] load FILE...\n"
			"\n"
			"Commands:\n"
			"  list                 the 32 microbenchmarks (name, group, queries per event)\n"
			"  prepare              create and load sbtest1..N, index k_N after the load\n"
			"                       (LOAD DATA LOCAL on MySQL, COPY on Postgres)\n"
			"  run WORKLOAD         run one microbenchmark and record the result\n"
			"  suite                the standard suite, in the standard suite order\n"
			"                       (docs/workloads.md), recording each run\n"
			"  maintain             the suite's post-write step alone: ANALYZE TABLE and a\n"
			"                       wait for InnoDB's dirty pages to be written (mysql),\n"
			"                       VACUUM ANALYZE and CHECKPOINT (pgsql)\n"
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
			"  --ignore-errors=CODE,...  error codes an event may hit without stopping the\n"
			"                       run: rolled back, counted by code; none: every error\n"
			"                       stops it.  MySQL error numbers [1213,1205,1062] or\n"
			"                       SQLSTATEs [40P01,40001,55P03,23505]\n"
			"  --db-ps-mode=MODE    auto: server-side prepared statements; disable: SQL\n"
			"                       text with the values written in, parsed every time\n"
			"                       (on Postgres the simple query protocol) [auto]\n"
			"  --rate=N             events per second over all threads, Poisson arrivals,\n"
			"                       latency from the scheduled start [0: no limit]\n"
			"  --events=N           stop after N measured events (with --time, whichever\n"
			"                       comes first; --time=0: no time limit) [no limit]\n"
			"  --warmup-events=N    warm up for exactly N events instead of --warmup-time\n"
			"  --reconnect=N        each thread connects anew every N events [0: never]\n"
			"  --server-status=off  no monitor connection: no server status counters, data\n"
			"                       fingerprint or host CPU and disk figures around the\n"
			"                       window; the server then does the clients' work alone\n"
			"                       (counted runs under valgrind) [on]\n"
			"  --server-facts=off   no connection before the clients': the tables are not\n"
			"                       checked and the row names no server version (a run\n"
			"                       whose row is not kept, as a counted comparison's\n"
			"                       run of one event over the wire) [on]\n"
			"  --window-stop        stop this process (SIGSTOP) as the measured window\n"
			"                       opens and as it closes, each time until SIGCONT, with\n"
			"                       every thread idle: for a parent that marks the window\n"
			"                       on the server (microbench compare --metric instructions)\n"
			"\n"
			"Suite options:\n"
			"  --read-time=SECONDS  per read benchmark [60]\n"
			"  --write-time=SECONDS per write benchmark [90]\n"
			"  --insert-time=SECONDS  for the final delete and insert [60]\n"
			"  --workloads=A,B,...  run only these (warm-up and maintenance stay)\n"
			"\n"
			,mbm_progname, MBM_VERSION, mbm_progname, mbm_progname);
	fprintf(out, "Connection:\n  --db-driver=NAME     ");
	for (i = 0; mbm_drivers[i] != NULL; i++)
		fprintf(out, "%s%s (%s)", i == 0 ? "" : mbm_drivers[i + 1] ? ", " : " or ",
				mbm_drivers[i]->name, mbm_drivers[i]->dbms_title);
	fprintf(out, " [%s]\n", mbm_drivers[0]->name);
	for (i = 0; mbm_drivers[i] != NULL; i++)
		fputs(mbm_drivers[i]->help, out);
	fprintf(out, "\n"
			"Recording:\n"
			"  --label=NAME         your name for the build, e.g. gcc or clang\n"
			"  --phase=pre|post     before or after the write benchmarks [post]\n"
			"  --round=N            the round of a comparison this run belongs to (each\n"
			"                       build runs each workload once a round, side by side)\n"
			"  --instance=NAME      which start of the server ran it [asked of the server:\n"
			"                       its port and start time]\n"
			"  --results-db=CONNINFO  Postgres results database (libpq string or URI);\n"
			"                       no password in it: use PGPASSWORD or ~/.pgpass;\n"
			"                       load without it: libpq's PGHOST, PGDATABASE, ...\n"
			"  --results-file=PATH  JSON-lines file used when no results database is\n"
			"                       given or it cannot be reached [microbench-results.jsonl];\n"
			"                       load it later: %s load PATH --results-db=...\n"
			"\n"
			"Ctrl-C (SIGINT) or SIGTERM stops prepare, run or suite within about two\n"
			"seconds: the run under way is summed up, marked interrupted and not recorded;\n"
			"exit status 130 (143 for SIGTERM).  A second Ctrl-C ends the client at once.\n",
			mbm_progname);
}

static void
bad_input(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", mbm_progname);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see --help)\n");
	exit(MBM_EXIT_BAD_INPUT);
}

static long long
parse_int(const char *name, const char *text, long long min, long long max)
{
	char		err[256];
	long long	v;

	if (mbm_parse_int(name, text, min, max, &v, err, sizeof(err)) != 0)
		bad_input("%s", err);
	return v;
}

/*
 * --ignore-errors: comma-separated error codes of the driver's DBMS (MySQL
 * error numbers, Postgres SQLSTATEs), "none" or "" for none.  What ends a
 * connection or a statement from outside (the client library's own errors,
 * a lost connection, shutdown, KILL or a cancel) must stop a run whatever
 * is asked: going on would count events on a connection that is gone.
 */
static void
parse_ignore_errors(const char *text, mbm_options *o)
{
	const mbm_driver *d = o->driver;
	const mbm_code_words *words = d->codes;
	char	   *copy = strdup(text);
	char	   *save = NULL;
	char	   *item;
	size_t		used = 0;
	char		msg[512];
	const char *why;

	o->n_ignored = 0;
	o->ignored_text[0] = '\0';
	if (strcmp(text, "none") == 0)
	{
		free(copy);
		return;
	}
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save))
	{
		int			i;
		bool		seen = false;
		size_t		len;

		/* "1213, 1205" as well as "1213,1205" */
		while (isspace((unsigned char) *item))
			item++;
		len = strlen(item);
		while (len > 0 && isspace((unsigned char) item[len - 1]))
			item[--len] = '\0';
		if (len >= MBM_CODE_LEN || !d->code_valid(item))
		{
			snprintf(msg, sizeof(msg), "--ignore-errors takes %ss such as %s (or none)"
					 " with --db-driver=%s, not \"%.64s\"", words->title,
					 words->example ? words->example : words->default_ignored, d->name, item);
			bad_input("%s", msg);
		}
		if ((why = d->code_never_ignored(item)) != NULL)
		{
			snprintf(msg, sizeof(msg), "--ignore-errors: %s %s cannot be ignored: %s",
					 words->noun ? words->noun : words->title, item, why);
			bad_input("%s", msg);
		}
		for (i = 0; i < o->n_ignored; i++)
			seen |= strcmp(o->ignore_codes[i], item) == 0;
		if (seen)
			continue;
		if (o->n_ignored >= MBM_MAX_IGNORED)
		{
			snprintf(msg, sizeof(msg), "--ignore-errors holds more than %d error codes",
					 MBM_MAX_IGNORED);
			bad_input("%s", msg);
		}
		snprintf(o->ignore_codes[o->n_ignored++], MBM_CODE_LEN, "%s", item);
		used += (size_t) snprintf(o->ignored_text + used, sizeof(o->ignored_text) - used,
								  "%s%s", used ? "," : "", item);
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
 * Something of each driver in a list for a message: "mysql or pgsql",
 * "MYSQL_PWD or --defaults-file (mysql), PGPASSWORD or ~/.pgpass (pgsql)".
 */
static const char *
drivers_list(bool passwords)
{
	static char buf[512];
	size_t		len = 0;
	int			i;

	buf[0] = '\0';
	for (i = 0; mbm_drivers[i] != NULL && len < sizeof(buf); i++)
	{
		const char *sep = i == 0 ? "" : passwords ? ", " : mbm_drivers[i + 1] ? ", " : " or ";

		if (passwords)
			len += (size_t) snprintf(buf + len, sizeof(buf) - len, "%s%s (%s)", sep,
									 mbm_drivers[i]->password_from, mbm_drivers[i]->name);
		else
			len += (size_t) snprintf(buf + len, sizeof(buf) - len, "%s%s", sep,
									 mbm_drivers[i]->name);
	}
	return buf;
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
	{
		char		msg[768];

		snprintf(msg, sizeof(msg), "there is no option \"%s\": the password comes from %s,"
				 " never from the command line", name, drivers_list(true));
		bad_input("%s", msg);
	}
	bad_input("unknown or incomplete option \"%s\"", name);
}

enum
{
	OPT_THREADS = 1000, OPT_TIME, OPT_WARMUP, OPT_TABLES, OPT_TABLE_SIZE,
	OPT_RANGE_SIZE, OPT_RAND_TYPE, OPT_RAND_SEED, OPT_REPORT_INTERVAL,
	OPT_LABEL, OPT_PHASE, OPT_RESULTS_DB, OPT_RESULTS_FILE, OPT_HELP,
	OPT_READ_TIME, OPT_WRITE_TIME, OPT_INSERT_TIME, OPT_WORKLOADS,
	OPT_IGNORE_ERRORS, OPT_PS_MODE, OPT_SERVER_STATUS, OPT_SERVER_FACTS, OPT_RATE, OPT_EVENTS, OPT_RECONNECT,
	OPT_DB_DRIVER, OPT_ROUND, OPT_INSTANCE, OPT_WARMUP_EVENTS, OPT_WINDOW_STOP,
	OPT_DRIVER_FIRST			/* the drivers' options, numbered from here */
};

static const struct option core_options[] = {
	{"threads", required_argument, NULL, OPT_THREADS},
	{"time", required_argument, NULL, OPT_TIME},
	{"warmup-time", required_argument, NULL, OPT_WARMUP},
	{"tables", required_argument, NULL, OPT_TABLES},
	{"table-size", required_argument, NULL, OPT_TABLE_SIZE},
	{"range-size", required_argument, NULL, OPT_RANGE_SIZE},
	{"rand-type", required_argument, NULL, OPT_RAND_TYPE},
	{"rand-seed", required_argument, NULL, OPT_RAND_SEED},
	{"report-interval", required_argument, NULL, OPT_REPORT_INTERVAL},
	{"label", required_argument, NULL, OPT_LABEL},
	{"phase", required_argument, NULL, OPT_PHASE},
	{"round", required_argument, NULL, OPT_ROUND},
	{"instance", required_argument, NULL, OPT_INSTANCE},
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
	{"server-status", required_argument, NULL, OPT_SERVER_STATUS},
	{"server-facts", required_argument, NULL, OPT_SERVER_FACTS},
	{"rate", required_argument, NULL, OPT_RATE},
	{"events", required_argument, NULL, OPT_EVENTS},
	{"warmup-events", required_argument, NULL, OPT_WARMUP_EVENTS},
	{"window-stop", no_argument, NULL, OPT_WINDOW_STOP},
	{"reconnect", required_argument, NULL, OPT_RECONNECT},
	{"db-driver", required_argument, NULL, OPT_DB_DRIVER},
};

#define N_CORE_OPTIONS (sizeof(core_options) / sizeof(core_options[0]))

/* A driver's option as getopt sees it: val is OPT_DRIVER_FIRST + its index. */
typedef struct driver_option
{
	const mbm_driver *driver;
	const mbm_driver_option *option;
} driver_option;

/*
 * The core's options and every driver's, for getopt_long (a zero entry
 * ends them); (*owners)[i] is the driver and option of val
 * OPT_DRIVER_FIRST + i.
 */
static struct option *
all_options(driver_option **owners)
{
	size_t		n = 0;
	int			i;
	int			d;
	struct option *all;

	for (d = 0; mbm_drivers[d] != NULL; d++)
		for (i = 0; mbm_drivers[d]->options[i].name != NULL; i++)
			n++;
	all = calloc(N_CORE_OPTIONS + n + 1, sizeof(struct option));
	*owners = calloc(n + 1, sizeof(driver_option));
	if (all == NULL || *owners == NULL)
	{
		fprintf(stderr, "%s: out of memory\n", mbm_progname);
		exit(MBM_EXIT_FAILED);
	}
	memcpy(all, core_options, sizeof(core_options));
	n = 0;
	for (d = 0; mbm_drivers[d] != NULL; d++)
		for (i = 0; mbm_drivers[d]->options[i].name != NULL; i++)
		{
			struct option *opt = &all[N_CORE_OPTIONS + n];

			opt->name = mbm_drivers[d]->options[i].name;
			opt->has_arg = required_argument;
			opt->val = OPT_DRIVER_FIRST + (int) n;
			(*owners)[n].driver = mbm_drivers[d];
			(*owners)[n].option = &mbm_drivers[d]->options[i];
			n++;
		}
	return all;
}

/*
 * The options that take one value into a field of the options: an integer
 * in [min, max] ('i' an int, 'l' an int64_t), seconds ('s' zero or more,
 * 'S' more than zero), a text as given ('t'), or on or off ('o': a bool,
 * true for off).
 */
#define VALUE_OPTION(id, name, kind, min, max, field) {id, name, kind, min, max, offsetof(mbm_options, field)}
static const struct
{
	int			id;
	const char *name;
	char		kind;
	long long	min,
				max;
	size_t		offset;
}			value_options[] = {
	VALUE_OPTION(OPT_THREADS, "threads", 'i', 1, 10000, threads),
	/* --time=0: no time limit, with --events (checked below) */
	VALUE_OPTION(OPT_TIME, "time", 's', 0, 0, time_s),
	VALUE_OPTION(OPT_WARMUP, "warmup-time", 's', 0, 0, warmup_s),
	VALUE_OPTION(OPT_TABLES, "tables", 'i', 1, 100000, tables),
	VALUE_OPTION(OPT_TABLE_SIZE, "table-size", 'l', 1, 2147483647, table_size),
	VALUE_OPTION(OPT_RANGE_SIZE, "range-size", 'i', 1, 100000, range_size),
	VALUE_OPTION(OPT_REPORT_INTERVAL, "report-interval", 's', 0, 0, report_interval),
	VALUE_OPTION(OPT_ROUND, "round", 'i', 1, 2147483647, round),
	VALUE_OPTION(OPT_READ_TIME, "read-time", 'S', 0, 0, read_time_s),
	VALUE_OPTION(OPT_WRITE_TIME, "write-time", 'S', 0, 0, write_time_s),
	VALUE_OPTION(OPT_INSERT_TIME, "insert-time", 'S', 0, 0, insert_time_s),
	VALUE_OPTION(OPT_EVENTS, "events", 'l', 1, INT64_MAX, event_limit),
	VALUE_OPTION(OPT_WARMUP_EVENTS, "warmup-events", 'l', 1, INT64_MAX, warmup_events),
	VALUE_OPTION(OPT_RECONNECT, "reconnect", 'i', 0, 2147483647, reconnect),
	VALUE_OPTION(OPT_LABEL, "label", 't', 0, 0, label),
	VALUE_OPTION(OPT_RESULTS_DB, "results-db", 't', 0, 0, results_db),	/* checked below */
	VALUE_OPTION(OPT_RESULTS_FILE, "results-file", 't', 0, 0, results_file),
	VALUE_OPTION(OPT_WORKLOADS, "workloads", 't', 0, 0, workloads),
	/* on or off, into a bool that says "off" */
	VALUE_OPTION(OPT_SERVER_STATUS, "server-status", 'o', 0, 0, no_server_status),
	VALUE_OPTION(OPT_SERVER_FACTS, "server-facts", 'o', 0, 0, no_server_facts),
};

/* Option id's value into its field, if it is one of value_options: whether it was. */
static bool
take_value(mbm_options *o, int id, const char *text)
{
	size_t		i;

	for (i = 0; i < sizeof(value_options) / sizeof(value_options[0]); i++)
	{
		char	   *field = (char *) o + value_options[i].offset;

		if (value_options[i].id != id)
			continue;
		switch (value_options[i].kind)
		{
			case 'i':
				*(int *) field = (int) parse_int(value_options[i].name, text, value_options[i].min,
												 value_options[i].max);
				break;
			case 'l':
				*(int64_t *) field = parse_int(value_options[i].name, text, value_options[i].min,
											   value_options[i].max);
				break;
			case 't':
				*(const char **) field = text;
				break;
			case 'o':
				if (strcmp(text, "on") != 0 && strcmp(text, "off") != 0)
				{
					char		msg[96];

					snprintf(msg, sizeof(msg), "--%s must be on or off, not \"%%s\"", value_options[i].name);
					bad_input(msg, text);
				}
				*(bool *) field = strcmp(text, "off") == 0;
				break;
			default:
				*(double *) field = parse_seconds(value_options[i].name, text,
												  value_options[i].kind == 's');
				break;
		}
		return true;
	}
	return false;
}

static void
parse_options(int argc, char **argv, mbm_options *o)
{
	int			ch;
	const char *ignore_errors = NULL;	/* parsed once the driver is known */
	const driver_option *given = NULL;	/* the last driver option given */
	driver_option *owners;
	struct option *long_options = all_options(&owners);

	memset(o, 0, sizeof(*o));
	o->threads = 1;
	o->time_s = 60;
	o->warmup_s = 5;
	o->tables = 1;
	o->table_size = 1000000;
	o->rand_type = MB_RAND_UNIFORM;
	o->phase = "post";
	o->results_file = "microbench-results.jsonl";
	o->read_time_s = 60;
	o->write_time_s = 90;
	o->insert_time_s = 60;
	o->driver = mbm_drivers[0];

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", long_options, NULL)) != -1)
	{
		switch (ch)
		{
			case OPT_RAND_TYPE:
				if (mb_rand_type_parse(optarg, &o->rand_type) != 0)
					bad_input("unknown --rand-type \"%s\"", optarg);
				break;
			case OPT_RAND_SEED:
				o->seeded = true;
				o->seed = (uint64_t) parse_int("rand-seed", optarg, 0, INT64_MAX);
				break;
			case OPT_PHASE:
				if (strcmp(optarg, "pre") != 0 && strcmp(optarg, "post") != 0)
					bad_input("--phase must be pre or post, not \"%s\"", optarg);
				o->phase = optarg;
				break;
			case OPT_INSTANCE:
				if (optarg[0] == '\0' || strlen(optarg) >= 128)
					bad_input("--instance must be a name of 1 to 127 characters, not \"%s\"", optarg);
				o->instance = optarg;
				break;
			case OPT_IGNORE_ERRORS:
				ignore_errors = optarg;
				break;
			case OPT_DB_DRIVER:
				o->driver = mbm_driver_find(optarg);
				if (o->driver == NULL)
				{
					char		msg[256];

					snprintf(msg, sizeof(msg), "--db-driver must be %s, not \"%%s\"",
							 drivers_list(false));
					bad_input(msg, optarg);
				}
				break;
			case OPT_PS_MODE:
				if (strcmp(optarg, "auto") != 0 && strcmp(optarg, "disable") != 0)
					bad_input("--db-ps-mode must be auto or disable, not \"%s\"", optarg);
				o->ps_disable = strcmp(optarg, "disable") == 0;
				break;
			case OPT_RATE:
				o->rate = parse_rate(optarg);
				break;
			case OPT_WINDOW_STOP:
				o->window_stop = true;
				break;
			case OPT_HELP:
			case 'h':
				usage(stdout);
				exit(MBM_EXIT_OK);
			default:
				if (take_value(o, ch, optarg))
					break;
				if (ch >= OPT_DRIVER_FIRST)
				{
					const driver_option *dopt = &owners[ch - OPT_DRIVER_FIRST];
					char		err[256];

					if (dopt->option->text != NULL)
						*dopt->option->text = optarg;
					else if (dopt->option->port != NULL)
						*dopt->option->port = (int) parse_int(dopt->option->name, optarg, 1, 65535);
					else if (dopt->driver->parse_option(dopt->option->id, optarg, err,
														sizeof(err)) != 0)
						bad_input("%s", err);
					given = dopt;
					break;
				}
				bad_option(argv[optind - 1]);
		}
	}
	/* an option of another DBMS is a mistake that would go unnoticed */
	if (given && given->driver != o->driver)
	{
		char		msg[128];

		snprintf(msg, sizeof(msg), "--%s is for --db-driver=%s", given->option->name,
				 given->driver->name);
		bad_input("%s", msg);
	}
	parse_ignore_errors(ignore_errors ? ignore_errors : o->driver->codes->default_ignored, o);
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
	const char *slash = strrchr(argv[0], '/');
	int			rc = MBM_EXIT_FAILED;	/* set by every branch: bad_input() exits */

	mbm_progname = slash ? slash + 1 : argv[0];
	/* the comparison runner has options of its own */
	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return mbm_compare_main(argc - 1, argv + 1);
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
	/* only the results database: no driver is needed */
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
	if (o.driver->library_init() != 0)
	{
		fprintf(stderr, "%s: cannot initialise the %s client library\n", mbm_progname,
				o.driver->dbms_title);
		return MBM_EXIT_FAILED;
	}
	if (strcmp(command, "prepare") == 0)
		rc = o.driver->cmd_prepare(&o);
	else if (strcmp(command, "suite") == 0)
	{
		/* the suite's runs last --read-time, --write-time and --insert-time */
		if (o.event_limit > 0 || o.warmup_events > 0 || o.window_stop)
			bad_input("%s", "--events, --warmup-events and --window-stop are for run: a suite's"
					  " runs last --read-time, --write-time and --insert-time");
		if (o.workloads)
		{
			char	   *copy = strdup(o.workloads);
			char	   *save = NULL;
			char	   *name;

			for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save))
				if (mb_catalog_find(name) == NULL)
					bad_input("unknown workload \"%s\" in --workloads (the list command shows them)", name);
			free(copy);
		}
		rc = mbm_suite(&o);
	}
	else if (strcmp(command, "cleanup") == 0)
		rc = o.driver->cmd_cleanup(&o);
	else if (strcmp(command, "maintain") == 0)
		rc = o.driver->cmd_maintain(&o);
	else if (strcmp(command, "run") == 0)
	{
		const mb_workload *w;

		if (optind + 1 >= argc)
			bad_input("%s", "run needs a workload name (the list command shows them)");
		w = mb_catalog_find(argv[optind + 1]);
		if (w == NULL)
			bad_input("unknown workload \"%s\" (the list command shows them)", argv[optind + 1]);
		if (o.range_size > 0 && w->default_range == 0)
			bad_input("workload \"%s\" has no range to set with --range-size", w->name);
		rc = mbm_run(&o, w, NULL);
	}
	else
		bad_input("unknown command \"%s\"", command);
	/* a thread left blocked in the library after a stop may still use it */
	if (!mbm_stop_abandoned() && o.driver->library_end)
		o.driver->library_end();
	return mbm_stop_exit(rc);
}

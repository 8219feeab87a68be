/*
 * mbm_setup.c — what microbench compare makes once, before the first run:
 * this microbench's extension in each Postgres build that lacks it, the results
 * database, and the pristine data (one directory per Postgres major and
 * per MariaDB/MySQL version, loaded with the seed) that every run copies.
 */
#include "mbm.h"
#include "mbm_setup.h"
#include "mbm_files.h"
#include "mbm_measure.h"
#include "mbm_myserver.h"
#include "mbm_pgserver.h"
#include "mbm_proc.h"
#include "mbm_state.h"

#include <dirent.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file's bytes, NUL-terminated, their number into *size (NULL: not wanted); NULL if unread. */
/* The servers that make the pristine data, one at a time. */
static mbm_pgserver pristine_pg;
static mbm_myserver pristine_my;

static char *
read_file(const char *path, size_t *size)
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
	if (size)
		*size = (size_t) n;
	fclose(f);
	return buf;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The install script of the runner's extension sources, as extension/Makefile makes it; malloc'ed. */
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

	snprintf(dir, sizeof(dir), "%s/results_schema", mbm_files_sources());
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
	names[n] = malloc(strlen(mbm_files_sources()) + 64);
	sprintf(names[n++], "%s/extension/microbench_functions.sql", mbm_files_sources());
	all = strdup(header);
	for (i = 0; i < n; i++)
	{
		char	   *part = read_file(names[i], NULL);

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
 * What the compiler cc says it is, as the extension records the compiler
 * that built it (extension/mb_version.c): "gcc " and gcc's __VERSION__, or
 * clang's own __VERSION__ ("Debian Clang 16.0.6").  "" when it cannot say.
 */
static void
compiler_identity(const char *cc, char *out, size_t len)
{
	char	   *argv[] = {"/bin/sh", "-c",
		"v=$($1 -dM -E -x c /dev/null) || exit 1;"
		" ver=$(printf '%s\\n' \"$v\" | sed -n 's/^#define __VERSION__ \"\\(.*\\)\"$/\\1/p');"
		" case \"$v\" in *'#define __clang__ '*) echo \"$ver\" ;; *) echo \"gcc $ver\" ;; esac",
	"sh", (char *) cc, NULL};

	if (mbm_proc_output(argv, out, len) != 0)
		out[0] = '\0';
}

/* The harness's compiler as it says it is, once mbm_setup_extension has asked it. */
static char harness_compiler[256];

const char *
mbm_setup_harness_compiler(void)
{
	return harness_compiler;
}

/* The compiler the extension's library at path was built with, as it records it; "" if none. */
static void
library_compiler(const char *path, char *out, size_t len)
{
	static const char marker[] = "microbench harness compiler: ";
	size_t		size = 0;
	char	   *bytes = read_file(path, &size);
	char	   *at;

	out[0] = '\0';
	if (bytes == NULL)
		return;
	at = memmem(bytes, size, marker, sizeof(marker) - 1);
	if (at)
		snprintf(out, len, "%s", at + sizeof(marker) - 1);
	free(bytes);
}

/*
 * This microbench's extension in build b, built from the sources beside
 * the runner (mbm_files.c), its library built by the harness build's
 * compiler with that build's flags (--harness), so that every build runs
 * the same harness code: installed only when the installed version's
 * script differs from these sources', or its library is missing or was
 * built by another compiler.
 */
int
mbm_setup_extension(const mbm_pgbuild *b, const mbm_pgbuild *harness, char *err, size_t errlen)
{
	char		share[1024] = "",
				lib[1024] = "";
	char		path[2100];
	char		version[32] = "";
	char		wanted_cc[256],
				built_cc[256];
	char	   *control;
	char	   *installed;
	char	   *wanted = tree_install_script();
	bool		up_to_date;

	snprintf(path, sizeof(path), "%s/extension/microbench.control", mbm_files_sources());
	if (wanted == NULL || (control = read_file(path, NULL)) == NULL)
	{
		snprintf(err, errlen, "the extension's sources are not whole in %s: run make install again",
				 mbm_files_sources());
		free(wanted);
		return -1;
	}
	if (strstr(control, "default_version = '"))
		sscanf(strstr(control, "default_version = '") + 19, "%31[^']", version);
	free(control);
	if (mbm_pg_config(b, "--sharedir", share, sizeof(share)) != 0 ||
		mbm_pg_config(b, "--pkglibdir", lib, sizeof(lib)) != 0)
		share[0] = lib[0] = '\0';
	compiler_identity(harness->cc, wanted_cc, sizeof(wanted_cc));
	if (wanted_cc[0] == '\0')
	{
		snprintf(err, errlen, "the harness's compiler, %s's \"%s\", does not run", harness->label, harness->cc);
		free(wanted);
		return -1;
	}
	snprintf(harness_compiler, sizeof(harness_compiler), "%s", wanted_cc);
	snprintf(path, sizeof(path), "%s/extension/microbench--%s.sql", share, version);
	installed = read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/microbench.so", lib);
	library_compiler(path, built_cc, sizeof(built_cc));
	up_to_date = installed && strcmp(installed, wanted) == 0 && strcmp(built_cc, wanted_cc) == 0;
	free(installed);
	free(wanted);
	if (up_to_date)
		return 0;
	printf("== building the microbench extension %s for %s (%s) with %s, the harness of every build\n",
		   version, b->label, b->prefix, wanted_cc);
	fflush(stdout);
	{
		/* the paths and flags go in as arguments, never into the script's text */
		char		dir[1200],
					pgc[1100],
					cc[300],
					cflags[1100],
					log[1200];
		char	   *argv[] = {"/bin/sh", "-c",
			"set -e; mkdir -p \"$1\"; cp -r \"$2/common\" \"$2/extension\" \"$2/results_schema\" \"$1\"/;"
			" rm -f \"$1\"/common/*.o \"$1\"/extension/*.o \"$1\"/extension/*.so;"
			" exec make -C \"$1/extension\" PG_CONFIG=\"$3\" \"$4\" \"$5\" install",
		"sh", dir, (char *) mbm_files_sources(), pgc, cc, cflags, NULL};
		mbm_spawn	how = {NULL, NULL, log};

		snprintf(dir, sizeof(dir), "%s/build-%s", progress.workdir, b->label);
		snprintf(pgc, sizeof(pgc), "%s/pg_config", b->bindir);
		snprintf(cc, sizeof(cc), "CC=%s", harness->cc);
		snprintf(cflags, sizeof(cflags), "CFLAGS=%s", harness->cflags);
		snprintf(log, sizeof(log), "%s/build-%s.log", progress.logdir, b->label);
		if (mbm_proc_run(argv, &how, err, errlen) != 0)
		{
			snprintf(err, errlen, "could not build the extension for %s with %s; see %.900s", b->label,
					 harness->cc, log);
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
	snprintf(buf, len, "%s/pristine-%d", progress.workdir, major);
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

const char *
mbm_pristine_path_pg(const mbm_pgbuild *b, char *buf, size_t len)
{
	return pristine_dir(b->major, buf, len);
}

const char *
mbm_pristine_path_my(const mbm_mybuild *b, char *buf, size_t len)
{
	snprintf(buf, len, "%s/my-pristine-%d", progress.workdir, my_pristine_owner(b));
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
	printf("== pristine data for %s %s (%s): %lld rows x %d table(s), seed %lld\n",
		   b->kind, strstr(b->version, "Ver ") ? strstr(b->version, "Ver ") + 4 : b->version,
		   b->label, rq.table_size, rq.tables, rq.seed);
	fflush(stdout);
	if (mbm_my_install_db(b, dir, err, errlen) != 0 ||
		mbm_my_start(&pristine_my, b, dir, "my.sock", "pristine.log", err, errlen) != 0)
		return -1;
	if (mbm_my_sql(&pristine_my, "CREATE DATABASE IF NOT EXISTS sbtest", err, errlen) != 0 ||
		mbm_setup_load_my(&pristine_my, err, errlen) != 0 ||
		mbm_my_sql(&pristine_my, "SET GLOBAL innodb_fast_shutdown = 0", err, errlen) != 0)
	{
		mbm_my_stop(&pristine_my);
		return -1;
	}
	mbm_my_stop(&pristine_my);
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

/*
 * Until the statistics hold every row the loader inserted (its process
 * reports them as it exits, which may be after bench_prepare() returned),
 * at most 60 s: 0, or -1 with err set.
 */
static int
loads_counted(PGconn *conn, char *err, size_t errlen)
{
	char		want[32],
				have[32];
	uint64_t	deadline = mbm_now_ns() + 60 * 1000000000ull;
	const char *params[1] = {want};

	snprintf(want, sizeof(want), "%lld", (long long) rq.tables * rq.table_size);
	for (;;)
	{
		if (mbm_pg_exec(conn, "SELECT pg_stat_clear_snapshot()", 0, NULL, NULL, 0, err, errlen) != 0 ||
			mbm_pg_exec(conn, "SELECT coalesce(sum(n_tup_ins), 0) >= $1::bigint FROM pg_stat_user_tables"
						" WHERE relname ~ '^sbtest[0-9]+$'", 1, params, have, sizeof(have), err, errlen) != 0)
			return -1;
		if (strcmp(have, "t") == 0)
			return 0;
		if (mbm_now_ns() > deadline)
		{
			snprintf(err, errlen, "the statistics did not count the %s rows loaded within 60 s", want);
			return -1;
		}
		usleep(20000);
	}
}

/* Until conn's is the only client backend, at most 60 s: 0, or -1 with err set. */
static int
alone(PGconn *conn, char *err, size_t errlen)
{
	char		others[32];
	uint64_t	deadline = mbm_now_ns() + 60 * 1000000000ull;

	for (;;)
	{
		if (mbm_pg_exec(conn, "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
						" AND pid <> pg_backend_pid()", 0, NULL, others, sizeof(others), err, errlen) != 0)
			return -1;
		if (strcmp(others, "0") == 0)
			return 0;
		if (mbm_now_ns() > deadline)
		{
			snprintf(err, errlen, "another session of the server did not end within 60 s");
			return -1;
		}
		usleep(20000);
	}
}

int
mbm_setup_load_pg(const mbm_pgserver *srv, PGconn *conn, char *err, size_t errlen)
{
	char		sql[256];
	char		value[64];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM bench_prepare(%d, %lld, seed => %lld)",
			 rq.tables, rq.table_size, rq.seed);
	/*
	 * Then every table of the database vacuumed and analysed, the catalogs
	 * too, once the loader's counts have reached the statistics (they are
	 * this session's, pending until it flushes them: asked to, it does so
	 * as it goes idle, where unasked it waits up to a second, most of the
	 * 1.3 s a reload before each run of a write took under --keep-up); and
	 * vacuumed again from a session of its own once the analysing session
	 * has gone (a session reports its counts as it ends), for what the
	 * analysis left dead in pg_statistic.  Otherwise autovacuum does it a
	 * minute into a run, and every backend rebuilds its plans.
	 */
	if (mbm_pg_exec(conn, sql, 0, NULL, value, sizeof(value), err, errlen) != 0 ||
		mbm_pg_exec(conn, "SELECT pg_stat_force_next_flush()", 0, NULL, NULL, 0, err, errlen) != 0 ||
		loads_counted(conn, err, errlen) != 0 ||
		mbm_pg_exec(conn, "VACUUM (ANALYZE)", 0, NULL, NULL, 0, err, errlen) != 0)
	{
		PQfinish(conn);
		return -1;
	}
	PQfinish(conn);
	conn = mbm_pg_connect(srv, "microbench", err, errlen);
	if (conn == NULL || alone(conn, err, errlen) != 0 ||
		mbm_pg_exec(conn, "VACUUM", 0, NULL, NULL, 0, err, errlen) != 0 ||
		mbm_pg_exec(conn, "CHECKPOINT", 0, NULL, NULL, 0, err, errlen) != 0 ||
		mbm_pg_exec(conn, "CHECKPOINT", 0, NULL, NULL, 0, err, errlen) != 0)
	{
		PQfinish(conn);
		return -1;
	}
	PQfinish(conn);
	return 0;
}

int
mbm_setup_load_my(const mbm_myserver *srv, char *err, size_t errlen)
{
	char		seed[48];
	const char *extra[] = {seed, "prepare"};

	char		history[32] = "";
	uint64_t	deadline;

	snprintf(seed, sizeof(seed), "--rand-seed=%lld", rq.seed);
	if (mbm_my_client(srv, extra, 2, NULL, NULL, err, errlen) != 0)
		return -1;

	/*
	 * Then until purge has emptied the history list, at most 60 s: the
	 * pristine data's slow shutdown left none, and a write's run on a
	 * server kept up would otherwise start with the undo of the run
	 * before it still to purge (2,047 entries after an insert of half a
	 * second).  Past the wait it goes on: the run's data state says so.
	 * Left alone, purge takes its next batch about a second later, which
	 * made most of a reload's 0.8 s; MariaDB (10.5 and later) purges at
	 * once for a session that asks to wait for it, bounded here by the
	 * same minute, which the poll after it shares.  MySQL has no such
	 * variable: there the poll alone waits.
	 */
	deadline = mbm_now_ns() + 60 * 1000000000ull;
	if (mbm_my_sql(srv, "SET STATEMENT max_statement_time = 60 FOR SET GLOBAL innodb_max_purge_lag_wait = 0",
				   err, errlen) != 0)
		err[0] = '\0';
	do
	{
		if (mbm_my_value(srv, "SHOW GLOBAL STATUS LIKE 'Innodb_history_list_length'", 1, history,
						 sizeof(history), err, errlen) != 0)
			return -1;
		if (atoll(history) == 0)
			break;
		usleep(50000);
	} while (mbm_now_ns() < deadline && !mbm_proc_stop_signal());
	return 0;
}

/*
 * One pristine data directory per Postgres major (initdb, the tables, a
 * checkpoint, a clean stop) and per MariaDB/MySQL version.
 */
int
mbm_setup_pristine(char *err, size_t errlen)
{
	uint64_t	t0 = mbm_now_ns();
	int			i,
				j;

	for (i = 0; i < rq.nbuilds; i++)
	{
		const mbm_pgbuild *b = &rq.builds[i];
		char		dir[1100];
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
			mbm_pg_start(&pristine_pg, b, dir, PRISTINE_PORT, "pristine.log", true, err, errlen) != 0)
			return -1;
		conn = new_database(&pristine_pg, "microbench", err, errlen);
		if (conn == NULL || mbm_setup_load_pg(&pristine_pg, conn, err, errlen) != 0)
			return -1;
		mbm_pg_stop(&pristine_pg);
		tree_bytes = 0;
		nftw(dir, add_size, 16, FTW_PHYS);
		progress.pristine_bytes += tree_bytes;
	}
	for (i = 0; i < rq.nmy; i++)
	{
		char		dir[1100];

		if (my_pristine_owner(&rq.my[i]) != i)
			continue;
		mbm_pristine_path_my(&rq.my[i], dir, sizeof(dir));
		if (make_my_pristine(&rq.my[i], dir, err, errlen) != 0)
			return -1;
		tree_bytes = 0;
		nftw(dir, add_size, 16, FTW_PHYS);
		progress.pristine_bytes += tree_bytes;
	}
	progress.pristine_s = (mbm_now_ns() - t0) / 1e9;
	return 0;
}

/* Another connection to the results database, for a process the runner forked: NULL with err set. */
PGconn *
mbm_results_connect_again(char *err, size_t errlen)
{
	return rq.results_db ? mbm_results_connect(rq.results_db, err, errlen) :
		mbm_pg_connect(&results_server, "results", err, errlen);
}

/* The results database: --results-db's, or a server of our own with the extension in it. */
int
mbm_setup_results(char *err, size_t errlen)
{
	char		dir[1100];
	char		value[16];
	const char *saved_cpus = mbm_servers.cpus;

	if (rq.results_db)
	{
		bool		no_schema;

		/* runs go in through push_run(): a database without the schema gets the extension */
		if ((results = mbm_push_connect(rq.results_db, &no_schema, err, errlen)) != NULL)
			return 0;
		if (!no_schema || (results = mbm_results_connect(rq.results_db, err, errlen)) == NULL)
			return -1;
		if (mbm_pg_exec(results, "SELECT to_regclass('microbench.runs') IS NOT NULL", 0, NULL,
						value, sizeof(value), err, errlen) != 0)
			return -1;
		if (strcmp(value, "t") == 0)
		{
			snprintf(err, errlen, "the results database's schema is older than this program's (no"
					 " microbench.push_run): load results_schema/upgrade/*.sql and"
					 " results_schema/*.sql into it again (or ALTER EXTENSION microbench UPDATE)");
			return -1;
		}
		return mbm_pg_exec(results, "CREATE EXTENSION IF NOT EXISTS microbench", 0, NULL, NULL, 0,
						   err, errlen);
	}
	/* a results server of the first build's, on the runner's CPUs, not the measured ones */
	snprintf(dir, sizeof(dir), "%s/results", progress.workdir);
	mbm_servers.cpus = progress.tool_cpus;
	if (mbm_pg_initdb(&rq.results_pg, dir, err, errlen) != 0 ||
		mbm_pg_start(&results_server, &rq.results_pg, dir, RESULTS_PORT, "results.log", false, err, errlen) != 0)
	{
		mbm_servers.cpus = saved_cpus;
		return -1;
	}
	mbm_servers.cpus = saved_cpus;
	results = new_database(&results_server, "results", err, errlen);
	return results ? 0 : -1;
}

void
mbm_setup_stop(void)
{
	mbm_pg_stop(&pristine_pg);
	mbm_my_stop(&pristine_my);
}

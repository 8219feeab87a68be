/*
 * mbm_mysql_prepare.c — the mysql driver's commands: create, load and drop the
 * sbtest tables on MySQL/MariaDB, and maintain them between the suite's
 * write and read phases.
 *
 * Tables and values are exactly those of docs/workloads.md and of the
 * extension's bench_prepare: id AUTO_INCREMENT primary key, k uniform in
 * [1, table_size], c and pad from the shared templates, index k_N built
 * after the load.
 *
 * Each table is loaded by one LOAD DATA LOCAL INFILE statement whose "file"
 * the client makes on the fly (the driver's load_stream: rows go as the statement's
 * data stream, never as SQL text, and no file is written or read).  It
 * costs the server less per row than bound INSERT values, and as the first
 * statement into an empty InnoDB table it runs as a bulk insert: the
 * primary key is built in id order with no per-row undo, so nothing is left
 * for purge.  One stream per table: a second LOAD into the same table would
 * wait for the first (a LOAD holds the table's AUTO-INC lock to its end
 * under the default innodb_autoinc_lock_mode=1), and parallel INSERT streams
 * measured twice the server CPU for no gain in time.  Where LOCAL is
 * refused (local_infile=OFF), the same rows go in
 * as multi-row INSERTs of MBM_LOAD_ROWS rows, a server-side prepared
 * statement with every value bound, committed every MBM_COMMIT_ROWS rows,
 * and a one-line note says so.  Unique and foreign key checks are relaxed
 * for the loaders' sessions; tables load in parallel, one thread each, up
 * to --threads at once (mbm_tables.c).
 *
 * While it loads, a table has STATS_AUTO_RECALC=0: on MariaDB 10.11 the
 * background statistics task otherwise retries the table over and over for
 * as long as the bulk insert's transaction is open, burning a whole core
 * (about 5 s of CPU for a 1M-row load, on a 2-core machine as much as the
 * load itself).  The option is set back to DEFAULT after the load and
 * ANALYZE TABLE computes the statistics, so the table ends as the plain
 * CREATE TABLE of docs/workloads.md.
 *
 * SIGINT or SIGTERM stops the loaders between statements (a LOAD's data
 * stream just ends early) and KILL QUERY ends a long statement; the
 * tables are then incomplete and prepare says to run it again.
 */
#include "mbm.h"
#include "mbm_mysql.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mb_values.h"


/* Longest wait for dirty pages, so a busy server cannot hang the suite. */
#define MBM_FLUSH_TIMEOUT_S 300
/* Without the privilege to force a flush, how long to give the page cleaner. */
#define MBM_UNFORCED_WAIT_S 10

#define MBM_LOAD_ROWS	2000
#define MBM_COMMIT_ROWS 100000


/* What the loaders share (mbm_table_loader's arg), set up by begin_load(). */
typedef struct mysql_load
{
	const char *load_charset;	/* LOAD DATA's CHARACTER SET for this database */
	atomic_bool use_local;		/* cleared for good once LOCAL is refused */
	atomic_bool noted;			/* the fallback note is printed once */
} mysql_load;

/* ---- LOAD DATA LOCAL: the rows as a data stream ---- */

/* The rows of one table, made in id order as the library asks for data. */
/*
 * The CHARACTER SET to give LOAD DATA.  binary: the bytes go into c and pad
 * as they are, with no conversion (measured: 10-15% faster than ascii or
 * the table's own utf8mb4), which is exact for our ASCII digits in any
 * character set that encodes ASCII as single bytes.  A database whose
 * default is one of the wide sets has tables in it too, and needs the
 * digits converted: ascii.
 */
static int
choose_load_charset(const mbm_options *o, mysql_load *ml, mbm_conn *conn, char *err,
					size_t errlen)
{
	char		charset[64];
	bool		wide;

	if (mbm_query_value(o, conn, "SELECT @@character_set_database", charset,
						sizeof(charset), err, errlen) != 0)
		return -1;
	wide = strcmp(charset, "ucs2") == 0 || strncmp(charset, "utf16", 5) == 0 ||
		strcmp(charset, "utf32") == 0;
	ml->load_charset = wide ? "ascii" : "binary";
	return 0;
}

/* 0, -1 with err set, or MBM_LOAD_REFUSED (nothing was loaded). */
static int
load_rows_local(const mbm_options *o, const mysql_load *ml, mbm_conn *conn, int table,
				mb_rng *rng, atomic_bool *stop, char *err, size_t errlen)
{
	mbm_row_source src = {stop, rng, 1, o->table_size, {0}, 0, 0};
	char		sql[512];
	int64_t		rows;

	snprintf(sql, sizeof(sql),
			 "LOAD DATA LOCAL INFILE 'sbtest%d' INTO TABLE sbtest%d"
			 " CHARACTER SET %s"
			 " FIELDS TERMINATED BY '\\t' ESCAPED BY '' LINES TERMINATED BY '\\n'"
			 " (id, k, c, pad)",
			 table, table, ml->load_charset);
	rows = o->driver->load_stream(conn, sql, mbm_row_source_read, &src, err, errlen);
	if (rows < 0)
		return rows == MBM_LOAD_REFUSED ? MBM_LOAD_REFUSED : -1;
	if (rows != o->table_size)
	{
		snprintf(err, errlen, "sbtest%d: LOAD DATA loaded %lld rows, not %lld",
				 table, (long long) rows, (long long) o->table_size);
		return -1;
	}
	return 0;
}

/* ---- multi-row INSERT: where LOCAL is not allowed ---- */

/* One multi-row INSERT of 'rows' rows, ready to bind. */
static mbm_stmt *
prepare_insert(const mbm_options *o, mbm_conn *conn, int table, int rows, char *err,
			   size_t errlen)
{
	size_t		len = 128 + (size_t) rows * 16;
	char	   *sql = malloc(len);
	size_t		n;
	int			i;
	mbm_stmt   *stmt;

	n = (size_t) snprintf(sql, len, "INSERT INTO sbtest%d (id, k, c, pad) VALUES ", table);
	for (i = 0; i < rows; i++)
		n += (size_t) snprintf(sql + n, len - n, "%s(?, ?, ?, ?)", i ? ", " : "");
	stmt = o->driver->prepare(conn, sql, rows * 4, NULL, 0, err, errlen);
	free(sql);
	return stmt;
}

static int
load_rows_insert(const mbm_options *o, mbm_conn *conn, int table, mb_rng *rng,
				 atomic_bool *stop, char *err, size_t errlen)
{
	mb_bind_value *values = calloc((size_t) MBM_LOAD_ROWS * 4, sizeof(mb_bind_value));
	char	   *texts = malloc((size_t) MBM_LOAD_ROWS * (MB_C_LEN + MB_PAD_LEN));
	mbm_stmt   *full = NULL;
	int64_t		id = 1;
	int64_t		uncommitted = 0;
	int			rc = -1;

	if (o->driver->query(conn, "START TRANSACTION", err, errlen) != 0)
		goto done;

	while (id <= o->table_size)
	{
		int			rows = (int) ((o->table_size - id + 1) < MBM_LOAD_ROWS ?
								  (o->table_size - id + 1) : MBM_LOAD_ROWS);
		mbm_stmt   *stmt;
		int			i;

		if (atomic_load(stop))
		{
			snprintf(err, errlen, "stopped");
			goto done;
		}
		if (rows == MBM_LOAD_ROWS)
		{
			if (full == NULL &&
				(full = prepare_insert(o, conn, table, rows, err, errlen)) == NULL)
				goto done;
			stmt = full;
		}
		else if ((stmt = prepare_insert(o, conn, table, rows, err, errlen)) == NULL)
			goto done;

		for (i = 0; i < rows; i++)
		{
			mb_bind_value *v = &values[i * 4];
			char	   *c = texts + (size_t) i * (MB_C_LEN + MB_PAD_LEN);

			mb_values_c(rng, c);
			mb_values_pad(rng, c + MB_C_LEN);
			v[0].is_text = false;
			v[0].int_value = (int32_t) (id + i);
			v[1].is_text = false;
			v[1].int_value = (int32_t) mb_rng_uniform(rng, 1, (uint32_t) o->table_size);
			v[2].is_text = true;
			v[2].text = c;
			v[2].text_len = MB_C_LEN;
			v[3].is_text = true;
			v[3].text = c + MB_C_LEN;
			v[3].text_len = MB_PAD_LEN;
		}
		if (o->driver->execute(stmt, values, rows * 4, err, errlen) < 0)
		{
			if (stmt != full)
				o->driver->stmt_close(stmt);
			goto done;
		}
		if (stmt != full)
			o->driver->stmt_close(stmt);
		id += rows;
		uncommitted += rows;
		if (uncommitted >= MBM_COMMIT_ROWS)
		{
			if (o->driver->query(conn, "COMMIT", err, errlen) != 0 ||
				o->driver->query(conn, "START TRANSACTION", err, errlen) != 0)
				goto done;
			uncommitted = 0;
		}
	}
	if (o->driver->query(conn, "COMMIT", err, errlen) != 0)
		goto done;
	rc = 0;
done:
	if (full)
		o->driver->stmt_close(full);
	free(values);
	free(texts);
	return rc;
}

/* The loader's connection: LOAD DATA LOCAL allowed, checks relaxed. */
static mbm_conn *
loader_connect(const mbm_options *o, void *arg, char *err, size_t errlen)
{
	mbm_conn   *conn = o->driver->connect_bulk(o, err, errlen);

	if (conn != NULL &&
		(o->driver->query(conn, "SET SESSION unique_checks = 0", err, errlen) != 0 ||
		 o->driver->query(conn, "SET SESSION foreign_key_checks = 0", err, errlen) != 0))
	{
		o->driver->close(conn);
		return NULL;
	}
	return conn;
}

static int
load_table(const mbm_options *o, void *arg, mbm_conn *conn, int table, uint64_t seed,
		   atomic_bool *stop, char *err, size_t errlen)
{
	mysql_load *ml = arg;
	char		sql[512];
	mb_rng		rng;
	int			rc = MBM_LOAD_REFUSED;

	snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS sbtest%d", table);
	if (mbm_load_step(o, conn, stop, sql, err, errlen) != 0)
		return -1;
	/* STATS_AUTO_RECALC=0 for the load only: see the top of the file */
	snprintf(sql, sizeof(sql),
			 "CREATE TABLE sbtest%d (id INTEGER NOT NULL AUTO_INCREMENT,"
			 " k INTEGER NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '',"
			 " pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id)) ENGINE=%s"
			 " STATS_AUTO_RECALC=0",
			 table, mbm_mysql_settings.engine);
	if (mbm_load_step(o, conn, stop, sql, err, errlen) != 0)
		return -1;

	mb_rng_seed(&rng, seed, (uint64_t) table);
	if (atomic_load(&ml->use_local))
	{
		rc = load_rows_local(o, ml, conn, table, &rng, stop, err, errlen);
		if (rc == MBM_LOAD_REFUSED)
		{
			atomic_store(&ml->use_local, false);
			if (!atomic_exchange(&ml->noted, true))
			{
				printf("note: LOAD DATA LOCAL INFILE refused (%s); loading with multi-row INSERTs\n",
					   err);
				fflush(stdout);
			}
			/* the library never asked for data: no value was drawn */
			mb_rng_seed(&rng, seed, (uint64_t) table);
		}
	}
	if (rc == MBM_LOAD_REFUSED)
		rc = load_rows_insert(o, conn, table, &rng, stop, err, errlen);
	if (rc != 0)
		return -1;

	snprintf(sql, sizeof(sql), "CREATE INDEX k_%d ON sbtest%d (k)", table, table);
	if (mbm_load_step(o, conn, stop, sql, err, errlen) != 0)
		return -1;
	snprintf(sql, sizeof(sql), "ALTER TABLE sbtest%d STATS_AUTO_RECALC=DEFAULT", table);
	if (mbm_load_step(o, conn, stop, sql, err, errlen) != 0)
		return -1;
	snprintf(sql, sizeof(sql), "ANALYZE TABLE sbtest%d", table);
	return mbm_load_step(o, conn, stop, sql, err, errlen);
}

static void
ignore_row(void *arg, int ncols, const char *const *values)
{
}

/* Drop sbtestN for N > tables while they exist, so runs never use stale ones. */
static int
drop_tables_from(const mbm_options *o, mbm_conn *conn, int first, char *err, size_t errlen)
{
	int			t;

	for (t = first;; t++)
	{
		char		sql[128];
		int64_t		exists;

		snprintf(sql, sizeof(sql), "SHOW TABLES LIKE 'sbtest%d'", t);
		if ((exists = o->driver->query_rows(conn, sql, ignore_row, NULL, err, errlen)) < 0)
			return -1;
		if (exists == 0)
			return 0;
		snprintf(sql, sizeof(sql), "DROP TABLE sbtest%d", t);
		if (o->driver->query(conn, sql, err, errlen) != 0)
			return -1;
	}
}

/*
 * Before the loaders: no stale sbtestN beyond --tables, LOAD DATA's
 * character set, and LOCAL tried first.
 */
static int
begin_load(const mbm_options *o, void *arg, mbm_conn *conn, char *err, size_t errlen)
{
	mysql_load *ml = arg;

	atomic_init(&ml->use_local, true);
	atomic_init(&ml->noted, false);
	if (drop_tables_from(o, conn, o->tables + 1, err, errlen) != 0)
		return -1;
	return choose_load_charset(o, ml, conn, err, errlen);
}

int
mbm_mysql_prepare(const mbm_options *o)
{
	static const mbm_table_loader tl = {begin_load, loader_connect, load_table, sizeof(mysql_load)};

	return mbm_load_tables(o, &tl);
}

typedef struct tables_seen
{
	bool	   *have;			/* [1..tables] */
	int			tables;
} tables_seen;

static void
note_table(void *arg, int ncols, const char *const *row)
{
	tables_seen *ts = arg;
	char	   *end;
	long		n;

	if (ncols < 1 || row[0] == NULL || strlen(row[0]) < 7)
		return;
	n = strtol(row[0] + 6, &end, 10);
	if (*end == '\0' && end != row[0] + 6 && n >= 1 && n <= ts->tables)
		ts->have[n] = true;
}

int
mbm_mysql_check_tables(mbm_conn *conn, const mbm_options *o, bool *missing, char *err,
					   size_t errlen)
{
	bool	   *have = calloc((size_t) o->tables + 1, sizeof(bool));
	tables_seen ts = {have, o->tables};
	int			first_missing = 0;
	int			t;

	*missing = false;
	if (o->driver->query_rows(conn, "SHOW TABLES LIKE 'sbtest%'", note_table, &ts, err, errlen) < 0)
	{
		free(have);
		return -1;
	}
	for (t = 1; t <= o->tables && first_missing == 0; t++)
		if (!have[t])
			first_missing = t;
	free(have);
	return mbm_tables_missing(o, mbm_mysql_settings.db, first_missing, missing, err, errlen);
}

int
mbm_mysql_cleanup(const mbm_options *o)
{
	char		err[512];
	mbm_conn   *conn = mbm_connect(o, err, sizeof(err));
	int			rc = MBM_EXIT_OK;

	if (conn == NULL)
	{
		fprintf(stderr, "%s: %s\n", mbm_progname, err);
		return MBM_EXIT_BAD_INPUT;
	}
	if (drop_tables_from(o, conn, 1, err, sizeof(err)) != 0)
	{
		fprintf(stderr, "%s: %s\n", mbm_progname, err);
		rc = MBM_EXIT_FAILED;
	}
	o->driver->close(conn);
	return rc;
}

/* ---- maintain: the suite's post-write step ---- */

/* The first value of a one-row query, a number, as text; 0 on success. */
static int
query_number(const mbm_options *o, mbm_conn *conn, const char *sql, char *out, size_t outlen,
			 char *err, size_t errlen)
{
	if (mbm_query_value(o, conn, sql, out, outlen, err, errlen) != 0)
		return -1;
	if (out[0] == '\0' || strspn(out, "0123456789.") != strlen(out))
	{
		snprintf(err, errlen, "%s: not a number", sql);
		return -1;
	}
	return 0;
}

static void
take_status_value(void *arg, int ncols, const char *const *values)
{
	long long  *v = arg;

	if (ncols >= 2 && values[1] != NULL)
		*v = atoll(values[1]);
}

/* One number from SHOW GLOBAL STATUS, or -1. */
static long long
global_status(const mbm_options *o, mbm_conn *conn, const char *name)
{
	char		sql[128];
	char		err[256];
	long long	v = -1;

	snprintf(sql, sizeof(sql), "SHOW GLOBAL STATUS LIKE '%s'", name);
	if (o->driver->query_rows(conn, sql, take_status_value, &v, err, sizeof(err)) < 0)
		return -1;
	return v;
}

/*
 * The suite's post-write maintenance: ANALYZE TABLE, then a wait for InnoDB's
 * dirty pages to be written.  Also the command "maintain", for scripts that
 * walk the suite's steps themselves (test/demo.sh, microbench-compare).
 */
int
mbm_mysql_maintain(const mbm_options *o)
{
	char		err[512];
	mbm_conn   *mc = mbm_connect(o, err, sizeof(err));
	double		deadline = mbm_now_s() + MBM_FLUSH_TIMEOUT_S;
	long long	dirty;
	char		old_pct[64];
	bool		forced;
	int			t;

	if (mc == NULL)
	{
		fprintf(stderr, "%s: %s\n", mbm_progname, err);
		return MBM_EXIT_FAILED;
	}
	for (t = 1; t <= o->tables; t++)
	{
		char		sql[64];

		snprintf(sql, sizeof(sql), "ANALYZE TABLE sbtest%d", t);
		if (o->driver->query(mc, sql, err, sizeof(err)) != 0)
		{
			fprintf(stderr, "%s: %s\n", mbm_progname, err);
			o->driver->close(mc);
			return MBM_EXIT_FAILED;
		}
	}
	/*
	 * InnoDB keeps dirty pages in memory while idle; setting
	 * innodb_max_dirty_pages_pct to 0 makes the page cleaner write them all,
	 * which is what "wait for dirty pages to drain" means.  The old value is
	 * put back afterwards.  Without the privilege we wait a little and say so.
	 */
	forced = query_number(o, mc, "SELECT @@GLOBAL.innodb_max_dirty_pages_pct", old_pct,
						  sizeof(old_pct), err, sizeof(err)) == 0 &&
		o->driver->query(mc, "SET GLOBAL innodb_max_dirty_pages_pct = 0", err, sizeof(err)) == 0;
	if (!forced)
	{
		printf("maintenance: cannot force a flush (%s); waiting at most %d s\n", err,
			   MBM_UNFORCED_WAIT_S);
		deadline = mbm_now_s() + MBM_UNFORCED_WAIT_S;
	}
	/* a stop signal ends the wait, not the restore below */
	while ((dirty = global_status(o, mc, "Innodb_buffer_pool_pages_dirty")) > 0 &&
		   mbm_now_s() < deadline && mbm_stop_signal() == 0)
		usleep(100000);
	if (forced)
	{
		char		sql[128];

		snprintf(sql, sizeof(sql), "SET GLOBAL innodb_max_dirty_pages_pct = %s", old_pct);
		if (o->driver->query(mc, sql, err, sizeof(err)) != 0)
			fprintf(stderr, "%s: could not restore innodb_max_dirty_pages_pct: %s\n", mbm_progname, err);
	}
	printf("maintenance: ANALYZE TABLE done; %lld dirty pages left\n", dirty < 0 ? 0 : dirty);
	o->driver->close(mc);
	return mbm_stop_signal() != 0 ? 128 + mbm_stop_signal() : MBM_EXIT_OK;
}

/* what maintain does, as the suite's progress names the step */
const char mbm_mysql_maintain_title[] = "ANALYZE TABLE + dirty page flush";

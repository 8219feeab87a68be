/*
 * mbm_pgsql_prepare.c — create, load, drop and maintain the sbtest tables on
 * Postgres (the pgsql driver's commands).
 *
 * The tables are exactly those of the extension's bench_prepare
 * (extension/microbench_functions.sql): the same DDL in the same schema (the
 * first of the search_path, current_schema()), the same rows for the same
 * seed (table N drawn from stream N of the seed, values in the order
 * extension/mb_load.c and the mysql driver draw them), the primary key and
 * index k_N built after the load, the id sequence set past the last row,
 * and ANALYZE.  Like bench_prepare's loader, the rows are written frozen:
 * COPY FREEZE into a table created in the same transaction.  The load
 * takes about as long either way; what FREEZE buys is the state the data
 * is left in, the extension's: frozen and all-visible, so that index-only
 * scans skip the heap from the first run on and no read sets hint bits
 * (measured on 1M rows: the first count(*) read 2400 index pages, against
 * 27000 heap pages read and 25000 dirtied and written after a plain COPY,
 * which leaves that to whichever run comes first and to autovacuum,
 * whenever it comes).
 *
 * Each table is one transaction (DROP, CREATE, COPY, keys, ANALYZE,
 * COMMIT): a load that fails or is stopped leaves the table as it was.
 * Tables load in parallel, one connection each, up to --threads at once
 * (mbm_tables.c).
 * SIGINT or SIGTERM ends a COPY's data early (the row count then fails the
 * table) and pg_cancel_backend() ends a long statement; prepare then says
 * how many tables it loaded and to run it again.
 */
#include "mbm.h"
#include "mbm_pgsql.h"

#include <stdio.h>
#include <string.h>

#include "mb_values.h"

/* A schema name quoted as an identifier: 63 bytes, each quote doubled. */
#define MBM_SCHEMA_LEN	160

/*
 * The load of one table, in one transaction; 0, or -1 with err set.  A
 * table that failed ends its loader, whose connection closes, and the
 * server rolls the transaction back: nothing of it stays.  arg: the
 * schema, quoted.
 */
static int
load_table(const mbm_options *o, void *arg, mbm_conn *conn, int table, uint64_t seed,
		   atomic_bool *stop, char *err, size_t errlen)
{
	const char *schema = arg;
	mb_rng		rng;
	mbm_row_source src = {stop, &rng, 1, o->table_size, {0}, 0, 0};
	char		sql[512];
	int64_t		rows;

	if (mbm_load_step(o, conn, stop, "BEGIN", err, errlen) != 0)
		return -1;
	snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS %s.sbtest%d", schema, table);
	if (mbm_load_step(o, conn, stop, sql, err, errlen) != 0)
		return -1;
	snprintf(sql, sizeof(sql),
			 "CREATE TABLE %s.sbtest%d (id serial NOT NULL, k integer NOT NULL DEFAULT 0,"
			 " c char(120) NOT NULL DEFAULT '', pad char(60) NOT NULL DEFAULT '')",
			 schema, table);
	if (mbm_load_step(o, conn, stop, sql, err, errlen) != 0)
		return -1;

	mb_rng_seed(&rng, seed, (uint64_t) table);
	snprintf(sql, sizeof(sql), "COPY %s.sbtest%d (id, k, c, pad) FROM STDIN WITH (FREEZE)",
			 schema, table);
	rows = o->driver->load_stream(conn, sql, mbm_row_source_read, &src, err, errlen);
	if (rows < 0)
		return -1;
	if (atomic_load(stop))
	{
		snprintf(err, errlen, "stopped");
		return -1;
	}
	if (rows != o->table_size)
	{
		snprintf(err, errlen, "sbtest%d: COPY loaded %lld rows, not %lld",
				 table, (long long) rows, (long long) o->table_size);
		return -1;
	}

	snprintf(sql, sizeof(sql), "ALTER TABLE %s.sbtest%d ADD PRIMARY KEY (id)", schema, table);
	if (mbm_load_step(o, conn, stop, sql, err, errlen) != 0)
		return -1;
	snprintf(sql, sizeof(sql), "CREATE INDEX k_%d ON %s.sbtest%d (k)", table, schema, table);
	if (mbm_load_step(o, conn, stop, sql, err, errlen) != 0)
		return -1;
	/* the next id a serial insert takes follows the last row, as after bench_prepare */
	snprintf(sql, sizeof(sql),
			 "SELECT setval(pg_get_serial_sequence(format('%%I.%%I', current_schema(),"
			 " 'sbtest%d'), 'id'), %lld)", table, (long long) o->table_size);
	if (mbm_load_step(o, conn, stop, sql, err, errlen) != 0)
		return -1;
	snprintf(sql, sizeof(sql), "ANALYZE %s.sbtest%d", schema, table);
	if (mbm_load_step(o, conn, stop, sql, err, errlen) != 0)
		return -1;
	return mbm_load_step(o, conn, stop, "COMMIT", err, errlen);
}

/*
 * The schema the tables go in, current_schema() as bench_prepare takes it,
 * quoted by the server as an identifier for the statements; 0, or -1 with
 * err set (no schema: the search_path names none that exists).
 */
static int
target_schema(const mbm_options *o, mbm_conn *conn, char *schema, size_t len,
			  char *err, size_t errlen)
{
	if (mbm_query_value(o, conn, "SELECT quote_ident(current_schema())", schema, len,
						err, errlen) != 0)
		return -1;
	if (schema[0] == '\0')
	{
		snprintf(err, errlen, "no schema to create the sbtest tables in:"
				 " set search_path to a schema you can create tables in");
		return -1;
	}
	return 0;
}

/*
 * Drop sbtestN for N >= first while they exist in the schema, so runs never
 * use stale ones: bench_prepare's loop.
 */
static int
drop_tables_from(const mbm_options *o, mbm_conn *conn, const char *schema, int first,
				 char *err, size_t errlen)
{
	int			t;

	for (t = first;; t++)
	{
		char		sql[256];
		char		exists[8];

		snprintf(sql, sizeof(sql),
				 "SELECT to_regclass(format('%%I.%%I', current_schema(), 'sbtest%d')) IS NOT NULL",
				 t);
		if (mbm_query_value(o, conn, sql, exists, sizeof(exists), err, errlen) != 0)
			return -1;
		if (strcmp(exists, "t") != 0)
			return 0;
		snprintf(sql, sizeof(sql), "DROP TABLE %s.sbtest%d", schema, t);
		if (mbm_query(o, conn, sql, err, errlen) != 0)
			return -1;
	}
}

/*
 * Where the extension is installed too, say what was loaded as
 * bench_prepare does (microbench.datasets): bench_run draws its keys from
 * the table size recorded there, which would otherwise be an older load's.
 * Without the extension there is nothing to tell; a failure costs a note.
 */
static void
record_dataset(const mbm_options *o)
{
	char		err[512];
	char		sql[512];
	char		present[8] = "";
	mbm_conn   *conn = mbm_connect(o, err, sizeof(err));

	snprintf(sql, sizeof(sql),
			 "INSERT INTO microbench.datasets AS d (schema_name, tables, table_size)"
			 " VALUES (current_schema(), %d, %lld) ON CONFLICT (schema_name) DO UPDATE"
			 " SET tables = excluded.tables, table_size = excluded.table_size,"
			 " prepared_at = now()", o->tables, (long long) o->table_size);
	if (conn == NULL ||
		mbm_query_value(o, conn, "SELECT to_regclass('microbench.datasets') IS NOT NULL",
						present, sizeof(present), err, sizeof(err)) != 0 ||
		(strcmp(present, "t") == 0 && mbm_query(o, conn, sql, err, sizeof(err)) != 0))
		printf("note: the tables are loaded, but the extension's microbench.datasets"
			   " could not be told: %s\n", err);
	if (conn)
		o->driver->close(conn);
}

/* Before the loaders: the schema the tables go in, and no stale sbtestN beyond --tables. */
static int
begin_load(const mbm_options *o, void *arg, mbm_conn *conn, char *err, size_t errlen)
{
	char	   *schema = arg;

	if (target_schema(o, conn, schema, MBM_SCHEMA_LEN, err, errlen) != 0)
		return -1;
	return drop_tables_from(o, conn, schema, o->tables + 1, err, errlen);
}

/* The loaders' arg is the schema, quoted; any connection of theirs may COPY. */
int
mbm_pgsql_prepare(const mbm_options *o)
{
	static const mbm_table_loader tl = {begin_load, NULL, load_table, MBM_SCHEMA_LEN};
	int			rc = mbm_load_tables(o, &tl);

	if (rc == MBM_EXIT_OK)
		record_dataset(o);
	return rc;
}

int
mbm_pgsql_cleanup(const mbm_options *o)
{
	char		err[512];
	char		schema[MBM_SCHEMA_LEN];
	mbm_conn   *conn = mbm_connect(o, err, sizeof(err));
	int			rc = MBM_EXIT_OK;

	if (conn == NULL)
	{
		fprintf(stderr, "%s: %s\n", mbm_progname, err);
		return MBM_EXIT_BAD_INPUT;
	}
	if (target_schema(o, conn, schema, sizeof(schema), err, sizeof(err)) != 0 ||
		drop_tables_from(o, conn, schema, 1, err, sizeof(err)) != 0)
	{
		fprintf(stderr, "%s: %s\n", mbm_progname, err);
		rc = MBM_EXIT_FAILED;
	}
	o->driver->close(conn);
	return rc;
}

/*
 * The suite's post-write maintenance, as the extension's suite does it
 * (microbench.suite_step): VACUUM (ANALYZE) of each table, then a
 * CHECKPOINT, skipped with a note without the privilege (superuser or
 * pg_checkpoint).  Also the command "maintain", for scripts that walk the
 * suite's steps themselves.  A stop signal ends it between statements.
 */
int
mbm_pgsql_maintain(const mbm_options *o)
{
	char		err[512];
	mbm_conn   *conn = mbm_connect(o, err, sizeof(err));
	bool		checkpointed = false;
	bool		missing;
	int			t;

	if (conn == NULL)
	{
		fprintf(stderr, "%s: %s\n", mbm_progname, err);
		return MBM_EXIT_FAILED;
	}
	if (o->driver->check_tables(conn, o, &missing, err, sizeof(err)) != 0)
	{
		fprintf(stderr, "%s: %s\n", mbm_progname, err);
		o->driver->close(conn);
		return missing ? MBM_EXIT_BAD_INPUT : MBM_EXIT_FAILED;
	}
	for (t = 1; t <= o->tables && mbm_stop_signal() == 0; t++)
	{
		char		sql[64];

		snprintf(sql, sizeof(sql), "VACUUM (ANALYZE) sbtest%d", t);
		if (mbm_query(o, conn, sql, err, sizeof(err)) != 0)
		{
			fprintf(stderr, "%s: %s\n", mbm_progname, err);
			o->driver->close(conn);
			return MBM_EXIT_FAILED;
		}
	}
	if (mbm_stop_signal() == 0)
	{
		checkpointed = mbm_query(o, conn, "CHECKPOINT", err, sizeof(err)) == 0;
		/* 42501 insufficient_privilege: the step goes on without it */
		if (!checkpointed && strcmp(mbm_error_code(conn), "42501") != 0)
		{
			fprintf(stderr, "%s: %s\n", mbm_progname, err);
			o->driver->close(conn);
			return MBM_EXIT_FAILED;
		}
		if (!checkpointed)
			printf("note: skipping %s\n", err);
	}
	o->driver->close(conn);
	if (mbm_stop_signal() != 0)
		return 128 + mbm_stop_signal();
	printf("maintenance: VACUUM (ANALYZE) of %d table(s) done; CHECKPOINT %s\n", o->tables,
		   checkpointed ? "done" : "skipped");
	fflush(stdout);
	return MBM_EXIT_OK;
}

/* what maintain does, as the suite's progress names the step */
const char mbm_pgsql_maintain_title[] = "VACUUM ANALYZE + CHECKPOINT";

/*
 * mbm_prepare.c — create, load and drop the sbtest tables on MySQL/MariaDB.
 *
 * Tables and values are exactly those of WORKLOADS.md and of the extension's
 * bench_prepare: id AUTO_INCREMENT primary key, k uniform in [1, table_size],
 * c and pad from the shared templates, index k_N built after the load.  Rows
 * go in as multi-row INSERTs of MBM_LOAD_ROWS rows, a server-side prepared
 * statement with every value bound, committed every MBM_COMMIT_ROWS rows,
 * with unique and foreign key checks relaxed for the session; tables load in
 * parallel, one thread each, up to --threads at once.
 */
#include "mbm.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mb_values.h"

#define MBM_LOAD_ROWS	2000
#define MBM_COMMIT_ROWS 100000

typedef struct loader
{
	const mbm_options *o;
	atomic_int *next_table;
	char		error[512];
	bool		failed;
} loader;

/* One multi-row INSERT of 'rows' rows, ready to bind. */
static mbm_stmt *
prepare_insert(MYSQL *conn, int table, int rows, char *err, size_t errlen)
{
	size_t		len = 128 + (size_t) rows * 16;
	char	   *sql = malloc(len);
	size_t		n;
	int			i;
	mbm_stmt   *stmt;

	n = (size_t) snprintf(sql, len, "INSERT INTO sbtest%d (id, k, c, pad) VALUES ", table);
	for (i = 0; i < rows; i++)
		n += (size_t) snprintf(sql + n, len - n, "%s(?, ?, ?, ?)", i ? ", " : "");
	stmt = mbm_stmt_prepare(conn, sql, rows * 4, err, errlen);
	free(sql);
	return stmt;
}

static int
load_table(loader *l, MYSQL *conn, int table)
{
	const mbm_options *o = l->o;
	char		sql[512];
	mb_rng		rng;
	mb_bind_value *values = calloc((size_t) MBM_LOAD_ROWS * 4, sizeof(mb_bind_value));
	char	   *texts = malloc((size_t) MBM_LOAD_ROWS * (MB_C_LEN + MB_PAD_LEN));
	mbm_stmt   *full = NULL;
	int64_t		id = 1;
	int64_t		uncommitted = 0;
	int			rc = -1;

	mb_rng_seed(&rng, o->seeded ? o->seed : (uint64_t) time(NULL), (uint64_t) table);
	snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS sbtest%d", table);
	if (mbm_query(conn, sql, l->error, sizeof(l->error)) != 0)
		goto done;
	snprintf(sql, sizeof(sql),
			 "CREATE TABLE sbtest%d (id INTEGER NOT NULL AUTO_INCREMENT,"
			 " k INTEGER NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '',"
			 " pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id)) ENGINE=%s",
			 table, o->engine);
	if (mbm_query(conn, sql, l->error, sizeof(l->error)) != 0 ||
		mbm_query(conn, "START TRANSACTION", l->error, sizeof(l->error)) != 0)
		goto done;

	while (id <= o->table_size)
	{
		int			rows = (int) ((o->table_size - id + 1) < MBM_LOAD_ROWS ?
								  (o->table_size - id + 1) : MBM_LOAD_ROWS);
		mbm_stmt   *stmt;
		int			i;

		if (rows == MBM_LOAD_ROWS)
		{
			if (full == NULL &&
				(full = prepare_insert(conn, table, rows, l->error, sizeof(l->error))) == NULL)
				goto done;
			stmt = full;
		}
		else if ((stmt = prepare_insert(conn, table, rows, l->error, sizeof(l->error))) == NULL)
			goto done;

		for (i = 0; i < rows; i++)
		{
			mb_bind_value *v = &values[i * 4];
			char	   *c = texts + (size_t) i * (MB_C_LEN + MB_PAD_LEN);

			mb_values_c(&rng, c);
			mb_values_pad(&rng, c + MB_C_LEN);
			v[0].is_text = false;
			v[0].int_value = (int32_t) (id + i);
			v[1].is_text = false;
			v[1].int_value = (int32_t) mb_rng_uniform(&rng, 1, (uint32_t) o->table_size);
			v[2].is_text = true;
			v[2].text = c;
			v[2].text_len = MB_C_LEN;
			v[3].is_text = true;
			v[3].text = c + MB_C_LEN;
			v[3].text_len = MB_PAD_LEN;
		}
		if (mbm_stmt_execute(stmt, values, rows * 4, l->error, sizeof(l->error)) < 0)
		{
			if (stmt != full)
				mbm_stmt_close(stmt);
			goto done;
		}
		if (stmt != full)
			mbm_stmt_close(stmt);
		id += rows;
		uncommitted += rows;
		if (uncommitted >= MBM_COMMIT_ROWS)
		{
			if (mbm_query(conn, "COMMIT", l->error, sizeof(l->error)) != 0 ||
				mbm_query(conn, "START TRANSACTION", l->error, sizeof(l->error)) != 0)
				goto done;
			uncommitted = 0;
		}
	}
	if (mbm_query(conn, "COMMIT", l->error, sizeof(l->error)) != 0)
		goto done;
	snprintf(sql, sizeof(sql), "CREATE INDEX k_%d ON sbtest%d (k)", table, table);
	if (mbm_query(conn, sql, l->error, sizeof(l->error)) != 0)
		goto done;
	snprintf(sql, sizeof(sql), "ANALYZE TABLE sbtest%d", table);
	if (mbm_query(conn, sql, l->error, sizeof(l->error)) != 0)
		goto done;
	printf("loaded sbtest%d: %lld rows\n", table, (long long) o->table_size);
	fflush(stdout);
	rc = 0;
done:
	mbm_stmt_close(full);
	free(values);
	free(texts);
	return rc;
}

static void *
loader_main(void *arg)
{
	loader	   *l = arg;
	MYSQL	   *conn;

	mysql_thread_init();
	conn = mbm_connect(l->o, l->error, sizeof(l->error));
	if (conn == NULL ||
		mbm_query(conn, "SET SESSION unique_checks = 0", l->error, sizeof(l->error)) != 0 ||
		mbm_query(conn, "SET SESSION foreign_key_checks = 0", l->error, sizeof(l->error)) != 0)
		l->failed = true;
	while (!l->failed)
	{
		int			table = atomic_fetch_add(l->next_table, 1);

		if (table > l->o->tables)
			break;
		if (load_table(l, conn, table) != 0)
			l->failed = true;
	}
	if (conn)
		mysql_close(conn);
	mysql_thread_end();
	return NULL;
}

/* Drop sbtestN for N > tables while they exist, so runs never use stale ones. */
static int
drop_tables_from(MYSQL *conn, int first, char *err, size_t errlen)
{
	int			t;

	for (t = first;; t++)
	{
		char		sql[128];
		MYSQL_RES  *res;
		bool		exists;

		snprintf(sql, sizeof(sql), "SHOW TABLES LIKE 'sbtest%d'", t);
		if (mysql_real_query(conn, sql, (unsigned long) strlen(sql)) != 0 ||
			(res = mysql_store_result(conn)) == NULL)
		{
			snprintf(err, errlen, "%s: %s", sql, mysql_error(conn));
			return -1;
		}
		exists = mysql_num_rows(res) > 0;
		mysql_free_result(res);
		if (!exists)
			return 0;
		snprintf(sql, sizeof(sql), "DROP TABLE sbtest%d", t);
		if (mbm_query(conn, sql, err, errlen) != 0)
			return -1;
	}
}

int
mbm_prepare(const mbm_options *o)
{
	int			nthreads = o->threads < o->tables ? o->threads : o->tables;
	loader	   *loaders = calloc(nthreads, sizeof(loader));
	pthread_t  *threads = calloc(nthreads, sizeof(pthread_t));
	atomic_int	next_table = 1;
	char		err[512];
	MYSQL	   *conn = mbm_connect(o, err, sizeof(err));
	int			i;
	int			rc = MBM_EXIT_OK;

	if (conn == NULL)
	{
		fprintf(stderr, "microbench-mysql: %s\n", err);
		return MBM_EXIT_BAD_INPUT;
	}
	if (drop_tables_from(conn, o->tables + 1, err, sizeof(err)) != 0)
	{
		fprintf(stderr, "microbench-mysql: %s\n", err);
		mysql_close(conn);
		return MBM_EXIT_FAILED;
	}
	mysql_close(conn);

	for (i = 0; i < nthreads; i++)
	{
		loaders[i].o = o;
		loaders[i].next_table = &next_table;
		pthread_create(&threads[i], NULL, loader_main, &loaders[i]);
	}
	for (i = 0; i < nthreads; i++)
	{
		pthread_join(threads[i], NULL);
		if (loaders[i].failed)
		{
			fprintf(stderr, "microbench-mysql: prepare failed: %s\n", loaders[i].error);
			rc = MBM_EXIT_FAILED;
		}
	}
	free(loaders);
	free(threads);
	return rc;
}

int
mbm_cleanup(const mbm_options *o)
{
	char		err[512];
	MYSQL	   *conn = mbm_connect(o, err, sizeof(err));
	int			rc = MBM_EXIT_OK;

	if (conn == NULL)
	{
		fprintf(stderr, "microbench-mysql: %s\n", err);
		return MBM_EXIT_BAD_INPUT;
	}
	if (drop_tables_from(conn, 1, err, sizeof(err)) != 0)
	{
		fprintf(stderr, "microbench-mysql: %s\n", err);
		rc = MBM_EXIT_FAILED;
	}
	mysql_close(conn);
	return rc;
}

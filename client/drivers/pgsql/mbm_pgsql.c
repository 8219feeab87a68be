/*
 * mbm_pgsql.c — the pgsql driver (mbm_driver.h): Postgres through libpq.
 *
 * What sysbench 1.0's --db-driver=pgsql and its oltp scripts send, so
 * that the backend does the same work for a run of either (checked by
 * counting the backend's instructions under valgrind,
 * test/compare/11_like_sysbench.t): each workload statement is a named
 * server-side prepared statement (PQprepare), named as long as sysbench's
 * names (the backend hashes the name at every Bind), its parameters typed
 * as sysbench types them, int8 for keys and varchar for c and pad values;
 * values go as text in the Bind message, results are asked for in binary
 * and read whole and discarded; BEGIN and COMMIT are prepared statements
 * too.  Where a script sends a statement as text with its values written
 * in (oltp_insert's con:query: the insert with a generated id), so does
 * this driver (sent_as_text), as it does every statement under
 * --db-ps-mode=disable: the simple query protocol, literals escaped by
 * libpq for the connection.
 *
 * Errors carry the SQLSTATE, which --ignore-errors takes; a connection
 * that is gone says 08006 when the server had no chance to say more.  The
 * server's counters for the cost summary come from pg_stat_database,
 * pg_stat_wal and pg_stat_io, whichever the server has.  The driver's
 * options are in mbm_pgsql_options.c; prepare, cleanup and maintain are in
 * mbm_pgsql_prepare.c.
 */
#include "mbm.h"
#include "mbm_pgsql.h"
#include "mb_data_state.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

/* Type OIDs are fixed in the catalog; libpq's headers do not carry them. */
#define MBM_INT8OID		20
#define MBM_VARCHAROID	1043

/* Room for an int4 as decimal text: "-2147483648" and the NUL. */
#define MBM_INT_TEXT_LEN 12

/*
 * What a COPY sends per CopyData message.  A few hundred rows each: the
 * per-message cost, on both sides, is then lost in the copying of data.
 */
#define MBM_COPY_CHUNK	(128 * 1024)

/* The SQLSTATE of a connection that is gone (connection_failure). */
#define MBM_SQLSTATE_LOST "08006"

struct mbm_conn
{
	mbm_conn_head head;		/* last_code: the last failure's SQLSTATE */
	PGconn	   *pg;
	int			next_stmt;		/* number of the next statement's name */
	unsigned int timeout_s;		/* a text statement's longest wait; 0: none */
	bool		abandoned;		/* a statement timed out: no more on this one */
};

struct mbm_stmt
{
	mbm_conn   *conn;
	char		name[32];		/* sbstmt and 20 digits: unique on the connection */
	char	   *sql;			/* for error messages */
	int			nparams;
	char	  **values;			/* each parameter's text, NUL-terminated */
	size_t	   *room;			/* the size of each values[i] */
};

/* The first line of a libpq message, which may run over several. */
static void
first_line(char *out, size_t outlen, const char *message)
{
	size_t		n = strcspn(message, "\n");

	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, message, n);
	out[n] = '\0';
}

/*
 * An error for which the DBMS gives no code: ours (out of memory, a
 * surprise from the server).  No stale code may stay behind, or a run
 * could take this failure for an ignored one.
 */
static void
set_own_error(mbm_conn *conn, char *err, size_t errlen, const char *what, const char *detail)
{
	if (conn)
		conn->head.last_code[0] = '\0';
	snprintf(err, errlen, "%s: %s", what, detail);
}

/*
 * The failure of a statement: the server's primary message and SQLSTATE
 * when it sent an error, else libpq's own message.  A connection that is
 * gone is said without the statement (any statement would have met it),
 * as the mysql driver does.  res may be NULL (libpq could not even make a
 * result).
 */
static void
set_pg_error(mbm_conn *conn, char *err, size_t errlen, const char *what, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *primary = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	bool		gone = PQstatus(conn->pg) == CONNECTION_BAD;
	char		message[512];

	if (primary)
		first_line(message, sizeof(message), primary);
	else if (res && PQresultErrorMessage(res)[0] != '\0')
		first_line(message, sizeof(message), PQresultErrorMessage(res));
	else if (res && PQresultStatus(res) != PGRES_FATAL_ERROR)
		snprintf(message, sizeof(message), "unexpected result %s",
				 PQresStatus(PQresultStatus(res)));
	else
		first_line(message, sizeof(message), PQerrorMessage(conn->pg));
	if (state && strlen(state) == 5)
		snprintf(conn->head.last_code, sizeof(conn->head.last_code), "%s", state);
	else if (gone)
		snprintf(conn->head.last_code, sizeof(conn->head.last_code), "%s", MBM_SQLSTATE_LOST);
	else
		conn->head.last_code[0] = '\0';
	if (gone)
		snprintf(err, errlen, "%s (%s)", message,
				 conn->head.last_code[0] ? conn->head.last_code : MBM_SQLSTATE_LOST);
	else if (conn->head.last_code[0])
		snprintf(err, errlen, "%s: %s (%s)", what, message, conn->head.last_code);
	else
		snprintf(err, errlen, "%s: %s", what, message);
}

/* ---- connections ---- */

/*
 * The server's notices, which libpq would print whole: a NOTICE (DROP
 * TABLE IF EXISTS's "skipping") tells us nothing, a WARNING is worth a
 * line.
 */
static void
notice_receiver(void *arg, const PGresult *res)
{
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);
	const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

	if (severity && primary && strcmp(severity, "WARNING") == 0)
	{
		fprintf(stderr, "%s: server warning: %s\n", mbm_progname, primary);
		fflush(stderr);
	}
}

/*
 * A stop cancels a session's statement by its backend's pid, which
 * connecting keeps in the head; any role may cancel its own backends.
 */
static const char pg_cancel_format[] = "SELECT pg_cancel_backend(%lu)";
static const char pg_cancel_title[] = "a cancel";

/* where libpq finds the password, never an option (ps would show it) */
static const char pg_password_from[] = "PGPASSWORD or ~/.pgpass";

static mbm_conn *
pg_connect(const mbm_options *o, unsigned int timeout_s, char *err, size_t errlen)
{
	const char *keywords[8];
	const char *values[8];
	char		port[16];
	char		timeout[16];
	const char *dbname = mbm_pgsql_settings.db;
	mbm_conn   *conn;
	PGconn	   *pg;
	int			n = 0;

	/* sysbench's default database, when neither --pgsql-db nor PGDATABASE names one */
	if (dbname == NULL && getenv("PGDATABASE") == NULL)
		dbname = "sbtest";
	snprintf(port, sizeof(port), "%d", mbm_pgsql_settings.port);
	snprintf(timeout, sizeof(timeout), "%u", timeout_s);

	/*
	 * dbname first and expanded: a conninfo string or URI in --pgsql-db
	 * gives whatever it holds, and --pgsql-host, --pgsql-port and
	 * --pgsql-user, given later, win over it.  A NULL value leaves a
	 * keyword to the conninfo, then to libpq's environment (PGHOST ...) and
	 * defaults; the password comes from PGPASSWORD or ~/.pgpass (a --pgsql-db
	 * that holds one is refused: mbm_pgsql_options.c).
	 */
	keywords[n] = "dbname";
	values[n++] = dbname;
	keywords[n] = "host";
	values[n++] = mbm_pgsql_settings.host;
	keywords[n] = "port";
	values[n++] = mbm_pgsql_settings.port > 0 ? port : NULL;
	keywords[n] = "user";
	values[n++] = mbm_pgsql_settings.user;
	/* what pg_stat_activity shows, unless the conninfo or PGAPPNAME says */
	keywords[n] = "fallback_application_name";
	values[n++] = "microbench";
	keywords[n] = "connect_timeout";
	values[n++] = timeout_s > 0 ? timeout : NULL;
	keywords[n] = NULL;
	values[n] = NULL;

	pg = PQconnectdbParams(keywords, values, 1);
	if (pg == NULL || PQstatus(pg) != CONNECTION_OK)
	{
		char		message[512];

		/* libpq's message names host and port, never the password */
		first_line(message, sizeof(message),
				   pg ? PQerrorMessage(pg) : "out of memory");
		snprintf(err, errlen, "cannot connect to the Postgres server: %s", message);
		PQfinish(pg);
		return NULL;
	}
	conn = calloc(1, sizeof(mbm_conn));
	if (conn == NULL)
	{
		set_own_error(NULL, err, errlen, "cannot connect", "out of memory");
		PQfinish(pg);
		return NULL;
	}
	PQsetNoticeReceiver(pg, notice_receiver, NULL);
	conn->pg = pg;
	conn->head.session_id = (unsigned long) PQbackendPID(pg);
	conn->timeout_s = timeout_s;
	return conn;
}

static void
pg_close(mbm_conn *conn)
{
	PQfinish(conn->pg);
	free(conn);
}

/* ---- statements as text ---- */

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * PQexec() with the connection's timeout: a connection made with one (the
 * cost monitor, the canceller) must never hang the main thread on a server
 * that stopped answering, and libpq has no read timeout of its own.  So
 * the statement is sent and its results awaited here, for at most
 * timeout_s; past that the connection is given up, as the mysql driver's
 * read timeout gives up its connection.  The results are those PQexec()
 * would return: the last one, or the first error.  NULL with *timed_out
 * set, or NULL when libpq could not send the statement.
 */
static PGresult *
exec_text(mbm_conn *conn, const char *sql, bool *timed_out)
{
	PGresult   *kept = NULL;
	PGresult   *res;
	int64_t		deadline;

	*timed_out = false;
	if (conn->timeout_s == 0)
		return PQexec(conn->pg, sql);
	if (conn->abandoned || !PQsendQuery(conn->pg, sql))
		return NULL;
	deadline = now_ms() + (int64_t) conn->timeout_s * 1000;
	for (;;)
	{
		while (PQisBusy(conn->pg))
		{
			struct pollfd pfd = {PQsocket(conn->pg), POLLIN, 0};
			int64_t		left = deadline - now_ms();
			int			ready = left > 0 ? poll(&pfd, 1, (int) left) : 0;

			/* a poll that fails for good is as good as no answer */
			if (left <= 0 || (ready < 0 && errno != EINTR))
			{
				conn->abandoned = true;
				*timed_out = true;
				PQclear(kept);
				return NULL;
			}
			/* a connection that failed is not busy: PQgetResult() says why */
			if (ready > 0 && !PQconsumeInput(conn->pg))
				break;
		}
		res = PQgetResult(conn->pg);
		if (res == NULL)
			break;
		if (kept && PQresultStatus(kept) == PGRES_FATAL_ERROR)
			PQclear(res);
		else
		{
			PQclear(kept);
			kept = res;
		}
	}
	return kept;
}

/*
 * A text statement and its result: the result on success (the caller
 * clears it), NULL with err set on failure.
 */
static PGresult *
run_text(mbm_conn *conn, const char *sql, const char *what, char *err, size_t errlen)
{
	bool		timed_out;
	PGresult   *res = exec_text(conn, sql, &timed_out);
	ExecStatusType status = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;

	if (timed_out || conn->abandoned)
	{
		snprintf(conn->head.last_code, sizeof(conn->head.last_code), "%s", MBM_SQLSTATE_LOST);
		if (timed_out)
			snprintf(err, errlen, "%s: no answer from the server within %u s (%s)", what,
					 conn->timeout_s, MBM_SQLSTATE_LOST);
		else
			snprintf(err, errlen, "connection given up after a statement had no answer"
					 " within %u s (%s)", conn->timeout_s, MBM_SQLSTATE_LOST);
		PQclear(res);
		return NULL;
	}
	if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
	{
		set_pg_error(conn, err, errlen, what, res);
		PQclear(res);
		return NULL;
	}
	return res;
}

static int
pg_query(mbm_conn *conn, const char *sql, char *err, size_t errlen)
{
	PGresult   *res = run_text(conn, sql, sql, err, errlen);

	if (res == NULL)
		return -1;
	PQclear(res);
	return 0;
}

static int64_t
pg_query_rows(mbm_conn *conn, const char *sql, mbm_row_fn fn, void *arg,
			  char *err, size_t errlen)
{
	PGresult   *res = run_text(conn, sql, sql, err, errlen);
	const char **row;
	int			ncols;
	int			nrows;
	int			r,
				c;

	if (res == NULL)
		return -1;
	ncols = PQnfields(res);
	nrows = PQntuples(res);
	row = calloc(ncols > 0 ? ncols : 1, sizeof(char *));
	if (row == NULL)
	{
		set_own_error(conn, err, errlen, sql, "out of memory");
		PQclear(res);
		return -1;
	}
	for (r = 0; r < nrows; r++)
	{
		for (c = 0; c < ncols; c++)
			row[c] = PQgetisnull(res, r, c) ? NULL : PQgetvalue(res, r, c);
		fn(arg, ncols, (const char *const *) row);
	}
	free(row);
	PQclear(res);
	return nrows;
}

/* ---- prepared statements ---- */

static void pg_stmt_close(mbm_stmt *stmt);

/*
 * A catalog statement's parameters get the types the extension gives its
 * SPI plans (mb_catalog_param_kinds: int4 keys, text c and pad values), so
 * that the server plans the statement the extension plans; left to the
 * server, c and pad would be typed char.
 */
static mbm_stmt *
pg_prepare(mbm_conn *conn, const char *sql, int nparams, const mb_stmt *stmt, int range,
		   char *err, size_t errlen)
{
	mbm_stmt   *s = calloc(1, sizeof(mbm_stmt));
	int			slots = nparams > 0 ? nparams : 1;
	Oid		   *types = calloc(slots, sizeof(Oid));
	bool	   *is_text = calloc(slots, sizeof(bool));
	PGresult   *res;
	int			i;

	if (s == NULL || types == NULL || is_text == NULL ||
		(stmt && mb_catalog_param_count(stmt, range) != nparams))
	{
		set_own_error(conn, err, errlen, "prepare", s && types && is_text ?
					  "not the catalog statement's number of parameters" : "out of memory");
		free(s);
		free(types);
		free(is_text);
		return NULL;
	}
	if (stmt)
	{
		mb_catalog_param_kinds(stmt, range, is_text);
		for (i = 0; i < nparams; i++)
			types[i] = is_text[i] ? MBM_VARCHAROID : MBM_INT8OID;
	}
	free(is_text);
	s->conn = conn;
	s->nparams = nparams;
	s->sql = strdup(sql);
	s->values = calloc(slots, sizeof(char *));
	s->room = calloc(slots, sizeof(size_t));
	for (i = 0; s->values && s->room && i < nparams; i++)
	{
		/* room for an integer; a text value grows its own on first use */
		s->values[i] = malloc(MBM_INT_TEXT_LEN);
		s->room[i] = s->values[i] ? MBM_INT_TEXT_LEN : 0;
		if (s->values[i] == NULL)
			break;
	}
	if (s->sql == NULL || s->values == NULL || s->room == NULL || i < nparams)
	{
		set_own_error(conn, err, errlen, "prepare", "out of memory");
		free(types);
		pg_stmt_close(s);
		return NULL;
	}
	snprintf(s->name, sizeof(s->name), "sbstmt%020d", ++conn->next_stmt);
	res = PQprepare(conn->pg, s->name, sql, nparams, stmt ? types : NULL);
	free(types);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		set_pg_error(conn, err, errlen, sql, res);
		PQclear(res);
		pg_stmt_close(s);
		return NULL;
	}
	PQclear(res);
	return s;
}

/* The rows read of a statement's result, or -1 with err set; clears res. */
static int64_t
result_rows(mbm_conn *conn, PGresult *res, const char *what, char *err, size_t errlen)
{
	int64_t		rows;

	switch (PQresultStatus(res))
	{
		case PGRES_TUPLES_OK:
			rows = PQntuples(res);
			break;
		case PGRES_COMMAND_OK:
			rows = 0;
			break;
		default:
			set_pg_error(conn, err, errlen, what, res);
			rows = -1;
			break;
	}
	PQclear(res);
	return rows;
}

static int64_t
pg_execute(mbm_stmt *s, const mb_bind_value *values, int nvalues, char *err, size_t errlen)
{
	int			i;

	if (nvalues != s->nparams)
	{
		set_own_error(s->conn, err, errlen, s->sql, "unexpected number of values");
		return -1;
	}
	for (i = 0; i < nvalues; i++)
	{
		const mb_bind_value *v = &values[i];

		if (!v->is_text)
		{
			snprintf(s->values[i], s->room[i], "%d", (int) v->int_value);
			continue;
		}
		/* text parameters are NUL-terminated C strings for libpq */
		if ((size_t) v->text_len + 1 > s->room[i])
		{
			char	   *grown = realloc(s->values[i], (size_t) v->text_len + 1);

			if (grown == NULL)
			{
				set_own_error(s->conn, err, errlen, s->sql, "out of memory");
				return -1;
			}
			s->values[i] = grown;
			s->room[i] = (size_t) v->text_len + 1;
		}
		memcpy(s->values[i], v->text, (size_t) v->text_len);
		s->values[i][v->text_len] = '\0';
	}
	/* the whole result is read before PQexecPrepared() returns */
	return result_rows(s->conn,
					   PQexecPrepared(s->conn->pg, s->name, nvalues,
									  (const char *const *) s->values, NULL, NULL, 1),
					   s->sql, err, errlen);
}

/*
 * Memory only: the run closes its statements right before their
 * connection, which takes them along (PQclosePrepared() is libpq 17's).
 */
static void
pg_stmt_close(mbm_stmt *s)
{
	int			i;

	if (s == NULL)
		return;
	for (i = 0; s->values && i < s->nparams; i++)
		free(s->values[i]);
	free(s->values);
	free(s->room);
	free(s->sql);
	free(s);
}

/* --db-ps-mode=disable: the simple query protocol, every row read. */
static int64_t
pg_text_execute(mbm_conn *conn, const char *sql, size_t len, const char *what,
				char *err, size_t errlen)
{
	PGresult   *res = run_text(conn, sql, what, err, errlen);
	int64_t		rows;

	if (res == NULL)
		return -1;
	rows = PQresultStatus(res) == PGRES_TUPLES_OK ? PQntuples(res) : 0;
	PQclear(res);
	return rows;
}

/*
 * Text as a Postgres string literal between single quotes, escaped by
 * libpq for the connection (arg, an mbm_conn *): its encoding and
 * standard_conforming_strings.
 */
static int
pg_quote_literal(const char *text, int len, char *out, size_t outlen, void *arg)
{
	mbm_conn   *conn = arg;
	int			error = 0;
	size_t		n;

	/* libpq's worst case is every byte doubled, plus the quotes and NUL */
	if (outlen < (size_t) len * 2 + 3)
		return -1;
	out[0] = '\'';
	n = PQescapeStringConn(conn->pg, out + 1, text, (size_t) len, &error);
	if (error)
		return -1;
	out[n + 1] = '\'';
	out[n + 2] = '\0';
	return (int) n + 2;
}

/* ---- COPY, for prepare's loaders ---- */

/*
 * Run sql, a COPY ... FROM STDIN, its data made on the fly by read(arg,
 * ...) and sent a chunk at a time: no file is read, and values never go
 * into SQL text.  Returns the rows the server took, or -1 with err set.
 * read() may end the data early (a stop): the count then says so.
 */
static int64_t
pg_load_stream(mbm_conn *conn, const char *sql, mbm_load_read_fn read, void *arg,
			   char *err, size_t errlen)
{
	PGresult   *res = PQexec(conn->pg, sql);
	char	   *chunk;
	unsigned int n;
	int64_t		rows = -1;

	if (PQresultStatus(res) != PGRES_COPY_IN)
	{
		set_pg_error(conn, err, errlen, sql, res);
		PQclear(res);
		return -1;
	}
	PQclear(res);
	chunk = malloc(MBM_COPY_CHUNK);
	/* a failed send ends the loop; the COPY's result then says why */
	while (chunk && (n = read(arg, chunk, MBM_COPY_CHUNK)) > 0 &&
		   PQputCopyData(conn->pg, chunk, (int) n) == 1)
		;
	/* without a buffer the COPY fails, and loads nothing */
	PQputCopyEnd(conn->pg, chunk ? NULL : "out of memory");
	free(chunk);
	res = PQgetResult(conn->pg);
	if (PQresultStatus(res) == PGRES_COMMAND_OK)
		rows = strtoll(PQcmdTuples(res), NULL, 10);
	else
		set_pg_error(conn, err, errlen, sql, res);
	PQclear(res);
	/* the protocol ends with a NULL result */
	while ((res = PQgetResult(conn->pg)) != NULL)
		PQclear(res);
	return rows;
}

/* ---- what the server is ---- */

/*
 * As the extension records it (mb_run.c record_result), so that a row of a
 * run inside the server and one over the wire name the same build alike:
 * version is server_version ("15.14 (Debian 15.14-1.pgdg120+1)" on a
 * packaged build), version_string is version(), compiler what version()
 * says after "compiled by".
 */
static int
pg_server_facts(mbm_conn *conn, mbm_server_facts *f, char *err, size_t errlen)
{
	/* the instance as the extension names it: the start time tells starts apart */
	static const char sql[] =
		"SELECT current_setting('server_version'), version(),"
		" substring(version(), 'compiled by ([^,]+)'),"
		" format('port %s, started %s', current_setting('port'),"
		"        to_char(pg_postmaster_start_time() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US'))";
	PGresult   *res = run_text(conn, sql, sql, err, errlen);

	memset(f, 0, sizeof(*f));
	if (res == NULL)
		return -1;
	if (PQntuples(res) != 1 || PQnfields(res) != 4)
	{
		set_own_error(conn, err, errlen, sql, "unexpected result");
		PQclear(res);
		return -1;
	}
	snprintf(f->dbms, sizeof(f->dbms), "postgres");
	snprintf(f->version, sizeof(f->version), "%s", PQgetvalue(res, 0, 0));
	snprintf(f->version_string, sizeof(f->version_string), "%s", PQgetvalue(res, 0, 1));
	/* NULL, an empty value, when version() does not say */
	snprintf(f->compiler, sizeof(f->compiler), "%s", PQgetvalue(res, 0, 2));
	snprintf(f->instance, sizeof(f->instance), "%s", PQgetvalue(res, 0, 3));
	PQclear(res);
	return 0;
}

/*
 * Whether sbtest1..N are there, found through the connection's search_path
 * as the run's statements will find them.  One statement for all tables.
 */
int
mbm_pgsql_check_tables(mbm_conn *conn, const mbm_options *o, bool *missing, char *err, size_t errlen)
{
	char		sql[256];
	PGresult   *res;
	int			first_missing = 0;

	*missing = false;
	snprintf(sql, sizeof(sql),
			 "SELECT min(n) FROM generate_series(1, %d) n"
			 " WHERE to_regclass('sbtest' || n) IS NULL", o->tables);
	res = run_text(conn, sql, sql, err, errlen);
	if (res == NULL)
		return -1;
	if (PQntuples(res) == 1 && !PQgetisnull(res, 0, 0))
		first_missing = atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	return mbm_tables_missing(o, PQdb(conn->pg), first_missing, missing, err, errlen);
}

/* ---- costs ---- */

/*
 * Whether the server runs on this host: reached through a unix socket (a
 * directory, or Linux's abstract namespace '@'), or by a loopback address.
 */
static bool
pg_server_is_local(mbm_conn *conn)
{
	const char *host = PQhost(conn->pg);

	if (host == NULL || host[0] == '\0')
		return false;
	return host[0] == '/' || host[0] == '@' || strcmp(host, "localhost") == 0 ||
		strcmp(host, "127.0.0.1") == 0 || strcmp(host, "::1") == 0;
}

/*
 * The cumulative counters read at both ends of the window, as (name,
 * value) integer text: the database's transactions, buffer and tuple
 * counters and temporary files (pg_stat_database, every version); the
 * cluster's WAL (pg_stat_wal, 14 and later; wal_bytes is numeric); the
 * cluster's I/O summed over backend types, objects and contexts
 * (pg_stat_io, 16 and later), prefixed io_.  The names are the views'
 * own, so that a reader finds them in the documentation.
 */
#define STATUS_DATABASE \
	"SELECT s.name, s.value::text FROM pg_stat_database d, LATERAL (VALUES" \
	" ('xact_commit', d.xact_commit), ('xact_rollback', d.xact_rollback)," \
	" ('blks_read', d.blks_read), ('blks_hit', d.blks_hit)," \
	" ('tup_returned', d.tup_returned), ('tup_fetched', d.tup_fetched)," \
	" ('tup_inserted', d.tup_inserted), ('tup_updated', d.tup_updated)," \
	" ('tup_deleted', d.tup_deleted), ('conflicts', d.conflicts)," \
	" ('temp_files', d.temp_files), ('temp_bytes', d.temp_bytes)," \
	" ('deadlocks', d.deadlocks)) s(name, value)" \
	" WHERE d.datname = current_database()"
#define STATUS_WAL \
	" UNION ALL SELECT s.name, s.value::text FROM pg_stat_wal w, LATERAL (VALUES" \
	" ('wal_records', w.wal_records), ('wal_fpi', w.wal_fpi)," \
	" ('wal_bytes', w.wal_bytes::bigint), ('wal_buffers_full', w.wal_buffers_full))" \
	" s(name, value)"
#define STATUS_IO \
	" UNION ALL SELECT s.name, s.value::text FROM (SELECT" \
	" coalesce(sum(reads), 0)::bigint AS reads, coalesce(sum(writes), 0)::bigint AS writes," \
	" coalesce(sum(writebacks), 0)::bigint AS writebacks," \
	" coalesce(sum(extends), 0)::bigint AS extends, coalesce(sum(hits), 0)::bigint AS hits," \
	" coalesce(sum(evictions), 0)::bigint AS evictions," \
	" coalesce(sum(reuses), 0)::bigint AS reuses, coalesce(sum(fsyncs), 0)::bigint AS fsyncs" \
	" FROM pg_stat_io) i, LATERAL (VALUES ('io_reads', i.reads), ('io_writes', i.writes)," \
	" ('io_writebacks', i.writebacks), ('io_extends', i.extends), ('io_hits', i.hits)," \
	" ('io_evictions', i.evictions), ('io_reuses', i.reuses), ('io_fsyncs', i.fsyncs))" \
	" s(name, value)"

static const char *
pg_status_sql(mbm_conn *conn)
{
	int			version = PQserverVersion(conn->pg);

	if (version >= 160000)
		return STATUS_DATABASE STATUS_WAL STATUS_IO;
	if (version >= 140000)
		return STATUS_DATABASE STATUS_WAL;
	return STATUS_DATABASE;
}

static const char pg_datadir_sql[] = "SELECT current_setting('data_directory')";

/* a session is a backend process: its id is the backend's pid */
static const char *const *const pg_session_thread_sql = NULL;

/*
 * Per query in the summary: shared buffers hit and read (the pages a query
 * touches and those the OS had to give), tuples returned and fetched (what
 * scans and index scans produced), and the WAL a query writes, in bytes
 * and in full-page images.
 */
static const mbm_shown_status mbm_pgsql_shown_status[MBM_COST_STATUS_SHOWN] = {
	{"blks_hit", NULL, NULL, 1},
	{"blks_read", NULL, NULL, 1},
	{"tup_returned", NULL, NULL, 1},
	{"tup_fetched", NULL, NULL, 1},
	{"wal_bytes", NULL, "wal_bytes (bytes):", 1},
	{"wal_fpi", NULL, NULL, 1},
};

/*
 * The fingerprint of the data, with the extension's select list
 * (mb_data_state.h) over the same tables, sbtest1..N of the run, so that
 * the rows a run inside the server and one over the wire record of the same
 * data compare.  Text, with no value from the command line in it: the
 * table names are ours.
 */
static char *
pg_data_state(mbm_conn *conn, const mbm_options *o, const mb_workload *w)
{
	char		sql[768];
	char		err[512];
	PGresult   *res;
	char	   *json = NULL;

	snprintf(sql, sizeof(sql),
			 MB_PG_DATA_STATE_SELECT
			 " FROM generate_series(1, %d) t JOIN pg_class c"
			 " ON c.oid = to_regclass('sbtest' || t)", o->tables);
	res = run_text(conn, sql, sql, err, sizeof(err));
	if (res == NULL)
		return NULL;
	if (PQntuples(res) == 1 && !PQgetisnull(res, 0, 0))
		json = strdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	return json;
}

/* ---- error codes ---- */

/*
 * The classes the extension never ignores (mb_run.c add_ignored): 53
 * insufficient resources, 57 operator intervention (57014 query_canceled
 * is how a run is stopped; shutdown, crash, cannot connect now), 58 system
 * error, XX internal error; and 08, the connection is gone.  What ends a
 * session or the server's ability to run the next event.
 */
static const char *
pg_code_never_ignored(const char *code)
{
	static const char *const classes[] = {"08", "53", "57", "58", "XX"};
	size_t		i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strncmp(code, classes[i], 2) == 0)
			return "connection errors (class 08), cancel and shutdown (57), lack of"
				" resources (53), system errors (58) and internal errors (XX) always"
				" stop a run";
	return NULL;
}

/* A SQLSTATE: five digits or upper-case letters. */
static bool
pg_code_valid(const char *code)
{
	return strlen(code) == 5 &&
		strspn(code, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") == 5;
}

/* as the extension: deadlock, serialization failure, lock not available, unique violation */
static const mbm_code_words pg_codes = {
	.title = "SQLSTATE",
	.default_ignored = "40P01,40001,55P03,23505",
	.example = "40P01",
};

/* libpq needs no set-up; each connection is used by one thread at a time. */
static int
pg_library_init(void)
{
	return PQisthreadsafe() ? 0 : -1;
}

/* oltp_insert sends its insert (the id generated) with con:query: as text */
static bool
pg_sent_as_text(const mb_stmt *stmt)
{
	return stmt->id == MB_ST_INSERT;
}

/* any connection may COPY: connect_bulk is left to the core's default */
const mbm_driver mbm_pgsql_driver = {
	.name = "pgsql",
	.dbms_title = "Postgres",
	.placeholder = MB_PLACEHOLDER_DOLLAR,
	.prepared_transactions = true,
	.sent_as_text = pg_sent_as_text,
	MBM_DRIVER_OPERATIONS(pg),
	MBM_DRIVER_OWN(mbm_pgsql),
};

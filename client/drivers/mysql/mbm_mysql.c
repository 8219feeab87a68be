/*
 * mbm_mysql.c — the mysql driver (mbm_driver.h): MySQL and MariaDB.
 *
 * Only the C API that Oracle's libmysqlclient and MariaDB Connector/C share
 * is used, so the client builds against either.  Statements are server-side
 * prepared (mysql_stmt_*) once per connection and executed with bound
 * values; every result is read in full and discarded, as sysbench does, so
 * the server's work of sending rows is part of each query.  For prepare's
 * loaders it also runs LOAD DATA LOCAL INFILE with the data made by the
 * caller as the library asks for it (mysql_set_local_infile_handler(), in
 * both libraries): no file is read, and values never go into SQL text.
 * --db-ps-mode=disable runs are the one exception: their statements go as
 * SQL text with the values written in, escaped by the library for the
 * connection (my_quote_literal), so that the server parses each one.
 * The driver's options are in mbm_mysql_options.c, its commands (prepare,
 * cleanup, maintain) in mbm_mysql_prepare.c.
 */
#include "mbm.h"
#include "mbm_mysql.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <errmsg.h>
#include <mysql.h>

struct mbm_conn
{
	mbm_conn_head head;		/* last_code: the last failure's error number */
	MYSQL	   *my;
};

struct mbm_stmt
{
	mbm_conn   *conn;
	MYSQL_STMT *stmt;
	char	   *sql;			/* for error messages */
	int			nparams;
	MYSQL_BIND *binds;
	unsigned long *lengths;
	int32_t    *ints;
};

/*
 * Whether an error means the connection is gone: the library lost the
 * server (2006 CR_SERVER_GONE_ERROR, 2013 CR_SERVER_LOST, Oracle's 2055
 * CR_SERVER_LOST_EXTENDED) or the server says it is closing it (1053
 * ER_SERVER_SHUTDOWN, MariaDB's 1927 ER_CONNECTION_KILLED, MySQL's 4031
 * ER_CLIENT_INTERACTION_TIMEOUT).  Numbers: not every header has them all.
 */
static bool
connection_gone(unsigned int code)
{
	switch (code)
	{
		case 1053:
		case 1927:
		case 2006:
		case 2013:
		case 2055:
		case 4031:
			return true;
		default:
			return false;
	}
}

/*
 * The library's own errors (2000-2999: the server unreached or lost), a
 * connection that is gone, and 1317 ER_QUERY_INTERRUPTED, KILL QUERY, which
 * is how a run is stopped.
 */
static const char *
my_code_never_ignored(const char *code)
{
	unsigned int n = (unsigned int) strtoul(code, NULL, 10);

	if ((n >= 2000 && n <= 2999) || connection_gone(n) || n == 1317)
		return "client and connection errors (2000-2999), shutdown and KILL always"
			" stop a run";
	return NULL;
}

/* Error numbers are decimal, 1 to 65535. */
static bool
my_code_valid(const char *code)
{
	size_t		n = strspn(code, "0123456789");
	unsigned long v;

	if (n == 0 || n > 5 || code[n] != '\0')
		return false;
	v = strtoul(code, NULL, 10);
	return v >= 1 && v <= 65535;
}

/* what concurrent writers cause: deadlock, lock wait timeout, duplicate key */
static const mbm_code_words my_codes = {
	.title = "MySQL error number",
	.noun = "error",
	.default_ignored = "1213,1205,1062",
};

static void
set_error(char *err, size_t errlen, const char *what, const char *detail)
{
	snprintf(err, errlen, "%s: %s", what, detail);
}

/*
 * The library's error with its number; which statement only if it matters.
 * The number is kept on the connection for mbm_error_code().
 */
static void
set_mysql_error(mbm_conn *conn, char *err, size_t errlen, const char *what,
				const char *message, unsigned int code)
{
	if (conn)
		snprintf(conn->head.last_code, sizeof(conn->head.last_code), "%u", code);
	if (connection_gone(code))
		snprintf(err, errlen, "%s (%u)", message, code);
	else
		snprintf(err, errlen, "%s: %s (%u)", what, message, code);
}

/*
 * LOAD DATA LOCAL: the library asks these callbacks for the "file" the
 * server requests.  They read no file: they hand out what the row source of
 * the one statement my_load_stream() is running makes, and refuse any
 * request that comes at another time (source NULL), so a server can never
 * read a client file through a loader connection.
 */
typedef struct infile_source
{
	mbm_load_read_fn read;
	void	   *arg;
	bool		started;		/* the library called init: data may have gone */
} infile_source;

static int
infile_init(void **ptr, const char *filename, void *userdata)
{
	infile_source *src = userdata;

	/* set even on refusal: the library passes it to infile_error */
	*ptr = src;
	if (src == NULL)
		return 1;
	src->started = true;
	return 0;
}

static int
infile_read(void *ptr, char *buf, unsigned int buf_len)
{
	infile_source *src = ptr;

	return (int) src->read(src->arg, buf, buf_len);
}

static void
infile_end(void *ptr)
{
}

static int
infile_error(void *ptr, char *msg, unsigned int msg_len)
{
	snprintf(msg, msg_len, "%s", ptr == NULL ?
			 "LOAD DATA LOCAL request refused: this client sends no files" :
			 "LOAD DATA LOCAL row source failed");
	return CR_UNKNOWN_ERROR;
}

static void
set_infile_source(MYSQL *conn, infile_source *src)
{
	mysql_set_local_infile_handler(conn, infile_init, infile_read, infile_end,
								   infile_error, src);
}

/*
 * A stop cancels a session's statement by its thread id, which connecting
 * keeps in the head: the statement ends, the session stays.
 */
static const char my_cancel_format[] = "KILL QUERY %lu";
static const char my_cancel_title[] = "KILL QUERY";

/* where connect_with() finds the password, never an option (ps would show it) */
static const char my_password_from[] = "MYSQL_PWD or --defaults-file";

static mbm_conn *
connect_with(const mbm_options *o, bool local_infile, unsigned int timeout_s,
			 char *err, size_t errlen)
{
	mbm_conn   *c;
	MYSQL	   *conn = mysql_init(NULL);
	const char *password = getenv("MYSQL_PWD");

	if (conn == NULL)
	{
		set_error(err, errlen, "cannot connect", "out of memory");
		return NULL;
	}
	if (mbm_mysql_settings.defaults_file)
	{
		/* user, password, host ... from the file, unless given as options */
		mysql_options(conn, MYSQL_READ_DEFAULT_FILE, mbm_mysql_settings.defaults_file);
		mysql_options(conn, MYSQL_READ_DEFAULT_GROUP, "client");
	}
	if (timeout_s > 0)
	{
		mysql_options(conn, MYSQL_OPT_CONNECT_TIMEOUT, &timeout_s);
		mysql_options(conn, MYSQL_OPT_READ_TIMEOUT, &timeout_s);
		mysql_options(conn, MYSQL_OPT_WRITE_TIMEOUT, &timeout_s);
	}
	if (local_infile)
	{
		unsigned int on = 1;

		/*
		 * Only the loaders ask for it.  With LOCAL allowed, a server may ask
		 * the library for any client file in reply to any statement; our
		 * handler is installed before the first one, reads no file, and
		 * serves only my_load_stream()'s own statement.
		 */
		mysql_options(conn, MYSQL_OPT_LOCAL_INFILE, &on);
		set_infile_source(conn, NULL);
	}
	if (mysql_real_connect(conn, mbm_mysql_settings.host, mbm_mysql_settings.user, password,
						   mbm_mysql_settings.db, (unsigned int) mbm_mysql_settings.port,
						   mbm_mysql_settings.socket, 0) == NULL)
	{
		set_mysql_error(NULL, err, errlen, "cannot connect to the MySQL server",
						mysql_error(conn), mysql_errno(conn));
		mysql_close(conn);
		return NULL;
	}
	/* again, in case the library reset its options while connecting */
	if (local_infile)
		set_infile_source(conn, NULL);
	c = calloc(1, sizeof(mbm_conn));
	if (c == NULL)
	{
		set_error(err, errlen, "cannot connect", "out of memory");
		mysql_close(conn);
		return NULL;
	}
	c->my = conn;
	c->head.session_id = mysql_thread_id(conn);
	return c;
}

static mbm_conn *
my_connect(const mbm_options *o, unsigned int timeout_s, char *err, size_t errlen)
{
	return connect_with(o, false, timeout_s, err, errlen);
}

/*
 * A connection for prepare's loaders: LOAD DATA LOCAL allowed on it only,
 * served by my_load_stream()'s row source and by nothing else.
 */
static mbm_conn *
my_connect_bulk(const mbm_options *o, char *err, size_t errlen)
{
	return connect_with(o, true, 0, err, errlen);
}

static void
my_close(mbm_conn *conn)
{
	mysql_close(conn->my);
	free(conn);
}

/*
 * Whether an error of LOAD DATA LOCAL means "LOCAL is not allowed here":
 * the server's local_infile is OFF (1148 ER_NOT_ALLOWED_COMMAND; MySQL 8:
 * 3948 ER_CLIENT_LOCAL_FILES_DISABLED; MariaDB: 4166
 * ER_LOAD_INFILE_CAPABILITY_DISABLED), Oracle's library rejected the request
 * (2068 CR_LOAD_DATA_LOCAL_INFILE_REJECTED), or MariaDB's library refused it
 * ("Load data local infile forbidden", CR_UNKNOWN_ERROR) before our handler
 * ever ran.  Numbers, not names: neither library's headers have them all.
 * In all of these the server got no row.
 */
static bool
local_infile_refused(unsigned int code, bool started)
{
	switch (code)
	{
		case 1148:
		case 2068:
		case 3948:
		case 4166:
			return true;
		case CR_UNKNOWN_ERROR:
			return !started;
		default:
			return false;
	}
}

/* LOAD DATA LOCAL INFILE sql, on a connection from my_connect_bulk(). */
static int64_t
my_load_stream(mbm_conn *c, const char *sql, mbm_load_read_fn read, void *arg,
			   char *err, size_t errlen)
{
	MYSQL	   *conn = c->my;
	infile_source src = {read, arg, false};
	int			failed;
	unsigned int warnings;
	int64_t		rows;

	set_infile_source(conn, &src);
	failed = mysql_real_query(conn, sql, (unsigned long) strlen(sql));
	set_infile_source(conn, NULL);
	if (failed)
	{
		set_mysql_error(c, err, errlen, sql, mysql_error(conn), mysql_errno(conn));
		if (!local_infile_refused(mysql_errno(conn), src.started))
			return -1;
		/* not an error of the load: prepare says why it loads another way */
		snprintf(err, errlen, "%s", mysql_error(conn));
		return MBM_LOAD_REFUSED;
	}
	rows = (int64_t) mysql_affected_rows(conn);
	/*
	 * LOCAL implies IGNORE: a row the server could not take whole is
	 * skipped or cut with a warning, not an error.  Our rows never should
	 * be, so any warning means the data set is not the one asked for.
	 */
	warnings = mysql_warning_count(conn);
	if (warnings > 0)
	{
		snprintf(err, errlen, "%s: %u warnings, the rows were not loaded as sent",
				 sql, warnings);
		return -1;
	}
	return rows;
}

static int
my_query(mbm_conn *c, const char *sql, char *err, size_t errlen)
{
	MYSQL	   *conn = c->my;
	MYSQL_RES  *res;

	c->head.last_code[0] = '\0';
	if (mysql_real_query(conn, sql, (unsigned long) strlen(sql)) != 0)
	{
		set_mysql_error(c, err, errlen, sql, mysql_error(conn), mysql_errno(conn));
		return -1;
	}
	res = mysql_store_result(conn);
	if (res)
		mysql_free_result(res);
	else if (mysql_field_count(conn) != 0)
	{
		set_mysql_error(c, err, errlen, sql, mysql_error(conn), mysql_errno(conn));
		return -1;
	}
	return 0;
}

static int64_t
my_query_rows(mbm_conn *c, const char *sql, mbm_row_fn fn, void *arg, char *err, size_t errlen)
{
	MYSQL	   *conn = c->my;
	MYSQL_RES  *res;
	MYSQL_ROW	row;
	int64_t		n = 0;

	if (mysql_real_query(conn, sql, (unsigned long) strlen(sql)) != 0 ||
		(res = mysql_store_result(conn)) == NULL)
	{
		set_mysql_error(c, err, errlen, sql, mysql_error(conn), mysql_errno(conn));
		return -1;
	}
	while ((row = mysql_fetch_row(res)) != NULL)
	{
		fn(arg, (int) mysql_num_fields(res), (const char *const *) row);
		n++;
	}
	mysql_free_result(res);
	return n;
}

static void my_stmt_close(mbm_stmt *s);

static mbm_stmt *
my_prepare(mbm_conn *conn, const char *sql, int nparams, const mb_stmt *catalog_stmt,
		   int range, char *err, size_t errlen)
{
	mbm_stmt   *s = calloc(1, sizeof(mbm_stmt));

	if (s == NULL)
	{
		set_error(err, errlen, "prepare", "out of memory");
		return NULL;
	}
	s->conn = conn;
	s->nparams = nparams;
	s->stmt = mysql_stmt_init(conn->my);
	s->binds = calloc(nparams > 0 ? nparams : 1, sizeof(MYSQL_BIND));
	s->lengths = calloc(nparams > 0 ? nparams : 1, sizeof(unsigned long));
	s->ints = calloc(nparams > 0 ? nparams : 1, sizeof(int32_t));
	s->sql = strdup(sql);
	if (s->stmt == NULL || s->binds == NULL || s->lengths == NULL || s->ints == NULL ||
		s->sql == NULL)
	{
		set_error(err, errlen, "prepare", "out of memory");
		my_stmt_close(s);
		return NULL;
	}
	if (mysql_stmt_prepare(s->stmt, sql, (unsigned long) strlen(sql)) != 0)
	{
		set_mysql_error(conn, err, errlen, sql, mysql_stmt_error(s->stmt),
						mysql_stmt_errno(s->stmt));
		my_stmt_close(s);
		return NULL;
	}
	if ((int) mysql_stmt_param_count(s->stmt) != nparams)
	{
		set_error(err, errlen, sql, "unexpected number of parameters");
		my_stmt_close(s);
		return NULL;
	}
	return s;
}

static int64_t
my_execute(mbm_stmt *s, const mb_bind_value *values, int nvalues, char *err, size_t errlen)
{
	int			i;
	int64_t		rows = 0;

	/* a failure of our own must not be taken for the last one's code */
	s->conn->head.last_code[0] = '\0';
	for (i = 0; i < nvalues; i++)
	{
		MYSQL_BIND *b = &s->binds[i];

		memset(b, 0, sizeof(*b));
		if (values[i].is_text)
		{
			b->buffer_type = MYSQL_TYPE_STRING;
			b->buffer = (void *) values[i].text;
			s->lengths[i] = (unsigned long) values[i].text_len;
			b->buffer_length = s->lengths[i];
			b->length = &s->lengths[i];
		}
		else
		{
			s->ints[i] = values[i].int_value;
			b->buffer_type = MYSQL_TYPE_LONG;
			b->buffer = &s->ints[i];
		}
	}
	if (nvalues > 0 && mysql_stmt_bind_param(s->stmt, s->binds) != 0)
	{
		set_mysql_error(s->conn, err, errlen, s->sql, mysql_stmt_error(s->stmt),
						mysql_stmt_errno(s->stmt));
		return -1;
	}
	if (mysql_stmt_execute(s->stmt) != 0)
	{
		set_mysql_error(s->conn, err, errlen, s->sql, mysql_stmt_error(s->stmt),
						mysql_stmt_errno(s->stmt));
		return -1;
	}
	if (mysql_stmt_field_count(s->stmt) > 0)
	{
		if (mysql_stmt_store_result(s->stmt) != 0)
		{
			set_mysql_error(s->conn, err, errlen, s->sql, mysql_stmt_error(s->stmt),
							mysql_stmt_errno(s->stmt));
			return -1;
		}
		rows = (int64_t) mysql_stmt_num_rows(s->stmt);
		mysql_stmt_free_result(s->stmt);
	}
	return rows;
}

static int64_t
my_text_execute(mbm_conn *c, const char *sql, size_t len, const char *what,
				char *err, size_t errlen)
{
	MYSQL	   *conn = c->my;
	MYSQL_RES  *res;
	int64_t		rows = 0;

	c->head.last_code[0] = '\0';
	if (mysql_real_query(conn, sql, (unsigned long) len) != 0)
	{
		set_mysql_error(c, err, errlen, what, mysql_error(conn), mysql_errno(conn));
		return -1;
	}
	/* every row read, as mbm_stmt_execute() does with a prepared statement */
	res = mysql_store_result(conn);
	if (res)
	{
		rows = (int64_t) mysql_num_rows(res);
		mysql_free_result(res);
	}
	else if (mysql_field_count(conn) != 0)
	{
		set_mysql_error(c, err, errlen, what, mysql_error(conn), mysql_errno(conn));
		return -1;
	}
	return rows;
}

/*
 * Text as a MySQL string literal between single quotes, escaped by
 * mysql_real_escape_string() for the connection (arg, an mbm_conn *): its
 * character set and NO_BACKSLASH_ESCAPES.
 */
static int
my_quote_literal(const char *text, int len, char *out, size_t outlen, void *arg)
{
	MYSQL	   *conn = ((mbm_conn *) arg)->my;
	unsigned long n;

	/* the library's worst case is every byte escaped, plus the quotes and NUL */
	if (outlen < (size_t) len * 2 + 3)
		return -1;
	out[0] = '\'';
	n = mysql_real_escape_string(conn, out + 1, text, (unsigned long) len);
	if (n == (unsigned long) -1)
		return -1;
	out[n + 1] = '\'';
	out[n + 2] = '\0';
	return (int) n + 2;
}

static void
my_stmt_close(mbm_stmt *s)
{
	if (s == NULL)
		return;
	if (s->stmt)
		mysql_stmt_close(s->stmt);
	free(s->sql);
	free(s->binds);
	free(s->lengths);
	free(s->ints);
	free(s);
}

/* First column of the first row of a text query, or "" */
static int
query_value(mbm_conn *c, const char *sql, char *out, size_t outlen,
			char *err, size_t errlen)
{
	MYSQL	   *conn = c->my;
	MYSQL_RES  *res;
	MYSQL_ROW	row;

	out[0] = '\0';
	if (mysql_real_query(conn, sql, (unsigned long) strlen(sql)) != 0 ||
		(res = mysql_store_result(conn)) == NULL)
	{
		set_mysql_error(c, err, errlen, sql, mysql_error(conn), mysql_errno(conn));
		return -1;
	}
	row = mysql_fetch_row(res);
	if (row && row[0])
		snprintf(out, outlen, "%s", row[0]);
	mysql_free_result(res);
	return 0;
}

static int
my_server_facts(mbm_conn *conn, mbm_server_facts *f, char *err, size_t errlen)
{
	char		version[128];
	char		comment[128];
	size_t		n;

	memset(f, 0, sizeof(*f));
	if (query_value(conn, "SELECT VERSION()", version, sizeof(version), err, errlen) != 0 ||
		query_value(conn, "SELECT @@version_comment", comment, sizeof(comment), err, errlen) != 0 ||
		/* the start, to the second (the uptime's unit): a runner names starts closer */
		query_value(conn,
					"SELECT CONCAT('port ', @@port, ', started ', DATE_FORMAT(UTC_TIMESTAMP()"
					" - INTERVAL VARIABLE_VALUE SECOND, '%Y-%m-%d %H:%i:%s'))"
					" FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'UPTIME'",
					f->instance, sizeof(f->instance), err, errlen) != 0)
		return -1;
	/* MariaDB says so in its version ("10.11.6-MariaDB-0+deb12u1") */
	snprintf(f->dbms, sizeof(f->dbms), "%s",
			 strstr(version, "MariaDB") ? "mariadb" : "mysql");
	n = strspn(version, "0123456789.");
	if (n >= sizeof(f->version))
		n = sizeof(f->version) - 1;
	memcpy(f->version, version, n);
	f->version[n] = '\0';
	snprintf(f->version_string, sizeof(f->version_string), "%s %s", version, comment);
	return 0;
}

static int
my_library_init(void)
{
	return mysql_library_init(0, NULL, NULL);
}

static void
my_library_end(void)
{
	mysql_library_end();
}

static void
my_thread_init(void)
{
	mysql_thread_init();
}

static void
my_thread_end(void)
{
	mysql_thread_end();
}

/*
 * Whether the server runs on this host: reached through a unix socket, or
 * by a loopback name.  The library's description of the connection says
 * which ("Localhost via UNIX socket", "127.0.0.1 via TCP/IP"), whatever
 * chose it: our options, --defaults-file or the library's defaults.
 */
static bool
my_server_is_local(mbm_conn *conn)
{
	const char *info = mysql_get_host_info(conn->my);
	size_t		n;

	if (info == NULL)
		return false;
	if (strstr(info, "via UNIX socket") != NULL)
		return true;
	n = strcspn(info, " ");
	return (n == 9 && strncasecmp(info, "localhost", n) == 0) ||
		(n == 9 && strncmp(info, "127.0.0.1", n) == 0) ||
		(n == 3 && strncmp(info, "::1", n) == 0);
}

static const char *
my_status_sql(mbm_conn *conn)
{
	return "SHOW GLOBAL STATUS";
}

static const char my_datadir_sql[] = "SELECT @@datadir";

/*
 * A connection's server thread: MariaDB says it in PROCESSLIST (TID);
 * MySQL, which has no such column, in performance_schema (THREAD_OS_ID),
 * where it is on by default.
 */
static const char *const my_session_thread_sql[] = {
	"SELECT TID FROM information_schema.PROCESSLIST WHERE ID = %lu",
	"SELECT THREAD_OS_ID FROM performance_schema.threads WHERE PROCESSLIST_ID = %lu",
	NULL
};

/*
 * The server counters the summary divides by queries, those the server has.
 * MariaDB dropped Innodb_rows_read (MDEV-28539; 10.11 has none): its
 * Rows_read, the rows every engine read, stands in, under its own name.
 */
static const mbm_shown_status mbm_mysql_shown_status[MBM_COST_STATUS_SHOWN] = {
	{"Innodb_rows_read", "Rows_read", NULL, 1},
	{"Innodb_buffer_pool_read_requests", NULL, NULL, 1},
	{"Innodb_buffer_pool_reads", NULL, NULL, 1},
	{"Innodb_data_written", NULL, "Innodb_data_written (KB):", 1024},
	{"Innodb_os_log_written", NULL, "Innodb_os_log_written (bytes):", 1},
	{"Handler_read_key", NULL, NULL, 1},
};

/*
 * One row of a query on the monitor as text; NULL (and nothing to free) if
 * it failed or returned no row.  The caller frees the result.
 */
static MYSQL_ROW
monitor_row(MYSQL *conn, const char *sql, size_t len, MYSQL_RES **res)
{
	MYSQL_ROW	row;

	*res = NULL;
	if (mysql_real_query(conn, sql, (unsigned long) len) != 0 ||
		(*res = mysql_store_result(conn)) == NULL)
		return NULL;
	row = mysql_fetch_row(*res);
	if (row == NULL)
	{
		mysql_free_result(*res);
		*res = NULL;
	}
	return row;
}

/* "key": value into f when value is an integer; whether it was. */
static bool
json_int_member(FILE *f, bool first, const char *key, const char *value)
{
	if (value == NULL || !mbm_is_integer(value))
		return false;
	if (!first)
		fputs(", ", f);
	mbm_json_string(f, key);
	fprintf(f, ": %s", value);
	return true;
}

/*
 * The tables: information_schema.TABLES of the connection's database (the
 * run's, --mysql-db) for sbtest1..N, or for a table-per-client workload the
 * tables its clients scan.  The statement is text, and holds no value from
 * the command line (the table names are ours, the schema DATABASE()): a
 * prepared statement would show in Com_stmt_prepare, Com_stmt_execute and
 * the general log as Prepare/Execute, where only the workload's statements
 * belong.  The history list length: Innodb_history_list_length (MariaDB),
 * else InnoDB's trx_rseg_history_len metric (MySQL).
 */
static char *
my_data_state(mbm_conn *monitor, const mbm_options *o, const mb_workload *w)
{
	static const char history_status[] = "SHOW GLOBAL STATUS LIKE 'Innodb_history_list_length'";
	static const char history_metric[] =
		"SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len'";
	char	   *sql = NULL;
	size_t		sql_len = 0;
	char	   *json = NULL;
	size_t		json_len = 0;
	FILE	   *q;
	FILE	   *f;
	MYSQL_RES  *res;
	MYSQL_ROW	row;
	bool		first = true;
	int			t;

	if ((q = open_memstream(&sql, &sql_len)) == NULL)
		return NULL;
	fputs("SELECT SUM(DATA_LENGTH), SUM(INDEX_LENGTH), SUM(TABLE_ROWS)"
		  " FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (", q);
	for (t = 1; t <= o->tables; t++)
	{
		bool		used = !w->table_per_client;
		int			i;

		/* a client scans table (index % tables) + 1 */
		for (i = 0; !used && i < o->threads && i < o->tables; i++)
			used = (i % o->tables) + 1 == t;
		if (!used)
			continue;
		fprintf(q, "%s'sbtest%d'", first ? "" : ", ", t);
		first = false;
	}
	fputc(')', q);
	if (fclose(q) != 0)
	{
		free(sql);
		return NULL;
	}
	if ((f = open_memstream(&json, &json_len)) == NULL)
	{
		free(sql);
		return NULL;
	}
	first = true;
	fputc('{', f);
	if ((row = monitor_row(monitor->my, sql, sql_len, &res)) != NULL)
	{
		if (json_int_member(f, first, "data_bytes", row[0]))
			first = false;
		if (json_int_member(f, first, "index_bytes", row[1]))
			first = false;
		if (json_int_member(f, first, "rows", row[2]))
			first = false;
		mysql_free_result(res);
	}
	free(sql);
	row = monitor_row(monitor->my, history_status, strlen(history_status), &res);
	if (row == NULL || mysql_num_fields(res) < 2 || row[1] == NULL || !mbm_is_integer(row[1]))
	{
		if (res)
			mysql_free_result(res);
		row = monitor_row(monitor->my, history_metric, strlen(history_metric), &res);
		if (row && json_int_member(f, first, "history_length", row[0]))
			first = false;
	}
	else if (json_int_member(f, first, "history_length", row[1]))
		first = false;
	if (res)
		mysql_free_result(res);
	fputc('}', f);
	if (fclose(f) != 0 || first)
	{
		free(json);
		return NULL;
	}
	return json;
}

const mbm_driver mbm_mysql_driver = {
	.name = "mysql",
	.dbms_title = "MySQL",
	.placeholder = MB_PLACEHOLDER_QMARK,
	MBM_DRIVER_OPERATIONS(my),
	/* LOAD DATA LOCAL on the loaders' connections only; a library set up per thread */
	.connect_bulk = my_connect_bulk,
	.library_end = my_library_end, .thread_init = my_thread_init, .thread_end = my_thread_end,
	MBM_DRIVER_OWN(mbm_mysql),
};

/*
 * mbm_mysql.c — the MySQL/MariaDB driver: connect, prepare, bind, execute.
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
 * connection (mbm_quote_literal), so that the server parses each one.
 */
#include "mbm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errmsg.h>

struct mbm_stmt
{
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

bool
mbm_error_never_ignored(unsigned int code)
{
	/* 1317 ER_QUERY_INTERRUPTED: KILL QUERY, which is how a run is stopped */
	return (code >= 2000 && code <= 2999) || connection_gone(code) || code == 1317;
}

static void
set_error(char *err, size_t errlen, const char *what, const char *detail)
{
	snprintf(err, errlen, "%s: %s", what, detail);
}

/* The library's error with its number; which statement only if it matters. */
static void
set_mysql_error(char *err, size_t errlen, const char *what, const char *message,
				unsigned int code)
{
	if (connection_gone(code))
		snprintf(err, errlen, "%s (%u)", message, code);
	else
		snprintf(err, errlen, "%s: %s (%u)", what, message, code);
}

/*
 * LOAD DATA LOCAL: the library asks these callbacks for the "file" the
 * server requests.  They read no file: they hand out what the row source of
 * the one statement mbm_load_local() is running makes, and refuse any
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

static MYSQL *
connect_with(const mbm_options *o, bool local_infile, unsigned int timeout_s,
			 char *err, size_t errlen)
{
	MYSQL	   *conn = mysql_init(NULL);
	const char *password = getenv("MYSQL_PWD");

	if (conn == NULL)
	{
		set_error(err, errlen, "cannot connect", "out of memory");
		return NULL;
	}
	if (o->defaults_file)
	{
		/* user, password, host ... from the file, unless given as options */
		mysql_options(conn, MYSQL_READ_DEFAULT_FILE, o->defaults_file);
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
		 * serves only mbm_load_local()'s own statement.
		 */
		mysql_options(conn, MYSQL_OPT_LOCAL_INFILE, &on);
		set_infile_source(conn, NULL);
	}
	if (mysql_real_connect(conn, o->host, o->user, password, o->db,
						   (unsigned int) o->port, o->socket, 0) == NULL)
	{
		set_mysql_error(err, errlen, "cannot connect to the MySQL server",
						mysql_error(conn), mysql_errno(conn));
		mysql_close(conn);
		return NULL;
	}
	/* again, in case the library reset its options while connecting */
	if (local_infile)
		set_infile_source(conn, NULL);
	return conn;
}

MYSQL *
mbm_connect(const mbm_options *o, char *err, size_t errlen)
{
	return connect_with(o, false, 0, err, errlen);
}

MYSQL *
mbm_connect_timeout(const mbm_options *o, unsigned int timeout_s, char *err, size_t errlen)
{
	return connect_with(o, false, timeout_s, err, errlen);
}

MYSQL *
mbm_connect_loader(const mbm_options *o, char *err, size_t errlen)
{
	return connect_with(o, true, 0, err, errlen);
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

int64_t
mbm_load_local(MYSQL *conn, const char *sql, mbm_load_read_fn read, void *arg,
			   char *err, size_t errlen)
{
	infile_source src = {read, arg, false};
	int			failed;
	unsigned int warnings;
	int64_t		rows;

	set_infile_source(conn, &src);
	failed = mysql_real_query(conn, sql, (unsigned long) strlen(sql));
	set_infile_source(conn, NULL);
	if (failed)
	{
		set_mysql_error(err, errlen, sql, mysql_error(conn), mysql_errno(conn));
		return local_infile_refused(mysql_errno(conn), src.started) ?
			MBM_LOAD_REFUSED : -1;
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

int
mbm_query(MYSQL *conn, const char *sql, char *err, size_t errlen)
{
	MYSQL_RES  *res;

	if (mysql_real_query(conn, sql, (unsigned long) strlen(sql)) != 0)
	{
		set_mysql_error(err, errlen, sql, mysql_error(conn), mysql_errno(conn));
		return -1;
	}
	res = mysql_store_result(conn);
	if (res)
		mysql_free_result(res);
	else if (mysql_field_count(conn) != 0)
	{
		set_mysql_error(err, errlen, sql, mysql_error(conn), mysql_errno(conn));
		return -1;
	}
	return 0;
}

mbm_stmt *
mbm_stmt_prepare(MYSQL *conn, const char *sql, int nparams, char *err, size_t errlen)
{
	mbm_stmt   *s = calloc(1, sizeof(mbm_stmt));

	if (s == NULL)
	{
		set_error(err, errlen, "prepare", "out of memory");
		return NULL;
	}
	s->nparams = nparams;
	s->stmt = mysql_stmt_init(conn);
	s->binds = calloc(nparams > 0 ? nparams : 1, sizeof(MYSQL_BIND));
	s->lengths = calloc(nparams > 0 ? nparams : 1, sizeof(unsigned long));
	s->ints = calloc(nparams > 0 ? nparams : 1, sizeof(int32_t));
	s->sql = strdup(sql);
	if (s->stmt == NULL || s->binds == NULL || s->lengths == NULL || s->ints == NULL ||
		s->sql == NULL)
	{
		set_error(err, errlen, "prepare", "out of memory");
		mbm_stmt_close(s);
		return NULL;
	}
	if (mysql_stmt_prepare(s->stmt, sql, (unsigned long) strlen(sql)) != 0)
	{
		set_mysql_error(err, errlen, sql, mysql_stmt_error(s->stmt),
						mysql_stmt_errno(s->stmt));
		mbm_stmt_close(s);
		return NULL;
	}
	if ((int) mysql_stmt_param_count(s->stmt) != nparams)
	{
		set_error(err, errlen, sql, "unexpected number of parameters");
		mbm_stmt_close(s);
		return NULL;
	}
	return s;
}

int64_t
mbm_stmt_execute(mbm_stmt *s, const mb_bind_value *values, int nvalues,
				 char *err, size_t errlen)
{
	int			i;
	int64_t		rows = 0;

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
		set_mysql_error(err, errlen, s->sql, mysql_stmt_error(s->stmt),
						mysql_stmt_errno(s->stmt));
		return -1;
	}
	if (mysql_stmt_execute(s->stmt) != 0)
	{
		set_mysql_error(err, errlen, s->sql, mysql_stmt_error(s->stmt),
						mysql_stmt_errno(s->stmt));
		return -1;
	}
	if (mysql_stmt_field_count(s->stmt) > 0)
	{
		if (mysql_stmt_store_result(s->stmt) != 0)
		{
			set_mysql_error(err, errlen, s->sql, mysql_stmt_error(s->stmt),
							mysql_stmt_errno(s->stmt));
			return -1;
		}
		rows = (int64_t) mysql_stmt_num_rows(s->stmt);
		mysql_stmt_free_result(s->stmt);
	}
	return rows;
}

unsigned int
mbm_stmt_errno(const mbm_stmt *s)
{
	return mysql_stmt_errno(s->stmt);
}

int64_t
mbm_text_execute(MYSQL *conn, const char *sql, size_t len, const char *what,
				 char *err, size_t errlen)
{
	MYSQL_RES  *res;
	int64_t		rows = 0;

	if (mysql_real_query(conn, sql, (unsigned long) len) != 0)
	{
		set_mysql_error(err, errlen, what, mysql_error(conn), mysql_errno(conn));
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
		set_mysql_error(err, errlen, what, mysql_error(conn), mysql_errno(conn));
		return -1;
	}
	return rows;
}

int
mbm_quote_literal(const char *text, int len, char *out, size_t outlen, void *arg)
{
	MYSQL	   *conn = arg;
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

void
mbm_stmt_close(mbm_stmt *s)
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
query_value(MYSQL *conn, const char *sql, char *out, size_t outlen,
			char *err, size_t errlen)
{
	MYSQL_RES  *res;
	MYSQL_ROW	row;

	out[0] = '\0';
	if (mysql_real_query(conn, sql, (unsigned long) strlen(sql)) != 0 ||
		(res = mysql_store_result(conn)) == NULL)
	{
		set_mysql_error(err, errlen, sql, mysql_error(conn), mysql_errno(conn));
		return -1;
	}
	row = mysql_fetch_row(res);
	if (row && row[0])
		snprintf(out, outlen, "%s", row[0]);
	mysql_free_result(res);
	return 0;
}

int
mbm_server_facts_read(MYSQL *conn, mbm_server_facts *f, char *err, size_t errlen)
{
	char		version[128];
	char		comment[128];
	size_t		n;

	memset(f, 0, sizeof(*f));
	if (query_value(conn, "SELECT VERSION()", version, sizeof(version), err, errlen) != 0 ||
		query_value(conn, "SELECT @@version_comment", comment, sizeof(comment), err, errlen) != 0)
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

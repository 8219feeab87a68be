/*
 * mbm_driver.h — what the client asks of a DBMS: the driver interface.
 *
 * As in sysbench's db_driver.h, the core owns the run (mbm_run.c: clients,
 * phases, pacing, counting, the window, stopping) and a driver is a table
 * of thin operations: connect, prepare, execute with bound values, run a
 * statement as text, read a few rows of text, say what an error was, what
 * the server is, and the DBMS's own commands (prepare, cleanup, maintain)
 * and cost counters.  A driver also owns its options (its connection
 * settings): it declares them, parses them into settings of its own and
 * prints their section of --help, so the core never names a driver or one
 * of its options.  The drivers are listed in drivers/mbm_drivers.c, the
 * one file of the client that names them: "mysql" (drivers/mysql/, MySQL
 * and MariaDB through the C API that libmysqlclient and MariaDB
 * Connector/C share) and "pgsql" (drivers/pgsql/, libpq).  The name is
 * what --db-driver takes and what a result row's driver column holds.
 *
 * Errors: every operation that fails writes a one-line reason into the
 * caller's buffer and leaves the DBMS's code for it on the connection
 * (mbm_error_code()): a MySQL error number as decimal text, or a Postgres
 * SQLSTATE.  --ignore-errors takes those codes, so one comparison of
 * strings serves both.
 */
#ifndef MBM_DRIVER_H
#define MBM_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mb_catalog.h"

struct mbm_options;

/* A connection and a prepared statement: each driver's own. */
typedef struct mbm_conn mbm_conn;
typedef struct mbm_stmt mbm_stmt;

/* Room for an error code: a MySQL number or a SQLSTATE, and the NUL. */
#define MBM_CODE_LEN 8

/*
 * What every driver's mbm_conn begins with, so that the core reads it
 * without asking the driver: the code of the connection's last failure
 * ("" if none), which each operation that fails sets, and the server's id
 * of the session, which connect sets and cancel_format names (0: none).
 */
typedef struct mbm_conn_head
{
	char		last_code[MBM_CODE_LEN];
	unsigned long session_id;
} mbm_conn_head;

/* The code of conn's last failure (a C struct's first member shares its address). */
static inline const char *
mbm_error_code(const mbm_conn *conn)
{
	return ((const mbm_conn_head *) conn)->last_code;
}

/* The server's id of conn's session, what a stop cancels its statement by. */
static inline unsigned long
mbm_session_id(const mbm_conn *conn)
{
	return ((const mbm_conn_head *) conn)->session_id;
}

/* What the server says about itself, for the result row. */
typedef struct mbm_server_facts
{
	char		dbms[16];		/* "mysql", "mariadb" or "postgres" */
	char		version[64];	/* "10.11.6", "15.14" */
	char		version_string[256];	/* the server's full version text */
	char		compiler[128];	/* what built the server, "" if it does not say */
	char		instance[128];	/* which start of the server: "port N, started T" */
} mbm_server_facts;

/* Fill buf with up to len bytes of rows; the count, 0 at the end of the data. */
typedef unsigned int (*mbm_load_read_fn) (void *arg, char *buf, unsigned int len);

/* load_stream(): bulk loading is not allowed here; nothing was loaded. */
#define MBM_LOAD_REFUSED	(-2)

/* A row of text values (NULL for SQL NULL) handed to a query_rows callback. */
typedef void (*mbm_row_fn) (void *arg, int ncols, const char *const *values);

/*
 * A server counter the run summary divides by queries: name, or fallback
 * when the server has no such counter; label (NULL: "name:") and a divisor
 * that turns its unit into the label's.
 */
typedef struct mbm_shown_status
{
	const char *name;
	const char *fallback;
	const char *label;
	double		divisor;
} mbm_shown_status;

#define MBM_COST_STATUS_SHOWN 6

/*
 * An option of a driver, --NAME=VALUE (each takes a value): a text the
 * core stores in *text as it is, a TCP port (1 to 65535) it stores in
 * *port, or, with neither, one the driver's parse_option checks, under the
 * driver's own number id.
 */
typedef struct mbm_driver_option
{
	const char *name;
	const char **text;
	int		   *port;
	int			id;
} mbm_driver_option;

/*
 * How --ignore-errors and its messages speak of a DBMS's error codes; the
 * two that may be NULL stand for another member, so that no driver writes
 * one text twice.
 */
typedef struct mbm_code_words
{
	const char *title;			/* what a code is: "MySQL error number", "SQLSTATE" */
	const char *noun;			/* a code in a sentence ("error"); NULL: title */
	const char *default_ignored;	/* --ignore-errors when not given */
	const char *example;		/* for the hint of a bad one; NULL: default_ignored */
} mbm_code_words;

/*
 * A driver's table.  Its texts stand beside what they describe, each filled
 * in by the naming convention of MBM_DRIVER_OPERATIONS and MBM_DRIVER_OWN
 * below, so that a driver's own table says only who it is.
 */
typedef struct mbm_driver
{
	const char *name;			/* "mysql" or "pgsql" */
	const char *dbms_title;		/* for messages: "MySQL" or "Postgres" */
	mb_placeholder_style placeholder;

	/*
	 * What the driver sends as sysbench's driver and scripts do, so that
	 * the server does the same work for a run of either: whether BEGIN and
	 * COMMIT go as prepared statements of the driver's own (sysbench's
	 * pgsql driver prepares them), and which catalog statements go as text
	 * with their values written in although statements are prepared (a
	 * script's con:query; NULL: none).
	 */
	bool		prepared_transactions;
	bool		(*sent_as_text) (const mb_stmt *stmt);
	const mbm_code_words *codes;	/* for --ignore-errors and its messages */
	/* the statement that cancels session %lu's current statement */
	const char *cancel_format;
	const char *cancel_title;	/* what it is, for messages: "KILL QUERY" */
	const char *maintain_title; /* what cmd_maintain does, for the suite's progress */
	const char *password_from;	/* where the password comes from, for messages */

	/*
	 * Its options, ending with a NULL name; parse_option takes the value of
	 * one into the driver's settings (what connect uses): 0, or -1 with a
	 * one-line reason in err that does not repeat a value that may hold a
	 * password.  help is their section of --help.
	 */
	const mbm_driver_option *options;
	int			(*parse_option) (int id, const char *value, char *err, size_t errlen);
	const char *help;

	/*
	 * The library, once per process and once per thread that uses it; the
	 * last three may be NULL where the library needs nothing.
	 */
	int			(*library_init) (void);
	void		(*library_end) (void);
	void		(*thread_init) (void);
	void		(*thread_end) (void);

	/*
	 * Whether text is a code of this DBMS; NULL, or why it may never be
	 * ignored (which codes always stop a run), for the refusal's message.
	 */
	bool		(*code_valid) (const char *code);
	const char *(*code_never_ignored) (const char *code);

	/*
	 * Connect with the driver's settings (its options); timeout_s 0: the
	 * library's.  NULL with a one-line reason in err.  close takes a
	 * connection, never NULL.
	 */
	mbm_conn   *(*connect) (const struct mbm_options *o, unsigned int timeout_s,
							char *err, size_t errlen);
	void		(*close) (mbm_conn *conn);

	/* a statement as text, its result read and discarded: 0 or -1 */
	int			(*query) (mbm_conn *conn, const char *sql, char *err, size_t errlen);
	/* a statement as text, each row handed to fn: the row count or -1 */
	int64_t		(*query_rows) (mbm_conn *conn, const char *sql, mbm_row_fn fn, void *arg,
							   char *err, size_t errlen);

	/*
	 * Server-side prepared statements: prepare sql (placeholders in the
	 * driver's style), the catalog statement stmt rendered for an IN list
	 * as long as range needs (NULL: a statement of the driver's own, its
	 * parameter types left to the server); execute with bound values,
	 * reading and discarding every row as a client that used them would
	 * (the rows read, or -1).
	 */
	mbm_stmt   *(*prepare) (mbm_conn *conn, const char *sql, int nparams,
							const mb_stmt *stmt, int range, char *err, size_t errlen);
	int64_t		(*execute) (mbm_stmt *stmt, const mb_bind_value *values, int nvalues,
							char *err, size_t errlen);
	void		(*stmt_close) (mbm_stmt *stmt);

	/*
	 * --db-ps-mode=disable: sql (len bytes, values written in as literals,
	 * quoted by quote_literal with the connection as its argument) sent as
	 * text; what names it in an error (its template).  Rows read or -1.
	 */
	int64_t		(*text_execute) (mbm_conn *conn, const char *sql, size_t len,
								 const char *what, char *err, size_t errlen);
	mb_quote_fn quote_literal;

	int			(*server_facts) (mbm_conn *conn, mbm_server_facts *facts,
								 char *err, size_t errlen);
	/*
	 * Whether sbtest1..o->tables exist: 0, or -1 with err set; *missing
	 * tells a missing table (err says to run prepare) from a failed query.
	 */
	int			(*check_tables) (mbm_conn *conn, const struct mbm_options *o, bool *missing,
								 char *err, size_t errlen);

	/*
	 * Bulk loading, for prepare: a connection on which load_stream may run
	 * (NULL: any connection may; mbm_connect_bulk() asks for one either
	 * way), and load_stream: sql (LOAD DATA LOCAL INFILE, COPY ... FROM STDIN)
	 * with its data made on the fly by read(arg, ...), never a file.  The
	 * rows loaded, MBM_LOAD_REFUSED (the server does not allow it; nothing
	 * was loaded; err says why), or -1 with err set.
	 */
	mbm_conn   *(*connect_bulk) (const struct mbm_options *o, char *err, size_t errlen);
	int64_t		(*load_stream) (mbm_conn *conn, const char *sql, mbm_load_read_fn read,
								void *arg, char *err, size_t errlen);

	/* the commands: an exit code each */
	int			(*cmd_prepare) (const struct mbm_options *o);
	int			(*cmd_cleanup) (const struct mbm_options *o);
	int			(*cmd_maintain) (const struct mbm_options *o);

	/*
	 * Costs (mbm_cost.c): whether the server runs on this host; the query
	 * whose rows are (name, value) counters read at both ends of the window
	 * (it may depend on the server's version); the counters the summary
	 * shows; the query that gives the server's data directory; a
	 * fingerprint of what a run reads (malloc'ed JSON or NULL).
	 */
	bool		(*server_is_local) (mbm_conn *conn);
	const char *(*status_sql) (mbm_conn *conn);
	const mbm_shown_status *shown_status;
	const char *datadir_sql;
	char	   *(*data_state) (mbm_conn *conn, const struct mbm_options *o,
							   const mb_workload *w);

	/*
	 * Which of the server's operating-system threads serves a session
	 * (mbm_session_cpu.c reads its CPU in /proc): queries with one %lu, the
	 * session id, whose first value is the thread's id, tried in order
	 * until one answers (servers differ in where they say it); NULL when
	 * the session id is the process id already (a Postgres backend).
	 */
	const char *const *session_thread_sql;
} mbm_driver;

/*
 * A driver's table names its members by convention: the thin operations
 * and the texts beside them as OPS_connect, OPS_query, OPS_codes, ... (its
 * own statics), and what its other files give (options, commands, the
 * counters its summary shows, and their texts) as OWN_options,
 * OWN_prepare, ...; these two fill those members.
 */
#define MBM_DRIVER_OPERATIONS(OPS) \
	.library_init = OPS##_library_init, \
	.codes = &OPS##_codes, \
	.code_valid = OPS##_code_valid, .code_never_ignored = OPS##_code_never_ignored, \
	.connect = OPS##_connect, .password_from = OPS##_password_from, .close = OPS##_close, \
	.cancel_format = OPS##_cancel_format, .cancel_title = OPS##_cancel_title, \
	.query = OPS##_query, .query_rows = OPS##_query_rows, \
	.prepare = OPS##_prepare, .execute = OPS##_execute, .stmt_close = OPS##_stmt_close, \
	.text_execute = OPS##_text_execute, .quote_literal = OPS##_quote_literal, \
	.server_facts = OPS##_server_facts, .load_stream = OPS##_load_stream, \
	.server_is_local = OPS##_server_is_local, .status_sql = OPS##_status_sql, \
	.datadir_sql = OPS##_datadir_sql, .data_state = OPS##_data_state, \
	.session_thread_sql = OPS##_session_thread_sql

#define MBM_DRIVER_OWN(OWN) \
	.options = OWN##_options, .parse_option = OWN##_parse_option, \
	.help = OWN##_help, .check_tables = OWN##_check_tables, \
	.cmd_prepare = OWN##_prepare, .cmd_cleanup = OWN##_cleanup, \
	.cmd_maintain = OWN##_maintain, .maintain_title = OWN##_maintain_title, \
	.shown_status = OWN##_shown_status

/* What a driver's other files give its table (MBM_DRIVER_OWN), declared. */
#define MBM_DRIVER_OWN_DECLARATIONS(OWN) \
	extern const mbm_driver_option OWN##_options[]; \
	extern int	OWN##_parse_option(int id, const char *value, char *err, size_t errlen); \
	extern const char OWN##_help[]; \
	extern int	OWN##_check_tables(mbm_conn *conn, const struct mbm_options *o, \
								   bool *missing, char *err, size_t errlen); \
	extern int	OWN##_prepare(const struct mbm_options *o); \
	extern int	OWN##_cleanup(const struct mbm_options *o); \
	extern int	OWN##_maintain(const struct mbm_options *o); \
	extern const char OWN##_maintain_title[]

/* ---- drivers/mbm_drivers.c: the drivers there are ---- */

/* Every driver, the default (--db-driver not given) first; NULL ends it. */
extern const mbm_driver *const mbm_drivers[];

/* The driver of a --db-driver name, or NULL. */
extern const mbm_driver *mbm_driver_find(const char *name);

#endif							/* MBM_DRIVER_H */

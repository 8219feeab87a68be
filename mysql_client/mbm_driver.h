/*
 * mbm_driver.h — what the client asks of a DBMS: the driver interface.
 *
 * As in sysbench's db_driver.h, the core owns the run (mbm_run.c: clients,
 * phases, pacing, counting, the window, stopping) and a driver is a table
 * of thin operations: connect, prepare, execute with bound values, run a
 * statement as text, read a few rows of text, say what an error was, what
 * the server is, and the DBMS's own commands (prepare, cleanup, maintain)
 * and cost counters.  Two drivers: "mysql" (mbm_mysql.c, MySQL and MariaDB
 * through the C API that libmysqlclient and MariaDB Connector/C share) and
 * "pgsql" (mbm_pgsql.c, libpq).  The name is what --db-driver takes and
 * what a result row's driver column holds.
 *
 * Errors: every operation that fails writes a one-line reason into the
 * caller's buffer and leaves the DBMS's code for it on the connection
 * (error_code): a MySQL error number as decimal text, or a Postgres
 * SQLSTATE.  --ignore-errors takes those codes, so one comparison of
 * strings serves both.
 */
#ifndef MBM_DRIVER_H
#define MBM_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mb_catalog.h"

struct mbm_options;

/* A connection and a prepared statement: each driver's own. */
typedef struct mbm_conn mbm_conn;
typedef struct mbm_stmt mbm_stmt;

/* Room for an error code: a MySQL number or a SQLSTATE, and the NUL. */
#define MBM_CODE_LEN 8

/* What the server says about itself, for the result row. */
typedef struct mbm_server_facts
{
	char		dbms[16];		/* "mysql", "mariadb" or "postgres" */
	char		version[64];	/* "10.11.6", "15.14" */
	char		version_string[256];	/* the server's full version text */
	char		compiler[128];	/* what built the server, "" if it does not say */
	char		instance[128];	/* which start of the server: "port N, started T" */
} mbm_server_facts;

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

typedef struct mbm_driver
{
	const char *name;			/* "mysql" or "pgsql" */
	const char *dbms_title;		/* for messages: "MySQL" or "Postgres" */
	const char *code_title;		/* what an error code is: "MySQL error number", "SQLSTATE" */
	const char *default_ignored;	/* --ignore-errors when not given */
	const char *code_example;	/* for the hint of a bad --ignore-errors */
	mb_placeholder_style placeholder;

	/* the library, once per process and once per thread that uses it */
	int			(*library_init) (void);
	void		(*library_end) (void);
	void		(*thread_init) (void);
	void		(*thread_end) (void);

	/* whether text is a code of this DBMS; whether it may never be ignored */
	bool		(*code_valid) (const char *code);
	bool		(*code_never_ignored) (const char *code);

	/*
	 * Connect with the options' connection settings; timeout_s 0: the
	 * library's.  NULL with a one-line reason in err.
	 */
	mbm_conn   *(*connect) (const struct mbm_options *o, unsigned int timeout_s,
							char *err, size_t errlen);
	void		(*close) (mbm_conn *conn);
	/* the code of the connection's last failure ("" if none) */
	const char *(*error_code) (const mbm_conn *conn);
	/* the server's id of the session, what cancel_sql names (0: none) */
	unsigned long (*session_id) (mbm_conn *conn);
	/* the statement that cancels session id's current statement, into buf */
	void		(*cancel_sql) (unsigned long id, char *buf, size_t buflen);

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
} mbm_driver;

extern const mbm_driver mbm_mysql_driver;
extern const mbm_driver mbm_pgsql_driver;

/* The driver of a --db-driver name, or NULL. */
extern const mbm_driver *mbm_driver_find(const char *name);

#endif							/* MBM_DRIVER_H */

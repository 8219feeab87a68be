/*
 * mbm_compare.h — microbench compare, the comparison runner: what its
 * files share.  mbm_compare.c is the command (options, the plan of runs,
 * rounds and budget, results, reports); mbm_proc.c supervises the
 * processes it starts (each server in its own process group, pinned,
 * stopped on every way out); mbm_pgserver.c is a Postgres installation,
 * a data directory and the server on it (initdb, start, stop);
 * mbm_myserver.c the same for MariaDB and MySQL (install-db).
 */
#ifndef MBM_COMPARE_H
#define MBM_COMPARE_H

#include <stdbool.h>
#include <sys/types.h>

#include <libpq-fe.h>

/* ---- mbm_proc.c ---- */

/* How a child process runs: as whom, on which CPUs, with its output where. */
typedef struct mbm_spawn
{
	const char *user;			/* NULL: as we are; else drop to this user (we are root) */
	const char *cpus;			/* taskset-style list, NULL: any */
	const char *log;			/* stdout and stderr appended here; NULL: /dev/null */
} mbm_spawn;

/*
 * Catch INT, TERM, HUP and PIPE: the handler notes the signal and cancels
 * the statement of mbm_proc_set_cancel()'s connection, nothing more.
 */
extern void mbm_proc_catch_signals(void);
/* The signal that asked us to stop, or 0. */
extern int	mbm_proc_stop_signal(void);
/* The statement to cancel when a signal comes (NULL: none). */
extern void mbm_proc_set_cancel(PGcancel *cancel);

/*
 * Start argv[0] (a path) with argv in a process group of its own; the
 * pid, or -1 with err set.  Every child is remembered until reaped, so
 * that mbm_proc_kill_all() finds it on any way out.
 */
extern pid_t mbm_proc_start(char *const argv[], const mbm_spawn *how, char *err, size_t errlen);
/* A server started as user, pinned to cpus, logging to log: its pid, or 0. */
extern pid_t mbm_proc_server(char *const argv[], const char *user, const char *cpus, const char *log,
							 char *err, size_t errlen);
/*
 * Wait for pid to end, at most timeout_s seconds (0: no limit, but a stop
 * signal ends the wait and kills its group); 0 and its exit status, or -1.
 */
extern int	mbm_proc_wait(pid_t pid, double timeout_s, int *status);
/* Run a command to its end: 0 when it exited 0, else -1 with err set. */
extern int	mbm_proc_run(char *const argv[], const mbm_spawn *how, char *err, size_t errlen);
/* Run argv (a path) and take the first line of its output into out: 0 or -1. */
extern int	mbm_proc_output(char *const argv[], char *out, size_t outlen);
/*
 * Wait, at most 120 s, until ready(arg) while the child pid (a server
 * named what, logging to log) runs: 0, or -1 with err set when it ended,
 * the wait ran out or a stop signal came (the caller stops it).
 */
extern int	mbm_proc_await(pid_t pid, bool (*ready) (void *arg), void *arg, const char *what,
						   const char *log, char *err, size_t errlen);
/* Whether pid (a child) is still running; reaps it when it has ended. */
extern bool mbm_proc_alive(pid_t pid);
/* SIGKILL every child's process group and reap them: the last resort. */
extern void mbm_proc_kill_all(void);
/*
 * Pin this process to the CPUs that cpus (the servers') leaves, all of
 * them when it leaves none; that list into others.
 */
extern void mbm_proc_pin_others(const char *cpus, char *others, size_t len);
/* CPUs as a taskset list: whether this machine has them all. */
extern bool mbm_proc_cpus_valid(const char *cpus);
/*
 * --set's NAME=VALUE lines into argv from n on (at most max entries), each
 * as flag (if not NULL) then prefix NAME=VALUE: "-c" "x=1" for postgres,
 * "--x=1" for mariadbd; the new count.
 */
extern int	mbm_settings_args(const char *settings, const char *flag, const char *prefix,
							  char **argv, int n, int max);
/* Give path (recursively) to user: the servers run as it. */
extern int	mbm_proc_chown(const char *path, const char *user);
/* Copy a stopped data directory as user (a reflink where the file system can): 0 or -1. */
extern int	mbm_proc_copy(const char *from, const char *to, const char *user, char *err,
						  size_t errlen);
/* Remove a directory tree; 0 or -1. */
extern int	mbm_proc_remove_tree(const char *path);

/* ---- mbm_pgserver.c ---- */

/* A Postgres installation (a --pg build) and what the runner knows of it. */
typedef struct mbm_pgbuild
{
	const char *label;
	const char *prefix;
	char		bindir[1024];
	int			major;
	char		version[128];	/* postgres --version */
	char		cc[256];		/* pg_config --cc */
	char		cflags[1024];	/* pg_config --cflags */
	char	   *settings;		/* -c NAME=VALUE options from --set, "\n"-separated, or NULL */
} mbm_pgbuild;

/* A server started on a data directory. */
typedef struct mbm_pgserver
{
	const mbm_pgbuild *build;
	char		datadir[1024];
	char		sockdir[1024];
	int			port;
	pid_t		pid;			/* the postmaster; 0: not running */
	char		log[1024];
} mbm_pgserver;

/* What every server gets (the work directory, CPUs, clients); set once. */
typedef struct mbm_pgsetup
{
	const char *workdir;		/* sockets go here */
	const char *logdir;
	const char *owner;			/* the user servers run as, NULL: ourselves */
	const char *cpus;			/* servers pinned here; NULL: not pinned */
	int			clients;
} mbm_pgsetup;

extern mbm_pgsetup mbm_pg;

/* Fill b from b->prefix: 0, or -1 with a one-line reason (not a Postgres installation). */
extern int	mbm_pgbuild_inspect(mbm_pgbuild *b, char *err, size_t errlen);
/* What pg_config OPTION says of b, its first line: 0 or -1. */
extern int	mbm_pg_config(const mbm_pgbuild *b, const char *option, char *out, size_t outlen);
/* initdb into dir as the owner: 0 or -1 with err set. */
extern int	mbm_pg_initdb(const mbm_pgbuild *b, const char *dir, char *err, size_t errlen);
/*
 * Start b's postgres on datadir, pinned, and wait until it accepts
 * connections: 0, or -1 with err set (it did not start; its log says why).
 * pristine: the server that makes the pristine data, with as little WAL
 * as can be.
 */
extern int	mbm_pg_start(mbm_pgserver *s, const mbm_pgbuild *b, const char *datadir, int port,
						 const char *logname, bool pristine, char *err, size_t errlen);
/* A connection to database db of s: NULL with err set. */
extern PGconn *mbm_pg_connect(const mbm_pgserver *s, const char *db, char *err, size_t errlen);
/* Fast shutdown, waited for; harder signals when it does not come. */
extern void mbm_pg_stop(mbm_pgserver *s);
/* One statement, its first value (or "") into out: 0, or -1 with err set. */
extern int	mbm_pg_exec(PGconn *conn, const char *sql, int nparams, const char *const *params,
						char *out, size_t outlen, char *err, size_t errlen);

/* ---- mbm_myserver.c ---- */

/* A MariaDB or MySQL server binary (a --mariadb or --mysql build). */
typedef struct mbm_mybuild
{
	const char *kind;			/* "mariadb" or "mysql", as the option named it */
	const char *label;
	const char *binary;			/* as given */
	char		binary_real[1024];
	char		bindir[1024];
	char		basedir[1024];	/* /usr for /usr/sbin/mariadbd */
	char		install_db[2100];	/* or "" when initialize */
	bool		initialize;		/* MySQL 8+: mysqld --initialize-insecure makes the data */
	char		version[256];	/* --version */
	char		cc[256];		/* the server's C++ compiler and flags, from */
	char		cflags[1024];	/* the INFO_BIN its build installed; or "" */
	char	   *settings;		/* --set NAME=VALUE lines, or NULL */
} mbm_mybuild;

typedef struct mbm_myserver
{
	const mbm_mybuild *build;
	char		datadir[1024];
	char		sock[128];
	pid_t		pid;
	char		log[1024];
} mbm_myserver;

struct mbm_options;

/* Fill b from b->binary: 0, or -1 with a one-line reason. */
extern int	mbm_mybuild_inspect(mbm_mybuild *b, char *err, size_t errlen);
/* install-db into dir: 0 or -1 with err set. */
extern int	mbm_my_install_db(const mbm_mybuild *b, const char *dir, char *err, size_t errlen);
/* Start b on datadir, pinned, waited for: 0, or -1 with err set. */
extern int	mbm_my_start(mbm_myserver *s, const mbm_mybuild *b, const char *datadir,
						 const char *logname, char *err, size_t errlen);
/* One statement as the admin (over the socket): 0 or -1 with err set. */
extern int	mbm_my_sql(const mbm_myserver *s, const char *sql, char *err, size_t errlen);
/* The mysql driver's options for s: its socket, the admin user. */
extern const char *mbm_my_user(const mbm_mybuild *b);
extern void mbm_my_client_options(const mbm_myserver *s, struct mbm_options *o);
/* A clean shutdown waited for; SIGKILL to the group when it does not come. */
extern void mbm_my_stop(mbm_myserver *s);

/* ---- mbm_compare.c ---- */

/* microbench compare ...: argv[0] is "compare"; an exit code. */
extern int	mbm_compare_main(int argc, char **argv);

#endif							/* MBM_COMPARE_H */

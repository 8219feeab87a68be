/*
 * mbm_proc.h — the processes microbench compare starts, supervised
 * (mbm_proc.c): how a child runs, what every server gets, and a child's
 * start, its wait and its stop on every way out.  The bottom of the runner's files: it knows nothing of a
 * comparison.
 */
#ifndef MBM_PROC_H
#define MBM_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <libpq-fe.h>

/*
 * What every server the runner starts gets, of either kind (the work
 * directory, the users, CPUs, clients, a wrapper); set once, and for a
 * counted start its wrapper and settings.
 */
typedef struct mbm_server_setup
{
	const char *workdir;		/* sockets go here */
	const char *logdir;
	const char *pg_user;		/* the user Postgres runs as; NULL: ourselves */
	const char *my_user;		/* the user MariaDB and MySQL run as; NULL: ourselves */
	const char *cpus;			/* servers pinned here; NULL: not pinned */
	int			clients;
	char	   *const *wrapper;	/* the run's server started under this (valgrind ...); NULL: none */
	const char *count_settings;	/* with it, these NAME=VALUE lines ("\n"-separated) too; NULL: none */
} mbm_server_setup;

extern mbm_server_setup mbm_servers;

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
 * In a process the runner forked: the runner's children and its statement
 * to cancel are not this process's to stop.
 */
extern void mbm_proc_forget_inherited(void);

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
/*
 * The same for a command that stops itself (SIGSTOP) at moments the runner
 * acts on: at_stop(the stop's number, from 1, arg) each time, then SIGCONT;
 * a failed at_stop (-1, err set) ends the command.
 */
extern int	mbm_proc_run_stopping(char *const argv[], const mbm_spawn *how,
								  int (*at_stop) (int nth, void *arg, char *err, size_t errlen),
								  void *arg, char *err, size_t errlen);
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
 * argv[0..n) moved behind wrapper (a command and its options, NULL-ended:
 * a run's server under valgrind), at most max entries; the new count.
 */
extern int	mbm_proc_wrap(char *const *wrapper, char **argv, int n, int max);
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
/* argv as one line a shell would run as it is (arguments quoted where they need it) into out. */
extern void mbm_proc_command_line(char *const argv[], char *out, size_t len);
/* Remove a directory tree; 0 or -1. */
extern int	mbm_proc_remove_tree(const char *path);

#endif							/* MBM_PROC_H */

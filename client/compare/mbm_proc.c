/*
 * mbm_proc.c — the processes microbench compare starts, supervised.
 *
 * Each child (a server, initdb, a copy) runs in a process group of its
 * own, so that one signal reaches everything it started (a postmaster's
 * backends and workers too), pinned with sched_setaffinity before exec,
 * as the unprivileged server user when we are root (initdb and postgres
 * refuse root), its output appended to a log.  Every child is remembered
 * until it is reaped: whatever way the runner leaves (a failure, INT,
 * TERM, HUP, PIPE), mbm_proc_kill_all() is the last step, after the
 * orderly stops.
 *
 * The signal handler only records the signal and cancels the statement in
 * flight (PQcancel is safe in a handler, the libpq manual says so), so a
 * run of many seconds ends at once and the main loop does the cleanup.
 */
#include "mbm.h"
#include "mbm_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MBM_MAX_CHILDREN 16

mbm_server_setup mbm_servers;

static pid_t children[MBM_MAX_CHILDREN];
static atomic_int stop_signal;
static PGcancel *_Atomic cancel_target;

static void
on_signal(int sig)
{
	PGcancel   *cancel = atomic_load(&cancel_target);
	char		errbuf[256];

	if (atomic_load(&stop_signal) == 0)
		atomic_store(&stop_signal, sig);
	if (cancel != NULL)
		(void) PQcancel(cancel, errbuf, sizeof(errbuf));
}

void
mbm_proc_catch_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	struct sigaction sa;
	size_t		i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int
mbm_proc_stop_signal(void)
{
	return atomic_load(&stop_signal);
}

void
mbm_proc_set_cancel(PGcancel *cancel)
{
	atomic_store(&cancel_target, cancel);
}

void
mbm_proc_forget_inherited(void)
{
	memset(children, 0, sizeof(children));
	atomic_store(&cancel_target, NULL);
}

static void
remember(pid_t pid)
{
	int			i;

	for (i = 0; i < MBM_MAX_CHILDREN; i++)
		if (children[i] == 0)
		{
			children[i] = pid;
			return;
		}
}

static void
forget(pid_t pid)
{
	int			i;

	for (i = 0; i < MBM_MAX_CHILDREN; i++)
		if (children[i] == pid)
			children[i] = 0;
}

/* "0", "0-1", "0,2-3" into set; false if malformed or beyond this machine. */
static bool
parse_cpus(const char *list, cpu_set_t *set)
{
	long		ncpu = sysconf(_SC_NPROCESSORS_CONF);
	const char *p = list;

	CPU_ZERO(set);
	if (*p == '\0')
		return false;
	while (*p)
	{
		char	   *end;
		long		lo = strtol(p, &end, 10);
		long		hi = lo;

		if (end == p || lo < 0)
			return false;
		p = end;
		if (*p == '-')
		{
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo)
				return false;
			p = end;
		}
		if (hi >= ncpu || hi >= CPU_SETSIZE)
			return false;
		for (; lo <= hi; lo++)
			CPU_SET(lo, set);
		if (*p == ',')
			p++;
		else if (*p != '\0')
			return false;
	}
	return true;
}

bool
mbm_proc_cpus_valid(const char *cpus)
{
	cpu_set_t	set;

	return parse_cpus(cpus, &set);
}

void
mbm_proc_pin_others(const char *cpus, char *others, size_t len)
{
	cpu_set_t	taken;
	cpu_set_t	rest;
	long		n = sysconf(_SC_NPROCESSORS_ONLN);
	long		c;

	parse_cpus(cpus, &taken);
	CPU_ZERO(&rest);
	others[0] = '\0';
	for (c = 0; c < n && c < CPU_SETSIZE; c++)
		if (!CPU_ISSET(c, &taken))
		{
			CPU_SET(c, &rest);
			snprintf(others + strlen(others), len - strlen(others), "%s%ld", others[0] ? "," : "", c);
		}
	/* the servers have every CPU: share them */
	if (others[0] == '\0')
	{
		snprintf(others, len, "%s", cpus);
		rest = taken;
	}
	sched_setaffinity(0, sizeof(rest), &rest);
}

pid_t
mbm_proc_start(char *const argv[], const mbm_spawn *how, char *err, size_t errlen)
{
	struct passwd *pw = NULL;
	cpu_set_t	cpus;
	pid_t		pid;

	if (how->user && (pw = getpwnam(how->user)) == NULL)
	{
		snprintf(err, errlen, "no user %s to run %s as", how->user, argv[0]);
		return -1;
	}
	if (how->cpus && !parse_cpus(how->cpus, &cpus))
	{
		snprintf(err, errlen, "CPU list \"%s\" is not this machine's", how->cpus);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
	{
		snprintf(err, errlen, "cannot start %s: %s", argv[0], strerror(errno));
		return -1;
	}
	if (pid == 0)
	{
		sigset_t	none;
		int			fd = open(how->log ? how->log : "/dev/null",
							  O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		int			null = open("/dev/null", O_RDONLY);

		/* the child's own group; the default signal actions back */
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (null >= 0)
			dup2(null, 0);
		if (fd >= 0)
		{
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (how->cpus)
			sched_setaffinity(0, sizeof(cpus), &cpus);
		if (pw && (setgroups(0, NULL) != 0 || setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0))
			_exit(126);
		/*
		 * A runner killed outright (SIGKILL: no handler runs) takes its
		 * children with it: SIGQUIT, a server's immediate stop.  Set after
		 * the change of user, which would clear it.
		 */
		prctl(PR_SET_PDEATHSIG, SIGQUIT);
		if (getppid() == 1)
			_exit(125);
		execv(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	/* also here: a signal sent to the group before the child ran setpgid */
	setpgid(pid, pid);
	remember(pid);
	return pid;
}

pid_t
mbm_proc_server(char *const argv[], const char *user, const char *cpus, const char *log, char *err,
				size_t errlen)
{
	mbm_spawn	how = {user, cpus, log};
	pid_t		pid = mbm_proc_start(argv, &how, err, errlen);

	return pid < 0 ? 0 : pid;
}

/*
 * Wait for pid to end, as mbm_proc_wait does; with at_stop, each time it
 * stops itself at_stop(the stop's number, arg) first, then SIGCONT.  A
 * failed at_stop kills its group: -1 with err set.
 */
static int
wait_child(pid_t pid, double timeout_s, int *status,
		   int (*at_stop) (int nth, void *arg, char *err, size_t errlen), void *arg,
		   char *err, size_t errlen)
{
	uint64_t	deadline = timeout_s > 0 ? mbm_now_ns() + (uint64_t) (timeout_s * 1e9) : 0;
	int			stops = 0;
	int			st;

	for (;;)
	{
		pid_t		r = waitpid(pid, &st, WNOHANG | (at_stop ? WUNTRACED : 0));

		if (r == pid && WIFSTOPPED(st))
		{
			if (at_stop(++stops, arg, err, errlen) != 0)
			{
				kill(-pid, SIGKILL);
				waitpid(pid, &st, 0);
				forget(pid);
				return -1;
			}
			kill(pid, SIGCONT);
			continue;
		}
		if (r == pid || (r < 0 && errno == ECHILD))
		{
			if (status)
				*status = st;
			forget(pid);
			return 0;
		}
		if (deadline && mbm_now_ns() >= deadline)
			return -1;
		if (timeout_s == 0 && mbm_proc_stop_signal() != 0)
		{
			kill(-pid, SIGKILL);
			waitpid(pid, &st, 0);
			forget(pid);
			if (err)
				snprintf(err, errlen, "interrupted");
			return -1;
		}
		usleep(5000);
	}
}

int
mbm_proc_wait(pid_t pid, double timeout_s, int *status)
{
	return wait_child(pid, timeout_s, status, NULL, NULL, NULL, 0);
}

int
mbm_proc_run_stopping(char *const argv[], const mbm_spawn *how,
					  int (*at_stop) (int nth, void *arg, char *err, size_t errlen), void *arg,
					  char *err, size_t errlen)
{
	int			status = 0;
	pid_t		pid = mbm_proc_start(argv, how, err, errlen);

	if (pid < 0)
		return -1;
	err[0] = '\0';
	if (wait_child(pid, 0, &status, at_stop, arg, err, errlen) != 0)
	{
		if (err[0] == '\0' || strcmp(err, "interrupted") == 0)
			snprintf(err, errlen, "%s stopped: interrupted", argv[0]);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
	{
		snprintf(err, errlen, "%s failed (exit status %d)%s%s", argv[0],
				 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
				 how->log ? "; see " : "", how->log ? how->log : "");
		return -1;
	}
	return 0;
}

int
mbm_proc_run(char *const argv[], const mbm_spawn *how, char *err, size_t errlen)
{
	return mbm_proc_run_stopping(argv, how, NULL, NULL, err, errlen);
}

int
mbm_proc_await(pid_t pid, bool (*ready) (void *arg), void *arg, const char *what,
			   const char *log, char *err, size_t errlen)
{
	uint64_t	deadline = mbm_now_ns() + 120 * 1000000000ull;

	for (;;)
	{
		if (ready(arg))
			return 0;
		if (!mbm_proc_alive(pid))
		{
			snprintf(err, errlen, "%s did not start; see %s", what, log);
			return -1;
		}
		if (mbm_proc_stop_signal() != 0 || mbm_now_ns() > deadline)
		{
			snprintf(err, errlen, "%s did not start%s; see %s", what,
					 mbm_proc_stop_signal() ? " (interrupted)" : " within 120 s", log);
			return -1;
		}
		usleep(10000);
	}
}

bool
mbm_proc_alive(pid_t pid)
{
	int			status;
	pid_t		r = waitpid(pid, &status, WNOHANG);

	if (r == pid || (r < 0 && errno == ECHILD))
	{
		forget(pid);
		return false;
	}
	return true;
}

void
mbm_proc_kill_all(void)
{
	int			i;

	for (i = 0; i < MBM_MAX_CHILDREN; i++)
		if (children[i] > 0)
		{
			kill(-children[i], SIGKILL);
			waitpid(children[i], NULL, 0);
			children[i] = 0;
		}
}

int
mbm_proc_copy(const char *from, const char *to, const char *user, char *err, size_t errlen)
{
	char	   *argv[] = {"/bin/cp", "-a", "--reflink=auto", (char *) from, (char *) to, NULL};
	mbm_spawn	how = {user, NULL, NULL};

	return mbm_proc_run(argv, &how, err, errlen);
}

int
mbm_proc_output(char *const argv[], char *out, size_t outlen)
{
	int			fds[2];
	pid_t		pid;
	ssize_t		n;
	size_t		got = 0;

	out[0] = '\0';
	if (pipe(fds) != 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
	{
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while (got + 1 < outlen && (n = read(fds[0], out + got, outlen - got - 1)) > 0)
		got += (size_t) n;
	out[got] = '\0';
	close(fds[0]);
	waitpid(pid, NULL, 0);
	out[strcspn(out, "\n")] = '\0';
	return got > 0 ? 0 : -1;
}

int
mbm_settings_args(const char *settings, const char *flag, const char *prefix, char **argv,
				  int n, int max)
{
	/* kept for the process's life: the argv points into it */
	char	   *copy;
	char	   *save = NULL;
	char	   *line;

	if (settings == NULL)
		return n;
	copy = strdup(settings);
	for (line = strtok_r(copy, "\n", &save); line && n + 2 < max; line = strtok_r(NULL, "\n", &save))
	{
		char	   *arg = malloc(strlen(prefix) + strlen(line) + 1);

		sprintf(arg, "%s%s", prefix, line);
		if (flag)
			argv[n++] = (char *) flag;
		argv[n++] = arg;
	}
	return n;
}

static uid_t chown_uid;
static gid_t chown_gid;

static int
chown_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return lchown(path, chown_uid, chown_gid) == 0 ? 0 : -1;
}

int
mbm_proc_chown(const char *path, const char *user)
{
	struct passwd *pw = getpwnam(user);

	if (pw == NULL)
		return -1;
	chown_uid = pw->pw_uid;
	chown_gid = pw->pw_gid;
	return nftw(path, chown_one, 16, FTW_PHYS);
}

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

int
mbm_proc_remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int
mbm_proc_wrap(char *const *wrapper, char **argv, int n, int max)
{
	int			k = 0,
				i;

	while (wrapper && wrapper[k])
		k++;
	if (k == 0 || n + k > max)
		return n;
	for (i = n; i >= 0; i--)
		argv[i + k] = argv[i];
	for (i = 0; i < k; i++)
		argv[i] = wrapper[i];
	return n + k;
}

/* text appended to out (of len bytes, *used of them taken), as much as fits */
static void
append(char *out, size_t len, size_t *used, const char *text)
{
	size_t		n = strlen(text);

	if (*used + 1 >= len)
		return;
	if (n > len - 1 - *used)
		n = len - 1 - *used;
	memcpy(out + *used, text, n);
	*used += n;
	out[*used] = '\0';
}

void
mbm_proc_command_line(char *const argv[], char *out, size_t len)
{
	static const char plain_chars[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+=/.,:%@";
	size_t		used = 0;
	int			i;

	out[0] = '\0';
	for (i = 0; argv[i] != NULL; i++)
	{
		const char *a = argv[i];
		const char *p;

		if (i > 0)
			append(out, len, &used, " ");
		if (a[0] != '\0' && strspn(a, plain_chars) == strlen(a))
		{
			append(out, len, &used, a);
			continue;
		}
		/* single quotes, a quote inside as '\'' */
		append(out, len, &used, "'");
		for (p = a; *p; p++)
		{
			char		c[2] = {*p, '\0'};

			append(out, len, &used, *p == '\'' ? "'\\''" : c);
		}
		append(out, len, &used, "'");
	}
}

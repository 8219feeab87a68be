/*
 * mbm_pgserver.c — Postgres for microbench compare: an installation's
 * facts, a data directory made by initdb, a copy of the pristine one, and
 * the server on it.
 *
 * The server is the postgres binary itself, not pg_ctl: it is the runner's
 * child in a process group of its own (mbm_proc.c), pinned to the
 * measured CPUs, its settings given as -c options, so that a data
 * directory copied from the pristine one is never edited.  It listens on
 * a unix socket in the runner's work directory only.  Stopping it is a
 * fast shutdown (SIGINT) that the runner waits for, then SIGQUIT and
 * SIGKILL to its whole group if it does not come, and the shared memory
 * segment an immediate stop leaves behind is removed (its id is in
 * postmaster.pid), so nothing of a server outlives the runner.
 */
#include "mbm.h"
#include "mbm_pgserver.h"
#include "mbm_proc.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int
mbm_pgbuild_inspect(mbm_pgbuild *b, char *err, size_t errlen)
{
	static const char *const needed[] = {"postgres", "initdb", "pg_config"};
	char		path[1200];
	char	   *argv[3];
	const char *v;
	size_t		i;

	snprintf(b->bindir, sizeof(b->bindir), "%s/bin", b->prefix);
	for (i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
	{
		snprintf(path, sizeof(path), "%s/%s", b->bindir, needed[i]);
		if (access(path, X_OK) != 0)
		{
			snprintf(err, errlen, "--pg %s=%s: not a Postgres installation (no bin/%s)",
					 b->label, b->prefix, needed[i]);
			return -1;
		}
	}
	snprintf(path, sizeof(path), "%s/postgres", b->bindir);
	argv[0] = path;
	argv[1] = "--version";
	argv[2] = NULL;
	if (mbm_proc_output(argv, b->version, sizeof(b->version)) != 0 ||
		(v = strstr(b->version, ") ")) == NULL || (b->major = atoi(v + 2)) < 10)
	{
		snprintf(err, errlen, "--pg %s=%s: bin/postgres --version does not say which Postgres it is",
				 b->label, b->prefix);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/pg_config", b->bindir);
	argv[1] = "--cc";
	mbm_proc_output(argv, b->cc, sizeof(b->cc));
	argv[1] = "--cflags";
	mbm_proc_output(argv, b->cflags, sizeof(b->cflags));
	return 0;
}

int
mbm_pg_config(const mbm_pgbuild *b, const char *option, char *out, size_t outlen)
{
	char		path[1100];
	char	   *argv[] = {path, (char *) option, NULL};

	snprintf(path, sizeof(path), "%s/pg_config", b->bindir);
	return mbm_proc_output(argv, out, outlen);
}

/* The role the servers' superuser has: the user they run as. */
const char *
mbm_pg_role(void)
{
	static char role[64];

	if (mbm_servers.pg_user)
		return mbm_servers.pg_user;
	if (role[0] == '\0')
		snprintf(role, sizeof(role), "%s", getenv("USER") ? getenv("USER") : "postgres");
	return role;
}

int
mbm_pg_initdb(const mbm_pgbuild *b, const char *dir, char *err, size_t errlen)
{
	char		initdb[1100];
	char		log[1100];
	char	   *argv[] = {initdb, "-D", (char *) dir, "-U", (char *) mbm_pg_role(), "--auth=trust",
	"--no-sync", "-E", "UTF8", "--locale=C", NULL};
	mbm_spawn	how = {mbm_servers.pg_user, NULL, log};

	snprintf(initdb, sizeof(initdb), "%s/initdb", b->bindir);
	snprintf(log, sizeof(log), "%s/initdb.log", mbm_servers.logdir);
	if (mkdir(dir, 0700) != 0 ||
		(mbm_servers.pg_user && mbm_proc_chown(dir, mbm_servers.pg_user) != 0))
	{
		snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	return mbm_proc_run(argv, &how, err, errlen);
}

static void
conninfo(const mbm_pgserver *s, const char *db, char *buf, size_t len)
{
	snprintf(buf, len, "host=%s port=%d user=%s dbname=%s connect_timeout=10"
			 " application_name=microbench-compare", s->sockdir, s->port, mbm_pg_role(), db);
}

/* Whether the server of conninfo arg accepts connections. */
static bool
accepts(void *arg)
{
	return PQping(arg) == PQPING_OK;
}

int
mbm_pg_start(mbm_pgserver *s, const mbm_pgbuild *b, const char *datadir, int port,
			 const char *logname, bool pristine, char *err, size_t errlen)
{
	char		postgres[1100];
	char		opt[16][1100];
	char	   *argv[64];
	int			n = 0;
	int			k = 0;
	char		ci[1400];
	char		what[1200];

	memset(s, 0, sizeof(*s));
	s->build = b;
	s->port = port;
	snprintf(s->datadir, sizeof(s->datadir), "%s", datadir);
	snprintf(s->sockdir, sizeof(s->sockdir), "%s", mbm_servers.workdir);
	snprintf(s->log, sizeof(s->log), "%s/%s", mbm_servers.logdir, logname);
	snprintf(postgres, sizeof(postgres), "%s/postgres", b->bindir);
	argv[n++] = postgres;
	argv[n++] = "-D";
	argv[n++] = s->datadir;
#define MBM_OPT(...) (snprintf(opt[k], sizeof(opt[k]), __VA_ARGS__), argv[n++] = "-c", argv[n++] = opt[k++])
	MBM_OPT("port=%d", port);
	MBM_OPT("listen_addresses=");
	MBM_OPT("unix_socket_directories=%s", s->sockdir);
	MBM_OPT("shared_buffers=256MB");
	MBM_OPT("max_worker_processes=%d", mbm_servers.clients + 16);
	MBM_OPT("max_connections=%d", mbm_servers.clients * 2 + 20);
	MBM_OPT("log_min_messages=warning");
	if (pristine)
	{
		/*
		 * The load writes no WAL for tables made in its transaction, and a
		 * checkpoint leaves little WAL behind: every run copies what is here
		 */
		MBM_OPT("wal_level=minimal");
		MBM_OPT("max_wal_senders=0");
		MBM_OPT("min_wal_size=32MB");
		MBM_OPT("max_wal_size=1GB");
	}
#undef MBM_OPT
	if (!pristine && mbm_servers.wrapper)
		n = mbm_settings_args(mbm_servers.count_settings, "-c", "", argv, n, 63);
	/* --set ones last: the copy stays as it was made */
	n = mbm_settings_args(b->settings, "-c", "", argv, n, 63);
	argv[n] = NULL;
	if (!pristine)
		n = mbm_proc_wrap(mbm_servers.wrapper, argv, n, 63);
	mbm_proc_command_line(argv, s->command, sizeof(s->command));
	if ((s->pid = mbm_proc_server(argv, mbm_servers.pg_user, mbm_servers.cpus, s->log, err, errlen)) == 0)
		return -1;
	conninfo(s, "postgres", ci, sizeof(ci));
	snprintf(what, sizeof(what), "%s (%s)", b->label, b->prefix);
	/* not up: whatever of it runs is stopped */
	return mbm_proc_await(s->pid, accepts, ci, what, s->log, err, errlen) == 0 ? 0 : (mbm_pg_stop(s), -1);
}

PGconn *
mbm_pg_connect(const mbm_pgserver *s, const char *db, char *err, size_t errlen)
{
	char		ci[1400];
	PGconn	   *conn;

	conninfo(s, db, ci, sizeof(ci));
	conn = PQconnectdb(ci);
	if (PQstatus(conn) != CONNECTION_OK)
	{
		snprintf(err, errlen, "cannot connect to %s: %s", s->build->label, PQerrorMessage(conn));
		err[strcspn(err, "\n")] = '\0';
		PQfinish(conn);
		return NULL;
	}
	return conn;
}

/* The shared memory id in a running server's postmaster.pid, or -1. */
static int
shm_id(const char *datadir)
{
	char		path[1100];
	char		line[256];
	FILE	   *f;
	int			n = 0;
	int			id = -1;

	snprintf(path, sizeof(path), "%s/postmaster.pid", datadir);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (++n == 7)
		{
			long		key;

			if (sscanf(line, "%ld %d", &key, &id) != 2)
				id = -1;
		}
	fclose(f);
	return id;
}

void
mbm_pg_stop(mbm_pgserver *s)
{
	char		pidfile[1100];
	int			shmid;

	if (s->pid <= 0)
		return;
	shmid = shm_id(s->datadir);
	kill(s->pid, SIGINT);
	if (mbm_proc_wait(s->pid, 60, NULL) != 0)
	{
		kill(-s->pid, SIGQUIT);
		if (mbm_proc_wait(s->pid, 5, NULL) != 0)
		{
			kill(-s->pid, SIGKILL);
			mbm_proc_wait(s->pid, 5, NULL);
		}
	}
	/* a postmaster that died (or was killed) may leave backends behind */
	kill(-s->pid, SIGKILL);
	/*
	 * A clean shutdown removes postmaster.pid and its shared memory; after
	 * any other end both stay, for a next start that never comes
	 */
	snprintf(pidfile, sizeof(pidfile), "%s/postmaster.pid", s->datadir);
	if (access(pidfile, F_OK) == 0 && shmid >= 0)
		shmctl(shmid, IPC_RMID, NULL);
	s->pid = 0;
}

int
mbm_pg_exec(PGconn *conn, const char *sql, int nparams, const char *const *params,
			char *out, size_t outlen, char *err, size_t errlen)
{
	PGresult   *res = PQexecParams(conn, sql, nparams, NULL, params, NULL, NULL, 0);
	ExecStatusType st = PQresultStatus(res);
	int			rc = 0;

	if (out && outlen)
		out[0] = '\0';
	if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK)
	{
		snprintf(err, errlen, "%s", PQresultErrorMessage(res));
		err[strcspn(err, "\n")] = '\0';
		rc = -1;
	}
	else if (out && outlen && st == PGRES_TUPLES_OK && PQntuples(res) > 0)
		snprintf(out, outlen, "%s", PQgetvalue(res, 0, 0));
	PQclear(res);
	return rc;
}

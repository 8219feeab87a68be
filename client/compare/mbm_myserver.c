/*
 * mbm_myserver.c — MariaDB and MySQL for microbench compare: a server
 * binary's facts, a data directory made by install-db, and the server on
 * it.
 *
 * As for Postgres (mbm_pgserver.c): the server binary itself is the
 * runner's child, in a process group of its own and pinned, its settings
 * given on the command line (--no-defaults: no option file of the machine
 * reaches it), listening on a unix socket in the work directory only.
 * The runner talks to it through the client's own mysql driver, found by
 * name in the driver registry and set up through its options, so no file
 * of the runner uses the MySQL C API.  Its sbtest tables are loaded, and
 * its runs made, by this program itself run as a child (`microbench
 * prepare`, `microbench run`), so a stop signal ends a run at once.
 * Stopping is SIGTERM, a clean shutdown waited for, then SIGKILL to the
 * group.
 */
#include "mbm.h"
#include "mbm_myserver.h"
#include "mbm_proc.h"

#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * The compiler and flags a MariaDB or MySQL build was made with, for the
 * manifest: cmake writes them into its build's INFO_BIN, which `microbench
 * compare build` copies into BASEDIR/docs (Debian's package ships none:
 * then they are left out).  The server's own flags are the C++ ones of sql/.
 */
static void
read_info_bin(mbm_mybuild *b)
{
	char		path[1100];
	char		line[4096];
	FILE	   *f;

	b->cc[0] = b->cflags[0] = '\0';
	snprintf(path, sizeof(path), "%s/docs/INFO_BIN", b->basedir);
	if ((f = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f))
	{
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "# compile CXX with ", 19) == 0 && !b->cc[0])
			snprintf(b->cc, sizeof(b->cc), "%.255s", line + 19);
		else if (strncmp(line, "CXX_FLAGS = ", 12) == 0 && !b->cflags[0])
		{
			char	   *v = line + 12;

			while (*v == ' ')
				v++;
			snprintf(b->cflags, sizeof(b->cflags), "%.1023s", v);
		}
	}
	fclose(f);
}

int
mbm_mybuild_inspect(mbm_mybuild *b, char *err, size_t errlen)
{
	static const char *const installers[] = {
		"mariadb-install-db", "../bin/mariadb-install-db", "../scripts/mariadb-install-db",
		"mysql_install_db", "../bin/mysql_install_db", "../scripts/mysql_install_db"
	};
	char		real[1024];
	char		dir[1024];
	char	   *argv[3];
	size_t		i;

	if (realpath(b->binary, real) == NULL || access(real, X_OK) != 0)
	{
		snprintf(err, errlen, "--%s %s=%s: not a server binary that runs", b->kind, b->label,
				 b->binary);
		return -1;
	}
	argv[0] = real;
	argv[1] = "--version";
	argv[2] = NULL;
	if (mbm_proc_output(argv, b->version, sizeof(b->version)) != 0 || strstr(b->version, "Ver ") == NULL)
	{
		snprintf(err, errlen, "--%s %s=%s: not a server binary that runs (--version failed)",
				 b->kind, b->label, b->binary);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", real);
	snprintf(b->bindir, sizeof(b->bindir), "%s", dirname(dir));
	snprintf(dir, sizeof(dir), "%s", b->bindir);
	snprintf(b->basedir, sizeof(b->basedir), "%s", dirname(dir));
	b->install_db[0] = '\0';
	for (i = 0; i < sizeof(installers) / sizeof(installers[0]) && !b->install_db[0]; i++)
	{
		char		path[2100];

		snprintf(path, sizeof(path), "%s/%s", b->bindir, installers[i]);
		if (access(path, X_OK) == 0)
			snprintf(b->install_db, sizeof(b->install_db), "%s", path);
	}
	/* MySQL 8 has no install-db: its server makes a data directory itself */
	b->initialize = !b->install_db[0] && strstr(b->version, "MySQL") != NULL &&
		strstr(b->version, "MariaDB") == NULL;
	for (i = 0; i < 2 && !b->install_db[0] && !b->initialize; i++)
	{
		const char *onpath = i == 0 ? "/usr/bin/mariadb-install-db" : "/usr/bin/mysql_install_db";

		if (access(onpath, X_OK) == 0)
			snprintf(b->install_db, sizeof(b->install_db), "%s", onpath);
	}
	if (!b->install_db[0] && !b->initialize)
	{
		snprintf(err, errlen, "--%s %s: no mariadb-install-db or mysql_install_db beside %s or in"
				 " /usr/bin", b->kind, b->label, b->binary);
		return -1;
	}
	snprintf(b->binary_real, sizeof(b->binary_real), "%s", real);
	read_info_bin(b);
	return 0;
}

/* Whether b's --verbose --help names option: what this version of the server has. */
bool
mbm_mybuild_has_option(const mbm_mybuild *b, const char *option)
{
	char		path[] = "/tmp/microbench-help.XXXXXX";
	char	   *argv[] = {(char *) b->binary_real, "--no-defaults", "--verbose", "--help", NULL};
	mbm_spawn	how = {NULL, NULL, path};
	char		err[256];
	char		line[1024];
	bool		found = false;
	int			fd = mkstemp(path);
	FILE	   *f;

	if (fd < 0)
		return false;
	close(fd);
	mbm_proc_run(argv, &how, err, sizeof(err));
	if ((f = fopen(path, "r")) != NULL)
	{
		while (!found && fgets(line, sizeof(line), f))
			found = strstr(line, option) != NULL;
		fclose(f);
	}
	unlink(path);
	return found;
}

/* The server's command line: every setting given here, none read from a file. */
static void
server_argv(const mbm_mybuild *b, const char *datadir, const char *sock, const char *log,
			char **argv, char opts[][1100], int *n)
{
	int			k = 0;

#define MY_OPT(...) (snprintf(opts[k], 1100, __VA_ARGS__), argv[(*n)++] = opts[k++])
	argv[(*n)++] = (char *) b->binary_real;
	MY_OPT("--no-defaults");
	MY_OPT("--basedir=%s", b->basedir);
	MY_OPT("--datadir=%s", datadir);
	MY_OPT("--socket=%s", sock);
	MY_OPT("--pid-file=%s/mariadbd.pid", datadir);
	MY_OPT("--tmpdir=%s", datadir);
	MY_OPT("--log-error=%s", log);
	MY_OPT("--skip-networking");
	MY_OPT("--skip-name-resolve");
	MY_OPT("--skip-log-bin");
	MY_OPT("--innodb-buffer-pool-size=512M");
	MY_OPT("--max-connections=%d", mbm_servers.clients * 2 + 20);
	if (mbm_servers.my_user)
		MY_OPT("--user=%s", mbm_servers.my_user);
	if (mbm_servers.wrapper)
	{
		/* under valgrind InnoDB's native AIO hangs, and a reservation of the default maximum pool cannot be mapped */
		MY_OPT("--innodb-use-native-aio=0");
		if (b->pool_size_max)
			MY_OPT("--innodb-buffer-pool-size-max=512M");

		/*
		 * What a connection's thread does must not depend on time, which
		 * valgrind stretches, and unequally for two builds.  Purge runs
		 * beside the window at the clock's pace and decides how many
		 * delete-marked entries an update meets (4% from run to run): on
		 * a counted server it does not run (the one setting that differs
		 * from a timed run's server; the runs' note says so).
		 */
		MY_OPT("--innodb-force-recovery=2");
	}
#undef MY_OPT
	*n = mbm_settings_args(b->settings, NULL, "--", argv, *n, 63);
	argv[*n] = NULL;
	*n = mbm_proc_wrap(mbm_servers.wrapper, argv, *n, 63);
}

int
mbm_my_install_db(const mbm_mybuild *b, const char *dir, char *err, size_t errlen)
{
	char		datadir[1100],
				basedir[1100],
				log[1100],
				user[64];
	char	   *argv[] = {(char *) b->install_db, "--no-defaults", datadir, basedir, user,
		"--auth-root-authentication-method=socket", "--skip-test-db", "--skip-name-resolve", NULL};
	/* root without a password, reachable only through the work directory's socket */
	char	   *initialize[] = {(char *) b->binary_real, "--no-defaults", "--initialize-insecure",
		datadir, basedir, user, NULL};
	mbm_spawn	how = {NULL, NULL, log};

	snprintf(datadir, sizeof(datadir), "--datadir=%s", dir);
	snprintf(basedir, sizeof(basedir), "--basedir=%s", b->basedir);
	snprintf(user, sizeof(user), "--user=%s", mbm_servers.my_user ? mbm_servers.my_user : (getenv("USER") ? getenv("USER") : "mysql"));
	snprintf(log, sizeof(log), "%s/install-db.log", mbm_servers.logdir);
	if (mkdir(dir, 0700) != 0 || (mbm_servers.my_user && mbm_proc_chown(dir, mbm_servers.my_user) != 0))
	{
		snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	return mbm_proc_run(b->initialize ? initialize : argv, &how, err, errlen);
}

/* The user the runner connects as: MariaDB knows our own name (unix_socket); MySQL 8 its passwordless root. */
const char *
mbm_my_user(const mbm_mybuild *b)
{
	return geteuid() == 0 || b->initialize || getenv("USER") == NULL ? "root" : getenv("USER");
}

/* The admin's client options of a server: its socket, the runner's user. */
void
mbm_my_client_options(const mbm_myserver *s, mbm_options *o)
{
	const mbm_driver *d = mbm_driver_find("mysql");
	static char user[64];
	int			i;

	snprintf(user, sizeof(user), "%s", mbm_my_user(s->build));
	o->driver = d;
	for (i = 0; d && d->options[i].name; i++)
	{
		if (strcmp(d->options[i].name, "mysql-socket") == 0)
			*d->options[i].text = s->sock;
		else if (strcmp(d->options[i].name, "mysql-user") == 0)
			*d->options[i].text = user;
		else if (strcmp(d->options[i].name, "mysql-db") == 0)
			*d->options[i].text = "mysql";	/* always there, sbtest not yet */
	}
}

/* Whether the server the options point at takes a connection. */
static bool
accepts(void *arg)
{
	mbm_options *o = arg;
	char		err[512];
	mbm_conn   *conn = mbm_connect_timeout(o, 2, err, sizeof(err));

	if (conn == NULL)
		return false;
	o->driver->close(conn);
	return true;
}

int
mbm_my_start(mbm_myserver *s, const mbm_mybuild *b, const char *datadir, const char *sockname,
			 const char *logname, char *err, size_t errlen)
{
	char	   *argv[64];
	char		opts[20][1100];
	int			n = 0;
	mbm_options o;
	char		what[1200];

	memset(s, 0, sizeof(*s));
	s->build = b;
	snprintf(s->datadir, sizeof(s->datadir), "%s", datadir);
	snprintf(s->sock, sizeof(s->sock), "%s/%s", mbm_servers.workdir, sockname);
	snprintf(s->log, sizeof(s->log), "%s/%s", mbm_servers.logdir, logname);
	server_argv(b, s->datadir, s->sock, s->log, argv, opts, &n);
	mbm_proc_command_line(argv, s->command, sizeof(s->command));
	/*
	 * as we are: mariadbd drops to --user=mysql itself; but under valgrind
	 * as mysql from the start, so that callgrind_control as mysql reaches it
	 */
	if ((s->pid = mbm_proc_server(argv, mbm_servers.wrapper ? mbm_servers.my_user : NULL,
								  mbm_servers.cpus, s->log, err, errlen)) == 0)
		return -1;
	memset(&o, 0, sizeof(o));
	mbm_my_client_options(s, &o);
	if (o.driver->library_init() != 0)
	{
		snprintf(err, errlen, "cannot initialise the MySQL client library");
		mbm_my_stop(s);
		return -1;
	}
	snprintf(what, sizeof(what), "%s (%s)", b->label, b->binary);
	/* not up: whatever of it runs is stopped */
	return mbm_proc_await(s->pid, accepts, &o, what, s->log, err, errlen) == 0 ? 0 : (mbm_my_stop(s), -1);
}

int
mbm_my_sql(const mbm_myserver *s, const char *sql, char *err, size_t errlen)
{
	mbm_options o;
	mbm_conn   *conn;
	int			rc;

	memset(&o, 0, sizeof(o));
	mbm_my_client_options(s, &o);
	conn = mbm_connect_timeout(&o, 60, err, errlen);
	if (conn == NULL)
		return -1;
	rc = mbm_query(&o, conn, sql, err, errlen);
	o.driver->close(conn);
	return rc;
}

/* What mbm_my_value's query keeps: one column of its first row. */
typedef struct first_value
{
	int			column;
	char	   *out;
	size_t		outlen;
	bool		found;
} first_value;

static void
keep_first_value(void *arg, int ncols, const char *const *values)
{
	first_value *v = arg;

	if (v->found || v->column >= ncols)
		return;
	snprintf(v->out, v->outlen, "%s", values[v->column] ? values[v->column] : "");
	v->found = true;
}

int
mbm_my_value(const mbm_myserver *s, const char *sql, int column, char *out, size_t outlen,
			 char *err, size_t errlen)
{
	mbm_options o;
	mbm_conn   *conn;
	first_value v = {column, out, outlen, false};
	int64_t		rows;

	memset(&o, 0, sizeof(o));
	mbm_my_client_options(s, &o);
	conn = mbm_connect_timeout(&o, 60, err, errlen);
	if (conn == NULL)
		return -1;
	rows = o.driver->query_rows(conn, sql, keep_first_value, &v, err, errlen);
	o.driver->close(conn);
	if (rows >= 0 && !v.found)
		snprintf(err, errlen, "%s: no row", sql);
	return rows >= 0 && v.found ? 0 : -1;
}

void
mbm_my_stop(mbm_myserver *s)
{
	if (s->pid <= 0)
		return;
	kill(s->pid, SIGTERM);
	if (mbm_proc_wait(s->pid, 120, NULL) != 0)
	{
		kill(-s->pid, SIGKILL);
		mbm_proc_wait(s->pid, 5, NULL);
	}
	kill(-s->pid, SIGKILL);
	s->pid = 0;
}

/*
 * mbm_pgserver.h — a Postgres installation for microbench compare, a data
 * directory made by initdb and the server on it (mbm_pgserver.c).
 */
#ifndef MBM_PGSERVER_H
#define MBM_PGSERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <libpq-fe.h>

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
	char		command[4096];	/* how it was started, as a shell would run it */
} mbm_pgserver;

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
/* The role the runner connects as: the servers' owner (initdb -U). */
extern const char *mbm_pg_role(void);
/* A connection to database db of s: NULL with err set. */
extern PGconn *mbm_pg_connect(const mbm_pgserver *s, const char *db, char *err, size_t errlen);
/* Fast shutdown, waited for; harder signals when it does not come. */
extern void mbm_pg_stop(mbm_pgserver *s);
/* One statement, its first value (or "") into out: 0, or -1 with err set. */
extern int	mbm_pg_exec(PGconn *conn, const char *sql, int nparams, const char *const *params,
						char *out, size_t outlen, char *err, size_t errlen);

#endif							/* MBM_PGSERVER_H */

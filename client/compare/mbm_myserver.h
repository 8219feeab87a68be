/*
 * mbm_myserver.h — a MariaDB or MySQL server binary for microbench
 * compare, a data directory made by install-db and the server on it
 * (mbm_myserver.c).
 */
#ifndef MBM_MYSERVER_H
#define MBM_MYSERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

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
	bool		pool_size_max;	/* has innodb_buffer_pool_size_max (valgrind must be told it) */
} mbm_mybuild;

typedef struct mbm_myserver
{
	const mbm_mybuild *build;
	char		datadir[1024];
	char		sock[128];
	pid_t		pid;
	char		log[1024];
	char		command[4096];	/* how it was started, as a shell would run it */
} mbm_myserver;

struct mbm_options;

/* Fill b from b->binary: 0, or -1 with a one-line reason. */
extern int	mbm_mybuild_inspect(mbm_mybuild *b, char *err, size_t errlen);
/* Whether b's --verbose --help names option: what this version of the server has. */
extern bool mbm_mybuild_has_option(const mbm_mybuild *b, const char *option);
/* install-db into dir: 0 or -1 with err set. */
extern int	mbm_my_install_db(const mbm_mybuild *b, const char *dir, char *err, size_t errlen);
/* Start b on datadir, pinned, waited for: 0, or -1 with err set. */
extern int	mbm_my_start(mbm_myserver *s, const mbm_mybuild *b, const char *datadir,
						 const char *sockname, const char *logname, char *err, size_t errlen);
/* One statement as the admin (over the socket): 0 or -1 with err set. */
extern int	mbm_my_sql(const mbm_myserver *s, const char *sql, char *err, size_t errlen);
/* The value in column (from 0) of the first row of sql as the admin, into out: 0 or -1 with err set. */
extern int	mbm_my_value(const mbm_myserver *s, const char *sql, int column, char *out, size_t outlen,
						 char *err, size_t errlen);
/* The mysql driver's options for s: its socket, the admin user. */
extern const char *mbm_my_user(const mbm_mybuild *b);
extern void mbm_my_client_options(const mbm_myserver *s, struct mbm_options *o);
/* A clean shutdown waited for; SIGKILL to the group when it does not come. */
extern void mbm_my_stop(mbm_myserver *s);

#endif							/* MBM_MYSERVER_H */

/*
 * mbm_kinds.c — the kinds of measured server, each with its operations in
 * one table, as the client's drivers are: Postgres in-server (bench_run()
 * in the server), Postgres over the wire (this program's pgsql driver),
 * MariaDB and MySQL (its mysql driver).  A build's kind is chosen once
 * (mbm_request.c); every step that starts, prewarms, measures, counts or
 * stops a server goes through the functions below, which look the
 * operations up by that kind, so that no step tests a kind itself and a
 * new kind of server is one more row here.
 */
#include "mbm.h"
#include "mbm_kinds.h"
#include "mbm_count.h"
#include "mbm_measure.h"
#include "mbm_myserver.h"
#include "mbm_pgserver.h"
#include "mbm_proc.h"
#include "mbm_setup.h"
#include "mbm_state.h"

#include <string.h>

/* What the runner does with a kind of server. */
typedef struct mbm_kind_ops
{
	/* the build: checked and filled in, and its facts */
	int			(*inspect) (const mbm_any_build *ab, char *err, size_t errlen);
	void		(*facts) (const mbm_any_build *ab, mbm_build_facts *f);
	/* its data: whose it is, and where its pristine copy is */
	const char *(*owner) (void);
	const char *(*pristine) (const mbm_any_build *ab, char *buf, size_t len);
	/* a counted start: the command it runs under, and its settings ("\n"-separated, NULL: none) */
	char	   *const *(*count_wrapper) (void);
	const char *(*count_settings) (void);
	/* the server: started and waited for, prewarmed for counting, stopped */
	int			(*start) (mbm_server *s, const mbm_any_build *ab, const char *datadir,
						  const mbm_place *at, char *err, size_t errlen);
	int			(*prewarm) (const mbm_server *s, char *err, size_t errlen);
	int			(*reload) (const mbm_server *s, char *err, size_t errlen);
	void		(*stop) (mbm_server *s);
	/* a measurement on it, up: timed, or a counted window */
	mbm_run_outcome (*timed) (const mbm_server *s, const char *instance, const char *workload,
							  int round, const mbm_limits *lim, mbm_record **rec, char *err,
							  size_t errlen);
	mbm_run_outcome (*counted) (const mbm_server *s, const char *workload, int round,
								const mbm_limits *lim, mbm_record **rec, char *err, size_t errlen);
	/* a counted write's window starts with a checkpoint */
	bool		checkpoints_writes;
} mbm_kind_ops;

/* Postgres, in-server or over the wire */

static int
pg_inspect(const mbm_any_build *ab, char *err, size_t errlen)
{
	return mbm_pgbuild_inspect(ab->pg, err, errlen);
}

static void
pg_facts(const mbm_any_build *ab, mbm_build_facts *f)
{
	f->path = ab->pg->prefix;
	f->version = ab->pg->version;
	f->cc = ab->pg->cc;
	f->cflags = ab->pg->cflags;
	f->settings = ab->pg->settings;
}

static const char *
pg_owner(void)
{
	return mbm_servers.pg_user;
}

static const char *
pg_pristine(const mbm_any_build *ab, char *buf, size_t len)
{
	return mbm_pristine_path_pg(ab->pg, buf, len);
}

static int
pg_start(mbm_server *s, const mbm_any_build *ab, const char *datadir, const mbm_place *at,
		 char *err, size_t errlen)
{
	int			rc = mbm_pg_start(&s->pg, ab->pg, datadir, at->port, at->logname, false, err, errlen);

	s->log = s->pg.log;
	s->command = s->pg.command;
	s->pid = s->pg.pid;
	return rc;
}

static int
pg_prewarm(const mbm_server *s, char *err, size_t errlen)
{
	return mbm_count_ready_pg(&s->pg, err, errlen);
}

static int
pg_reload(const mbm_server *s, char *err, size_t errlen)
{
	PGconn	   *conn = mbm_pg_connect(&s->pg, "microbench", err, errlen);

	return conn ? mbm_setup_load_pg(&s->pg, conn, err, errlen) : -1;
}

static void
pg_stop(mbm_server *s)
{
	mbm_pg_stop(&s->pg);
}

static mbm_run_outcome
pg_timed(const mbm_server *s, const char *instance, const char *workload, int round,
		 const mbm_limits *lim, mbm_record **rec, char *err, size_t errlen)
{
	return mbm_measure_pg(&s->pg, workload, round, lim, rec, err, errlen);
}

static mbm_run_outcome
pg_counted(const mbm_server *s, const char *workload, int round, const mbm_limits *lim,
		   mbm_record **rec, char *err, size_t errlen)
{
	return mbm_count_pg(&s->pg, workload, round, lim, rec, err, errlen);
}

static mbm_run_outcome
pg_wire_timed(const mbm_server *s, const char *instance, const char *workload, int round,
			  const mbm_limits *lim, mbm_record **rec, char *err, size_t errlen)
{
	return mbm_measure_pg_wire(&s->pg, workload, round, lim, false, rec, err, errlen);
}

static mbm_run_outcome
pg_wire_counted(const mbm_server *s, const char *workload, int round, const mbm_limits *lim,
				mbm_record **rec, char *err, size_t errlen)
{
	return mbm_count_pg_wire(&s->pg, workload, round, lim, rec, err, errlen);
}

/* MariaDB and MySQL */

static const char *
no_settings(void)
{
	return NULL;
}

static int
my_inspect(const mbm_any_build *ab, char *err, size_t errlen)
{
	return mbm_mybuild_inspect(ab->my, err, errlen);
}

static void
my_facts(const mbm_any_build *ab, mbm_build_facts *f)
{
	f->path = ab->my->binary;
	f->version = ab->my->version;
	f->cc = ab->my->cc[0] ? ab->my->cc : NULL;
	f->cflags = ab->my->cflags[0] ? ab->my->cflags : NULL;
	f->settings = ab->my->settings;
}

static const char *
my_owner(void)
{
	return mbm_servers.my_user;
}

static const char *
my_pristine(const mbm_any_build *ab, char *buf, size_t len)
{
	return mbm_pristine_path_my(ab->my, buf, len);
}

static int
my_start(mbm_server *s, const mbm_any_build *ab, const char *datadir, const mbm_place *at,
		 char *err, size_t errlen)
{
	int			rc = mbm_my_start(&s->my, ab->my, datadir, at->sockname, at->logname, err, errlen);

	s->log = s->my.log;
	s->command = s->my.command;
	s->pid = s->my.pid;
	return rc;
}

static int
my_prewarm(const mbm_server *s, char *err, size_t errlen)
{
	return mbm_count_ready_my(&s->my, err, errlen);
}

static int
my_reload(const mbm_server *s, char *err, size_t errlen)
{
	return mbm_setup_load_my(&s->my, err, errlen);
}

static void
my_stop(mbm_server *s)
{
	mbm_my_stop(&s->my);
}

static mbm_run_outcome
my_timed(const mbm_server *s, const char *instance, const char *workload, int round,
		 const mbm_limits *lim, mbm_record **rec, char *err, size_t errlen)
{
	return mbm_measure_my(&s->my, instance, workload, round, lim, rec, err, errlen);
}

static mbm_run_outcome
my_counted(const mbm_server *s, const char *workload, int round, const mbm_limits *lim,
		   mbm_record **rec, char *err, size_t errlen)
{
	return mbm_count_my(&s->my, workload, round, lim, rec, err, errlen);
}

/* The table, by mbm_kind_id; mbm_state.c has each kind's names and column. */
static const mbm_kind_ops kinds[MBM_KINDS] = {
	[MBM_KIND_PG] = {
		pg_inspect, pg_facts, pg_owner, pg_pristine, mbm_count_wrapper_pg, mbm_count_pg_settings,
		pg_start, pg_prewarm, pg_reload, pg_stop, pg_timed, pg_counted, true
	},
	[MBM_KIND_PG_WIRE] = {
		pg_inspect, pg_facts, pg_owner, pg_pristine, mbm_count_wrapper_pg_wire, mbm_count_pg_settings,
		pg_start, pg_prewarm, pg_reload, pg_stop, pg_wire_timed, pg_wire_counted, true
	},
	[MBM_KIND_MARIADB] = {
		my_inspect, my_facts, my_owner, my_pristine, mbm_count_wrapper_my, no_settings,
		my_start, my_prewarm, my_reload, my_stop, my_timed, my_counted, false
	},
	[MBM_KIND_MYSQL] = {
		my_inspect, my_facts, my_owner, my_pristine, mbm_count_wrapper_my, no_settings,
		my_start, my_prewarm, my_reload, my_stop, my_timed, my_counted, false
	},
};

static const mbm_kind_ops *
ops(const mbm_any_build *ab)
{
	return &kinds[ab->kind];
}

int
mbm_build_inspect(const mbm_any_build *ab, char *err, size_t errlen)
{
	return ops(ab)->inspect(ab, err, errlen);
}

void
mbm_build_facts_of(const mbm_any_build *ab, mbm_build_facts *f)
{
	ops(ab)->facts(ab, f);
}

bool
mbm_kind_checkpoints_writes(const mbm_any_build *ab)
{
	return ops(ab)->checkpoints_writes;
}

int
mbm_server_start(mbm_server *s, const mbm_any_build *ab, const char *copy, const mbm_place *at,
				 bool counted, double *copy_s, double *start_s, char *err, size_t errlen)
{
	const mbm_kind_ops *k = ops(ab);
	char		pristine[1100];
	uint64_t	t0 = mbm_now_ns(),
				t1;
	int			started;

	*copy_s = *start_s = 0;
	k->pristine(ab, pristine, sizeof(pristine));
	if (mbm_proc_copy(pristine, copy, k->owner(), err, errlen) != 0)
		return -1;
	t1 = mbm_now_ns();
	/* from here on a way out stops it (mbm_finish), even while it starts */
	s->build = ab;
	if (counted)
	{
		mbm_servers.wrapper = k->count_wrapper();
		mbm_servers.count_settings = k->count_settings();
	}
	started = k->start(s, ab, copy, at, err, errlen);
	mbm_servers.wrapper = NULL;
	mbm_servers.count_settings = NULL;
	if (started != 0)
	{
		if (counted)
			mbm_count_explain_start(s->log, err, errlen);
		s->build = NULL;
		mbm_proc_remove_tree(copy);
	}
	*copy_s = (t1 - t0) / 1e9;
	*start_s = (mbm_now_ns() - t1) / 1e9;
	return started;
}

int
mbm_server_reload(const mbm_server *s, char *err, size_t errlen)
{
	return ops(s->build)->reload(s, err, errlen);
}

void
mbm_server_stop(mbm_server *s)
{
	if (s->build == NULL)
		return;
	ops(s->build)->stop(s);
	s->build = NULL;
	s->pid = 0;
}

int
mbm_server_prewarm(const mbm_server *s, char *err, size_t errlen)
{
	return ops(s->build)->prewarm(s, err, errlen);
}

mbm_run_outcome
mbm_server_timed(const mbm_server *s, const char *instance, const char *workload, int round,
				 const mbm_limits *lim, mbm_record **rec, char *err, size_t errlen)
{
	return ops(s->build)->timed(s, instance, workload, round, lim, rec, err, errlen);
}

mbm_run_outcome
mbm_server_counted(const mbm_server *s, const char *workload, int round, const mbm_limits *lim,
				   mbm_record **rec, char *err, size_t errlen)
{
	return ops(s->build)->counted(s, workload, round, lim, rec, err, errlen);
}

/*
 * mbm_kinds.h — the kinds of measured server and what the runner does
 * with each (mbm_kinds.c): inspect a build, start its server on a copy of
 * its pristine data, prewarm it, load its tables again, a timed run, a
 * counted window, its facts, stop it.  The steps above call these and
 * never test a kind themselves; a build's kind (mbm_kind_id) is chosen
 * once, as the request is checked.
 */
#ifndef MBM_KINDS_H
#define MBM_KINDS_H

#include <stdbool.h>
#include <stddef.h>

#include "mbm_measure.h"
#include "mbm_record.h"
#include "mbm_state.h"

/*
 * Where a measured server listens and logs, in the work directory: a port
 * (Postgres) or a socket's name (MariaDB, MySQL), and its log's name.
 */
typedef struct mbm_place
{
	int			port;
	const char *sockname;
	const char *logname;
} mbm_place;

/* What the manifest says of a build. */
typedef struct mbm_build_facts
{
	const char *path;			/* the installation's prefix, or the server binary */
	const char *version;
	const char *cc;				/* NULL: not known */
	const char *cflags;
	const char *settings;		/* --set's NAME=VALUE lines, "\n"-separated, or NULL */
} mbm_build_facts;

/* The build checked and what it is filled in: 0, or -1 with a one-line reason. */
extern int	mbm_build_inspect(const mbm_any_build *ab, char *err, size_t errlen);
/* The build's facts, as the manifest records them. */
extern void mbm_build_facts_of(const mbm_any_build *ab, mbm_build_facts *f);
/* Whether a counted write starts its window with a checkpoint (Postgres: the WAL's state alike). */
extern bool mbm_kind_checkpoints_writes(const mbm_any_build *ab);

/*
 * A fresh copy of ab's pristine data at copy, and ab's server started on
 * it as s at place at, pinned, up and accepting: 0, or -1 with err set and
 * the copy removed.  counted: under valgrind, with the kind's count
 * settings.  What the copy and the start took into copy_s, start_s.
 */
extern int	mbm_server_start(mbm_server *s, const mbm_any_build *ab, const char *copy,
							 const mbm_place *at, bool counted, double *copy_s, double *start_s,
							 char *err, size_t errlen);
/* s stopped, waited for (a no-op when none is up). */
extern void mbm_server_stop(mbm_server *s);
/* A counted server just started made ready for its windows: its data read into its buffers. */
extern int	mbm_server_prewarm(const mbm_server *s, char *err, size_t errlen);
/*
 * s's tables loaded again as its pristine data has them, for a write's
 * run on a server kept up (--keep-up): 0, or -1 with err set.
 */
extern int	mbm_server_reload(const mbm_server *s, char *err, size_t errlen);
/*
 * A timed run of workload on s, up: its row into *rec.  instance names a
 * MariaDB/MySQL server's start (NULL: the server says).
 */
extern mbm_run_outcome mbm_server_timed(const mbm_server *s, const char *instance,
										const char *workload, int round, const mbm_limits *lim,
										mbm_record **rec, char *err, size_t errlen);
/* A counted run of workload on s, prewarmed: lim's window, its row with its instructions into *rec. */
extern mbm_run_outcome mbm_server_counted(const mbm_server *s, const char *workload, int round,
										  const mbm_limits *lim, mbm_record **rec, char *err,
										  size_t errlen);

#endif							/* MBM_KINDS_H */

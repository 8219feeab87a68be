/*
 * mbm_setup.h — what microbench compare makes once, before the first run
 * (mbm_setup.c): the extension, the results database, the pristine data.
 */
#ifndef MBM_SETUP_H
#define MBM_SETUP_H

#include <stddef.h>

#include "mbm_state.h"

/*
 * This tree's extension in build b, its library built with the harness
 * build's compiler and flags, installed when it lacks it or has another.
 */
extern int	mbm_setup_extension(const mbm_pgbuild *b, const mbm_pgbuild *harness, char *err,
								size_t errlen);
/* What the harness's compiler says it is ("gcc 12.2.0"), "" before mbm_setup_extension. */
extern const char *mbm_setup_harness_compiler(void);
/* The results database: --results-db's, or a server of our own. */
extern int	mbm_setup_results(char *err, size_t errlen);
/* Another connection to it, for a process the runner forked: NULL with err set. */
extern PGconn *mbm_results_connect_again(char *err, size_t errlen);
/* One pristine data directory per Postgres major and MariaDB/MySQL version. */
extern int	mbm_setup_pristine(char *err, size_t errlen);
/* Where a Postgres build's pristine data is (one a major), and a MariaDB/MySQL build's (one a version). */
extern const char *mbm_pristine_path_pg(const mbm_pgbuild *b, char *buf, size_t len);
extern const char *mbm_pristine_path_my(const mbm_mybuild *b, char *buf, size_t len);
/*
 * The tables loaded into a server that is up, as its pristine data has
 * them: Postgres by bench_prepare() on conn (a connection to its microbench
 * database, which this closes), vacuumed, analysed and checkpointed;
 * MariaDB/MySQL by this program's prepare.  0, or -1 with err set.
 */
extern int	mbm_setup_load_pg(const mbm_pgserver *srv, PGconn *conn, char *err, size_t errlen);
extern int	mbm_setup_load_my(const mbm_myserver *srv, char *err, size_t errlen);
/* The server making pristine data, if one is up, stopped: on a way out. */
extern void mbm_setup_stop(void);

#endif							/* MBM_SETUP_H */

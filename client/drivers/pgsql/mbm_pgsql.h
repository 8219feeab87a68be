/*
 * mbm_pgsql.h — what the pgsql driver's files share: its settings (its
 * options, mbm_pgsql_options.c) and its commands (mbm_pgsql_prepare.c),
 * which the driver table (mbm_pgsql.c) names.  Nothing outside
 * drivers/pgsql/ includes it.
 */
#ifndef MBM_PGSQL_H
#define MBM_PGSQL_H

#include "mbm.h"

/*
 * The driver's options; NULL/0 means libpq's default (PGDATABASE, PGHOST,
 * ...).  db first, as the connection takes it: a conninfo string or URI
 * there gives whatever it holds, and the others win over it.
 */
typedef struct mbm_pgsql_config
{
	const char *db;				/* a database name, or a conninfo string or URI */
	const char *host;
	int			port;
	const char *user;
} mbm_pgsql_config;

extern mbm_pgsql_config mbm_pgsql_settings;

/* options, help (mbm_pgsql_options.c); tables (mbm_pgsql.c); prepare ... (mbm_pgsql_prepare.c) */
MBM_DRIVER_OWN_DECLARATIONS(mbm_pgsql);

#endif							/* MBM_PGSQL_H */

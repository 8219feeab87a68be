/*
 * mbm_mysql.h — what the mysql driver's files share: its settings (its
 * options, mbm_mysql_options.c) and its commands (mbm_mysql_prepare.c),
 * which the driver table (mbm_mysql.c) names.  Nothing outside
 * drivers/mysql/ includes it.
 */
#ifndef MBM_MYSQL_H
#define MBM_MYSQL_H

#include "mbm.h"

/* The driver's options; NULL/0 means "library default or --defaults-file". */
typedef struct mbm_mysql_config
{
	const char *host;
	int			port;
	const char *socket;
	const char *user;
	const char *db;
	const char *defaults_file;
	const char *engine;			/* prepare's storage engine */
} mbm_mysql_config;

extern mbm_mysql_config mbm_mysql_settings;

/* options, help (mbm_mysql_options.c); tables, prepare, cleanup, maintain (mbm_mysql_prepare.c) */
MBM_DRIVER_OWN_DECLARATIONS(mbm_mysql);

#endif							/* MBM_MYSQL_H */

/*
 * mbm_mysql_options.c — the mysql driver's options: where the server is
 * (--mysql-host, --mysql-port, --mysql-socket, --mysql-user, --mysql-db,
 * --defaults-file) and prepare's storage engine (--mysql-engine), parsed
 * into the settings the driver's connections and commands use, and their
 * section of --help.
 */
#include "mbm.h"
#include "mbm_mysql.h"

#include <string.h>

mbm_mysql_config mbm_mysql_settings = {.db = "sbtest", .engine = "InnoDB"};

/* the one option parse_option checks; the others are texts and a port */
#define OPT_ENGINE 1

const mbm_driver_option mbm_mysql_options[] = {
	{"mysql-host", &mbm_mysql_settings.host, NULL, 0},
	{"mysql-port", NULL, &mbm_mysql_settings.port, 0},
	{"mysql-socket", &mbm_mysql_settings.socket, NULL, 0},
	{"mysql-user", &mbm_mysql_settings.user, NULL, 0},
	{"mysql-db", &mbm_mysql_settings.db, NULL, 0},
	{"defaults-file", &mbm_mysql_settings.defaults_file, NULL, 0},
	{"mysql-engine", NULL, NULL, OPT_ENGINE},
	{NULL, NULL, NULL, 0}
};

/* --mysql-engine: it goes into CREATE TABLE, so a plain name only */
int
mbm_mysql_parse_option(int id, const char *value, char *err, size_t errlen)
{
	if (value[0] == '\0' || strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
									"abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(value))
	{
		snprintf(err, errlen, "--mysql-engine must be an engine name, not \"%.64s\"", value);
		return -1;
	}
	mbm_mysql_settings.engine = value;
	return 0;
}

const char mbm_mysql_help[] =
	"  mysql: the password comes from MYSQL_PWD or --defaults-file\n"
	"  --mysql-host=HOST  --mysql-port=PORT  --mysql-socket=PATH\n"
	"  --mysql-user=USER  --mysql-db=DB [sbtest]  --defaults-file=FILE\n"
	"  --mysql-engine=ENGINE  storage engine for prepare [InnoDB]\n";

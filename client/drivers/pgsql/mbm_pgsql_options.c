/*
 * mbm_pgsql_options.c — the pgsql driver's options: where the server is
 * (--pgsql-host, --pgsql-port, --pgsql-user, and --pgsql-db, a database
 * name or a whole libpq connection string or URI), parsed into the
 * settings its connections use, and their section of --help.
 */
#include "mbm.h"
#include "mbm_pgsql.h"

#include <string.h>

mbm_pgsql_config mbm_pgsql_settings;

/* the one option parse_option checks; the others are texts and a port */
#define OPT_DB 1

const mbm_driver_option mbm_pgsql_options[] = {
	{"pgsql-host", &mbm_pgsql_settings.host, NULL, 0},
	{"pgsql-port", NULL, &mbm_pgsql_settings.port, 0},
	{"pgsql-user", &mbm_pgsql_settings.user, NULL, 0},
	{"pgsql-db", NULL, NULL, OPT_DB},
	{NULL, NULL, NULL, 0}
};

/*
 * --pgsql-db: a database name, or a connection string or URI, which must
 * not hold a password (ps and shell history would show it; the reason
 * never repeats it).
 */
int
mbm_pgsql_parse_option(int id, const char *value, char *err, size_t errlen)
{
	if ((strchr(value, '=') != NULL || strncmp(value, "postgresql://", 13) == 0 ||
		 strncmp(value, "postgres://", 11) == 0) &&
		mbm_conninfo_check("pgsql-db", value, "a database name, ", err, errlen) != 0)
		return -1;
	mbm_pgsql_settings.db = value;
	return 0;
}

const char mbm_pgsql_help[] =
	"  pgsql: the password comes from PGPASSWORD or ~/.pgpass; unset options\n"
	"  take libpq's environment (PGHOST, PGPORT, PGUSER, PGDATABASE)\n"
	"  --pgsql-host=HOST|SOCKETDIR  --pgsql-port=PORT  --pgsql-user=USER\n"
	"  --pgsql-db=DB|CONNINFO|URI [sbtest]\n";

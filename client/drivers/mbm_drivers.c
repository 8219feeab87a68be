/*
 * mbm_drivers.c — the drivers the client has: the one file of the client
 * that names them.  To add a DBMS, write a driver (mbm_driver.h) in a
 * folder of its own here and list it below; the core (command line, run
 * loop, suite, help) finds it, its options and its commands through this
 * list.
 */
#include "mbm.h"

#include <string.h>

extern const mbm_driver mbm_mysql_driver;
extern const mbm_driver mbm_pgsql_driver;

/* mysql first: the default, as sysbench's and as microbench-mysql's name says */
const mbm_driver *const mbm_drivers[] = {
	&mbm_mysql_driver,
	&mbm_pgsql_driver,
	NULL
};

const mbm_driver *
mbm_driver_find(const char *name)
{
	int			i;

	for (i = 0; mbm_drivers[i] != NULL; i++)
		if (strcmp(name, mbm_drivers[i]->name) == 0)
			return mbm_drivers[i];
	return NULL;
}

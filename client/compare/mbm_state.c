/*
 * mbm_state.c — what every step of microbench compare shares: the request
 * as checked, how the comparison goes, the servers up, the results
 * database's connection; its messages and its clock.  The bottom of the
 * runner's steps: it uses none of them, only the records of the server
 * files below it.
 */
#include "mbm.h"
#include "mbm_state.h"

#include <stdarg.h>

mbm_request rq;
mbm_progress progress;
mbm_server run_server;
mbm_server turn_servers[MAX_BUILDS];
mbm_pgserver results_server;
PGconn	   *results;

const mbm_kind_names mbm_kind_name[MBM_KINDS] = {
	[MBM_KIND_PG] = {MBM_COLUMN_PG, "postgres", "postgres", "pg"},
	[MBM_KIND_PG_WIRE] = {MBM_COLUMN_PG_WIRE, "postgres", "postgres-wire", "pg-wire"},
	[MBM_KIND_MARIADB] = {MBM_COLUMN_MY, "mariadb", "mariadb", "ma"},
	[MBM_KIND_MYSQL] = {MBM_COLUMN_MY, "mysql", "mysql", "my"},
};

void
mbm_say(const char *tail, const char *fmt, ...)
{
	va_list		ap;

	fprintf(stderr, "microbench compare: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", tail);
}

/* Seconds since the comparison began. */
double
mbm_elapsed_s(void)
{
	return (mbm_now_ns() - progress.start_ns) / 1e9;
}

/* s as m:ss into buf. */
char *
mbm_clock_text(double s, char *buf)
{
	if (s < 0)
		s = 0;
	sprintf(buf, "%d:%02d", (int) s / 60, (int) s % 60);
	return buf;
}

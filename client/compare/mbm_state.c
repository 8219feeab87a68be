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
mbm_pgserver run_pg_server;
mbm_myserver run_my_server;
mbm_pgserver turn_pg_servers[MAX_BUILDS];
mbm_myserver turn_my_servers[MAX_BUILDS];
mbm_pgserver results_server;
PGconn	   *results;

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

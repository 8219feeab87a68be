/*
 * mbm_driver.c — the few calls every module makes through the options'
 * driver (connect, for a bulk load too, a statement as text, one value),
 * and the program's name for messages.
 */
#include "mbm.h"

#include <stdio.h>
#include <string.h>

const char *mbm_progname = "microbench";

mbm_conn *
mbm_connect(const mbm_options *o, char *err, size_t errlen)
{
	return o->driver->connect(o, 0, err, errlen);
}

mbm_conn *
mbm_connect_timeout(const mbm_options *o, unsigned int timeout_s, char *err, size_t errlen)
{
	return o->driver->connect(o, timeout_s, err, errlen);
}

mbm_conn *
mbm_connect_bulk(const mbm_options *o, char *err, size_t errlen)
{
	if (o->driver->connect_bulk == NULL)
		return o->driver->connect(o, 0, err, errlen);
	return o->driver->connect_bulk(o, err, errlen);
}

int
mbm_query(const mbm_options *o, mbm_conn *conn, const char *sql, char *err, size_t errlen)
{
	return o->driver->query(conn, sql, err, errlen);
}

typedef struct first_value
{
	char	   *out;
	size_t		outlen;
	bool		seen;
} first_value;

static void
take_first(void *arg, int ncols, const char *const *values)
{
	first_value *fv = arg;

	if (fv->seen || ncols < 1)
		return;
	fv->seen = true;
	if (values[0])
		snprintf(fv->out, fv->outlen, "%s", values[0]);
}

int
mbm_query_value(const mbm_options *o, mbm_conn *conn, const char *sql, char *out,
				size_t outlen, char *err, size_t errlen)
{
	first_value fv = {out, outlen, false};

	out[0] = '\0';
	return o->driver->query_rows(conn, sql, take_first, &fv, err, errlen) < 0 ? -1 : 0;
}

/*
 * mbm_parse.c — option values checked alike by the command line
 * (mbm_main.c) and by the drivers' own options: integers in a range, with
 * the one-line message every bad value gets.
 */
#include "mbm.h"

#include <errno.h>
#include <stdlib.h>

int
mbm_parse_int(const char *name, const char *text, long long min, long long max,
			  long long *value, char *err, size_t errlen)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
	{
		snprintf(err, errlen, "--%s must be an integer between %lld and %lld, not \"%.64s\"",
				 name, min, max, text);
		return -1;
	}
	*value = v;
	return 0;
}

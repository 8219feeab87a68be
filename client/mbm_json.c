/*
 * mbm_json.c — the JSON text the client writes: results-file lines
 * (mbm_results.c) and the drivers' data fingerprints, whose counters come
 * from the server as text and go in as numbers only when they are integers.
 */
#include "mbm.h"

#include <string.h>

void
mbm_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
	{
		unsigned char ch = (unsigned char) *s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

bool
mbm_is_integer(const char *s)
{
	if (*s == '-')
		s++;
	return *s != '\0' && strspn(s, "0123456789") == strlen(s);
}

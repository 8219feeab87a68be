/*
 * mbm_rows.c — the rows of one sbtest table as a data stream, "id\tk\tc\tpad\n"
 * in id order: what LOAD DATA LOCAL (mysql driver) and COPY FROM STDIN
 * (pgsql driver) read.  Digits and dashes only, so the line is the same in
 * both formats and nothing needs escaping.
 */
#include "mbm.h"

#include <string.h>

#include "mb_values.h"

static char *
put_uint(char *p, uint32_t v)
{
	char		digits[10];
	int			n = 0;

	do
	{
		digits[n++] = (char) ('0' + v % 10);
		v /= 10;
	} while (v > 0);
	while (n > 0)
		*p++ = digits[--n];
	return p;
}

/*
 * One row "id\tk\tc\tpad\n" into out (MBM_ROW_MAX bytes).  Values are drawn
 * c, pad, then k, the order the extension's loader and the mysql driver's
 * multi-row INSERTs draw them in, so that a seed gives the same data set in
 * every DBMS and whichever way a table is loaded.
 */
static int
make_row(mbm_row_source *src, char *out)
{
	char		text[MB_C_LEN + MB_PAD_LEN];
	uint32_t	k;
	char	   *p = out;

	mb_values_c(src->rng, text);
	mb_values_pad(src->rng, text + MB_C_LEN);
	k = mb_rng_uniform(src->rng, 1, (uint32_t) src->table_size);
	p = put_uint(p, (uint32_t) src->next_id++);
	*p++ = '\t';
	p = put_uint(p, k);
	*p++ = '\t';
	memcpy(p, text, MB_C_LEN);
	p += MB_C_LEN;
	*p++ = '\t';
	memcpy(p, text + MB_C_LEN, MB_PAD_LEN);
	p += MB_PAD_LEN;
	*p++ = '\n';
	return (int) (p - out);
}

/*
 * An mbm_load_read_fn: whole rows straight into buf while they fit, then the
 * head of the next one (its tail starts the next read).  The libraries ask
 * for small pieces (Connector/C: 4 KiB), so rows cross reads all the time.
 */
unsigned int
mbm_row_source_read(void *arg, char *buf, unsigned int len)
{
	mbm_row_source *src = arg;
	unsigned int n = 0;

	/* a short table fails the row count check, and nothing else is sent */
	if (atomic_load(src->stop))
		return 0;
	while (n < len)
	{
		unsigned int part;

		if (src->row_sent == src->row_len)
		{
			if (src->next_id > src->table_size)
				break;
			if (len - n >= MBM_ROW_MAX)
			{
				n += (unsigned int) make_row(src, buf + n);
				continue;
			}
			src->row_len = make_row(src, src->row);
			src->row_sent = 0;
		}
		part = (unsigned int) (src->row_len - src->row_sent);
		if (part > len - n)
			part = len - n;
		memcpy(buf + n, src->row + src->row_sent, part);
		src->row_sent += (int) part;
		n += part;
	}
	return n;
}

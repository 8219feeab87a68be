/*
 * mbm_record.h — a run's record (mbm_record.c): the row its measurement
 * wrote, parsed once, the fields the runner's steps add to it, and the one
 * line it is written as.  JSON is read and written by json-c, never by
 * string search or splicing.  Below the runner's other files but the
 * processes': it knows nothing of a comparison.
 */
#ifndef MBM_RECORD_H
#define MBM_RECORD_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

/* A run's record: a JSON object, its members in the order they came. */
typedef struct mbm_record
{
	struct json_object *doc;
} mbm_record;

/*
 * The record of a measurement's row, from its JSON text: NULL with err set
 * when the text is not one JSON object.
 */
extern mbm_record *mbm_record_parse(const char *text, char *err, size_t errlen);
extern void mbm_record_free(mbm_record *r);

/* A number member (or the first number of an array member), or def when there is none. */
extern double mbm_record_number(const mbm_record *r, const char *key, double def);
/* Each number of an array member into v (at most n): how many. */
extern int	mbm_record_numbers(const mbm_record *r, const char *key, long long *v, int n);

/* A member set (added, or replaced in its place). */
extern void mbm_record_set_int(mbm_record *r, const char *key, long long v);
/* A number written with format (printf's, e.g. "%.4f"), so that its text is what the runner chose. */
extern void mbm_record_set_double(mbm_record *r, const char *key, double v, const char *format);
/* Text, or null when v is NULL. */
extern void mbm_record_set_text(mbm_record *r, const char *key, const char *v);
/* An integer, or null when known is false. */
extern void mbm_record_set_int_or_null(mbm_record *r, const char *key, bool known, long long v);
/* Any JSON value (a struct json_object *, NULL for null); the record owns it from here. */
extern void mbm_record_set_json(mbm_record *r, const char *key, struct json_object *v);
/* Every member of the JSON object tags, copied in. */
extern void mbm_record_add_all(mbm_record *r, const struct json_object *tags);

/* The record as one line of JSON, UTF-8 as it came; malloc'ed, NULL when out of memory. */
extern char *mbm_record_line(const mbm_record *r);

#endif							/* MBM_RECORD_H */

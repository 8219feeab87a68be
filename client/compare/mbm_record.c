/*
 * mbm_record.c — a run's record: the measurement's row parsed once by
 * json-c, the members the runner adds set on it, and one writer for the
 * line that goes to runs.jsonl, the results database and a fleet's
 * central database.  A run's row used to be a string the steps spliced
 * fields into and searched with strstr; a real parser and one writer keep
 * its text valid JSON whatever a note, a label or a function's name holds.
 */
#include "mbm_record.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

mbm_record *
mbm_record_parse(const char *text, char *err, size_t errlen)
{
	enum json_tokener_error error = json_tokener_success;
	json_object *doc = json_tokener_parse_verbose(text, &error);
	mbm_record *r;

	if (doc == NULL || !json_object_is_type(doc, json_type_object))
	{
		snprintf(err, errlen, "a run's row is not a JSON object (%s)",
				 doc == NULL ? json_tokener_error_desc(error) : "another JSON value");
		json_object_put(doc);
		return NULL;
	}
	if ((r = malloc(sizeof(*r))) == NULL)
	{
		json_object_put(doc);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->doc = doc;
	return r;
}

void
mbm_record_free(mbm_record *r)
{
	if (r == NULL)
		return;
	json_object_put(r->doc);
	free(r);
}

double
mbm_record_number(const mbm_record *r, const char *key, double def)
{
	json_object *v;

	if (!json_object_object_get_ex(r->doc, key, &v))
		return def;
	if (json_object_is_type(v, json_type_array))
		v = json_object_array_length(v) > 0 ? json_object_array_get_idx(v, 0) : NULL;
	if (v == NULL || !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return def;
	return json_object_get_double(v);
}

int
mbm_record_numbers(const mbm_record *r, const char *key, long long *v, int n)
{
	json_object *a;
	int			i,
				got = 0;

	if (!json_object_object_get_ex(r->doc, key, &a) || !json_object_is_type(a, json_type_array))
		return 0;
	for (i = 0; i < (int) json_object_array_length(a) && got < n; i++)
		if (json_object_is_type(json_object_array_get_idx(a, i), json_type_int))
			v[got++] = json_object_get_int64(json_object_array_get_idx(a, i));
	return got;
}

void
mbm_record_set_json(mbm_record *r, const char *key, json_object *v)
{
	/* json-c replaces a member in its place and keeps the order of the others */
	json_object_object_add(r->doc, key, v);
}

void
mbm_record_set_int(mbm_record *r, const char *key, long long v)
{
	mbm_record_set_json(r, key, json_object_new_int64(v));
}

void
mbm_record_set_double(mbm_record *r, const char *key, double v, const char *format)
{
	char		text[64];

	snprintf(text, sizeof(text), format, v);
	mbm_record_set_json(r, key, json_object_new_double_s(v, text));
}

void
mbm_record_set_text(mbm_record *r, const char *key, const char *v)
{
	mbm_record_set_json(r, key, v ? json_object_new_string(v) : NULL);
}

void
mbm_record_set_int_or_null(mbm_record *r, const char *key, bool known, long long v)
{
	mbm_record_set_json(r, key, known ? json_object_new_int64(v) : NULL);
}

void
mbm_record_add_all(mbm_record *r, const json_object *tags)
{
	json_object_object_foreach((json_object *) tags, key, v)
	{
		json_object *copy = NULL;

		if (v == NULL || json_object_deep_copy(v, &copy, NULL) == 0)
			mbm_record_set_json(r, key, copy);
	}
}

char *
mbm_record_line(const mbm_record *r)
{
	const char *text = json_object_to_json_string_ext(r->doc, JSON_C_TO_STRING_PLAIN |
													  JSON_C_TO_STRING_NOSLASHESCAPE);

	return text ? strdup(text) : NULL;
}

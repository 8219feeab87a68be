/*
 * mbm_labels.c — the labels of a comparison as its reports and verdicts
 * name them: the base (the first build's), the others, and a list of
 * labels as a bound text[] parameter.
 */
#include "mbm.h"
#include "mbm_labels.h"
#include "mbm_state.h"

#include <stdlib.h>
#include <string.h>

/*
 * Labels as a text[] literal, {"a","b"}, malloc'd: a bound parameter for
 * label = ANY ($1::text[]).  Labels are letters, digits and . _ + -
 * (good_label), so none needs escaping.
 */
char *
mbm_labels_literal(const char *const *labels, int n)
{
	size_t		len = 3;
	char	   *array;
	int			i;

	for (i = 0; i < n; i++)
		len += strlen(labels[i]) + 3;
	if ((array = malloc(len)) == NULL)
		refuse("out of memory");
	strcpy(array, "{");
	for (i = 0; i < n; i++)
	{
		strcat(array, i ? ",\"" : "\"");
		strcat(array, labels[i]);
		strcat(array, "\"");
	}
	strcat(array, "}");
	return array;
}

/* The label every other is compared with: the first build's. */
const char *
mbm_base_label(void)
{
	return rq.all[0].label;
}

/* The other labels, each once, in the order given; how many. */
int
mbm_other_labels(const char **others)
{
	int			n = 0,
				i,
				j;

	for (i = 0; i < rq.nall; i++)
	{
		bool		seen = strcmp(rq.all[i].label, mbm_base_label()) == 0;

		for (j = 0; j < n; j++)
			seen |= strcmp(others[j], rq.all[i].label) == 0;
		if (!seen)
			others[n++] = rq.all[i].label;
	}
	return n;
}

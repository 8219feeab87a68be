/*
 * mbm_labels.h — the labels of a comparison as its reports and verdicts
 * name them (mbm_labels.c): the base label, the others, a list of labels
 * as a bound text[] literal.
 */
#ifndef MBM_LABELS_H
#define MBM_LABELS_H

/* The label every other is compared with: the first build's. */
extern const char *mbm_base_label(void);
/* The other labels, each once, in the order given, into others; how many. */
extern int	mbm_other_labels(const char **others);
/* Labels as a text[] literal, {"a","b"}, malloc'd: a bound parameter. */
extern char *mbm_labels_literal(const char *const *labels, int n);

#endif							/* MBM_LABELS_H */

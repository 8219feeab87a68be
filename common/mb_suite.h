/*
 * mb_suite.h — the standard suite: which microbenchmarks run, in what order.
 *
 * The order (docs/workloads.md) is fixed because the write benchmarks
 * change the table that later reads see: load, warm-up, `pre` reads,
 * writes, post-write maintenance, `post` reads, then delete and insert
 * (they change the row count).  Both drivers' suite commands walk this one
 * list.
 */
#ifndef MB_SUITE_H
#define MB_SUITE_H

typedef enum mb_suite_kind
{
	MB_SUITE_WARMUP = 0,		/* run, not recorded */
	MB_SUITE_RUN,				/* run and record */
	MB_SUITE_MAINTENANCE		/* VACUUM/CHECKPOINT, ANALYZE/flush */
} mb_suite_kind;

/* Which duration a step gets: the report used 630 s reads, 930 s writes. */
typedef enum mb_suite_class
{
	MB_CLASS_READ = 0,
	MB_CLASS_WRITE,
	MB_CLASS_INSERT				/* delete and insert, last */
} mb_suite_class;

typedef struct mb_suite_step
{
	mb_suite_kind kind;
	const char *workload;		/* NULL for maintenance */
	const char *phase;			/* "pre", "post", or NULL */
	mb_suite_class class_;
} mb_suite_step;

extern const mb_suite_step mb_suite_steps[];
extern const int mb_suite_num_steps;

extern const char *mb_suite_kind_name(mb_suite_kind kind);	/* "warmup", "run", "maintenance" */
extern const char *mb_suite_class_name(mb_suite_class c);	/* "read", "write", "insert" */

#endif							/* MB_SUITE_H */

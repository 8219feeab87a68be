/*
 * mb_catalog.h — the one definition of the 32 microbenchmarks.
 *
 * Both drivers (the Postgres extension and the MySQL/MariaDB client) read
 * this catalog and nothing else to know what a workload does: its
 * statements, which values are bound to them, whether an event is one
 * autocommit statement or BEGIN ... COMMIT around several, how queries are
 * counted, and where it appears in the report.  docs/workloads.md is the
 * reference for all of it.
 *
 * Statement templates are DBMS-neutral: "{T}" stands for the table number
 * (sbtest{T}), "?" for one bound value and "{L}" for a list of bound values
 * (an IN list).  mb_catalog_render_sql() turns a template into the text a
 * driver prepares, with "?" or "$n" placeholders.
 *
 * Each bound value has a kind, one character in mb_stmt.params ("L" stands
 * for the whole list, whose elements are of kind mb_stmt.list_kind):
 *   'i'  rand_id(): a key drawn with the run's distribution
 *   'z'  a key drawn zipfian whatever the run's distribution (update-zipf)
 *   '1'  the constant key 1 (update-one's hot row)
 *   'y'  the event's own key, drawn once per event (delete + re-insert)
 *   'h'  hot-points: table_size/2 + 1 + position in the list
 *   'x'  range start x = rand_id(), drawn once per statement
 *   'X'  range end x + R - 1 for the same statement
 *   'c'  a fresh c value, 'p' a fresh pad value
 */
#ifndef MB_CATALOG_H
#define MB_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mb_rand.h"
#include "mb_values.h"

typedef enum mb_group
{
	MB_GROUP_POINT = 0,
	MB_GROUP_RANGE,
	MB_GROUP_RANGE_AGG,
	MB_GROUP_WRITE
} mb_group;

#define MB_NUM_GROUPS 4

/* Statements; the enum order is the order of mb_catalog_stmts[]. */
typedef enum mb_stmt_id
{
	MB_ST_NONE = -1,
	MB_ST_POINT = 0,
	MB_ST_HOT_POINTS,
	MB_ST_POINTS_COVERED_PK,
	MB_ST_POINTS_COVERED_SI,
	MB_ST_POINTS_NOTCOVERED_PK,
	MB_ST_POINTS_NOTCOVERED_SI,
	MB_ST_RANDOM_POINTS,
	MB_ST_RANGE_COVERED_PK,
	MB_ST_RANGE_COVERED_SI,
	MB_ST_RANGE_NOTCOVERED_PK,
	MB_ST_RANGE_NOTCOVERED_SI,
	MB_ST_SCAN,
	MB_ST_RANGE_COUNT,
	MB_ST_RANGE_SIMPLE,
	MB_ST_RANGE_SUM,
	MB_ST_RANGE_ORDER,
	MB_ST_RANGE_DISTINCT,
	MB_ST_DELETE,
	MB_ST_DELETE_EVENT_ID,
	MB_ST_INSERT,
	MB_ST_INSERT_EVENT_ID,
	MB_ST_UPDATE_INDEX,
	MB_ST_UPDATE_NONINDEX,
	MB_ST_UPDATE_INLIST,
	MB_ST_UPDATE_ONE,
	MB_ST_UPDATE_ZIPF,
	MB_NUM_STMTS
} mb_stmt_id;

/* How long a statement's IN list is. */
#define MB_LIST_NONE	0		/* no list */
#define MB_LIST_RANGE	(-1)	/* the run's range size R */

typedef struct mb_stmt
{
	mb_stmt_id	id;
	const char *key;			/* short unique name, e.g. for plan caches */
	const char *sql;			/* neutral template, see above */
	const char *params;			/* kinds of the bound values, in order */
	char		list_kind;		/* kind of each {L} element */
	int			list_len;		/* fixed length, MB_LIST_RANGE or MB_LIST_NONE */
	bool		writes;			/* modifies the table */
} mb_stmt;

/* One step of an event: a statement run 'repeat' times in a row. */
typedef struct mb_step
{
	mb_stmt_id	stmt;
	int			repeat;
} mb_step;

#define MB_MAX_STEPS 10

typedef struct mb_workload
{
	const char *name;			/* as in the report, e.g. "read-only_range=10" */
	mb_group	group;
	int			report_order;	/* 1..32, the report's line order */
	bool		in_transaction; /* BEGIN ... COMMIT around the steps */
	int			default_range;	/* R: range size or IN-list length; 0 if unused */
	bool		table_per_client;	/* scan: client i uses table (i mod N) + 1 */
	bool		writes;			/* some statement modifies the table */
	mb_step		steps[MB_MAX_STEPS];	/* terminated by stmt MB_ST_NONE */
	const char *description;
} mb_workload;

extern const mb_stmt mb_catalog_stmts[MB_NUM_STMTS];
extern const mb_workload mb_catalog_workloads[];
extern const int mb_catalog_num_workloads;

extern const char *mb_catalog_group_name(mb_group group);	/* "point queries" ... */

/* Look a workload up by name; NULL if there is none. */
extern const mb_workload *mb_catalog_find(const char *name);

/* Statements per event (BEGIN and COMMIT not included). */
extern int	mb_catalog_statements_per_event(const mb_workload *w);

/* Queries counted per event: statements plus BEGIN and COMMIT if any. */
extern int	mb_catalog_queries_per_event(const mb_workload *w);

/* Does the workload use statement s (so a driver needs to prepare it)? */
extern bool mb_catalog_uses_stmt(const mb_workload *w, mb_stmt_id s);

/* The range size R a run uses: the override if positive, else the default. */
extern int	mb_catalog_effective_range(const mb_workload *w, int range_override);

/* Length of statement s's IN list for range size R (0 when it has none). */
extern int	mb_catalog_list_len(const mb_stmt *s, int range);

/* Number of values bound to statement s for range size R. */
extern int	mb_catalog_param_count(const mb_stmt *s, int range);
/*
 * The type of each bound value of s, in the order they bind, an IN list as
 * long as range needs: text (a c or pad value) or an integer key.
 * is_text has room for mb_catalog_param_count(s, range) entries.  Every
 * driver that types its parameters (the extension's SPI plans, the pgsql
 * client's prepared statements) types them so, and the server plans the
 * same statement either way.
 */
extern void mb_catalog_param_kinds(const mb_stmt *s, int range, bool *is_text);

typedef enum mb_placeholder_style
{
	MB_PLACEHOLDER_QMARK,		/* MySQL: ? */
	MB_PLACEHOLDER_DOLLAR		/* Postgres: $1, $2, ... */
} mb_placeholder_style;

/*
 * Render statement s for table number 'table' and range size R into buf.
 * Returns the length written, or -1 if buf is too small.
 */
extern int	mb_catalog_render_sql(const mb_stmt *s, int table, int range,
								  mb_placeholder_style style,
								  char *buf, size_t buflen);

/*
 * Writes text as a quoted literal of the DBMS into out (at most outlen bytes
 * including the NUL) and returns its length, or -1 when it does not fit.
 */
typedef int (*mb_quote_fn) (const char *text, int len, char *out, size_t outlen,
							void *arg);

/* Everything needed to draw the values bound to a workload's statements. */
typedef struct mb_bind_ctx
{
	uint32_t	table_size;
	int			range;			/* R */
	mb_rand_dist id_dist;		/* rand_id(): the run's distribution */
	mb_rand_dist zipf_dist;		/* for 'z' values */
	mb_rng	   *rng;
	uint32_t	event_id;		/* 'y', set by mb_catalog_begin_event */
} mb_bind_ctx;

/* One bound value: an integer, or text pointing into the caller's buffers. */
typedef struct mb_bind_value
{
	bool		is_text;
	int32_t		int_value;
	const char *text;
	int			text_len;
} mb_bind_value;

/* Buffers for the text values of one statement (at most one c and one pad). */
typedef struct mb_text_buffers
{
	char		c[MB_C_LEN + 1];
	char		pad[MB_PAD_LEN + 1];
} mb_text_buffers;

extern void mb_bind_ctx_init(mb_bind_ctx *ctx, mb_rng *rng, uint32_t table_size,
							 int range, mb_rand_type rand_type);

/* Draw the per-event values ('y') before running an event's statements. */
extern void mb_catalog_begin_event(mb_bind_ctx *ctx);

/*
 * Draw the values for one execution of statement s into out[] (room for
 * mb_catalog_param_count() entries); text values point into bufs.
 * Returns the number of values.
 */
extern int	mb_catalog_bind(const mb_stmt *s, mb_bind_ctx *ctx,
							mb_text_buffers *bufs, mb_bind_value *out);

/*
 * Render statement s with the values drawn for it (mb_catalog_bind) written
 * in place of the parameters, for unprepared execution (ps_mode disable):
 * integers in decimal, text through quote.  Same return as render_sql.
 */
extern int	mb_catalog_render_literal(const mb_stmt *s, int table, int range,
									  const mb_bind_value *values, mb_quote_fn quote,
									  void *quote_arg, char *buf, size_t buflen);

/* The table an event uses: 1..tables, per the catalog's rule. */
extern int	mb_catalog_pick_table(const mb_workload *w, mb_bind_ctx *ctx,
								  int tables, int client_index);

#endif							/* MB_CATALOG_H */

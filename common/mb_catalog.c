/*
 * mb_catalog.c — the statements and the 32 workloads, and the few rules
 * (range size, value drawing, table choice, SQL rendering) that both drivers
 * must apply identically.  docs/workloads.md describes the tables below;
 * the two must agree.
 */
#include "mb_catalog.h"

#include <stdio.h>
#include <string.h>

#define STMT(id_, key_, sql_, params_, lkind_, llen_, writes_) \
	{ id_, key_, sql_, params_, lkind_, llen_, writes_ }

const mb_stmt mb_catalog_stmts[MB_NUM_STMTS] = {
	STMT(MB_ST_POINT, "point",
		 "SELECT c FROM sbtest{T} WHERE id = ?", "i", 0, MB_LIST_NONE, false),
	STMT(MB_ST_HOT_POINTS, "hot_points",
		 "SELECT c FROM sbtest{T} WHERE id IN ({L})", "L", 'h', 100, false),
	STMT(MB_ST_POINTS_COVERED_PK, "points_covered_pk",
		 "SELECT id FROM sbtest{T} WHERE id IN ({L})", "L", 'i', 100, false),
	STMT(MB_ST_POINTS_COVERED_SI, "points_covered_si",
		 "SELECT k FROM sbtest{T} WHERE k IN ({L})", "L", 'i', 100, false),
	STMT(MB_ST_POINTS_NOTCOVERED_PK, "points_notcovered_pk",
		 "SELECT id, c FROM sbtest{T} WHERE id IN ({L})", "L", 'i', 100, false),
	STMT(MB_ST_POINTS_NOTCOVERED_SI, "points_notcovered_si",
		 "SELECT k, c FROM sbtest{T} WHERE k IN ({L})", "L", 'i', 100, false),
	STMT(MB_ST_RANDOM_POINTS, "random_points",
		 "SELECT c FROM sbtest{T} WHERE id IN ({L})", "L", 'i', MB_LIST_RANGE, false),
	STMT(MB_ST_RANGE_COVERED_PK, "range_covered_pk",
		 "SELECT id FROM sbtest{T} WHERE id BETWEEN ? AND ?", "xX", 0, MB_LIST_NONE, false),
	STMT(MB_ST_RANGE_COVERED_SI, "range_covered_si",
		 "SELECT k FROM sbtest{T} WHERE k BETWEEN ? AND ?", "xX", 0, MB_LIST_NONE, false),
	STMT(MB_ST_RANGE_NOTCOVERED_PK, "range_notcovered_pk",
		 "SELECT id, c FROM sbtest{T} WHERE id BETWEEN ? AND ?", "xX", 0, MB_LIST_NONE, false),
	STMT(MB_ST_RANGE_NOTCOVERED_SI, "range_notcovered_si",
		 "SELECT k, c FROM sbtest{T} WHERE k BETWEEN ? AND ?", "xX", 0, MB_LIST_NONE, false),
	STMT(MB_ST_SCAN, "scan",
		 "SELECT * FROM sbtest{T} WHERE LENGTH(c) < 0", "", 0, MB_LIST_NONE, false),
	STMT(MB_ST_RANGE_COUNT, "range_count",
		 "SELECT count(c) FROM sbtest{T} WHERE id BETWEEN ? AND ?", "xX", 0, MB_LIST_NONE, false),
	STMT(MB_ST_RANGE_SIMPLE, "range_simple",
		 "SELECT c FROM sbtest{T} WHERE id BETWEEN ? AND ?", "xX", 0, MB_LIST_NONE, false),
	STMT(MB_ST_RANGE_SUM, "range_sum",
		 "SELECT SUM(k) FROM sbtest{T} WHERE id BETWEEN ? AND ?", "xX", 0, MB_LIST_NONE, false),
	STMT(MB_ST_RANGE_ORDER, "range_order",
		 "SELECT c FROM sbtest{T} WHERE id BETWEEN ? AND ? ORDER BY c", "xX", 0, MB_LIST_NONE, false),
	STMT(MB_ST_RANGE_DISTINCT, "range_distinct",
		 "SELECT DISTINCT c FROM sbtest{T} WHERE id BETWEEN ? AND ? ORDER BY c", "xX", 0, MB_LIST_NONE, false),
	STMT(MB_ST_DELETE, "delete",
		 "DELETE FROM sbtest{T} WHERE id = ?", "i", 0, MB_LIST_NONE, true),
	STMT(MB_ST_DELETE_EVENT_ID, "delete_event_id",
		 "DELETE FROM sbtest{T} WHERE id = ?", "y", 0, MB_LIST_NONE, true),
	STMT(MB_ST_INSERT, "insert",
		 "INSERT INTO sbtest{T} (k, c, pad) VALUES (?, ?, ?)", "icp", 0, MB_LIST_NONE, true),
	STMT(MB_ST_INSERT_EVENT_ID, "insert_event_id",
		 "INSERT INTO sbtest{T} (id, k, c, pad) VALUES (?, ?, ?, ?)", "yicp", 0, MB_LIST_NONE, true),
	STMT(MB_ST_UPDATE_INDEX, "update_index",
		 "UPDATE sbtest{T} SET k = k + 1 WHERE id = ?", "i", 0, MB_LIST_NONE, true),
	STMT(MB_ST_UPDATE_NONINDEX, "update_nonindex",
		 "UPDATE sbtest{T} SET c = ? WHERE id = ?", "ci", 0, MB_LIST_NONE, true),
	STMT(MB_ST_UPDATE_INLIST, "update_inlist",
		 "UPDATE sbtest{T} SET c = ? WHERE id IN ({L})", "cL", 'i', 100, true),
	STMT(MB_ST_UPDATE_ONE, "update_one",
		 "UPDATE sbtest{T} SET c = ? WHERE id = ?", "c1", 0, MB_LIST_NONE, true),
	STMT(MB_ST_UPDATE_ZIPF, "update_zipf",
		 "UPDATE sbtest{T} SET c = ? WHERE id = ?", "cz", 0, MB_LIST_NONE, true),
};

/* Shorthands for the steps that several workloads share. */
#define END				{MB_ST_NONE, 0}
#define TEN_POINTS		{MB_ST_POINT, 10}
#define ONE(s)			{s, 1}
#define FOUR_RANGES		ONE(MB_ST_RANGE_SIMPLE), ONE(MB_ST_RANGE_SUM), \
						ONE(MB_ST_RANGE_ORDER), ONE(MB_ST_RANGE_DISTINCT)
#define WRITE_STEPS		ONE(MB_ST_UPDATE_INDEX), ONE(MB_ST_UPDATE_NONINDEX), \
						ONE(MB_ST_DELETE_EVENT_ID), ONE(MB_ST_INSERT_EVENT_ID)

#define AUTOCOMMIT	false
#define TXN			true

const mb_workload mb_catalog_workloads[] = {
	/* point queries */
	{"hot-points", MB_GROUP_POINT, 1, AUTOCOMMIT, 0, false, false,
	 {ONE(MB_ST_HOT_POINTS), END},
	 "100 fixed ids from table_size/2+1 in one IN list"},
	{"point-query", MB_GROUP_POINT, 2, AUTOCOMMIT, 0, false, false,
	 {ONE(MB_ST_POINT), END},
	 "one row by primary key"},
	{"points-covered-pk", MB_GROUP_POINT, 3, AUTOCOMMIT, 0, false, false,
	 {ONE(MB_ST_POINTS_COVERED_PK), END},
	 "100 random ids by primary key, index only"},
	{"points-covered-si", MB_GROUP_POINT, 4, AUTOCOMMIT, 0, false, false,
	 {ONE(MB_ST_POINTS_COVERED_SI), END},
	 "100 random k values by secondary index, index only"},
	{"points-notcovered-pk", MB_GROUP_POINT, 5, AUTOCOMMIT, 0, false, false,
	 {ONE(MB_ST_POINTS_NOTCOVERED_PK), END},
	 "100 random ids by primary key, reading c from the row"},
	{"points-notcovered-si", MB_GROUP_POINT, 6, AUTOCOMMIT, 0, false, false,
	 {ONE(MB_ST_POINTS_NOTCOVERED_SI), END},
	 "100 random k values by secondary index, reading c from the row"},
	{"random-points_range=1000", MB_GROUP_POINT, 7, AUTOCOMMIT, 1000, false, false,
	 {ONE(MB_ST_RANDOM_POINTS), END},
	 "R random ids (R=1000) in one IN list"},
	{"random-points_range=100", MB_GROUP_POINT, 8, AUTOCOMMIT, 100, false, false,
	 {ONE(MB_ST_RANDOM_POINTS), END},
	 "R random ids (R=100) in one IN list"},
	{"random-points_range=10", MB_GROUP_POINT, 9, AUTOCOMMIT, 10, false, false,
	 {ONE(MB_ST_RANDOM_POINTS), END},
	 "R random ids (R=10) in one IN list"},

	/* range queries without aggregation: 101 values from x */
	{"range-covered-pk", MB_GROUP_RANGE, 10, AUTOCOMMIT, 101, false, false,
	 {ONE(MB_ST_RANGE_COVERED_PK), END},
	 "id range of 101 values, index only"},
	{"range-covered-si", MB_GROUP_RANGE, 11, AUTOCOMMIT, 101, false, false,
	 {ONE(MB_ST_RANGE_COVERED_SI), END},
	 "k range of 101 values, index only"},
	{"range-notcovered-pk", MB_GROUP_RANGE, 12, AUTOCOMMIT, 101, false, false,
	 {ONE(MB_ST_RANGE_NOTCOVERED_PK), END},
	 "id range of 101 values, reading c from the rows"},
	{"range-notcovered-si", MB_GROUP_RANGE, 13, AUTOCOMMIT, 101, false, false,
	 {ONE(MB_ST_RANGE_NOTCOVERED_SI), END},
	 "k range of 101 values, reading c from the rows"},
	{"scan", MB_GROUP_RANGE, 14, AUTOCOMMIT, 0, true, false,
	 {ONE(MB_ST_SCAN), END},
	 "full table scan returning no rows"},

	/* range queries with aggregation */
	{"read-only-count", MB_GROUP_RANGE_AGG, 15, AUTOCOMMIT, 1000, false, false,
	 {ONE(MB_ST_RANGE_COUNT), END},
	 "count(c) over an id range (R=1000)"},
	{"read-only-distinct", MB_GROUP_RANGE_AGG, 16, TXN, 1000, false, false,
	 {TEN_POINTS, ONE(MB_ST_RANGE_DISTINCT), END},
	 "transaction: 10 points, SELECT DISTINCT c over a range (R=1000)"},
	{"read-only-order", MB_GROUP_RANGE_AGG, 17, TXN, 1000, false, false,
	 {TEN_POINTS, ONE(MB_ST_RANGE_ORDER), END},
	 "transaction: 10 points, SELECT c ... ORDER BY c over a range (R=1000)"},
	{"read-only_range=10000", MB_GROUP_RANGE_AGG, 18, TXN, 10000, false, false,
	 {TEN_POINTS, FOUR_RANGES, END},
	 "oltp_read_only transaction, R=10000"},
	{"read-only_range=100", MB_GROUP_RANGE_AGG, 19, TXN, 100, false, false,
	 {TEN_POINTS, FOUR_RANGES, END},
	 "oltp_read_only transaction, R=100"},
	{"read-only_range=10", MB_GROUP_RANGE_AGG, 20, TXN, 10, false, false,
	 {TEN_POINTS, FOUR_RANGES, END},
	 "oltp_read_only transaction, R=10"},
	{"read-only-simple", MB_GROUP_RANGE_AGG, 21, TXN, 1000, false, false,
	 {TEN_POINTS, ONE(MB_ST_RANGE_SIMPLE), END},
	 "transaction: 10 points, SELECT c over a range (R=1000)"},
	{"read-only-sum", MB_GROUP_RANGE_AGG, 22, TXN, 1000, false, false,
	 {TEN_POINTS, ONE(MB_ST_RANGE_SUM), END},
	 "transaction: 10 points, SELECT SUM(k) over a range (R=1000)"},

	/* writes */
	{"delete", MB_GROUP_WRITE, 23, AUTOCOMMIT, 0, false, true,
	 {ONE(MB_ST_DELETE), END},
	 "delete one row by primary key"},
	{"insert", MB_GROUP_WRITE, 24, AUTOCOMMIT, 0, false, true,
	 {ONE(MB_ST_INSERT), END},
	 "insert one row, id generated by the server"},
	{"read-write_range=100", MB_GROUP_WRITE, 25, TXN, 100, false, true,
	 {TEN_POINTS, FOUR_RANGES, WRITE_STEPS, END},
	 "oltp_read_write transaction, R=100"},
	{"read-write_range=10", MB_GROUP_WRITE, 26, TXN, 10, false, true,
	 {TEN_POINTS, FOUR_RANGES, WRITE_STEPS, END},
	 "oltp_read_write transaction, R=10"},
	{"update-index", MB_GROUP_WRITE, 27, AUTOCOMMIT, 0, false, true,
	 {ONE(MB_ST_UPDATE_INDEX), END},
	 "k = k + 1 for one row (secondary index maintained)"},
	{"update-inlist", MB_GROUP_WRITE, 28, AUTOCOMMIT, 0, false, true,
	 {ONE(MB_ST_UPDATE_INLIST), END},
	 "new c for 100 random ids in one statement"},
	{"update-nonindex", MB_GROUP_WRITE, 29, AUTOCOMMIT, 0, false, true,
	 {ONE(MB_ST_UPDATE_NONINDEX), END},
	 "new c for one random row"},
	{"update-one", MB_GROUP_WRITE, 30, AUTOCOMMIT, 0, false, true,
	 {ONE(MB_ST_UPDATE_ONE), END},
	 "new c for the one hot row id = 1"},
	{"update-zipf", MB_GROUP_WRITE, 31, AUTOCOMMIT, 0, false, true,
	 {ONE(MB_ST_UPDATE_ZIPF), END},
	 "new c for one row drawn zipfian"},
	{"write-only", MB_GROUP_WRITE, 32, TXN, 0, false, true,
	 {WRITE_STEPS, END},
	 "oltp_write_only transaction"},
};

const int	mb_catalog_num_workloads =
sizeof(mb_catalog_workloads) / sizeof(mb_catalog_workloads[0]);

static const char *const group_names[MB_NUM_GROUPS] = {
	"point queries",
	"range queries without aggregation",
	"range queries with aggregation",
	"writes",
};

const char *
mb_catalog_group_name(mb_group group)
{
	if ((int) group < 0 || group >= MB_NUM_GROUPS)
		return NULL;
	return group_names[group];
}

const mb_workload *
mb_catalog_find(const char *name)
{
	int			i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < mb_catalog_num_workloads; i++)
		if (strcmp(mb_catalog_workloads[i].name, name) == 0)
			return &mb_catalog_workloads[i];
	return NULL;
}

int
mb_catalog_statements_per_event(const mb_workload *w)
{
	int			n = 0;
	int			i;

	for (i = 0; i < MB_MAX_STEPS && w->steps[i].stmt != MB_ST_NONE; i++)
		n += w->steps[i].repeat;
	return n;
}

int
mb_catalog_queries_per_event(const mb_workload *w)
{
	return mb_catalog_statements_per_event(w) + (w->in_transaction ? 2 : 0);
}

bool
mb_catalog_uses_stmt(const mb_workload *w, mb_stmt_id s)
{
	int			i;

	for (i = 0; i < MB_MAX_STEPS && w->steps[i].stmt != MB_ST_NONE; i++)
		if (w->steps[i].stmt == s)
			return true;
	return false;
}

int
mb_catalog_effective_range(const mb_workload *w, int range_override)
{
	if (w->default_range == 0)
		return 0;
	return range_override > 0 ? range_override : w->default_range;
}

int
mb_catalog_list_len(const mb_stmt *s, int range)
{
	if (s->list_len == MB_LIST_RANGE)
		return range;
	return s->list_len;
}

int
mb_catalog_param_count(const mb_stmt *s, int range)
{
	int			n = 0;
	const char *p;

	for (p = s->params; *p; p++)
		n += (*p == 'L') ? mb_catalog_list_len(s, range) : 1;
	return n;
}

void
mb_catalog_param_kinds(const mb_stmt *s, int range, bool *is_text)
{
	const char *p;
	int			i = 0;

	for (p = s->params; *p; p++)
	{
		char		kind = (*p == 'L') ? s->list_kind : *p;
		int			count = (*p == 'L') ? mb_catalog_list_len(s, range) : 1;
		int			j;

		for (j = 0; j < count; j++)
			is_text[i++] = kind == 'c' || kind == 'p';
	}
}

/*
 * How a statement's parameters are written: as placeholders of a style, or
 * as the values themselves (literal text, for unprepared execution).
 */
typedef struct mb_param_writer
{
	mb_placeholder_style style;
	const mb_bind_value *values;	/* NULL: placeholders */
	mb_quote_fn quote;
	void	   *quote_arg;
} mb_param_writer;

/* Append parameter 'number' (1-based); returns false when buf is full. */
static bool
append_param(char *buf, size_t buflen, size_t *len,
			 const mb_param_writer *w, int number)
{
	int			n;

	if (w->values != NULL)
	{
		const mb_bind_value *v = &w->values[number - 1];

		if (!v->is_text)
			n = snprintf(buf + *len, buflen - *len, "%d", (int) v->int_value);
		else
			n = w->quote(v->text, v->text_len, buf + *len, buflen - *len, w->quote_arg);
	}
	else if (w->style == MB_PLACEHOLDER_QMARK)
		n = snprintf(buf + *len, buflen - *len, "?");
	else
		n = snprintf(buf + *len, buflen - *len, "$%d", number);
	if (n < 0 || (size_t) n >= buflen - *len)
		return false;
	*len += n;
	return true;
}

/* The statement's text for one table and range, parameters as w writes them. */
static int
render(const mb_stmt *s, int table, int range, const mb_param_writer *w,
	   char *buf, size_t buflen)
{
	size_t		len = 0;
	int			next_param = 1;
	const char *t;

	if (buflen == 0)
		return -1;
	for (t = s->sql; *t; t++)
	{
		if (strncmp(t, "{T}", 3) == 0)
		{
			int			n = snprintf(buf + len, buflen - len, "%d", table);

			if (n < 0 || (size_t) n >= buflen - len)
				return -1;
			len += n;
			t += 2;
		}
		else if (strncmp(t, "{L}", 3) == 0)
		{
			int			count = mb_catalog_list_len(s, range);
			int			i;

			for (i = 0; i < count; i++)
			{
				if (i > 0)
				{
					if (len + 2 >= buflen)
						return -1;
					buf[len++] = ',';
					buf[len++] = ' ';
				}
				if (!append_param(buf, buflen, &len, w, next_param++))
					return -1;
			}
			t += 2;
		}
		else if (*t == '?')
		{
			if (!append_param(buf, buflen, &len, w, next_param++))
				return -1;
		}
		else
		{
			if (len + 1 >= buflen)
				return -1;
			buf[len++] = *t;
		}
	}
	buf[len] = '\0';
	return (int) len;
}

int
mb_catalog_render_sql(const mb_stmt *s, int table, int range,
					  mb_placeholder_style style, char *buf, size_t buflen)
{
	mb_param_writer w = {style, NULL, NULL, NULL};

	return render(s, table, range, &w, buf, buflen);
}

int
mb_catalog_render_literal(const mb_stmt *s, int table, int range,
						  const mb_bind_value *values, mb_quote_fn quote,
						  void *quote_arg, char *buf, size_t buflen)
{
	mb_param_writer w = {MB_PLACEHOLDER_QMARK, values, quote, quote_arg};

	return render(s, table, range, &w, buf, buflen);
}

void
mb_bind_ctx_init(mb_bind_ctx *ctx, mb_rng *rng, uint32_t table_size,
				 int range, mb_rand_type rand_type)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->rng = rng;
	ctx->table_size = table_size;
	ctx->range = range;
	mb_rand_dist_init(&ctx->id_dist, rand_type, 1, table_size);
	mb_rand_dist_init(&ctx->zipf_dist, MB_RAND_ZIPFIAN, 1, table_size);
}

void
mb_catalog_begin_event(mb_bind_ctx *ctx)
{
	ctx->event_id = mb_rand_dist_draw(&ctx->id_dist, ctx->rng);
}

static mb_bind_value
int_value(int32_t v)
{
	mb_bind_value b;

	b.is_text = false;
	b.int_value = v;
	b.text = NULL;
	b.text_len = 0;
	return b;
}

static mb_bind_value
text_value(const char *text, int len)
{
	mb_bind_value b;

	b.is_text = true;
	b.int_value = 0;
	b.text = text;
	b.text_len = len;
	return b;
}

/*
 * One value of kind 'kind'.  'position' is the index within an IN list
 * (hot-points counts from it); range_start carries x from 'x' to 'X'.
 */
static mb_bind_value
draw_value(char kind, mb_bind_ctx *ctx, mb_text_buffers *bufs, int position,
		   int32_t *range_start)
{
	switch (kind)
	{
		case 'i':
			return int_value((int32_t) mb_rand_dist_draw(&ctx->id_dist, ctx->rng));
		case 'z':
			return int_value((int32_t) mb_rand_dist_draw(&ctx->zipf_dist, ctx->rng));
		case '1':
			return int_value(1);
		case 'y':
			return int_value((int32_t) ctx->event_id);
		case 'h':
			return int_value((int32_t) (ctx->table_size / 2 + 1 + position));
		case 'x':
			*range_start = (int32_t) mb_rand_dist_draw(&ctx->id_dist, ctx->rng);
			return int_value(*range_start);
		case 'X':
			return int_value(*range_start + ctx->range - 1);
		case 'c':
			mb_values_c(ctx->rng, bufs->c);
			bufs->c[MB_C_LEN] = '\0';
			return text_value(bufs->c, MB_C_LEN);
		case 'p':
			mb_values_pad(ctx->rng, bufs->pad);
			bufs->pad[MB_PAD_LEN] = '\0';
			return text_value(bufs->pad, MB_PAD_LEN);
	}
	return int_value(0);		/* unreachable for catalog statements */
}

int
mb_catalog_bind(const mb_stmt *s, mb_bind_ctx *ctx, mb_text_buffers *bufs,
				mb_bind_value *out)
{
	int			n = 0;
	int32_t		range_start = 0;
	const char *p;

	for (p = s->params; *p; p++)
	{
		if (*p == 'L')
		{
			int			count = mb_catalog_list_len(s, ctx->range);
			int			i;

			for (i = 0; i < count; i++)
				out[n++] = draw_value(s->list_kind, ctx, bufs, i, &range_start);
		}
		else
			out[n++] = draw_value(*p, ctx, bufs, 0, &range_start);
	}
	return n;
}

int
mb_catalog_pick_table(const mb_workload *w, mb_bind_ctx *ctx, int tables,
					  int client_index)
{
	if (tables <= 1)
		return 1;
	if (w->table_per_client)
		return (client_index % tables) + 1;
	return (int) mb_rng_uniform(ctx->rng, 1, (uint32_t) tables);
}

/*
 * mb_workloads.c — bench_workloads(): the common catalog as a table.
 *
 * Users and the report functions read workload names, groups, report order
 * and queries per event from here, so SQL never keeps its own copy of the
 * catalog.  The statements column shows the Postgres text of each distinct
 * statement, as the workers prepare it for table 1.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"

#include "mb_catalog.h"
#include "mb_shared.h"

PG_FUNCTION_INFO_V1(bench_workloads);

/* The distinct statements of a workload, rendered for table 1, one per line. */
static char *
workload_statements(const mb_workload *w)
{
	StringInfoData buf;
	int			range = mb_catalog_effective_range(w, 0);
	int			i;

	initStringInfo(&buf);
	for (i = 0; i < MB_MAX_STEPS && w->steps[i].stmt != MB_ST_NONE; i++)
	{
		const mb_stmt *s = &mb_catalog_stmts[w->steps[i].stmt];
		size_t		len = 256 + (size_t) mb_catalog_param_count(s, range) * 8;
		char	   *sql = palloc(len);

		if (mb_catalog_render_sql(s, 1, range, MB_PLACEHOLDER_DOLLAR, sql, len) < 0)
			elog(ERROR, "statement \"%s\" does not fit its buffer", s->key);
		if (buf.len > 0)
			appendStringInfoChar(&buf, '\n');
		if (w->steps[i].repeat > 1)
			appendStringInfo(&buf, "%d x ", w->steps[i].repeat);
		appendStringInfoString(&buf, sql);
	}
	return buf.data;
}

Datum
bench_workloads(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext oldcxt;
		TupleDesc	tupdesc;

		mb_check_sql_version();
		funcctx = SRF_FIRSTCALL_INIT();
		oldcxt = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "bench_workloads must return a row type");
		funcctx->tuple_desc = BlessTupleDesc(tupdesc);
		funcctx->max_calls = mb_catalog_num_workloads;
		MemoryContextSwitchTo(oldcxt);
	}
	funcctx = SRF_PERCALL_SETUP();

	if (funcctx->call_cntr < funcctx->max_calls)
	{
		const mb_workload *w = &mb_catalog_workloads[funcctx->call_cntr];
		Datum		values[8];
		bool		nulls[8] = {false};
		int			range = mb_catalog_effective_range(w, 0);

		values[0] = CStringGetTextDatum(w->name);
		values[1] = CStringGetTextDatum(mb_catalog_group_name(w->group));
		values[2] = Int32GetDatum(w->report_order);
		values[3] = Int32GetDatum(mb_catalog_queries_per_event(w));
		values[4] = CStringGetTextDatum(w->description);
		values[5] = BoolGetDatum(w->in_transaction);
		values[6] = Int32GetDatum(range);
		nulls[6] = (range == 0);
		values[7] = CStringGetTextDatum(workload_statements(w));
		SRF_RETURN_NEXT(funcctx,
						HeapTupleGetDatum(heap_form_tuple(funcctx->tuple_desc,
														  values, nulls)));
	}
	SRF_RETURN_DONE(funcctx);
}

/*
 * mb_data_state.h — the fingerprint of the data a Postgres run reads.
 *
 * Every run records it (runs.data_state, results_schema/17_verdicts.sql) so
 * that the reports can say when two labels read data in a different state.
 * The extension (mb_run.c) and the client's pgsql driver (client/drivers/pgsql/mbm_pgsql.c) take
 * it with this one select list, over pg_class rows c of the run's sbtest
 * tables, each adding its own FROM: runs inside the server and over the wire
 * of the same data then compare key by key.  Heap and index bytes, live and
 * dead rows (from the statistics system, so they may lag by its flush
 * interval), the all-visible fraction; one jsonb value as text.
 */
#ifndef MB_DATA_STATE_H
#define MB_DATA_STATE_H

#define MB_PG_DATA_STATE_SELECT \
	"SELECT jsonb_build_object(" \
	"'table_bytes', sum(pg_table_size(c.oid))," \
	" 'index_bytes', sum(pg_indexes_size(c.oid))," \
	" 'live_rows', sum(pg_stat_get_live_tuples(c.oid))," \
	" 'dead_rows', sum(pg_stat_get_dead_tuples(c.oid))," \
	" 'all_visible', round(sum(c.relallvisible)::numeric" \
	" / nullif(sum(c.relpages), 0), 4))::text"

#endif							/* MB_DATA_STATE_H */

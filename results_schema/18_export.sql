-- 18_export.sql — runs out of one database and into another.
--
-- Every run recorded in a server (the extension writes its runs where it
-- ran) can travel as one JSON line with the column names of
-- microbench.runs: the format microbench-mysql writes when it has no
-- results database.  microbench.import_runs() (10_runs.sql) loads such
-- lines anywhere, so each build host can export and one central Postgres
-- can hold every run:
--   psql -At -c "SELECT microbench.export_runs(labels => ARRAY['gcc'])" > gcc.jsonl
--   microbench-mysql load gcc.jsonl --results-db='dbname=central'
-- (runs already in central skipped by their run_uid: docs/client.md; the
-- \copy recipe in 10_runs.sql does it with psql alone).
-- The ids of this database are left out (the importing one numbers runs,
-- hosts and campaigns itself), and a run's host, facts and campaign go as
-- a fleet's tags (run_tags(), 12_fleet.sql).

CREATE OR REPLACE FUNCTION microbench.export_runs(labels text[] DEFAULT NULL,
                                                  since timestamptz DEFAULT NULL,
                                                  run_ids bigint[] DEFAULT NULL)
RETURNS SETOF text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT (to_jsonb(r) - 'run_id' - 'host_facts_id' - 'campaign_id'
            || microbench.run_tags(r.host_facts_id, r.campaign_id))::text
    FROM microbench.runs r
    WHERE (labels IS NULL OR r.label = ANY (labels))
      AND (since IS NULL OR r.started_at >= since)
      AND (run_ids IS NULL OR r.run_id = ANY (run_ids))
    ORDER BY r.run_id
$$;

COMMENT ON FUNCTION microbench.export_runs(text[], timestamptz, bigint[]) IS
    'runs as JSON lines (the columns of microbench.runs without its ids, and the host and campaign as tags), the format microbench load and import_runs() load';

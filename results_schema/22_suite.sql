-- 22_suite.sql — the standard suite's steps, planned for a run.
--
-- microbench.suite_order (20_catalog.sql, generated from common/mb_suite.c)
-- is the order both drivers walk; this turns it into the steps of one
-- suite: a workload subset, each step's measured seconds and the seconds
-- left after it.  bench_suite walks these steps in-server, and
-- microbench compare walks them over several servers at once.

-- The suite's steps for a workload subset, with each step's measured seconds
-- and the seconds left from it to the end (for the progress notices).
-- Maintenance is kept only when some write runs before it.  Plain SQL over
-- microbench.suite_order, so that a results database can plan a suite too
-- (microbench compare walks it).
CREATE OR REPLACE FUNCTION microbench.suite_steps(workloads text[], read_seconds float8,
                                       write_seconds float8, insert_seconds float8,
                                       warmup float8)
RETURNS TABLE (n integer, steps integer, kind text, workload text, phase text,
               seconds float8, remaining float8)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
    WITH chosen AS (
        SELECT p.* FROM microbench.suite_order p
        WHERE workloads IS NULL OR p.kind <> 'run' OR p.workload = ANY (workloads)
    ), kept AS (
        SELECT c.*,
               CASE WHEN c.kind = 'maintenance' THEN 0
                    WHEN c.class = 'read' THEN read_seconds
                    WHEN c.class = 'write' THEN write_seconds
                    ELSE insert_seconds END AS secs
        FROM chosen c
        WHERE c.kind <> 'maintenance'
           OR EXISTS (SELECT 1 FROM chosen w WHERE w.kind = 'run' AND w.class = 'write')
    )
    SELECT (row_number() OVER (ORDER BY k.step))::integer, (count(*) OVER ())::integer,
           k.kind, k.workload, k.phase, k.secs,
           sum(k.secs + CASE WHEN k.kind = 'maintenance' THEN 0 ELSE warmup END)
               OVER (ORDER BY k.step ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)
    FROM kept k
    ORDER BY k.step
$fn$;


-- upgrade/0.2.sql — what the extension's 0.1 interface left that 0.2 replaces.
--
-- microbench_functions.sql creates the extension's functions with CREATE OR
-- REPLACE, which can neither take away a signature whose arguments changed
-- nor change a function's result type.  These drops do that for the
-- functions of the extension's own schema (the names are unqualified: an
-- extension script runs with that schema first in its search_path), so they
-- belong to the extension alone; the results schema's own drops are in
-- results_schema/upgrade/0.2.sql.  extension/Makefile puts both, that one
-- first, at the head of the update script microbench--0.1--0.2.sql; the
-- fresh install script microbench--0.2.sql has nothing to replace and
-- leaves them out.

-- 0.2 returns the path the load took; 0.1 returned the row count.
DROP FUNCTION IF EXISTS microbench_load_table(regclass, bigint, bigint);
-- 0.2 adds load_path to the result.
DROP FUNCTION IF EXISTS bench_prepare(integer, bigint, bigint, text);
-- 0.2 adds round, the round of a comparison the run belongs to, and what a
-- counted run asks: warmup_events, count_window and checkpoint.
DROP FUNCTION IF EXISTS bench_run(text, float8, integer, float8, integer, integer, text, bigint,
                                  text, text, float8, text[], text, float8, bigint, integer);
DROP FUNCTION IF EXISTS bench_run(text, float8, integer, float8, integer, integer, text, bigint,
                                  text, text, float8, text[], text, float8, bigint, integer, integer);
-- 0.1 had no confidence and threshold arguments, and no driver choice:
-- driver for both sides, base_driver and other_driver for one
-- (results_schema/31_reports.sql).
DROP FUNCTION IF EXISTS bench_report(text, text, text, text, text);
DROP FUNCTION IF EXISTS bench_report(text, text, text, text, text, float8, float8);
DROP FUNCTION IF EXISTS bench_relative(text, text[], text, text, text, float8, float8);

-- upgrade/0.2.sql — what an earlier results schema left that this one replaces.
--
-- The results schema's files create everything with CREATE OR REPLACE and
-- IF NOT EXISTS, so loading them again brings a database up to date, except
-- for what those statements cannot do: take away a function whose
-- arguments changed (the new signature would be a second function beside
-- the old one), change a function's result type or parameter names, or
-- remove an object this version no longer has.  Those drops live here, out of the schema's
-- source, so that the source says only what the schema is.  Every one is
-- IF EXISTS: on a new database this file changes nothing, and on one
-- already at this version it drops only the few present signatures whose
-- result type or parameter names changed, which the schema then creates
-- again.
--
-- Run before results_schema/*.sql whenever the schema is loaded into an
-- existing results database (cat results_schema/upgrade/*.sql
-- results_schema/*.sql | psql), and first in the extension's update script
-- microbench--0.1--0.2.sql (extension/Makefile).  A fresh install does not
-- need it.  Like the schema it must stay valid inside an extension script:
-- no transaction control, no psql meta-commands.  When a version after 0.2
-- changes signatures again, its drops go into a file of its own named by
-- that version, which loads after this one.

-- A trigger of 12_fleet.sql's first form filed every run inserted without
-- a host; it needed rights on hosts that a role allowed to insert runs
-- alone did not have.  push_run() does it now.
DROP TRIGGER IF EXISTS runs_fill_host ON microbench.runs;
DROP FUNCTION IF EXISTS microbench.runs_fill_host();

-- Earlier signatures of the comparison's steps (29_sides.sql,
-- 30_compare.sql), before their driver and wait arguments.
DROP FUNCTION IF EXISTS microbench.check_counters(text, text, text);
DROP FUNCTION IF EXISTS microbench.side_stats(text, text, text, text);
DROP FUNCTION IF EXISTS microbench.comparison_pairs(text, text, text, text, text, text, double precision);

-- Earlier signatures of compare() and compare_warnings() (30_compare.sql),
-- each some arguments short of today's.
DROP FUNCTION IF EXISTS microbench.compare(text, text, text, text);
DROP FUNCTION IF EXISTS microbench.compare(text, text, text, text, double precision, double precision);
DROP FUNCTION IF EXISTS microbench.compare(text, text, text, text, double precision, double precision,
                                           text, text, text);
DROP FUNCTION IF EXISTS microbench.compare_warnings(text, text, text, double precision, double precision);
DROP FUNCTION IF EXISTS microbench.compare_warnings(text, text, text, double precision, double precision,
                                                    text, text, text);

-- Earlier signatures of the report's steps (31_reports.sql).  A cell's
-- verdict was a boolean before it had three values.  The last
-- report_footer() names its present signature, whose earlier form differed
-- in what CREATE OR REPLACE cannot change.
DROP FUNCTION IF EXISTS microbench.report_cell(double precision, boolean);
DROP FUNCTION IF EXISTS microbench.report_grid(text, text[], text, text, boolean);
DROP FUNCTION IF EXISTS microbench.report_grid(text, text[], text, text, boolean, double precision, double precision);
DROP FUNCTION IF EXISTS microbench.report_grid(text, text[], text, text, boolean, double precision, double precision,
                                               text, text);
DROP FUNCTION IF EXISTS microbench.report_footer(boolean, text);
DROP FUNCTION IF EXISTS microbench.report_footer(jsonb, text, double precision, double precision);
DROP FUNCTION IF EXISTS microbench.report_footer(jsonb, text, double precision, double precision, text);
DROP FUNCTION IF EXISTS microbench.report_cell_interval(text, double precision, double precision);
DROP FUNCTION IF EXISTS microbench.report_render(jsonb, text);
DROP FUNCTION IF EXISTS microbench.report_render(jsonb, text, double precision, double precision);
DROP FUNCTION IF EXISTS microbench.report_render(jsonb, text, double precision, double precision, text);
DROP FUNCTION IF EXISTS microbench.warnings_caption(text, text[], text, text, double precision, text);
DROP FUNCTION IF EXISTS microbench.options_caption(text[], text, text);

-- The public reports before their confidence, threshold and driver
-- arguments (31_reports.sql).  bench_costs() keeps its arguments but
-- returns more columns, which CREATE OR REPLACE cannot change.
DROP FUNCTION IF EXISTS microbench.bench_report(text, text, text, text, text);
DROP FUNCTION IF EXISTS microbench.bench_report(text, text, text, text, text, double precision, double precision);
DROP FUNCTION IF EXISTS microbench.relative_report(text, text[], text, text, text, boolean,
                                                   double precision, double precision, text);
DROP FUNCTION IF EXISTS microbench.bench_relative(text, text[], text, text, text, double precision, double precision);
DROP FUNCTION IF EXISTS microbench.bench_costs(text[], text);

-- Earlier signatures of a fleet's reports (33_hosts.sql), before a
-- campaign's hosts came as jsonb, and of the SVG report (40_svg.sql),
-- before its confidence, threshold and drivers.
DROP FUNCTION IF EXISTS microbench.hosts_grid(text, text, text, text, text, double precision, double precision);
DROP FUNCTION IF EXISTS microbench.hosts_svg(text, text, text, text, text, double precision, double precision);
-- hosts_grid() returned its grid as jsonb before it was an array of
-- report_grid_row; report_render() and report_footer() took it so.  The
-- functions' reports kept compare_functions()' rows as jsonb too, and
-- function_rows() made rows of it again.
DROP FUNCTION IF EXISTS microbench.hosts_grid(text, text, text, jsonb, text, text, double precision, double precision);
DROP FUNCTION IF EXISTS microbench.function_rows(jsonb);
DROP FUNCTION IF EXISTS microbench.report_svg(text, text[], text, text, boolean);
DROP FUNCTION IF EXISTS microbench.report_svg(text, text[], text, text, boolean, double precision, double precision);

-- 33_hosts.sql — the cross-host report: one comparison on many hosts, side
-- by side.
--
-- A fleet's hosts each ran the same two builds (a campaign, 12_fleet.sql);
-- nobody compares absolute QPS across hosts, so each host's cells are its
-- own comparison, other against base on that host, judged by compare()
-- over that host's runs alone (microbench.report_host scopes them).  The
-- layout is the seed's, with a column group per host: "small:pg small:ma
-- large:pg large:ma", each group's host named above the table with a line
-- of its facts.  QPS (timed runs) and instructions per query (counted
-- runs), each that has runs, one table after the other.  Text, markdown and
-- CSV through report_render(), SVG as each host's report_svg() one above
-- the other under its host's line.

-- A host's facts in one line: "AMD EPYC 7B13; 1 socket, 2 cores, 2 threads
-- (no SMT); 23.5 GiB; Linux 6.1.0-28; Debian GNU/Linux 12; vda (ssd); KVM".
CREATE OR REPLACE FUNCTION microbench.host_summary(facts_id bigint)
RETURNS text LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT concat_ws('; ',
               f.cpu_model,
               nullif(concat_ws(', ',
                          f.sockets || ' socket' || CASE WHEN f.sockets = 1 THEN '' ELSE 's' END,
                          f.cores || ' core' || CASE WHEN f.cores = 1 THEN '' ELSE 's' END,
                          f.threads || ' thread' || CASE WHEN f.threads = 1 THEN '' ELSE 's' END)
                      || CASE WHEN f.smt THEN ' (SMT)' WHEN NOT f.smt THEN ' (no SMT)' ELSE '' END, ''),
               to_char(f.memory_bytes / 1073741824.0, 'FM999990.0') || ' GiB',
               f.kernel, f.os, f.storage,
               CASE WHEN f.virtualization = 'none' THEN 'bare metal' ELSE f.virtualization END)
    FROM microbench.host_facts f
    WHERE f.facts_id = host_summary.facts_id
$$;

-- The hosts that ran base or other (in the campaign, when named), smallest
-- first (threads, then memory; alike, the first to run first): each with the facts of its
-- latest run and how many sets of facts its runs had.
CREATE OR REPLACE FUNCTION microbench.campaign_hosts(base text, other text, campaign text, phase text)
RETURNS TABLE (host_order integer, host_label text, facts_id bigint, fact_sets integer)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT (row_number() OVER (ORDER BY l.threads, l.memory_bytes, l.first_run, l.label))::integer,
           l.label, l.facts_id, l.fact_sets
    FROM (SELECT h.label,
                 (array_agg(f.facts_id ORDER BY r.started_at DESC))[1] AS facts_id,
                 (array_agg(f.threads ORDER BY r.started_at DESC))[1] AS threads,
                 (array_agg(f.memory_bytes ORDER BY r.started_at DESC))[1] AS memory_bytes,
                 count(DISTINCT f.facts_id)::integer AS fact_sets,
                 min(r.started_at) AS first_run
          FROM microbench.runs r
          JOIN microbench.host_facts f ON f.facts_id = r.host_facts_id
          JOIN microbench.hosts h ON h.host_id = f.host_id
          LEFT JOIN microbench.campaigns c ON c.campaign_id = r.campaign_id
          WHERE r.label IN (base, other) AND r.phase = campaign_hosts.phase
            AND (campaign_hosts.campaign IS NULL OR c.name = campaign_hosts.campaign)
          GROUP BY h.label) l
$$;

-- Scope the reports to one host and campaign (microbench.scoped_runs(),
-- 12_fleet.sql) until the transaction ends; returns the scope it replaced,
-- which the same call puts back.
CREATE OR REPLACE FUNCTION microbench.host_scope(host_label text, campaign text)
RETURNS text[] LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    before text[] := ARRAY[current_setting('microbench.report_host', true),
                           current_setting('microbench.report_campaign', true)];
BEGIN
    PERFORM set_config('microbench.report_host', coalesce(host_label, ''), true);
    PERFORM set_config('microbench.report_campaign', coalesce(campaign, ''), true);
    RETURN before;
END
$$;

-- One metric's grid for the hosts (campaign_hosts() rows as JSON):
-- report_grid() of each host under its scope, the columns renamed HOST:pg
-- and numbered by host, and a "-" cell where a host has no runs of a
-- workload another host has (the renderer lays out one cell per column and
-- workload).  NULL when no host has runs of the metric.
CREATE OR REPLACE FUNCTION microbench.hosts_grid(base text, other text, campaign text, hosts jsonb,
                                                 metric text, phase text, confidence double precision,
                                                 threshold double precision)
RETURNS microbench.report_grid_row[] LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    h       record;
    r       microbench.report_grid_row;
    grid    microbench.report_grid_row[] := '{}';
    saved   text[];
    prev    text[];
BEGIN
    FOR h IN SELECT * FROM jsonb_to_recordset(hosts) AS x(host_order integer, host_label text) LOOP
        prev := microbench.host_scope(h.host_label, campaign);
        -- the scope before the first host's, put back after the last
        saved := coalesce(saved, prev);
        FOR r IN SELECT * FROM unnest(microbench.report_grid_rows(base, ARRAY[other], metric, phase, false,
                                                                  confidence, threshold)) LOOP
            r.column_order := h.host_order * 10 + r.column_order;
            r.column_name := h.host_label || ':' || r.column_name;
            grid := grid || r;
        END LOOP;
    END LOOP;
    IF saved IS NOT NULL THEN
        PERFORM microbench.host_scope(saved[1], saved[2]);
    END IF;
    IF NOT EXISTS (SELECT FROM unnest(grid) g WHERE g.ratio IS NOT NULL) THEN
        RETURN NULL;
    END IF;
    RETURN ARRAY(SELECT coalesce(g.cell, microbench.report_no_data_cell(c.column_order, c.column_name, c.dbms,
                                                                        w.grp, w.group_order, w.report_order,
                                                                        w.workload))
                 FROM (SELECT DISTINCT e.column_order, e.column_name, e.dbms FROM unnest(grid) e) c
                 CROSS JOIN (SELECT DISTINCT e.grp, e.group_order, e.report_order, e.workload
                             FROM unnest(grid) e) w
                 LEFT JOIN LATERAL (SELECT e AS cell FROM unnest(grid) e
                                    WHERE e.column_order = c.column_order
                                      AND e.workload = w.workload) g ON true);
END
$$;

-- The SVG: each host's report_svg() under a line naming the host and its
-- facts, one above the other in one picture.
CREATE OR REPLACE FUNCTION microbench.hosts_svg(base text, other text, campaign text, hosts jsonb,
                                                metric text, phase text, confidence double precision,
                                                threshold double precision)
RETURNS text LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    h       record;
    one     text;
    nested  record;                     -- svg_nest()'s
    y       integer := 36;
    width   integer := 640;
    body    text := '';
    saved   text[];
    prev    text[];
BEGIN
    FOR h IN SELECT * FROM jsonb_to_recordset(hosts) AS x(host_label text, facts_id bigint) LOOP
        prev := microbench.host_scope(h.host_label, campaign);
        -- the scope before the first host's, put back after the last
        saved := coalesce(saved, prev);
        one := microbench.report_svg(base, ARRAY[other], phase, metric, false, confidence, threshold);
        CONTINUE WHEN one IS NULL OR one = '';
        nested := microbench.svg_nest(one, y + 42);
        width := greatest(width, nested.width);
        body := body || format(E'<text x="16" y="%s" font-size="15" font-weight="bold">%s</text>\n'
                                '<text x="16" y="%s" font-size="12" fill="#444444">%s</text>\n',
                                y + 16, microbench.svg_escape('host ' || h.host_label),
                                y + 34, microbench.svg_escape(coalesce(microbench.host_summary(h.facts_id), 'no facts known')))
                || nested.svg || E'\n';
        y := y + 42 + nested.height + 12;
    END LOOP;
    IF saved IS NOT NULL THEN
        PERFORM microbench.host_scope(saved[1], saved[2]);
    END IF;
    RETURN '<?xml version="1.0" encoding="UTF-8"?>' || E'\n'
        || format('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif">',
                  width, y, width, y) || E'\n'
        || format('<rect width="%s" height="%s" fill="#ffffff"/>', width, y) || E'\n'
        || format('<text x="16" y="24" font-size="17" font-weight="bold">%s</text>',
                  microbench.svg_escape(microbench.ratio_caption(metric, other, base) || ' on each host'
                                        || coalesce(', campaign ' || campaign, ''))) || E'\n'
        || body || '</svg>' || E'\n';
END
$$;

-- The report: for each metric with runs (or the one asked; SVG draws one,
-- QPS unless asked), a title line, a line per host with its facts, and the
-- grid with a column group per host.
CREATE OR REPLACE FUNCTION microbench.hosts_report(base text, other text, campaign text DEFAULT NULL,
                                                   format text DEFAULT 'text', metric text DEFAULT NULL,
                                                   phase text DEFAULT 'post',
                                                   confidence double precision DEFAULT 0.95,
                                                   threshold double precision DEFAULT 0.02,
                                                   count_threshold double precision DEFAULT 0.005)
RETURNS text LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    hosts   jsonb := (SELECT jsonb_agg(to_jsonb(h) ORDER BY h.host_order)
                      FROM microbench.campaign_hosts(base, other, campaign, phase) h);
    m       text;
    t       double precision;
    grid    microbench.report_grid_row[];
    prefix  text := CASE format WHEN 'text' THEN '-- ' WHEN 'csv' THEN '# ' ELSE '' END;
    result  text := '';
BEGIN
    IF format NOT IN ('text', 'markdown', 'csv', 'svg') THEN
        RAISE EXCEPTION 'unknown report format "%"', format
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Use text, markdown, csv or svg.';
    END IF;
    IF hosts IS NULL THEN
        RAISE EXCEPTION 'no host has runs of "%" or "%"%', base, other,
                        coalesce(' in campaign "' || campaign || '"', '')
            USING ERRCODE = 'no_data_found',
                  HINT = 'SELECT name FROM microbench.campaigns and SELECT DISTINCT label FROM microbench.runs list what there is.';
    END IF;
    FOREACH m IN ARRAY CASE WHEN metric IS NOT NULL THEN ARRAY[metric]
                            WHEN format = 'svg' THEN ARRAY['qps']
                            ELSE ARRAY['qps', 'instructions'] END LOOP
        t := CASE WHEN microbench.counted_metric(m) THEN count_threshold ELSE threshold END;
        IF format = 'svg' THEN
            RETURN microbench.hosts_svg(base, other, campaign, hosts, m, phase, confidence, t);
        END IF;
        grid := microbench.hosts_grid(base, other, campaign, hosts, m, phase, confidence, t);
        CONTINUE WHEN grid IS NULL;
        result := result || CASE WHEN result = '' THEN '' ELSE E'\n\n' END
                  || prefix || microbench.ratio_caption(m, other, base) || ' on each host'
                  || coalesce(', campaign ' || campaign, '')
                  || (SELECT string_agg(E'\n' || prefix
                                        || CASE format WHEN 'markdown' THEN '- **' || h.host_label || '**: '
                                                ELSE 'host ' || h.host_label || ': ' END
                                        || coalesce(microbench.host_summary(h.facts_id), 'no facts known')
                                        || CASE WHEN h.fact_sets > 1
                                                THEN ' (its facts changed during the runs: ' || h.fact_sets
                                                     || ' sets, the latest shown)'
                                                ELSE '' END, '' ORDER BY h.host_order)
                      FROM jsonb_to_recordset(hosts) AS h(host_order integer, host_label text, facts_id bigint,
                                                          fact_sets integer))
                  || E'\n\n'
                  || microbench.report_render(grid, format, confidence, t,
                                              microbench.ratio_caption(m, other, base) || ' on the same host')
                  || CASE WHEN format = 'csv' THEN '' ELSE microbench.metric_caption(m, base, other, prefix) END;
    END LOOP;
    IF result = '' THEN
        RAISE NOTICE 'no host has paired runs of "%" and "%" to compare', base, other;
    END IF;
    RETURN result;
END
$$;

COMMENT ON FUNCTION microbench.hosts_report(text, text, text, text, text, text, double precision, double precision, double precision) IS
    'other against base on each host of a campaign, side by side: a column group per host with its facts, QPS and instructions per query; format text, markdown, csv or svg';

-- 12_fleet.sql — many hosts, one results database: hosts, their facts,
-- campaigns, and runs that load once however often they are sent.
--
-- A fleet runs one comparison (a campaign) on many hosts, and each host
-- pushes its runs to a central Postgres as it goes, or later from its
-- runs.jsonl (docs/fleet.md).  Three things make that safe and readable:
--   * a run carries run_uid, made where it ran (the client, or the server
--     the extension ran it in), and push_run() inserts a run whose uid is
--     already there as nothing: a file sent twice, or by two hosts at once,
--     keeps each run once, and each run goes in with one statement;
--   * a host is a label the user gives (unique), and its facts (CPU,
--     sockets, cores, threads, SMT, memory, kernel, OS, storage,
--     virtualisation, machine id) are rows of host_facts: a run points at
--     the facts it ran under, and facts that change make a new row, so the
--     older runs keep theirs;
--   * a campaign is a name and the comparison's spec, grouping the runs of
--     every host.
-- A run inserted directly (the client's --results-db, the extension's
-- bench_run) has no host or campaign: it is a run of one machine's own
-- database, which the reports read whole.
-- The reports read a host's (and a campaign's) runs alone when
-- microbench.report_host (and microbench.report_campaign) are set:
-- microbench.scoped_runs(), which every report reads instead of the table.
-- Plain SQL, like the rest of the schema, so a central database needs no
-- C code; fleet/roles.sql makes the pushing and reading roles.

CREATE TABLE IF NOT EXISTS microbench.hosts (
    host_id     bigserial PRIMARY KEY,
    label       text NOT NULL UNIQUE CHECK (label <> ''),  -- the user's name for the host
    machine_id  text,                   -- /etc/machine-id when the host was first seen
    first_seen  timestamptz NOT NULL DEFAULT now()
);

-- One row per distinct set of facts of a host.  facts is the identity (the
-- keys below, those unknown left out); the typed columns are read from it.
CREATE TABLE IF NOT EXISTS microbench.host_facts (
    facts_id        bigserial PRIMARY KEY,
    host_id         bigint NOT NULL REFERENCES microbench.hosts,
    facts           jsonb NOT NULL CHECK (jsonb_typeof(facts) = 'object'),
    first_seen      timestamptz NOT NULL DEFAULT now(),
    machine_id      text GENERATED ALWAYS AS (facts ->> 'machine_id') STORED,
    cpu_model       text GENERATED ALWAYS AS (facts ->> 'cpu_model') STORED,
    sockets         integer GENERATED ALWAYS AS ((facts ->> 'sockets')::integer) STORED,
    cores           integer GENERATED ALWAYS AS ((facts ->> 'cores')::integer) STORED,
    threads         integer GENERATED ALWAYS AS ((facts ->> 'threads')::integer) STORED,
    smt             boolean GENERATED ALWAYS AS ((facts ->> 'smt')::boolean) STORED,
    memory_bytes    bigint GENERATED ALWAYS AS ((facts ->> 'memory_bytes')::bigint) STORED,
    kernel          text GENERATED ALWAYS AS (facts ->> 'kernel') STORED,
    os              text GENERATED ALWAYS AS (facts ->> 'os') STORED,
    storage         text GENERATED ALWAYS AS (facts ->> 'storage') STORED,
    virtualization  text GENERATED ALWAYS AS (facts ->> 'virtualization') STORED,
    UNIQUE (host_id, facts)
);

CREATE TABLE IF NOT EXISTS microbench.campaigns (
    campaign_id bigserial PRIMARY KEY,
    name        text NOT NULL UNIQUE CHECK (name <> ''),
    spec        jsonb,                  -- the comparison as its first host ran it
    created_at  timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE microbench.runs
    ADD COLUMN IF NOT EXISTS run_uid uuid,
    ADD COLUMN IF NOT EXISTS host_facts_id bigint REFERENCES microbench.host_facts,
    ADD COLUMN IF NOT EXISTS campaign_id bigint REFERENCES microbench.campaigns;

-- The uid of a run that came without one (a line written before run_uid,
-- or a row from before it): its natural key, what two runs cannot share,
-- so that such a run still loads once.
CREATE OR REPLACE FUNCTION microbench.natural_run_uid(dbms text, host text, workload text,
                                                      label text, phase text,
                                                      started_at timestamptz, ended_at timestamptz)
RETURNS uuid LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT md5(concat_ws('|', dbms, host, workload, label, phase,
                         extract(epoch FROM started_at), extract(epoch FROM ended_at)))::uuid
$$;

UPDATE microbench.runs
SET run_uid = microbench.natural_run_uid(dbms, host, workload, label, phase, started_at, ended_at)
WHERE run_uid IS NULL;
ALTER TABLE microbench.runs ALTER COLUMN run_uid SET DEFAULT gen_random_uuid();
ALTER TABLE microbench.runs ALTER COLUMN run_uid SET NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS runs_run_uid ON microbench.runs (run_uid);
CREATE INDEX IF NOT EXISTS runs_host_facts ON microbench.runs (host_facts_id);
CREATE INDEX IF NOT EXISTS runs_campaign ON microbench.runs (campaign_id);

COMMENT ON COLUMN microbench.runs.run_uid IS
    'made where the run ran; a run whose uid is already here is not loaded again';
COMMENT ON COLUMN microbench.runs.host_facts_id IS
    'the host and the facts it had when the run ran (microbench.host_facts)';
COMMENT ON COLUMN microbench.runs.campaign_id IS
    'the campaign (one comparison on many hosts) the run belongs to, NULL for none';

-- The facts row of a host with these facts, made (with the host) when new.
-- Concurrent pushes of one host meet in the unique constraints: the second
-- waits for the first, inserts nothing and reads the first's row.
CREATE OR REPLACE FUNCTION microbench.host_facts_id(host_label text, machine_id text, facts jsonb)
RETURNS bigint LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    hid bigint;
    fid bigint;
    f   jsonb := jsonb_strip_nulls(coalesce(facts, '{}') || jsonb_build_object('machine_id', machine_id));
BEGIN
    IF host_label IS NULL OR host_label = '' THEN
        RETURN NULL;
    END IF;
    SELECT h.host_id INTO hid FROM microbench.hosts h WHERE h.label = host_label;
    IF NOT FOUND THEN
        INSERT INTO microbench.hosts (label, machine_id) VALUES (host_label, machine_id)
        ON CONFLICT (label) DO NOTHING;
        SELECT h.host_id INTO STRICT hid FROM microbench.hosts h WHERE h.label = host_label;
    END IF;
    SELECT x.facts_id INTO fid FROM microbench.host_facts x WHERE x.host_id = hid AND x.facts = f;
    IF NOT FOUND THEN
        INSERT INTO microbench.host_facts (host_id, facts) VALUES (hid, f)
        ON CONFLICT ON CONSTRAINT host_facts_host_id_facts_key DO NOTHING;
        SELECT x.facts_id INTO STRICT fid FROM microbench.host_facts x WHERE x.host_id = hid AND x.facts = f;
    END IF;
    RETURN fid;
END
$$;

CREATE OR REPLACE FUNCTION microbench.campaign_id(name text, spec jsonb)
RETURNS bigint LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    cid bigint;
BEGIN
    IF name IS NULL OR name = '' THEN
        RETURN NULL;
    END IF;
    SELECT c.campaign_id INTO cid FROM microbench.campaigns c WHERE c.name = campaign_id.name;
    IF NOT FOUND THEN
        INSERT INTO microbench.campaigns (name, spec) VALUES (campaign_id.name, spec)
        ON CONFLICT ON CONSTRAINT campaigns_name_key DO NOTHING;
        SELECT c.campaign_id INTO STRICT cid FROM microbench.campaigns c WHERE c.name = campaign_id.name;
    END IF;
    RETURN cid;
END
$$;

-- One run, a JSON object with the column names of microbench.runs and the
-- tags a fleet adds (host_label, machine_id, host_facts, campaign,
-- campaign_spec), into microbench.runs: its run_id, or NULL when its
-- run_uid is already there.  The ids of the sending database (run_id,
-- host_facts_id, campaign_id) mean nothing here and are made anew; a line
-- without a host_label (a run of the client or the extension, not of a
-- fleet) is filed under the host its own host column names, with the facts
-- its row has.  Needs INSERT on runs and, of the runs, to read run_uid
-- alone (fleet/roles.sql), so a pushing role cannot read the runs.
CREATE OR REPLACE FUNCTION microbench.push_run(doc jsonb)
RETURNS bigint LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    run      microbench.runs;
    inserted bigint;
BEGIN
    IF jsonb_typeof(doc) IS DISTINCT FROM 'object' THEN
        RAISE EXCEPTION 'a run is a JSON object, not %', coalesce(jsonb_typeof(doc), 'NULL')
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'A results file holds one {...} per line, as microbench and export_runs() write it.';
    END IF;
    run := jsonb_populate_record(NULL::microbench.runs, doc || jsonb_build_object(
        'run_id', nextval('microbench.runs_run_id_seq'),
        -- lines without a driver come from the MySQL/MariaDB client, and
        -- files written before the rename say microbench-mysql
        'driver', CASE WHEN coalesce(doc ->> 'driver', 'microbench-mysql') = 'microbench-mysql'
                       THEN 'mysql' ELSE doc ->> 'driver' END,
        'errors', coalesce((doc ->> 'errors')::bigint, 0),
        'ps_mode', coalesce(doc ->> 'ps_mode', 'auto'),
        'host_facts_id', microbench.host_facts_id(
                             coalesce(doc ->> 'host_label', doc ->> 'host'), doc ->> 'machine_id',
                             coalesce(doc -> 'host_facts',
                                      jsonb_build_object('cpu_model', doc -> 'cpu_model',
                                                         'threads', doc -> 'cpu_cores',
                                                         'memory_bytes', doc -> 'memory_bytes',
                                                         'kernel', doc -> 'kernel'))),
        'campaign_id', microbench.campaign_id(doc ->> 'campaign', doc -> 'campaign_spec')));
    run.run_uid := coalesce(run.run_uid,
                            microbench.natural_run_uid(run.dbms, run.host, run.workload, run.label,
                                                       run.phase, run.started_at, run.ended_at));
    INSERT INTO microbench.runs SELECT (run).* ON CONFLICT (run_uid) DO NOTHING;
    GET DIAGNOSTICS inserted = ROW_COUNT;
    RETURN CASE WHEN inserted = 1 THEN run.run_id END;
END
$$;

COMMENT ON FUNCTION microbench.push_run(jsonb) IS
    'one run (a JSON line of microbench or export_runs) into microbench.runs: its run_id, NULL when its run_uid is already here';

-- The queued lines (the \copy recipe of 10_runs.sql) into microbench.runs:
-- how many were new.
CREATE OR REPLACE FUNCTION microbench.import_runs()
RETURNS bigint
LANGUAGE sql
SET search_path = pg_catalog, pg_temp
AS $$
    WITH queued AS (
        DELETE FROM microbench.import_queue RETURNING doc
    )
    SELECT count(microbench.push_run(queued.doc)) FROM queued
$$;

COMMENT ON FUNCTION microbench.import_runs() IS
    'move the runs queued in microbench.import_queue (JSON lines from microbench or export_runs) into microbench.runs, each through push_run(): how many were new';

-- A run's host and campaign as a fleet's tags say them, for export_runs():
-- the ids of this database would mean nothing in another.
CREATE OR REPLACE FUNCTION microbench.run_tags(host_facts_id bigint, campaign_id bigint)
RETURNS jsonb LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_strip_nulls(jsonb_build_object('host_label', h.label, 'machine_id', f.machine_id,
                                                'host_facts', f.facts - 'machine_id',
                                                'campaign', c.name, 'campaign_spec', c.spec))
    FROM (SELECT) AS one
    LEFT JOIN microbench.host_facts f ON f.facts_id = run_tags.host_facts_id
    LEFT JOIN microbench.hosts h ON h.host_id = f.host_id
    LEFT JOIN microbench.campaigns c ON c.campaign_id = run_tags.campaign_id
$$;

-- The runs the reports read: all of them, or those of one host (by label)
-- and one campaign (by name) when microbench.report_host and
-- microbench.report_campaign say so.  It is inlined into the reports'
-- queries (which a SET clause would prevent: so no pinned search_path here,
-- and every name and operator in it is qualified); whether a scope is set
-- is a subquery of its own, read once a query rather than once a row.
CREATE OR REPLACE FUNCTION microbench.scoped_runs()
RETURNS SETOF microbench.runs
LANGUAGE sql STABLE
AS $$
    SELECT r.* FROM microbench.runs r
    WHERE ((SELECT coalesce(pg_catalog.current_setting('microbench.report_host', true), '') OPERATOR(pg_catalog.=) '')
           OR EXISTS (SELECT FROM microbench.host_facts f
                      JOIN microbench.hosts h ON h.host_id OPERATOR(pg_catalog.=) f.host_id
                      WHERE f.facts_id OPERATOR(pg_catalog.=) r.host_facts_id
                        AND h.label OPERATOR(pg_catalog.=)
                            pg_catalog.current_setting('microbench.report_host', true)))
      AND ((SELECT coalesce(pg_catalog.current_setting('microbench.report_campaign', true), '') OPERATOR(pg_catalog.=) '')
           OR EXISTS (SELECT FROM microbench.campaigns c
                      WHERE c.campaign_id OPERATOR(pg_catalog.=) r.campaign_id
                        AND c.name OPERATOR(pg_catalog.=)
                            pg_catalog.current_setting('microbench.report_campaign', true)))
$$;

COMMENT ON FUNCTION microbench.scoped_runs() IS
    'the runs the reports read: of the host microbench.report_host and the campaign microbench.report_campaign names, all when unset';

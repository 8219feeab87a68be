-- fleet/roles.sql — the two roles of a fleet's central results database:
-- microbench_pusher, for the hosts, which can add runs and nothing else,
-- and microbench_reader, for whoever reads the reports.
--
-- Run by the database's owner after the results schema, and again after
-- the schema is updated (new tables need their grants):
--   cat results_schema/upgrade/*.sql results_schema/*.sql | psql -d central
--                                         (or CREATE EXTENSION microbench)
--   psql -d central -f fleet/roles.sql
-- then give each host a login of its own in the pushing role, its password
-- in the host's ~/.pgpass, never in a command line or an inventory:
--   CREATE ROLE host_small LOGIN IN ROLE microbench_pusher;  \password host_small
--   CREATE ROLE alice LOGIN IN ROLE microbench_reader;
-- A pusher reaches the runs only through microbench.push_run(), an INSERT:
-- it can read the hosts, facts and campaigns it names (to find their ids)
-- and the runs' uids (to skip a run already there), but nothing else of a
-- run, and can change or delete nothing.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'microbench_pusher') THEN
        CREATE ROLE microbench_pusher NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'microbench_reader') THEN
        CREATE ROLE microbench_reader NOLOGIN;
    END IF;
END
$$;

GRANT USAGE ON SCHEMA microbench TO microbench_pusher, microbench_reader;

REVOKE ALL ON ALL TABLES IN SCHEMA microbench FROM microbench_pusher;
GRANT INSERT ON microbench.runs TO microbench_pusher;
-- ON CONFLICT (run_uid) reads the column it arbitrates on: the uids alone
GRANT SELECT (run_uid) ON microbench.runs TO microbench_pusher;
GRANT SELECT, INSERT ON microbench.hosts, microbench.host_facts, microbench.campaigns TO microbench_pusher;
GRANT USAGE ON SEQUENCE microbench.runs_run_id_seq, microbench.hosts_host_id_seq,
    microbench.host_facts_facts_id_seq, microbench.campaigns_campaign_id_seq TO microbench_pusher;

REVOKE ALL ON ALL TABLES IN SCHEMA microbench FROM microbench_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA microbench TO microbench_reader;

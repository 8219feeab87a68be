-- 16_run_options.sql — how a run was driven, beside what it measured.
--
-- The options sysbench users bring: the statement mode (prepared, or SQL
-- text parsed and planned every time), a rate limit, an event limit,
-- reconnecting every N events, and which errors an event may hit without
-- stopping the run — with how many events each of those ended.  A ratio
-- between runs driven differently compares different things, so reports
-- can tell them apart.  ADD COLUMN IF NOT EXISTS also upgrades a results
-- database created before these columns existed.

ALTER TABLE microbench.runs
    ADD COLUMN IF NOT EXISTS ps_mode         text NOT NULL DEFAULT 'auto'
        CHECK (ps_mode IN ('auto', 'disable')),
    ADD COLUMN IF NOT EXISTS rate            double precision,
    ADD COLUMN IF NOT EXISTS event_limit     bigint,
    ADD COLUMN IF NOT EXISTS warmup_events   bigint,
    ADD COLUMN IF NOT EXISTS reconnect       integer,
    ADD COLUMN IF NOT EXISTS sessions        bigint,
    ADD COLUMN IF NOT EXISTS ignored_errors  text,
    ADD COLUMN IF NOT EXISTS errors_by_code  jsonb;

COMMENT ON COLUMN microbench.runs.ps_mode IS
    'auto: prepared statements; disable: SQL text with literal values, parsed and planned every execution (sysbench --db-ps-mode)';
COMMENT ON COLUMN microbench.runs.rate IS
    'events per second over all clients, scheduled as a Poisson process; NULL: no limit (sysbench --rate)';
COMMENT ON COLUMN microbench.runs.event_limit IS
    'the run stopped after this many measured events (or at seconds, whichever came first); NULL: time only (sysbench --events)';
COMMENT ON COLUMN microbench.runs.reconnect IS
    'each client opened a new session every this many events; NULL: never (--reconnect)';
COMMENT ON COLUMN microbench.runs.sessions IS
    'sessions the clients opened during the run, the first ones included';
COMMENT ON COLUMN microbench.runs.ignored_errors IS
    'the error codes an event could hit without stopping the run (SQLSTATEs, or MySQL error numbers)';
COMMENT ON COLUMN microbench.runs.errors_by_code IS
    'events in the measured window ended by each ignored error, e.g. {"23505": 12, "40P01": 1}; errors is their sum';
COMMENT ON COLUMN microbench.runs.errors IS
    'measured events ended by an ignored error: rolled back, not in events, queries or latencies';

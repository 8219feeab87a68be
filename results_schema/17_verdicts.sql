-- 17_verdicts.sql — what a comparison needs beyond one QPS per run.
--
-- A ratio of two runs' QPS is only a verdict when it is known how much the
-- runs would move on their own, whether the machine ran at the same speed
-- for both, and whether both read the same data.  So every run keeps:
--   - its QPS for each second of the measured window (variability and
--     trends inside the run; an interval when there are too few runs),
--     and for each tenth of a second, with the steady rate taken from the
--     tenths: the mean of those that did not fall well below the run's
--     median tenth, and the share set aside (common/mb_samples.h).  A
--     neighbour that takes the CPU for a moment slows a few tenths; the
--     mean (qps, as sysbench reports it) carries them, the steady rate
--     does not, and a comparison's QPS is the steady rate;
--   - a host-speed canary, a fixed CPU-bound task timed right before and
--     right after the window (common/mb_canary.c);
--   - a fingerprint of the data it read: sizes, dead rows, visibility
--     (Postgres) or data/index length and undo history (InnoDB), taken
--     before the run;
--   - where it stood in the experiment: its round (the pass in which each
--     build ran each workload once, next to each other) and its instance
--     (the server start that ran it), the levels a comparison pairs and
--     pools by;
--   - under microbench compare, how much of a CPU other processes took
--     while it ran, and which (busy_share, busy_note);
--   - how long the processes that ran its statements waited for a CPU
--     while they could have run (the kernel's schedstat), over the window
--     and per second: a neighbour that takes the CPU shows there, where the
--     canary, a task shorter than a time slice, does not (common/mb_sched.h).
-- microbench.compare() (30_reports.sql) turns these into intervals,
-- p-values and warnings.  ADD COLUMN IF NOT EXISTS also upgrades a results
-- database created before these columns existed.

ALTER TABLE microbench.runs
    ADD COLUMN IF NOT EXISTS qps_per_second   double precision[],
    ADD COLUMN IF NOT EXISTS canary_before_us double precision,
    ADD COLUMN IF NOT EXISTS canary_after_us  double precision,
    ADD COLUMN IF NOT EXISTS data_state       jsonb,
    ADD COLUMN IF NOT EXISTS round            integer,
    ADD COLUMN IF NOT EXISTS instance         text,
    ADD COLUMN IF NOT EXISTS cpu_run_seconds  double precision,
    ADD COLUMN IF NOT EXISTS cpu_wait_seconds double precision,
    ADD COLUMN IF NOT EXISTS cpu_wait_per_second double precision[],
    ADD COLUMN IF NOT EXISTS qps_tenths       double precision[],
    ADD COLUMN IF NOT EXISTS qps_steady       double precision,
    ADD COLUMN IF NOT EXISTS steady_set_aside double precision,
    ADD COLUMN IF NOT EXISTS busy_share       double precision,
    ADD COLUMN IF NOT EXISTS busy_note        text;

COMMENT ON COLUMN microbench.runs.qps_per_second IS
    'QPS of each second of the measured window, in order; the last partial second is kept when at least 0.5 s long (a window shorter than that has one sample covering all of it)';
COMMENT ON COLUMN microbench.runs.canary_before_us IS
    'microseconds the host-speed canary (a fixed CPU-bound task) took right before the measured window; slower means a slower or busier machine';
COMMENT ON COLUMN microbench.runs.canary_after_us IS
    'microseconds the host-speed canary took right after the measured window';
COMMENT ON COLUMN microbench.runs.data_state IS
    'fingerprint of the tables the run read, taken before it: Postgres {table_bytes, index_bytes, live_rows, dead_rows, all_visible}; MySQL/MariaDB {data_bytes, index_bytes, rows, history_length}';
COMMENT ON COLUMN microbench.runs.round IS
    'the round of a comparison the run belongs to (each build runs each workload once per round, next to each other); NULL when not given, and then runs are paired by their order';
COMMENT ON COLUMN microbench.runs.instance IS
    'the server start that ran it (Postgres: port, postmaster pid and start time; MySQL/MariaDB: as the client or runner names it): runs of one instance share its memory layout and caches';
COMMENT ON COLUMN microbench.runs.cpu_run_seconds IS
    'CPU time of the processes that ran the statements over the window, as the kernel counts it (in-server: the benchmark workers; over the wire: the client''s threads)';
COMMENT ON COLUMN microbench.runs.cpu_wait_seconds IS
    'time those processes were runnable but waiting for a CPU over the window (schedstat run delay): high when something else took their CPU';
COMMENT ON COLUMN microbench.runs.cpu_wait_per_second IS
    'per second of the window: the share of those processes'' time spent waiting for a CPU, wait / (run + wait); NULL where it could not be read';
COMMENT ON COLUMN microbench.runs.qps_tenths IS
    'QPS of each tenth of a second of the measured window, in order (the last partial tenth kept when at least 0.05 s long); at most the first hour, and a longer window has no steady rate';
COMMENT ON COLUMN microbench.runs.qps_steady IS
    'the steady rate: the mean QPS of the tenths left after setting aside those more than 4 spreads (scaled median absolute deviation) and at least 5% below the median tenth; what a comparison''s QPS is; NULL with fewer than 5 tenths';
COMMENT ON COLUMN microbench.runs.steady_set_aside IS
    'the share of the window''s tenths set aside as disturbed when taking qps_steady';
COMMENT ON COLUMN microbench.runs.busy_share IS
    'microbench compare: the share of a CPU that other processes took while the run ran, on the servers'' CPUs or the runner''s, whichever is more (/proc/stat less the server''s and the runner''s own CPU time); over 0.2 the run was busy and its pair is set aside';
COMMENT ON COLUMN microbench.runs.busy_note IS
    'microbench compare: what took the CPUs while the run ran: each side''s share and the busiest other processes';

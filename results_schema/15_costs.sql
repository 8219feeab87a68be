-- 15_costs.sql — what each run cost, beside its QPS.
--
-- A relative QPS of 0.95 raises the question "why?".  These columns hold
-- the figures that answer it, over the run's measured window only:
--
--   * the benchmark processes' own cost (extension: the background workers,
--     summed; getrusage, WAL and buffer counters, perf hardware counters);
--   * the host's CPU and disk, as vmstat and iostat report them
--     (/proc/stat, /proc/diskstats for the device holding the data
--     directory);
--   * the MySQL/MariaDB client's own CPU, and the server's SHOW GLOBAL
--     STATUS deltas (server_status).
--
-- A figure that could not be counted is NULL, and the *_note columns say
-- why; nothing is estimated.  microbench.run_costs (30_reports.sql, beside
-- the report metrics it is made of) divides by queries.
-- ADD COLUMN IF NOT EXISTS also upgrades a results database created before
-- these columns existed.

ALTER TABLE microbench.runs
    ADD COLUMN IF NOT EXISTS cpu_user_seconds       double precision,
    ADD COLUMN IF NOT EXISTS cpu_system_seconds     double precision,
    ADD COLUMN IF NOT EXISTS voluntary_cs           bigint,
    ADD COLUMN IF NOT EXISTS involuntary_cs         bigint,
    ADD COLUMN IF NOT EXISTS wal_records            bigint,
    ADD COLUMN IF NOT EXISTS wal_fpi                bigint,
    ADD COLUMN IF NOT EXISTS wal_bytes              bigint,
    ADD COLUMN IF NOT EXISTS shared_blks_hit        bigint,
    ADD COLUMN IF NOT EXISTS shared_blks_read       bigint,
    ADD COLUMN IF NOT EXISTS shared_blks_dirtied    bigint,
    ADD COLUMN IF NOT EXISTS shared_blks_written    bigint,
    ADD COLUMN IF NOT EXISTS instructions           bigint,
    ADD COLUMN IF NOT EXISTS cycles                 bigint,
    ADD COLUMN IF NOT EXISTS hw_counters_note       text,
    ADD COLUMN IF NOT EXISTS host_cpu_user_seconds   double precision,
    ADD COLUMN IF NOT EXISTS host_cpu_system_seconds double precision,
    ADD COLUMN IF NOT EXISTS host_cpu_iowait_seconds double precision,
    ADD COLUMN IF NOT EXISTS host_cpu_idle_seconds   double precision,
    ADD COLUMN IF NOT EXISTS host_cpu_steal_seconds  double precision,
    ADD COLUMN IF NOT EXISTS host_context_switches  bigint,
    ADD COLUMN IF NOT EXISTS disk_device            text,
    ADD COLUMN IF NOT EXISTS disk_reads             bigint,
    ADD COLUMN IF NOT EXISTS disk_read_kb           double precision,
    ADD COLUMN IF NOT EXISTS disk_writes            bigint,
    ADD COLUMN IF NOT EXISTS disk_write_kb          double precision,
    ADD COLUMN IF NOT EXISTS disk_note              text,
    ADD COLUMN IF NOT EXISTS client_cpu_user_seconds   double precision,
    ADD COLUMN IF NOT EXISTS client_cpu_system_seconds double precision,
    ADD COLUMN IF NOT EXISTS server_status          jsonb,
    ADD COLUMN IF NOT EXISTS instructions_counter   text,
    ADD COLUMN IF NOT EXISTS client_pids            integer[],
    ADD COLUMN IF NOT EXISTS i1_misses              bigint,
    ADD COLUMN IF NOT EXISTS d1_misses              bigint,
    ADD COLUMN IF NOT EXISTS ll_misses              bigint,
    ADD COLUMN IF NOT EXISTS estimated_cycles       bigint,
    -- a counted in-server run: the instructions of its window spent in the
    -- harness's own code (the extension's library, not the server's), and
    -- the compiler that built the harness, the same for every build of a
    -- comparison (microbench compare)
    ADD COLUMN IF NOT EXISTS harness_instructions   bigint,
    ADD COLUMN IF NOT EXISTS harness_compiler       text,
    -- a counted run's server settings that differ from a timed run's, and why
    ADD COLUMN IF NOT EXISTS count_settings         text,
    -- a counted run's window per function: [object, function, self,
    -- inclusive, self_valgrind, inclusive_valgrind] instructions
    -- (32_functions.sql reads it)
    ADD COLUMN IF NOT EXISTS functions              jsonb,
    -- a run counted under valgrind: its window's instructions as valgrind
    -- counts them, each repetition of a REP string instruction one (the
    -- instructions column counts such an instruction once, as a CPU does)
    ADD COLUMN IF NOT EXISTS instructions_valgrind  bigint,
    -- a run over the wire: whose CPU cpu_user_seconds and the rest are
    -- (the server's threads of the clients' sessions), or why they are NULL
    ADD COLUMN IF NOT EXISTS cpu_note               text;

COMMENT ON COLUMN microbench.runs.cpu_user_seconds IS
    'user CPU of the processes that ran the statements, measured window only: in-server the workers (getrusage); over the wire the server''s backends or connection threads of the clients'' sessions (/proc, cpu_note)';
COMMENT ON COLUMN microbench.runs.cpu_system_seconds IS 'system CPU of the same processes';
COMMENT ON COLUMN microbench.runs.cpu_note IS
    'a run over the wire: what cpu_user_seconds, cpu_system_seconds and the context switches cover (the server''s backends or connection threads of the clients'' sessions, read in /proc at both ends of the window), or why they are NULL (a server on another host, --reconnect); NULL in-server, where they are the workers'' own';
COMMENT ON COLUMN microbench.runs.voluntary_cs IS 'voluntary context switches of the same processes';
COMMENT ON COLUMN microbench.runs.involuntary_cs IS 'involuntary context switches of the same processes';
COMMENT ON COLUMN microbench.runs.wal_records IS 'WAL records the workers wrote (pgWalUsage)';
COMMENT ON COLUMN microbench.runs.wal_fpi IS 'full-page images among them';
COMMENT ON COLUMN microbench.runs.wal_bytes IS 'WAL bytes the workers wrote';
COMMENT ON COLUMN microbench.runs.shared_blks_hit IS 'shared buffer hits of the workers (pgBufferUsage)';
COMMENT ON COLUMN microbench.runs.instructions IS
    'instructions retired by the workers (perf_event_open), or counted under valgrind as a CPU counts them (a REP-prefixed string instruction once per execution; instructions_counter says "REP once"); NULL when not counted, see hw_counters_note';
COMMENT ON COLUMN microbench.runs.instructions_valgrind IS
    'a run counted under valgrind: the same window''s instructions as valgrind counts them, a REP string instruction once per repetition (rep stosb of 8 KB: 8,192 where a CPU counts 1); never below instructions';
COMMENT ON COLUMN microbench.runs.cycles IS 'CPU cycles of the workers; NULL when not counted';
COMMENT ON COLUMN microbench.runs.instructions_counter IS
    'what counted instructions: perf_event (the hardware counter), or valgrind''s tool and version for a run made under valgrind, whose times say nothing of the build: "callgrind 3.19.0, REP once" counts a REP string instruction once as a CPU does, "callgrind 3.19.0" or "cachegrind 3.19.0" (older runs) once per repetition; a comparison never mixes two';
COMMENT ON COLUMN microbench.runs.client_pids IS
    'the operating-system processes that ran the clients'' events (in-server: the background workers), so that a count written per process (valgrind''s) can be read for them';
COMMENT ON COLUMN microbench.runs.i1_misses IS
    'counted runs with --cache-sim: misses of valgrind''s simulated first-level instruction cache (I1mr), the same window as instructions';
COMMENT ON COLUMN microbench.runs.d1_misses IS
    'the same for the first-level data cache, reads and writes (D1mr + D1mw)';
COMMENT ON COLUMN microbench.runs.ll_misses IS
    'the same for the simulated last-level cache, instructions and data (ILmr + DLmr + DLmw): the accesses that go to memory';
COMMENT ON COLUMN microbench.runs.estimated_cycles IS
    'L1 hits + 5 x LL hits + 35 x LL misses of the same counts (Turner-Trauring''s weights, docs/methodology.md): a model, not a clock';
COMMENT ON COLUMN microbench.runs.hw_counters_note IS
    'what the hardware counters cover (user and kernel mode, or user mode only), or why they are NULL';
COMMENT ON COLUMN microbench.runs.host_cpu_user_seconds IS
    'host-wide user+nice CPU seconds over all CPUs (/proc/stat), as vmstat''s us';
COMMENT ON COLUMN microbench.runs.host_cpu_system_seconds IS 'host-wide system+irq+softirq CPU seconds (vmstat sy)';
COMMENT ON COLUMN microbench.runs.host_cpu_iowait_seconds IS 'host-wide iowait CPU seconds (vmstat wa)';
COMMENT ON COLUMN microbench.runs.host_cpu_idle_seconds IS 'host-wide idle CPU seconds (vmstat id)';
COMMENT ON COLUMN microbench.runs.host_cpu_steal_seconds IS
    'host-wide CPU seconds the hypervisor gave to others (vmstat st): on a VM the other four add up to cores x window minus this';
COMMENT ON COLUMN microbench.runs.host_context_switches IS
    'context switches of every process on the host (/proc/stat ctxt), as vmstat''s cs';
COMMENT ON COLUMN microbench.runs.disk_device IS
    'the block device(s) holding the data directory and pg_wal (or the MySQL datadir), as in /proc/diskstats';
COMMENT ON COLUMN microbench.runs.disk_read_kb IS 'KB read from disk_device (/proc/diskstats), as iostat''s rkB';
COMMENT ON COLUMN microbench.runs.disk_write_kb IS 'KB written to disk_device, as iostat''s wkB';
COMMENT ON COLUMN microbench.runs.disk_note IS 'why the disk figures are NULL (no block device, remote server)';
COMMENT ON COLUMN microbench.runs.client_cpu_user_seconds IS
    'user CPU of the client threads of microbench-mysql over their measured events';
COMMENT ON COLUMN microbench.runs.client_cpu_system_seconds IS 'system CPU of the same threads';
COMMENT ON COLUMN microbench.runs.server_status IS
    'MySQL/MariaDB: SHOW GLOBAL STATUS counters that changed over the measured window, as deltas';
COMMENT ON COLUMN microbench.runs.functions IS
    'a counted run: each function that ran in its window, [object, function, self, inclusive, self_valgrind, inclusive_valgrind]: its object''s file name (postgres, mariadbd, libc.so.6, microbench.so: the extension), callgrind''s name (a function callgrind names by its address, having no symbol: "memcpy@plt" for a PLT stub, "(no symbol)" for the rest of its object''s), the window''s instructions in it (self) and in it and what it called (inclusive) as a CPU counts them, and the same as valgrind counts them (older runs have the first four only, valgrind''s); microbench.run_functions has them per query';

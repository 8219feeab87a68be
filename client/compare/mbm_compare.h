/*
 * mbm_compare.h — microbench compare, the comparison runner: the command
 * (mbm_compare.c) that the client's main runs.
 *
 * Its files, top first, each with a header of its own name and each using
 * only the files listed after it (test/unit/client_layout.sh checks this
 * order against what the objects use and the sources include):
 *   mbm_compare.c   the command: the request, what is made once, the rounds
 *   mbm_rounds.c    the schedule, and the rounds until every cell is decided
 *   mbm_count_round.c  a round's counted runs: each build's server
 *                   started under valgrind once for its reads and once
 *                   for each write
 *   mbm_count_sides.c  a round's counted runs with the builds side by
 *                   side, a process each
 *   mbm_turns.c     --turns: runs taking turns on servers up side by side
 *   mbm_run_one.c   one timed run on a fresh server start
 *   mbm_finish.c    every way out
 *   mbm_reports.c   the reports and the manifest
 *   mbm_fleet.c     a fleet's campaign: every run tagged with the campaign
 *                   and the host, and pushed to the central database
 *   mbm_request.c   the request and its checks
 *   mbm_kinds.c     the kinds of measured server, a table of operations
 *                   each: a build's inspection and facts, its server's
 *                   start, prewarm, timed run, counted window and stop
 *   mbm_count.c     a counted run on a server up under valgrind: the
 *                   instructions of its window
 *   mbm_setup.c     what is made once: the extension, the results database,
 *                   the pristine data
 *   mbm_measure.c   one measurement on a server that is up
 *   mbm_callgrind.c a dump of valgrind's callgrind, read
 *   mbm_machine.c   whether the machine was quiet
 *   mbm_labels.c    the labels as the reports name them
 *   mbm_state.c     what the steps above share: the limits, the builds, the
 *                   request, the progress, the servers up; say and refuse
 * and below them, knowing nothing of a comparison:
 *   mbm_myserver.c  a MariaDB or MySQL server binary, a data directory made
 *                   by install-db and the server on it
 *   mbm_pgserver.c  a Postgres installation, a data directory made by
 *                   initdb and the server on it
 *   mbm_proc.c      the processes the runner starts, supervised: each in
 *                   its own process group, pinned, stopped on every way
 *                   out; what every server gets
 *   mbm_files.c     where the runner's own files are: the extension's
 *                   sources and the source-build script, installed
 *   mbm_record.c    a run's record: the measurement's row parsed once,
 *                   what the steps add, written once (json-c)
 */
#ifndef MBM_COMPARE_H
#define MBM_COMPARE_H

/* microbench compare ...: argv[0] is "compare"; an exit code. */
extern int	mbm_compare_main(int argc, char **argv);

#endif							/* MBM_COMPARE_H */

/*
 * mb_cost.h — what a run cost: CPU, context switches, hardware counters of
 * a process or thread, and host-wide CPU and disk figures, each taken as a
 * snapshot at both ends of the measured window and subtracted.
 *
 * Both drivers use it: the extension in each background worker (its own
 * process) and in the coordinator (the host), the MySQL client for its own
 * process and, when the server is local, for the host.  Plain C99 on Linux:
 * getrusage(2), perf_event_open(2), /proc/stat and /proc/diskstats.
 *
 * Nothing here estimates.  A figure that cannot be counted — hardware
 * counters the kernel refuses, a data directory on no block device — is
 * reported as missing, with the reason, and stored as NULL.
 */
#ifndef MB_COST_H
#define MB_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CPU time and context switches of this process (or thread). */
typedef struct mb_rusage
{
	int64_t		user_us;
	int64_t		system_us;
	int64_t		voluntary_cs;
	int64_t		involuntary_cs;
} mb_rusage;

/* thread: RUSAGE_THREAD (one client thread) instead of RUSAGE_SELF */
extern void mb_rusage_take(mb_rusage *snap, bool thread);
extern void mb_rusage_delta(mb_rusage *out, const mb_rusage *end,
							const mb_rusage *start);

/*
 * Instructions and cycles retired by the calling thread, counted by the
 * kernel as one group so both cover the same time.  Kernel-mode counting
 * is asked for first; under perf_event_paranoid >= 2 only user mode is
 * allowed, and the note says so.
 */
typedef struct mb_hw_counters
{
	int			group_fd;		/* instructions; -1 when not counting */
	int			cycles_fd;
	bool		kernel_included;
	char		note[160];		/* why not counting, or what is counted */
} mb_hw_counters;

typedef struct mb_hw_snapshot
{
	bool		valid;			/* false: the kernel multiplexed or failed */
	uint64_t	instructions;
	uint64_t	cycles;
	uint64_t	time_enabled;
	uint64_t	time_running;
} mb_hw_snapshot;

/* Open the counters for the calling thread; false (and a note) if refused. */
extern bool mb_hw_open(mb_hw_counters *hw);
extern void mb_hw_read(const mb_hw_counters *hw, mb_hw_snapshot *snap);
extern void mb_hw_close(mb_hw_counters *hw);

/*
 * The difference of two snapshots.  False, with a note, when either is
 * invalid or the counters did not run all the time in between (the kernel
 * multiplexed them: the count would have to be scaled, i.e. estimated).
 */
extern bool mb_hw_delta(const mb_hw_snapshot *end, const mb_hw_snapshot *start,
						uint64_t *instructions, uint64_t *cycles,
						char *note, size_t notelen);

/*
 * Host-wide CPU time from /proc/stat's "cpu" line, in microseconds, and the
 * context switches of all processes ("ctxt"), as vmstat shows them.
 */
typedef struct mb_host_cpu
{
	bool		valid;
	int64_t		user_us;		/* user + nice */
	int64_t		system_us;		/* system + irq + softirq */
	int64_t		iowait_us;
	int64_t		idle_us;
	int64_t		steal_us;
	int64_t		context_switches;	/* "ctxt": vmstat's cs, summed */
} mb_host_cpu;

extern void mb_host_cpu_take(mb_host_cpu *snap);
extern void mb_host_cpu_delta(mb_host_cpu *out, const mb_host_cpu *end,
							  const mb_host_cpu *start);

/* One block device's counters from /proc/diskstats. */
typedef struct mb_disk
{
	bool		valid;
	char		device[64];
	int64_t		reads;			/* completed read operations */
	int64_t		read_sectors;	/* 512 bytes each, whatever the device */
	int64_t		writes;			/* completed write operations */
	int64_t		write_sectors;
} mb_disk;

/*
 * The block device holding path (the file system's device: a partition,
 * an md or dm device, or a whole disk), as named in /proc/diskstats.
 * False, with the reason in why, when there is none (tmpfs, overlayfs...).
 */
extern bool mb_disk_of_path(const char *path, char *device, size_t devlen,
							char *why, size_t whylen);
extern void mb_disk_take(const char *device, mb_disk *snap);
extern void mb_disk_delta(mb_disk *out, const mb_disk *end, const mb_disk *start);

#endif							/* MB_COST_H */

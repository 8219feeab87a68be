/*
 * mb_canary.h — a host-speed canary: a fixed, deterministic CPU-bound task
 * timed right before and right after a run's measured window.
 *
 * Steal time shows a hypervisor taking the CPU away; it does not show a
 * neighbour competing for caches and memory bandwidth, a CPU clocked down,
 * or a run landing on the slower of two unequal vCPUs.  The canary does:
 * the same work, timed the same way, should take the same time whenever
 * the machine is the same.  The reports set the canaries of two labels side
 * by side and warn when the machine was not the same for both.
 *
 * The work is two dependency chains, so its time is set by latencies the
 * compiler cannot shorten (and does not lengthen at -O0): a pointer chase
 * through a 2 MiB random cycle (cache and memory latency, shared with
 * neighbours) and a chain of integer multiply-adds (core speed).  On
 * x86-64 both loops are written in assembly, so that a Postgres built with
 * gcc and one built with clang (each compiling this file for its extension)
 * time the very same instructions.
 */
#ifndef MB_CANARY_H
#define MB_CANARY_H

/*
 * Time the task: the median of a few repetitions, in microseconds (about a
 * millisecond each on a current x86-64 core).  The first call builds the
 * pointer cycle (not timed).  Not thread-safe: one caller per process.
 */
extern double mb_canary_run_us(void);

#endif							/* MB_CANARY_H */

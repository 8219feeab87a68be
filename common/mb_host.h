/*
 * mb_host.h — facts about the machine a run happened on.
 *
 * Every run row records the host (name, CPU model, cores, memory, kernel)
 * so that ratios are only ever taken between comparable runs.  Both drivers
 * collect them the same way, from uname(2), sysconf(3) and /proc/cpuinfo.
 */
#ifndef MB_HOST_H
#define MB_HOST_H

#include <stdint.h>

typedef struct mb_host_facts
{
	char		hostname[256];
	char		cpu_model[256];	/* empty when /proc/cpuinfo has none */
	int			cpu_cores;		/* online logical CPUs */
	int64_t		memory_bytes;	/* physical memory */
	char		kernel[256];	/* "Linux 6.1.0-..." */
} mb_host_facts;

extern void mb_host_collect(mb_host_facts *facts);

#endif							/* MB_HOST_H */

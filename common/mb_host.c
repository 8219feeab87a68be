/*
 * mb_host.c — collect the host facts recorded with every run.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "mb_host.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The first "model name" line of /proc/cpuinfo, without the key. */
static void
read_cpu_model(char *out, size_t outlen)
{
	FILE	   *f = fopen("/proc/cpuinfo", "r");
	char		line[512];

	out[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
	{
		char	   *colon;
		size_t		len;

		if (strncmp(line, "model name", 10) != 0)
			continue;
		colon = strchr(line, ':');
		if (colon == NULL)
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		len = strcspn(colon, "\n");
		if (len >= outlen)
			len = outlen - 1;
		memcpy(out, colon, len);
		out[len] = '\0';
		break;
	}
	fclose(f);
}

void
mb_host_collect(mb_host_facts *facts)
{
	struct utsname uts;
	long		pages = sysconf(_SC_PHYS_PAGES);
	long		page_size = sysconf(_SC_PAGESIZE);

	memset(facts, 0, sizeof(*facts));
	if (gethostname(facts->hostname, sizeof(facts->hostname) - 1) != 0)
		facts->hostname[0] = '\0';
	read_cpu_model(facts->cpu_model, sizeof(facts->cpu_model));
	facts->cpu_cores = (int) sysconf(_SC_NPROCESSORS_ONLN);
	if (pages > 0 && page_size > 0)
		facts->memory_bytes = (int64_t) pages * page_size;
	if (uname(&uts) == 0)
		snprintf(facts->kernel, sizeof(facts->kernel), "%s %s",
				 uts.sysname, uts.release);
}

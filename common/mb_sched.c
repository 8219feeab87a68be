/*
 * mb_sched.c — CPU run and wait time from the kernel's schedstat files
 * (see mb_sched.h).
 */
#include "mb_sched.h"

#include <stdio.h>

bool
mb_sched_read(const char *path, mb_sched *out)
{
	FILE	   *f = fopen(path, "r");
	unsigned long long run_ns;
	unsigned long long wait_ns;
	int			got;

	if (f == NULL)
		return false;
	got = fscanf(f, "%llu %llu", &run_ns, &wait_ns);
	fclose(f);
	if (got != 2)
		return false;
	out->run_ns = run_ns;
	out->wait_ns = wait_ns;
	return true;
}

bool
mb_sched_self(mb_sched *out)
{
	return mb_sched_read("/proc/thread-self/schedstat", out);
}

void
mb_sched_add_delta(mb_sched *sum, const mb_sched *b, const mb_sched *a)
{
	sum->run_ns += b->run_ns >= a->run_ns ? b->run_ns - a->run_ns : 0;
	sum->wait_ns += b->wait_ns >= a->wait_ns ? b->wait_ns - a->wait_ns : 0;
}

double
mb_sched_wait_share(const mb_sched *d)
{
	uint64_t	total = d->run_ns + d->wait_ns;

	return total == 0 ? -1 : (double) d->wait_ns / (double) total;
}

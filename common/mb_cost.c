/*
 * mb_cost.c — snapshots of what a run costs (see mb_cost.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "mb_cost.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <unistd.h>

#ifdef __linux__
#include <linux/perf_event.h>
#endif

static int64_t
timeval_us(struct timeval tv)
{
	return (int64_t) tv.tv_sec * 1000000 + tv.tv_usec;
}

void
mb_rusage_take(mb_rusage *snap, bool thread)
{
	struct rusage ru;

#ifdef RUSAGE_THREAD
	if (getrusage(thread ? RUSAGE_THREAD : RUSAGE_SELF, &ru) != 0)
#else
	if (getrusage(RUSAGE_SELF, &ru) != 0)
#endif
		memset(&ru, 0, sizeof(ru));
	snap->user_us = timeval_us(ru.ru_utime);
	snap->system_us = timeval_us(ru.ru_stime);
	snap->voluntary_cs = ru.ru_nvcsw;
	snap->involuntary_cs = ru.ru_nivcsw;
}

void
mb_rusage_delta(mb_rusage *out, const mb_rusage *end, const mb_rusage *start)
{
	out->user_us = end->user_us - start->user_us;
	out->system_us = end->system_us - start->system_us;
	out->voluntary_cs = end->voluntary_cs - start->voluntary_cs;
	out->involuntary_cs = end->involuntary_cs - start->involuntary_cs;
}

/* ---- hardware counters ---------------------------------------------------- */

/* The kernel's perf_event_paranoid, or -99 if unreadable. */
static int
perf_paranoid(void)
{
	FILE	   *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int			level = -99;

	if (f != NULL)
	{
		if (fscanf(f, "%d", &level) != 1)
			level = -99;
		fclose(f);
	}
	return level;
}

#ifdef __linux__
static int
perf_open(uint64_t config, int group_fd, bool exclude_kernel)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_HARDWARE;
	attr.size = sizeof(attr);
	attr.config = config;
	attr.exclude_kernel = exclude_kernel;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
		PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* this thread, on any CPU */
	return (int) syscall(SYS_perf_event_open, &attr, 0, -1, group_fd,
						 PERF_FLAG_FD_CLOEXEC);
}
#endif

bool
mb_hw_open(mb_hw_counters *hw)
{
#ifdef __linux__
	int			err;

	hw->group_fd = hw->cycles_fd = -1;
	hw->kernel_included = true;
	hw->group_fd = perf_open(PERF_COUNT_HW_INSTRUCTIONS, -1, false);
	if (hw->group_fd < 0 && (errno == EACCES || errno == EPERM))
	{
		hw->kernel_included = false;
		hw->group_fd = perf_open(PERF_COUNT_HW_INSTRUCTIONS, -1, true);
	}
	if (hw->group_fd >= 0)
		hw->cycles_fd = perf_open(PERF_COUNT_HW_CPU_CYCLES, hw->group_fd,
								  !hw->kernel_included);
	if (hw->group_fd >= 0 && hw->cycles_fd >= 0)
	{
		if (hw->kernel_included)
			snprintf(hw->note, sizeof(hw->note), "user and kernel mode");
		else
			snprintf(hw->note, sizeof(hw->note),
					 "user mode only (perf_event_paranoid=%d)", perf_paranoid());
		return true;
	}

	err = errno;
	mb_hw_close(hw);
	if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == EINVAL)
		snprintf(hw->note, sizeof(hw->note),
				 "hardware counters are not supported here (perf_event_open: %s)",
				 strerror(err));
	else
		snprintf(hw->note, sizeof(hw->note),
				 "the kernel refused hardware counters (perf_event_open: %s; perf_event_paranoid=%d)",
				 strerror(err), perf_paranoid());
	return false;
#else
	hw->group_fd = hw->cycles_fd = -1;
	snprintf(hw->note, sizeof(hw->note), "hardware counters need Linux perf_event_open");
	return false;
#endif
}

void
mb_hw_read(const mb_hw_counters *hw, mb_hw_snapshot *snap)
{
	uint64_t	buf[5];			/* nr, time_enabled, time_running, 2 values */

	memset(snap, 0, sizeof(*snap));
	if (hw->group_fd < 0)
		return;
	if (read(hw->group_fd, buf, sizeof(buf)) != (ssize_t) sizeof(buf) || buf[0] != 2)
		return;
	snap->valid = true;
	snap->time_enabled = buf[1];
	snap->time_running = buf[2];
	snap->instructions = buf[3];
	snap->cycles = buf[4];
}

void
mb_hw_close(mb_hw_counters *hw)
{
	if (hw->cycles_fd >= 0)
		close(hw->cycles_fd);
	if (hw->group_fd >= 0)
		close(hw->group_fd);
	hw->group_fd = hw->cycles_fd = -1;
}

bool
mb_hw_delta(const mb_hw_snapshot *end, const mb_hw_snapshot *start,
			uint64_t *instructions, uint64_t *cycles, char *note, size_t notelen)
{
	if (!end->valid || !start->valid)
	{
		snprintf(note, notelen, "the hardware counters could not be read");
		return false;
	}
	if (end->time_running - start->time_running != end->time_enabled - start->time_enabled)
	{
		snprintf(note, notelen,
				 "the kernel multiplexed the hardware counters (ran %.1f%% of the time); not scaled",
				 100.0 * (end->time_running - start->time_running) /
				 (double) (end->time_enabled - start->time_enabled + 1));
		return false;
	}
	*instructions = end->instructions - start->instructions;
	*cycles = end->cycles - start->cycles;
	return true;
}

/* ---- host CPU --------------------------------------------------------------- */

void
mb_host_cpu_take(mb_host_cpu *snap)
{
	FILE	   *f = fopen("/proc/stat", "r");
	unsigned long long v[8] = {0};
	long		hz = sysconf(_SC_CLK_TCK);
	int64_t		us_per_tick;

	memset(snap, 0, sizeof(*snap));
	if (f == NULL || hz <= 0)
	{
		if (f)
			fclose(f);
		return;
	}
	/* cpu user nice system idle iowait irq softirq steal ... */
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) >= 7)
	{
		us_per_tick = 1000000 / hz;
		snap->valid = true;
		snap->user_us = (int64_t) (v[0] + v[1]) * us_per_tick;
		snap->system_us = (int64_t) (v[2] + v[5] + v[6]) * us_per_tick;
		snap->idle_us = (int64_t) v[3] * us_per_tick;
		snap->iowait_us = (int64_t) v[4] * us_per_tick;
		snap->steal_us = (int64_t) v[7] * us_per_tick;
	}
	/* ctxt comes after the per-CPU lines */
	if (snap->valid)
	{
		char		line[256];
		unsigned long long ctxt;

		snap->valid = false;
		while (fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "ctxt %llu", &ctxt) == 1)
			{
				snap->context_switches = (int64_t) ctxt;
				snap->valid = true;
				break;
			}
	}
	fclose(f);
}

void
mb_host_cpu_delta(mb_host_cpu *out, const mb_host_cpu *end, const mb_host_cpu *start)
{
	out->valid = end->valid && start->valid;
	out->user_us = end->user_us - start->user_us;
	out->system_us = end->system_us - start->system_us;
	out->iowait_us = end->iowait_us - start->iowait_us;
	out->idle_us = end->idle_us - start->idle_us;
	out->steal_us = end->steal_us - start->steal_us;
	out->context_switches = end->context_switches - start->context_switches;
}

/* ---- disks ------------------------------------------------------------------ */

bool
mb_disk_of_path(const char *path, char *device, size_t devlen,
				char *why, size_t whylen)
{
	struct stat st;
	FILE	   *f;
	char		line[512];
	unsigned int maj;
	unsigned int min;
	bool		found = false;

	device[0] = '\0';
	if (stat(path, &st) != 0)
	{
		snprintf(why, whylen, "cannot stat \"%s\": %s", path, strerror(errno));
		return false;
	}
	f = fopen("/proc/diskstats", "r");
	if (f == NULL)
	{
		snprintf(why, whylen, "cannot read /proc/diskstats: %s", strerror(errno));
		return false;
	}
	while (!found && fgets(line, sizeof(line), f) != NULL)
	{
		char		name[64];

		if (sscanf(line, "%u %u %63s", &maj, &min, name) == 3 &&
			maj == major(st.st_dev) && min == minor(st.st_dev))
		{
			snprintf(device, devlen, "%s", name);
			found = true;
		}
	}
	fclose(f);
	if (!found)
		snprintf(why, whylen,
				 "\"%s\" is on device %u:%u, which is not a block device in /proc/diskstats (tmpfs, overlayfs or similar)",
				 path, major(st.st_dev), minor(st.st_dev));
	return found;
}

void
mb_disk_take(const char *device, mb_disk *snap)
{
	FILE	   *f = fopen("/proc/diskstats", "r");
	char		line[512];

	memset(snap, 0, sizeof(*snap));
	snprintf(snap->device, sizeof(snap->device), "%s", device);
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
	{
		unsigned int maj;
		unsigned int min;
		char		name[64];
		unsigned long long reads, reads_merged, sectors_read, ms_reading;
		unsigned long long writes, writes_merged, sectors_written;

		if (sscanf(line, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu",
				   &maj, &min, name, &reads, &reads_merged, &sectors_read,
				   &ms_reading, &writes, &writes_merged, &sectors_written) == 10 &&
			strcmp(name, device) == 0)
		{
			snap->valid = true;
			snap->reads = (int64_t) reads;
			snap->read_sectors = (int64_t) sectors_read;
			snap->writes = (int64_t) writes;
			snap->write_sectors = (int64_t) sectors_written;
			break;
		}
	}
	fclose(f);
}

void
mb_disk_delta(mb_disk *out, const mb_disk *end, const mb_disk *start)
{
	memcpy(out->device, end->device, sizeof(out->device));
	out->valid = end->valid && start->valid;
	out->reads = end->reads - start->reads;
	out->read_sectors = end->read_sectors - start->read_sectors;
	out->writes = end->writes - start->writes;
	out->write_sectors = end->write_sectors - start->write_sectors;
}

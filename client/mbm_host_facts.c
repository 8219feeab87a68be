/*
 * mbm_host_facts.c — a host's facts as a fleet's results database keeps
 * them (results_schema/12_fleet.sql's host_facts): CPU model, sockets,
 * cores, threads, SMT, memory, kernel, OS, the storage device under a
 * directory, virtualisation and the machine id, as one JSON object.
 *
 * Read from what Linux shows every process (/proc/cpuinfo, /sys, uname,
 * /etc/os-release, /etc/machine-id), with no privilege; a fact the machine
 * does not show is left out rather than guessed.  Two hosts with the same
 * facts are told apart by their labels, not by these.
 */
#include "mbm.h"
#include "mbm_host_facts.h"
#include "mb_host.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

/* The first line of a file, without its newline; false when it cannot be read or is empty. */
static bool
first_line(const char *path, char *out, size_t outlen)
{
	FILE	   *f = fopen(path, "r");
	bool		ok;

	if (f == NULL)
		return false;
	ok = fgets(out, (int) outlen, f) != NULL;
	fclose(f);
	if (ok)
		out[strcspn(out, "\n")] = '\0';
	return ok && out[0] != '\0';
}

/*
 * Sockets and cores from /proc/cpuinfo's "physical id" and "core id" (the
 * distinct pairs), and whether the CPU says it runs under a hypervisor.
 */
static void
count_cpus(int *sockets, int *cores, bool *hypervisor)
{
	FILE	   *f = fopen("/proc/cpuinfo", "r");
	char		line[4096];
	int			ids[1024][2];
	int			n = 0,
				physical = -1,
				i;

	*sockets = *cores = 0;
	*hypervisor = false;
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
	{
		const char *colon = strchr(line, ':');

		if (colon == NULL)
			continue;
		if (strncmp(line, "physical id", 11) == 0)
			physical = atoi(colon + 1);
		else if (strncmp(line, "flags", 5) == 0 && strstr(colon, " hypervisor") != NULL)
			*hypervisor = true;
		else if (strncmp(line, "core id", 7) == 0 && physical >= 0 && n < 1024)
		{
			int			core = atoi(colon + 1);

			for (i = 0; i < n; i++)
				if (ids[i][0] == physical && ids[i][1] == core)
					break;
			if (i == n)
			{
				ids[n][0] = physical;
				ids[n][1] = core;
				n++;
			}
		}
	}
	fclose(f);
	*cores = n;
	for (i = 0; i < n; i++)
	{
		int			j;

		for (j = 0; j < i; j++)
			if (ids[j][0] == ids[i][0])
				break;
		if (j == i)
			(*sockets)++;
	}
}

/*
 * The block device a directory lives on, "vda (ssd)" or "sda ST4000 (hdd)",
 * its model when the kernel has one; a file system on no device by its
 * type (tmpfs, overlay).
 */
static void
storage_of(const char *dir, char *out, size_t outlen)
{
	struct stat st;
	struct statfs fs;
	char		path[PATH_MAX + 64],
				link[PATH_MAX],
				model[128] = "",
				rotational[8] = "";
	char	   *disk;
	ssize_t		len;

	out[0] = '\0';
	if (stat(dir, &st) != 0)
		return;
	if (major(st.st_dev) == 0)
	{
		if (statfs(dir, &fs) == 0)
			snprintf(out, outlen, "%s", fs.f_type == 0x01021994 ? "tmpfs" :
					 fs.f_type == 0x794c7630 ? "overlay" : "no block device");
		return;
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if ((len = readlink(path, link, sizeof(link) - 1)) < 0)
		return;
	link[len] = '\0';
	/* .../block/sda/sda1 for a partition: the disk is the parent */
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/partition");
	if (access(path, F_OK) == 0)
		*strrchr(link, '/') = '\0';
	disk = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	snprintf(path, sizeof(path), "/sys/block/%s/device/model", disk);
	first_line(path, model, sizeof(model));
	while (model[0] && model[strlen(model) - 1] == ' ')
		model[strlen(model) - 1] = '\0';
	snprintf(path, sizeof(path), "/sys/block/%s/queue/rotational", disk);
	first_line(path, rotational, sizeof(rotational));
	snprintf(out, outlen, "%s%s%s%s", disk, model[0] ? " " : "", model,
			 rotational[0] ? (rotational[0] == '1' ? " (hdd)" : " (ssd)") : "");
}

/* What the machine runs on: none, the hypervisor's vendor when it says, a container. */
static void
virtualization_of(bool hypervisor, char *out, size_t outlen)
{
	char		vendor[128] = "";
	bool		container = access("/.dockerenv", F_OK) == 0 ||
		access("/run/.containerenv", F_OK) == 0;

	if (hypervisor && !first_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor)))
		snprintf(vendor, sizeof(vendor), "a hypervisor");
	snprintf(out, outlen, "%s%s%s", hypervisor ? vendor : container ? "" : "none",
			 hypervisor && container ? ", " : "", container ? "container" : "");
}

/* PRETTY_NAME of /etc/os-release, unquoted. */
static void
os_of(char *out, size_t outlen)
{
	FILE	   *f = fopen("/etc/os-release", "r");
	char		line[512];

	out[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "PRETTY_NAME=", 12) == 0)
		{
			char	   *v = line + 12;

			v[strcspn(v, "\n")] = '\0';
			if (*v == '"')
				v++;
			if (*v && v[strlen(v) - 1] == '"')
				v[strlen(v) - 1] = '\0';
			snprintf(out, outlen, "%s", v);
			break;
		}
	fclose(f);
}

static void
json_field(FILE *f, bool *first, const char *key, const char *text)
{
	if (text == NULL || text[0] == '\0')
		return;
	fprintf(f, "%s", *first ? "" : ", ");
	*first = false;
	mbm_json_string(f, key);
	fputs(": ", f);
	mbm_json_string(f, text);
}

static void
json_number(FILE *f, bool *first, const char *key, long long v)
{
	if (v <= 0)
		return;
	fprintf(f, "%s", *first ? "" : ", ");
	*first = false;
	mbm_json_string(f, key);
	fprintf(f, ": %lld", v);
}

char *
mbm_host_facts_json(const char *data_dir, char *machine_id, size_t machine_id_len)
{
	mb_host_facts h;
	int			sockets,
				cores;
	bool		hypervisor,
				first = true;
	char		storage[PATH_MAX + 160],
				virt[160],
				os[256];
	char	   *json = NULL;
	size_t		len = 0;
	FILE	   *f = open_memstream(&json, &len);

	if (f == NULL)
		return NULL;
	mb_host_collect(&h);
	count_cpus(&sockets, &cores, &hypervisor);
	storage_of(data_dir, storage, sizeof(storage));
	virtualization_of(hypervisor, virt, sizeof(virt));
	os_of(os, sizeof(os));
	if (!first_line("/etc/machine-id", machine_id, machine_id_len))
		machine_id[0] = '\0';
	fputc('{', f);
	json_field(f, &first, "cpu_model", h.cpu_model);
	json_number(f, &first, "sockets", sockets);
	json_number(f, &first, "cores", cores);
	json_number(f, &first, "threads", h.cpu_cores);
	if (cores > 0)
	{
		fprintf(f, "%s\"smt\": %s", first ? "" : ", ", h.cpu_cores > cores ? "true" : "false");
		first = false;
	}
	json_number(f, &first, "memory_bytes", (long long) h.memory_bytes);
	json_field(f, &first, "kernel", h.kernel);
	json_field(f, &first, "os", os);
	json_field(f, &first, "storage", storage);
	json_field(f, &first, "virtualization", virt);
	fputc('}', f);
	if (fclose(f) != 0)
	{
		free(json);
		return NULL;
	}
	return json;
}

/*
 * mbm_fleet.c — a comparison run as one host of a fleet: every run tagged
 * with the campaign and the host (--campaign, --host-label, the host's
 * facts) and pushed to a central results database as it goes (--push).
 *
 * The tags go into the run's line before runs.jsonl keeps it, so the file
 * and the central database say the same: a host that could not reach the
 * central database pushes the file later with microbench load, and the
 * runs already there are skipped by their run_uid (results_schema/
 * 12_fleet.sql's push_run()).  A push that fails costs no measurement: the
 * run is in runs.jsonl, the runner says so once, tries to reconnect at most
 * once a minute (a lost host would make each try wait its connect timeout)
 * and says at the end how to push what was not taken.
 */
#include "mbm.h"
#include "mbm_fleet.h"
#include "mbm_host_facts.h"
#include "mbm_pgserver.h"
#include "mbm_state.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RECONNECT_EVERY_S 60

static struct
{
	char	   *tags;			/* ", \"host_label\": ..." appended to every line */
	char		host_label[256];	/* --host-label, or the hostname */
	PGconn	   *central;		/* --push, NULL while unreachable */
	time_t		failed_at;		/* the last failed push, 0: none */
	long		pushed;
	long		not_pushed;
}			fleet;

/* The comparison as a campaign's spec: what every host should run alike. */
static void
write_spec(FILE *f)
{
	int			i;

	fputs("{\"labels\": [", f);
	for (i = 0; i < rq.nall; i++)
	{
		fputs(i ? ", " : "", f);
		mbm_json_string(f, rq.all[i].label);
	}
	fputs("], \"workloads\": [", f);
	for (i = 0; i < rq.nworkloads; i++)
	{
		fputs(i ? ", " : "", f);
		mbm_json_string(f, rq.workloads[i]);
	}
	fputs("], \"sets\": [", f);
	for (i = 0; i < rq.nsets; i++)
	{
		fputs(i ? ", " : "", f);
		mbm_json_string(f, rq.sets[i]);
	}
	fprintf(f, "], \"metric\": \"%s\", \"path\": \"%s\", \"rounds\": %d, \"seconds\": %g,"
			" \"warmup\": %g, \"table_size\": %lld, \"tables\": %d, \"clients\": %d,"
			" \"threshold\": %g}",
			rq.timed && rq.counted ? "both" : rq.counted ? "instructions" : "qps",
			mbm_path_text(&rq), rq.rounds, rq.seconds, rq.warmup, rq.table_size, rq.tables,
			rq.clients, rq.threshold);
}

/* The tags every line gets: host, machine id, facts, and the campaign when there is one. */
static int
make_tags(char *err, size_t errlen)
{
	char		machine_id[128];
	char	   *facts = mbm_host_facts_json(progress.workdir, machine_id, sizeof(machine_id));
	size_t		len = 0;
	FILE	   *f = open_memstream(&fleet.tags, &len);

	if (facts == NULL || f == NULL)
	{
		free(facts);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (rq.host_label)
		snprintf(fleet.host_label, sizeof(fleet.host_label), "%s", rq.host_label);
	else if (gethostname(fleet.host_label, sizeof(fleet.host_label) - 1) != 0)
		snprintf(fleet.host_label, sizeof(fleet.host_label), "localhost");
	fputs(", \"host_label\": ", f);
	mbm_json_string(f, fleet.host_label);
	if (machine_id[0])
	{
		fputs(", \"machine_id\": ", f);
		mbm_json_string(f, machine_id);
	}
	fprintf(f, ", \"host_facts\": %s", facts);
	free(facts);
	if (rq.campaign)
	{
		fputs(", \"campaign\": ", f);
		mbm_json_string(f, rq.campaign);
		fputs(", \"campaign_spec\": ", f);
		write_spec(f);
	}
	if (fclose(f) != 0)
	{
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int
mbm_fleet_start(char *err, size_t errlen)
{
	char		why[512];
	bool		no_schema;

	if (make_tags(err, errlen) != 0)
		return -1;
	if (rq.push == NULL)
		return 0;
	if ((fleet.central = mbm_push_connect(rq.push, &no_schema, why, sizeof(why))) == NULL)
	{
		/* a schema missing is the admin's to fix before anything runs; a host down may come back */
		if (no_schema)
		{
			snprintf(err, errlen, "--push: %s", why);
			return -1;
		}
		say("--push: %s; the runs stay in %s/runs.jsonl and are pushed when it answers again",
			why, rq.out);
		fleet.failed_at = time(NULL);
	}
	return 0;
}

char *
mbm_fleet_tag(const char *line)
{
	const char *end = strrchr(line, '}');
	char	   *tagged;

	if (end == NULL || fleet.tags == NULL ||
		asprintf(&tagged, "%.*s%s}", (int) (end - line), line, fleet.tags) < 0)
		return strdup(line);
	return tagged;
}

void
mbm_fleet_push(const char *line)
{
	const char *params[1] = {line};
	char		err[512];
	bool		no_schema;

	if (rq.push == NULL)
		return;
	if (fleet.central == NULL && time(NULL) - fleet.failed_at >= RECONNECT_EVERY_S &&
		(fleet.central = mbm_push_connect(rq.push, &no_schema, err, sizeof(err))) == NULL)
		fleet.failed_at = time(NULL);
	if (fleet.central != NULL &&
		mbm_pg_exec(fleet.central, "SELECT microbench.push_run($1::jsonb)", 1, params, NULL, 0,
					err, sizeof(err)) == 0)
	{
		fleet.pushed++;
		return;
	}
	if (fleet.central != NULL)
	{
		say("--push: the central database did not take a run (%s); it is in %s/runs.jsonl",
			err, rq.out);
		PQfinish(fleet.central);
		fleet.central = NULL;
		fleet.failed_at = time(NULL);
	}
	fleet.not_pushed++;
}

void
mbm_fleet_manifest(FILE *f)
{
	if (rq.campaign == NULL)
		return;
	fputs("  \"fleet\": {\"campaign\": ", f);
	mbm_json_string(f, rq.campaign);
	fputs(", \"host_label\": ", f);
	mbm_json_string(f, fleet.host_label);
	fprintf(f, ", \"pushed\": %ld, \"not_pushed\": %ld},\n", fleet.pushed, fleet.not_pushed);
}

void
mbm_fleet_finish(void)
{
	if (rq.push == NULL)
		return;
	if (fleet.not_pushed == 0)
		printf("pushed %ld run%s to the central database (--push)\n", fleet.pushed,
			   fleet.pushed == 1 ? "" : "s");
	else
	{
		char		file[1100];

		printf("pushed %ld run%s to the central database; %ld were not taken: push them with\n"
			   "  microbench load ", fleet.pushed, fleet.pushed == 1 ? "" : "s", fleet.not_pushed);
		snprintf(file, sizeof(file), "%s/runs.jsonl", rq.out);
		mbm_print_shell_word(file);
		printf(" --results-db=");
		mbm_print_shell_word(rq.push);
		printf("\n(the runs already there are skipped)\n");
	}
	PQfinish(fleet.central);
	fleet.central = NULL;
}

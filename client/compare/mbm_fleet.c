/*
 * mbm_fleet.c — a comparison run as one host of a fleet: every run tagged
 * with the campaign and the host (--campaign, --host-label, the host's
 * facts) and pushed to a central results database as it goes (--push).
 *
 * The tags go into the run's record before runs.jsonl keeps it, so the file
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

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RECONNECT_EVERY_S 60

static struct
{
	json_object *tags;			/* the members every run's record gets */
	char		host_label[256];	/* --host-label, or the hostname */
	PGconn	   *central;		/* --push, NULL while unreachable */
	time_t		failed_at;		/* the last failed push, 0: none */
	long		pushed;
	long		not_pushed;
}			fleet;

/* An array of JSON strings from n C strings. */
static json_object *
string_array(const char *const *v, int n)
{
	json_object *a = json_object_new_array();
	int			i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

/* The comparison as a campaign's spec: what every host should run alike. */
static json_object *
campaign_spec(void)
{
	json_object *spec = json_object_new_object();
	const char *labels[MAX_BUILDS];
	char		number[32];
	int			i;

	for (i = 0; i < rq.nall; i++)
		labels[i] = rq.all[i].label;
	json_object_object_add(spec, "labels", string_array(labels, rq.nall));
	json_object_object_add(spec, "workloads", string_array(rq.workloads, rq.nworkloads));
	json_object_object_add(spec, "sets", string_array((const char *const *) rq.sets, rq.nsets));
	json_object_object_add(spec, "metric", json_object_new_string(rq.timed && rq.counted ? "both" :
																  rq.counted ? "instructions" : "qps"));
	json_object_object_add(spec, "path", json_object_new_string(mbm_path_text(&rq)));
	json_object_object_add(spec, "rounds", json_object_new_int(rq.rounds));
	/* numbers given as options keep the text %g gives them */
	snprintf(number, sizeof(number), "%g", rq.seconds);
	json_object_object_add(spec, "seconds", json_object_new_double_s(rq.seconds, number));
	snprintf(number, sizeof(number), "%g", rq.warmup);
	json_object_object_add(spec, "warmup", json_object_new_double_s(rq.warmup, number));
	json_object_object_add(spec, "table_size", json_object_new_int64(rq.table_size));
	json_object_object_add(spec, "tables", json_object_new_int(rq.tables));
	json_object_object_add(spec, "clients", json_object_new_int(rq.clients));
	snprintf(number, sizeof(number), "%g", rq.threshold);
	json_object_object_add(spec, "threshold", json_object_new_double_s(rq.threshold, number));
	return spec;
}

/* The tags every run gets: host, machine id, facts, and the campaign when there is one. */
static int
make_tags(char *err, size_t errlen)
{
	char		machine_id[128];
	char	   *facts = mbm_host_facts_json(progress.workdir, machine_id, sizeof(machine_id));
	json_object *facts_doc = facts ? json_tokener_parse(facts) : NULL;

	free(facts);
	if (facts_doc == NULL)
	{
		snprintf(err, errlen, "the host's facts could not be read");
		return -1;
	}
	if (rq.host_label)
		snprintf(fleet.host_label, sizeof(fleet.host_label), "%s", rq.host_label);
	else if (gethostname(fleet.host_label, sizeof(fleet.host_label) - 1) != 0)
		snprintf(fleet.host_label, sizeof(fleet.host_label), "localhost");
	fleet.tags = json_object_new_object();
	json_object_object_add(fleet.tags, "host_label", json_object_new_string(fleet.host_label));
	if (machine_id[0])
		json_object_object_add(fleet.tags, "machine_id", json_object_new_string(machine_id));
	json_object_object_add(fleet.tags, "host_facts", facts_doc);
	if (rq.campaign)
	{
		json_object_object_add(fleet.tags, "campaign", json_object_new_string(rq.campaign));
		json_object_object_add(fleet.tags, "campaign_spec", campaign_spec());
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

void
mbm_fleet_tag(mbm_record *rec)
{
	if (fleet.tags)
		mbm_record_add_all(rec, fleet.tags);
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

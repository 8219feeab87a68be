/*
 * mbm_fleet.h — a comparison as one host of a fleet: its runs tagged with
 * the campaign and host, and pushed to a central database (mbm_fleet.c).
 */
#ifndef MBM_FLEET_H
#define MBM_FLEET_H

#include <stddef.h>
#include <stdio.h>

#include "mbm_record.h"

/* Before the first run: the tags made, --push's database reached if it answers; 0, or -1 with err. */
extern int	mbm_fleet_start(char *err, size_t errlen);

/* The tags (host, machine, facts, campaign) added to a run's record; none without them. */
extern void mbm_fleet_tag(mbm_record *rec);

/* A tagged line into --push's database, when given; a failure is said and counted, never fatal. */
extern void mbm_fleet_push(const char *line);

/* The manifest's "fleet" line: campaign, host label, runs pushed and not (nothing without --campaign). */
extern void mbm_fleet_manifest(FILE *f);

/* At the end: how many runs were pushed, and how to push the rest. */
extern void mbm_fleet_finish(void);

#endif							/* MBM_FLEET_H */

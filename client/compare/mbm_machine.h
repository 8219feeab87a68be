/*
 * mbm_machine.h — whether the machine was quiet (mbm_machine.c), checked
 * between rounds and during every run.
 */
#ifndef MBM_MACHINE_H
#define MBM_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct mbm_machine_reading mbm_machine_reading;
/* The CPUs and processes now: the start of a stretch mbm_machine_end closes (and frees). */
extern mbm_machine_reading *mbm_machine_begin(void);
/* The share of a CPU others took since begin (server_group: the server's, or 0), a note naming them. */
extern double mbm_machine_end(mbm_machine_reading *before, pid_t server_group, char *note, size_t notelen);
extern void mbm_machine_free(mbm_machine_reading *r);
/* Whether a run with that share of a CPU taken by others was busy. */
extern bool mbm_machine_busy(double share);
/* Counts a timed run (what: "pg update-index round 2 b") for the report's first line. */
extern void mbm_machine_note_run(const char *what, double share, const char *note);
/* The fixed task timed on the servers' CPUs: whether quiet; prints a line. */
extern bool mbm_machine_check(int before_round);
/* --wait-quiet: check until quiet, at most minutes. */
extern void mbm_machine_wait_quiet(double minutes);
/* "machine: quiet (+-1.0%...)" or "machine: busy (...)". */
extern void mbm_machine_header(char *buf, size_t len);
/* The manifest's "machine" member, a line ending with a comma. */
extern void mbm_machine_manifest(FILE *f);

#endif							/* MBM_MACHINE_H */

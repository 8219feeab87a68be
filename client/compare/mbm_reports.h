/*
 * mbm_reports.h — what microbench compare leaves in --out (mbm_reports.c):
 * the report files, the failed runs under them, the manifest.
 */
#ifndef MBM_REPORTS_H
#define MBM_REPORTS_H

/* The reports from the results database, the runs that failed under them. */
extern void mbm_reports_write(void);
/* manifest.json: what ran, in which order, on which machine. */
extern void mbm_manifest_write(void);

#endif							/* MBM_REPORTS_H */

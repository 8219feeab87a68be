/*
 * mbm_finish.h — every way out of microbench compare (mbm_finish.c): the
 * servers stopped, the reports and the manifest written, the work
 * directory removed, then exit.
 */
#ifndef MBM_FINISH_H
#define MBM_FINISH_H

/* Stop the servers, write the reports and manifest, remove the work directory, exit with code. */
extern void mbm_finish(const char *status, int code) __attribute__((noreturn));
/* After a stop signal: mbm_finish() with 128 + its number; else nothing. */
extern void mbm_stop_if_signalled(void);

#endif							/* MBM_FINISH_H */

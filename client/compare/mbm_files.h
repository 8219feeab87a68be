/*
 * mbm_files.h — where the runner's own files are (mbm_files.c): the
 * extension's and the results schema's sources it builds into each
 * Postgres build, and the source-build script of `compare build`.  Below
 * the runner's other files: it knows nothing of a comparison.
 */
#ifndef MBM_FILES_H
#define MBM_FILES_H

#include <stddef.h>

/*
 * Find the runner's files: the share directory of the installation this
 * program runs from (BINDIR/../share/microbench, as make install lays it
 * out), else the source tree it was built in, when it runs from there
 * (client/microbench).  0, or -1 with err set saying where it looked.
 */
extern int	mbm_files_find(char *err, size_t errlen);

/*
 * The directory holding common/, extension/ and results_schema/, as the
 * source tree has them; valid after mbm_files_find() succeeded.
 */
extern const char *mbm_files_sources(void);

/* The source-build script, microbench-build; valid after mbm_files_find(). */
extern const char *mbm_files_build_script(void);

#endif							/* MBM_FILES_H */

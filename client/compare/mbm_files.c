/*
 * mbm_files.c — where the runner's own files are.  The runner builds this
 * project's extension into every Postgres build it compares, so it needs
 * the extension's sources, not only a compiled library; and `compare
 * build` runs a script.  Both are found from the program's own path, never
 * from a path compiled in: an installation can be moved (DESTDIR, a
 * package) and a clone removed after make install.
 */
#include "mbm_files.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char sources[PATH_MAX];
static char build_script[PATH_MAX + 64];

/* Whether dir holds the sources the runner builds: the extension's control file tells. */
static int
holds_sources(const char *dir)
{
	char		path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/extension/microbench.control", dir);
	return access(path, R_OK) == 0;
}

int
mbm_files_find(char *err, size_t errlen)
{
	char		exe[PATH_MAX];
	char		candidate[PATH_MAX + 64];
	char	   *slash;
	ssize_t		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
	{
		snprintf(err, errlen, "cannot tell where this program is (/proc/self/exe)");
		return -1;
	}
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')) != NULL)
		*slash = '\0';			/* exe is now the program's directory */

	/* installed: PREFIX/bin/microbench and PREFIX/share/microbench */
	snprintf(candidate, sizeof(candidate), "%s/../share/microbench", exe);
	if (holds_sources(candidate) && realpath(candidate, sources) != NULL)
	{
		snprintf(build_script, sizeof(build_script), "%s/microbench-build", sources);
		return 0;
	}
	/* run from the source tree it was built in: TREE/client/microbench */
	snprintf(candidate, sizeof(candidate), "%s/..", exe);
	if (holds_sources(candidate) && realpath(candidate, sources) != NULL)
	{
		snprintf(build_script, sizeof(build_script), "%s/client/compare/microbench-build", sources);
		return 0;
	}
	snprintf(err, errlen,
			 "the runner's files are in neither %s/../share/microbench nor a source tree around %s: "
			 "run make install again", exe, exe);
	return -1;
}

const char *
mbm_files_sources(void)
{
	return sources;
}

const char *
mbm_files_build_script(void)
{
	return build_script;
}

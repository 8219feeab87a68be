/*
 * mb_version.c — the library refuses to run under SQL definitions of another
 * version, and says which compiler built it.
 *
 * After a package upgrade the new shared library can meet the functions an
 * older CREATE EXTENSION declared (bench_run once took 11 arguments, now 16).
 * Rather than guess from argument counts, every entry point asks once which
 * version of the extension's script is installed and, when it is not the one
 * this library was built for, fails with a hint to run ALTER EXTENSION
 * microbench UPDATE.  Symbols that only older scripts reference stay here as
 * stubs, so that CREATE EXTENSION microbench VERSION '0.1' (the start of
 * every upgrade path) still finds them.
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "commands/extension.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/rel.h"

#include "mb_shared.h"

PG_FUNCTION_INFO_V1(bench_suite_plan);

/*
 * The compiler that built this library, as every run records it
 * (harness_compiler) and as microbench compare finds it in the library's
 * bytes, behind the marker, to build every build's harness with one
 * compiler: "gcc " and gcc's __VERSION__, or clang's own __VERSION__.
 */
#define MB_HARNESS_MARKER "microbench harness compiler: "
#if defined(__clang__)
static const char harness_marker[] = MB_HARNESS_MARKER __VERSION__;
#else
static const char harness_marker[] = MB_HARNESS_MARKER "gcc " __VERSION__;
#endif

const char *
mb_harness_compiler(void)
{
	return harness_marker + strlen(MB_HARNESS_MARKER);
}

/* the pg_extension row whose version was found right, if any */
static Oid	checked_extension = InvalidOid;

/*
 * The installed extversion of microbench, or NULL when it is not installed
 * (a library loaded by hand).
 */
static char *
installed_version(Oid extoid)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	char	   *version = NULL;

	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber,
				F_OIDEQ, ObjectIdGetDatum(extoid));
	scan = systable_beginscan(rel, ExtensionOidIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
	{
		bool		isnull;
		Datum		datum = heap_getattr(tuple, Anum_pg_extension_extversion,
										 RelationGetDescr(rel), &isnull);

		if (!isnull)
			version = text_to_cstring(DatumGetTextPP(datum));
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return version;
}

void
mb_check_sql_version(void)
{
	Oid			extoid = get_extension_oid("microbench", true);
	char	   *version;

	/* the same pg_extension row cannot go back to an older version */
	if (OidIsValid(extoid) && extoid == checked_extension)
		return;
	if (!OidIsValid(extoid))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("extension \"microbench\" is not installed in this database"),
				 errhint("CREATE EXTENSION microbench;")));
	version = installed_version(extoid);
	if (version == NULL || strcmp(version, MB_EXTVERSION) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("microbench's SQL definitions are version %s, but its library is version %s",
						version ? version : "(unknown)", MB_EXTVERSION),
				 errhint("Run ALTER EXTENSION microbench UPDATE; (results are kept).")));
	checked_extension = extoid;
}

/*
 * bench_suite_plan() was C in version 0.1; 0.2 computes it in SQL.  Kept so
 * that version 0.1 can still be created, and then updated.
 */
Datum
bench_suite_plan(PG_FUNCTION_ARGS)
{
	mb_check_sql_version();
	/* not reached: no 0.2 script declares this symbol */
	PG_RETURN_NULL();
}

/*
 * mb_prewarm.c — bench_prewarm(tables) and microbench_prewarm(relation):
 * every block of the sbtest tables and their indexes, or of one relation,
 * every fork, read into shared buffers.
 *
 * A counted run (microbench compare --metric instructions) must count the
 * work of its queries, not of the first touch of pages a fresh server has
 * never read: the runner calls bench_prewarm() right after a server
 * starts.  The tables are found as bench_run finds them, sbtest1 on the
 * caller's search_path and sbtest2..N beside it.  The blocks
 * go through the buffer manager's default strategy, block by block, so that
 * they stay (a sequential scan of a large table would recycle a small ring
 * of buffers instead).  The visibility map and free space map are read too:
 * index-only scans read the one, inserts and updates the other.
 */
#include "postgres.h"

#include "access/relation.h"
#include "catalog/index.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "fmgr.h"
#include "nodes/pg_list.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "mb_shared.h"

PG_FUNCTION_INFO_V1(microbench_prewarm);
PG_FUNCTION_INFO_V1(bench_prewarm);

/* Every block of every fork of relation relid read into shared buffers: how many. */
static int64
prewarm_relation(Oid relid)
{
	Relation	rel;
	Oid			checked;
	AclResult	acl;
	int64		blocks = 0;
	ForkNumber	fork;

	rel = relation_open(relid, AccessShareLock);
	if (rel->rd_rel->relkind != RELKIND_RELATION && rel->rd_rel->relkind != RELKIND_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table or an index", RelationGetRelationName(rel))));

	/* an index is read by whoever may read its table */
	checked = rel->rd_rel->relkind == RELKIND_INDEX ? IndexGetRelation(relid, false) : relid;
	acl = pg_class_aclcheck(checked, GetUserId(), ACL_SELECT);
	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, OBJECT_TABLE, get_rel_name(checked));

	for (fork = MAIN_FORKNUM; fork <= MAX_FORKNUM; fork++)
	{
		BlockNumber nblocks;
		BlockNumber block;

		if (!smgrexists(RelationGetSmgr(rel), fork))
			continue;
		nblocks = RelationGetNumberOfBlocksInFork(rel, fork);
		for (block = 0; block < nblocks; block++)
		{
			CHECK_FOR_INTERRUPTS();
			ReleaseBuffer(ReadBufferExtended(rel, fork, block, RBM_NORMAL, NULL));
			blocks++;
		}
	}
	relation_close(rel, AccessShareLock);
	return blocks;
}

Datum
microbench_prewarm(PG_FUNCTION_ARGS)
{
	mb_check_sql_version();
	PG_RETURN_INT64(prewarm_relation(PG_GETARG_OID(0)));
}

Datum
bench_prewarm(PG_FUNCTION_ARGS)
{
	Oid			first = RelnameGetRelid("sbtest1");
	Oid			namespace_id;
	int			wanted = PG_ARGISNULL(0) ? 0 : PG_GETARG_INT32(0);
	int64		blocks = 0;
	int			n;

	mb_check_sql_version();
	if (!PG_ARGISNULL(0) && wanted < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("tables must be positive, not %d", wanted)));
	if (!OidIsValid(first))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table \"sbtest1\" does not exist in the search path"),
				 errhint("Run SELECT bench_prepare(); to create and load the sbtest tables.")));
	namespace_id = get_rel_namespace(first);
	for (n = 1; wanted == 0 || n <= wanted; n++)
	{
		char		relname[NAMEDATALEN];
		Oid			relid;
		Relation	rel;
		List	   *indexes;
		ListCell   *lc;

		snprintf(relname, sizeof(relname), "sbtest%d", n);
		relid = get_relname_relid(relname, namespace_id);
		if (!OidIsValid(relid))
			break;
		blocks += prewarm_relation(relid);
		rel = relation_open(relid, AccessShareLock);
		indexes = RelationGetIndexList(rel);
		relation_close(rel, AccessShareLock);
		foreach(lc, indexes)
			blocks += prewarm_relation(lfirst_oid(lc));
	}
	if (wanted > 0 && n <= wanted)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("tables => %d asks for more sbtest tables than the %d in schema \"%s\"",
						wanted, n - 1, get_namespace_name(namespace_id)),
				 errhint("Run SELECT bench_prepare(%d); or ask for fewer tables.", wanted)));
	PG_RETURN_INT64(blocks);
}

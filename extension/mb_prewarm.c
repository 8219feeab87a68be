/*
 * mb_prewarm.c — microbench_prewarm(relation): every block of a relation,
 * every fork of it, read into shared buffers.
 *
 * A counted run (microbench compare --metric instructions) must count the
 * work of its queries, not of the first touch of pages a fresh server has
 * never read: bench_prewarm() (microbench_functions.sql) calls this for the
 * sbtest tables and their indexes right after a server starts.  The blocks
 * go through the buffer manager's default strategy, block by block, so that
 * they stay (a sequential scan of a large table would recycle a small ring
 * of buffers instead).  The visibility map and free space map are read too:
 * index-only scans read the one, inserts and updates the other.
 */
#include "postgres.h"

#include "access/relation.h"
#include "catalog/index.h"
#include "catalog/pg_class.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "mb_shared.h"

PG_FUNCTION_INFO_V1(microbench_prewarm);

Datum
microbench_prewarm(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	Relation	rel;
	Oid			checked;
	AclResult	acl;
	int64		blocks = 0;
	ForkNumber	fork;

	mb_check_sql_version();
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
	PG_RETURN_INT64(blocks);
}

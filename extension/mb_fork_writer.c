/*
 * mb_fork_writer.c — writes the pages of one fork of a new relation past
 * shared buffers, WAL-logged and made durable.
 *
 * Postgres 17 and later have an API for exactly this, the bulk writer
 * (storage/bulk_write.h, which nbtsort.c and CLUSTER use): there this file
 * is a thin wrapper around it.  Postgres 15 has none, so the same protocol
 * is followed here, as nbtsort.c of that release does by hand:
 *
 * - pages are queued and WAL-logged as full-page images, XLR_MAX_BLOCK_ID
 *   to a record (log_newpages), before any of them reaches the file;
 * - then written in block order, extending the file, with zero pages over
 *   any gap (an index's upper levels are finished after leaves with higher
 *   block numbers);
 * - at the end the fork is registered with the checkpointer for fsync, or
 *   synced at once if a checkpoint began meanwhile: its redo point may lie
 *   after some of the records, so replay would not restore those pages.
 *   DELAY_CHKPT_START keeps a checkpoint from starting between the check
 *   and the registration.
 *
 * Either way nothing else may touch the fork through shared buffers while
 * it is written: the loader only writes relations that no other backend can
 * see yet.
 */
#include "postgres.h"

#include "mb_direct_pages.h"

#ifdef MB_DIRECT_PAGES

#include "access/xlog.h"
#include "access/xloginsert.h"
#include "storage/bufpage.h"
#include "storage/proc.h"
#include "storage/smgr.h"
#include "storage/sync.h"

#if PG_VERSION_NUM >= 170000
#include "storage/bulk_write.h"
#endif

#include "mb_fork_writer.h"

#if PG_VERSION_NUM >= 170000

struct mb_fork_writer
{
	BulkWriteState *bulk;
};

mb_fork_writer *
mb_fork_writer_begin(mb_rel_locator locator, ForkNumber fork, bool use_wal)
{
	mb_fork_writer *fw = palloc(sizeof(mb_fork_writer));

	fw->bulk = smgr_bulk_start_smgr(smgropen(locator, INVALID_PROC_NUMBER), fork, use_wal);
	return fw;
}

void
mb_fork_writer_write(mb_fork_writer *fw, BlockNumber block, const char *page, bool page_std)
{
	BulkWriteBuffer buf = smgr_bulk_get_buf(fw->bulk);

	memcpy(buf->data, page, BLCKSZ);
	smgr_bulk_write(fw->bulk, block, buf, page_std);
}

void
mb_fork_writer_finish(mb_fork_writer *fw)
{
	smgr_bulk_finish(fw->bulk);
	pfree(fw);
}

#else							/* Postgres 15 */

/* pages queued before they are logged together and written */
#define MB_FW_PENDING XLR_MAX_BLOCK_ID

struct mb_fork_writer
{
	mb_rel_locator locator;
	ForkNumber	fork;
	bool		use_wal;
	XLogRecPtr	start_redo;		/* the redo pointer when writing began */
	BlockNumber nblocks;		/* how far the file extends */
	int			npending;
	bool		pending_std;	/* every queued page has the standard layout */
	BlockNumber blocks[MB_FW_PENDING];
	char	   *pages;			/* MB_FW_PENDING pages, queued in any order */
	char	   *zero_page;
};

/*
 * The relation's storage, opened afresh at each use: a relcache flush may
 * have closed the one seen last time.
 */
static SMgrRelation
fork_smgr(mb_fork_writer *fw)
{
	return smgropen(fw->locator, InvalidBackendId);
}

mb_fork_writer *
mb_fork_writer_begin(mb_rel_locator locator, ForkNumber fork, bool use_wal)
{
	mb_fork_writer *fw = palloc0(sizeof(mb_fork_writer));

	fw->locator = locator;
	fw->fork = fork;
	fw->use_wal = use_wal;
	fw->start_redo = GetRedoRecPtr();
	fw->nblocks = smgrnblocks(fork_smgr(fw), fork);
	fw->pending_std = true;
	fw->pages = palloc((Size) MB_FW_PENDING * BLCKSZ);
	fw->zero_page = palloc0(BLCKSZ);
	return fw;
}

/* Logs the queued pages in one record, then writes them in block order. */
static void
flush_pending(mb_fork_writer *fw)
{
	int			order[MB_FW_PENDING];
	BlockNumber blocks[MB_FW_PENDING];
	Page		pages[MB_FW_PENDING];
	SMgrRelation smgr;
	int			n = fw->npending;
	int			i;

	if (n == 0)
		return;
	/* insertion sort: at most 32 pages, nearly always in order already */
	for (i = 0; i < n; i++)
	{
		int			j = i;

		while (j > 0 && fw->blocks[order[j - 1]] > fw->blocks[i])
		{
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (i = 0; i < n; i++)
	{
		blocks[i] = fw->blocks[order[i]];
		pages[i] = fw->pages + (Size) order[i] * BLCKSZ;
	}
	if (fw->use_wal)
		log_newpages(&fw->locator, fw->fork, n, blocks, pages, fw->pending_std);

	smgr = fork_smgr(fw);
	for (i = 0; i < n; i++)
	{
		PageSetChecksumInplace(pages[i], blocks[i]);
		if (blocks[i] < fw->nblocks)
		{
			smgrwrite(smgr, fw->fork, blocks[i], pages[i], true);
			continue;
		}
		while (fw->nblocks < blocks[i])
			smgrextend(smgr, fw->fork, fw->nblocks++, fw->zero_page, true);
		smgrextend(smgr, fw->fork, blocks[i], pages[i], true);
		fw->nblocks++;
	}
	fw->npending = 0;
	fw->pending_std = true;
}

void
mb_fork_writer_write(mb_fork_writer *fw, BlockNumber block, const char *page, bool page_std)
{
	memcpy(fw->pages + (Size) fw->npending * BLCKSZ, page, BLCKSZ);
	fw->blocks[fw->npending++] = block;
	fw->pending_std &= page_std;
	if (fw->npending == MB_FW_PENDING)
		flush_pending(fw);
}

/*
 * Asks the checkpointer to fsync every segment of the fork at the next
 * checkpoint, as md.c does for each write through shared buffers; false if
 * its queue is full.
 */
static bool
register_fork_sync(mb_fork_writer *fw)
{
	BlockNumber segments = fw->nblocks == 0 ? 1 : (fw->nblocks - 1) / RELSEG_SIZE + 1;
	BlockNumber segno;

	for (segno = 0; segno < segments; segno++)
	{
		FileTag		tag;

		/* the tag is hashed whole: zero the padding too, as md.c does */
		memset(&tag, 0, sizeof(tag));
		tag.handler = SYNC_HANDLER_MD;
		tag.forknum = fw->fork;
		tag.rnode = fw->locator;
		tag.segno = segno;
		if (!RegisterSyncRequest(&tag, SYNC_REQUEST, false))
			return false;
	}
	return true;
}

void
mb_fork_writer_finish(mb_fork_writer *fw)
{
	bool		registered = false;

	flush_pending(fw);
	/* under wal_level = minimal the commit syncs the new file */
	if (fw->use_wal)
	{
		Assert((MyProc->delayChkptFlags & DELAY_CHKPT_START) == 0);
		MyProc->delayChkptFlags |= DELAY_CHKPT_START;
		PG_TRY();
		{
			if (fw->start_redo == GetRedoRecPtr())
				registered = register_fork_sync(fw);
		}
		PG_FINALLY();
		{
			MyProc->delayChkptFlags &= ~DELAY_CHKPT_START;
		}
		PG_END_TRY();
		if (!registered)
		{
			elog(DEBUG1, "microbench: a checkpoint began during the load of fork %d of relation %u; syncing it",
				 fw->fork, fw->locator.relNode);
			smgrimmedsync(fork_smgr(fw), fw->fork);
		}
	}
	pfree(fw->pages);
	pfree(fw->zero_page);
	pfree(fw);
}

#endif							/* PG_VERSION_NUM >= 170000 */

#endif							/* MB_DIRECT_PAGES */

/*
 * mb_fork_writer.h — writes the pages of one fork of a new relation past
 * shared buffers, WAL-logged and made durable (mb_fork_writer.c).
 *
 * The one place where the direct load's pages reach a file.  On Postgres 17
 * and later it is Postgres's bulk-write API (storage/bulk_write.h); on 15,
 * which has none, it follows the same protocol itself.  Only built where the
 * direct page path is (MB_DIRECT_PAGES, mb_direct_pages.h).
 */
#ifndef MB_FORK_WRITER_H
#define MB_FORK_WRITER_H

#include "common/relpath.h"
#include "storage/block.h"
#include "storage/smgr.h"

#if PG_VERSION_NUM >= 160000
typedef RelFileLocator mb_rel_locator;
#define MB_REL_LOCATOR(rel) ((rel)->rd_locator)
#else
typedef RelFileNode mb_rel_locator;
#define MB_REL_LOCATOR(rel) ((rel)->rd_node)
#endif

typedef struct mb_fork_writer mb_fork_writer;

/*
 * Starts writing a fork of a permanent relation that no other backend can
 * see yet (created or given a new file in this transaction).  Blocks already
 * in the fork are kept unless written again.  Works in a parallel worker
 * too: the locator is all it needs.  use_wal is false only under
 * wal_level = minimal, where the commit syncs the new file.
 */
extern mb_fork_writer *mb_fork_writer_begin(mb_rel_locator locator, ForkNumber fork, bool use_wal);

/*
 * Queues a copy of page for block; each block at most once, in any order
 * (gaps are filled with zeros until their page comes).  page_std: the page
 * has the standard layout (the hole between pd_lower and pd_upper may be
 * left out of its WAL image).
 */
extern void mb_fork_writer_write(mb_fork_writer *fw, BlockNumber block, const char *page,
								 bool page_std);

/*
 * Writes what is queued and makes the fork durable: registered for the next
 * checkpoint's fsync, or synced now if a checkpoint began since the start
 * (its redo point may lie after some of the pages' WAL).
 */
extern void mb_fork_writer_finish(mb_fork_writer *fw);

#endif							/* MB_FORK_WRITER_H */

/*
 * mb_direct_pages.h — whether this build has the direct load's page writing
 * (mb_load_pages.c, mb_btree.c, mb_fork_writer.c).
 *
 * A header of its own, below every file that asks, so that the loader, its
 * page writers and the setting that reports the build all ask the same
 * question without depending on one another.
 */
#ifndef MB_DIRECT_PAGES_H
#define MB_DIRECT_PAGES_H

/*
 * MB_DIRECT_PAGES: the direct path builds heap, visibility-map and btree
 * pages by the layout rules of the Postgres majors on which CI proves them
 * byte-identical to Postgres's own (test/sql/02_prepare.sql, with
 * pageinspect and amcheck): 15, 17 and 18.  On any other major, or with
 * `make DIRECT_PAGES=no`, the path is not compiled at all and every load
 * goes through Postgres's bulk-insert path and index builds: a major that
 * changed one of those layouts must not get pages that merely compile.
 */
#if !defined(MB_NO_DIRECT_PAGES) && \
	((PG_VERSION_NUM >= 150000 && PG_VERSION_NUM < 160000) || \
	 (PG_VERSION_NUM >= 170000 && PG_VERSION_NUM < 190000))
#define MB_DIRECT_PAGES 1
#endif

#endif							/* MB_DIRECT_PAGES_H */

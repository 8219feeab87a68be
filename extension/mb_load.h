/*
 * mb_load.h — the setting of microbench_load_table(), the bulk loader
 * behind bench_prepare (mb_load.c).
 *
 * The loader's files depend one way, so that each can be read and changed
 * knowing only the files below it: mb_load.c chooses the path and runs the
 * bulk-insert one; mb_load_pages.c is the direct path, with
 * mb_fork_writer.c and mb_btree.c below it; all of them share the rows
 * (mb_load_rows.c) and what makes a failed load leave nothing behind
 * (mb_load_rollback.c).  test/unit/extension_layout.sh finds any circle.
 */
#ifndef MB_LOAD_H
#define MB_LOAD_H

/* microbench.direct_load: use the direct path where it is safe (default on) */
extern bool mb_direct_load;

#endif							/* MB_LOAD_H */

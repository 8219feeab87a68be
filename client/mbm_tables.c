/*
 * mbm_tables.c — prepare's tables loaded in parallel, for every driver.
 *
 * A driver's prepare says how to connect a loader and how to create and
 * load one table (mbm_table_loader); this file runs the loaders: one
 * thread and one connection each, up to --threads at once, each taking the
 * next table until none is left.  Table N gets stream N of one seed
 * (--rand-seed, else the clock when prepare starts), so a table's rows do
 * not depend on which loader took it or when.  What the loaders share,
 * the driver's part of it too, is kept here until the last has ended, so
 * that no driver has to know when that is.  And every driver's check for
 * the tables ends here, in one wording of what is missing.
 *
 * SIGINT or SIGTERM stops the loaders between statements (*stop, which a
 * driver's row stream also watches, so a load's data ends early), and a
 * long statement still running a second later is cancelled (mbm_stop.c);
 * prepare then says how many tables it loaded and to run it again.  The
 * threads take the driver's library per thread (thread_init/thread_end).
 */
#include "mbm.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What the loaders share; on the heap, as an abandoned loader still uses it. */
typedef struct load_shared
{
	const mbm_options *o;
	const mbm_table_loader *tl;
	void	   *arg;			/* the driver's (tl->arg_size bytes) */
	uint64_t	seed;
	atomic_int	next_table;
	atomic_int	loaded;			/* tables completely loaded */
	atomic_bool stop;			/* set on SIGINT/SIGTERM: stop at the next step */
} load_shared;

typedef struct loader
{
	mbm_worker	worker;			/* running, session id: for stopping */
	pthread_t	thread;
	load_shared *sh;
	char		error[512];
	bool		failed;
} loader;

int
mbm_load_step(const mbm_options *o, mbm_conn *conn, atomic_bool *stop, const char *sql,
			  char *err, size_t errlen)
{
	if (atomic_load(stop))
	{
		snprintf(err, errlen, "stopped");
		return -1;
	}
	return mbm_query(o, conn, sql, err, errlen);
}

int
mbm_tables_missing(const mbm_options *o, const char *db, int first_missing, bool *missing,
				   char *err, size_t errlen)
{
	*missing = first_missing != 0;
	if (first_missing == 0)
		return 0;
	if (first_missing == 1)
		snprintf(err, errlen, "table sbtest1 does not exist in database %s: run prepare first",
				 db);
	else
		snprintf(err, errlen, "table sbtest%d does not exist in database %s (--tables=%d):"
				 " run prepare with --tables=%d", first_missing, db, o->tables, o->tables);
	return -1;
}

static void *
loader_main(void *arg)
{
	loader	   *l = arg;
	load_shared *sh = l->sh;
	const mbm_options *o = sh->o;
	mbm_conn   *conn;

	if (o->driver->thread_init)
		o->driver->thread_init();
	if (sh->tl->connect)
		conn = sh->tl->connect(o, sh->arg, l->error, sizeof(l->error));
	else
		conn = mbm_connect_bulk(o, l->error, sizeof(l->error));
	if (conn)
		atomic_store(&l->worker.conn_id, mbm_session_id(conn));
	else
		l->failed = true;
	while (!l->failed && !atomic_load(&sh->stop))
	{
		int			table = atomic_fetch_add(&sh->next_table, 1);

		if (table > o->tables)
			break;
		if (sh->tl->load_table(o, sh->arg, conn, table, sh->seed, &sh->stop,
							   l->error, sizeof(l->error)) != 0)
		{
			l->failed = true;
			break;
		}
		atomic_fetch_add(&sh->loaded, 1);
		printf("loaded sbtest%d: %lld rows\n", table, (long long) o->table_size);
		fflush(stdout);
	}
	if (conn)
	{
		atomic_store(&l->worker.conn_id, 0);
		o->driver->close(conn);
	}
	if (o->driver->thread_end)
		o->driver->thread_end();
	atomic_store(&l->worker.running, false);
	return NULL;
}

int
mbm_load_tables(const mbm_options *o, const mbm_table_loader *tl)
{
	int			nthreads = o->threads < o->tables ? o->threads : o->tables;
	loader	   *loaders = calloc(nthreads, sizeof(loader));
	mbm_worker **workers = calloc(nthreads, sizeof(mbm_worker *));
	load_shared *sh = calloc(1, sizeof(load_shared));
	void	   *arg = calloc(1, tl->arg_size > 0 ? tl->arg_size : 1);
	int			started = 0;
	int			loaded;
	bool		all_ended;
	int			i;
	int			rc = MBM_EXIT_OK;

	if (loaders == NULL || workers == NULL || sh == NULL || arg == NULL)
	{
		fprintf(stderr, "%s: prepare failed: out of memory\n", mbm_progname);
		free(loaders);
		free(workers);
		free(sh);
		free(arg);
		return MBM_EXIT_FAILED;
	}
	if (tl->begin != NULL)
	{
		char		err[512];
		mbm_conn   *conn = mbm_connect(o, err, sizeof(err));

		if (conn == NULL || tl->begin(o, arg, conn, err, sizeof(err)) != 0)
		{
			fprintf(stderr, "%s: %s\n", mbm_progname, err);
			if (conn)
				o->driver->close(conn);
			free(loaders);
			free(workers);
			free(sh);
			free(arg);
			return conn == NULL ? MBM_EXIT_BAD_INPUT : MBM_EXIT_FAILED;
		}
		o->driver->close(conn);
	}
	sh->arg = arg;
	sh->o = o;
	sh->tl = tl;
	sh->seed = o->seeded ? o->seed : (uint64_t) time(NULL);
	atomic_init(&sh->next_table, 1);
	atomic_init(&sh->loaded, 0);
	atomic_init(&sh->stop, false);

	for (i = 0; i < nthreads && mbm_stop_signal() == 0; i++)
	{
		loaders[i].sh = sh;
		atomic_init(&loaders[i].worker.running, true);
		atomic_init(&loaders[i].worker.conn_id, 0);
		workers[i] = &loaders[i].worker;
		if (pthread_create(&loaders[i].thread, NULL, loader_main, &loaders[i]) != 0)
		{
			fprintf(stderr, "%s: prepare failed: cannot start a loader thread\n", mbm_progname);
			atomic_store(&sh->stop, true);
			rc = MBM_EXIT_FAILED;
			break;
		}
		started++;
	}

	/* loads take as long as they take; only a stop signal hurries them */
	all_ended = mbm_workers_wait(o, workers, started, false, &sh->stop);
	for (i = 0; all_ended && i < started; i++)
	{
		pthread_join(loaders[i].thread, NULL);
		if (loaders[i].failed && mbm_stop_signal() == 0)
		{
			fprintf(stderr, "%s: prepare failed: %s\n", mbm_progname, loaders[i].error);
			rc = MBM_EXIT_FAILED;
		}
	}
	loaded = atomic_load(&sh->loaded);
	if (mbm_stop_signal() != 0 && loaded < o->tables)
	{
		fprintf(stderr, "%s: prepare interrupted by %s after loading %d of %d table(s):"
				" run prepare again\n", mbm_progname, mbm_stop_signal_name(), loaded, o->tables);
		rc = 128 + mbm_stop_signal();
	}
	else if (rc == MBM_EXIT_OK && loaded < o->tables)
		rc = MBM_EXIT_FAILED;
	/* abandoned loaders still use theirs: leave them to the exit */
	if (all_ended)
	{
		free(loaders);
		free(sh->arg);
		free(sh);
	}
	free(workers);
	return rc;
}

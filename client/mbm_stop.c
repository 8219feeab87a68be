/*
 * mbm_stop.c — stopping on SIGINT and SIGTERM, and stopping busy threads.
 *
 * The handler only notes the signal; the main thread polls for it (its
 * waits are short sleeps) and tells the client or loader threads to stop
 * through their phase flag, which they check between events.  Every thread
 * but one runs with both signals blocked: they land in a thread that does
 * nothing but wait for them, so no socket call of the MySQL or Postgres
 * library is ever cut short by EINTR (a poll() the library does not retry
 * would look like a lost connection, in the middle of the maintenance step
 * that must put a server setting back).
 *
 * A worker blocked in one long statement (a lock wait, a long scan, a big
 * CREATE INDEX) would not look at its flag for as long as the statement
 * lasts, so after a grace period the main thread cancels its statement
 * over a fresh connection (the driver's cancel: KILL QUERY on MySQL,
 * pg_cancel_backend() on Postgres), and after a little more it stops waiting:
 * the process is about to exit, and its sockets close with it.
 *
 * After its cleanup the client ends itself with the same signal (default
 * action), so a shell sees status 130 or 143 and a shell loop around the
 * client stops too, which an exit(130) would not make it do.
 */
#include "mbm.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#if ATOMIC_INT_LOCK_FREE != 2
#error "the signal handler needs a lock-free atomic int"
#endif

/* cancel the statements of workers still busy this long after the stop... */
#define MBM_STOP_GRACE_NS		1000000000ull
/* ...and stop waiting for them after this long. */
#define MBM_STOP_GIVE_UP_NS		2000000000ull
/* the cancelling connection must not itself hang on a server that is gone */
#define MBM_KILL_TIMEOUT_S		1

/*
 * Set by the handler in the catcher thread, read by the main thread: a
 * lock-free atomic is both async-signal-safe and a proper way across threads.
 */
static atomic_int stop_signal;
static bool abandoned;
static sigset_t caught;			/* the signals we handle */

static void
on_stop_signal(int sig)
{
	if (atomic_load(&stop_signal) == 0)
		atomic_store(&stop_signal, sig);
}

static void
install(int sig)
{
	struct sigaction sa;
	struct sigaction old;

	/*
	 * A signal the parent set to be ignored stays ignored: that is how a
	 * script without job control keeps its background jobs out of the
	 * terminal's Ctrl-C (as the glibc manual advises).
	 */
	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/*
	 * A second Ctrl-C gets the default action and ends the process at
	 * once, for when a clean stop is not wanted or not coming.
	 */
	sa.sa_flags = SA_RESETHAND;
	if (sigaction(sig, &sa, NULL) == 0)
		sigaddset(&caught, sig);
}

/* The one thread that takes the signals: it waits for them, and that is all. */
static void *
catcher_main(void *arg)
{
	pthread_sigmask(SIG_UNBLOCK, &caught, NULL);
	for (;;)
		pause();
	return NULL;
}

void
mbm_stop_install(void)
{
	pthread_t	catcher;
	sigset_t	old;

	sigemptyset(&caught);
	install(SIGINT);
	install(SIGTERM);
	/* blocked here, so in every thread created from now on too */
	pthread_sigmask(SIG_BLOCK, &caught, &old);
	if (pthread_create(&catcher, NULL, catcher_main, NULL) != 0)
	{
		/* no catcher: the signals land in any thread, the flag still works */
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return;
	}
	pthread_detach(catcher);
}

int
mbm_stop_signal(void)
{
	return atomic_load(&stop_signal);
}

const char *
mbm_stop_signal_name(void)
{
	return atomic_load(&stop_signal) == SIGTERM ? "SIGTERM" : "SIGINT";
}

bool
mbm_stop_abandoned(void)
{
	return abandoned;
}

int
mbm_stop_exit(int rc)
{
	int			sig = atomic_load(&stop_signal);
	sigset_t	set;

	if (sig == 0)
		return rc;
	fflush(stdout);
	fflush(stderr);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	/* not reached */
	return 128 + sig;
}

/* Cancel the statement of every busy worker with a connection; how many were sent. */
static int
kill_queries(const mbm_options *o, mbm_worker **workers, int n, char *err, size_t errlen)
{
	mbm_conn   *conn = mbm_connect_timeout(o, MBM_KILL_TIMEOUT_S, err, errlen);
	int			sent = 0;
	int			i;

	if (conn == NULL)
		return -1;
	for (i = 0; i < n; i++)
	{
		unsigned long id = atomic_load(&workers[i]->conn_id);
		char		sql[64];

		if (!atomic_load(&workers[i]->running) || id == 0)
			continue;
		snprintf(sql, sizeof(sql), o->driver->cancel_format, id);
		/* the statement may have ended meanwhile: "unknown thread" is fine */
		if (mbm_query(o, conn, sql, err, errlen) == 0)
			sent++;
	}
	o->driver->close(conn);
	return sent;
}

bool
mbm_workers_wait(const mbm_options *o, mbm_worker **workers, int n, bool hurry,
				 atomic_bool *stop)
{
	uint64_t	since = hurry ? mbm_now_ns() : 0;
	bool		kill_sent = false;

	for (;;)
	{
		struct timespec ts = {0, 5000000};
		uint64_t	now = mbm_now_ns();
		int			busy = 0;
		int			i;

		for (i = 0; i < n; i++)
			busy += atomic_load(&workers[i]->running);
		if (busy == 0)
			return true;
		if (since == 0 && atomic_load(&stop_signal) != 0)
		{
			since = now;
			if (stop)
				atomic_store(stop, true);
		}
		if (since != 0 && !kill_sent && now - since >= MBM_STOP_GRACE_NS)
		{
			char		err[512];
			int			sent = kill_queries(o, workers, n, err, sizeof(err));

			if (sent < 0)
				printf("note: %d thread(s) still busy %.1f s after the stop; cannot cancel their statements: %s\n",
					   busy, MBM_STOP_GRACE_NS / 1e9, err);
			else
				printf("note: %d thread(s) still busy %.1f s after the stop; sent %s to %d\n",
					   busy, MBM_STOP_GRACE_NS / 1e9,
					   o->driver->cancel_title, sent);
			fflush(stdout);
			kill_sent = true;
		}
		if (since != 0 && now - since >= MBM_STOP_GIVE_UP_NS)
		{
			printf("note: %d thread(s) still busy %.1f s after the stop; not waiting for them\n",
				   busy, MBM_STOP_GIVE_UP_NS / 1e9);
			fflush(stdout);
			abandoned = true;
			return false;
		}
		nanosleep(&ts, NULL);
	}
}

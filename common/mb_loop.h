/*
 * mb_loop.h — the decisions a client's event loop makes, written once for
 * every driver: the extension's background workers (extension/mb_worker.c)
 * and the client's threads (client/mbm_run.c) call these, so that a
 * run is paced, limited, reconnected and timed the same way in-server and
 * over the wire.  What cannot be shared stays with each side: how a client
 * sleeps and wakes (latches or nanosleep), its counters (Postgres atomics in
 * shared memory or C11 atomics) and how it talks to the server.
 */
#ifndef MB_LOOP_H
#define MB_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include "mb_pacer.h"

/*
 * A paced client's schedule comes from a random stream of its own, this far
 * from the streams that draw keys (stream = client index), so a seeded run
 * draws the same keys with or without a rate.
 */
#define MB_LOOP_PACER_STREAM UINT64_C(0x70000000)

/*
 * Start client_index's schedule at now_ns: its share of rate (events per
 * second over all clients), seeded by the run's seed or, unseeded, by the
 * clock.
 */
extern void mb_loop_pacer_init(mb_pacer *pacer, double rate, int clients, bool seeded,
							   uint64_t seed, int client_index, uint64_t now_ns);

/*
 * When an event starts, for its latency: a paced event at its scheduled
 * start (scheduled_ns, 0 when the run has no rate: a late arrival's wait is
 * the event's), the first event of a new session when the old one began to
 * close (reconnect_started_ns, 0 if not: the reconnect's cost is the
 * event's), else now_ns.
 */
extern uint64_t mb_loop_event_start(uint64_t scheduled_ns, uint64_t reconnect_started_ns,
									uint64_t now_ns);

/*
 * Whether an event limit (0: none) leaves an event for a client that has
 * just claimed one when claimed events had been claimed before it; a
 * client whose claim is past the limit runs nothing more and waits for the
 * end of the window.
 */
extern bool mb_loop_claim_granted(int64_t limit, uint64_t claimed_before);

/*
 * After an event of a session: count it, and say whether the client leaves
 * for a new session now (every reconnect events; 0: never).  Not when the
 * event limit has claimed every event: no event is left for the new
 * session, whose cost would then land nowhere.  When due, *session_events
 * starts again from 0.
 */
extern bool mb_loop_reconnect_due(int reconnect, uint64_t *session_events, int64_t limit,
								  uint64_t claimed);

#endif							/* MB_LOOP_H */

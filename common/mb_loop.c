/*
 * mb_loop.c — the shared decisions of a client's event loop (mb_loop.h).
 */
#include "mb_loop.h"

void
mb_loop_pacer_init(mb_pacer *pacer, double rate, int clients, bool seeded, uint64_t seed,
				   int client_index, uint64_t now_ns)
{
	mb_pacer_init(pacer, rate / clients, seeded ? seed : now_ns,
				  (uint64_t) client_index + MB_LOOP_PACER_STREAM, now_ns);
}

uint64_t
mb_loop_event_start(uint64_t scheduled_ns, uint64_t reconnect_started_ns, uint64_t now_ns)
{
	if (scheduled_ns != 0)
		return scheduled_ns;
	if (reconnect_started_ns != 0)
		return reconnect_started_ns;
	return now_ns;
}

bool
mb_loop_claim_granted(int64_t limit, uint64_t claimed_before)
{
	return limit <= 0 || claimed_before < (uint64_t) limit;
}

bool
mb_loop_reconnect_due(int reconnect, uint64_t *session_events, int64_t limit, uint64_t claimed)
{
	if (reconnect <= 0 || ++*session_events < (uint64_t) reconnect)
		return false;
	if (limit > 0 && claimed >= (uint64_t) limit)
		return false;
	*session_events = 0;
	return true;
}

/*
 * mbm_host_facts.h — a host's facts for a fleet's results database
 * (mbm_host_facts.c).
 */
#ifndef MBM_HOST_FACTS_H
#define MBM_HOST_FACTS_H

#include <stddef.h>

/*
 * The facts as a JSON object (malloc'd; NULL when memory ran out), the
 * storage device being data_dir's; the machine id into machine_id ("" when
 * the machine has none).
 */
extern char *mbm_host_facts_json(const char *data_dir, char *machine_id, size_t machine_id_len);

#endif							/* MBM_HOST_FACTS_H */

/*
 * mb_values.h — the c and pad column values of the sbtest tables.
 *
 * c is ten groups of 11 random decimal digits joined by '-' (119 chars),
 * pad five such groups (59 chars): sysbench's templates.  Used for the
 * initial load and for every value written later by the write workloads.
 */
#ifndef MB_VALUES_H
#define MB_VALUES_H

#include "mb_rand.h"

#define MB_C_LEN	119
#define MB_PAD_LEN	59

/* Fill out[0 .. MB_C_LEN-1]; writes no terminating NUL. */
extern void mb_values_c(mb_rng *rng, char *out);
/* Fill out[0 .. MB_PAD_LEN-1]; writes no terminating NUL. */
extern void mb_values_pad(mb_rng *rng, char *out);

#endif							/* MB_VALUES_H */

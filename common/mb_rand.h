/*
 * mb_rand.h — per-client random numbers with sysbench's distributions.
 *
 * Both drivers draw every key, range start and c/pad digit from here, so a
 * "uniform" or "zipfian" run means the same thing on Postgres and MySQL.
 * The distributions follow sysbench's --rand-type meanings and defaults
 * (zipfian exponent 0.8, pareto h 0.2, special 1% of keys taking 75% of
 * draws, gaussian/special iterating 12 uniforms).  Plain C99, no DBMS headers.
 */
#ifndef MB_RAND_H
#define MB_RAND_H

#include <stdint.h>

typedef enum mb_rand_type
{
	MB_RAND_UNIFORM = 0,
	MB_RAND_ZIPFIAN,
	MB_RAND_GAUSSIAN,
	MB_RAND_PARETO,
	MB_RAND_SPECIAL
} mb_rand_type;

/* A xoroshiro128+ generator; one per client so clients never share state. */
typedef struct mb_rng
{
	uint64_t	s[2];
} mb_rng;

/*
 * A distribution over the integers [lo, hi], with its parameters and the
 * constants derived from them (precomputed so that a draw does no setup).
 */
typedef struct mb_dist
{
	mb_rand_type type;
	uint32_t	lo;
	uint32_t	hi;
	double		zipf_exp;		/* zipfian exponent (theta), default 0.8 */
	double		pareto_h;		/* pareto shape h, default 0.2 */
	int			spec_iter;		/* gaussian/special: uniforms summed, default 12 */
	int			spec_pct;		/* special: % of the range that is hot, default 1 */
	int			spec_res;		/* special: % of draws that hit it, default 75 */
	/* derived */
	double		pareto_power;
	double		zipf_h_n;		/* H(n + 0.5) */
	double		zipf_h_x1;		/* H(1.5) - 1 */
	double		zipf_s;
} mb_rand_dist;

/* Seed a generator; the same (seed, stream) always gives the same sequence. */
extern void mb_rng_seed(mb_rng *rng, uint64_t seed, uint64_t stream);
extern uint64_t mb_rng_next(mb_rng *rng);
/* uniform double in [0, 1) */
extern double mb_rng_double(mb_rng *rng);
/* uniform integer in [lo, hi] */
extern uint32_t mb_rng_uniform(mb_rng *rng, uint32_t lo, uint32_t hi);

/* Parse "uniform", "zipfian", ...; returns 0 on success, -1 if unknown. */
extern int	mb_rand_type_parse(const char *name, mb_rand_type *type);
extern const char *mb_rand_type_name(mb_rand_type type);
/* Comma-separated list of the accepted names, for error hints. */
extern const char *mb_rand_type_names(void);

/* Set up a distribution over [lo, hi] with sysbench's default parameters. */
extern void mb_rand_dist_init(mb_rand_dist *dist, mb_rand_type type,
							  uint32_t lo, uint32_t hi);
/* Recompute derived constants after changing a parameter by hand. */
extern void mb_rand_dist_update(mb_rand_dist *dist);
/* One draw in [lo, hi]. */
extern uint32_t mb_rand_dist_draw(const mb_rand_dist *dist, mb_rng *rng);

#endif							/* MB_RAND_H */

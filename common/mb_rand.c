/*
 * mb_rand.c — per-client xoroshiro128+ generators and sysbench's key
 * distributions (uniform, zipfian, gaussian, pareto, special).
 *
 * The distributions keep sysbench's meaning and defaults so that a run with
 * a given --rand-type stresses the same keys as sysbench would; see mb_rand.h.
 * Plain C99 + libm; no DBMS headers, so both drivers can link it.
 */
#include "mb_rand.h"

#include <math.h>
#include <string.h>

/* 2^-53: turns the top 53 bits of a draw into a double in [0, 1). */
#define MB_RAND_DOUBLE_UNIT (1.0 / 9007199254740992.0)

#define MB_RAND_DEFAULT_ZIPF_EXP	0.8
#define MB_RAND_DEFAULT_PARETO_H	0.2
#define MB_RAND_DEFAULT_SPEC_ITER	12
#define MB_RAND_DEFAULT_SPEC_PCT	1
#define MB_RAND_DEFAULT_SPEC_RES	75

static const char *const mb_rand_names[] = {
	"uniform", "zipfian", "gaussian", "pareto", "special"
};

#define MB_RAND_NTYPES ((int) (sizeof(mb_rand_names) / sizeof(mb_rand_names[0])))

/* ----------------------------------------------------------------------
 * Generator
 * ---------------------------------------------------------------------- */

/*
 * splitmix64 step: recommended by the xoroshiro authors for expanding a
 * small seed into state, because it decorrelates nearby seeds (and nearby
 * stream numbers, which are just client indexes here).
 */
static uint64_t
mb_rand_splitmix64(uint64_t *x)
{
	uint64_t	z;

	*x += UINT64_C(0x9E3779B97F4A7C15);
	z = *x;
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static uint64_t
mb_rand_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void
mb_rng_seed(mb_rng *rng, uint64_t seed, uint64_t stream)
{
	uint64_t	x;
	uint64_t	stream_mix;

	/*
	 * Hash the stream first so that streams 0, 1, 2... do not start the
	 * splitmix sequence one step apart (which would make client i+1's
	 * state equal to client i's state shifted by one word).
	 */
	x = stream;
	stream_mix = mb_rand_splitmix64(&x);
	x = seed ^ stream_mix;
	rng->s[0] = mb_rand_splitmix64(&x);
	rng->s[1] = mb_rand_splitmix64(&x);

	/* xoroshiro never leaves the all-zero state, so it must never enter it */
	if (rng->s[0] == 0 && rng->s[1] == 0)
		rng->s[0] = UINT64_C(0x9E3779B97F4A7C15);
}

uint64_t
mb_rng_next(mb_rng *rng)
{
	uint64_t	s0 = rng->s[0];
	uint64_t	s1 = rng->s[1];
	uint64_t	result = s0 + s1;

	s1 ^= s0;
	rng->s[0] = mb_rand_rotl(s0, 24) ^ s1 ^ (s1 << 16);
	rng->s[1] = mb_rand_rotl(s1, 37);
	return result;
}

double
mb_rng_double(mb_rng *rng)
{
	/* top bits: xoroshiro128+'s low bits are its weakest */
	return (double) (mb_rng_next(rng) >> 11) * MB_RAND_DOUBLE_UNIT;
}

uint32_t
mb_rng_uniform(mb_rng *rng, uint32_t lo, uint32_t hi)
{
	uint64_t	range;
	uint64_t	x;
	uint64_t	m;

	if (hi <= lo)
		return lo;
	range = (uint64_t) hi - lo + 1;
	if (range > UINT32_MAX)
		return (uint32_t) (mb_rng_next(rng) >> 32);

	/*
	 * Lemire's multiply-shift with rejection: exact, and the rejection
	 * (and its modulo) is almost never reached for table-sized ranges.
	 */
	x = mb_rng_next(rng) >> 32;
	m = x * range;
	if ((uint32_t) m < range)
	{
		uint32_t	threshold = (uint32_t) ((UINT64_C(1) << 32) - range) % (uint32_t) range;

		while ((uint32_t) m < threshold)
		{
			x = mb_rng_next(rng) >> 32;
			m = x * range;
		}
	}
	return lo + (uint32_t) (m >> 32);
}

/* ----------------------------------------------------------------------
 * Type names
 * ---------------------------------------------------------------------- */

int
mb_rand_type_parse(const char *name, mb_rand_type *type)
{
	int			i;

	if (name == NULL)
		return -1;
	for (i = 0; i < MB_RAND_NTYPES; i++)
	{
		if (strcmp(name, mb_rand_names[i]) == 0)
		{
			*type = (mb_rand_type) i;
			return 0;
		}
	}
	return -1;
}

const char *
mb_rand_type_name(mb_rand_type type)
{
	if ((int) type < 0 || (int) type >= MB_RAND_NTYPES)
		return "unknown";
	return mb_rand_names[type];
}

const char *
mb_rand_type_names(void)
{
	return "uniform, zipfian, gaussian, pareto, special";
}

/* ----------------------------------------------------------------------
 * Zipfian helpers (rejection-inversion, Hörmann & Derflinger 1996).
 *
 * The hat integral is H(x) = (x^(1-q) - 1) / (1 - q) rather than the
 * paper's x^(1-q) / (1-q): it has the limit log(x) at q = 1, so one code
 * path serves every exponent >= 0.  The helpers evaluate log1p(x)/x and
 * expm1(x)/x with series near 0 so that q close to 1 loses no precision.
 * ---------------------------------------------------------------------- */

static double
mb_rand_log1p_over_x(double x)
{
	if (fabs(x) > 1e-8)
		return log1p(x) / x;
	return 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}

static double
mb_rand_expm1_over_x(double x)
{
	if (fabs(x) > 1e-8)
		return expm1(x) / x;
	return 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
}

/* H(x): integral of the hat function */
static double
mb_rand_zipf_hint(double x, double q)
{
	double		lx = log(x);

	return mb_rand_expm1_over_x((1.0 - q) * lx) * lx;
}

/* H^-1(y) */
static double
mb_rand_zipf_hint_inv(double y, double q)
{
	double		t = y * (1.0 - q);

	/* rounding can push t below the domain of log1p */
	if (t < -1.0)
		t = -1.0;
	return exp(mb_rand_log1p_over_x(t) * y);
}

/* h(x) = x^-q, the unnormalised Zipf weight */
static double
mb_rand_zipf_h(double x, double q)
{
	return exp(-q * log(x));
}

/* ----------------------------------------------------------------------
 * Distributions
 * ---------------------------------------------------------------------- */

void
mb_rand_dist_init(mb_rand_dist *dist, mb_rand_type type,
				  uint32_t lo, uint32_t hi)
{
	memset(dist, 0, sizeof(*dist));
	dist->type = type;
	dist->lo = lo;
	dist->hi = hi;
	dist->zipf_exp = MB_RAND_DEFAULT_ZIPF_EXP;
	dist->pareto_h = MB_RAND_DEFAULT_PARETO_H;
	dist->spec_iter = MB_RAND_DEFAULT_SPEC_ITER;
	dist->spec_pct = MB_RAND_DEFAULT_SPEC_PCT;
	dist->spec_res = MB_RAND_DEFAULT_SPEC_RES;
	mb_rand_dist_update(dist);
}

/*
 * Out-of-domain parameters are replaced (by the default, or clamped) rather
 * than rejected: a draw must never compute NaN, since converting NaN to an
 * integer is undefined.  Callers that want to report bad input validate
 * before calling.  hi < lo is treated as the single value lo.
 */
void
mb_rand_dist_update(mb_rand_dist *dist)
{
	double		n;
	double		q;

	if (dist->hi < dist->lo)
		dist->hi = dist->lo;

	if (!(dist->zipf_exp >= 0.0) || isinf(dist->zipf_exp))
		dist->zipf_exp = MB_RAND_DEFAULT_ZIPF_EXP;
	if (!(dist->pareto_h > 0.0 && dist->pareto_h < 1.0))
		dist->pareto_h = MB_RAND_DEFAULT_PARETO_H;
	if (dist->spec_iter < 1)
		dist->spec_iter = 1;
	if (dist->spec_pct < 0)
		dist->spec_pct = 0;
	if (dist->spec_pct > 100)
		dist->spec_pct = 100;
	if (dist->spec_res < 0)
		dist->spec_res = 0;
	if (dist->spec_res > 100)
		dist->spec_res = 100;

	dist->pareto_power = log(dist->pareto_h) / log(1.0 - dist->pareto_h);

	n = (double) dist->hi - (double) dist->lo + 1.0;
	q = dist->zipf_exp;
	dist->zipf_h_n = mb_rand_zipf_hint(n + 0.5, q);
	dist->zipf_h_x1 = mb_rand_zipf_hint(1.5, q) - 1.0;
	dist->zipf_s = 2.0 - mb_rand_zipf_hint_inv(mb_rand_zipf_hint(2.5, q) -
											   mb_rand_zipf_h(2.0, q), q);
}

/* lo + off, with off (possibly out of range through rounding) clamped */
static uint32_t
mb_rand_offset(const mb_rand_dist *dist, double off)
{
	double		width = (double) dist->hi - (double) dist->lo;

	if (!(off > 0.0))			/* also catches NaN */
		return dist->lo;
	if (off >= width)
		return dist->hi;
	return dist->lo + (uint32_t) off;
}

static uint32_t
mb_rand_draw_gaussian(const mb_rand_dist *dist, mb_rng *rng, double t)
{
	double		sum = 0.0;
	int			i;

	/* Irwin-Hall: a sum of uniforms approximates a bell, bounded */
	for (i = 0; i < dist->spec_iter; i++)
		sum += mb_rng_double(rng);
	return mb_rand_offset(dist, sum * t / dist->spec_iter);
}

/*
 * sysbench's "special": spec_res% of draws hit a hot region of spec_pct% of
 * the range centred in it; the rest are gaussian over the whole range.  One
 * uniform picks the branch and, rescaled, the position in the hot region.
 */
static uint32_t
mb_rand_draw_special(const mb_rand_dist *dist, mb_rng *rng, double t)
{
	double		cold = (100 - dist->spec_res) / 100.0;
	double		rnd = mb_rng_double(rng);
	double		d;
	double		start;
	double		u;

	if (rnd < cold)
		return mb_rand_draw_gaussian(dist, rng, t);

	d = floor(t * dist->spec_pct / 100.0);
	if (d < 1.0)
		d = 1.0;
	start = floor((t - d) / 2.0);
	u = (rnd - cold) / (1.0 - cold);
	return mb_rand_offset(dist, start + floor(u * d));
}

static uint32_t
mb_rand_draw_zipfian(const mb_rand_dist *dist, mb_rng *rng, double n)
{
	double		q = dist->zipf_exp;
	double		hn = dist->zipf_h_n;
	double		hx1 = dist->zipf_h_x1;

	for (;;)
	{
		/* u uniform in (hx1, hn] */
		double		u = hn + mb_rng_double(rng) * (hx1 - hn);
		double		x = mb_rand_zipf_hint_inv(u, q);
		double		k = floor(x + 0.5);

		if (k < 1.0)
			k = 1.0;
		else if (k > n)
			k = n;

		/*
		 * The first test is the paper's cheap squeeze (implies the second);
		 * the second accepts k with probability proportional to k^-q.  k = 1
		 * is always accepted, which is why hx1 = H(1.5) - h(1).
		 */
		if (k - x <= dist->zipf_s ||
			u >= mb_rand_zipf_hint(k + 0.5, q) - mb_rand_zipf_h(k, q))
			return mb_rand_offset(dist, k - 1.0);
	}
}

uint32_t
mb_rand_dist_draw(const mb_rand_dist *dist, mb_rng *rng)
{
	/* number of values in [lo, hi]; a double because it may be 2^32 */
	double		t = (double) dist->hi - (double) dist->lo + 1.0;

	if (dist->hi <= dist->lo)
		return dist->lo;

	switch (dist->type)
	{
		case MB_RAND_UNIFORM:
			return mb_rand_offset(dist, mb_rng_double(rng) * t);
		case MB_RAND_GAUSSIAN:
			return mb_rand_draw_gaussian(dist, rng, t);
		case MB_RAND_SPECIAL:
			return mb_rand_draw_special(dist, rng, t);
		case MB_RAND_PARETO:
			return mb_rand_offset(dist, t * pow(mb_rng_double(rng),
												dist->pareto_power));
		case MB_RAND_ZIPFIAN:
			return mb_rand_draw_zipfian(dist, rng, t);
	}
	/* an invalid type still yields an in-range key */
	return mb_rand_offset(dist, mb_rng_double(rng) * t);
}

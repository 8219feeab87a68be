-- 25_stats.sql — the distributions behind a verdict, in plain SQL.
--
-- microbench.compare() (30_reports.sql) calls a ratio a difference only
-- when its confidence interval excludes 1.  That needs Student's t
-- distribution (Welch's interval and p-value of a difference of log QPS)
-- and the normal distribution (the rank test of the drift warnings).  A
-- results database may be any Postgres >= 13 without the C part, which has
-- neither erf() nor lgamma(), so they are computed here from their series:
--   lgamma     Lanczos' approximation (g = 7, 9 terms), ~15 digits;
--   beta_inc   the regularized incomplete beta I_x(a, b) by its continued
--              fraction, evaluated with the modified Lentz method;
--   t_cdf      Student's t from I_x(df/2, 1/2), any real df > 0;
--   t_quantile Newton's method on t_cdf from a normal-based start, kept
--              inside a bracket (bisection when a step leaves it);
--   normal_cdf Abramowitz and Stegun 26.2.17 (error < 7.5e-8).
-- test/sql/16_verdicts.sql checks them against tabulated values.

CREATE OR REPLACE FUNCTION microbench.lgamma(x double precision)
RETURNS double precision LANGUAGE plpgsql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    c   double precision[] := ARRAY[0.99999999999980993, 676.5203681218851, -1259.1392167224028,
                                    771.32342877765313, -176.61502916214059, 12.507343278686905,
                                    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
    a   double precision;
    t   double precision;
    i   integer;
BEGIN
    IF x <= 0 THEN
        RAISE EXCEPTION 'lgamma is defined here for x > 0 only, not %', x
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF x < 0.5 THEN
        RETURN microbench.lgamma(x + 1) - ln(x);   -- Gamma(x) = Gamma(x + 1) / x
    END IF;
    x := x - 1;
    a := c[1];
    FOR i IN 1 .. 8 LOOP
        a := a + c[i + 1] / (x + i);
    END LOOP;
    t := x + 7.5;
    RETURN 0.5 * ln(2 * pi()) + (x + 0.5) * ln(t) - t + ln(a);
END
$$;

-- The continued fraction of I_x(a, b), valid (fast to converge) for
-- x < (a + 1) / (a + b + 2); beta_inc uses the symmetry for larger x.
CREATE OR REPLACE FUNCTION microbench.beta_cf(a double precision, b double precision, x double precision)
RETURNS double precision LANGUAGE plpgsql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    tiny double precision := 1e-300;
    c    double precision := 1;
    d    double precision := 1 - (a + b) * x / (a + 1);
    h    double precision;
    aa   double precision;
    step double precision;
    m    integer;
BEGIN
    IF abs(d) < tiny THEN d := tiny; END IF;
    d := 1 / d;
    h := d;
    FOR m IN 1 .. 300 LOOP
        -- the even term
        aa := m * (b - m) * x / ((a - 1 + 2 * m) * (a + 2 * m));
        d := 1 + aa * d;
        IF abs(d) < tiny THEN d := tiny; END IF;
        c := 1 + aa / c;
        IF abs(c) < tiny THEN c := tiny; END IF;
        d := 1 / d;
        h := h * d * c;
        -- the odd term
        aa := -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1 + 2 * m));
        d := 1 + aa * d;
        IF abs(d) < tiny THEN d := tiny; END IF;
        c := 1 + aa / c;
        IF abs(c) < tiny THEN c := tiny; END IF;
        d := 1 / d;
        step := d * c;
        h := h * step;
        EXIT WHEN abs(step - 1) < 1e-15;
    END LOOP;
    RETURN h;
END
$$;

-- The regularized incomplete beta function I_x(a, b).
CREATE OR REPLACE FUNCTION microbench.beta_inc(a double precision, b double precision, x double precision)
RETURNS double precision LANGUAGE plpgsql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    front double precision;
BEGIN
    IF x <= 0 THEN RETURN 0; END IF;
    IF x >= 1 THEN RETURN 1; END IF;
    -- exp() errors instead of underflowing to 0 far in a tail
    front := microbench.lgamma(a + b) - microbench.lgamma(a) - microbench.lgamma(b)
             + a * ln(x) + b * ln(1 - x);
    front := exp(CASE WHEN front < -700 THEN -700 ELSE front END);
    IF x < (a + 1) / (a + b + 2) THEN
        RETURN front * microbench.beta_cf(a, b, x) / a;
    END IF;
    RETURN 1 - front * microbench.beta_cf(b, a, 1 - x) / b;
END
$$;

-- P(T <= t) for Student's t with df degrees of freedom (df > 0, not
-- necessarily whole: Welch's df is not).
CREATE OR REPLACE FUNCTION microbench.t_cdf(t double precision, df double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN t >= 0 THEN 1 - tail ELSE tail END
    FROM (SELECT 0.5 * microbench.beta_inc(df / 2, 0.5, df / (df + t * t)) AS tail) s
$$;

-- The density of Student's t, for Newton's steps.
CREATE OR REPLACE FUNCTION microbench.t_pdf(t double precision, df double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT exp(microbench.lgamma((df + 1) / 2) - microbench.lgamma(df / 2)
               - 0.5 * ln(df * pi()) - (df + 1) / 2 * ln(1 + t * t / df))
$$;

-- The standard normal quantile to about 4 digits (A&S 26.2.23): a start.
CREATE OR REPLACE FUNCTION microbench.normal_quantile_approx(p double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN p < 0.5 THEN -z ELSE z END
    FROM (SELECT sqrt(-2 * ln(least(p, 1 - p))) AS t) s,
         LATERAL (SELECT s.t - (2.515517 + 0.802853 * s.t + 0.010328 * s.t * s.t)
                             / (1 + 1.432788 * s.t + 0.189269 * s.t * s.t + 0.001308 * s.t * s.t * s.t) AS z) q
$$;

-- t such that P(T <= t) = p, for 0 < p < 1 and df > 0.
CREATE OR REPLACE FUNCTION microbench.t_quantile(p double precision, df double precision)
RETURNS double precision LANGUAGE plpgsql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    z    double precision;
    t    double precision;
    lo   double precision := 0;
    hi   double precision := 1e7;
    f    double precision;
    next double precision;
    i    integer;
BEGIN
    IF p <= 0 OR p >= 1 OR df <= 0 THEN
        RAISE EXCEPTION 't_quantile needs 0 < p < 1 and df > 0, not p = %, df = %', p, df
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p < 0.5 THEN
        RETURN -microbench.t_quantile(1 - p, df);
    END IF;
    IF p = 0.5 THEN
        RETURN 0;
    END IF;
    -- start from the normal quantile with the first Cornish-Fisher terms
    z := microbench.normal_quantile_approx(p);
    t := z + (z ^ 3 + z) / (4 * df) + (5 * z ^ 5 + 16 * z ^ 3 + 3 * z) / (96 * df * df);
    IF df < 3 THEN
        t := CASE WHEN df <= 1 THEN tan(pi() * (p - 0.5)) ELSE (2 * p - 1) / sqrt(2 * p * (1 - p)) END;
    END IF;
    FOR i IN 1 .. 100 LOOP
        f := microbench.t_cdf(t, df) - p;
        IF f > 0 THEN hi := least(hi, t); ELSE lo := greatest(lo, t); END IF;
        EXIT WHEN abs(f) < 1e-13 OR hi - lo < 1e-12 * greatest(1, hi);
        next := t - f / microbench.t_pdf(t, df);
        IF next <= lo OR next >= hi OR next <> next THEN
            next := (lo + least(hi, greatest(2 * lo, lo + 1))) / 2;   -- bisect, even when hi is far
        END IF;
        t := next;
    END LOOP;
    RETURN t;
END
$$;

-- P(Z <= z) for the standard normal distribution.
CREATE OR REPLACE FUNCTION microbench.normal_cdf(z double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN z >= 0 THEN 1 - upper_tail ELSE upper_tail END
    FROM (SELECT 1 / (1 + 0.2316419 * abs(z)) AS k) s,
         LATERAL (SELECT exp(CASE WHEN -z * z / 2 < -700 THEN -700 ELSE -z * z / 2 END) / sqrt(2 * pi())
                         * s.k * (0.319381530 + s.k * (-0.356563782 + s.k * (1.781477937
                                  + s.k * (-1.821255978 + s.k * 1.330274429)))) AS upper_tail) u
$$;

-- The digamma and trigamma functions, for the moderated variances of
-- 30_compare.sql (Smyth's empirical Bayes fit needs the mean and variance of
-- log s^2, which are digamma and trigamma of half the degrees of freedom):
-- the recurrence up to x >= 6, then their asymptotic series (error < 1e-10).
CREATE OR REPLACE FUNCTION microbench.digamma(x double precision)
RETURNS double precision LANGUAGE plpgsql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    acc double precision := 0;
    f   double precision;
BEGIN
    IF x <= 0 THEN
        RAISE EXCEPTION 'digamma is defined here for x > 0 only, not %', x
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    WHILE x < 6 LOOP
        acc := acc - 1 / x;
        x := x + 1;
    END LOOP;
    f := 1 / (x * x);
    RETURN acc + ln(x) - 0.5 / x
           - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
END
$$;

CREATE OR REPLACE FUNCTION microbench.trigamma(x double precision)
RETURNS double precision LANGUAGE plpgsql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    acc double precision := 0;
    f   double precision;
BEGIN
    IF x <= 0 THEN
        RAISE EXCEPTION 'trigamma is defined here for x > 0 only, not %', x
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    WHILE x < 6 LOOP
        acc := acc + 1 / (x * x);
        x := x + 1;
    END LOOP;
    f := 1 / (x * x);
    RETURN acc + 1 / x + f / 2
           + f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f * (1.0 / 30 - f * 5.0 / 66))));
END
$$;

-- x such that trigamma(x) = y, for y > 0: trigamma falls monotonically from
-- infinity to 0, so bisection on log x finds it (to 1e-12 relative).
CREATE OR REPLACE FUNCTION microbench.trigamma_inverse(y double precision)
RETURNS double precision LANGUAGE plpgsql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    lo  double precision := ln(1e-8);
    hi  double precision := ln(1e8);
    mid double precision;
    i   integer;
BEGIN
    IF y <= 0 THEN
        RAISE EXCEPTION 'trigamma_inverse needs y > 0, not %', y
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    FOR i IN 1 .. 100 LOOP
        mid := (lo + hi) / 2;
        IF microbench.trigamma(exp(mid)) > y THEN lo := mid; ELSE hi := mid; END IF;
        EXIT WHEN hi - lo < 1e-12;
    END LOOP;
    RETURN exp((lo + hi) / 2);
END
$$;

-- The small-sample constants of the 20% trimmed mean of n values (n >= 5)
-- as compare() judges it: variance_factor, what the Tukey-McLaughlin
-- estimate of its variance (the winsorized variance over (1 - 2g/n)^2) is
-- multiplied by to be right on average, and df, the degrees of freedom
-- that estimate's spread really has (Yuen's n - 2g - 1 claims about a
-- fifth more).  Without them the trimmed t says 5.9% where it means 5%.
-- Computed by simulating normal samples (test/calibration/trimmed_constants.sql,
-- 200000 of each n); beyond the table the factor tends to 1 and df to
-- 0.8 (n - 2g - 1), the ratio of the table's last rows.
CREATE OR REPLACE FUNCTION microbench.trimmed_mean_constants(n integer, OUT variance_factor double precision,
                                                             OUT df double precision)
RETURNS record LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(t.variance_factor, 1 + 0.5 / trimmed_mean_constants.n),
           coalesce(t.df, 0.8 * (trimmed_mean_constants.n - 2 * floor(0.2 * trimmed_mean_constants.n) - 1))
    FROM (SELECT 1) one
    LEFT JOIN (VALUES
        (5, 1.174, 1.61), (6, 1.092, 2.50), (7, 1.057, 3.43), (8, 1.037, 4.39),
        (9, 1.023, 5.31), (10, 1.066, 3.98), (11, 1.048, 4.86), (12, 1.035, 5.82),
        (13, 1.028, 6.72), (14, 1.017, 7.66), (15, 1.038, 6.35), (16, 1.033, 7.32),
        (17, 1.030, 8.17), (18, 1.027, 9.10), (19, 1.018, 10.08), (20, 1.018, 8.74),
        (21, 1.024, 9.69), (22, 1.015, 10.53), (23, 1.012, 11.48), (24, 1.018, 12.42),
        (25, 1.022, 11.14), (26, 1.015, 12.03), (27, 1.017, 12.89), (28, 1.012, 13.79),
        (29, 1.013, 14.74), (30, 1.019, 13.52), (31, 1.016, 14.44), (32, 1.011, 15.30),
        (33, 1.014, 16.27), (34, 1.014, 17.23), (35, 1.015, 15.88), (36, 1.010, 16.82),
        (37, 1.015, 17.72), (38, 1.010, 18.51), (39, 1.005, 19.56), (40, 1.013, 18.19))
        AS t(n, variance_factor, df) ON t.n = trimmed_mean_constants.n
$$;

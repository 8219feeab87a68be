-- test/calibration/trimmed_constants.sql — computes the two small-sample
-- constants of the 20% trimmed mean that compare() uses, the table in
-- microbench.trimmed_mean_constants (results_schema/25_stats.sql), by
-- simulating normal samples of each size n from 5 to max_n:
--   variance_factor  n·Var(trimmed mean) over the mean of its
--                    Tukey-McLaughlin estimate (the winsorized variance
--                    over (1 - 2g/n)²), which falls short in small samples;
--   df               2·E[s²]² / Var(s²) of that estimate: the degrees of
--                    freedom of the chi-square its spread matches.  Yuen's
--                    h - 1 (h = n - 2g values kept) claims about a fifth
--                    more, and the trimmed t comes out liberal (5.9% at 5%
--                    for normal samples of 8, 12 and 17).
--
--   psql -X -A -v samples=200000 -v max_n=40 -f test/calibration/trimmed_constants.sql
--
-- Prints n, g, variance_factor, df (the table; about four minutes here);
-- seeded, so the same on every run.
SELECT setseed(0.5);
SELECT n, g, round((n * var_pop(trimmed) / avg(s2))::numeric, 3) AS variance_factor,
       round((2 * avg(s2) ^ 2 / var_pop(s2))::numeric, 2) AS df
FROM generate_series(5, :max_n) n,
     LATERAL (SELECT floor(0.2 * n)::integer AS g) trim_each,
     LATERAL (
         -- each sample's trimmed mean and scaled winsorized variance
         SELECT avg(x) FILTER (WHERE rank > g AND rank <= n - g) AS trimmed,
                var_samp(least(greatest(x, lo), hi)) / (1 - 2.0 * g / n) ^ 2 AS s2
         FROM (SELECT s, x, rank,
                      min(x) FILTER (WHERE rank > g) OVER (PARTITION BY s) AS lo,
                      max(x) FILTER (WHERE rank <= n - g) OVER (PARTITION BY s) AS hi
               FROM (SELECT s, x, row_number() OVER (PARTITION BY s ORDER BY x) AS rank
                     FROM generate_series(1, :samples) s,
                          LATERAL (SELECT sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS x
                                   FROM generate_series(1, n) WHERE s > 0) draw) ranked) bounded
         GROUP BY s) per_sample
GROUP BY n, g
ORDER BY n;

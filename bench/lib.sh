# bench/lib.sh — the arithmetic both benchmark scripts share: wall-clock
# stamps, medians and ratios, and the load average printed with each round
# (other load on a shared machine skews timings, so every round shows it).
# Sourced by bench/run_bench.sh and bench/run_bench_mysql.sh.

load() { cut -d' ' -f1 /proc/loadavg; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.3f", v[(NR + 1) / 2]; else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%." d "f", a / b }'; }   # ratio A B [DECIMALS]

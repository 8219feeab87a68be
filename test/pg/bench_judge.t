#!/usr/bin/env bash
# test/pg/bench_judge.t — the benchmark scripts' summary, judged by the
# results schema's compare() (bench/lib.sh: judge_start, judge,
# summary_row) in a throwaway results database, as the scripts start it:
#   - a rate well above its goal is met, well below it MISSED, one whose
#     interval holds the goal unresolved, in either direction;
#   - a cost (seconds) is judged the right way up: its ratio reads
#     ours / peer, below 1 when ours takes less time;
#   - the ratio is the pairs' geometric mean and its interval holds it;
#   - the summary prints each side's median, the ratio and the verdict;
#   - nothing stays in the database, and bad input is refused in one line.
#
# Run by test/pg_suite.sh with the other shell tests; needs PG_CONFIG's (or
# the PATH's) Postgres, as the benchmark scripts do.
set -u
. "$(dirname "$0")/../tap.sh"
# shellcheck source=../../bench/lib.sh
. "$(dirname "$0")/../../bench/lib.sh"
me=bench_judge.t

BENCH_PORT=${MB_TEST_PORT:-5432}
ROUNDS=8
bench_workdir mb_bench_judge none
judge_start
ok $? "judge_start: a results database with the schema loaded"

verdict_of() {  # KIND OURS PEER [OP GOAL]: judge's last word
    judge "$@" | awk '{ print $5 }'
}

# ours twice the peer, give or take 5% a round
fast=(200 210 190 205 199 201 208 195) base=(100 101 99 103 100 98 102 100)
read -r ratio low high level verdict < <(judge rate fast base ">=" 1.5)
is "$verdict" met "a rate well above its goal is met"
is "$level" "95.0%" "at 95% confidence"
ok "$(awk -v r="$ratio" -v l="$low" -v h="$high" 'BEGIN { exit !(l < r && r < h && r > 1.95 && r < 2.05) }'; echo $?)" \
    "the ratio ($ratio) is ours/peer, inside its interval ($low-$high)"
want=$(awk -v a="${fast[*]}" -v b="${base[*]}" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
    for (i = 1; i <= n; i++) s += log(x[i] / y[i]); printf "%.3f", exp(s / n) }')
is "$ratio" "$want" "the ratio is the geometric mean of the rounds' ratios"
is "$(verdict_of rate fast base ">=" 2.2)" MISSED "a rate well below its goal is MISSED"
is "$(verdict_of rate fast base ">=" 2.0)" unresolved "a goal inside the interval is unresolved"
is "$(verdict_of rate fast base)" - "no goal, no verdict"

# rounds of exactly 1.5 and 1.6 alternating
third=(150 160 150 160 150 160 150 160) one=(100 100 100 100 100 100 100 100)
read -r ratio low high level verdict < <(judge rate third one ">=" 1.55)
is "$verdict" unresolved "a goal between the rounds' ratios is unresolved ($low-$high)"
is "$(verdict_of rate third one ">" 1.4)" met "a strict goal below the interval is met"
is "$(verdict_of rate third one "<" 1.4)" MISSED "a goal in the other direction is MISSED"
is "$(verdict_of rate third one "<=" 1.55)" unresolved "and unresolved the other way too"

# a cost: ours takes a tenth of the peer's seconds
secs_ours=(1.0 1.1 0.9 1.0 1.05 0.95 1.0 1.02) secs_peer=(10 10.5 9.8 10.2 10 9.9 10.1 10)
read -r ratio low high level verdict < <(judge cost secs_ours secs_peer "<=" 0.12)
is "$verdict" met "a cost well below its goal is met"
ok "$(awk -v r="$ratio" 'BEGIN { exit !(r > 0.09 && r < 0.11) }'; echo $?)" "a cost's ratio reads ours/peer seconds ($ratio)"
is "$(verdict_of cost secs_ours secs_peer "<=" 0.05)" MISSED "a cost above its goal is MISSED"

# the summary's line
line=$(summary_row "prepare seconds vs sysbench" %.3f cost secs_ours secs_peer "<=" 0.12)
like "$line" "^prepare seconds vs sysbench +1\.000 +10\.000 +0\.[01][0-9]{2}x +0\.[0-9]{3}-0\.[0-9]{3}x +<= 0\.12x  met$" \
    "summary_row: the medians, the ratio, its interval and the verdict"
line=$(summary_row "QPS, new vs old" %.0f rate fast base)
like "$line" "^QPS, new vs old +200 +100 +2\.[0-9]{3}x .*\(information, no goal\)$" "summary_row without a goal"

# nothing stays
is "$(judge_psql -c "SELECT count(*) FROM microbench.runs")" 0 "the judged runs are rolled back"

# bad input: one line, exit 2
short=(1 2 3)
err=$(judge rate fast short 2>&1 >/dev/null); rc=$?
is "$rc" 2 "rounds that do not pair up are refused"
like "$err" "judge: fast has 8 rounds, short 3" "naming both arrays"
zero=(100 0 100 100 100 100 100 100)
err=$(judge rate zero base 2>&1 >/dev/null); rc=$?
is "$rc" 2 "a figure of 0 is refused"
like "$err" "a figure must be a number above 0, not '0'" "saying why"
junk=(100 "1; DROP TABLE microbench.runs" 100 100 100 100 100 100)
err=$(judge rate junk base 2>&1 >/dev/null); rc=$?
is "$rc" 2 "a figure that is not a number is refused before any SQL"
err=$(judge speed fast base 2>&1 >/dev/null); rc=$?
is "$rc" 2 "an unknown kind is refused"
err=$(judge rate fast base "=>" 1 2>&1 >/dev/null); rc=$?
is "$rc" 2 "an unknown operator is refused"
is "$(judge_psql -c "SELECT count(*) FROM microbench.runs")" 0 "the runs table is still there, empty"

done_testing

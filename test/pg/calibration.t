#!/usr/bin/env bash
# test/pg/calibration.t — compare()'s error rates, by simulation with the
# noise of real runs on this project's VM (test/calibration/): at the
# default settings, an A/A report of 64 cells shows any difference at most
# 5% of the time, a 4% change (twice the threshold) is called the same at
# most 5% of the time; and, as floors under what this machine's noise
# allows within the rounds the runner gives, a 25% change is called a
# difference at least 85% of the time on Postgres and 70% on MariaDB (a
# 10% change is reported, not held to a goal: the noise allows about half).  The draws are
# seeded, so the figures are the same on every run (and on every Postgres
# from 15 on); docs/methodology.md prints them from more comparisons.
#
# Run by test/pg_suite.sh; needs PGHOST, PGPORT, PGUSER and PGDATABASE of a
# database with the results schema.  MB_CALIBRATION_SIMS (default 40)
# comparisons a scenario; 0 skips it.
set -u
. "$(dirname "$0")/../tap.sh"

sims=${MB_CALIBRATION_SIMS:-40}
if [ "$sims" = 0 ]; then
    echo "ok 1 # skip MB_CALIBRATION_SIMS=0"
    tap_count=1
    done_testing
    exit $?
fi
here=$(cd "$(dirname "$0")/.." && pwd)
out=$("$here/calibration/calibrate.sh" "$sims" 2>&1)
status=$?
echo "$out" | sed 's/^/# /'
is "$(grep -c 'goal' <<<"$out")" 5 "the five figures with a goal were measured ($sims comparisons of 64 cells a scenario)"
for figure in "reports with any difference" "A/A: cells called a difference" "cells called the same" "25%, postgres" "25%, mariadb"; do
    line=$(grep -F "$figure" <<<"$out" | grep goal)
    ok "$(grep -q ': met$' <<<"$line"; echo $?)" "${line:-$figure: no figure}"
done
is "$status" 0 "calibrate.sh says every goal is met"
done_testing

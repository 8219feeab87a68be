#!/usr/bin/env bash
# test/run_compare_tests.sh — the tests of microbench compare: it starts its
# own servers (Debian's Postgres 15 and mariadbd, each named twice), so this
# only needs the extension installed (make install) and the client built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tests=("$here"/compare/*.t)
if [ $# -gt 0 ]; then tests=("$@"); fi
prove --failures --timer "${tests[@]}"

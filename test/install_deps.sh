#!/usr/bin/env bash
# test/install_deps.sh — install the Debian packages microbench needs, if missing.
#
# Called by `make test`, `make demo` and `make bench`, and by CI, so a fresh
# Debian machine needs no manual set-up.  Installs only what is absent;
# needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
    build-essential
    postgresql-15 postgresql-server-dev-15 postgresql-contrib
    postgresql-15-pgtap libtap-parser-sourcehandler-pgtap-perl
    libpq-dev libjson-c-dev sysbench
    mariadb-server mariadb-client libmariadb-dev
    chromium fonts-dejavu-core python3
    valgrind
    git ansible
)

missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# the packages start system servers; the tests start their own throwaway ones
if [ "$(id -u)" = 0 ] && command -v service >/dev/null; then
    service mariadb stop >/dev/null 2>&1 || true
fi

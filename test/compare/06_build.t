#!/usr/bin/env bash
# 06_build.t — microbench compare build refuses, in one line with exit 2
# and before compiling anything, what cannot give two comparable builds:
# a tree that is neither Postgres nor MariaDB, a MySQL tree, a compiler
# that is not there, a C compiler without a C++ one of its family (for
# MariaDB), a relative prefix.  The builds themselves take 5–20 minutes
# each and are shown in docs/results/gcc-vs-clang.md, not here.
set -u
. "$(dirname "$0")/lib.sh"

build_refused() {   # build_refused WANT_MESSAGE_REGEX DESCRIPTION ARGS...
    local want=$1 desc=$2; shift 2
    "$MB" compare build "$@" >"$scratch/out" 2>"$scratch/err"
    local rc=$?
    is "$rc:$(grep -cE -e "$want" "$scratch/err"):$(ls "$scratch" | grep -c '^pfx')" "2:1:0" \
       "$desc: exit 2, one clear line, nothing made"
}
mkdir -p "$scratch/maria/storage/maria" "$scratch/mysql/sql" "$scratch/bin"
touch "$scratch/maria/CMakeLists.txt" "$scratch/mysql/CMakeLists.txt" "$scratch/mysql/sql/mysqld.cc"
printf '#!/bin/sh\nexec gcc "$@"\n' >"$scratch/bin/mycc" && chmod +x "$scratch/bin/mycc"

build_refused 'neither a Postgres nor a MariaDB source tree' "a directory that is no source tree" \
    --src "$scratch/bin" --cc gcc --prefix-base "$scratch/pfx"
build_refused 'is a MySQL tree: build it with its own cmake' "a MySQL tree" \
    --src "$scratch/mysql" --cc gcc --prefix-base "$scratch/pfx"
build_refused 'compiler no-such-cc not found' "a compiler that is not there" \
    --src "$scratch/maria" --cc gcc --cc no-such-cc --prefix-base "$scratch/pfx"
build_refused 'no C\+\+ compiler of the family of .*mycc' "MariaDB with a C compiler of no known family" \
    --src "$scratch/maria" --cc "$scratch/bin/mycc" --prefix-base "$scratch/pfx"
build_refused 'give an absolute path' "a relative --prefix-base" \
    --src "$scratch/maria" --cc gcc --prefix-base pfx
build_refused 'give --cc once per compiler' "no compiler" --src "$scratch/maria" --prefix-base "$scratch/pfx"
build_refused 'unknown option --jobs \(microbench compare build --help\)' "an unknown option" \
    --src "$scratch/maria" --cc gcc --jobs 2 --prefix-base "$scratch/pfx"
"$MB" compare build --help >"$scratch/out" 2>&1
is "$?:$(grep -c '^Usage: microbench compare build --src DIR --cc CC' "$scratch/out")" "0:1" "--help: the usage, exit 0"

done_testing

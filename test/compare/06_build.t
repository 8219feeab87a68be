#!/usr/bin/env bash
# 06_build.t — microbench compare build refuses, in one line with exit 2
# and before compiling anything, what cannot give two comparable builds:
# a tree that is neither Postgres nor MariaDB, a MySQL tree, a compiler
# that is not there, a C compiler without a C++ one of its family (for
# MariaDB), a relative prefix, several trees without a label each or with
# one label twice.  Where the builds of labelled trees go shows in a
# tree whose configure fails: its log's path names the build.  The builds themselves take 5–20 minutes
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
build_refused 'several trees need a label each' "two trees, one without a label" \
    --src 15="$scratch/maria" --src "$scratch/maria" --cc gcc --prefix-base "$scratch/pfx"
build_refused 'the label 15 is given twice' "one label twice" \
    --src 15="$scratch/maria" --src 15="$scratch/maria" --cc gcc --prefix-base "$scratch/pfx"
build_refused 'a label is letters, digits and' "a label with a slash" \
    --src a/b="$scratch/maria" --cc gcc --prefix-base "$scratch/pfx"
build_refused 'is a MySQL tree' "a MySQL tree second in a series" \
    --src 15="$scratch/maria" --src 17="$scratch/mysql" --cc gcc --prefix-base "$scratch/pfx"

mkdir -p "$scratch/debtree/src/backend" "$scratch/debtree/debian/patches"
printf '#!/bin/sh\nexit 1\n' >"$scratch/debtree/configure" && chmod +x "$scratch/debtree/configure"
build_refused "is Debian's patched tree" "Debian's patched Postgres tree second in a series, before any build" \
    --src 15="$scratch/maria" --src 17="$scratch/debtree" --cc gcc --prefix-base "$scratch/pfx"

# a Postgres tree whose configure fails at once: the refusal names the
# build's own directory, PATH-LABEL for a labelled tree and one compiler,
# PATH-LABEL-CC for several compilers, PATH-CC for an unlabelled tree
mkdir -p "$scratch/pgtree/src/backend"
printf '#!/bin/sh\necho "no configure here" >&2\nexit 1\n' >"$scratch/pgtree/configure"
chmod +x "$scratch/pgtree/configure"
build_dir_named() {   # build_dir_named WANT_DIR DESCRIPTION ARGS...
    local want=$1 desc=$2; shift 2
    "$MB" compare build "$@" --prefix-base "$scratch/pfx" >"$scratch/out" 2>"$scratch/err"
    is "$?:$(grep -c "failed; see $scratch/$want.build/configure.log" "$scratch/err")" "1:1" "$desc: $want"
}
build_dir_named pfx-15 "a labelled tree, one compiler" --src 15="$scratch/pgtree" --cc gcc
build_dir_named pfx-15-gcc "a labelled tree, two compilers" --src 15="$scratch/pgtree" --cc gcc --cc cc
build_dir_named pfx-gcc "one tree without a label" --src "$scratch/pgtree" --cc gcc
rm -rf "$scratch"/pfx*

"$MB" compare build --help >"$scratch/out" 2>&1
is "$?:$(grep -c '^Usage: microbench compare build --src \[LABEL=\]DIR' "$scratch/out")" "0:1" "--help: the usage, exit 0"

done_testing

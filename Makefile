# Makefile — microbench: build, install, test and demo.
#
#   make            build the extension (and, where present, the client)
#   make install    install the extension into the Postgres of pg_config
#   make test       unit tests, then pgTAP tests on a throwaway cluster
#   make demo       install what is missing, start a throwaway cluster and
#                   run a few microbenchmarks
#   make bench      the benchmark script (ratios against peers)
#   make clean

PG_CONFIG ?= pg_config
export PG_CONFIG

.PHONY: all install test unit-test pg-test demo bench deps clean

all:
	$(MAKE) -C extension

install: all
	$(MAKE) -C extension install

unit-test:
	$(MAKE) -C test/unit check

pg-test: install
	test/run_pg_tests.sh

test: deps
	$(MAKE) unit-test
	$(MAKE) pg-test

deps:
	test/install_deps.sh

demo: deps
	$(MAKE) install
	test/demo.sh

bench: deps
	$(MAKE) install
	bench/run_bench.sh

clean:
	$(MAKE) -C extension clean
	$(MAKE) -C test/unit clean
	rm -f common/*.o

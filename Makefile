# Makefile — microbench: build, install, test and demo.
#
#   make            build the extension and the client (MySQL, MariaDB and
#                   Postgres over the wire)
#   make install    install the extension into the Postgres of pg_config,
#                   microbench into PREFIX/bin and what its comparison
#                   runner reads into PREFIX/share/microbench
#   make test       unit tests, pgTAP tests on a throwaway cluster, the
#                   client's tests on a throwaway MariaDB and (driver pgsql)
#                   on a throwaway Postgres, microbench compare's, a short
#                   demo's, a fleet's (many hosts pushing to one database,
#                   the Ansible playbook), the showcase's reports made again
#                   from its runs, the release tarball's; runs every suite, TEST_JOBS (2)
#                   side by side, then fails with a summary of those that
#                   failed
#   make installcheck  the Postgres tests against the server PGHOST, PGPORT
#                   and PGUSER name (extension installed there already)
#   make dist       microbench-VERSION.tar.gz of the committed tree (HEAD)
#   make demo       install what is missing, build, compare two settings of
#                   the installed Postgres and MariaDB counted and timed
#                   (microbench compare), print both reports and what they
#                   say together
#   make bench      the benchmark script (ratios against peers)
#   make clean

PG_CONFIG ?= pg_config
export PG_CONFIG
PREFIX ?= /usr/local

.PHONY: all install test unit-test pg-test mysql-test pgsql-test compare-test demo-test fleet-test showcase-test dist-test installcheck dist \
	demo bench deps clean

# the release version, as PGXN sees it
VERSION = $(shell sed -n 's/^   "version": "\(.*\)",/\1/p' META.json)

all:
	$(MAKE) -C extension
	$(MAKE) -C client

# What microbench compare reads once installed, under PREFIX/share/microbench
# in the source tree's layout: the extension's sources, which it builds into
# every Postgres build it compares, and the source-build script of compare
# build (client/compare/mbm_files.c finds them from the program's path).
SHARE_DIR = $(DESTDIR)$(PREFIX)/share/microbench
RUNNER_SOURCES = $(wildcard common/*.c common/*.h) \
	$(wildcard extension/*.c extension/*.h) extension/Makefile extension/microbench.control \
	extension/microbench_functions.sql extension/sql/microbench--0.1.sql \
	$(wildcard extension/upgrade/*.sql) \
	$(wildcard results_schema/*.sql) $(wildcard results_schema/upgrade/*.sql)

install: all
	$(MAKE) -C extension install
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 client/microbench $(DESTDIR)$(PREFIX)/bin/microbench
	@# the earlier names of microbench and microbench compare, gone
	rm -f $(DESTDIR)$(PREFIX)/bin/microbench-compare $(DESTDIR)$(PREFIX)/bin/microbench-mysql
	rm -rf $(SHARE_DIR)
	install -d $(SHARE_DIR)/common $(SHARE_DIR)/extension/sql $(SHARE_DIR)/extension/upgrade \
		$(SHARE_DIR)/results_schema $(SHARE_DIR)/results_schema/upgrade
	for f in $(RUNNER_SOURCES); do install -m 644 $$f $(SHARE_DIR)/$$f || exit 1; done
	install -m 755 client/compare/microbench-build $(SHARE_DIR)/microbench-build

# Each suite alone builds or installs what it needs first; make test does
# that once and then runs the suites side by side with SUITE_SETUP empty
# (two makes installing the same files at once would race).
SUITE_SETUP ?= install
TEST_JOBS ?= 2

unit-test:
	$(MAKE) -C test/unit check
	$(MAKE) -C results_schema check
	test/unit/client_layout.sh
	test/unit/extension_layout.sh
	test/unit/function_length.sh
	test/unit/sql_function_length.sh
	test/unit/json_by_parser.sh
	test/unit/server_kinds.sh

pg-test: $(SUITE_SETUP)
	test/run_pg_tests.sh

mysql-test: $(if $(SUITE_SETUP),all)
	test/run_mysql_tests.sh

pgsql-test: $(SUITE_SETUP)
	test/run_pgsql_tests.sh

compare-test: $(SUITE_SETUP)
	test/run_compare_tests.sh

# a fleet's central database: pushes from many hosts, the playbook on two
fleet-test: $(if $(SUITE_SETUP),all)
	test/run_fleet_tests.sh

# make demo in a short form, with its acceptance's checks
demo-test: $(SUITE_SETUP)
	prove --failures test/demo.t

dist-test:
	test/dist_test.sh

# the showcase's counted reports made again from its committed runs
showcase-test: $(SUITE_SETUP)
	prove --failures --timer test/showcase_reports.t

# the longest suites start first and the rest queue behind
test: deps
	$(MAKE) install
	SUITE_SETUP= test/run_suites.sh -j $(TEST_JOBS) compare-test pg-test demo-test mysql-test pgsql-test fleet-test showcase-test dist-test unit-test

installcheck:
	MB_TEST_EXISTING_SERVER=1 test/pg_suite.sh

DIST_DIR ?= .
dist:
	git archive --format=tar.gz --prefix=microbench-$(VERSION)/ -o $(DIST_DIR)/microbench-$(VERSION).tar.gz HEAD
	@echo "written: $(DIST_DIR)/microbench-$(VERSION).tar.gz"

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
	$(MAKE) -C client clean
	$(MAKE) -C results_schema clean
	$(MAKE) -C test/unit clean
	rm -f common/*.o microbench-*.tar.gz

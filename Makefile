# libvxpeak - static peak-memory analysis for Vx programs.
#
# Set-up on a fresh machine is two commands:  make demo   and   make check
# Everything builds into $(BUILD)/ (default build/); the source tree is never written,
# except by `make grammar`, which regenerates grammar/src/ with the pinned tree-sitter CLI.

# ----------------------------------------------------------------------------- versions

VERSION := $(shell sed -n 's/^\#define VXP_VERSION_STRING "\(.*\)"/\1/p' include/vxpeak.h)
MAJOR := $(word 1,$(subst ., ,$(VERSION)))
MINOR := $(word 2,$(subst ., ,$(VERSION)))
# Before 1.0 every minor release may break the ABI, so the SONAME carries it (as
# tree-sitter does); after 1.0 it is the major version alone.
SOVERSION := $(if $(filter 0,$(MAJOR)),$(MAJOR).$(MINOR),$(MAJOR))

TREE_SITTER_CLI_VERSION := 0.26.12
GRAMMAR_ABI := 14

# ----------------------------------------------------------------------------- tools, flags

BUILD ?= build
CC ?= cc
# Installation directories (make install PREFIX=... DESTDIR=...).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PCLIBDIR ?= $(LIBDIR)/pkgconfig
MANDIR ?= $(PREFIX)/share/man
FLEETDIR ?= $(PREFIX)/share/vxpeak/fleet
CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-missing-field-initializers
override CFLAGS += -std=c11 -D_POSIX_C_SOURCE=200809L -fPIC -fvisibility=hidden
# Every object and test records the headers it includes ($(BUILD)/**/*.d, read at the end of
# this file), so touching a header rebuilds exactly what includes it.
DEPFLAGS = -MMD -MP
DEP_CFLAGS := $(shell pkg-config --cflags tree-sitter jansson 2>/dev/null)
# The library needs tree-sitter alone (it makes no jansson calls: its JSON is streamed); the
# command, whose language server speaks JSON-RPC through jansson, and the tests, which check
# the library's JSON against jansson's, need both.
LIB_DEP_LIBS := $(shell pkg-config --libs tree-sitter 2>/dev/null || echo -ltree-sitter) -lm
DEP_LIBS := $(shell pkg-config --libs tree-sitter jansson 2>/dev/null || echo -ltree-sitter -ljansson) -lm
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

LIB_CFLAGS = $(CFLAGS) $(WARNINGS) -Iinclude -Ilib -I$(BUILD)/gen $(DEP_CFLAGS) -DVXP_BUILDING_DLL
# The generated parser is compiled without our warning set: it is tree-sitter's code shape.
GRAMMAR_CFLAGS = $(CFLAGS) -Igrammar/src -DTREE_SITTER_HIDE_SYMBOLS
# Flags for the generated parser alone (the libFuzzer build sets them: see FUZZ_PARSER_FLAGS).
PARSER_CFLAGS ?=
# The CLI sees only the public header (checked: no -Ilib; make check-public). It looks
# for fleet models in the installed fleet; the build-tree binary also in this checkout's
# fleet/, the installed one (make install) not.
CLI_CFLAGS = $(CFLAGS) $(WARNINGS) -Iinclude $(shell pkg-config --cflags jansson 2>/dev/null) -DVXPEAK_FLEET_DIR='"$(FLEETDIR)"'
TEST_CFLAGS = $(CFLAGS) -Wall -Wextra -Werror -Wno-missing-field-initializers -Iinclude -Ilib \
	-I$(BUILD)/gen $(DEP_CFLAGS)

# ----------------------------------------------------------------------------- sources

# lib/report/ renders the reports; lib/codegen/ is the optional CUDA stage: built into the
# library, used only when asked.
LIB_SRCS := $(sort $(wildcard lib/*.c)) $(sort $(wildcard lib/report/*.c)) \
	$(sort $(wildcard lib/codegen/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/gen/builtin_machines.o \
	$(BUILD)/gen/cuda_prelude.o $(BUILD)/grammar/parser.o $(BUILD)/grammar/scanner.o
CLI_SRCS := $(sort $(wildcard bindings/cli/*.c))
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
# The language server (`vxpeak lsp`): its own directory, linked into the command, a client
# of the public header plus jansson for its messages.
LSP_SRCS := $(sort $(wildcard bindings/lsp/*.c))
LSP_OBJS := $(LSP_SRCS:%.c=$(BUILD)/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
# Every fleet model is compiled into the library, so `--machine NAME` works from any
# directory even when the fleet is not installed.
FLEET_FILES := $(sort $(wildcard fleet/*.vx))
BUILTIN_MACHINES := $(foreach f,$(FLEET_FILES),$(basename $(notdir $(f)))=$(f))

SHARED := $(BUILD)/libvxpeak.so.$(VERSION)
SONAME := libvxpeak.so.$(SOVERSION)
STATIC := $(BUILD)/libvxpeak.a
CLI := $(BUILD)/vxpeak

.PHONY: layers hostile hostile-smoke test-quick docs-check fulltest deep all fuzz fuzz-build fuzz-parallel fuzz-harnesses fuzz-smoke fuzz-mutate fuzz-regressions asan-clang shared static cli deps demo check test unit golden wrong sarif plot codegen codegen-nvcc asan \
	grammar grammar-check format-check bench conformance conformance-selftest grammar-tests clean format help abi headertest check-exports \
	check-public check-needed check-tables check-manpage abi-lists check-abi-lists tsan examples install uninstall install-test python-test python-wheel-test lsp-test FORCE

all: shared static cli

help:
	@echo "make demo            build everything and analyse the Llama-2-7B example"
	@echo "make check           build and run the quick tests (about 4 minutes on 2 cores)"
	@echo "make fulltest        make check, then the long battery: hostile, sanitizers, fuzz, nvcc, install (CI)"
	@echo "make docs-check      run every transcript of the README, docs/ and --help (in check)"
	@echo "make asan            run every test under AddressSanitizer + UBSan"
	@echo "make asan-clang      the same built with clang"
	@echo "make fuzz            run the libFuzzer harnesses for FUZZ_SECONDS each (clang)"
	@echo "make fuzz-parallel   every harness at once, FUZZ_PROCS processes each (many cores)"
	@echo "make fuzz-harnesses  the harnesses built with CC and a plain driver, over the corpora (in check)"
	@echo "make tsan            run the threads test under ThreadSanitizer"
	@echo "make install         install into PREFIX (default /usr/local), staged under DESTDIR"
	@echo "make uninstall       remove what make install installed"
	@echo "make install-test    install into a temporary prefix and build the examples there"
	@echo "make bench           run the benchmarks (medians and ratios)"
	@echo "make layers          lib/'s includes against tests/layers/layers.txt, vxpeak.h against its contents (in check)"
	@echo "make abi             headertest, check-abi-lists, check-exports, check-needed, check-public, check-manpage (in check)"
	@echo "make abi-lists       regenerate exports.txt, vxpeak.map and the ctypes table from vxpeak.h"
	@echo "make format          format every C file with .clang-format (make check runs format-check)"
	@echo "make python-test     the Python package: mypy --strict and pytest (part of check)"
	@echo "make python-wheel-test  build the sdist and wheel, install the wheel in a new venv, run pytest there"
	@echo "make lsp-test        the language server with pytest-lsp and headless Neovim (part of check)"
	@echo "make grammar         regenerate grammar/src with tree-sitter-cli $(TREE_SITTER_CLI_VERSION)"
	@echo "make grammar-check   fail if grammar/src differs from a fresh generation"
	@echo "make conformance     parse rate and capacity verdicts on real Vx programs in tests/conformance/vx/"
	@echo "make deps            install the Debian packages the build needs"

# ----------------------------------------------------------------------------- dependencies

DEB_PACKAGES := gcc g++ make pkg-config libtree-sitter-dev libjansson-dev libcmocka-dev python3 \
	python3-venv neovim clang libclang-rt-14-dev clang-format
deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all present ($(DEB_PACKAGES))"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "deps: installing$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	elif [ -n "$$CI" ] && sudo -n true 2>/dev/null; then \
	  echo "deps: installing$$missing with sudo"; \
	  sudo -n apt-get update -qq && sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else \
	  echo "deps: missing$$missing; run:"; \
	  echo "  sudo apt-get install -y$$missing"; exit 1; \
	fi
	@sh tests/lsp/pydeps.sh >/dev/null || echo "deps: pytest-lsp is not installed; make lsp-test will try again"

# ----------------------------------------------------------------------------- library

shared: $(SHARED)
static: $(STATIC)
cli: $(CLI)

$(BUILD)/gen/builtin_machines.c: lib/embed.sh $(FLEET_FILES)
	@mkdir -p $(@D)
	sh lib/embed.sh $@ $(BUILTIN_MACHINES)

$(BUILD)/gen/builtin_machines.o: $(BUILD)/gen/builtin_machines.c
	$(CC) $(LIB_CFLAGS) $(DEPFLAGS) -Wno-overlength-strings -c $< -o $@

$(BUILD)/gen/cuda_prelude.c: lib/codegen/embed.sh lib/codegen/prelude.cuh
	@mkdir -p $(@D)
	sh lib/codegen/embed.sh $@ vxp_cuda__prelude lib/codegen/prelude.cuh

$(BUILD)/gen/cuda_prelude.o: $(BUILD)/gen/cuda_prelude.c
	$(CC) $(LIB_CFLAGS) -Wno-overlength-strings -c $< -o $@

$(BUILD)/grammar/parser.o: grammar/src/parser.c
	@mkdir -p $(@D)
	$(CC) $(GRAMMAR_CFLAGS) $(PARSER_CFLAGS) -c $< -o $@

$(BUILD)/grammar/scanner.o: grammar/src/scanner.c
	@mkdir -p $(@D)
	$(CC) $(GRAMMAR_CFLAGS) -c $< -o $@

$(BUILD)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(LIB_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(STATIC): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

# The version script exports exactly lib/exports.txt's functions (make check-exports).
# Every symbol the library uses must resolve at its link (--no-undefined), except under
# clang's sanitizers (asan-clang), whose runtime a shared object takes from the program.
# --no-as-needed: every library named here is a NEEDED entry whatever the toolchain's default,
# so that check-needed sees what the link line asks for (no jansson).
NO_UNDEFINED ?= -Wl,--no-undefined
$(SHARED): $(LIB_OBJS) lib/vxpeak.map
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) $(NO_UNDEFINED) \
	  -Wl,--version-script=lib/vxpeak.map -o $@ $(LIB_OBJS) -Wl,--no-as-needed $(LIB_DEP_LIBS)
	ln -sf libvxpeak.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/libvxpeak.so

$(BUILD)/bindings/cli/%.o: bindings/cli/%.c
	@mkdir -p $(@D)
	$(CC) $(CLI_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/bindings/lsp/%.o: bindings/lsp/%.c bindings/lsp/lsp.h include/vxpeak.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARNINGS) -Iinclude $(shell pkg-config --cflags jansson 2>/dev/null) $(DEPFLAGS) -c $< -o $@

# The installation directories compiled into the command and written into vxpeak.pc: the
# stamp changes (and they are rebuilt) only when PREFIX or a directory variable does.
INSTALL_DIRS := $(PREFIX) $(LIBDIR) $(INCLUDEDIR) $(FLEETDIR)
$(BUILD)/installdirs.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(INSTALL_DIRS)' | cmp -s - $@ 2>/dev/null || echo '$(INSTALL_DIRS)' >$@

$(BUILD)/bindings/cli/machines.o: bindings/cli/machines.c $(BUILD)/installdirs.stamp
	@mkdir -p $(@D)
	$(CC) $(CLI_CFLAGS) $(DEPFLAGS) -DVXPEAK_SOURCE_FLEET_DIR='"$(CURDIR)/fleet"' -c $< -o $@

# The command links the static library so that it runs from any directory.
$(CLI): $(CLI_OBJS) $(LSP_OBJS) $(STATIC)
	$(CC) $(CFLAGS) $(LDFLAGS) -pthread -o $@ $(CLI_OBJS) $(LSP_OBJS) $(STATIC) $(DEP_LIBS)

# The installed command: the same objects, but a machines.o that knows only the installed
# fleet (no path into the build machine's checkout).
$(BUILD)/install/machines.o: bindings/cli/machines.c $(BUILD)/installdirs.stamp
	@mkdir -p $(@D)
	$(CC) $(CLI_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/install/vxpeak: $(filter-out %/machines.o,$(CLI_OBJS)) $(LSP_OBJS) $(BUILD)/install/machines.o $(STATIC)
	$(CC) $(CFLAGS) $(LDFLAGS) -pthread -o $@ $(filter-out $(STATIC),$^) $(STATIC) $(DEP_LIBS)

$(BUILD)/vxpeak.pc: lib/vxpeak.pc.in include/vxpeak.h $(BUILD)/installdirs.stamp
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	  -e 's|@FLEETDIR@|$(FLEETDIR)|' -e 's|@VERSION@|$(VERSION)|' lib/vxpeak.pc.in >$@

# ----------------------------------------------------------------------------- install

install: all $(BUILD)/install/vxpeak $(BUILD)/vxpeak.pc
	install -d '$(DESTDIR)$(LIBDIR)' '$(DESTDIR)$(PCLIBDIR)' '$(DESTDIR)$(INCLUDEDIR)' \
	  '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(FLEETDIR)'
	install -m 644 $(STATIC) '$(DESTDIR)$(LIBDIR)/'
	install -m 755 $(SHARED) '$(DESTDIR)$(LIBDIR)/'
	ln -sf libvxpeak.so.$(VERSION) '$(DESTDIR)$(LIBDIR)/$(SONAME)'
	ln -sf $(SONAME) '$(DESTDIR)$(LIBDIR)/libvxpeak.so'
	install -m 644 include/vxpeak.h '$(DESTDIR)$(INCLUDEDIR)/'
	install -m 644 $(BUILD)/vxpeak.pc '$(DESTDIR)$(PCLIBDIR)/'
	install -m 755 $(BUILD)/install/vxpeak '$(DESTDIR)$(BINDIR)/'
	install -m 644 bindings/cli/vxpeak.1 '$(DESTDIR)$(MANDIR)/man1/'
	install -m 644 $(FLEET_FILES) fleet/README.md '$(DESTDIR)$(FLEETDIR)/'

uninstall:
	rm -f '$(DESTDIR)$(LIBDIR)/libvxpeak.a' '$(DESTDIR)$(LIBDIR)/libvxpeak.so' \
	  '$(DESTDIR)$(LIBDIR)/$(SONAME)' '$(DESTDIR)$(LIBDIR)/libvxpeak.so.$(VERSION)' \
	  '$(DESTDIR)$(INCLUDEDIR)/vxpeak.h' '$(DESTDIR)$(PCLIBDIR)/vxpeak.pc' \
	  '$(DESTDIR)$(BINDIR)/vxpeak' '$(DESTDIR)$(MANDIR)/man1/vxpeak.1'
	rm -f $(FLEET_FILES:fleet/%='$(DESTDIR)$(FLEETDIR)/%') '$(DESTDIR)$(FLEETDIR)/README.md'
	-rmdir '$(DESTDIR)$(FLEETDIR)' '$(DESTDIR)$(FLEETDIR)/..' 2>/dev/null

# Install into a temporary prefix (a build directory of its own, PREFIX and DESTDIR both
# exercised), build examples/c/*.c against it with pkg-config, run them and the installed
# command, then uninstall and check that nothing is left.
install-test: deps
	@sh tests/install/run.sh

# ----------------------------------------------------------------------------- demo

# The Llama-2-7B prefill of the Vx blog post, with no flags: the built-in a100-40 and the
# default host. The peak is printed beside the naive sum, then batch 9, which does not fit.
demo: deps all
	@echo
	@echo '$$ vxpeak check examples/llama2/prefill.vx'
	@NO_COLOR=1 $(CLI) check examples/llama2/prefill.vx; echo "(exit $$?)"
	@echo
	@echo '$$ vxpeak check examples/llama2/prefill.vx -D BATCH=9'
	@out=$$(NO_COLOR=1 $(CLI) check examples/llama2/prefill.vx -D BATCH=9 2>&1); status=$$?; \
	  printf '%s\n' "$$out" | head -5; echo "  ..."; printf '%s\n' "$$out" | tail -1; \
	  echo "(exit $$status)"

# ----------------------------------------------------------------------------- tests

$(BUILD)/tests/test_%: tests/unit/test_%.c $(STATIC)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(DEPFLAGS) -pthread -o $@ $< $(STATIC) $(DEP_LIBS) $(CMOCKA_LIBS)

unit: $(UNIT_BINS)
	@status=0; for t in $(UNIT_BINS); do \
	  $$t || status=1; \
	done; exit $$status

golden: $(CLI)
	@sh tests/golden/verdict_change_test.sh
	@sh tests/golden/run.sh $(CLI)

# The wrong-answer corpus: mistaken programs, each with the diagnostics it must get, none
# admitted silently (UPDATE=1 make wrong rewrites the expected files).
wrong: $(CLI)
	@sh tests/wrong/run.sh $(CLI)

# `vxpeak plot`: SVGs well-formed, their numbers the report's, one rendered by headless
# Chromium into $(BUILD)/plot/ (tests/plot/run.sh installs chromium when it can).
plot: $(CLI)
	@sh tests/plot/run.sh $(CLI) $(BUILD)

# `check --format sarif` validated against the official SARIF 2.1.0 schema, taken from a
# registry package into $(BUILD)/sarif/ (never committed; tests/sarif/run.sh).
sarif: $(CLI)
	@sh tests/sarif/run.sh $(CLI) $(BUILD)

# The C examples, compiled with -Iinclude only and linked against the shared library, run
# on the example programs; tests/examples/run.sh compares their output.
EXAMPLE_SRCS := $(sort $(wildcard examples/c/*.c))
EXAMPLE_OBJS := $(EXAMPLE_SRCS:examples/c/%.c=$(BUILD)/examples/%.o)
EXAMPLE_BINS := $(EXAMPLE_OBJS:%.o=%)

$(BUILD)/examples/%.o: examples/c/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARNINGS) $(DEPFLAGS) -Iinclude -c $< -o $@

$(BUILD)/examples/%: $(BUILD)/examples/%.o $(SHARED)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -L$(BUILD) -lvxpeak -Wl,-rpath,'$(abspath $(BUILD))'

# Then every Vx example's own expectations: its `// RUN:` commands and the `// CHECK:` lines
# that must appear in their output (tests/examples/filecheck.py; the checker checks itself
# first, and a copy of decode.vx with one figure altered must fail); and the programs of
# examples/models/ are what `vxpeak model` writes today (tests/models_regen.sh).
examples: $(EXAMPLE_BINS) $(CLI)
	@sh tests/examples/run.sh $(BUILD)/examples
	@python3 tests/examples/filecheck.py --self-test
	@sh tests/examples/mutant.sh $(CLI)
	@python3 tests/examples/filecheck.py $(CLI)
	@sh tests/models_regen.sh $(CLI)
	@python3 tests/advise/apply.py $(CLI)
	@python3 tests/calibrate/run.py $(CLI)
	@python3 tests/calibrate/vllm_a100.py $(CLI)

# CUDA code generation without a GPU: golden .cu files, and the generated programs built
# against a CPU emulation of the CUDA runtime, whose measured peaks must equal the
# analysis' (tests/codegen/run.sh); then the same programs compiled by nvcc, installed
# from pip when missing (tests/codegen/nvcc.sh). The GPU run is tests/gpu/.
PEAKCMP := $(BUILD)/tests/peakcmp
$(PEAKCMP): tests/codegen/peakcmp.c $(STATIC)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(DEPFLAGS) -o $@ $< $(STATIC) $(DEP_LIBS)

codegen: $(CLI) $(PEAKCMP)
	@sh tests/codegen/run.sh $(CLI) $(PEAKCMP) $(BUILD)

codegen-nvcc: $(CLI)
	@sh tests/codegen/nvcc.sh $(CLI) $(BUILD)

# The grammar against the runtime we link (Debian's 0.20.7, not the CLI's): the corpus,
# our own Vx programs (no ERROR/MISSING node), and every editor query compiling.
GRAMMAR_TEST := $(BUILD)/tests/grammar_test
$(GRAMMAR_TEST): tests/grammar/grammar_test.c $(BUILD)/grammar/parser.o $(BUILD)/grammar/scanner.o
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(DEPFLAGS) -o $@ $< $(BUILD)/grammar/parser.o $(BUILD)/grammar/scanner.o $(DEP_LIBS)

grammar-tests: $(GRAMMAR_TEST)
	@$(GRAMMAR_TEST) corpus grammar/test/corpus
	@$(GRAMMAR_TEST) files tests/corpus
	@$(GRAMMAR_TEST) queries grammar/queries

# The language server driven by real clients: hostile JSON-RPC, pytest-lsp end to end, and
# headless Neovim's built-in client (tests/lsp/run.sh).
lsp-test: $(CLI)
	@sh tests/lsp/run.sh $(CLI) $(BUILD)

# The fuzzing regression corpus: every reproducer of tests/fuzz/regressions/ through every
# command, each run bounded in time and memory (tests/fuzz/regress.py).
fuzz-regressions: $(CLI)
	@python3 tests/fuzz/regress.py $(CLI) $(if $(findstring sanitize,$(CFLAGS)),--sanitized)

# Every nesting form at the depth where a limit stops it, and one level short of it, through
# the walks that follow the tree (tests/fuzz/deep.py): under make asan and make asan-clang a
# walk that takes too large a frame per level overflows the stack there.
deep: $(CLI)
	@python3 tests/fuzz/deep.py $(CLI) $(BUILD)/deep $(if $(findstring sanitize,$(CFLAGS)),--sanitized)

# The test tiers. test-quick is make check's battery (about 4 minutes on 2 cores after the
# build); test adds the runs that take longer or need a browser (the rendered plots, every
# nesting form at its limit): it is what make asan and make asan-clang run under the
# sanitizers. make fulltest (CI) is check plus everything else.
test-quick: layers unit check-tables golden wrong sarif examples docs-check codegen grammar-tests \
	conformance-selftest lsp-test fuzz-regressions fuzz-harnesses
test: test-quick plot deep

# The documentation is a test: every `$ vxpeak` transcript of the README, docs/ and the man
# page, every example of --help and every C program of the docs run as shown
# (tests/docs/transcripts.py), every ```pycon session (bindings/python/README.md) runs as
# shown against $(SHARED) (tests/docs/pycon.py), and docs/codes.md is what lib/codes.def
# generates.
# PYCON=0 (the sanitizer builds) leaves the Python sessions out: the interpreter is not
# instrumented and cannot load a sanitized library; make check runs them on the plain one.
PYCON ?= 1
docs-check: $(CLI) $(SHARED)
	@python3 tests/docs/transcripts.py --self-test
	@python3 tests/docs/pycon.py --self-test
	@if [ "$(PYCON)" = 1 ]; then python3 tests/docs/pycon.py $(SHARED); \
	else echo "pycon.py: the Python sessions are left out of this sanitized build (make docs-check runs them)"; fi
	@python3 tests/docs/codes.py check
	@CC="$(CC)" DOCS_CFLAGS="$(CFLAGS) $(LDFLAGS)" python3 tests/docs/transcripts.py $(CLI)

# lib/'s include graph against the layers of tests/layers/layers.txt (docs/design.md, "Layers"):
# an include that reaches up a layer, or a module no layer declares, fails and is named; and
# include/vxpeak.h against its Contents list: every function in a listed section, with a doc
# comment that opens with what it is for. The checkers first show that they fail on faults
# planted in copies of lib/ and of the header.
layers:
	@sh tests/layers/test_check_layers.sh
	@python3 tests/layers/check_layers.py
	@python3 tests/layers/check_header.py

# Every table field of struct vxp_analysis is in analysis_tables (lib/analysis.c), which seals
# it into the analysis' arena: one left off would never be freed.
check-tables:
	@python3 tests/arena/sealed_tables.py


# The hostile-input catalogue: 80 generated cases through the command, each bounded in time
# and memory (tests/fuzz/hostile.py; the cases are written to $(BUILD)/hostile/ and removed).
hostile: $(CLI)
	@python3 tests/fuzz/hostile.py $(CLI) $(BUILD)/hostile

# A few hostile cases of each kind, seconds in all (the whole catalogue is make hostile).
hostile-smoke: $(CLI)
	@python3 tests/fuzz/hostile.py $(CLI) $(BUILD)/hostile --smoke

check: deps all
	@$(MAKE) --no-print-directory format-check test-quick abi python-test hostile-smoke
	@echo "make check: all tests passed"

# Everything: make check, then the long battery (CI runs this: .ci/run).
fulltest: check
	@$(MAKE) --no-print-directory plot deep hostile codegen-nvcc
	@$(MAKE) --no-print-directory asan
	@$(MAKE) --no-print-directory asan-clang
	@$(MAKE) --no-print-directory fuzz-smoke FUZZ_SMOKE_SECONDS=10
	@$(MAKE) --no-print-directory tsan
	@$(MAKE) --no-print-directory install-test
	@$(MAKE) --no-print-directory python-wheel-test
	@echo "make fulltest: all tests passed"

# The Python package: mypy --strict and the pytest suite against $(SHARED) from the
# checkout. The tools come from the virtual environment of bindings/python/dev-venv.sh (pip,
# once per machine).
python-test: $(SHARED) $(CLI)
	@sh bindings/python/run-tests.sh $(BUILD)

# The package as a user installs it (a step of .ci/run; a minute or more, as it compiles the
# library again from the sdist): the wheel built by `python -m build` from the sdist,
# installed into a new virtual environment, and the pytest suite run against it there.
python-wheel-test:
	@sh bindings/python/wheel-test.sh $(BUILD)

# ----------------------------------------------------------------------------- ABI hygiene

# The header compiles as C89/C99/C11/C++; the exported symbols are exactly lib/exports.txt
# (= header = version script); the command uses nothing but the public header.
abi: headertest check-abi-lists check-exports check-needed check-public check-manpage

# lib/exports.txt, lib/vxpeak.map and the ctypes table of bindings/python/vxpeak/_ffi.py are
# generated from include/vxpeak.h (lib/abi_lists.py): after adding a function to the header,
# `make abi-lists` writes them; check-abi-lists fails when a checked-in one is stale.
abi-lists:
	@python3 lib/abi_lists.py write

check-abi-lists:
	@python3 lib/abi_lists.py check

headertest:
	@sh tests/headertest/run.sh

check-exports: $(SHARED)
	@sh tests/abi/check_exports.sh $(SHARED)

# The shared library needs tree-sitter, libm and libc, and not jansson.
check-needed: $(SHARED)
	@sh tests/abi/needed.sh $(SHARED)

# The man page lists every command and option of `vxpeak --help`.
check-manpage: $(CLI)
	@sh tests/abi/manpage.sh $(CLI)

check-public: $(CLI_OBJS) $(LSP_OBJS) $(EXAMPLE_OBJS)
	@sh tests/abi/public_only.sh $(CLI_OBJS) $(LSP_OBJS) $(EXAMPLE_OBJS)

# ----------------------------------------------------------------------------- benchmarks
#
# Every tests/bench/bench_*.c is a program built against the static library (optimised) and
# run; every tests/bench/bench_*.sh is run with the path of the build directory. Each
# prints its own medians and ratios.

BENCH_SRCS := $(sort $(wildcard tests/bench/bench_*.c))
BENCH_BINS := $(BENCH_SRCS:tests/bench/%.c=$(BUILD)/bench/%)
BENCH_SCRIPTS := $(sort $(wildcard tests/bench/bench_*.sh))

$(BUILD)/bench/%: tests/bench/%.c $(STATIC)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(DEPFLAGS) -O2 -o $@ $< $(STATIC) $(DEP_LIBS)

bench: all $(BENCH_BINS)
	@for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done
	@for s in $(BENCH_SCRIPTS); do echo "== $$s"; sh $$s $(BUILD) || exit 1; done

# Every test again, built with AddressSanitizer and UndefinedBehaviorSanitizer into a
# separate build directory.
# Both also turn on the library's invariant checks (VXP__ASSERT, lib/internal.h).
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all \
	-DVXP_ASSERTIONS
asan: deps
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/asan CFLAGS="$(SAN_FLAGS)" \
	  LDFLAGS="-fsanitize=address,undefined" PYCON=0 test
	@echo "make asan: all tests passed under ASan+UBSan ($(CC))"

# The same with clang, whose UBSan sees what gcc's does not (a NULL pointer plus an
# offset, for one): objects in $(BUILD)/clang/asan/.
asan-clang: deps
	@$(MAKE) --no-print-directory CC=clang BUILD=$(BUILD)/clang NO_UNDEFINED= asan

# The threading statement of vxpeak.h, executed under ThreadSanitizer: the library and
# tests/unit/test_threads.c built with -fsanitize=thread into a separate build directory,
# then the language server (its reader thread cancels running analyses; tests/lsp/tsan.sh).
# Some kernels randomise mmap more than gcc 12's TSan accepts ("unexpected memory
# mapping"); the run is then repeated with address randomisation off for the process.
TSAN_FLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer -DVXP_ASSERTIONS
tsan: deps
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/tsan CFLAGS="$(TSAN_FLAGS)" \
	  LDFLAGS="-fsanitize=thread" $(BUILD)/tsan/tests/test_threads
	@out=$$(TSAN_OPTIONS="halt_on_error=1 exitcode=66" $(BUILD)/tsan/tests/test_threads 2>&1); \
	status=$$?; \
	if echo "$$out" | grep -q "unexpected memory mapping"; then \
	  out=$$(TSAN_OPTIONS="halt_on_error=1 exitcode=66" setarch "$$(uname -m)" -R \
	    $(BUILD)/tsan/tests/test_threads 2>&1); status=$$?; \
	fi; \
	echo "$$out"; \
	[ $$status = 0 ] && echo "make tsan: no data race under ThreadSanitizer"
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/tsan CFLAGS="$(TSAN_FLAGS)" \
	  LDFLAGS="-fsanitize=thread" $(BUILD)/tsan/vxpeak
	@sh tests/lsp/tsan.sh $(BUILD)/tsan/vxpeak

# ----------------------------------------------------------------------------- fuzzing
#
# Coverage-guided fuzzing with libFuzzer (clang): the harnesses of tests/fuzz/fuzz_*.c,
# linked against the library built with clang, ASan and UBSan into $(BUILD)/libfuzzer/.
# `make fuzz` runs each for FUZZ_SECONDS on the seed corpora (tests/fuzz/seeds.py: the
# examples, the grammar's test corpus, the fleet, the regressions) with the dictionary of
# the grammar's tokens; the corpora grow in $(BUILD)/fuzz/corpus/, findings are kept in
# $(BUILD)/fuzz/findings/. `make fuzz-smoke` is the same for FUZZ_SMOKE_SECONDS (CI).
# `make fuzz-mutate` is the older mutation driver of the command (tests/fuzz/mutate.py).

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 120
FUZZ_SMOKE_SECONDS ?= 10
FUZZ_SEED ?= 1
# The input size limit (-max_len) of every harness; empty: run.sh's, 1024 bytes for the
# program harnesses and 4096 for fuzz_machine and fuzz_lsp.
FUZZ_MAX_LEN ?=
FUZZ_BUILD := $(BUILD)/libfuzzer
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
FUZZ_HARNESSES := $(patsubst tests/fuzz/%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS := $(FUZZ_HARNESSES:%=$(FUZZ_BUILD)/%)

# The libFuzzer harnesses built with $(CC) and a plain main() (tests/fuzz/driver.c) instead
# of libFuzzer, so that every build compiles them against the API, then run over the
# regression corpus and the seed corpora (under ASan+UBSan in make asan). A harness that
# aborts (fuzz_edit on a reparse that differs from a fresh parse) fails the target.
DRIVER_BUILD := $(BUILD)/fuzz-driver
DRIVER_BINS := $(FUZZ_HARNESSES:%=$(DRIVER_BUILD)/%)

# fuzz_window sets the context's parse window, a field of the library's own headers.
$(DRIVER_BUILD)/fuzz_window $(FUZZ_BUILD)/fuzz_window: HARNESS_INCLUDES := -Ilib

$(DRIVER_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/driver.c $(STATIC)
	@mkdir -p $(DRIVER_BUILD)
	$(CC) $(CFLAGS) $(WARNINGS) $(LDFLAGS) -Iinclude $(HARNESS_INCLUDES) -o $@ $< tests/fuzz/driver.c \
	  $(STATIC) $(DEP_LIBS)

$(DRIVER_BUILD)/fuzz_lsp: tests/fuzz/fuzz_lsp.c tests/fuzz/driver.c $(LSP_OBJS) $(STATIC)
	@mkdir -p $(DRIVER_BUILD)
	$(CC) $(CFLAGS) $(WARNINGS) $(LDFLAGS) -pthread -Iinclude -Ibindings/lsp $(DEP_CFLAGS) -o $@ $< \
	  tests/fuzz/driver.c $(LSP_OBJS) $(STATIC) $(DEP_LIBS)

fuzz-harnesses: $(DRIVER_BINS)
	@python3 tests/fuzz/seeds.py . $(DRIVER_BUILD)/seeds >/dev/null
	@$(DRIVER_BUILD)/fuzz_check tests/fuzz/regressions $(DRIVER_BUILD)/seeds/program
	@$(DRIVER_BUILD)/fuzz_cuda tests/fuzz/regressions $(DRIVER_BUILD)/seeds/program
	@$(DRIVER_BUILD)/fuzz_machine tests/fuzz/regressions $(DRIVER_BUILD)/seeds/machine
	@$(DRIVER_BUILD)/fuzz_edit tests/fuzz/regressions $(DRIVER_BUILD)/seeds/edit
	@$(DRIVER_BUILD)/fuzz_lsp tests/fuzz/regressions $(DRIVER_BUILD)/seeds/lsp
	@$(DRIVER_BUILD)/fuzz_window tests/fuzz/regressions $(DRIVER_BUILD)/seeds/program
	@$(DRIVER_BUILD)/fuzz_misuse tests/fuzz/regressions $(DRIVER_BUILD)/seeds/program

# The generated parser's lexer keeps its edge coverage but not its comparison tracing: it
# compares each byte with character constants, which libFuzzer's table of recent comparisons
# then offers as mutations, and which the dictionary of the grammar's tokens already gives;
# the tracing made the lexer 5-10% of an execution. (A libfuzzer build made before this
# line keeps its old parser object: remove $(FUZZ_BUILD)/grammar/parser.o.)
FUZZ_PARSER_FLAGS := -fno-sanitize-coverage=trace-cmp
$(FUZZ_BUILD)/libvxpeak.a: FORCE
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) CFLAGS="$(FUZZ_FLAGS)" \
	  PARSER_CFLAGS="$(FUZZ_PARSER_FLAGS)" $(FUZZ_BUILD)/libvxpeak.a

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_BUILD)/libvxpeak.a
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $(WARNINGS) -Iinclude $(HARNESS_INCLUDES) -o $@ $< \
	  $(FUZZ_BUILD)/libvxpeak.a $(DEP_LIBS)

# The language server's harness is built with its sources (bindings/lsp/), instrumented too.
$(FUZZ_BUILD)/fuzz_lsp: tests/fuzz/fuzz_lsp.c $(LSP_SRCS) bindings/lsp/lsp.h $(FUZZ_BUILD)/libvxpeak.a
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -pthread $(WARNINGS) -Iinclude -Ibindings/lsp \
	  $(shell pkg-config --cflags jansson 2>/dev/null) -o $@ $< $(LSP_SRCS) \
	  $(FUZZ_BUILD)/libvxpeak.a $(DEP_LIBS)

fuzz-build: deps $(FUZZ_BINS)

fuzz: fuzz-build
	@FUZZ_MAX_LEN=$(FUZZ_MAX_LEN) sh tests/fuzz/run.sh $(FUZZ_BUILD) $(BUILD)/fuzz $(FUZZ_SECONDS) \
	  $(FUZZ_SEED) $(FUZZ_HARNESSES)

# All harnesses at once, FUZZ_PROCS processes each (a machine with many cores): the run behind
# fuzzing volume in docs/limits.md was FUZZ_PROCS="fuzz_check:4 fuzz_edit:3 fuzz_cuda:3 fuzz_lsp:2
# fuzz_machine:3" FUZZ_SECONDS=290 on 16 cores.
FUZZ_PROCS ?= fuzz_check:1 fuzz_cuda:1 fuzz_edit:1 fuzz_lsp:1 fuzz_machine:1 fuzz_window:1 \
	fuzz_misuse:1
fuzz-parallel: fuzz-build
	@FUZZ_MAX_LEN=$(FUZZ_MAX_LEN) sh tests/fuzz/parallel.sh $(FUZZ_BUILD) $(BUILD)/fuzz-parallel \
	  $(FUZZ_SECONDS) $(FUZZ_SEED) $(FUZZ_PROCS)

fuzz-smoke: fuzz-build
	@FUZZ_MAX_LEN=$(FUZZ_MAX_LEN) sh tests/fuzz/run.sh $(FUZZ_BUILD) $(BUILD)/fuzz-smoke \
	  $(FUZZ_SMOKE_SECONDS) $(FUZZ_SEED) $(FUZZ_HARNESSES)

fuzz-mutate: deps
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/asan CFLAGS="$(SAN_FLAGS)" \
	  LDFLAGS="-fsanitize=address,undefined" cli
	@python3 tests/fuzz/mutate.py --cli $(BUILD)/asan/vxpeak --seconds $(FUZZ_SECONDS) \
	  --seed $(FUZZ_SEED) --out $(BUILD)/fuzz-mutate

# ----------------------------------------------------------------------------- grammar

# Parse rate on real Vx programs fetched from the vx-lang/Vx repository into
# tests/conformance/vx/ (never committed; see tests/conformance/README.md).
# Then the capacity-related ones: vxpeak's verdicts and figures against the FileCheck
# directives of vxc's own tests (tests/conformance/semantic.txt).
conformance: $(CLI)
	@sh tests/conformance/run.sh $(CLI)
	@python3 tests/conformance/semantic.py $(CLI)

# The FileCheck subset semantic.py applies, checked both ways (no fetched files needed).
conformance-selftest:
	@python3 tests/conformance/semantic.py --self-test


TREE_SITTER ?= $(shell command -v tree-sitter 2>/dev/null || echo $(HOME)/.cargo/bin/tree-sitter)

tree-sitter-cli:
	@if ! "$(TREE_SITTER)" --version 2>/dev/null | grep -q "$(TREE_SITTER_CLI_VERSION)"; then \
	  echo "installing tree-sitter-cli $(TREE_SITTER_CLI_VERSION) with cargo (about 10 minutes)"; \
	  cargo install tree-sitter-cli --locked --version $(TREE_SITTER_CLI_VERSION) --no-default-features; \
	fi

grammar: tree-sitter-cli
	cd grammar && "$(TREE_SITTER)" generate --abi $(GRAMMAR_ABI)

grammar-check: tree-sitter-cli
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	cp grammar/grammar.js grammar/tree-sitter.json "$$tmp"/; \
	(cd "$$tmp" && "$(TREE_SITTER)" generate --abi $(GRAMMAR_ABI) >/dev/null) || exit 1; \
	for f in parser.c grammar.json node-types.json tree_sitter/parser.h; do \
	  cmp -s "$$tmp/src/$$f" "grammar/src/$$f" || { echo "grammar-check: grammar/src/$$f is stale; run make grammar"; exit 1; }; \
	done; echo "grammar-check: grammar/src matches grammar.js"

# ----------------------------------------------------------------------------- housekeeping

# Every C file of ours (the generated grammar/src/parser.c and tree-sitter's own headers are
# not ours to format) in the one style of .clang-format; make check fails on a file that is not.
FORMAT_FILES := $(filter-out grammar/src/parser.c,$(wildcard include/*.h lib/*.c lib/*.h \
	lib/*/*.c lib/*/*.h bindings/*/*.c bindings/*/*.h examples/c/*.c grammar/src/scanner.c \
	tests/*/*.c tests/*/*.h))

format:
	@clang-format -i $(FORMAT_FILES)

format-check:
	@clang-format --dry-run -Werror $(FORMAT_FILES) && \
	  echo "format-check: $(words $(FORMAT_FILES)) files formatted as .clang-format says"

clean:
	rm -rf $(BUILD)

FORCE:

# The header dependencies recorded by $(DEPFLAGS); -MP's empty rules let a header be deleted.
-include $(wildcard $(addsuffix /*.d,$(addprefix $(BUILD)/,lib lib/report lib/codegen gen bindings/cli bindings/lsp install \
	tests examples bench)))

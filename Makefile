# gametree: PGXS build.  `make && make install`, then CREATE EXTENSION gametree.
# `make` builds the extension and the command-line client (client/).
.DEFAULT_GOAL := all
EXTENSION = gametree
EXTVERSION = 0.4.0
MODULE_big = gametree
OBJS = $(patsubst %.c,%.o,$(sort $(wildcard src/*.c src/*/*.c src/games/*/*.c)))
# The install script of this version and the upgrade scripts to it.
DATA = $(EXTENSION)--$(EXTVERSION).sql $(wildcard $(EXTENSION)--*--*.sql)
# libpq: a sharded tree's coordinator talks to its nodes (src/pg/remote.c).
PG_CPPFLAGS = -Isrc -I$(libpq_srcdir)
SHLIB_LINK_INTERNAL = $(libpq)
PG_CFLAGS = -O3
# popcnt in hardware: the bitboard games count bits in their inner loops
ifeq ($(shell uname -m),x86_64)
PG_CFLAGS += -march=x86-64-v2
endif
# Only the SQL entry points are exported (src/exports.map).
ifeq ($(shell uname -s),Linux)
SHLIB_LINK += -Wl,--version-script=$(CURDIR)/src/exports.map
endif

# PGXS tracks no header dependencies here: rebuild every object when a
# header changes (a stale object with an old struct layout crashes).
$(OBJS): $(wildcard src/*/*.h src/games/*/*.h)

# The tests live under test/ (test/README.md): `make installcheck` runs
# pg_regress over test/regress/sql/ against test/regress/expected/, one file
# per feature, and leaves results/ and regression.diffs there too.
REGRESS = $(sort $(notdir $(basename $(wildcard test/regress/sql/*.sql))))
REGRESS_OPTS = --inputdir=test/regress --outputdir=test/regress \
	--load-extension=dblink --load-extension=$(EXTENSION)
EXTRA_CLEAN = test/regress/results test/regress/regression.diffs test/regress/regression.out

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# The command-line client: built with the extension, installed into PGXS's
# bindir, with a link on the PATH (Debian's bindir is not on it).
CLIENT_LINK_DIR ?= /usr/local/bin
all: client
client:
	$(MAKE) -C client PG_CONFIG=$(PG_CONFIG)
install: install-client
install-client: client
	$(MKDIR_P) '$(DESTDIR)$(bindir)' '$(DESTDIR)$(CLIENT_LINK_DIR)'
	$(INSTALL_PROGRAM) client/gametree '$(DESTDIR)$(bindir)/gametree'
	ln -sf '$(bindir)/gametree' '$(DESTDIR)$(CLIENT_LINK_DIR)/gametree'
clean: clean-client
clean-client:
	$(MAKE) -C client clean
.PHONY: client install-client clean-client

# `make prove` runs the pgTAP tests (test/pgtap/) against the installed
# extension, like installcheck on the server libpq's environment names: a
# fresh database PROVE_DB with the reference data of test/data/ loaded
# (test/pgtap/setup.sh), then pg_prove over every test/pgtap/*.sql.
PROVE_DB ?= gametree_tap
prove:
	PSQL='$(bindir)/psql' bash test/pgtap/setup.sh $(PROVE_DB)
	pg_prove --verbose --dbname $(PROVE_DB) --ext .sql -r test/pgtap/
.PHONY: prove

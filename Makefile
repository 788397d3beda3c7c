# gametree: PGXS build.  `make && make install`, then CREATE EXTENSION gametree.
EXTENSION = gametree
EXTVERSION = 0.2.0
MODULE_big = gametree
OBJS = $(patsubst %.c,%.o,$(sort $(wildcard src/*/*.c src/games/*/*.c)))
# The install script of this version and the upgrade scripts to it.
DATA = $(EXTENSION)--$(EXTVERSION).sql $(wildcard $(EXTENSION)--*--*.sql)
PG_CPPFLAGS = -Isrc
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

# pg_regress: one file per feature, top-level sql/ and expected/
REGRESS = $(sort $(notdir $(basename $(wildcard sql/*.sql))))
REGRESS_OPTS = --inputdir=. --load-extension=dblink --load-extension=$(EXTENSION)

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# gametree: PGXS build.  `make && make install`, then CREATE EXTENSION gametree.
EXTENSION = gametree
EXTVERSION = 0.1.0
MODULE_big = gametree
OBJS = $(patsubst %.c,%.o,$(sort $(wildcard src/*.c src/games/*.c src/games/*/*.c)))
DATA = $(EXTENSION)--$(EXTVERSION).sql
PG_CPPFLAGS = -Isrc
PG_CFLAGS = -O3
# popcnt in hardware: the bitboard games count bits in their inner loops
ifeq ($(shell uname -m),x86_64)
PG_CFLAGS += -march=x86-64-v2
endif

# pg_regress: one file per feature, top-level sql/ and expected/
REGRESS = $(sort $(notdir $(basename $(wildcard sql/*.sql))))
REGRESS_OPTS = --inputdir=. --load-extension=$(EXTENSION)

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

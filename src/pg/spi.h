/*
 * spi.h: the SPI helpers every layer that runs SQL shares.  Callers are
 * connected to SPI.  Internal statements' text is left out of error reports
 * (it is gametree's business, not the user's); a rule that rewrites one of
 * them is refused (42P16), since its result would not be what gametree asked.
 */
#ifndef GAMETREE_PG_SPI_H
#define GAMETREE_PG_SPI_H

#include "executor/spi.h"

/* Runs a statement and checks its result code; keeps the caller's memory context. */
extern int	spi_run(const char *sql, int nargs, Oid *types, Datum *values, int expected);
/* The same with the plan kept for the backend's life: for statements run per batch. */
extern int	spi_run_kept(const char *sql, int nargs, Oid *types, Datum *values, int expected);

/*
 * gametree's catalogs (gametree.trees, gametree.grow_progress,
 * gametree.gdl_games) are written only through this, as the role that owns
 * them: roles may read them but not write them.  Runs a statement like
 * spi_run.
 */
extern int	spi_run_as_catalog_owner(const char *sql, int nargs, Oid *types, Datum *values,
									 int expected);

/* One-dimensional SQL arrays for statement parameters (nulls may be NULL). */
extern Datum datum_array(Datum *values, bool *nulls, int n, Oid type);
extern Datum int8_array(const int64 *values, int n);
/* A name Datum (a full NAMEDATALEN buffer, as the type requires). */
extern Datum name_datum(const char *s);

#endif

/*
 * analytics.h: the queries over a tree behind tree_stats, depth_stats,
 * outcomes and principal_variation (analytics.c).  Each opens the tree,
 * checks that the caller may read what the query counts, runs the query and
 * leaves its rows in SPI_tuptable (their columns are the SQL function's
 * result); the caller closes the tree.  Callers are connected to SPI.
 */
#ifndef GAMETREE_ANALYTICS_H
#define GAMETREE_ANALYTICS_H

#include "store/tree.h"

extern Tree *query_tree_stats(text *name);
extern Tree *query_depth_stats(text *name);
extern Tree *query_outcomes(text *name);
/* Ereports when the state is not in the tree. */
extern Tree *query_principal_variation(text *name, int64 state_id);

#endif

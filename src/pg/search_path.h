/*
 * search_path.h: every gametree function that runs SQL runs it with
 * search_path pinned to pg_catalog, pg_temp, so that no object a role
 * creates can stand in for the ones gametree means.  The caller's
 * search_path is used for one thing only: finding an unqualified tree name,
 * before the pin.
 */
#ifndef GAMETREE_PG_SEARCH_PATH_H
#define GAMETREE_PG_SEARCH_PATH_H

/* Pins search_path to pg_catalog, pg_temp; returns the level to unpin. */
extern int	gt_pin_search_path(void);
extern void gt_unpin_search_path(int level);

#endif

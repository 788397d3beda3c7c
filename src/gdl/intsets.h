/*
 * intsets.h: sets of int32 (nodes, literals), each kept once and numbered
 * in the order first made, looked up by their sorted members: the action
 * sets of factor.c and the literal sets of products.c.
 */
#ifndef GAMETREE_GDL_INTSETS_H
#define GAMETREE_GDL_INTSETS_H

#include "postgres.h"

typedef struct IntSets
{
	int32	   *slots;			/* open addressing by the members' hash: a set, or -1 */
	int			size;			/* a power of two, at least twice n */
	int			n;				/* sets made */
	int32	   *start;			/* per set + 1, into members */
	int32	   *members;
	int			nmembers;
	int			members_room;
	int			sets_room;		/* of start */
} IntSets;

/* The order of a set's members, for qsort. */
extern int	intsets_member_order(const void *a, const void *b);
/* Sorts n members and drops the repeats, in place; how many are left. */
extern int	intsets_sort_unique(int32 *members, int n);
/* An empty collection, in the current memory context. */
extern void intsets_init(IntSets *sets);
/* The number of the set of n sorted members, made if new. */
extern int32 intsets_add(IntSets *sets, const int32 *members, int n);
extern void intsets_free(IntSets *sets);

#endif

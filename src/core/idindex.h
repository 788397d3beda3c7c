/*
 * idindex.h: row numbers found by 64-bit id (a state hash), by open
 * addressing.  Batches and propagation each hold up to millions of states
 * by id; dynahash costs a call, a hash and a bucket chain per probe, this a
 * multiply and, most of the time, one cache line.
 */
#ifndef GAMETREE_IDINDEX_H
#define GAMETREE_IDINDEX_H

#include "postgres.h"

/* An id and its row: a slot of the index (row -1: empty), or an element to sort by id. */
typedef struct IdRow
{
	int64		id;
	int32		row;
} IdRow;

typedef struct IdIndex
{
	IdRow	   *slots;
	int			shift;			/* 64 - log2(slots) */
	uint64		mask;
	int64		count;
	MemoryContext cxt;
} IdIndex;

/* An index with room for expected ids before it grows, in cxt. */
extern void id_index_init(IdIndex *ix, int64 expected, MemoryContext cxt);
/* The bytes id_index_init allocates for expected ids. */
extern Size id_index_size(int64 expected);
extern void id_index_free(IdIndex *ix);
/* Adds id -> row unless id is there; returns the row that id has now. */
extern int32 id_index_add(IdIndex *ix, int64 id, int32 row);
/* Adds id -> row, or replaces the row id has. */
extern void id_index_set(IdIndex *ix, int64 id, int32 row);

static inline uint64
id_index_slot(const IdIndex *ix, int64 id)
{
	/* Fibonacci hashing: the top bits of the product depend on every bit of the id. */
	return ((uint64) id * UINT64CONST(0x9e3779b97f4a7c15)) >> ix->shift;
}

/* The row of id, or -1. */
static inline int32
id_index_find(const IdIndex *ix, int64 id)
{
	for (uint64 s = id_index_slot(ix, id);; s = (s + 1) & ix->mask)
	{
		if (ix->slots[s].row < 0 || ix->slots[s].id == id)
			return ix->slots[s].row;
	}
}

#endif

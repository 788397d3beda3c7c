/*
 * intsets.c: sets of int32, each kept once (intsets.h).
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "gdl/intsets.h"

int
intsets_member_order(const void *a, const void *b)
{
	int32		x = *(const int32 *) a,
				y = *(const int32 *) b;

	return x < y ? -1 : x > y;
}

int
intsets_sort_unique(int32 *members, int n)
{
	int			kept = 0;

	qsort(members, n, sizeof(int32), intsets_member_order);
	for (int k = 0; k < n; k++)
		if (kept == 0 || members[k] != members[kept - 1])
			members[kept++] = members[k];
	return kept;
}

void
intsets_init(IntSets *sets)
{
	sets->size = 64;
	sets->slots = palloc_extended(sets->size * sizeof(int32), MCXT_ALLOC_HUGE);
	memset(sets->slots, 0xff, sets->size * sizeof(int32));
	sets->n = 0;
	sets->sets_room = 64;
	sets->start = palloc0(sets->sets_room * sizeof(int32));
	sets->members_room = 64;
	sets->members = palloc(sets->members_room * sizeof(int32));
	sets->nmembers = 0;
}

static int
first_slot(const IntSets *sets, const int32 *members, int n)
{
	return hash_bytes((const unsigned char *) members, n * sizeof(int32)) & (sets->size - 1);
}

/* Doubles the table once it is half full. */
static void
grow_slots(IntSets *sets)
{
	if (2 * (sets->n + 1) <= sets->size)
		return;
	sets->size *= 2;
	sets->slots = repalloc_huge(sets->slots, sets->size * sizeof(int32));
	memset(sets->slots, 0xff, sets->size * sizeof(int32));
	for (int s = 0; s < sets->n; s++)
	{
		int			i = first_slot(sets, sets->members + sets->start[s], sets->start[s + 1] - sets->start[s]);

		while (sets->slots[i] >= 0)
			i = (i + 1) & (sets->size - 1);
		sets->slots[i] = s;
	}
}

int32
intsets_add(IntSets *sets, const int32 *members, int n)
{
	int			i;

	grow_slots(sets);
	for (i = first_slot(sets, members, n); sets->slots[i] >= 0; i = (i + 1) & (sets->size - 1))
	{
		int32		s = sets->slots[i];

		if (sets->start[s + 1] - sets->start[s] == n &&
			memcmp(sets->members + sets->start[s], members, n * sizeof(int32)) == 0)
			return s;
	}
	if (sets->nmembers + n > sets->members_room)
	{
		sets->members_room = Max(2 * sets->members_room, sets->nmembers + n);
		sets->members = repalloc_huge(sets->members, sets->members_room * sizeof(int32));
	}
	if (sets->n + 2 > sets->sets_room)
	{
		sets->sets_room *= 2;
		sets->start = repalloc_huge(sets->start, sets->sets_room * sizeof(int32));
	}
	memcpy(sets->members + sets->nmembers, members, n * sizeof(int32));
	sets->nmembers += n;
	sets->start[sets->n + 1] = sets->nmembers;
	sets->slots[i] = sets->n;
	return sets->n++;
}

void
intsets_free(IntSets *sets)
{
	pfree(sets->slots);
	pfree(sets->start);
	pfree(sets->members);
}

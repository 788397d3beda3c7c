/*
 * join.c: sets of ground atoms and joins over them (see join.h).
 */
#include "postgres.h"

#include <limits.h>

#include "common/hashfn.h"
#include "gdl/join.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/memutils.h"

static TupleSlot *
new_slots(int n)
{
	TupleSlot  *s = palloc_extended(n * sizeof(TupleSlot), MCXT_ALLOC_HUGE);

	memset(s, 0xff, n * sizeof(TupleSlot));
	return s;
}

/* The slot of atom in an open-addressing table of size (a power of two). */
static inline int
find_slot(const TupleSlot *set, int size, TermId atom)
{
	int			i = murmurhash32((uint32) atom) & (size - 1);

	while (set[i].atom != atom && set[i].atom != -1)
		i = (i + 1) & (size - 1);
	return i;
}

int
tuples_find(const Tuples *t, TermId atom)
{
	int			i;

	if (t->set_size == 0)
		return -1;
	i = find_slot(t->set, t->set_size, atom);
	return t->set[i].atom == atom ? t->set[i].index : -1;
}

static inline int64
path_key(int path, TermId value)
{
	return ((int64) path << 32) | (uint32) value;
}

static int
chain_slot(const ChainTable *c, int64 key)
{
	int			i = murmurhash32((uint32) key ^ murmurhash32((uint32) (key >> 32))) & (c->size - 1);

	while (c->keys[i] != key && c->keys[i] != -1)
		i = (i + 1) & (c->size - 1);
	return i;
}

/* Links atom idx into c's chain of key, previous[] its links. */
static void
chain_link(ChainTable *c, int32 *previous, int idx, int64 key)
{
	int			s = chain_slot(c, key);

	if (c->keys[s] == key)
	{
		previous[idx] = c->last[s];
		c->count[s]++;
	}
	else
	{
		previous[idx] = -1;
		c->keys[s] = key;
		c->count[s] = 1;
		c->used++;
	}
	c->last[s] = idx;
}

/* c emptied and four times as large, for its atoms to be linked again. */
static void
chain_grow(ChainTable *c)
{
	c->size = Max(64, 4 * c->size);
	if (c->keys != NULL)
	{
		pfree(c->keys);
		pfree(c->last);
		pfree(c->count);
	}
	c->keys = palloc_extended(c->size * sizeof(int64), MCXT_ALLOC_HUGE);
	memset(c->keys, 0xff, c->size * sizeof(int64));
	c->last = palloc_extended(c->size * sizeof(int32), MCXT_ALLOC_HUGE);
	c->count = palloc_extended(c->size * sizeof(int32), MCXT_ALLOC_HUGE);
	c->used = 0;
}

/* Links atom idx into the chain of (path, value). */
static void
index_path(Tuples *t, int idx, int path, TermId value)
{
	if (t->previous[path] == NULL)
		t->previous[path] = palloc_extended(t->room * sizeof(int32), MCXT_ALLOC_HUGE);
	chain_link(&t->index, t->previous[path], idx, path_key(path, value));
}

static void
index_atom(const TermStore *ts, Tuples *t, int idx)
{
	TermId		atom = t->atoms[idx];
	int			arity = term_arity(ts, atom);

	for (int a = 0; a < arity; a++)
	{
		TermId		arg = term_arg(ts, atom, a);
		const TermNode *n = term_node(ts, arg);

		index_path(t, idx, a * PATH_STRIDE, arg);
		if (n->kind == TERM_FUNCTION)
			for (int b = 0; b < n->nargs && b < PATH_STRIDE - 1; b++)
				index_path(t, idx, a * PATH_STRIDE + 1 + b, term_arg(ts, arg, b));
	}
}

/* A larger index, with the atoms indexed so far linked again in order. */
static void
rebuild_index(const TermStore *ts, Tuples *t)
{
	chain_grow(&t->index);
	for (int i = 0; i < t->indexed; i++)
		index_atom(ts, t, i);
}

/*
 * The key of the values at the paths of mask, in path order; never -1,
 * the empty slot's.
 */
static uint64
args_key_add(uint64 key, TermId value)
{
	return hash_combine64(key, murmurhash32((uint32) value));
}

static int64
args_key_end(uint64 key)
{
	return (int64) (key & PG_INT64_MAX);
}

/* The value of atom at path, or NO_TERM when it has none there. */
static TermId
path_value(const TermStore *ts, TermId atom, int path)
{
	TermId		arg = term_arg(ts, atom, path / PATH_STRIDE);
	int			inner = path % PATH_STRIDE - 1;

	if (inner < 0)
		return arg;
	if (term_node(ts, arg)->kind != TERM_FUNCTION || inner >= term_node(ts, arg)->nargs)
		return NO_TERM;
	return term_arg(ts, arg, inner);
}

/* Links atom idx of t into ai's chain of its key. */
static void
args_index_atom(const TermStore *ts, const Tuples *t, ArgsIndex *ai, int idx)
{
	uint64		key = ai->mask;

	for (uint64 paths = ai->mask; paths != 0; paths &= paths - 1)
	{
		TermId		value = path_value(ts, t->atoms[idx], pg_rightmost_one_pos64(paths));

		if (value == NO_TERM)
		{
			ai->previous[idx] = -1;
			return;
		}
		key = args_key_add(key, value);
	}
	chain_link(&ai->chains, ai->previous, idx, args_key_end(key));
}

/* Brings ai up to the atoms of t, its table grown (and its atoms linked again) as needed. */
static void
args_index_up_to_date(const TermStore *ts, const Tuples *t, ArgsIndex *ai)
{
	while (ai->indexed < t->n)
	{
		if (2 * (ai->chains.used + 1) > ai->chains.size)
		{
			chain_grow(&ai->chains);
			for (int i = 0; i < ai->indexed; i++)
				args_index_atom(ts, t, ai, i);
		}
		args_index_atom(ts, t, ai, ai->indexed++);
	}
}

/*
 * t's index by the paths of mask, up to date, in the memory of t's atoms;
 * made when the atoms read for want of such indexes (the count a path
 * leaves, each time) pass ARGS_INDEX_PAYS times t's (what making one
 * reads), so that a set rebuilt for each state and asked a few times (the
 * prover's) does not build indexes that never pay; NULL when none is.
 */
#define ARGS_INDEX_PAYS 64

static ArgsIndex *
args_index(Join *j, Tuples *t, uint64 mask, int count)
{
	const TermStore *ts = j->terms;
	ArgsIndex  *ai = NULL;
	MemoryContext old;

	for (int k = 0; k < t->nargs_indexes && ai == NULL; k++)
		if (t->args_indexes[k].mask == mask)
			ai = &t->args_indexes[k];
	/* made: a link per atom and a table of at most 8 slots per atom */
	if (ai == NULL && (t->nargs_indexes == MAX_ARGS_INDEXES ||
					   (t->args_unindexed += count) < (int64) ARGS_INDEX_PAYS * t->n ||
					   (j->ops->may_index != NULL &&
						!j->ops->may_index(j, (Size) t->room * sizeof(int32) +
										   (Size) Max(64, 8 * t->n) * (sizeof(int64) + 2 * sizeof(int32))))))
		return NULL;
	old = MemoryContextSwitchTo(GetMemoryChunkContext(t->atoms));
	if (ai == NULL)
	{
		if (t->args_indexes == NULL)
			t->args_indexes = palloc(MAX_ARGS_INDEXES * sizeof(ArgsIndex));
		ai = &t->args_indexes[t->nargs_indexes++];
		memset(ai, 0, sizeof(ArgsIndex));
		ai->mask = mask;
		ai->previous = palloc_extended(t->room * sizeof(int32), MCXT_ALLOC_HUGE);
	}
	args_index_up_to_date(ts, t, ai);
	MemoryContextSwitchTo(old);
	return ai;
}

/* Adds the atoms not indexed yet to the index, in the memory of t's atoms. */
static void
index_up_to_date(const TermStore *ts, Tuples *t)
{
	MemoryContext old;

	if (t->indexed == t->n || t->npaths == 0)
		return;
	old = MemoryContextSwitchTo(GetMemoryChunkContext(t->atoms));
	while (t->indexed < t->n)
	{
		/* room for every path of the atom, before any is linked */
		if (2 * (t->index.used + t->npaths) > t->index.size)
			rebuild_index(ts, t);
		index_atom(ts, t, t->indexed++);
	}
	MemoryContextSwitchTo(old);
}

Size
tuples_growth(const Tuples *t)
{
	Size		more = 0;

	if (t->n == t->room)
	{
		int			grown = Max(16, 2 * t->room) - t->room;

		/* the atoms and the chain of every path and index by arguments used so far */
		more += (Size) grown * (sizeof(TermId) + t->nargs_indexes * sizeof(int32));
		for (int p = 0; p < t->npaths; p++)
			if (t->previous[p] != NULL)
				more += (Size) grown * sizeof(int32);
	}
	for (int k = 0; k < t->nargs_indexes; k++)
		if (2 * (t->args_indexes[k].chains.used + 1) > t->args_indexes[k].chains.size)
			more += (Size) Max(64, 4 * t->args_indexes[k].chains.size) * (sizeof(int64) + 2 * sizeof(int32));
	if (2 * (t->n + 1) > t->set_size)
		more += (Size) Max(32, 2 * t->set_size) * sizeof(TupleSlot);
	if (t->npaths > 0 && 2 * (t->index.used + t->npaths) > t->index.size)
		more += (Size) Max(64, 4 * t->index.size) * (sizeof(int64) + 2 * sizeof(int32));
	return more;
}

void
tuples_hold_one(Tuples *t, TermId atom)
{
	Assert(t->npaths == 0);
	if (t->room == 0)
	{
		t->room = 1;
		t->atoms = palloc(sizeof(TermId));
		t->set_size = 2;
		t->set = new_slots(t->set_size);
	}
	memset(t->set, 0xff, t->set_size * sizeof(TupleSlot));
	t->atoms[0] = atom;
	t->set[find_slot(t->set, t->set_size, atom)] = (TupleSlot) {.atom = atom,.index = 0};
	t->n = 1;
}

bool
tuples_insert(const TermStore *ts, Tuples *t, int arity, TermId atom)
{
	int			i;

	Assert(t->dense == NULL);
	if (tuples_find(t, atom) >= 0)
		return false;
	if (t->n == t->room)
	{
		t->room = Max(16, 2 * t->room);
		t->atoms = t->atoms == NULL ? palloc_extended(t->room * sizeof(TermId), MCXT_ALLOC_HUGE) :
			repalloc_huge(t->atoms, t->room * sizeof(TermId));
		if (t->previous == NULL)
		{
			/* none for atoms without arguments: they are found whole */
			t->npaths = arity * PATH_STRIDE;
			t->previous = palloc0(t->npaths * sizeof(int32 *));
		}
		for (int p = 0; p < t->npaths; p++)
			if (t->previous[p] != NULL)
				t->previous[p] = repalloc_huge(t->previous[p], t->room * sizeof(int32));
		for (int k = 0; k < t->nargs_indexes; k++)
			t->args_indexes[k].previous = repalloc_huge(t->args_indexes[k].previous, t->room * sizeof(int32));
	}
	if (2 * (t->n + 1) > t->set_size)
	{
		t->set_size = Max(32, 2 * t->set_size);
		if (t->set != NULL)
			pfree(t->set);
		t->set = new_slots(t->set_size);
		for (int k = 0; k < t->n; k++)
		{
			i = find_slot(t->set, t->set_size, t->atoms[k]);
			t->set[i].atom = t->atoms[k];
			t->set[i].index = k;
		}
	}
	t->atoms[t->n] = atom;
	i = find_slot(t->set, t->set_size, atom);
	t->set[i].atom = atom;
	t->set[i].index = t->n;
	t->n++;
	return true;
}

/* The most combinations of a static relation's values that a dense membership takes (128 kB). */
#define DENSE_MAX_BITS (1 << 20)

Size
tuples_make_dense(const TermStore *ts, Tuples *t, int arity, Size room)
{
	int64		max_bits = Min(DENSE_MAX_BITS, (int64) Min(room, DENSE_MAX_BITS) * 8);
	MemoryContext old;
	DenseSet   *d;
	int			nvalues[DENSE_MAX_ARITY];
	int64		combinations = 1;
	Size		size;

	Assert(t->dense == NULL);
	if (arity < 1 || arity > DENSE_MAX_ARITY || t->n == 0)
		return 0;
	for (int k = 0; k < t->n; k++)
		for (int a = 0; a < arity; a++)
			if (term_node(ts, term_arg(ts, t->atoms[k], a))->kind != TERM_SYMBOL)
				return 0;
	old = MemoryContextSwitchTo(GetMemoryChunkContext(t->atoms));
	d = palloc(sizeof(DenseSet));
	d->arity = arity;
	d->nsymbols = ts->nsymbols;
	d->place = palloc(arity * ts->nsymbols * sizeof(int16));
	memset(d->place, 0xff, arity * ts->nsymbols * sizeof(int16));
	for (int a = 0; a < arity && combinations <= max_bits; a++)
	{
		int16	   *place = d->place + a * ts->nsymbols;

		nvalues[a] = 0;
		/* past max_bits values, the set is not made: places fit in 16 bits */
		for (int k = 0; k < t->n && nvalues[a] <= max_bits && nvalues[a] < PG_INT16_MAX; k++)
		{
			SymbolId	name = term_functor(ts, term_arg(ts, t->atoms[k], a));

			if (place[name] < 0)
				place[name] = nvalues[a]++;
		}
		combinations *= nvalues[a] < PG_INT16_MAX ? nvalues[a] : max_bits + 1;
	}
	if (combinations > max_bits)
	{
		pfree(d->place);
		pfree(d);
		MemoryContextSwitchTo(old);
		return 0;
	}
	for (int a = arity - 1, stride = 1; a >= 0; stride *= nvalues[a--])
		d->stride[a] = stride;
	d->bits = palloc0((combinations + 63) / 64 * sizeof(uint64));
	for (int k = 0; k < t->n; k++)
	{
		int32		bit = 0;

		for (int a = 0; a < arity; a++)
			bit += d->place[a * ts->nsymbols + term_functor(ts, term_arg(ts, t->atoms[k], a))] * d->stride[a];
		d->bits[bit / 64] |= UINT64CONST(1) << (bit % 64);
	}
	t->dense = d;
	MemoryContextSwitchTo(old);
	size = sizeof(DenseSet) + arity * ts->nsymbols * sizeof(int16) + (combinations + 63) / 64 * sizeof(uint64);
	return size;
}

int
tuples_select(const TermStore *ts, Tuples *t, const TermId *args, int arity, int max, TermId *out)
{
	int			best_slot = -1,
				best_path = 0,
				best_count = t->n,
				n = 0;

	index_up_to_date(ts, t);
	for (int a = 0; a < arity && best_count > 0; a++)
	{
		int			s;

		if (args[a] == NO_TERM)
			continue;
		if (t->index.size == 0)
			return 0;
		s = chain_slot(&t->index, path_key(a * PATH_STRIDE, args[a]));
		if (t->index.keys[s] != path_key(a * PATH_STRIDE, args[a]))
			return 0;
		if (t->index.count[s] < best_count)
		{
			best_count = t->index.count[s];
			best_slot = s;
			best_path = a * PATH_STRIDE;
		}
	}
	if (best_slot < 0 && t->n > max)
		return -1;
	for (int idx = best_slot < 0 ? t->n - 1 : t->index.last[best_slot]; idx >= 0;
		 idx = best_slot < 0 ? idx - 1 : t->previous[best_path][idx])
	{
		TermId		atom = t->atoms[idx];
		bool		match = true;

		for (int a = 0; a < arity && match; a++)
			match = args[a] == NO_TERM || term_arg(ts, atom, a) == args[a];
		if (!match)
			continue;
		if (n == max)
			return -1;
		out[n++] = atom;
	}
	return n;
}

/* Whether pattern, its variables bound, is an atom of t's dense membership. */
static bool
dense_holds(const Join *j, const DenseSet *d, TermId pattern)
{
	const TermStore *ts = j->terms;
	int32		bit = 0;

	for (int a = 0; a < d->arity; a++)
	{
		TermId		arg = term_arg(ts, pattern, a);
		const TermNode *n = term_node(ts, arg);
		int			place;

		if (n->kind == TERM_VARIABLE)
			n = term_node(ts, j->binding[n->name]);
		if (n->kind != TERM_SYMBOL || n->name >= d->nsymbols ||
			(place = d->place[a * d->nsymbols + n->name]) < 0)
			return false;
		bit += place * d->stride[a];
	}
	return (d->bits[bit / 64] >> (bit % 64)) & 1;
}

bool
join_unify(Join *j, TermId pattern, TermId ground)
{
	const TermStore *ts = j->terms;
	const TermNode *p = term_node(ts, pattern);
	const TermNode *q;

	if (pattern == ground)
		return true;
	if (p->ground)
		return false;
	if (p->kind == TERM_VARIABLE)
	{
		if (j->binding[p->name] != NO_TERM)
			return j->binding[p->name] == ground;
		j->binding[p->name] = ground;
		j->trail[j->ntrail++] = p->name;
		return true;
	}
	q = term_node(ts, ground);
	if (q->kind != TERM_FUNCTION || q->name != p->name || q->nargs != p->nargs)
		return false;
	check_stack_depth();
	for (int i = 0; i < p->nargs; i++)
		if (!join_unify(j, term_arg(ts, pattern, i), term_arg(ts, ground, i)))
			return false;
	return true;
}

static void
undo(Join *j, int mark)
{
	while (j->ntrail > mark)
		j->binding[j->trail[--j->ntrail]] = NO_TERM;
}

static bool
all_bound(const Join *j, TermId t)
{
	const TermStore *ts = j->terms;
	const TermNode *n = term_node(ts, t);

	if (n->ground)
		return true;
	if (n->kind == TERM_VARIABLE)
		return j->binding[n->name] != NO_TERM;
	check_stack_depth();
	for (int i = 0; i < n->nargs; i++)
		if (!all_bound(j, term_arg(ts, t, i)))
			return false;
	return true;
}

TermId
join_substitute(Join *j, TermId pattern, bool insert)
{
	TermStore  *ts = j->terms;
	const TermNode *p = term_node(ts, pattern);
	/* not p: inserting terms moves the nodes */
	SymbolId	name = p->name;
	int			nargs = p->nargs;
	TermId		args[64];
	TermId	   *argv = args;
	TermId		result;

	if (p->ground)
		return pattern;
	if (p->kind == TERM_VARIABLE)
		return j->binding[p->name];
	check_stack_depth();
	if (nargs > lengthof(args))
		argv = palloc(nargs * sizeof(TermId));
	for (int i = 0; i < nargs; i++)
	{
		argv[i] = join_substitute(j, term_arg(ts, pattern, i), insert);
		if (argv[i] == NO_TERM)
			return NO_TERM;
	}
	result = insert ? term_function(ts, name, nargs, argv) :
		term_function_lookup(ts, name, nargs, argv);
	if (argv != args)
		pfree(argv);
	return result;
}

/* Where a positive literal's atoms are found under the bindings so far. */
typedef struct Candidates
{
	int			count;			/* how many (an estimate when looked up by a path) */
	int			slot;			/* index slot of the path or index by arguments, or -1 */
	int			path;
	int			args_index;		/* the index by arguments of slot, or -1: the path's */
	bool		exact;			/* all bound: the atom itself */
	TermId		atom;
	int			lo;				/* atoms [lo, hi) of the source */
	int			hi;
} Candidates;

/* Keeps the path with the fewest atoms that hold key there (none: a count of 0). */
static void
consider_path(const Tuples *t, int path, TermId key, Candidates *c)
{
	int			s;

	if (t->index.size == 0)
	{
		c->count = 0;
		return;
	}
	s = chain_slot(&t->index, path_key(path, key));
	if (t->index.keys[s] != path_key(path, key))
		c->count = 0;
	else if (t->index.count[s] < c->count)
	{
		c->count = t->index.count[s];
		c->slot = s;
		c->path = path;
	}
}

/*
 * Fewer atoms than this under the best path are not worth an index by
 * arguments: reading them costs less than building one.
 */
#define ARGS_INDEX_ABOVE 32

/*
 * Keeps the index by the paths of mask (two at least, else a path is as
 * good), whose values are values[path], when it leaves fewer atoms than
 * the best path.
 */
static void
consider_args(Join *j, Tuples *t, uint64 mask, const TermId *values, Candidates *c)
{
	uint64		key = mask;
	ArgsIndex  *ai;
	int			s;

	if ((ai = args_index(j, t, mask, c->count)) == NULL)
		return;
	for (uint64 paths = mask; paths != 0; paths &= paths - 1)
		key = args_key_add(key, values[pg_rightmost_one_pos64(paths)]);
	s = chain_slot(&ai->chains, args_key_end(key));
	if (ai->chains.keys[s] != args_key_end(key))
		c->count = 0;
	else if (ai->chains.count[s] < c->count)
	{
		c->count = ai->chains.count[s];
		c->slot = s;
		c->args_index = ai - t->args_indexes;
	}
}

/*
 * Literal i's candidates in t, into *c: written through a pointer, since a
 * struct returned whole was copied by 16-byte loads of fields just stored
 * 4 bytes at a time, which stalled (perf annotate: 29% of this function's
 * time in chess.kif's playouts).
 */
static void
candidates(Join *j, int i, const Tuples *t, Candidates *c)
{
	const TermStore *ts = j->terms;
	const Literal *lit = &j->rule->body[i];
	int			arity = term_arity(ts, lit->atom);
	uint64		bound_paths = 0;
	TermId		values[ARGS_INDEX_PATHS];

	memset(c, 0, sizeof(Candidates));
	c->slot = -1;
	c->args_index = -1;
	c->lo = j->lo == NULL ? 0 : j->lo[i];
	c->hi = j->hi == NULL ? t->n : j->hi[i];
	c->count = c->hi - c->lo;
	if (c->count <= 0)
	{
		c->count = 0;
		return;
	}
	if (all_bound(j, lit->atom))
	{
		int			idx;

		c->exact = true;
		if (t->dense != NULL && c->lo == 0 && c->hi == t->n)
		{
			c->atom = NO_TERM;
			c->count = dense_holds(j, t->dense, lit->atom) ? 1 : 0;
			return;
		}
		c->atom = join_substitute(j, lit->atom, false);
		idx = c->atom == NO_TERM ? -1 : tuples_find(t, c->atom);
		c->count = idx >= c->lo && idx < c->hi ? 1 : 0;
		return;
	}
	/* the index is a cache of t's atoms: brought up to date, t is the same set */
	index_up_to_date(ts, unconstify(Tuples *, t));
	for (int a = 0; a < arity && c->count > 0; a++)
	{
		TermId		arg = term_arg(ts, lit->atom, a);
		TermId		key = join_substitute(j, arg, false);
		int			path = a * PATH_STRIDE;

		if (key != NO_TERM)
		{
			consider_path(t, path, key, c);
			if (path < ARGS_INDEX_PATHS)
			{
				bound_paths |= UINT64CONST(1) << path;
				values[path] = key;
			}
		}
		else if (term_node(ts, arg)->kind == TERM_FUNCTION)
			for (int b = 0; b < term_node(ts, arg)->nargs && b < PATH_STRIDE - 1; b++)
				if ((key = join_substitute(j, term_arg(ts, arg, b), false)) != NO_TERM)
				{
					consider_path(t, path + 1 + b, key, c);
					if (path + 1 + b < ARGS_INDEX_PATHS)
					{
						bound_paths |= UINT64CONST(1) << (path + 1 + b);
						values[path + 1 + b] = key;
					}
				}
	}
	if (c->count > ARGS_INDEX_ABOVE && pg_popcount64(bound_paths) >= 2)
		consider_args(j, unconstify(Tuples *, t), bound_paths, values, c);
}

/* A negation or distinct whose variables are bound. */
static bool
test_holds(Join *j, int i)
{
	const Literal *lit = &j->rule->body[i];

	if (lit->kind == LIT_DISTINCT)
		return join_substitute(j, lit->atom, true) != join_substitute(j, lit->other, true);
	return j->ops->negation_holds(j, i);
}

static void join_from(Join *j, int remaining);

static void
try_atom(Join *j, int i, int remaining, TermId atom)
{
	int			mark = j->ntrail;

	if (join_unify(j, j->rule->body[i].atom, atom))
	{
		j->matched[i] = atom;
		join_from(j, remaining);
	}
	undo(j, mark);
}

/*
 * A deferred literal with at least as many bound variables as unbound is
 * asked before its turn when the literal the join would take has more
 * candidates than this: each candidate would ask it again, every argument
 * bound, a query of its own (chess.kif's legal rules: a blank square, 32
 * of them, for each piece, against (legal2 ?player (move ?piece ?u ?v ?x
 * ?y)) asked once for the piece's few moves; its threats: any square but
 * the captured one, 63, against the opponent's two bishops).  Random
 * playouts of chess.kif, moves/s (15 games of seed 1): never asked 1,400;
 * asked above 2 or 6 candidates 1,512 or 1,514 (the question costs a
 * join, paid where few candidates were cheaper), 8 1,868, 12 1,816 to
 * 1,926, 16 1,791, 32 1,780; at 12, the deferred literal with the most
 * bound variables over unbound asked, not the first: 2,165 to 2,186.
 * Asked when any argument was bound (2a47eb4, then dropped): 1,208,
 * questions with most of their variables unbound costing more than they
 * save.
 */
#define JOIN_ASK_ABOVE 12

/* Counts the occurrences of t's variables, bound (*bound) and not (*unbound). */
static void
count_variables(const Join *j, TermId t, int *bound, int *unbound)
{
	const TermStore *ts = j->terms;
	const TermNode *n = term_node(ts, t);

	if (n->ground)
		return;
	if (n->kind == TERM_VARIABLE)
	{
		if (j->binding[n->name] != NO_TERM)
			(*bound)++;
		else
			(*unbound)++;
		return;
	}
	check_stack_depth();
	for (int i = 0; i < n->nargs; i++)
		count_variables(j, term_arg(ts, t, i), bound, unbound);
}

/* Joins the literals not done yet (remaining of them). */
static void
join_from(Join *j, int remaining)
{
	const Rule *rule = j->rule;
	int			tested[MAX_BODY];
	int			ntested = 0;
	int			best = -1,
				deferred = -1,
				deferred_margin = 0;
	Candidates	c = {.count = INT_MAX};
	const Tuples *t = NULL;

	CHECK_FOR_INTERRUPTS();
	if (j->stop != NULL && *j->stop)
		return;
	/* once, when the head's variables have just become bound */
	if (j->ops->head_known != NULL && remaining > 0 && !j->head_bound && all_bound(j, rule->head))
	{
		j->head_atom = join_substitute(j, rule->head, false);
		if (j->ops->head_known(j, j->head_atom))
			return;
		j->head_bound = true;
		join_from(j, remaining);
		j->head_bound = false;
		return;
	}
	if (remaining == 0)
	{
		j->ops->emit(j);
		return;
	}
	check_stack_depth();
	for (int i = 0; i < rule->nbody; i++)
	{
		const Literal *lit = &rule->body[i];

		if (j->done[i] || lit->kind == LIT_POSITIVE || !all_bound(j, lit->atom) ||
			(lit->kind == LIT_DISTINCT && !all_bound(j, lit->other)))
			continue;
		if (!test_holds(j, i))
		{
			while (ntested > 0)
				j->done[tested[--ntested]] = false;
			return;
		}
		j->done[i] = true;
		tested[ntested++] = i;
	}
	if (ntested > 0)
	{
		join_from(j, remaining - ntested);
		while (ntested > 0)
			j->done[tested[--ntested]] = false;
		return;
	}
	for (int i = 0; i < rule->nbody; i++)
	{
		const Tuples *ti;
		Candidates	ci;

		if (j->done[i] || rule->body[i].kind != LIT_POSITIVE ||
			(j->ops->residual != NULL && j->ops->residual(j, i)))
			continue;
		if ((ti = j->ops->source(j, i, true)) == NULL)
		{
			int			bound = 0,
						unbound = 0;

			/* the most bound deferred literal: the cheapest question */
			count_variables(j, rule->body[i].atom, &bound, &unbound);
			if (deferred < 0 || bound - unbound > deferred_margin)
			{
				deferred = i;
				deferred_margin = bound - unbound;
			}
			continue;
		}
		candidates(j, i, ti, &ci);
		if (ci.count < c.count)
		{
			c = ci;
			best = i;
			t = ti;
		}
		if (c.count == 0)
			return;
		/* none can do better but by failing, which the next literals' turn finds as soon */
		if (c.count == 1)
			break;
	}
	if (best < 0 && deferred < 0)
	{
		/* only literals left out of the join (residual) bind the rest: emit finds them unbound */
		Assert(j->ops->residual != NULL);
		j->ops->emit(j);
		return;
	}
	if (best >= 0 && deferred >= 0 && deferred_margin >= 0 && c.count > JOIN_ASK_ABOVE)
	{
		/* asked now, its answers are candidates like any literal's */
		const Tuples *td = j->ops->source(j, deferred, false);
		Candidates	cd;

		candidates(j, deferred, td, &cd);

		if (cd.count < c.count)
		{
			c = cd;
			best = deferred;
			t = td;
		}
	}
	if (best < 0)
	{
		/* rules are safe, so a positive literal is left */
		best = deferred;
		t = j->ops->source(j, best, false);
		candidates(j, best, t, &c);
	}
	j->done[best] = true;
	if (c.count == 0)
		;
	else if (c.exact)
	{
		/* every variable is bound: the atom is the literal substituted, nothing to unify */
		j->matched[best] = c.atom;
		join_from(j, remaining - 1);
	}
	else if (c.slot >= 0 && c.args_index >= 0)
	{
		/* the chains are read through t at each step: a join below may move them */
		for (int idx = t->args_indexes[c.args_index].chains.last[c.slot]; idx >= c.lo;
			 idx = t->args_indexes[c.args_index].previous[idx])
			if (idx < c.hi)
				try_atom(j, best, remaining - 1, t->atoms[idx]);
	}
	else if (c.slot >= 0)
	{
		for (int idx = t->index.last[c.slot]; idx >= c.lo; idx = t->previous[c.path][idx])
			if (idx < c.hi)
				try_atom(j, best, remaining - 1, t->atoms[idx]);
	}
	else
		for (int idx = c.lo; idx < c.hi; idx++)
			try_atom(j, best, remaining - 1, t->atoms[idx]);
	j->done[best] = false;
}

void
join_begin(Join *j)
{
	const Rule *rule = j->rule;

	j->binding = palloc(Max(1, rule->nvariables) * sizeof(TermId));
	for (int v = 0; v < rule->nvariables; v++)
		j->binding[v] = NO_TERM;
	j->trail = palloc(Max(1, rule->nvariables) * sizeof(int));
	j->ntrail = 0;
	j->head_bound = false;
	j->matched = palloc(Max(1, rule->nbody) * sizeof(TermId));
	j->done = palloc0(Max(1, rule->nbody) * sizeof(bool));
}

void
join_body(Join *j)
{
	int			joined = j->rule->nbody;

	if (j->ops->residual != NULL)
		for (int i = 0; i < j->rule->nbody; i++)
			joined -= j->rule->body[i].kind == LIT_POSITIVE && j->ops->residual(j, i);
	join_from(j, joined);
}

void
join_end(Join *j)
{
	pfree(j->binding);
	pfree(j->trail);
	pfree(j->matched);
	pfree(j->done);
}

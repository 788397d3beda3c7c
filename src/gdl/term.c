/*
 * term.c: interned symbols and hash-consed terms of GDL (see term.h).
 */
#include "postgres.h"

#include "gdl/term.h"
#include "core/jsonfacts.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/memutils.h"

#define INITIAL_ROOM 256

static void *
store_alloc(TermStore *ts, Size size)
{
	return MemoryContextAllocHuge(ts->cxt, size);
}

static int32 *
new_buckets(TermStore *ts, int n)
{
	int32	   *b = store_alloc(ts, n * sizeof(int32));

	memset(b, 0xff, n * sizeof(int32));
	return b;
}

static TermSlot *
new_slots(TermStore *ts, int n)
{
	TermSlot   *s = store_alloc(ts, n * sizeof(TermSlot));

	for (int i = 0; i < n; i++)
		s[i].term = NO_TERM;
	return s;
}

TermStore *
term_store_create(void)
{
	TermStore  *ts = palloc0(sizeof(TermStore));

	ts->cxt = CurrentMemoryContext;
	ts->symbol_room = INITIAL_ROOM;
	ts->names = store_alloc(ts, ts->symbol_room * sizeof(char *));
	ts->symbol_term = store_alloc(ts, ts->symbol_room * sizeof(TermId));
	ts->number = store_alloc(ts, ts->symbol_room * sizeof(int32));
	ts->symbol_chain = store_alloc(ts, ts->symbol_room * sizeof(int32));
	ts->nsymbol_buckets = INITIAL_ROOM;
	ts->symbol_buckets = new_buckets(ts, ts->nsymbol_buckets);

	ts->term_room = INITIAL_ROOM;
	ts->nodes = store_alloc(ts, ts->term_room * sizeof(TermNode));
	ts->nterm_slots = 2 * INITIAL_ROOM;
	ts->term_slots = new_slots(ts, ts->nterm_slots);
	ts->argpool_room = INITIAL_ROOM;
	ts->argpool = store_alloc(ts, ts->argpool_room * sizeof(TermId));
	return ts;
}

static uint32
name_hash(const char *name, int len)
{
	return hash_bytes((const unsigned char *) name, len);
}

/* The integer a symbol spells ("0", "42"; no sign, no leading zero), or -1. */
static int32
symbol_number(const char *name, int len)
{
	int64		value = 0;

	if (len == 0 || len > 9 || (len > 1 && name[0] == '0'))
		return -1;
	for (int i = 0; i < len; i++)
	{
		if (name[i] < '0' || name[i] > '9')
			return -1;
		value = value * 10 + (name[i] - '0');
	}
	return (int32) value;
}

SymbolId
term_symbol_lookup(const TermStore *ts, const char *name, int len)
{
	uint32		h = name_hash(name, len) & (ts->nsymbol_buckets - 1);

	for (int32 s = ts->symbol_buckets[h]; s >= 0; s = ts->symbol_chain[s])
		if (strncmp(ts->names[s], name, len) == 0 && ts->names[s][len] == '\0')
			return s;
	return -1;
}

static void
rehash_symbols(TermStore *ts)
{
	ts->nsymbol_buckets *= 2;
	pfree(ts->symbol_buckets);
	ts->symbol_buckets = new_buckets(ts, ts->nsymbol_buckets);
	for (int s = 0; s < ts->nsymbols; s++)
	{
		uint32		h = name_hash(ts->names[s], strlen(ts->names[s])) & (ts->nsymbol_buckets - 1);

		ts->symbol_chain[s] = ts->symbol_buckets[h];
		ts->symbol_buckets[h] = s;
	}
}

SymbolId
term_symbol_id(TermStore *ts, const char *name, int len)
{
	SymbolId	s = term_symbol_lookup(ts, name, len);
	uint32		h;
	char	   *copy;

	if (s >= 0)
		return s;
	if (ts->nsymbols == ts->symbol_room)
	{
		ts->symbol_room *= 2;
		ts->names = repalloc_huge(ts->names, ts->symbol_room * sizeof(char *));
		ts->symbol_term = repalloc_huge(ts->symbol_term, ts->symbol_room * sizeof(TermId));
		ts->number = repalloc_huge(ts->number, ts->symbol_room * sizeof(int32));
		ts->symbol_chain = repalloc_huge(ts->symbol_chain, ts->symbol_room * sizeof(int32));
	}
	s = ts->nsymbols++;
	copy = store_alloc(ts, len + 1);
	memcpy(copy, name, len);
	copy[len] = '\0';
	ts->names[s] = copy;
	ts->number[s] = symbol_number(name, len);
	ts->symbol_term[s] = NO_TERM;
	if (ts->nsymbols > ts->nsymbol_buckets)
		rehash_symbols(ts);
	else
	{
		h = name_hash(name, len) & (ts->nsymbol_buckets - 1);
		ts->symbol_chain[s] = ts->symbol_buckets[h];
		ts->symbol_buckets[h] = s;
	}
	ts->symbol_term[s] = term_function(ts, s, -1, NULL);
	return s;
}

/* nargs -1: the symbol itself; -2: a variable. */
static uint32
term_hash(int kind, int32 name, int nargs, const TermId *args)
{
	uint32		h = hash_combine((uint32) kind * 0x9e3779b9, (uint32) name);

	for (int i = 0; i < nargs; i++)
		h = hash_combine(h, (uint32) args[i]);
	/* ids are small consecutive numbers: mix them into the low bits the slots use */
	return murmurhash32(h);
}

static bool
term_equals(const TermStore *ts, TermId t, int kind, int32 name, int nargs, const TermId *args)
{
	const TermNode *n = &ts->nodes[t];

	if (n->kind != kind || n->name != name)
		return false;
	if (kind != TERM_FUNCTION)
		return true;
	if (n->nargs != nargs)
		return false;
	/* a few ids: a loop, not a call of memcmp (7% of chess.kif's load went to it; the loop made the load 1-3% shorter) */
	for (int i = 0; i < nargs; i++)
		if (ts->argpool[n->args + i] != args[i])
			return false;
	return true;
}

/* The slot of the term, or the empty slot where it would go. */
static int
find_slot(const TermStore *ts, uint32 hash, int kind, int32 name, int nargs, const TermId *args)
{
	int			mask = ts->nterm_slots - 1;
	int			i = hash & mask;

	for (;; i = (i + 1) & mask)
	{
		const TermSlot *s = &ts->term_slots[i];

		if (s->term == NO_TERM ||
			(s->hash == hash && term_equals(ts, s->term, kind, name, nargs, args)))
			return i;
	}
}

/* Doubles the table; the slots' hashes place the terms again. */
static void
grow_slots(TermStore *ts)
{
	TermSlot   *old = ts->term_slots;
	int			nold = ts->nterm_slots;
	int			mask;

	ts->nterm_slots *= 2;
	ts->term_slots = new_slots(ts, ts->nterm_slots);
	mask = ts->nterm_slots - 1;
	for (int k = 0; k < nold; k++)
	{
		int			i;

		if (old[k].term == NO_TERM)
			continue;
		for (i = old[k].hash & mask; ts->term_slots[i].term != NO_TERM; i = (i + 1) & mask)
			;
		ts->term_slots[i] = old[k];
	}
	pfree(old);
}

static TermId
find_term(const TermStore *ts, int kind, int32 name, int nargs, const TermId *args)
{
	uint32		hash = term_hash(kind, name, Max(nargs, 0), args);

	return ts->term_slots[find_slot(ts, hash, kind, name, nargs, args)].term;
}

static TermId
add_term(TermStore *ts, int kind, int32 name, int nargs, const TermId *args)
{
	uint32		hash = term_hash(kind, name, Max(nargs, 0), args);
	int			slot = find_slot(ts, hash, kind, name, nargs, args);
	TermId		t = ts->term_slots[slot].term;
	TermNode   *n;

	if (t != NO_TERM)
		return t;
	if (ts->nterms == ts->term_room)
	{
		ts->term_room *= 2;
		ts->nodes = repalloc_huge(ts->nodes, ts->term_room * sizeof(TermNode));
	}
	if (nargs > 0 && ts->nargpool + nargs > ts->argpool_room)
	{
		while (ts->nargpool + nargs > ts->argpool_room)
			ts->argpool_room *= 2;
		ts->argpool = repalloc_huge(ts->argpool, ts->argpool_room * sizeof(TermId));
	}
	t = ts->nterms++;
	n = &ts->nodes[t];
	n->kind = kind;
	n->name = name;
	n->nargs = Max(nargs, 0);
	n->args = ts->nargpool;
	n->ground = kind != TERM_VARIABLE;
	for (int i = 0; i < nargs; i++)
	{
		ts->argpool[ts->nargpool++] = args[i];
		n->ground &= ts->nodes[args[i]].ground;
	}
	ts->term_slots[slot].term = t;
	ts->term_slots[slot].hash = hash;
	if (2 * ts->nterms > ts->nterm_slots)
		grow_slots(ts);
	return t;
}

Size
term_store_growth(const TermStore *ts)
{
	Size		more = 0;

	if (ts->nterms == ts->term_room)
		more += (Size) ts->term_room * sizeof(TermNode);
	/* a term of up to PG_UINT16_MAX arguments; most have a few */
	if (ts->nargpool + PG_UINT16_MAX > ts->argpool_room)
		more += (Size) ts->argpool_room * sizeof(TermId);
	if (2 * (ts->nterms + 1) > ts->nterm_slots)
		more += (Size) 2 * ts->nterm_slots * sizeof(TermSlot);
	return more;
}

TermId
term_symbol(TermStore *ts, SymbolId sym)
{
	return ts->symbol_term[sym];
}

TermId
term_variable(TermStore *ts, int number)
{
	return add_term(ts, TERM_VARIABLE, number, -2, NULL);
}

TermId
term_function(TermStore *ts, SymbolId name, int nargs, const TermId *args)
{
	if (nargs < 0)
		return add_term(ts, TERM_SYMBOL, name, -1, NULL);
	Assert(nargs <= PG_UINT16_MAX);
	return add_term(ts, TERM_FUNCTION, name, nargs, args);
}

TermId
term_function_lookup(const TermStore *ts, SymbolId name, int nargs, const TermId *args)
{
	return find_term(ts, TERM_FUNCTION, name, nargs, args);
}

TermId
term_copy(TermStore *to, const TermStore *from, TermId t)
{
	const TermNode *n = term_node(from, t);
	const char *name = n->kind == TERM_VARIABLE ? NULL : from->names[n->name];
	TermId	   *args;
	TermId		copy;

	check_stack_depth();
	if (n->kind == TERM_VARIABLE)
		return term_variable(to, n->name);
	if (n->kind == TERM_SYMBOL)
		return term_symbol(to, term_symbol_id(to, name, strlen(name)));
	args = palloc(n->nargs * sizeof(TermId));
	for (int i = 0; i < n->nargs; i++)
		args[i] = term_copy(to, from, term_arg(from, t, i));
	copy = term_function(to, term_symbol_id(to, name, strlen(name)), n->nargs, args);
	pfree(args);
	return copy;
}

/* t with each variable v replaced by map[v] (see term.h). */
TermId
term_rename(TermStore *ts, TermId t, const TermId *map)
{
	const TermNode *n = term_node(ts, t);
	SymbolId	name = n->name;
	int			nargs = n->nargs;
	TermId	   *args;
	TermId		renamed;

	if (n->ground)
		return t;
	if (n->kind == TERM_VARIABLE)
		return map[name];
	check_stack_depth();
	/* the store may move as terms are added: nothing of it is held across */
	args = palloc(nargs * sizeof(TermId));
	for (int i = 0; i < nargs; i++)
		args[i] = term_rename(ts, term_arg(ts, t, i), map);
	renamed = term_function(ts, name, nargs, args);
	pfree(args);
	return renamed;
}

/* Marks in seen[] the variables of term t. */
void
term_mark_variables(const TermStore *ts, TermId t, bool *seen)
{
	const TermNode *n = term_node(ts, t);

	check_stack_depth();
	if (n->ground)
		return;
	if (n->kind == TERM_VARIABLE)
	{
		seen[n->name] = true;
		return;
	}
	for (int i = 0; i < n->nargs; i++)
		term_mark_variables(ts, term_arg(ts, t, i), seen);
}

/* A variable of t not in bound[], or -1. */
int
term_unbound_variable(const TermStore *ts, TermId t, const bool *bound)
{
	const TermNode *n = term_node(ts, t);

	check_stack_depth();
	if (n->ground)
		return -1;
	if (n->kind == TERM_VARIABLE)
		return bound[n->name] ? -1 : n->name;
	for (int i = 0; i < n->nargs; i++)
	{
		int			v = term_unbound_variable(ts, term_arg(ts, t, i), bound);

		if (v >= 0)
			return v;
	}
	return -1;
}

static int
symbol_compare(const TermStore *ts, SymbolId a, SymbolId b)
{
	int32		na = ts->number[a],
				nb = ts->number[b];

	if (a == b)
		return 0;
	if (na >= 0 || nb >= 0)
	{
		if (na < 0)
			return 1;
		if (nb < 0)
			return -1;
		return na < nb ? -1 : 1;
	}
	return strcmp(ts->names[a], ts->names[b]);
}

int
term_compare(const TermStore *ts, TermId a, TermId b)
{
	const TermNode *na = term_node(ts, a);
	const TermNode *nb = term_node(ts, b);
	int			c;

	if (a == b)
		return 0;
	check_stack_depth();
	if (na->kind != nb->kind)
		return na->kind < nb->kind ? -1 : 1;
	if (na->kind == TERM_VARIABLE)
		return na->name < nb->name ? -1 : 1;
	c = symbol_compare(ts, na->name, nb->name);
	if (c != 0 || na->kind == TERM_SYMBOL)
		return c;
	if (na->nargs != nb->nargs)
		return na->nargs < nb->nargs ? -1 : 1;
	for (int i = 0; i < na->nargs; i++)
	{
		c = term_compare(ts, term_arg(ts, a, i), term_arg(ts, b, i));
		if (c != 0)
			return c;
	}
	return 0;
}

void
term_append_text(const TermStore *ts, TermId t, StringInfo out)
{
	const TermNode *n = term_node(ts, t);

	check_stack_depth();
	switch (n->kind)
	{
		case TERM_SYMBOL:
			appendStringInfoString(out, ts->names[n->name]);
			break;
		case TERM_VARIABLE:
			appendStringInfo(out, "?v%d", n->name);
			break;
		case TERM_FUNCTION:
			appendStringInfo(out, "(%s", ts->names[n->name]);
			for (int i = 0; i < n->nargs; i++)
			{
				appendStringInfoChar(out, ' ');
				term_append_text(ts, term_arg(ts, t, i), out);
			}
			appendStringInfoChar(out, ')');
			break;
	}
}

char *
term_text(const TermStore *ts, TermId t)
{
	StringInfoData out;

	initStringInfo(&out);
	term_append_text(ts, t, &out);
	return out.data;
}

/*
 * The one writer of GDL terms as JSON, for states, actions and from_kif: a
 * symbol that spells a number as a JSON number, other symbols as strings,
 * a function term as an array of its name and arguments.
 */
void
term_encode_json(const TermStore *ts, TermId t, JsonOut *out)
{
	const TermNode *n = term_node(ts, t);

	check_stack_depth();
	if (n->kind == TERM_SYMBOL)
	{
		if (ts->number[n->name] >= 0)
			jo_int(out, ts->number[n->name]);
		else
			jo_string(out, ts->names[n->name]);
		return;
	}
	jo_begin_array(out);
	jo_string(out, ts->names[n->name]);
	for (int i = 0; i < n->nargs; i++)
		term_encode_json(ts, term_arg(ts, t, i), out);
	jo_end_array(out);
}

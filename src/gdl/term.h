/*
 * term.h: interned symbols and hash-consed terms of GDL.
 *
 * A term is a symbol, a variable (numbered within its rule) or a function
 * term (a symbol applied to terms).  Every term is stored once, so equal
 * terms have equal ids and a ground atom is just an int32.  The store only
 * grows; a compiled game keeps a small store of its own (facts, actions,
 * roles) and drops the one grounding used.
 */
#ifndef GAMETREE_GDL_TERM_H
#define GAMETREE_GDL_TERM_H

#include "postgres.h"

#include "lib/stringinfo.h"

typedef int32 TermId;
typedef int32 SymbolId;

#define NO_TERM (-1)

typedef enum TermKind
{
	TERM_SYMBOL,
	TERM_VARIABLE,
	TERM_FUNCTION
} TermKind;

typedef struct TermNode
{
	uint8		kind;			/* TermKind */
	bool		ground;
	uint16		nargs;
	int32		name;			/* SymbolId; the variable's number for variables */
	int32		args;			/* offset of the arguments in TermStore.argpool */
} TermNode;

typedef struct TermSlot
{
	TermId		term;			/* NO_TERM: empty */
	uint32		hash;
} TermSlot;

typedef struct TermStore
{
	MemoryContext cxt;			/* where the store grows */

	/* symbols */
	char	  **names;
	TermId	   *symbol_term;	/* the TERM_SYMBOL term of each symbol */
	int32	   *number;			/* the integer a symbol spells, or -1 */
	int			nsymbols;
	int			symbol_room;
	int32	   *symbol_buckets;
	int32	   *symbol_chain;
	int			nsymbol_buckets;

	/* terms */
	TermNode   *nodes;
	int			nterms;
	int			term_room;
	TermId	   *argpool;
	int			nargpool;
	int			argpool_room;
	/*
	 * The terms by hash: open addressing, linear probing, at most half full.
	 * A slot keeps the term's hash beside its id, so a probe rarely reads a
	 * node (grounding chess.kif makes millions of terms, and a node read is
	 * a cache miss) and growing the table reads no node at all.
	 */
	TermSlot   *term_slots;
	int			nterm_slots;	/* a power of two */
} TermStore;

extern TermStore *term_store_create(void);

/* Interns a symbol (lower-cased by the parser, not here). */
extern SymbolId term_symbol_id(TermStore *ts, const char *name, int len);
/* The symbol, or -1 when the store has none of that name. */
extern SymbolId term_symbol_lookup(const TermStore *ts, const char *name, int len);

extern TermId term_symbol(TermStore *ts, SymbolId sym);
extern TermId term_variable(TermStore *ts, int number);
extern TermId term_function(TermStore *ts, SymbolId name, int nargs, const TermId *args);
/* A function term already in the store, or NO_TERM. */
extern TermId term_function_lookup(const TermStore *ts, SymbolId name, int nargs,
								   const TermId *args);

/* At most how many bytes adding a term to ts allocates (its arrays grow by doubling). */
extern Size term_store_growth(const TermStore *ts);

/* Copies term t of store from into store to; returns its id there. */
extern TermId term_copy(TermStore *to, const TermStore *from, TermId t);

static inline const TermNode *
term_node(const TermStore *ts, TermId t)
{
	return &ts->nodes[t];
}

static inline TermId
term_arg(const TermStore *ts, TermId t, int i)
{
	return ts->argpool[ts->nodes[t].args + i];
}

/* The relation name of an atom: its symbol, or its function's name. */
static inline SymbolId
term_functor(const TermStore *ts, TermId t)
{
	return ts->nodes[t].name;
}

static inline int
term_arity(const TermStore *ts, TermId t)
{
	return ts->nodes[t].kind == TERM_FUNCTION ? ts->nodes[t].nargs : 0;
}

/*
 * The canonical order of facts and actions: symbols before function terms;
 * numbers before other symbols, by value; other symbols by name; function
 * terms by name, arity, then arguments left to right.
 */
extern int	term_compare(const TermStore *ts, TermId a, TermId b);

/*
 * t with each variable v replaced by map[v] (a term of this store); the
 * store may grow, so nothing of it is held across the call.
 */
extern TermId term_rename(TermStore *ts, TermId t, const TermId *map);
/* Sets seen[v] for every variable v of t. */
extern void term_mark_variables(const TermStore *ts, TermId t, bool *seen);
/* A variable of t that bound[] does not mark, or -1. */
extern int	term_unbound_variable(const TermStore *ts, TermId t, const bool *bound);

/* KIF text of a term, e.g. "(cell 1 1 b)". */
extern void term_append_text(const TermStore *ts, TermId t, StringInfo out);
extern char *term_text(const TermStore *ts, TermId t);

/*
 * JSON of a ground term, as the README's conventions for GDL games write it:
 * (cell 1 1 b) is ["cell", 1, 1, "b"].  out is a core/jsonfacts.h JsonOut.
 */
struct JsonOut;
extern void term_encode_json(const TermStore *ts, TermId t, struct JsonOut *out);

#endif

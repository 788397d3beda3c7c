/*
 * kif.c: reads the KIF text of a GDL description into terms, and one
 * ground term of a match (a move, a fact) the same way.
 *
 * KIF is s-expressions: "(" and ")", symbols, variables (?name), comments
 * from ";" to the end of the line.  GDL is case-insensitive, so symbols and
 * variables are lower-cased.
 */
#include "postgres.h"

#include "gdl/program.h"
#include "miscadmin.h"
#include "utils/hsearch.h"

/* Most arguments of one term. */
#define KIF_MAX_ARGS 1000
/*
 * The deepest nesting of a single term (kif_parse_term): the terms of a
 * match are moves and facts a few levels deep; a bound keeps a hostile
 * text from reaching check_stack_depth's error, which is no input error.
 */
#define KIF_MAX_TERM_DEPTH 100

typedef struct KifReader
{
	TermStore  *ts;
	const char *source;			/* what is read, for messages: game "name", or KIF term */
	int			syntax_error;	/* the SQLSTATE of a syntax error in it */
	bool		ground;			/* variables are refused (a single term) */
	int			depth;			/* of the list being read */
	int			max_depth;		/* 0: only check_stack_depth bounds it */
	const char *text;
	int			pos;
	int			line;
	/* variables of the sentence being read */
	char	  **variables;
	int			nvariables;
	int			variable_room;
	int			sentence;		/* number of the sentence being read */
	HTAB	   *variable_numbers;	/* name -> VariableEntry */
} KifReader;

/* A variable's number in the sentence that last used its name. */
typedef struct VariableEntry
{
	char		name[KIF_MAX_NAME + 1]; /* the key */
	int			sentence;
	int			number;
} VariableEntry;

static void
skip_space(KifReader *r)
{
	for (;;)
	{
		char		c = r->text[r->pos];

		if (c == '\n')
			r->line++;
		if (c == ';')
		{
			while (r->text[r->pos] != '\0' && r->text[r->pos] != '\n')
				r->pos++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
		{
			r->pos++;
			continue;
		}
		return;
	}
}

static bool
is_delimiter(char c)
{
	return c == '\0' || c == '(' || c == ')' || c == ';' || c == ' ' || c == '\t' ||
		c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The number of a variable in its sentence: a hash lookup, as a sentence may have many. */
static int
variable_number(KifReader *r, const char *name)
{
	bool		found;
	VariableEntry *e = hash_search(r->variable_numbers, name, HASH_ENTER, &found);

	if (found && e->sentence == r->sentence)
		return e->number;
	e->sentence = r->sentence;
	if (r->nvariables == r->variable_room)
	{
		r->variable_room = Max(16, 2 * r->variable_room);
		r->variables = r->variables == NULL ?
			palloc_extended(r->variable_room * sizeof(char *), MCXT_ALLOC_HUGE) :
			repalloc_huge(r->variables, r->variable_room * sizeof(char *));
	}
	r->variables[r->nvariables] = pstrdup(name);
	e->number = r->nvariables++;
	return e->number;
}

bool
kif_is_symbol(const char *name, int len)
{
	if (len == 0 || len > KIF_MAX_NAME || name[0] == '?')
		return false;
	for (int i = 0; i < len; i++)
		if (is_delimiter(name[i]))
			return false;
	return true;
}

static TermId read_term(KifReader *r);

/* A symbol or variable at r->pos. */
static TermId
read_name(KifReader *r)
{
	int			start = r->pos;
	int			len;
	char		name[KIF_MAX_NAME + 1];

	while (!is_delimiter(r->text[r->pos]))
		r->pos++;
	len = r->pos - start;
	if (len > KIF_MAX_NAME)
		ereport(ERROR,
				(errcode(ERRCODE_NAME_TOO_LONG),
				 errmsg("%s, line %d: a name of %d characters is too long",
						r->source, r->line, len),
				 errhint("Names have at most %d characters.", KIF_MAX_NAME)));
	for (int i = 0; i < len; i++)
		name[i] = pg_ascii_tolower((unsigned char) r->text[start + i]);
	name[len] = '\0';
	if (name[0] == '?')
	{
		if (len == 1)
			ereport(ERROR,
					(errcode(r->syntax_error),
					 errmsg("%s, line %d: \"?\" without a variable name", r->source, r->line)));
		if (r->ground)
			ereport(ERROR,
					(errcode(r->syntax_error),
					 errmsg("%s, line %d: a variable %s in a term that must be ground",
							r->source, r->line, name),
					 errhint("Moves and facts are ground terms: symbols and lists of them.")));
		return term_variable(r->ts, variable_number(r, name));
	}
	return term_symbol(r->ts, term_symbol_id(r->ts, name, len));
}

/* A list "( ... )" at r->pos: a function term named by its first item. */
static TermId
read_list(KifReader *r)
{
	int			open_line = r->line;
	TermId	   *items = NULL;
	int			nitems = 0,
				room = 0;
	TermId		head,
				t;

	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	if (r->max_depth > 0 && ++r->depth > r->max_depth)
		ereport(ERROR,
				(errcode(r->syntax_error),
				 errmsg("%s, line %d: lists nested more than %d deep", r->source, open_line,
						r->max_depth),
				 errhint("The terms of a match nest a few levels at most.")));
	r->pos++;					/* "(" */
	for (;;)
	{
		skip_space(r);
		if (r->text[r->pos] == '\0')
			ereport(ERROR,
					(errcode(r->syntax_error),
					 errmsg("%s, line %d: unbalanced parentheses: \"(\" is never closed",
							r->source, open_line),
					 errhint("Every \"(\" needs its \")\".")));
		if (r->text[r->pos] == ')')
		{
			r->pos++;
			break;
		}
		if (nitems == room)
		{
			room = Max(8, 2 * room);
			items = items == NULL ? palloc(room * sizeof(TermId)) : repalloc(items, room * sizeof(TermId));
		}
		if (nitems == KIF_MAX_ARGS + 1)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s, line %d: a term with more than %d arguments",
							r->source, open_line, KIF_MAX_ARGS)));
		items[nitems++] = read_term(r);
	}
	if (nitems == 0)
		ereport(ERROR,
				(errcode(r->syntax_error),
				 errmsg("%s, line %d: an empty list \"()\"", r->source, open_line),
				 errhint("A list names a relation or function first: (name argument ...).")));
	head = items[0];
	if (term_node(r->ts, head)->kind != TERM_SYMBOL)
		ereport(ERROR,
				(errcode(r->syntax_error),
				 errmsg("%s, line %d: a list must start with a symbol, not \"%s\"",
						r->source, open_line,
						term_node(r->ts, head)->kind == TERM_VARIABLE ?
						r->variables[term_node(r->ts, head)->name] : term_text(r->ts, head)),
				 errhint("Variables cannot name relations or functions in GDL.")));
	/* (open) is the constant open, as GDL reads it */
	t = nitems == 1 ? head : term_function(r->ts, term_functor(r->ts, head), nitems - 1, items + 1);
	pfree(items);
	r->depth--;
	return t;
}

static TermId
read_term(KifReader *r)
{
	skip_space(r);
	if (r->text[r->pos] == '(')
		return read_list(r);
	if (r->text[r->pos] == ')')
		ereport(ERROR,
				(errcode(r->syntax_error),
				 errmsg("%s, line %d: unbalanced parentheses: \")\" without \"(\"",
						r->source, r->line),
				 errhint("Every \")\" closes a \"(\" before it.")));
	return read_name(r);
}

KifSentence *
kif_parse(TermStore *ts, const char *text, int *nsentences, const char *game)
{
	KifReader	r = {.ts = ts,.source = psprintf("game \"%s\"", game),
	.syntax_error = ERRCODE_SYNTAX_ERROR,.text = text,.line = 1};
	KifSentence *sentences = NULL;
	int			n = 0,
				room = 0;
	HASHCTL		ctl = {.keysize = KIF_MAX_NAME + 1,.entrysize = sizeof(VariableEntry),
	.hcxt = CurrentMemoryContext};

	r.variable_numbers = hash_create("gametree KIF variables", 256, &ctl,
									 HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
	for (;;)
	{
		KifSentence *s;

		/* a sentence may be a bare symbol, which reads no list */
		CHECK_FOR_INTERRUPTS();
		skip_space(&r);
		if (r.text[r.pos] == '\0')
			break;
		if (n == room)
		{
			room = Max(64, 2 * room);
			sentences = sentences == NULL ? palloc_extended(room * sizeof(KifSentence), MCXT_ALLOC_HUGE) :
				repalloc_huge(sentences, room * sizeof(KifSentence));
		}
		s = &sentences[n++];
		r.sentence = n;
		r.nvariables = 0;
		r.variables = NULL;
		r.variable_room = 0;
		s->line = r.line;
		s->start = r.pos;
		s->term = read_term(&r);
		s->end = r.pos;
		s->variables = r.variables;
		s->nvariables = r.nvariables;
	}
	hash_destroy(r.variable_numbers);
	*nsentences = n;
	return sentences;
}

TermId
kif_parse_term(TermStore *ts, const char *text)
{
	KifReader	r = {.ts = ts,.source = "KIF term",
		.syntax_error = ERRCODE_INVALID_TEXT_REPRESENTATION,.ground = true,
	.max_depth = KIF_MAX_TERM_DEPTH,.text = text,.line = 1};
	TermId		t;

	skip_space(&r);
	if (r.text[r.pos] == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("KIF term: the text holds no term"),
				 errhint("A term is a symbol such as noop or a list such as (mark 1 2).")));
	t = read_term(&r);
	skip_space(&r);
	if (r.text[r.pos] == ')')
		read_term(&r);			/* reports the unbalanced ")" */
	if (r.text[r.pos] != '\0')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("KIF term, line %d: text after the term", r.line),
				 errhint("Give one term; a list of terms is written (name term ...).")));
	return t;
}

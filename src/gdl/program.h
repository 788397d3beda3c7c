/*
 * program.h: a GDL description as checked rules.
 *
 * kif.c reads KIF text into sentences; program.c turns them into rules
 * (facts are rules without a body, "or" is multiplied out), checks them
 * (keywords, safety, stratification, the GDL restrictions on roles, init,
 * legal, goal and terminal) and groups them by relation.  Every error names
 * the line of the rule at fault.
 */
#ifndef GAMETREE_GDL_PROGRAM_H
#define GAMETREE_GDL_PROGRAM_H

#include "gdl/term.h"

/* The longest symbol or variable name: longer ones are surely not GDL. */
#define KIF_MAX_NAME 200

/* One sentence of KIF text: a term (rules are (<= head body...)). */
typedef struct KifSentence
{
	TermId		term;
	int			line;
	int			start;			/* byte offsets of the sentence in the text */
	int			end;
	char	  **variables;		/* names (with "?") by number */
	int			nvariables;
} KifSentence;

/*
 * Parses KIF text: symbols are lower-cased, variables are numbered in order
 * of appearance within each sentence.  Reports syntax errors (42601) with
 * their line.
 */
extern KifSentence *kif_parse(TermStore *ts, const char *text, int *nsentences,
							  const char *game);

/*
 * Parses one ground term (a move, a fact), the whole text, with kif_parse's
 * rules: "(open)" is the symbol open.  Reports any fault, empty text, text
 * after the term, a variable or nesting deeper than a match needs, as 22P02.
 */
extern TermId kif_parse_term(TermStore *ts, const char *text);

/* Whether kif_parse reads name (len bytes) as one symbol, whatever its case. */
extern bool kif_is_symbol(const char *name, int len);

typedef enum LiteralKind
{
	LIT_POSITIVE,
	LIT_NEGATIVE,
	LIT_DISTINCT
} LiteralKind;

typedef struct Literal
{
	LiteralKind kind;
	int			relation;		/* index in Program.relations; -1 for distinct */
	TermId		atom;			/* distinct: the two terms */
	TermId		other;
} Literal;

typedef struct Rule
{
	TermId		head;
	int			relation;		/* of the head */
	int			nbody;
	Literal    *body;
	int			nvariables;
	int			sentence;		/* index in Program.sentences, for messages */
} Rule;

/* A relation: a name and an arity. */
typedef struct Relation
{
	SymbolId	name;
	int			arity;
	bool		dynamic;		/* depends on true or does */
	int			component;		/* strongly connected component, in evaluation order */
	int		   *rules;			/* indexes of the rules whose head it is (into one array) */
	int			nrules;
	bool		asked;			/* demand.h's: the atoms a grounding wants, no relation of the game */
} Relation;

/* Relations GDL gives a meaning. */
typedef struct Keywords
{
	SymbolId	role,
				init,
				true_,
				next,
				legal,
				does,
				goal,
				terminal,
				distinct,
				not_,
				or_,
				and_,
				rule,			/* "<=" */
				base,
				input,
				noop,
				control;
} Keywords;

typedef struct Program
{
	const char *game;			/* for messages */
	const char *text;
	TermStore  *terms;
	Keywords	kw;
	KifSentence *sentences;
	int			nsentences;
	Rule	   *rules;
	int			nrules;
	int			rule_room;
	Relation   *relations;
	int			nrelations;
	int			relation_room;
	/* open addressing over (name, arity): relation index, or -1 */
	int32	   *relation_slots;
	int			nrelation_slots;	/* a power of two, at least twice nrelations */
	int			ncomponents;
	/* per relation r, user_rules[user_start[r] .. user_start[r + 1]): the rules whose body uses it */
	int		   *user_start;
	int		   *user_rules;
	/* the relations GDL gives a meaning (present even when no rule names them) */
	int			rel_role,
				rel_init,
				rel_true,
				rel_next,
				rel_legal,
				rel_does,
				rel_goal,
				rel_terminal;
} Program;

/* Parses and checks; reports every fault with ereport(ERROR) and its line. */
extern Program *program_build(const char *game, const char *text);

/*
 * For rules made after the checks (demand.h): a new relation, of the state
 * when dynamic, evaluated after every other; a rule appended (its body is
 * kept, not copied).  program_file_rules then files the relations' rules
 * and readers again.
 */
extern int	program_add_relation(Program *p, SymbolId name, int arity, bool dynamic);
extern void program_add_rule(Program *p, const Rule *rule);
extern void program_file_rules(Program *p);

/*
 * The relations filed by component, in evaluation order (palloc'd); when
 * component_start is not NULL, it gets where each component's begin
 * (palloc'd, ncomponents + 1 entries).
 */
extern int *program_relations_by_component(const Program *p, int **component_start);

/* The relation of a name and arity, or -1. */
extern int	program_relation(const Program *p, SymbolId name, int arity);

/*
 * depends[r]: relation r depends on relation target through the rules, by
 * any path (an array of nrelations flags, palloc'd).
 */
extern bool *program_depends_on(const Program *p, int target);

/* The text of a sentence on one line, cut when long, for messages. */
extern char *program_rule_text(const Program *p, int sentence);

#endif

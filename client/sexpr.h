/*
 * sexpr.h: S-expressions as General Game Playing messages write them: a
 * symbol, or a parenthesised list of S-expressions.  Symbols are read
 * case-insensitively (lower-cased), as GDL reads them; ';' starts a
 * comment to the end of the line, as in KIF files.
 */
#ifndef GT_SEXPR_H
#define GT_SEXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* Lists nested deeper than this are refused: a message is data, not a program. */
#define SEXPR_MAX_DEPTH 1000

typedef struct Sexpr
{
	char	   *symbol;			/* NULL for a list */
	int			n;				/* a list's items */
	struct Sexpr **items;
} Sexpr;

/*
 * Parses text[0, len) as exactly one S-expression; NULL with a message in
 * error (of errlen bytes) when it is not one.
 */
Sexpr	   *sexpr_parse(const char *text, size_t len, char *error, size_t errlen);
void		sexpr_free(Sexpr *e);

bool		sexpr_is_symbol(const Sexpr *e, const char *symbol);
/* Appends e as KIF text: single spaces, lower-case symbols. */
void		sexpr_write(const Sexpr *e, StrBuf *out);

#endif

/*
 * sexpr.c: reading and writing S-expressions (sexpr.h).
 *
 * The parser keeps its own stack of open lists instead of recursing, so a
 * hostile message costs memory in proportion to its length and no more;
 * the depth limit keeps sexpr_free's and sexpr_write's recursion short.
 */
#include "sexpr.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
fail(char *error, size_t errlen, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(error, errlen, fmt, ap);
	va_end(ap);
}

static void
list_add(Sexpr *list, Sexpr *item)
{
	/* grows in powers of two from 4 */
	if (list->n >= 4 && (list->n & (list->n - 1)) == 0)
		list->items = xrealloc(list->items, 2 * list->n * sizeof(Sexpr *));
	else if (list->n == 0)
		list->items = xmalloc(4 * sizeof(Sexpr *));
	list->items[list->n++] = item;
}

static bool
is_delimiter(char c)
{
	return isspace((unsigned char) c) || c == '(' || c == ')' || c == ';';
}

Sexpr *
sexpr_parse(const char *text, size_t len, char *error, size_t errlen)
{
	Sexpr	  **open = xmalloc(SEXPR_MAX_DEPTH * sizeof(Sexpr *));
	int			depth = 0;
	Sexpr	   *done = NULL;
	size_t		i = 0;

	while (i < len)
	{
		char		c = text[i];
		Sexpr	   *e;

		if (c == ';')
		{
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		if (isspace((unsigned char) c))
		{
			i++;
			continue;
		}
		if (done)
		{
			fail(error, errlen, "more than one expression (the second at byte %zu)", i);
			goto failed;
		}
		if (c == ')')
		{
			if (depth == 0)
			{
				fail(error, errlen, "unbalanced ')' at byte %zu", i);
				goto failed;
			}
			e = open[--depth];
			i++;
		}
		else if (c == '(')
		{
			if (depth == SEXPR_MAX_DEPTH)
			{
				fail(error, errlen, "lists nested more than %d deep", SEXPR_MAX_DEPTH);
				goto failed;
			}
			open[depth++] = calloc(1, sizeof(Sexpr));
			if (!open[depth - 1])
				abort();
			i++;
			continue;
		}
		else
		{
			size_t		start = i;

			while (i < len && !is_delimiter(text[i]))
				i++;
			e = calloc(1, sizeof(Sexpr));
			if (!e)
				abort();
			e->symbol = xmalloc(i - start + 1);
			for (size_t k = start; k < i; k++)
				e->symbol[k - start] = (char) tolower((unsigned char) text[k]);
			e->symbol[i - start] = '\0';
		}
		if (depth > 0)
			list_add(open[depth - 1], e);
		else
			done = e;
	}
	if (depth > 0)
	{
		fail(error, errlen, "%d list%s not closed", depth, depth > 1 ? "s" : "");
		goto failed;
	}
	if (!done)
		fail(error, errlen, "no expression");
	free(open);
	return done;

failed:
	sexpr_free(done);
	/* an open list joins its parent only when closed: each is freed here */
	while (depth > 0)
		sexpr_free(open[--depth]);
	free(open);
	return NULL;
}

void
sexpr_free(Sexpr *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->n; i++)
		sexpr_free(e->items[i]);
	free(e->items);
	free(e->symbol);
	free(e);
}

bool
sexpr_is_symbol(const Sexpr *e, const char *symbol)
{
	return e && e->symbol && strcmp(e->symbol, symbol) == 0;
}

void
sexpr_write(const Sexpr *e, StrBuf *out)
{
	if (e->symbol)
	{
		sb_append(out, e->symbol);
		return;
	}
	sb_append(out, "(");
	for (int i = 0; i < e->n; i++)
	{
		if (i > 0)
			sb_append(out, " ");
		sexpr_write(e->items[i], out);
	}
	sb_append(out, ")");
}

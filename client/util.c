/*
 * util.c: allocation that exits on failure (a command-line tool has nothing
 * better to do when memory runs out), and StrBuf.
 */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *
xmalloc(size_t size)
{
	return xrealloc(NULL, size);
}

void *
xrealloc(void *ptr, size_t size)
{
	void	   *p = realloc(ptr, size ? size : 1);

	if (p == NULL)
	{
		fputs("gametree: out of memory\n", stderr);
		exit(EXIT_FAILED);
	}
	return p;
}

char *
xstrdup(const char *text)
{
	size_t		len = strlen(text) + 1;

	return memcpy(xmalloc(len), text, len);
}

void
sb_init(StrBuf *sb)
{
	sb->cap = 64;
	sb->len = 0;
	sb->data = xmalloc(sb->cap);
	sb->data[0] = '\0';
}

static void
sb_reserve(StrBuf *sb, size_t more)
{
	if (sb->len + more + 1 <= sb->cap)
		return;
	while (sb->len + more + 1 > sb->cap)
		sb->cap *= 2;
	sb->data = xrealloc(sb->data, sb->cap);
}

void
sb_append(StrBuf *sb, const char *text)
{
	size_t		len = strlen(text);

	sb_reserve(sb, len);
	memcpy(sb->data + sb->len, text, len + 1);
	sb->len += len;
}

void
sb_printf(StrBuf *sb, const char *fmt,...)
{
	va_list		ap;
	int			need;

	va_start(ap, fmt);
	need = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	sb_reserve(sb, need);
	va_start(ap, fmt);
	vsnprintf(sb->data + sb->len, need + 1, fmt, ap);
	va_end(ap);
	sb->len += need;
}

void
sb_reset(StrBuf *sb)
{
	sb->len = 0;
	sb->data[0] = '\0';
}

void
sb_free(StrBuf *sb)
{
	free(sb->data);
	sb->data = NULL;
	sb->len = sb->cap = 0;
}

/*
 * util.c: allocation that exits on failure (a command-line tool has nothing
 * better to do when memory runs out), StrBuf, and reading a line.
 */
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *
xmalloc(size_t size)
{
	return xrealloc(NULL, size);
}

static void
out_of_memory(void)
{
	fputs("gametree: out of memory\n", stderr);
	exit(EXIT_FAILED);
}

void *
xrealloc(void *ptr, size_t size)
{
	void	   *p = realloc(ptr, size ? size : 1);

	if (p == NULL)
		out_of_memory();
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
	sb_append_len(sb, text, strlen(text));
}

void
sb_append_len(StrBuf *sb, const char *text, size_t len)
{
	sb_reserve(sb, len);
	memcpy(sb->data + sb->len, text, len);
	sb->len += len;
	sb->data[sb->len] = '\0';
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

/*
 * The next line of in, whole whatever its length (getline), into sb without
 * its newline or a carriage return before it; false at the end of the input
 * (or on a read error) when no line is left.  A fixed buffer would cut a
 * long line, and its rest would be read as the next line: a command nobody
 * typed.
 */
bool
sb_getline(StrBuf *sb, FILE *in)
{
	ssize_t		n;

	errno = 0;
	n = getline(&sb->data, &sb->cap, in);
	if (n < 0)
	{
		if (errno == ENOMEM)
			out_of_memory();
		sb_reset(sb);
		return false;
	}
	sb->len = (size_t) n;
	if (sb->len > 0 && sb->data[sb->len - 1] == '\n')
		sb->data[--sb->len] = '\0';
	if (sb->len > 0 && sb->data[sb->len - 1] == '\r')
		sb->data[--sb->len] = '\0';
	return true;
}

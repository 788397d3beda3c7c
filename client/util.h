/*
 * util.h: memory that never comes back NULL, a growing string, and reading
 * a line of any length.
 */
#ifndef GT_UTIL_H
#define GT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Exit statuses: a command that failed, and a problem before any command ran. */
#define EXIT_FAILED 1
#define EXIT_USAGE 2

void	   *xmalloc(size_t size);
void	   *xrealloc(void *ptr, size_t size);
char	   *xstrdup(const char *text);

/* A string that grows as it is appended to; data is always terminated. */
typedef struct StrBuf
{
	char	   *data;
	size_t		len;
	size_t		cap;
} StrBuf;

void		sb_init(StrBuf *sb);
void		sb_append(StrBuf *sb, const char *text);
void		sb_append_len(StrBuf *sb, const char *text, size_t len);
void		sb_printf(StrBuf *sb, const char *fmt,...) __attribute__((format(printf, 2, 3)));
void		sb_reset(StrBuf *sb);
void		sb_free(StrBuf *sb);
bool		sb_getline(StrBuf *sb, FILE *in);

#endif

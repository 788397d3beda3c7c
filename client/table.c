/*
 * table.c: a table collects its cells row by row, then prints them with
 * each column as wide as its widest cell, two spaces apart.  Widths count
 * characters, not bytes, so that UTF-8 names line up.
 */
#include "table.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

struct Table
{
	int			ncols;
	const char *const *headers;
	const char *align;
	char	  **cells;			/* row-major, ncells of them */
	int			ncells;
	int			cap;
};

Table *
table_new(int ncols, const char *const *headers, const char *align)
{
	Table	   *table = xmalloc(sizeof(Table));

	table->ncols = ncols;
	table->headers = headers;
	table->align = align;
	table->ncells = 0;
	table->cap = 4 * ncols;
	table->cells = xmalloc(table->cap * sizeof(char *));
	return table;
}

void
table_cell(Table *table, const char *text)
{
	if (table->ncells == table->cap)
	{
		table->cap *= 2;
		table->cells = xrealloc(table->cells, table->cap * sizeof(char *));
	}
	table->cells[table->ncells++] = xstrdup(text ? text : "");
}

static int
text_width(const char *text)
{
	int			width = 0;

	for (; *text; text++)
		if (((unsigned char) *text & 0xC0) != 0x80)	/* not a UTF-8 continuation byte */
			width++;
	return width;
}

/* One row, without the blanks an empty last cell would leave at its end. */
static void
print_row(const Table *table, const char *const *row, const int *widths, FILE *out)
{
	StrBuf		line;

	sb_init(&line);
	for (int col = 0; col < table->ncols; col++)
	{
		int			pad = widths[col] - text_width(row[col]);

		if (col > 0)
			sb_append(&line, "  ");
		if (table->align[col] == 'r')
			sb_printf(&line, "%*s%s", pad, "", row[col]);
		else
			sb_printf(&line, "%s%*s", row[col], pad, "");
	}
	while (line.len > 0 && line.data[line.len - 1] == ' ')
		line.data[--line.len] = '\0';
	fprintf(out, "%s\n", line.data);
	sb_free(&line);
}

void
table_print(const Table *table, FILE *out)
{
	int		   *widths = xmalloc(table->ncols * sizeof(int));

	for (int col = 0; col < table->ncols; col++)
		widths[col] = text_width(table->headers[col]);
	for (int i = 0; i < table->ncells; i++)
	{
		int			width = text_width(table->cells[i]);

		if (width > widths[i % table->ncols])
			widths[i % table->ncols] = width;
	}
	print_row(table, table->headers, widths, out);
	for (int i = 0; i + table->ncols <= table->ncells; i += table->ncols)
		print_row(table, (const char *const *) table->cells + i, widths, out);
	free(widths);
}

void
table_free(Table *table)
{
	for (int i = 0; i < table->ncells; i++)
		free(table->cells[i]);
	free(table->cells);
	free(table);
}

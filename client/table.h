/*
 * table.h: rows printed in aligned columns, for people.
 */
#ifndef GT_TABLE_H
#define GT_TABLE_H

#include <stdio.h>

typedef struct Table Table;

/* align: one letter a column, 'l' or 'r' (numbers go right) */
Table	   *table_new(int ncols, const char *const *headers, const char *align);
void		table_cell(Table *table, const char *text);
void		table_print(const Table *table, FILE *out);
void		table_free(Table *table);

#endif

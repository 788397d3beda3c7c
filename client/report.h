/*
 * report.h: every error as one line on stderr, "gametree: ...".
 */
#ifndef GT_REPORT_H
#define GT_REPORT_H

#include <libpq-fe.h>

void		report(const char *fmt,...) __attribute__((format(printf, 1, 2)));
void		report_result(const PGresult *res);
void		report_conn(const PGconn *conn);

#endif

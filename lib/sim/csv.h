/* A small reader of the simulator's CSV inputs (traces, failure traces):
 * a header line naming the columns, then one record per line; fields are
 * split at commas and trimmed; no quoting; blank lines and lines starting
 * with '#' are skipped. Errors name "SOURCE:LINE" and the column. */
#ifndef PL_SIM_CSV_H
#define PL_SIM_CSV_H

#include <stddef.h>
#include <stdint.h>
#include "internal/core.h"

typedef struct pl_csv {
    char source[256];     /* file name (or "<string>") for messages */
    char *text;           /* mutable copy of the input, split in place */
    size_t len, pos;
    int64_t line;         /* line number of the current record (1-based) */
    char **field;         /* fields of the current record */
    int32_t nfield, capfield;
    char **col;           /* header names (pointers into text) */
    int32_t ncol;
} pl_csv;

PL_INTERNAL pl_status pl_csv_open_text(pl_csv *c, const char *text, size_t len, const char *source);
PL_INTERNAL pl_status pl_csv_open_file(pl_csv *c, const char *path);
PL_INTERNAL void pl_csv_close(pl_csv *c);

/* Read the header; known is NULL-terminated; col_of[k] receives the column
 * of known[k] or -1. An unknown or repeated column is an error. */
PL_INTERNAL pl_status pl_csv_header(pl_csv *c, const char *const *known, int32_t *col_of);
/* 1 and the next record (with as many fields as the header), 0 at the end
 * or on error (*st set). */
PL_INTERNAL int pl_csv_next(pl_csv *c, pl_status *st);
/* Field of column col of the current record; "" when col < 0. */
PL_INTERNAL const char *pl_csv_field(const pl_csv *c, int32_t col);
/* PL_EPARSE "SOURCE:LINE: column 'NAME': <message>". */
PL_INTERNAL pl_status pl_csv_fail(const pl_csv *c, const char *column, const char *fmt, ...) PL_PRINTF(3, 4);
/* A number in [min, max] (an empty field gives dflt when allow_empty). */
PL_INTERNAL pl_status pl_csv_number(const pl_csv *c, int32_t col, const char *name, double min, double max,
                                    int allow_empty, double dflt, double *out);

#endif

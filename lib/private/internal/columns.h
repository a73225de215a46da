/* Structs of arrays: a struct that owns several arrays indexed alike (per
 * vertex, per arc, per tree node) lists them once in a table of columns, and
 * one call allocates, grows, copies or frees them all, so that adding an
 * array is one line in one place rather than one line in each of those. */
#ifndef PL_CORE_COLUMNS_H
#define PL_CORE_COLUMNS_H

#include <stddef.h>
#include "internal/core.h"

typedef struct pl_column {
    size_t offset;   /* of the array's pointer member in the struct */
    size_t size;     /* of one element */
    int64_t per_row; /* elements per row: 1, or e.g. one per resource kind */
} pl_column;

#define PL_COLUMN_N(type, member, per_row) \
    { offsetof(type, member), sizeof *((type *)0)->member, (per_row) }
#define PL_COLUMN(type, member) PL_COLUMN_N(type, member, 1)
#define PL_NCOLUMNS(table) (sizeof(table) / sizeof *(table))

/* Each column = rows zero-filled rows (pl_alloc: never NULL for 0 rows).
 * On failure every column is freed and NULL, and PL_ENOMEM returned. */
PL_INTERNAL pl_status pl_columns_alloc(void *obj, const pl_column *cols, size_t ncols, int64_t rows);
/* pl_columns_alloc with the caller's allocator, for work arrays that are
 * counted or placed on huge pages: alloc(ctx, count, size) returns count
 * zero-filled elements that free() releases, or NULL (having set the error
 * message). On failure every column is freed and NULL, and PL_ENOMEM
 * returned. */
typedef void *pl_column_alloc_fn(void *ctx, size_t count, size_t size);
PL_INTERNAL pl_status pl_columns_alloc_with(void *obj, const pl_column *cols, size_t ncols, int64_t rows,
                                            pl_column_alloc_fn *alloc, void *ctx);
/* Each column from old_rows to new_rows rows, the new ones zero-filled. On
 * failure the columns grown so far stay larger (harmless: the caller keeps
 * its old capacity) and PL_ENOMEM is returned. */
PL_INTERNAL pl_status pl_columns_grow(void *obj, const pl_column *cols, size_t ncols, int64_t old_rows,
                                      int64_t new_rows);
/* dst's columns = copies of the first rows rows of src's (NULL when rows is
 * 0); dst's old arrays are not freed. On failure the copies made so far stay
 * in dst (pl_columns_free releases them) and PL_ENOMEM is returned. */
PL_INTERNAL pl_status pl_columns_copy(void *dst, const void *src, const pl_column *cols, size_t ncols,
                                      int64_t rows);
/* Free each column and set it to NULL. */
PL_INTERNAL void pl_columns_free(void *obj, const pl_column *cols, size_t ncols);

#endif

/* Structs of arrays described by a table of columns (columns.h). */
#include <stdlib.h>
#include <string.h>
#include "internal/columns.h"

/* The pointer members are of many types: read and write them as bytes, which
 * is defined for any pointer type of the same representation as void *. */
static void *get(const void *obj, const pl_column *c)
{
    void *p;
    memcpy(&p, (const char *)obj + c->offset, sizeof p);
    return p;
}

static void set(void *obj, const pl_column *c, void *p)
{
    memcpy((char *)obj + c->offset, &p, sizeof p);
}

static void *plain_alloc(void *ctx, size_t count, size_t size)
{
    (void)ctx;
    return pl_alloc(count, size);
}

pl_status pl_columns_alloc(void *obj, const pl_column *cols, size_t ncols, int64_t rows)
{
    return pl_columns_alloc_with(obj, cols, ncols, rows, plain_alloc, NULL);
}

pl_status pl_columns_alloc_with(void *obj, const pl_column *cols, size_t ncols, int64_t rows,
                                pl_column_alloc_fn *alloc, void *ctx)
{
    pl_status st = PL_OK;
    for (size_t i = 0; i < ncols; i++) {
        void *p = alloc(ctx, (size_t)(rows * cols[i].per_row), cols[i].size);
        set(obj, &cols[i], p);
        if (!p)
            st = PL_ENOMEM;
    }
    if (st)
        pl_columns_free(obj, cols, ncols);
    return st;
}

pl_status pl_columns_grow(void *obj, const pl_column *cols, size_t ncols, int64_t old_rows,
                          int64_t new_rows)
{
    for (size_t i = 0; i < ncols; i++) {
        size_t size = cols[i].size, from = (size_t)(old_rows * cols[i].per_row),
               to = (size_t)(new_rows * cols[i].per_row);
        char *q = pl_realloc_array(get(obj, &cols[i]), to, size);
        if (!q)
            return PL_ENOMEM;
        memset(q + from * size, 0, (to - from) * size);
        set(obj, &cols[i], q);
    }
    return PL_OK;
}

pl_status pl_columns_copy(void *dst, const void *src, const pl_column *cols, size_t ncols, int64_t rows)
{
    for (size_t i = 0; i < ncols; i++) {
        size_t count = (size_t)(rows * cols[i].per_row);
        void *q = NULL;
        if (count > 0) {
            if (!(q = pl_realloc_array(NULL, count, cols[i].size)))
                return PL_ENOMEM;
            memcpy(q, get(src, &cols[i]), count * cols[i].size);
        }
        set(dst, &cols[i], q);
    }
    return PL_OK;
}

void pl_columns_free(void *obj, const pl_column *cols, size_t ncols)
{
    for (size_t i = 0; i < ncols; i++) {
        free(get(obj, &cols[i]));
        set(obj, &cols[i], NULL);
    }
}

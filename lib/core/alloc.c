#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal/core.h"

void *pl_alloc(size_t count, size_t size)
{
    if (count == 0 || size == 0)
        count = size = 1; /* a valid unique pointer keeps callers' NULL checks simple */
    void *p = calloc(count, size);
    if (!p)
        pl_err(PL_ENOMEM, "out of memory allocating %zu x %zu bytes", count, size);
    return p;
}

void *pl_realloc_array(void *p, size_t count, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        pl_err(PL_ENOMEM, "allocation of %zu x %zu bytes overflows", count, size);
        return NULL;
    }
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        pl_err(PL_ENOMEM, "out of memory allocating %zu bytes", bytes);
    return q;
}

char *pl_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (!d) {
        pl_err(PL_ENOMEM, "out of memory copying a %zu-byte string", n);
        return NULL;
    }
    return memcpy(d, s, n);
}

pl_status pl_create_zeroed(const char *fn, void **out, size_t size)
{
    if (!out)
        return pl_err(PL_EINVAL, "%s: NULL out", fn);
    void *p = pl_alloc(1, size);
    /* Stored as bytes: *out is a typed handle pointer, not a void *. */
    memcpy(out, &p, sizeof p);
    return p ? PL_OK : PL_ENOMEM;
}

int64_t pl_next_cap(int64_t cap, int64_t need)
{
    int64_t c = cap < 16 ? 16 : cap;
    while (c < need)
        c += c / 2 + 1;
    return c;
}

pl_status pl_grow(void **p, int64_t *cap, int64_t need, size_t size)
{
    if (need <= *cap)
        return PL_OK;
    int64_t c = pl_next_cap(*cap, need);
    void *q = pl_realloc_array(*p, (size_t)c, size);
    if (!q)
        return PL_ENOMEM;
    *p = q;
    *cap = c;
    return PL_OK;
}

pl_status pl_push_i32(int32_t **list, int32_t *n, int32_t *cap, int32_t first_cap, int32_t x)
{
    if (*n == *cap) {
        int32_t c = *cap ? 2 * *cap : first_cap;
        int32_t *p = pl_realloc_array(*list, (size_t)c, sizeof *p);
        if (!p)
            return PL_ENOMEM;
        *list = p;
        *cap = c;
    }
    (*list)[(*n)++] = x;
    return PL_OK;
}

void pl_free_lists_i32(int32_t **lists, int64_t rows)
{
    if (lists)
        for (int64_t i = 0; i < rows; i++)
            free(lists[i]);
}

void pl_free(void *p)
{
    free(p);
}

double pl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

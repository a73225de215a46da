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

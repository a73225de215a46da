/* Internal helpers shared by every libplacement module (not installed). */
#ifndef PL_CORE_H
#define PL_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <placement/status.h>

#if defined(__GNUC__)
#define PL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define PL_INTERNAL __attribute__((visibility("hidden")))
#else
#define PL_PRINTF(a, b)
#define PL_INTERNAL
#endif

/* Record a message for pl_last_error() on this thread and return status. */
PL_INTERNAL pl_status pl_err(pl_status status, const char *fmt, ...) PL_PRINTF(2, 3);

/* Allocation that records PL_ENOMEM and refuses count*size overflow.
 * Both return NULL on failure with the error already set. */
PL_INTERNAL void *pl_alloc(size_t count, size_t size);   /* zero-filled */
PL_INTERNAL void *pl_realloc_array(void *p, size_t count, size_t size);
PL_INTERNAL char *pl_strdup(const char *s);
/* The body of a public pl_X_create(out) whose object starts zero-filled:
 * PL_EINVAL "fn: NULL out" without out, else *out = a new zero-filled
 * object of size bytes, or NULL and PL_ENOMEM. out is the address of the
 * caller's typed handle pointer, as for pl_grow. */
PL_INTERNAL pl_status pl_create_zeroed(const char *fn, void **out, size_t size);

/* The capacity pl_grow() moves to from cap so that need elements fit:
 * at least 16, then by half again plus one, so appends cost amortised O(1). */
PL_INTERNAL int64_t pl_next_cap(int64_t cap, int64_t need);
/* Grow *p (holding *cap elements of size) so it can hold need elements. */
PL_INTERNAL pl_status pl_grow(void **p, int64_t *cap, int64_t need, size_t size);
/* Append x to *list (*n used of *cap), doubling the capacity from
 * first_cap: for the many short lists of a table of lists (the jobs on
 * each GPU or socket), where pl_grow's minimum of 16 would waste memory. */
PL_INTERNAL pl_status pl_push_i32(int32_t **list, int32_t *n, int32_t *cap, int32_t first_cap, int32_t x);
/* Free the lists of the first rows rows of such a table (NULL: none); the
 * table itself stays the caller's (often a pl_column). */
PL_INTERNAL void pl_free_lists_i32(int32_t **lists, int64_t rows);

/* Append printf output to buf (cap bytes, *len used so far), truncating
 * silently at cap - 1 bytes; buf stays NUL-terminated (strbuf.c). */
PL_INTERNAL void pl_appendf(char *buf, size_t cap, size_t *len, const char *fmt, ...) PL_PRINTF(4, 5);

/* Ascending qsort comparators for int32_t, int64_t and double (compare.c). */
PL_INTERNAL int pl_cmp_i32(const void *a, const void *b);
PL_INTERNAL int pl_cmp_i64(const void *a, const void *b);
PL_INTERNAL int pl_cmp_double(const void *a, const void *b);

/* The end of a function that builds an object step by step: when st is
 * PL_OK, *out = obj, else free_fn(obj); either way the value is st. A macro
 * so that free_fn keeps its own pointer type (calling it through
 * void (*)(void *) would be undefined); st is evaluated twice. */
#define PL_HAND_OUT(st, obj, free_fn, out) ((st) == PL_OK ? (*(out) = (obj), (st)) : (free_fn(obj), (st)))

/* o = *opts, or the defaults of init when opts is NULL: what every call
 * taking a GLPK-style options struct (NULL: the defaults) does first. */
#define PL_OPTS_OR_DEFAULTS(o, opts, init) ((opts) ? (void)((o) = *(opts)) : init(&(o)))

/* Monotonic wall clock in seconds. */
PL_INTERNAL double pl_now(void);

/* Checked int64 arithmetic: return 0 on success, 1 on overflow. */
static inline int pl_add_ovf(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }
static inline int pl_sub_ovf(int64_t a, int64_t b, int64_t *r) { return __builtin_sub_overflow(a, b, r); }
static inline int pl_mul_ovf(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }

/* The library's one random stream, splitmix64: small, seedable, the same
 * on every platform, so a seed gives the same decisions, workloads and
 * samples everywhere. The state is the caller's (no global state). */
static inline uint64_t pl_rng_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
/* Uniform in [0, 1). */
static inline double pl_rng_unit(uint64_t *s) { return (double)(pl_rng_u64(s) >> 11) * (1.0 / 9007199254740992.0); }
/* Uniform integer in [0, n); 0 when n <= 1. */
static inline int64_t pl_rng_below(uint64_t *s, int64_t n)
{
    return n <= 1 ? 0 : (int64_t)(pl_rng_u64(s) % (uint64_t)n);
}

#endif

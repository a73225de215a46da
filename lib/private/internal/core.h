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

/* The capacity pl_grow() moves to from cap so that need elements fit:
 * at least 16, then by half again plus one, so appends cost amortised O(1). */
PL_INTERNAL int64_t pl_next_cap(int64_t cap, int64_t need);
/* Grow *p (holding *cap elements of size) so it can hold need elements. */
PL_INTERNAL pl_status pl_grow(void **p, int64_t *cap, int64_t need, size_t size);

/* Append printf output to buf (cap bytes, *len used so far), truncating
 * silently at cap - 1 bytes; buf stays NUL-terminated (strbuf.c). */
PL_INTERNAL void pl_appendf(char *buf, size_t cap, size_t *len, const char *fmt, ...) PL_PRINTF(4, 5);

/* Ascending qsort comparators for int32_t, int64_t and double (compare.c). */
PL_INTERNAL int pl_cmp_i32(const void *a, const void *b);
PL_INTERNAL int pl_cmp_i64(const void *a, const void *b);
PL_INTERNAL int pl_cmp_double(const void *a, const void *b);

/* Monotonic wall clock in seconds. */
PL_INTERNAL double pl_now(void);

/* Checked int64 arithmetic: return 0 on success, 1 on overflow. */
static inline int pl_add_ovf(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }
static inline int pl_sub_ovf(int64_t a, int64_t b, int64_t *r) { return __builtin_sub_overflow(a, b, r); }
static inline int pl_mul_ovf(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }

#endif

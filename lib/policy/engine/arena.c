/* The scratch stack of a policy call (pl_arena in policy_impl.h): memory is
 * taken by bumping a pointer in a chunk and given back in LIFO order by
 * releasing to a mark. Chunks never move and are kept for reuse, so DRB's
 * recursion and the evaluation of thousands of candidates per call stop
 * paying one malloc and free per array. */
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "internal/policy_impl.h"

#define CHUNK_BYTES ((size_t)64 * 1024)
#define ALIGN (alignof(max_align_t))

struct pl_arena_chunk {
    pl_arena_chunk *next;
    size_t size, used;
    alignas(max_align_t) unsigned char data[];
};

void *pl_arena_get(pl_arena *a, size_t count, size_t size)
{
    if (size && count > (SIZE_MAX - ALIGN) / size) {
        pl_err(PL_ENOMEM, "scratch: %zu x %zu bytes", count, size);
        return NULL;
    }
    size_t bytes = (count * size + ALIGN - 1) / ALIGN * ALIGN;
    if (!bytes)
        bytes = ALIGN;
    pl_arena_chunk *c = a->cur;
    if (!c || c->size - c->used < bytes) {
        /* The next kept chunk if it is large enough, else a new one after cur. */
        pl_arena_chunk *n = c ? c->next : a->first;
        if (!n || n->size < bytes) {
            size_t sz = bytes > CHUNK_BYTES ? bytes : CHUNK_BYTES;
            pl_arena_chunk *fresh = pl_alloc(1, sizeof *fresh + sz);
            if (!fresh)
                return NULL;
            fresh->size = sz;
            fresh->next = n;
            if (c)
                c->next = fresh;
            else
                a->first = fresh;
            n = fresh;
        }
        n->used = 0;
        a->cur = c = n;
    }
    void *p = c->data + c->used;
    c->used += bytes;
    memset(p, 0, bytes);
    return p;
}

pl_arena_mark pl_arena_save(const pl_arena *a)
{
    return (pl_arena_mark){a->cur, a->cur ? a->cur->used : 0};
}

void pl_arena_release(pl_arena *a, pl_arena_mark m)
{
    a->cur = m.chunk;
    if (m.chunk)
        m.chunk->used = m.used;
}

void pl_arena_free(pl_arena *a)
{
    for (pl_arena_chunk *c = a->first, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    a->first = a->cur = NULL;
}

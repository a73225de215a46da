/* Binary min-heap of simulator events, ordered by (time, kind, seq). */
#include <stdlib.h>
#include "sim_impl.h"

static int before(const pl_sim_event *a, const pl_sim_event *b)
{
    if (a->time != b->time)
        return a->time < b->time;
    if (a->kind != b->kind)
        return a->kind < b->kind;
    return a->seq < b->seq;
}

pl_status pl_sim_heap_push(pl_sim_heap *h, double time, int32_t kind, int32_t job,
                           uint64_t version)
{
    pl_status st = pl_grow((void **)&h->ev, &h->cap, h->n + 1, sizeof *h->ev);
    if (st)
        return st;
    pl_sim_event e = {time, kind, job, version, h->next_seq++};
    int64_t i = h->n++;
    while (i > 0) {
        int64_t parent = (i - 1) / 2;
        if (!before(&e, &h->ev[parent]))
            break;
        h->ev[i] = h->ev[parent];
        i = parent;
    }
    h->ev[i] = e;
    return PL_OK;
}

int pl_sim_heap_pop(pl_sim_heap *h, pl_sim_event *out)
{
    if (h->n == 0)
        return 0;
    *out = h->ev[0];
    pl_sim_event last = h->ev[--h->n];
    int64_t i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && before(&h->ev[c + 1], &h->ev[c]))
            c++;
        if (!before(&h->ev[c], &last))
            break;
        h->ev[i] = h->ev[c];
        i = c;
    }
    if (h->n > 0)
        h->ev[i] = last;
    return 1;
}

int pl_sim_heap_peek(const pl_sim_heap *h, double *time)
{
    if (h->n == 0)
        return 0;
    *time = h->ev[0].time;
    return 1;
}

void pl_sim_heap_clear(pl_sim_heap *h)
{
    h->n = 0;
    h->next_seq = 0;
}

void pl_sim_heap_free(pl_sim_heap *h)
{
    free(h->ev);
    h->ev = NULL;
    h->n = h->cap = 0;
}

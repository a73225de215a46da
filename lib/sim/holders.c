/* Which jobs hold each GPU (doc/simulator.md sec. 2): one job on a 1-unit
 * GPU, up to its units capacity on a shared one. The lists keep the order
 * in which the jobs took the GPU, so that a failure kills them, and the
 * neighbour scans visit them, in an order fixed by the events alone. */
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"

pl_status pl_sim_holders_init(srun *r)
{
    size_t nv = (size_t)r->s->nvert + 1;
    if (!(r->hold = pl_alloc(nv, sizeof *r->hold)) || !(r->hold_n = pl_alloc(nv, sizeof *r->hold_n)) ||
        !(r->hold_cap = pl_alloc(nv, sizeof *r->hold_cap)))
        return PL_ENOMEM;
    return PL_OK;
}

void pl_sim_holders_free(srun *r)
{
    if (r->hold)
        for (int32_t v = 0; v < r->s->nvert; v++)
            free(r->hold[v]);
    free(r->hold);
    free(r->hold_n);
    free(r->hold_cap);
}

pl_status pl_sim_hold(srun *r, int32_t v, int32_t i)
{
    if (r->hold_n[v] == r->hold_cap[v]) {
        /* Most GPUs never hold more than one or two jobs. */
        int32_t c = r->hold_cap[v] ? 2 * r->hold_cap[v] : 2;
        int32_t *p = pl_realloc_array(r->hold[v], (size_t)c, sizeof *p);
        if (!p)
            return PL_ENOMEM;
        r->hold[v] = p;
        r->hold_cap[v] = c;
    }
    r->hold[v][r->hold_n[v]++] = i;
    return PL_OK;
}

void pl_sim_unhold(srun *r, int32_t v, int32_t i)
{
    int32_t *h = r->hold[v], n = r->hold_n[v];
    for (int32_t q = 0; q < n; q++)
        if (h[q] == i) {
            memmove(h + q, h + q + 1, (size_t)(n - q - 1) * sizeof *h);
            r->hold_n[v]--;
            return;
        }
}

int pl_sim_cotenant(const srun *r, const sjob *a, int32_t o)
{
    for (int32_t g = 0; g < a->ngpus; g++) {
        int32_t v = a->gpus[g];
        for (int32_t q = 0; q < r->hold_n[v]; q++)
            if (r->hold[v][q] == o)
                return 1;
    }
    return 0;
}

/* Which jobs hold each GPU (doc/simulator.md sec. 2): one job on a 1-unit
 * GPU, up to its units capacity on a shared one. The lists keep the order
 * in which the jobs took the GPU, so that a failure kills them, and the
 * neighbour scans visit them, in an order fixed by the events alone. */
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"
#include "internal/columns.h"

static const pl_column hold_cols[] = {PL_COLUMN(srun, hold), PL_COLUMN(srun, hold_n), PL_COLUMN(srun, hold_cap)};

pl_status pl_sim_holders_init(srun *r)
{
    return pl_columns_alloc(r, hold_cols, PL_NCOLUMNS(hold_cols), (int64_t)r->s->nvert + 1);
}

void pl_sim_holders_free(srun *r)
{
    pl_free_lists_i32(r->hold, r->s->nvert);
    pl_columns_free(r, hold_cols, PL_NCOLUMNS(hold_cols));
}

pl_status pl_sim_hold(srun *r, int32_t v, int32_t i)
{
    /* Most GPUs never hold more than one or two jobs. */
    return pl_push_i32(&r->hold[v], &r->hold_n[v], &r->hold_cap[v], 2, i);
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

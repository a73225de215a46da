/* Potentials from a flow: shortest-path distances in its residual graph.
 * Used to certify cycle canceling's answer and to repair potentials when
 * an infinite arc ended saturated at cap_inf (see solve.c). */
#include <stdlib.h>
#include "internal/flownet_impl.h"

/* Queue-based Bellman-Ford from a virtual source at distance 0 to every
 * node. len[v] counts the arcs of v's current shortest path: reaching n
 * proves a negative cycle, which bounds the work at O(n m). */
pl_status pl_residual_potentials(const pl_flow_problem *p, const int64_t *flow, int64_t *pot)
{
    int32_t n = p->n;
    int32_t *queue = pl_alloc((size_t)n + 1, sizeof *queue);
    int32_t *len = pl_alloc((size_t)n + 1, sizeof *len);
    uint8_t *queued = pl_alloc((size_t)n + 1, 1);
    pl_status st = PL_OK;
    if (!queue || !len || !queued) {
        st = PL_ENOMEM;
        goto out;
    }
    /* Circular queue of capacity n: a node is in it at most once. */
    int32_t qhead = 0, qsize = n;
    for (int32_t v = 0; v < n; v++) {
        pot[v] = 0;
        queue[v] = v;
        queued[v] = 1;
    }
    while (qsize > 0) {
        int32_t u = queue[qhead];
        qhead = qhead + 1 == n ? 0 : qhead + 1;
        qsize--;
        queued[u] = 0;
        for (int32_t i = p->out_first[u]; i < pl_out_end(p, u); i++) {
            int32_t r = p->out_arcs[i];
            if (pl_residual_cap(p, flow, r) <= 0)
                continue;
            int32_t v = pl_residual_head(p, r);
            int64_t d = pot[u] + pl_residual_cost(p, r);
            if (d >= pot[v])
                continue;
            pot[v] = d;
            len[v] = len[u] + 1;
            if (len[v] >= n) {
                st = pl_err(PL_EVERIFY,
                            "the residual graph has a negative-cost cycle through node %d: "
                            "the flow is not optimal", v);
                goto out;
            }
            if (!queued[v]) {
                queued[v] = 1;
                queue[(qhead + qsize) % n] = v;
                qsize++;
            }
        }
    }
out:
    free(queue);
    free(len);
    free(queued);
    return st;
}

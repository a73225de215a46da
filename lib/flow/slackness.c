/* Complementary-slackness steps shared by the solvers that keep every
 * residual arc's reduced cost non-negative (ssp, relaxation). */
#include "internal/flownet_impl.h"

void pl_restore_slackness(const pl_flow_problem *p, const int64_t *pi, int64_t *flow, int64_t *excess)
{
    for (int32_t v = 0; v < p->n; v++)
        excess[v] = p->supply[v];
    for (int32_t a = 0; a < p->m; a++) {
        int32_t t = p->tail[a], h = p->head[a];
        int64_t rc = p->cost[a] + pi[t] - pi[h];
        if (rc < 0)
            flow[a] = p->cap[a];
        else if (rc > 0)
            flow[a] = 0;
        excess[t] -= flow[a];
        excess[h] += flow[a];
    }
}

void pl_shift_potentials(int32_t n, int64_t *pi)
{
    if (n == 0)
        return;
    int64_t lo = pi[0];
    for (int32_t v = 1; v < n; v++)
        lo = pi[v] < lo ? pi[v] : lo;
    for (int32_t v = 0; v < n; v++)
        pi[v] -= lo;
}

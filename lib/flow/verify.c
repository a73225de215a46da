/* pl_flow_verify: an optimality certificate checked on the user's network
 * (not the normalised one), independently of whichever solver ran. */
#include "internal/flownet_impl.h"

static pl_status check_bounds(const pl_flownet *net)
{
    for (int32_t a = 0; a < net->m; a++) {
        int64_t f = net->flow[a];
        if (f < net->lower[a])
            return pl_err(PL_EVERIFY, "arc %d (%d -> %d): flow %lld below its lower bound %lld", a,
                          net->tail[a], net->head[a], (long long)f, (long long)net->lower[a]);
        if (net->upper[a] != PL_CAP_INF && f > net->upper[a])
            return pl_err(PL_EVERIFY, "arc %d (%d -> %d): flow %lld above its capacity %lld", a,
                          net->tail[a], net->head[a], (long long)f, (long long)net->upper[a]);
    }
    return PL_OK;
}

static pl_status check_conservation(const pl_flownet *net)
{
    int64_t *net_out = pl_alloc((size_t)net->n, sizeof *net_out);
    if (!net_out)
        return PL_ENOMEM;
    pl_status st = PL_OK;
    for (int32_t a = 0; a < net->m && !st; a++) {
        int64_t *ot = &net_out[net->tail[a]], *oh = &net_out[net->head[a]];
        if (pl_add_ovf(*ot, net->flow[a], ot) || pl_sub_ovf(*oh, net->flow[a], oh))
            st = pl_err(PL_EOVERFLOW, "arc %d: flow sums overflow int64", a);
    }
    for (int32_t v = 0; v < net->n && !st; v++)
        if (net_out[v] != net->supply[v])
            st = pl_err(PL_EVERIFY,
                        "node %d: flow out minus flow in is %lld but its supply is %lld "
                        "(conservation violated)", v, (long long)net_out[v],
                        (long long)net->supply[v]);
    pl_free(net_out);
    return st;
}

/* Complementary slackness: an arc that could carry more must not be
 * profitable (reduced cost >= 0), one that could carry less must not be
 * costly (reduced cost <= 0). */
static pl_status check_slackness(const pl_flownet *net)
{
    for (int32_t a = 0; a < net->m; a++) {
        int32_t u = net->tail[a], v = net->head[a];
        int64_t rc;
        if (pl_add_ovf(net->cost[a], net->pot[u], &rc) || pl_sub_ovf(rc, net->pot[v], &rc))
            return pl_err(PL_EOVERFLOW, "arc %d: reduced cost overflows int64", a);
        int64_t f = net->flow[a];
        int below_upper = net->upper[a] == PL_CAP_INF || f < net->upper[a];
        if (rc < 0 && below_upper)
            return pl_err(PL_EVERIFY,
                          "arc %d (%d -> %d): reduced cost %lld < 0 but flow %lld is below "
                          "capacity: more flow on it would lower the cost (not optimal)",
                          a, u, v, (long long)rc, (long long)f);
        if (rc > 0 && f > net->lower[a])
            return pl_err(PL_EVERIFY,
                          "arc %d (%d -> %d): reduced cost %lld > 0 but flow %lld is above "
                          "its lower bound: less flow on it would lower the cost (not optimal)",
                          a, u, v, (long long)rc, (long long)f);
    }
    return PL_OK;
}

pl_status pl_flow_verify(const pl_flownet *net)
{
    if (!net)
        return pl_err(PL_EINVAL, "pl_flow_verify: net is NULL");
    if (!net->has_solution)
        return pl_err(PL_ESTATE, "pl_flow_verify: the network holds no solution");
    pl_status st;
    if ((st = check_bounds(net)) || (st = check_conservation(net)) || (st = check_slackness(net)))
        return st;
    return PL_OK;
}

/* Random small networks mixing every feature the solvers must handle, so
 * that agreement with GLPK over many of them exercises infeasible,
 * unbounded, negative-cost and lower-bounded cases alike. */
#include <stdlib.h>
#include "testutil.h"

void pl_randnet_opts_init(pl_randnet_opts *o)
{
    *o = (pl_randnet_opts){
        .max_nodes = 10, .max_arcs = 30, .max_cap = 10, .max_cost = 20,
        .neg_costs = 1, .lower_bounds = 1, .inf_arcs = 1, .max_supply = 8,
    };
}

static void add_supplies(pl_test_rng *r, pl_flownet *net, int32_t n, int64_t max_supply)
{
    /* Move units from random sources to random sinks so supplies balance. */
    int moves = (int)pl_test_range(r, 0, n);
    for (int i = 0; i < moves; i++) {
        int32_t s = (int32_t)pl_test_range(r, 0, n - 1), t = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t k = pl_test_range(r, 1, max_supply), bs, bt;
        pl_flownet_get_supply(net, s, &bs);
        pl_flownet_set_supply(net, s, bs + k);
        pl_flownet_get_supply(net, t, &bt);
        pl_flownet_set_supply(net, t, bt - k);
    }
}

pl_flownet *pl_randnet(pl_test_rng *r, const pl_randnet_opts *o)
{
    pl_flownet *net;
    if (pl_flownet_create(&net) != PL_OK)
        return NULL;
    int32_t n = (int32_t)pl_test_range(r, 2, o->max_nodes);
    int32_t m = (int32_t)pl_test_range(r, 1, o->max_arcs);
    pl_flownet_add_nodes(net, n, NULL);
    add_supplies(r, net, n, o->max_supply);
    for (int32_t i = 0; i < m; i++) {
        int32_t t = (int32_t)pl_test_range(r, 0, n - 1), h = (int32_t)pl_test_range(r, 0, n - 1);
        int64_t cost = pl_test_range(r, o->neg_costs ? -o->max_cost : 0, o->max_cost);
        int64_t upper = pl_test_range(r, 0, o->max_cap);
        int64_t lower = 0;
        if (o->lower_bounds && pl_test_range(r, 0, 5) == 0)
            lower = pl_test_range(r, 0, upper);
        /* Infinite arcs mostly get non-negative costs so that most such
         * networks stay bounded; some negative ones test unboundedness. */
        if (o->inf_arcs && pl_test_range(r, 0, 6) == 0) {
            upper = PL_CAP_INF;
            if (cost < 0 && pl_test_range(r, 0, 2) != 0)
                cost = -cost;
        }
        pl_flownet_add_arc(net, t, h, lower, upper, cost, NULL);
    }
    return net;
}

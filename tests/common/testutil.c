#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"

const char *pl_test_data(char *buf, const char *rel)
{
    const char *root = getenv("PL_TEST_DATA");
    snprintf(buf, PL_PATH_MAX, "%s/%s", root ? root : "tests/data", rel);
    return buf;
}

pl_status pl_test_solve(pl_flownet *net, const char *solver, int64_t *cost)
{
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = solver;
    o.verify = 1;
    pl_status st = pl_flownet_solve(net, &o, NULL);
    if (st == PL_OK && cost)
        st = pl_flownet_solution_cost(net, cost);
    return st;
}

uint64_t pl_test_rand(pl_test_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int64_t pl_test_range(pl_test_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(pl_test_rand(r) % (uint64_t)(hi - lo + 1));
}

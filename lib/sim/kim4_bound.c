/* The kim-ch4 experiment's constrained bound: the fewest nodes that can host
 * the running VM units at once under every constraint of the thesis's model
 * (a unit's VMs on one node, anti-affinity between units, node filters,
 * node cores and memory), any re-arrangement allowed. An offline optimum per
 * state, so no online algorithm keeps fewer nodes active. Exact: node
 * subsets by increasing size, each decided by backtracking over the units,
 * largest first; feasible only for a few nodes (the cluster's four). */
#include <stdlib.h>
#include <placement/kim_sim.h>
#include "internal/constraints_impl.h"

#define KB_EPS 1e-9           /* the placement algorithms' capacity tolerance */
#define KB_MAX_NODES 16

typedef struct kb {
    const pl_constraints *c;
    const pl_cnodes *nodes;
    const double *cores, *mem;
    const int32_t *members;
    int32_t nn, nl;
    int32_t *list;            /* running classes, largest first */
    int32_t *at;              /* class -> node, -1 */
    int32_t *same;            /* node -> lowest node interchangeable with it */
    double *uc, *um, *rest;   /* used cores / memory per node; cores of list[i..] */
    uint32_t subset;
} kb;

static int kb_allowed(const kb *b, int32_t k, int32_t n)
{
    return b->c->allowed[(size_t)k * (size_t)b->nn + (size_t)n];
}

static int kb_fits(const kb *b, int32_t k, int32_t n)
{
    if (!kb_allowed(b, k, n) || b->uc[n] + b->cores[k] > b->nodes->v[n].cores + KB_EPS ||
        b->um[n] + b->mem[k] > b->nodes->v[n].mem_gb + KB_EPS)
        return 0;
    for (int32_t i = 0; i < b->c->anti_n[k]; i++)
        if (b->at[b->c->anti[k][i]] == n)
            return 0;
    return 1;
}

/* Nodes a and b accept the same running classes with the same capacity. */
static int kb_interchangeable(const kb *b, int32_t a, int32_t n)
{
    if (b->nodes->v[a].cores != b->nodes->v[n].cores || b->nodes->v[a].mem_gb != b->nodes->v[n].mem_gb)
        return 0;
    for (int32_t i = 0; i < b->nl; i++)
        if (kb_allowed(b, b->list[i], a) != kb_allowed(b, b->list[i], n))
            return 0;
    return 1;
}

/* Place list[i..] on the subset's nodes. An empty node interchangeable with
 * an earlier empty one of the subset is skipped: the same branch. */
static int kb_place(kb *b, int32_t i, double room)
{
    if (i == b->nl)
        return 1;
    if (b->rest[i] > room + KB_EPS)
        return 0;
    int32_t k = b->list[i];
    for (int32_t n = 0; n < b->nn; n++) {
        if (!(b->subset >> n & 1) || !kb_fits(b, k, n))
            continue;
        int32_t m = b->same[n];
        if (m != n && b->uc[n] == 0 && b->um[n] == 0 && (b->subset >> m & 1) && b->uc[m] == 0 && b->um[m] == 0)
            continue;
        b->at[k] = n;
        b->uc[n] += b->cores[k];
        b->um[n] += b->mem[k];
        int ok = kb_place(b, i + 1, room - b->cores[k]);
        b->uc[n] -= b->cores[k];
        b->um[n] -= b->mem[k];
        b->at[k] = -1;
        if (ok)
            return 1;
    }
    return 0;
}

static int32_t popcount32(uint32_t m)
{
    int32_t n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

static int32_t kb_search(kb *b)
{
    for (int32_t i = 1; i < b->nl; i++) /* insertion sort by cores, then memory, decreasing */
        for (int32_t j = i; j > 0; j--) {
            int32_t x = b->list[j - 1], y = b->list[j];
            if (b->cores[x] > b->cores[y] || (b->cores[x] == b->cores[y] && b->mem[x] >= b->mem[y]))
                break;
            b->list[j - 1] = y;
            b->list[j] = x;
        }
    b->rest[b->nl] = 0;
    for (int32_t i = b->nl - 1; i >= 0; i--)
        b->rest[i] = b->rest[i + 1] + b->cores[b->list[i]];
    for (int32_t n = 0; n < b->nn; n++) {
        b->same[n] = n;
        for (int32_t a = 0; a < n && b->same[n] == n; a++)
            if (kb_interchangeable(b, a, n))
                b->same[n] = a;
    }
    for (int32_t size = 1; size <= b->nn; size++)
        for (uint32_t s = 1; s < 1u << b->nn; s++) {
            if (popcount32(s) != size)
                continue;
            double room = 0;
            for (int32_t n = 0; n < b->nn; n++)
                room += (s >> n & 1) ? b->nodes->v[n].cores : 0;
            b->subset = s;
            if (kb_place(b, 0, room))
                return size;
        }
    return -1;
}

pl_status pl_kim4_min_nodes(const pl_constraints *c, const pl_cnodes *nodes, const double *cores, const double *mem,
                            const int32_t *members, int32_t *out)
{
    if (!c || !nodes || !cores || !mem || !members || !out)
        return pl_err(PL_EINVAL, "pl_kim4_min_nodes: NULL argument");
    if (!c->resolved || c->nnodes != nodes->n)
        return pl_err(PL_EINVAL, "pl_kim4_min_nodes: constraint set not resolved on these nodes");
    if (nodes->n > KB_MAX_NODES)
        return pl_err(PL_EINVAL, "pl_kim4_min_nodes: %d nodes, at most %d", (int)nodes->n, KB_MAX_NODES);
    kb b = {.c = c, .nodes = nodes, .cores = cores, .mem = mem, .members = members, .nn = (int32_t)nodes->n};
    size_t K = (size_t)c->nclasses + 1, N = (size_t)b.nn + 1;
    /* one block of each type: list, at (K), same (N); rest (K), uc, um (N) */
    int32_t *ints = pl_alloc(2 * K + N, sizeof *ints);
    double *reals = pl_alloc(K + 2 * N, sizeof *reals);
    pl_status st = PL_OK;
    if (!ints || !reals)
        st = pl_err(PL_ENOMEM, "pl_kim4_min_nodes: out of memory");
    else {
        b.list = ints;
        b.at = ints + K;
        b.same = ints + 2 * K;
        b.rest = reals;
        b.uc = reals + K;
        b.um = reals + K + N;
    }
    if (!st) {
        for (int32_t k = 0; k < c->nclasses; k++) {
            b.at[k] = -1;
            if (members[k] > 0)
                b.list[b.nl++] = k;
        }
        *out = b.nl ? kb_search(&b) : 0;
        if (*out < 0)
            st = pl_err(PL_EINFEASIBLE, "pl_kim4_min_nodes: the running units fit on no set of nodes");
    }
    free(ints);
    free(reals);
    return st;
}

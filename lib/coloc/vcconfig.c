/* Candidate virtual-cluster configurations (ch. 2 sec. 3.2). */
#include <math.h>
#include <string.h>
#include "coloc_impl.h"

static int32_t rounded_log2(int32_t t)
{
    return (int32_t)lround(log2((double)t));
}

static int32_t selected_types(int32_t t)
{
    int32_t k = 2 * rounded_log2(t);
    if (k < 1)
        k = 1;
    return k < t ? k : t;
}

static int64_t binom(int32_t n, int32_t r)
{
    int64_t c = 1;
    for (int32_t i = 1; i <= r; i++)
        c = c * (n - r + i) / i;
    return c;
}

int32_t pl_coloc_candidate_count(int32_t types, int32_t s)
{
    if (types < 1 || s < 0 || s > 4)
        return -1;
    int32_t k = selected_types(types), l = rounded_log2(types);
    if ((1 << s) > k)
        return -1;
    int64_t n = k;
    for (int32_t i = 1; i <= s; i++) {
        int64_t c = binom(k, 1 << i);
        n += c < l ? c : l;
    }
    return (int32_t)(2 * n);
}

/* Fewest (scaled-out) or most (consolidated) VMs per node that divide the
 * block size, fit a node of every type in the tuple and, for scaled-out,
 * leave each type enough nodes. */
static int32_t vms_per_node(const pl_coloc_cluster *c, const int32_t *tuple, int32_t m,
                            int32_t block_vms, int32_t vms_per_type, int consolidated)
{
    int32_t max_slots = INT32_MAX;
    for (int32_t q = 0; q < m; q++)
        if (c->slots[tuple[q]] < max_slots)
            max_slots = c->slots[tuple[q]];
    int32_t most = 1;
    for (int32_t v = 1; v <= block_vms && v <= max_slots; v++)
        if (block_vms % v == 0)
            most = v;
    if (consolidated)
        return most;
    for (int32_t v = 1; v <= most; v++) {
        if (block_vms % v)
            continue;
        int fits = 1;
        for (int32_t q = 0; q < m; q++)
            if (vms_per_type / v > c->nodes[tuple[q]])
                fits = 0;
        if (fits)
            return v;
    }
    return most;   /* nothing fits the cluster: SA will find this config unplaceable */
}

pl_status pl_coloc_candidates(const pl_coloc_cluster *c, int32_t s, int32_t vms,
                              pl_coloc_config *out, int32_t cap, int32_t *count)
{
    if (!c || !c->nodes || !c->slots || !out || !count || c->types < 1)
        return pl_err(PL_EINVAL, "pl_coloc_candidates: NULL argument or no node types");
    for (int32_t t = 0; t < c->types; t++)
        if (c->nodes[t] < 0 || c->slots[t] < 1)
            return pl_err(PL_EINVAL, "pl_coloc_candidates: type %d has %d nodes of %d slots", (int)t,
                          (int)c->nodes[t], (int)c->slots[t]);
    int32_t want = pl_coloc_candidate_count(c->types, s);
    if (want < 0)
        return pl_err(PL_EINVAL, "pl_coloc_candidates: s = %d invalid for %d types (need 0 <= s <= 4, 2^s <= k)",
                      (int)s, (int)c->types);
    int32_t blocks = 1 << s;
    if (vms < 1 || vms % blocks)
        return pl_err(PL_EINVAL, "pl_coloc_candidates: %d VMs do not split into %d equal blocks", (int)vms,
                      (int)blocks);
    if (cap < want)
        return pl_err(PL_EINVAL, "pl_coloc_candidates: room for %d configurations, need %d", (int)cap, (int)want);
    int32_t k = selected_types(c->types), l = rounded_log2(c->types), n = 0;
    int32_t tuple[PL_COLOC_MAX_BLOCKS];
    for (int32_t i = 0; i <= s; i++) {
        int32_t m = 1 << i;
        int32_t ntup = i == 0 ? k : (m == k ? 1 : l);
        for (int32_t j = 0; j < ntup; j++) {
            /* consecutive windows of a cyclic list: each type appears 2^(i-1) times */
            for (int32_t q = 0; q < m; q++)
                tuple[q] = (j * m + q) % k;
            for (int cons = 0; cons <= 1; cons++) {
                pl_coloc_config *cf = &out[n++];
                memset(cf, 0, sizeof *cf);
                cf->blocks = blocks;
                cf->types = m;
                cf->consolidated = cons;
                for (int32_t b = 0; b < blocks; b++)
                    cf->block_type[b] = tuple[b / (blocks / m)];
                cf->vms_per_node = vms_per_node(c, tuple, m, vms / blocks, vms / m, cons);
            }
        }
    }
    *count = n;
    return PL_OK;
}

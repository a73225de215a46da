/* Machine classes and machine states (doc/policies.md, "Machine classes").
 *
 * A cluster built from one template has machines that differ only by their
 * vertex ids. Everything topo-aware computes for a job on one machine (DRB's
 * physical and job splits, the resource checks, Eq. 3, 5 and the
 * interference) reads the machine's subtree shape, the GPU distances, the
 * capacities and allocations of its vertices and the workloads holding its
 * GPUs, and reads them by position, not by id. Two machines of one class in
 * the same state therefore yield the same candidate up to renaming, with the
 * same utility, bit for bit; the classes also let machines share their
 * distance matrices. */
#include <stdlib.h>
#include <string.h>
#include "internal/policy_impl.h"
#include "internal/topology_internal.h"

static pl_status scratch_positions(pl_pctx *c)
{
    if (c->subpos)
        return PL_OK;
    if (!(c->subpos = pl_alloc((size_t)c->nvert + 1, sizeof *c->subpos)))
        return PL_ENOMEM;
    for (int32_t v = 0; v < c->nvert; v++)
        c->subpos[v] = -1;
    return PL_OK;
}

/* Append the package positions of m's sockets and the socket of each GPU to
 * the shape words; 0 if a package lies outside the subtree (its resources
 * would not be the machine's own). */
static int sockets_words(pl_pctx *c, const pl_pmachine *m, const int32_t *sub, int32_t n,
                         int64_t *w, int64_t *nw)
{
    for (int32_t i = 0; i < n; i++)
        c->subpos[sub[i]] = i;
    int inside = 1;
    for (int32_t s = 0; s < m->nsockets; s++) {
        int32_t pkg = m->sockets[s];
        inside &= pkg < 0 || c->subpos[pkg] >= 0;
        w[(*nw)++] = pkg < 0 ? -1 : c->subpos[pkg];
    }
    for (int32_t g = 0; g < m->ngpus; g++)
        w[(*nw)++] = m->gpu_socket[g];
    for (int32_t i = 0; i < n; i++)
        c->subpos[sub[i]] = -1;
    return inside;
}

static pl_status classify(pl_pctx *c, int32_t mi, int32_t **sub, int64_t *scap, int64_t **w,
                          int64_t *wcap)
{
    pl_pmachine *m = &c->mach[mi];
    m->shape = m->cls = -1;
    int32_t n;
    int64_t nw;
    int self, added;
    pl_status st = pl_topo_subtree_shape(c->work, m->vertex, c->subpos, sub, scap, &n, w, wcap, &nw,
                                         &self);
    if (st || !self)
        return st;
    if ((st = pl_grow((void **)w, wcap, nw + m->nsockets + m->ngpus + (int64_t)n * PL_RES_COUNT,
                      sizeof **w)))
        return st;
    if (!sockets_words(c, m, *sub, n, *w, &nw))
        return PL_OK;
    if (!(m->sub = pl_alloc((size_t)n, sizeof *m->sub)))
        return PL_ENOMEM;
    memcpy(m->sub, *sub, (size_t)n * sizeof *m->sub);
    m->nsub = n;
    if ((st = pl_keyset_add(&c->shapes, *w, nw, &m->shape, &added)))
        return st;
    if (added) {
        if ((st = pl_grow((void **)&c->shape_dist, &c->capshape, m->shape + 1, sizeof *c->shape_dist)))
            return st;
        c->shape_dist[m->shape] = -1;
    }
    pl_topo_capacities_of(c->work, m->sub, n, *w + nw);
    return pl_keyset_add(&c->classes, *w, nw + (int64_t)n * PL_RES_COUNT, &m->cls, &added);
}

pl_status pl_pctx_classes(pl_pctx *c)
{
    if (c->classes_done)
        return PL_OK;
    pl_status st = scratch_positions(c);
    int32_t *sub = NULL;
    int64_t *w = NULL, scap = 0, wcap = 0;
    for (int32_t mi = 0; mi < c->nmach; mi++)
        c->mach[mi].shape = c->mach[mi].cls = -1;
    for (int32_t mi = 0; mi < c->nmach && !st; mi++)
        st = classify(c, mi, &sub, &scap, &w, &wcap);
    free(sub);
    free(w);
    c->classes_done = !st;
    return st;
}

/* A string as words: its length, then its bytes eight to a word. */
static int64_t string_words(const char *s, int64_t *w)
{
    size_t len = strlen(s);
    w[0] = (int64_t)len;
    memset(w + 1, 0, (len + 7) / 8 * sizeof *w);
    memcpy(w + 1, s, len);
    return 1 + (int64_t)(len + 7) / 8;
}

pl_status pl_pctx_occupant_class(pl_pctx *c, const pl_job *job, int32_t ngpus, int32_t *id)
{
    const char *type = pl_job_workload_type(job), *size = pl_job_workload_size(job);
    pl_status st = pl_grow((void **)&c->kbuf, &c->capkbuf, 5 + (int64_t)(strlen(type) + strlen(size)) / 8,
                           sizeof *c->kbuf);
    if (st)
        return st;
    int64_t n = 0;
    c->kbuf[n++] = ngpus;
    n += string_words(type, c->kbuf + n);
    n += string_words(size, c->kbuf + n);
    int added;
    return pl_keyset_add(&c->occ_classes, c->kbuf, n, id, &added);
}

void pl_pctx_states_reset(pl_pctx *c)
{
    c->stamp++;
}

/* The state of machine m as words: its class, the allocated amounts of its
 * vertices (capacities are the class's), and who holds each GPU: the first
 * GPU of the same occupant (which GPUs share one counts: a neighbour is
 * counted once) and the occupant's workload class. */
static pl_status state_of(pl_pctx *c, const pl_pmachine *m, int32_t *id)
{
    pl_status st = pl_grow((void **)&c->kbuf, &c->capkbuf,
                           1 + PL_RES_COUNT * (int64_t)m->nsub + 2 * (int64_t)m->ngpus, sizeof *c->kbuf);
    if (st)
        return st;
    int64_t *w = c->kbuf, n = 1;
    w[0] = m->cls;
    n += pl_topo_used_of(c->work, m->sub, m->nsub, w + 1);
    for (int32_t g = 0; g < m->ngpus; g++) {
        int32_t o = c->owner[m->gpus[g]], first = g;
        for (int32_t h = 0; h < g && o >= 0 && first == g; h++)
            if (c->owner[m->gpus[h]] == o)
                first = h;
        w[n++] = o < 0 ? -1 : first;
        w[n++] = o < 0 ? -1 : c->occ[o].iclass;
    }
    int added;
    if ((st = pl_keyset_add(&c->states, w, n, id, &added)) || !added)
        return st;
    if ((st = pl_grow((void **)&c->state_stamp, &c->capstamp, *id + 1, sizeof *c->state_stamp)) ||
        (st = pl_grow((void **)&c->state_first, &c->capfirst, *id + 1, sizeof *c->state_first)))
        return st;
    c->state_stamp[*id] = 0;
    return PL_OK;
}

pl_status pl_pctx_state_first(pl_pctx *c, int32_t mi, int32_t *first)
{
    *first = mi;
    pl_status st = pl_pctx_classes(c);
    const pl_pmachine *m = &c->mach[mi];
    if (st || m->cls < 0)
        return st;
    if (c->mstate[mi] < 0 && (st = state_of(c, m, &c->mstate[mi])))
        return st;
    int32_t id = c->mstate[mi];
    if (c->state_stamp[id] == c->stamp) {
        *first = c->state_first[id];
        return PL_OK;
    }
    c->state_stamp[id] = c->stamp;
    c->state_first[id] = mi;
    return PL_OK;
}

pl_status pl_pctx_state_seen(pl_pctx *c, int32_t mi, int *seen)
{
    int32_t first;
    pl_status st = pl_pctx_state_first(c, mi, &first);
    *seen = !st && first != mi;
    return st;
}

int32_t pl_pctx_free_count(pl_pctx *c, int32_t mi)
{
    if (c->mfree[mi] < 0)
        c->mfree[mi] = pl_pctx_free_gpus(c, mi, NULL);
    return c->mfree[mi];
}

void pl_pctx_state_changed(pl_pctx *c, int32_t v)
{
    /* Every machine above v (machines inside machines included). */
    pl_vertex_info vi;
    for (int32_t x = v; x >= 0 && pl_topology_vertex(c->work, x, &vi) == PL_OK; x = vi.parent)
        if (vi.kind == PL_VK_MACHINE)
            for (int32_t i = 0; i < c->nmach; i++)
                if (c->mach[i].vertex == x)
                    c->mstate[i] = c->mfree[i] = -1;
}

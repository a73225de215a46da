/* sa-placement (ch. 2 sec. 3.2): simulated annealing over candidate VC
 * configurations and block placements, the exhaustive "Best" search over the
 * same space, and the learned-model predictor adapter.
 *
 * Co-runner rule: the VMs of one block share their co-runners, so every node
 * of a block hosts the same other blocks. Hence nodes form groups: a block
 * either opens a group on empty nodes or joins an existing group of the same
 * type and size that has room and none of its own application's blocks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "coloc_impl.h"
#include "internal/columns.h"

typedef struct sstate {
    int32_t *cfg;    /* [apps], -1 unplaced */
    int32_t *node;   /* [apps * R], -1 unplaced */
    int32_t *used;   /* [N] VMs on the node */
    int32_t *nocc;   /* [N] blocks on the node */
    int32_t *occ;    /* [N * maxs] app * MAX_BLOCKS + block */
} sstate;

typedef struct sctx {
    const pl_coloc_problem *p;
    int32_t apps, R, N, maxs;
    int32_t *type_of;   /* [N] */
    int32_t *type_first;/* [types + 1] first global node of each type */
    double *worst;      /* [apps] worst solo runtime */
    sstate s;
    int32_t *list;      /* [N] scratch node list */
    int32_t *opt;       /* [N + 1] scratch options */
    int32_t *perm;      /* [configs] scratch permutation */
    int32_t *q_app, *q_cfg, *q_vms;  /* [MAX_BLOCKS * apps] predictor query buffers */
    int64_t evals;
} sctx;

static int32_t slots_of(const sctx *c, int32_t g)
{
    return c->p->cluster->slots[c->type_of[g]];
}

static const pl_coloc_config *cfg_of(const sctx *c, int32_t a, const sstate *s)
{
    return &c->p->config[s->cfg[a]];
}

static int32_t block_vms(const sctx *c, const pl_coloc_config *cf)
{
    return c->R / cf->blocks;
}

static int32_t block_nodes(const sctx *c, const pl_coloc_config *cf)
{
    return block_vms(c, cf) / cf->vms_per_node;
}

/* A state's arrays, of the sizes state_alloc() gives them. */
static const pl_column state_cols[] = {
    PL_COLUMN(sstate, cfg), PL_COLUMN(sstate, node), PL_COLUMN(sstate, used),
    PL_COLUMN(sstate, nocc), PL_COLUMN(sstate, occ),
};

static void state_free(sstate *s)
{
    pl_columns_free(s, state_cols, PL_NCOLUMNS(state_cols));
    memset(s, 0, sizeof *s);
}

static pl_status state_alloc(const sctx *c, sstate *s)
{
    s->cfg = pl_alloc((size_t)c->apps, sizeof *s->cfg);
    s->node = pl_alloc((size_t)c->apps * (size_t)c->R, sizeof *s->node);
    s->used = pl_alloc((size_t)c->N + 1, sizeof *s->used);
    s->nocc = pl_alloc((size_t)c->N + 1, sizeof *s->nocc);
    s->occ = pl_alloc(((size_t)c->N + 1) * (size_t)c->maxs, sizeof *s->occ);
    if (!s->cfg || !s->node || !s->used || !s->nocc || !s->occ) {
        state_free(s);
        return PL_ENOMEM;
    }
    for (int32_t a = 0; a < c->apps; a++)
        s->cfg[a] = -1;
    for (int64_t i = 0; i < (int64_t)c->apps * c->R; i++)
        s->node[i] = -1;
    return PL_OK;
}

static void state_copy(const sctx *c, sstate *d, const sstate *s)
{
    memcpy(d->cfg, s->cfg, (size_t)c->apps * sizeof *d->cfg);
    memcpy(d->node, s->node, (size_t)c->apps * (size_t)c->R * sizeof *d->node);
    memcpy(d->used, s->used, (size_t)c->N * sizeof *d->used);
    memcpy(d->nocc, s->nocc, (size_t)c->N * sizeof *d->nocc);
    memcpy(d->occ, s->occ, (size_t)c->N * (size_t)c->maxs * sizeof *d->occ);
}

/* Put block b of app a (config already in s->cfg[a]) on nodes list[0..nb). */
static void put_block(const sctx *c, sstate *s, int32_t a, int32_t b, const int32_t *list)
{
    const pl_coloc_config *cf = cfg_of(c, a, s);
    int32_t v = cf->vms_per_node, bv = block_vms(c, cf), nb = bv / v;
    for (int32_t j = 0; j < nb; j++) {
        int32_t g = list[j];
        for (int32_t e = 0; e < v; e++)
            s->node[a * c->R + b * bv + j * v + e] = g;
        s->used[g] += v;
        s->occ[g * c->maxs + s->nocc[g]++] = a * PL_COLOC_MAX_BLOCKS + b;
    }
}

static void take_block(const sctx *c, sstate *s, int32_t a, int32_t b)
{
    const pl_coloc_config *cf = cfg_of(c, a, s);
    int32_t v = cf->vms_per_node, bv = block_vms(c, cf), nb = bv / v;
    int32_t base = a * c->R + b * bv;
    if (s->node[base] < 0)
        return;
    int32_t key = a * PL_COLOC_MAX_BLOCKS + b;
    for (int32_t j = 0; j < nb; j++) {
        int32_t g = s->node[base + j * v];
        s->used[g] -= v;
        int32_t *o = s->occ + g * c->maxs;
        for (int32_t i = 0; i < s->nocc[g]; i++)
            if (o[i] == key) {
                o[i] = o[--s->nocc[g]];
                break;
            }
    }
    for (int32_t e = 0; e < bv; e++)
        s->node[base + e] = -1;
}

static void take_app(const sctx *c, sstate *s, int32_t a)
{
    if (s->cfg[a] < 0)
        return;
    for (int32_t b = 0; b < cfg_of(c, a, s)->blocks; b++)
        take_block(c, s, a, b);
    s->cfg[a] = -1;
}

/* Nodes of the block encoded by key, written to out; returns their count. */
static int32_t nodes_of_key(const sctx *c, const sstate *s, int32_t key, int32_t *out)
{
    int32_t a = key / PL_COLOC_MAX_BLOCKS, b = key % PL_COLOC_MAX_BLOCKS;
    const pl_coloc_config *cf = cfg_of(c, a, s);
    int32_t v = cf->vms_per_node, bv = block_vms(c, cf), nb = bv / v;
    for (int32_t j = 0; j < nb; j++)
        out[j] = s->node[a * c->R + b * bv + j * v];
    return nb;
}

static int32_t min_node_of_key(const sctx *c, const sstate *s, int32_t key)
{
    int32_t a = key / PL_COLOC_MAX_BLOCKS, b = key % PL_COLOC_MAX_BLOCKS;
    const pl_coloc_config *cf = cfg_of(c, a, s);
    int32_t v = cf->vms_per_node, bv = block_vms(c, cf), nb = bv / v, m = INT32_MAX;
    for (int32_t j = 0; j < nb; j++)
        if (s->node[a * c->R + b * bv + j * v] < m)
            m = s->node[a * c->R + b * bv + j * v];
    return m;
}

static int app_on_node(const sctx *c, const sstate *s, int32_t g, int32_t a)
{
    for (int32_t i = 0; i < s->nocc[g]; i++)
        if (s->occ[g * c->maxs + i] / PL_COLOC_MAX_BLOCKS == a)
            return 1;
    return 0;
}

/* Where block b of app a may go: leaders of joinable groups, and -1 for
 * "open a group on the lowest empty nodes". Returns the option count. */
static int32_t block_options(const sctx *c, const sstate *s, int32_t a, int32_t b, int32_t *opt)
{
    const pl_coloc_config *cf = cfg_of(c, a, s);
    int32_t t = cf->block_type[b], v = cf->vms_per_node, nb = block_nodes(c, cf), n = 0, empty = 0;
    for (int32_t g = c->type_first[t]; g < c->type_first[t + 1]; g++) {
        if (s->nocc[g] == 0) {
            empty++;
            continue;
        }
        int32_t rep = s->occ[g * c->maxs];
        int32_t ra = rep / PL_COLOC_MAX_BLOCKS;
        if (min_node_of_key(c, s, rep) != g || block_nodes(c, cfg_of(c, ra, s)) != nb ||
            slots_of(c, g) - s->used[g] < v || app_on_node(c, s, g, a))
            continue;
        opt[n++] = g;
    }
    if (empty >= nb)
        opt[n++] = -1;
    return n;
}

/* Node list of an option (see block_options) into c->list. */
static void option_nodes(sctx *c, const sstate *s, int32_t a, int32_t b, int32_t option)
{
    const pl_coloc_config *cf = cfg_of(c, a, s);
    if (option >= 0) {
        nodes_of_key(c, s, s->occ[option * c->maxs], c->list);
        return;
    }
    int32_t t = cf->block_type[b], nb = block_nodes(c, cf), n = 0;
    for (int32_t g = c->type_first[t]; g < c->type_first[t + 1] && n < nb; g++)
        if (s->nocc[g] == 0)
            c->list[n++] = g;
}

static int place_app_random(sctx *c, sstate *s, int32_t a, int32_t cfg, uint64_t *rng)
{
    s->cfg[a] = cfg;
    for (int32_t b = 0; b < c->p->config[cfg].blocks; b++) {
        int32_t n = block_options(c, s, a, b, c->opt);
        if (n == 0) {
            take_app(c, s, a);
            return 0;
        }
        option_nodes(c, s, a, b, c->opt[pl_rng_below(rng, n)]);
        put_block(c, s, a, b, c->list);
    }
    return 1;
}

/* Try every configuration of a in random order. */
static int place_app_any(sctx *c, sstate *s, int32_t a, uint64_t *rng)
{
    int32_t k = c->p->configs;
    for (int32_t i = 0; i < k; i++)
        c->perm[i] = i;
    for (int32_t i = k - 1; i > 0; i--) {
        int32_t j = (int32_t)pl_rng_below(rng, i + 1), t = c->perm[i];
        c->perm[i] = c->perm[j];
        c->perm[j] = t;
    }
    for (int32_t i = 0; i < k; i++)
        if (place_app_random(c, s, a, c->perm[i], rng))
            return 1;
    return 0;
}

/* Geometric mean of worst-solo / predicted runtime over all applications. */
static pl_status evaluate(sctx *c, const sstate *s, double *logobj)
{
    const pl_coloc_problem *p = c->p;
    double sum = 0;
    c->evals++;
    for (int32_t a = 0; a < c->apps; a++) {
        const pl_coloc_config *cf = cfg_of(c, a, s);
        pl_coloc_query q;
        memset(&q, 0, sizeof q);
        q.app = a;
        q.config = s->cfg[a];
        q.cfg = cf;
        q.solo_runtime_s = p->solo_runtime_s[a * p->configs + s->cfg[a]];
        for (int32_t b = 0; b < cf->blocks; b++) {
            int32_t g = s->node[a * c->R + b * block_vms(c, cf)], n = 0;
            int32_t *qa = c->q_app + b * c->apps, *qc = c->q_cfg + b * c->apps, *qv = c->q_vms + b * c->apps;
            for (int32_t i = 0; i < s->nocc[g]; i++) {
                int32_t o = s->occ[g * c->maxs + i] / PL_COLOC_MAX_BLOCKS;
                if (o == a)
                    continue;
                qa[n] = o;
                qc[n] = s->cfg[o];
                qv[n] = p->config[s->cfg[o]].vms_per_node;
                n++;
            }
            q.corunners[b] = n;
            q.corunner_app[b] = qa;
            q.corunner_config[b] = qc;
            q.corunner_vms[b] = qv;
        }
        double r = 0;
        pl_status st = p->predict(p->predict_ctx, &q, &r);
        if (st != PL_OK)
            return st;
        if (!(r > 0) || !isfinite(r))
            return pl_err(PL_EINFEASIBLE, "coloc: predictor returned runtime %g for application %d", r, (int)a);
        sum += log(c->worst[a] / r);
    }
    *logobj = sum / c->apps;
    return PL_OK;
}

static pl_status check_problem(const pl_coloc_problem *p)
{
    if (!p || !p->cluster || !p->config || !p->solo_runtime_s || !p->predict || p->apps < 1 || p->vms < 1 ||
        p->configs < 1 || !p->cluster->nodes || !p->cluster->slots || p->cluster->types < 1)
        return pl_err(PL_EINVAL, "coloc: incomplete problem (cluster, configs, solo runtimes, predictor, apps, vms)");
    if (p->fixed < 0 || p->fixed > p->apps || (p->fixed > 0 && (!p->fixed_placement || !p->fixed_placement->config ||
                                                                 !p->fixed_placement->node)))
        return pl_err(PL_EINVAL, "coloc: fixed = %d needs a fixed placement (0 <= fixed <= apps)", (int)p->fixed);
    for (int32_t t = 0; t < p->cluster->types; t++)
        if (p->cluster->nodes[t] < 0 || p->cluster->slots[t] < 1)
            return pl_err(PL_EINVAL, "coloc: node type %d has %d nodes of %d slots", (int)t,
                          (int)p->cluster->nodes[t], (int)p->cluster->slots[t]);
    for (int32_t k = 0; k < p->configs; k++) {
        const pl_coloc_config *cf = &p->config[k];
        if (cf->blocks < 1 || cf->blocks > PL_COLOC_MAX_BLOCKS || p->vms % cf->blocks || cf->vms_per_node < 1 ||
            (p->vms / cf->blocks) % cf->vms_per_node)
            return pl_err(PL_EINVAL, "coloc: configuration %d: %d blocks of %d VMs per node do not divide %d VMs",
                          (int)k, (int)cf->blocks, (int)cf->vms_per_node, (int)p->vms);
        for (int32_t b = 0; b < cf->blocks; b++) {
            if (cf->block_type[b] < 0 || cf->block_type[b] >= p->cluster->types)
                return pl_err(PL_EINVAL, "coloc: configuration %d block %d has node type %d", (int)k, (int)b,
                              (int)cf->block_type[b]);
            if (cf->vms_per_node > p->cluster->slots[cf->block_type[b]])
                return pl_err(PL_EINVAL, "coloc: configuration %d puts %d VMs on type-%d nodes of %d slots",
                              (int)k, (int)cf->vms_per_node, (int)cf->block_type[b],
                              (int)p->cluster->slots[cf->block_type[b]]);
        }
    }
    for (int64_t i = 0; i < (int64_t)p->apps * p->configs; i++)
        if (!(p->solo_runtime_s[i] > 0))
            return pl_err(PL_EINVAL, "coloc: solo runtime of app %d on config %d is not > 0",
                          (int)(i / p->configs), (int)(i % p->configs));
    return PL_OK;
}

/* The context's arrays per node (one more, so that none is empty) and per
 * application (the queue holds up to PL_COLOC_MAX_BLOCKS blocks of each). */
static const pl_column ctx_node_cols[] = {PL_COLUMN(sctx, type_of), PL_COLUMN(sctx, list)};
static const pl_column ctx_app_cols[] = {
    PL_COLUMN(sctx, worst),
    PL_COLUMN_N(sctx, q_app, PL_COLOC_MAX_BLOCKS),
    PL_COLUMN_N(sctx, q_cfg, PL_COLOC_MAX_BLOCKS),
    PL_COLUMN_N(sctx, q_vms, PL_COLOC_MAX_BLOCKS),
};

static void ctx_free(sctx *c)
{
    pl_columns_free(c, ctx_node_cols, PL_NCOLUMNS(ctx_node_cols));
    pl_columns_free(c, ctx_app_cols, PL_NCOLUMNS(ctx_app_cols));
    free(c->type_first);
    free(c->opt);
    free(c->perm);
    state_free(&c->s);
}

static pl_status ctx_init(sctx *c, const pl_coloc_problem *p)
{
    memset(c, 0, sizeof *c);
    pl_status st = check_problem(p);
    if (st != PL_OK)
        return st;
    c->p = p;
    c->apps = p->apps;
    c->R = p->vms;
    const pl_coloc_cluster *cl = p->cluster;
    int64_t n = 0;
    c->maxs = 1;
    for (int32_t t = 0; t < cl->types; t++) {
        n += cl->nodes[t];
        if (cl->slots[t] > c->maxs)
            c->maxs = cl->slots[t];
    }
    if (n > INT32_MAX / 2)
        return pl_err(PL_EINVAL, "coloc: too many nodes");
    c->N = (int32_t)n;
    c->type_first = pl_alloc((size_t)cl->types + 1, sizeof *c->type_first);
    c->opt = pl_alloc((size_t)c->N + 2, sizeof *c->opt);
    c->perm = pl_alloc((size_t)p->configs, sizeof *c->perm);
    if (!c->type_first || !c->opt || !c->perm ||
        pl_columns_alloc(c, ctx_node_cols, PL_NCOLUMNS(ctx_node_cols), (int64_t)c->N + 1) ||
        pl_columns_alloc(c, ctx_app_cols, PL_NCOLUMNS(ctx_app_cols), c->apps) ||
        state_alloc(c, &c->s) != PL_OK) {
        ctx_free(c);
        return PL_ENOMEM;
    }
    int32_t g = 0;
    for (int32_t t = 0; t < cl->types; t++) {
        c->type_first[t] = g;
        for (int32_t i = 0; i < cl->nodes[t]; i++)
            c->type_of[g++] = t;
    }
    c->type_first[cl->types] = g;
    for (int32_t a = 0; a < c->apps; a++) {
        c->worst[a] = 0;
        for (int32_t k = 0; k < p->configs; k++)
            if (p->solo_runtime_s[a * p->configs + k] > c->worst[a])
                c->worst[a] = p->solo_runtime_s[a * p->configs + k];
    }
    return PL_OK;
}

/* Place application a as given in pl (config and VM nodes), checking the
 * slots, the VM layout of each block and the co-runner (group) rule. */
static pl_status put_given(sctx *c, sstate *s, const pl_coloc_placement *pl, int32_t a)
{
    int32_t k = pl->config[a];
    if (k < 0 || k >= c->p->configs)
        return pl_err(PL_EINVAL, "coloc: application %d has configuration %d", (int)a, (int)k);
    s->cfg[a] = k;
    const pl_coloc_config *cf = &c->p->config[k];
    int32_t v = cf->vms_per_node, bv = block_vms(c, cf), nb = bv / v;
    for (int32_t b = 0; b < cf->blocks; b++) {
        const int32_t *vm = pl->node + (int64_t)a * c->R + b * bv;
        for (int32_t j = 0; j < nb; j++) {
            int32_t g = vm[j * v];
            if (g < 0 || g >= c->N || c->type_of[g] != cf->block_type[b])
                return pl_err(PL_EINVAL, "coloc: application %d block %d: node %d is not of type %d", (int)a,
                              (int)b, (int)g, (int)cf->block_type[b]);
            for (int32_t e = 1; e < v; e++)
                if (vm[j * v + e] != g)
                    return pl_err(PL_EINVAL, "coloc: application %d block %d: VMs %d..%d must share node %d",
                                  (int)a, (int)b, (int)(j * v), (int)(j * v + v - 1), (int)g);
            for (int32_t i = 0; i < j; i++)
                if (c->list[i] == g)
                    return pl_err(PL_EINVAL, "coloc: application %d block %d uses node %d twice", (int)a, (int)b,
                                  (int)g);
            if (slots_of(c, g) - s->used[g] < v || app_on_node(c, s, g, a))
                return pl_err(PL_EINVAL, "coloc: application %d block %d: node %d is full or already hosts it",
                              (int)a, (int)b, (int)g);
            c->list[j] = g;
        }
        /* all empty, or exactly the node set of the group already there */
        int32_t occupied = 0;
        for (int32_t j = 0; j < nb; j++)
            occupied += s->nocc[c->list[j]] > 0;
        if (occupied) {
            int32_t *grp = c->opt;
            int32_t gn = occupied == nb ? nodes_of_key(c, s, s->occ[c->list[0] * c->maxs], grp) : -1;
            int same = gn == nb;
            for (int32_t j = 0; same && j < nb; j++) {
                int found = 0;
                for (int32_t i = 0; i < gn; i++)
                    found |= grp[i] == c->list[j];
                same = found;
            }
            if (!same)
                return pl_err(PL_EINVAL, "coloc: application %d block %d breaks the co-runner rule: its nodes do not "
                              "host the same blocks", (int)a, (int)b);
        }
        put_block(c, s, a, b, c->list);
    }
    return PL_OK;
}

static pl_status put_fixed(sctx *c, sstate *s)
{
    for (int32_t a = 0; a < c->p->fixed; a++) {
        pl_status st = put_given(c, s, c->p->fixed_placement, a);
        if (st != PL_OK)
            return st;
    }
    return PL_OK;
}

static void export_state(const sctx *c, const sstate *s, pl_coloc_placement *out)
{
    memcpy(out->config, s->cfg, (size_t)c->apps * sizeof *out->config);
    memcpy(out->node, s->node, (size_t)c->apps * (size_t)c->R * sizeof *out->node);
}

/* Per application, and per application and VM (vms elements a row; the
 * free needs no row size, so the table here says 1). */
#define PLACEMENT_COLS(vms)                                                                        \
    {PL_COLUMN(pl_coloc_placement, config), PL_COLUMN_N(pl_coloc_placement, node, vms)}

pl_status pl_coloc_placement_alloc(pl_coloc_placement *p, int32_t apps, int32_t vms)
{
    if (!p || apps < 1 || vms < 1)
        return pl_err(PL_EINVAL, "pl_coloc_placement_alloc: need apps >= 1 and vms >= 1");
    const pl_column cols[] = PLACEMENT_COLS(vms);
    return pl_columns_alloc(p, cols, PL_NCOLUMNS(cols), apps);
}

void pl_coloc_placement_free(pl_coloc_placement *p)
{
    static const pl_column cols[] = PLACEMENT_COLS(1);
    if (p)
        pl_columns_free(p, cols, PL_NCOLUMNS(cols));
}

pl_status pl_coloc_evaluate(const pl_coloc_problem *prob, const pl_coloc_placement *pl, double *objective)
{
    if (!pl || !pl->config || !pl->node || !objective)
        return pl_err(PL_EINVAL, "pl_coloc_evaluate: NULL argument");
    sctx c;
    pl_status st = ctx_init(&c, prob);
    if (st != PL_OK)
        return st;
    for (int32_t a = 0; a < c.apps && st == PL_OK; a++)
        st = put_given(&c, &c.s, pl, a);
    double lo = 0;
    if (st == PL_OK)
        st = evaluate(&c, &c.s, &lo);
    if (st == PL_OK)
        *objective = exp(lo);
    ctx_free(&c);
    return st;
}

void pl_coloc_sa_opts_init(pl_coloc_sa_opts *o)
{
    if (o)
        *o = (pl_coloc_sa_opts){.iterations = 2000, .initial_temperature = 0.05, .cooling = 0.995, .seed = 1};
}

#define INIT_ATTEMPTS 100

/* Consecutive moves that did not fit after which the current state is taken
 * as one that admits none: the annealing restarts (doc/coloc.md sec. 2). */
#define STALL_MOVES 100

/* Random feasible start: the movable applications in random order, each in a random config that fits. */
static int random_start(sctx *c, sstate *s, const sstate *base, uint64_t *rng, int32_t *order)
{
    int32_t m = c->apps - c->p->fixed;
    for (int attempt = 0; attempt < INIT_ATTEMPTS; attempt++) {
        state_copy(c, s, base);
        for (int32_t i = 0; i < m; i++)
            order[i] = c->p->fixed + i;
        for (int32_t i = m - 1; i > 0; i--) {
            int32_t j = (int32_t)pl_rng_below(rng, i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int ok = 1;
        for (int32_t i = 0; i < m && ok; i++)
            ok = place_app_any(c, s, order[i], rng);
        if (ok)
            return 1;
    }
    return 0;
}

/* One move: app a to another config; if it does not fit, also lift a second
 * movable app and re-place it anywhere after a. Returns 0 if nothing fits. */
static int sa_move(sctx *c, sstate *s, uint64_t *rng)
{
    const pl_coloc_problem *p = c->p;
    int32_t m = c->apps - p->fixed;
    int32_t a = p->fixed + (int32_t)pl_rng_below(rng, m);
    int32_t k = s->cfg[a];
    if (p->configs > 1)
        k = (k + 1 + (int32_t)pl_rng_below(rng, p->configs - 1)) % p->configs;
    take_app(c, s, a);
    if (place_app_random(c, s, a, k, rng))
        return 1;
    if (m < 2)
        return 0;
    int32_t b = p->fixed + (int32_t)pl_rng_below(rng, m - 1);
    if (b >= a)
        b++;
    take_app(c, s, b);
    if (!place_app_random(c, s, a, k, rng))
        return 0;
    return place_app_any(c, s, b, rng);
}

pl_status pl_coloc_sa_place(const pl_coloc_problem *prob, const pl_coloc_sa_opts *opts,
                            pl_coloc_placement *out, pl_coloc_result *result)
{
    if (!out || !out->config || !out->node)
        return pl_err(PL_EINVAL, "pl_coloc_sa_place: output placement not allocated");
    pl_coloc_sa_opts def;
    pl_coloc_sa_opts_init(&def);
    const pl_coloc_sa_opts *o = opts ? opts : &def;
    if (o->iterations < 0 || !(o->initial_temperature >= 0) || !(o->cooling > 0 && o->cooling <= 1))
        return pl_err(PL_EINVAL, "pl_coloc_sa_place: need iterations >= 0, temperature >= 0, cooling in (0, 1]");
    sctx c;
    pl_status st = ctx_init(&c, prob);
    if (st != PL_OK)
        return st;
    sstate base = { 0 }, cur = { 0 }, best = { 0 };
    int32_t *order = pl_alloc((size_t)c.apps, sizeof *order);
    if (!order || state_alloc(&c, &base) != PL_OK || state_alloc(&c, &cur) != PL_OK ||
        state_alloc(&c, &best) != PL_OK) {
        st = PL_ENOMEM;
        goto done;
    }
    if ((st = put_fixed(&c, &base)) != PL_OK)
        goto done;
    uint64_t rng = o->seed;
    pl_rng_u64(&rng);
    if (!random_start(&c, &cur, &base, &rng, order)) {
        st = pl_err(PL_EINFEASIBLE, "pl_coloc_sa_place: no feasible placement found in %d random starts",
                    INIT_ATTEMPTS);
        goto done;
    }
    double f = 0, fbest;
    if ((st = evaluate(&c, &cur, &f)) != PL_OK)
        goto done;
    fbest = f;
    state_copy(&c, &best, &cur);
    int64_t accepted = 0;
    double temp = o->initial_temperature;
    if (c.apps > prob->fixed)
        for (int64_t it = 0, skipped = 0; it < o->iterations; it++, temp *= o->cooling) {
            state_copy(&c, &c.s, &cur);
            if (!sa_move(&c, &c.s, &rng)) {
                /* a state every move of which leaves an application without
                 * room (a full cluster can have such states) would be kept to
                 * the end: start again from a new random state, same stream */
                if (++skipped < STALL_MOVES)
                    continue;
                skipped = 0;
                if (!random_start(&c, &c.s, &base, &rng, order))
                    continue;
                if ((st = evaluate(&c, &c.s, &f)) != PL_OK)
                    goto done;
                state_copy(&c, &cur, &c.s);
                if (f > fbest) {
                    fbest = f;
                    state_copy(&c, &best, &cur);
                }
                continue;
            }
            skipped = 0;
            double g;
            if ((st = evaluate(&c, &c.s, &g)) != PL_OK)
                goto done;
            double u = pl_rng_unit(&rng);
            /* f is the mean log speedup, so the acceptance test does not depend on runtime scale */
            if (g >= f || (temp > 0 && u < exp((g - f) / temp))) {
                state_copy(&c, &cur, &c.s);
                f = g;
                accepted++;
                if (f > fbest) {
                    fbest = f;
                    state_copy(&c, &best, &cur);
                }
            }
        }
    export_state(&c, &best, out);
    if (result) {
        result->objective = exp(fbest);
        result->evaluations = c.evals;
        result->accepted = accepted;
    }
done:
    free(order);
    state_free(&base);
    state_free(&cur);
    state_free(&best);
    ctx_free(&c);
    return st;
}

typedef struct xsearch {
    sctx *c;
    sstate best;
    double fbest;
    int found;
    int64_t limit;
} xsearch;

static pl_status x_app(xsearch *x, int32_t a);

static pl_status x_block(xsearch *x, int32_t a, int32_t b)
{
    sctx *c = x->c;
    if (b == cfg_of(c, a, &c->s)->blocks)
        return x_app(x, a + 1);
    int32_t *opt = pl_alloc((size_t)c->N + 2, sizeof *opt);
    if (!opt)
        return PL_ENOMEM;
    int32_t n = block_options(c, &c->s, a, b, opt);
    pl_status st = PL_OK;
    for (int32_t i = 0; i < n && st == PL_OK; i++) {
        option_nodes(c, &c->s, a, b, opt[i]);
        put_block(c, &c->s, a, b, c->list);
        st = x_block(x, a, b + 1);
        take_block(c, &c->s, a, b);
    }
    free(opt);
    return st;
}

static pl_status x_app(xsearch *x, int32_t a)
{
    sctx *c = x->c;
    if (a == c->apps) {
        if (x->limit && c->evals >= x->limit)
            return pl_err(PL_ELIMIT, "pl_coloc_exhaustive_place: %lld evaluations reached", (long long)x->limit);
        double f;
        pl_status st = evaluate(c, &c->s, &f);
        if (st == PL_OK && (!x->found || f > x->fbest)) {
            x->found = 1;
            x->fbest = f;
            state_copy(c, &x->best, &c->s);
        }
        return st;
    }
    for (int32_t k = 0; k < c->p->configs; k++) {
        c->s.cfg[a] = k;
        pl_status st = x_block(x, a, 0);
        c->s.cfg[a] = -1;
        if (st != PL_OK)
            return st;
    }
    return PL_OK;
}

pl_status pl_coloc_exhaustive_place(const pl_coloc_problem *prob, int64_t max_evaluations,
                                    pl_coloc_placement *out, pl_coloc_result *result)
{
    if (!out || !out->config || !out->node || max_evaluations < 0)
        return pl_err(PL_EINVAL, "pl_coloc_exhaustive_place: output not allocated or negative limit");
    sctx c;
    pl_status st = ctx_init(&c, prob);
    if (st != PL_OK)
        return st;
    xsearch x = { .c = &c, .limit = max_evaluations };
    if ((st = state_alloc(&c, &x.best)) != PL_OK)
        goto done;
    if ((st = put_fixed(&c, &c.s)) != PL_OK)
        goto done;
    st = x_app(&x, prob->fixed);
    if (st == PL_OK && !x.found)
        st = pl_err(PL_EINFEASIBLE, "pl_coloc_exhaustive_place: no placement fits the cluster");
    if (st == PL_OK) {
        export_state(&c, &x.best, out);
        if (result) {
            result->objective = exp(x.fbest);
            result->evaluations = c.evals;
            result->accepted = 0;
        }
    }
done:
    state_free(&x.best);
    ctx_free(&c);
    return st;
}

static void metric_vec(const pl_coloc_metrics *m, double v[6])
{
    v[0] = m->cpu_idle_pct;
    v[1] = m->cpu_user_pct;
    v[2] = m->net_send_mb_per_s;
    v[3] = m->net_recv_mb_per_s;
    v[4] = m->disk_read_mb_per_s;
    v[5] = m->disk_write_mb_per_s;
}

int32_t pl_coloc_features(const pl_coloc_query *q, const pl_coloc_metrics *metrics, int32_t configs, double *x)
{
    if (!q || !q->cfg || !metrics || !x || configs < 1)
        return -1;
    int32_t n = 0;
    double mv[6];
    metric_vec(&metrics[q->app * configs + q->config], mv);
    x[n++] = q->config;
    x[n++] = q->solo_runtime_s;
    for (int i = 0; i < 6; i++)
        x[n++] = mv[i];
    for (int32_t b = 0; b < q->cfg->blocks; b++) {
        double vms = 0, avg[6] = { 0 };
        for (int32_t i = 0; i < q->corunners[b]; i++) {
            double cv[6];
            metric_vec(&metrics[q->corunner_app[b][i] * configs + q->corunner_config[b][i]], cv);
            vms += q->corunner_vms[b][i];
            for (int j = 0; j < 6; j++)
                avg[j] += cv[j] / q->corunners[b];
        }
        x[n++] = vms;
        for (int j = 0; j < 6; j++)
            x[n++] = avg[j];
    }
    return n;
}

pl_status pl_coloc_model_predictor(void *ctx, const pl_coloc_query *q, double *runtime_s)
{
    const pl_coloc_model_ctx *mc = ctx;
    if (!mc || !mc->model || !mc->metrics || !q || !q->cfg || !runtime_s)
        return pl_err(PL_EINVAL, "pl_coloc_model_predictor: NULL argument");
    double x[PL_COLOC_BASE_FEATURES + PL_COLOC_MAX_BLOCKS * PL_COLOC_BLOCK_FEATURES];
    int32_t n = pl_coloc_features(q, mc->metrics, mc->configs, x);
    if (n != pl_coloc_model_features(mc->model))
        return pl_err(PL_EINVAL, "pl_coloc_model_predictor: query has %d features, model expects %d", (int)n,
                      (int)pl_coloc_model_features(mc->model));
    pl_status st = pl_coloc_model_predict(mc->model, x, runtime_s);
    if (st == PL_OK && !(*runtime_s > 0))
        return pl_err(PL_EINFEASIBLE, "pl_coloc_model_predictor: model predicts runtime %g", *runtime_s);
    return st;
}

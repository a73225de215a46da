/* The fragmentation model of the ATC'23 paper (frag.h), with the peer's
 * definitions: a node's fragmentation against the workload's request
 * distribution, the feasibility filter and the node choice. */
#include <stdlib.h>
#include <string.h>
#include "internal/frag.h"

void pl_fstate_free(pl_fstate *s)
{
    if (!s)
        return;
    free(s->node);
    for (int32_t i = 0; i < s->nmodel; i++)
        free(s->model_name[i]);
    free(s->typ);
    free(s->memo);
    free(s->cand);
    free(s->score);
    free(s->cgpu);
    free(s->gap_waste);
    memset(s, 0, sizeof *s);
}

int32_t pl_fstate_model(pl_fstate *s, const char *name)
{
    for (int32_t i = 0; i < s->nmodel; i++)
        if (!strcmp(s->model_name[i], name))
            return i;
    if (s->nmodel >= PL_FRAG_MAXMODELS || !(s->model_name[s->nmodel] = pl_strdup(name)))
        return -1;
    return s->nmodel++;
}

void pl_fstate_pod_models(pl_fstate *s, const char *spec, pl_fpod *p)
{
    p->models = 0;
    p->any = 1;
    if (!spec)
        return;
    const char *a = spec;
    while (*a) {
        const char *b = strchr(a, '|');
        size_t len = b ? (size_t)(b - a) : strlen(a);
        if (len > 0) {
            p->any = 0;
            /* A model no node has matches nothing: it takes no bit. */
            for (int32_t i = 0; i < s->nmodel; i++)
                if (strlen(s->model_name[i]) == len && !strncmp(s->model_name[i], a, len))
                    p->models |= 1ULL << i;
        }
        a = b ? b + 1 : a + len;
    }
}

/* GPU i may serve p (its model; a node of one model was checked whole). */
static int gpu_ok(const pl_fnode *n, const pl_fpod *p, int32_t i)
{
    return p->any || !n->mixed || (n->gmodel[i] >= 0 && (p->models >> n->gmodel[i] & 1));
}

static int accessible(const pl_fnode *n, const pl_fpod *p)
{
    if (p->any)
        return 1;
    if (n->mixed)
        for (int32_t i = 0; i < n->ngpu; i++)
            if (gpu_ok(n, p, i))
                return 1;
    return n->model >= 0 && (p->models >> n->model & 1);
}

static int32_t gpus_with(const pl_fnode *n, const pl_fpod *p, int32_t milli)
{
    int32_t c = 0;
    for (int32_t i = 0; i < n->ngpu; i++)
        c += n->left[i] >= milli && gpu_ok(n, p, i);
    return c;
}

int pl_fnode_fits(const pl_fnode *n, const pl_fpod *p)
{
    if (n->cpu_left < p->cpu || n->mem_left < p->mem)
        return 0;
    if (p->milli == 0)
        return 1;
    return n->ngpu > 0 && accessible(n, p) && gpus_with(n, p, p->milli) >= p->ngpu;
}

/* The peer's NodeGpuShareFragAmount summed over every kind but "satisfied":
 * for each typical pod, the node's idle milli is fragment unless the pod
 * fits (GPU count, model and CPU), and then only the GPUs too small for it
 * are. A pod without GPU counts all idle milli (its kinds XL/XR are not
 * "satisfied" in the peer's sum). Memory is not part of it. */
double pl_frag_of(pl_fstate *s, const pl_fnode *n)
{
    int64_t total = 0;
    for (int32_t i = 0; i < n->ngpu; i++)
        total += n->left[i];
    if (total == 0)
        return 0;
    double frag = 0;
    for (int32_t k = 0; k < s->ntyp; k++) {
        const pl_fpod *p = &s->typ[k].pod;
        int64_t f = total;
        if (p->milli > 0 && accessible(n, p) && n->cpu_left >= p->cpu) {
            int32_t fit = 0;
            int64_t small = 0;
            for (int32_t i = 0; i < n->ngpu; i++) {
                if (n->left[i] >= p->milli)
                    fit++;
                else
                    small += n->left[i];
            }
            if (fit >= p->ngpu)
                f = small;
        }
        frag += s->typ[k].freq * (double)f;
    }
    return frag;
}

/* ---- memo of node states ------------------------------------------------------------ */

/* The fragmentation depends on the model, the CPU left and the multiset of
 * GPU milli left: packed into four words, the GPUs sorted (10 bits each). */
static void pack(const pl_fnode *n, uint64_t key[4])
{
    int32_t l[18] = {0};
    for (int32_t i = 0; i < n->ngpu; i++) {
        int32_t v = n->left[i], j = i;
        while (j > 0 && l[j - 1] < v) {
            l[j] = l[j - 1];
            j--;
        }
        l[j] = v;
    }
    key[0] = (uint64_t)n->cpu_left << 16 | (uint64_t)(n->model + 1) << 8 | (uint64_t)n->ngpu;
    for (int w = 0; w < 3; w++) {
        uint64_t v = 0;
        for (int j = 0; j < 6; j++)
            v = v << 10 | (uint64_t)(l[w * 6 + j] & 1023);
        key[w + 1] = v;
    }
}

static uint64_t hash(const uint64_t key[4])
{
    uint64_t h = 0x243f6a8885a308d3ULL;
    for (int i = 0; i < 4; i++) {
        h ^= key[i];
        h *= 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    return h;
}

static int memo_grow(pl_fstate *s)
{
    int64_t n = s->nmemo ? s->nmemo * 2 : 4096;
    pl_fmemo_slot *m = pl_alloc((size_t)n, sizeof *m);
    if (!m)
        return 0;
    for (int64_t i = 0; i < s->nmemo; i++) {
        if (!s->memo[i].used)
            continue;
        uint64_t j = hash(s->memo[i].key) & (uint64_t)(n - 1);
        while (m[j].used)
            j = (j + 1) & (uint64_t)(n - 1);
        m[j] = s->memo[i];
    }
    free(s->memo);
    s->memo = m;
    s->nmemo = n;
    return 1;
}

static double frag_memo(pl_fstate *s, const pl_fnode *n)
{
    /* Nodes above the packing's range are computed each time. */
    if (n->ngpu > 18 || n->cpu_left < 0 || n->cpu_left >= (1LL << 47))
        return pl_frag_of(s, n);
    if (s->memo_used * 2 >= s->nmemo && !memo_grow(s))
        return pl_frag_of(s, n);
    uint64_t key[4];
    pack(n, key);
    uint64_t j = hash(key) & (uint64_t)(s->nmemo - 1);
    while (s->memo[j].used) {
        if (!memcmp(s->memo[j].key, key, sizeof key))
            return s->memo[j].frag;
        j = (j + 1) & (uint64_t)(s->nmemo - 1);
    }
    pl_fmemo_slot *e = &s->memo[j];
    memcpy(e->key, key, sizeof key);
    e->frag = pl_frag_of(s, n);
    e->used = 1;
    s->memo_used++;
    return e->frag;
}

double pl_frag_node(pl_fstate *s, pl_fnode *n)
{
    if (!n->frag_ok) {
        n->frag = frag_memo(s, n);
        n->frag_ok = 1;
    }
    return n->frag;
}

/* ---- placing ---------------------------------------------------------------------- */

void pl_fnode_pick_gpus(const pl_fnode *n, const pl_fpod *p, int32_t g, pl_fchoice *c)
{
    c->ngpu = 0;
    if (p->milli == 0)
        return;
    if (p->milli < 1000) {
        if (g < 0)
            for (int32_t i = 0; i < n->ngpu; i++)
                if (n->left[i] >= p->milli && gpu_ok(n, p, i) && (g < 0 || n->left[i] < n->left[g]))
                    g = i;
        c->gpu[c->ngpu++] = g;
        return;
    }
    for (int32_t i = 0; i < n->ngpu && c->ngpu < p->ngpu; i++)
        if (n->left[i] >= 1000 && gpu_ok(n, p, i))
            c->gpu[c->ngpu++] = i;
}

void pl_fnode_sub(pl_fnode *n, const pl_fpod *p, int32_t g)
{
    pl_fchoice c;
    pl_fnode_pick_gpus(n, p, g, &c);
    n->cpu_left -= p->cpu;
    n->mem_left -= p->mem;
    for (int32_t i = 0; i < c.ngpu; i++)
        n->left[c.gpu[i]] -= p->milli;
    n->frag_ok = 0;
}

static int32_t tag_of(const pl_fpod *p)
{
    if (p->milli < 1000)
        return 0;
    return p->ngpu < PL_FRAG_MAXG ? p->ngpu : PL_FRAG_MAXG;
}

void pl_fstate_apply(pl_fstate *s, const pl_fpod *p, const pl_fchoice *c)
{
    pl_fnode *n = &s->node[c->node];
    n->cpu_left -= p->cpu;
    n->mem_left -= p->mem;
    for (int32_t i = 0; i < c->ngpu; i++)
        n->left[c->gpu[i]] -= p->milli;
    s->used_milli += (int64_t)c->ngpu * p->milli;
    if (p->milli > 0 && n->tags[tag_of(p)]++ == 0)
        n->ntags++;
    n->frag_ok = 0;
}

void pl_fstate_release(pl_fstate *s, const pl_fpod *p, const pl_fchoice *c)
{
    pl_fnode *n = &s->node[c->node];
    n->cpu_left += p->cpu;
    n->mem_left += p->mem;
    for (int32_t i = 0; i < c->ngpu; i++)
        n->left[c->gpu[i]] += p->milli;
    s->used_milli -= (int64_t)c->ngpu * p->milli;
    if (p->milli > 0 && --n->tags[tag_of(p)] == 0)
        n->ntags--;
    n->frag_ok = 0;
}

pl_status pl_fstate_choose(pl_fstate *s, const pl_fpolicy *pol, const pl_fpod *p, pl_fchoice *c)
{
    c->node = -1;
    c->ngpu = 0;
    int32_t nc = 0;
    for (int32_t j = 0; j < s->nnode; j++) {
        int32_t i = s->order ? s->order[j] : j;
        const pl_fnode *n = &s->node[i];
        if (!pl_fnode_fits(n, p))
            continue;
        s->cand[nc] = i;
        s->cgpu[nc] = -1;
        s->score[nc] = 0;
        if (pol->score)
            pol->score(s, p, n, &s->score[nc], &s->cgpu[nc]);
        nc++;
    }
    if (nc == 0)
        return PL_OK;
    int32_t pick = 0;
    if (!pol->score) {
        pick = (int32_t)(pl_rng_u64(&s->rng) % (uint64_t)nc);
    } else {
        int64_t lo = s->score[0], hi = s->score[0];
        for (int32_t k = 1; k < nc; k++) {
            lo = s->score[k] < lo ? s->score[k] : lo;
            hi = s->score[k] > hi ? s->score[k] : hi;
        }
        /* The peer's NormalizeScore, integer arithmetic included: it may
         * merge neighbouring scores into ties. */
        if (pol->normalize)
            for (int32_t k = 0; k < nc; k++)
                s->score[k] = hi == lo ? 0 : (s->score[k] - lo) * 100 / (hi - lo);
        /* A tie goes to the first node in the node order. Measured: with
         * kube-scheduler's uniform draw among ties, FGD fills 90% at 100%
         * demand where the peer reports 95.2; with the first of a fixed
         * order (the peer names its nodes by a random permutation) every
         * policy lands within a point of the peer's means (doc/results.md). */
        for (int32_t k = 1; k < nc; k++)
            if (s->score[k] > s->score[pick])
                pick = k;
    }
    c->node = s->cand[pick];
    pl_fnode_pick_gpus(&s->node[c->node], p, s->cgpu[pick], c);
    return PL_OK;
}

void pl_fstate_frag_total(pl_fstate *s, double *frag, double *idle)
{
    double f = 0, id = 0;
    for (int32_t i = 0; i < s->nnode; i++) {
        f += pl_frag_node(s, &s->node[i]);
        for (int32_t g = 0; g < s->node[i].ngpu; g++)
            id += s->node[i].left[g];
    }
    *frag = f;
    *idle = id;
}

/* ---- the request distribution ------------------------------------------------------- */

typedef struct kind {
    pl_fpod pod;
    int64_t count;
} kind;

static int same(const pl_fpod *a, const pl_fpod *b)
{
    return a->cpu == b->cpu && a->milli == b->milli && a->ngpu == b->ngpu && a->models == b->models &&
           a->any == b->any;
}

/* More frequent first; on equal counts the peer's reverse order of
 * (CPU, milli, GPU count, model): larger first. */
static int cmp_kind(const void *x, const void *y)
{
    const kind *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    if (a->pod.cpu != b->pod.cpu)
        return a->pod.cpu > b->pod.cpu ? -1 : 1;
    if (a->pod.milli != b->pod.milli)
        return a->pod.milli > b->pod.milli ? -1 : 1;
    if (a->pod.ngpu != b->pod.ngpu)
        return a->pod.ngpu > b->pod.ngpu ? -1 : 1;
    if (a->pod.models != b->pod.models)
        return a->pod.models > b->pod.models ? -1 : 1;
    return 0;
}

/* s->model_pressure from pods: each pod that requires models spreads its
 * demand over them by capacity; the list is scaled to the cluster's GPUs. */
static void set_pressure(pl_fstate *s, const pl_fpod *pods, int32_t n)
{
    double cap[PL_FRAG_MAXMODELS] = {0}, need[PL_FRAG_MAXMODELS] = {0}, demand = 0, total = 0;
    for (int32_t i = 0; i < s->nnode; i++)
        for (int32_t g = 0; g < s->node[i].ngpu; g++) {
            int32_t m = s->node[i].mixed ? s->node[i].gmodel[g] : s->node[i].model;
            if (m >= 0 && m < PL_FRAG_MAXMODELS) {
                cap[m] += 1000;
                total += 1000;
            }
        }
    for (int32_t i = 0; i < n; i++) {
        double d = (double)pods[i].ngpu * pods[i].milli, c = 0;
        demand += d;
        if (pods[i].any || d == 0)
            continue;
        for (int32_t m = 0; m < PL_FRAG_MAXMODELS; m++)
            c += (pods[i].models >> m & 1) ? cap[m] : 0;
        for (int32_t m = 0; m < PL_FRAG_MAXMODELS && c > 0; m++)
            need[m] += (pods[i].models >> m & 1) ? d * cap[m] / c : 0;
    }
    for (int32_t m = 0; m < PL_FRAG_MAXMODELS; m++) {
        double p = cap[m] > 0 && demand > 0 ? need[m] * (total / demand) / cap[m] : 0;
        s->model_pressure[m] = p < 1 ? p : 1;
    }
}

pl_status pl_fstate_set_typical(pl_fstate *s, const pl_fpod *pods, int32_t n, double threshold)
{
    kind *k = pl_alloc((size_t)n + 1, sizeof *k);
    if (!k)
        return PL_ENOMEM;
    int32_t nk = 0;
    /* Kinds are few (tens to hundreds): a linear search from the last hit. */
    for (int32_t i = 0; i < n; i++) {
        pl_fpod key = pods[i];
        key.mem = 0;
        int32_t j = 0;
        while (j < nk && !same(&k[j].pod, &key))
            j++;
        if (j == nk)
            k[nk++].pod = key;
        k[j].count++;
    }
    qsort(k, (size_t)nk, sizeof *k, cmp_kind);
    int32_t take = 0;
    int64_t cum = 0;
    while (take < nk && (double)cum < threshold * n)
        cum += k[take++].count;
    free(s->typ);
    s->typ = pl_alloc((size_t)take + 1, sizeof *s->typ);
    if (!s->typ) {
        free(k);
        return PL_ENOMEM;
    }
    for (int32_t i = 0; i < take; i++) {
        s->typ[i].pod = k[i].pod;
        s->typ[i].freq = (double)k[i].count / (double)cum;
    }
    s->ntyp = take;
    free(k);
    double cpu = 0, milli = 0;
    for (int32_t i = 0; i < take; i++)
        if (s->typ[i].pod.milli > 0) {
            cpu += s->typ[i].freq * (double)s->typ[i].pod.cpu;
            milli += s->typ[i].freq * (double)s->typ[i].pod.ngpu * s->typ[i].pod.milli;
        }
    s->cpu_per_milli = milli > 0 ? cpu / milli : 0;
    set_pressure(s, pods, n);
    /* A new distribution changes every node's fragmentation. */
    free(s->memo);
    s->memo = NULL;
    s->nmemo = s->memo_used = 0;
    for (int32_t i = 0; i < s->nnode; i++)
        s->node[i].frag_ok = 0;
    return PL_OK;
}

/* ---- the policies by name ----------------------------------------------------------- */

static const pl_fpolicy *const all[] = {
    &pl_fpolicy_random_fit, &pl_fpolicy_dotprod,     &pl_fpolicy_gpu_clustering, &pl_fpolicy_gpu_packing,
    &pl_fpolicy_bestfit,    &pl_fpolicy_fgd,         &pl_fpolicy_fgd_coarse, &pl_fpolicy_fgd_balance,
    &pl_fpolicy_fgd_price,
};

const pl_fpolicy *pl_fpolicy_at(int i)
{
    return i >= 0 && i < (int)(sizeof all / sizeof all[0]) ? all[i] : NULL;
}

const pl_fpolicy *pl_fpolicy_find(const char *name)
{
    for (int i = 0; name && pl_fpolicy_at(i); i++)
        if (!strcmp(all[i]->name, name))
            return all[i];
    return NULL;
}

double pl_fgrad_best(pl_fstate *s, const pl_fpod *p, const pl_fnode *n, pl_fvalue_fn value,
                     pl_fquantize_fn quantize, int32_t *gpu)
{
    double before = value(s, (pl_fnode *)n), best = 0;
    pl_fnode t;
    *gpu = -1;
    if (p->milli > 0 && p->milli < 1000) {
        for (int32_t i = 0; i < n->ngpu; i++) {
            int seen = 0;
            for (int32_t j = 0; j < i && !seen; j++)
                seen = n->left[j] == n->left[i];
            if (n->left[i] < p->milli || seen)
                continue;
            t = *n;
            pl_fnode_sub(&t, p, i);
            double v = before - value(s, &t);
            if (quantize)
                v = quantize(v);
            if (*gpu < 0 || v > best) {
                best = v;
                *gpu = i;
            }
        }
        return best;
    }
    t = *n;
    pl_fnode_sub(&t, p, -1);
    double v = before - value(s, &t);
    return quantize ? quantize(v) : v;
}

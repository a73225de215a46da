/* The context of a policy call and the evaluation of candidate placements:
 * Eq. 3 over the GPU distances, interference from the jobs on the same
 * sockets, Eq. 5 over the machine's sockets, and the utility. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/columns.h"
#include "internal/job_slots.h"
#include "internal/policy_impl.h"
#include "internal/topology_internal.h"

/* Exhaustive t_min / t_max up to this many GPUs per machine (2^16 subsets). */
#define EXACT_T_GPUS 16

/* Name, sockets and GPU indices of machine mi, whose gpus and arrays are set. */
static pl_status machine_init(pl_pctx *c, int32_t mi)
{
    pl_pmachine *m = &c->mach[mi];
    pl_vertex_info vi;
    pl_status st = pl_topology_vertex(c->work, m->vertex, &vi);
    if (st)
        return st;
    m->name = vi.name;
    for (int32_t i = 0; i < m->ngpus; i++) {
        int32_t g = m->gpus[i], pkg = -1, s;
        if (pl_topology_ancestor(c->work, g, PL_VK_PACKAGE, &pkg) != PL_OK)
            pkg = -1;
        for (s = 0; s < m->nsockets && m->sockets[s] != pkg; s++)
            ;
        if (s == m->nsockets) {
            m->sockets[s] = pkg;
            m->nsockets++;
        }
        m->gpu_socket[i] = s;
        m->socket_total[s]++;
        c->gpu_mach[g] = mi;
        c->gpu_index[g] = i;
    }
    return PL_OK;
}

/* The machines with GPUs (a machine without cannot hold a task), one walk
 * of each subtree; the per-machine arrays of all of them are slices of two
 * blocks (a call on a 1,000-machine cluster would otherwise allocate
 * thousands of small arrays). */
static pl_status build_machines(pl_pctx *c)
{
    int32_t nv = c->nvert, n = 0, g;
    int32_t *machines = pl_alloc((size_t)nv + 1, sizeof *machines);
    int32_t *scratch = pl_alloc((size_t)nv + 1, sizeof *scratch);
    int64_t *off = NULL, cap = 0, total = 0;
    pl_status st = !machines || !scratch ? PL_ENOMEM : PL_OK;
    if (!st)
        st = pl_topology_descendants(c->work, -1, PL_VK_MACHINE, machines, nv, &n);
    if (!st && n > 0 && (!(c->mach = pl_alloc((size_t)n, sizeof *c->mach)) ||
                         !(off = pl_alloc((size_t)n, sizeof *off))))
        st = PL_ENOMEM;
    for (int32_t i = 0; i < n && !st; i++) {
        if ((st = pl_topology_descendants(c->work, machines[i], PL_VK_GPU, scratch, nv, &g)) || !g)
            continue;
        if ((st = pl_grow((void **)&c->mgpus, &cap, total + g, sizeof *c->mgpus)))
            break;
        memcpy(c->mgpus + total, scratch, (size_t)g * sizeof *scratch);
        c->mach[c->nmach] = (pl_pmachine){.vertex = machines[i], .ngpus = g};
        off[c->nmach++] = total;
        total += g;
    }
    /* gpu_socket, sockets and socket_total: ngpus + 1 each. */
    if (!st && !(c->mblock = pl_alloc(3 * ((size_t)total + (size_t)c->nmach) + 1, sizeof *c->mblock)))
        st = PL_ENOMEM;
    int32_t *p = c->mblock;
    for (int32_t mi = 0; mi < c->nmach && !st; mi++) {
        pl_pmachine *m = &c->mach[mi];
        size_t len = (size_t)m->ngpus + 1;
        m->gpus = c->mgpus + off[mi];
        m->gpu_socket = p;
        m->sockets = p + len;
        m->socket_total = p + 2 * len;
        p += 3 * len;
        st = machine_init(c, mi);
    }
    free(machines);
    free(scratch);
    free(off);
    return st;
}

static pl_status add_occupant(pl_pctx *c, const pl_job *job, const int32_t *gpus, int32_t k)
{
    pl_status st = pl_grow((void **)&c->occ, &c->capocc, c->nocc + 1, sizeof *c->occ);
    if (st)
        return st;
    c->occ[c->nocc] = (pl_occupant){job, k, -1};
    if ((st = pl_pctx_occupant_class(c, job, k, &c->occ[c->nocc].iclass)))
        return st;
    for (int32_t i = 0; i < k && !st; i++) {
        c->owner[gpus[i]] = (int32_t)c->nocc;
        int32_t m = c->gpu_mach[gpus[i]];
        if (m < 0 || (c->nmocc[m] > 0 && c->mocc[m][c->nmocc[m] - 1] == (int32_t)c->nocc))
            continue;
        st = pl_grow((void **)&c->mocc[m], &c->capmocc[m], c->nmocc[m] + 1, sizeof *c->mocc[m]);
        if (!st)
            c->mocc[m][c->nmocc[m]++] = (int32_t)c->nocc;
    }
    c->nocc++;
    return st;
}

static const pl_column vertex_cols[] = {PL_COLUMN(pl_pctx, gpu_mach), PL_COLUMN(pl_pctx, gpu_index),
                                        PL_COLUMN(pl_pctx, owner)};
static const pl_column machine_cols[] = {PL_COLUMN(pl_pctx, mstate), PL_COLUMN(pl_pctx, mfree),
                                         PL_COLUMN(pl_pctx, mocc), PL_COLUMN(pl_pctx, nmocc),
                                         PL_COLUMN(pl_pctx, capmocc)};

pl_status pl_pctx_create(const pl_policy_request *req, pl_pctx **out)
{
    *out = NULL;
    pl_pctx *c = pl_alloc(1, sizeof *c);
    if (!c)
        return PL_ENOMEM;
    c->req = req;
    c->rng = req->opts->seed;
    pl_status st = pl_topo_clone(req->topo, &c->work);
    if (st)
        goto fail;
    c->nvert = pl_topology_vertex_count(c->work);
    if ((st = pl_columns_alloc(c, vertex_cols, PL_NCOLUMNS(vertex_cols), (int64_t)c->nvert + 1)))
        goto fail;
    for (int32_t v = 0; v < c->nvert; v++)
        c->gpu_mach[v] = c->gpu_index[v] = c->owner[v] = -1;
    if ((st = build_machines(c)) ||
        (st = pl_columns_alloc(c, machine_cols, PL_NCOLUMNS(machine_cols), (int64_t)c->nmach + 1)))
        goto fail;
    for (int32_t i = 0; i < c->nmach; i++)
        c->mstate[i] = c->mfree[i] = -1;
    for (int32_t i = 0; i < req->nrunning && !st; i++)
        st = add_occupant(c, req->running[i].job, req->running[i].gpus, req->running[i].ngpus);
    if (st)
        goto fail;
    if (req->opts->profiles)
        c->ps = req->opts->profiles;
    else if ((st = pl_profile_set_builtin(&c->owned_ps)))
        goto fail;
    else
        c->ps = c->owned_ps;
    *out = c;
    return PL_OK;
fail:
    pl_pctx_free(c);
    return st;
}

void pl_pctx_free(pl_pctx *c)
{
    if (!c)
        return;
    for (int32_t i = 0; i < c->nmach; i++) {
        pl_pmachine *m = &c->mach[i];
        if (!m->shares_dist) {
            free(m->dist);
            free(m->tmin);
            free(m->tmax);
        }
        free(m->sub);
    }
    free(c->mgpus);
    free(c->mblock);
    pl_free_lists_i32(c->mocc, c->nmach);
    pl_columns_free(c, vertex_cols, PL_NCOLUMNS(vertex_cols));
    pl_columns_free(c, machine_cols, PL_NCOLUMNS(machine_cols));
    free(c->mach);
    free(c->occ);
    pl_keyset_free(&c->shapes);
    pl_keyset_free(&c->classes);
    pl_keyset_free(&c->occ_classes);
    pl_keyset_free(&c->states);
    free(c->shape_dist);
    free(c->occ_seen);
    free(c->plan);
    pl_arena_free(&c->scratch);
    free(c->state_stamp);
    free(c->state_first);
    free(c->kbuf);
    free(c->subpos);
    free(c->host_v);
    free(c->host_gpus);
    pl_profile_set_free(c->owned_ps);
    pl_topology_free(c->work);
    free(c);
}

/* t_min and t_max of every subset size, by t[mask] = t[mask - low bit] +
 * the low GPU's distances to the rest: 2^n sums of n terms. */
static pl_status exact_t(pl_pmachine *m)
{
    int32_t n = m->ngpus;
    size_t subsets = (size_t)1 << n;
    int64_t *t = pl_alloc(subsets, sizeof *t);
    if (!t)
        return PL_ENOMEM;
    for (int32_t k = 0; k <= n; k++) {
        m->tmin[k] = INT64_MAX;
        m->tmax[k] = 0;
    }
    m->tmin[0] = m->tmin[1] = 0;
    for (size_t mask = 1; mask < subsets; mask++) {
        int32_t low = __builtin_ctzll((unsigned long long)mask);
        size_t rest = mask & (mask - 1);
        int64_t sum = t[rest];
        for (int32_t j = low + 1; j < n; j++)
            if (rest >> j & 1)
                sum += m->dist[(size_t)low * (size_t)n + (size_t)j];
        t[mask] = sum;
        int32_t k = __builtin_popcountll((unsigned long long)mask);
        if (sum < m->tmin[k])
            m->tmin[k] = sum;
        if (sum > m->tmax[k])
            m->tmax[k] = sum;
    }
    free(t);
    return PL_OK;
}

/* Large machines: greedy t_min (grow from each GPU by the nearest one) and
 * the bound k(k-1)/2 x the largest distance for t_max. */
static pl_status greedy_t(pl_pmachine *m)
{
    int32_t n = m->ngpus;
    uint8_t *in = pl_alloc((size_t)n, 1);
    if (!in)
        return PL_ENOMEM;
    for (int32_t k = 0; k <= n; k++) {
        m->tmin[k] = k < 2 ? 0 : INT64_MAX;
        m->tmax[k] = (int64_t)k * (k - 1) / 2 * m->maxdist;
    }
    for (int32_t s = 0; s < n; s++) {
        memset(in, 0, (size_t)n);
        in[s] = 1;
        int64_t t = 0;
        for (int32_t k = 2; k <= n; k++) {
            int32_t best = -1;
            int64_t add = 0;
            for (int32_t j = 0; j < n; j++) {
                if (in[j])
                    continue;
                int64_t a = 0;
                for (int32_t i = 0; i < n; i++)
                    if (in[i])
                        a += m->dist[(size_t)i * (size_t)n + (size_t)j];
                if (best < 0 || a < add) {
                    best = j;
                    add = a;
                }
            }
            in[best] = 1;
            t += add;
            if (t < m->tmin[k])
                m->tmin[k] = t;
        }
    }
    free(in);
    return PL_OK;
}

/* Machines of one shape (machine_class.c) have the same distances: no
 * Dijkstra over a 1,000-machine cluster per machine; they share r's arrays
 * (read-only once computed). */
static void share_distances(pl_pmachine *m, const pl_pmachine *r)
{
    m->dist = r->dist;
    m->tmin = r->tmin;
    m->tmax = r->tmax;
    m->maxdist = r->maxdist;
    m->shares_dist = 1;
}

pl_status pl_pctx_machine_ready(pl_pctx *c, int32_t mi)
{
    pl_pmachine *m = &c->mach[mi];
    if (m->dist)
        return PL_OK;
    pl_status st = pl_pctx_classes(c);
    if (st)
        return st;
    size_t n = (size_t)m->ngpus;
    if (m->shape >= 0 && c->shape_dist[m->shape] >= 0) {
        share_distances(m, &c->mach[c->shape_dist[m->shape]]);
        return PL_OK;
    }
    int64_t *dist = pl_alloc(n * n, sizeof *dist);
    int64_t *tmin = pl_alloc(n + 1, sizeof *tmin), *tmax = pl_alloc(n + 1, sizeof *tmax);
    st = !dist || !tmin || !tmax ? PL_ENOMEM : PL_OK;
    if (!st)
        st = pl_topology_distance_matrix(c->work, m->gpus, m->ngpus, dist);
    if (st) {
        free(dist);
        free(tmin);
        free(tmax);
        return st;
    }
    m->tmin = tmin;
    m->tmax = tmax;
    m->maxdist = 0;
    for (size_t i = 0; i < n * n; i++) {
        /* GPUs of one machine without a path between them: count them as
         * far apart as the machine can be, never as close. */
        if (dist[i] < 0)
            dist[i] = INT32_MAX;
        if (dist[i] > m->maxdist)
            m->maxdist = dist[i];
    }
    m->dist = dist;
    /* Copies of one template (a cluster) share their t_min / t_max. */
    int shared = 0;
    for (int32_t o = 0; o < c->nmach && !shared; o++) {
        pl_pmachine *p = &c->mach[o];
        if (o != mi && p->dist && p->ngpus == m->ngpus &&
            memcmp(p->dist, dist, n * n * sizeof *dist) == 0) {
            memcpy(m->tmin, p->tmin, (n + 1) * sizeof *m->tmin);
            memcpy(m->tmax, p->tmax, (n + 1) * sizeof *m->tmax);
            shared = 1;
        }
    }
    if (!shared && (st = m->ngpus <= EXACT_T_GPUS ? exact_t(m) : greedy_t(m)))
        return st;
    if (m->shape >= 0)
        c->shape_dist[m->shape] = mi;
    return PL_OK;
}

pl_status pl_pctx_dist(pl_pctx *c, int32_t a, int32_t b, int64_t *d)
{
    if (a == b) {
        *d = 0;
        return PL_OK;
    }
    int32_t ma = c->gpu_mach[a];
    if (ma >= 0 && ma == c->gpu_mach[b]) {
        pl_status st = pl_pctx_machine_ready(c, ma);
        if (st)
            return st;
        *d = c->mach[ma].dist[(size_t)c->gpu_index[a] * (size_t)c->mach[ma].ngpus +
                              (size_t)c->gpu_index[b]];
        return PL_OK;
    }
    pl_status st = pl_topology_distance(c->work, a, b, d);
    if (st == PL_ENOTFOUND) {
        *d = INT32_MAX;
        return PL_OK;
    }
    return st;
}

int pl_pctx_gpu_free(const pl_pctx *c, int32_t g)
{
    int64_t free_amount = 0;
    return pl_topology_amount(c->work, g, PL_RES_UNITS, NULL, NULL, &free_amount) == PL_OK &&
           free_amount >= 1;
}

int32_t pl_pctx_free_gpus(const pl_pctx *c, int32_t mi, int32_t *out)
{
    const pl_pmachine *m = &c->mach[mi];
    int32_t n = 0;
    for (int32_t i = 0; i < m->ngpus; i++)
        if (pl_pctx_gpu_free(c, m->gpus[i])) {
            if (out)
                out[n] = m->gpus[i];
            n++;
        }
    return n;
}

int32_t pl_pctx_socket_free(const pl_pctx *c, int32_t mi, int32_t s)
{
    const pl_pmachine *m = &c->mach[mi];
    int32_t n = 0;
    for (int32_t i = 0; i < m->ngpus; i++)
        if (m->gpu_socket[i] == s && pl_pctx_gpu_free(c, m->gpus[i]))
            n++;
    return n;
}

/* The first anti-collocated pair (*a < *b), 0 if none. */
static int anti_collocated_pair(const pl_job *job, int32_t k, int32_t *a, int32_t *b)
{
    for (*a = 0; *a < k; (*a)++)
        for (*b = *a + 1; *b < k; (*b)++)
            if (pl_job_anti_collocated(job, *a, *b))
                return 1;
    return 0;
}

/* GPUs of the machines at least one task of job may use (by its node
 * constraints and node filter): what a multi-machine job can have at most. */
static int64_t usable_gpus(pl_pctx *c, const pl_job *job)
{
    int64_t total = 0;
    for (int32_t m = 0; m < c->nmach; m++)
        for (int32_t t = 0; t < pl_job_task_count(job); t++)
            if (pl_pctx_task_admits(c, job, t, m)) {
                total += c->mach[m].ngpus;
                break;
            }
    return total;
}

pl_status pl_pctx_job_check(pl_pctx *c, const pl_job *job, int32_t *k, int single_machine_only,
                            const char **why)
{
    *why = NULL;
    *k = pl_job_task_count(job);
    if (*k == 0) {
        *why = "the job has no tasks";
        return PL_OK;
    }
    int one_machine = single_machine_only || pl_job_single_node(job);
    int32_t a, b;
    if (one_machine && anti_collocated_pair(job, *k, &a, &b)) {
        /* The thesis's SELF_ANTI: one machine makes all tasks one class. */
        snprintf(c->reason, sizeof c->reason, "constraint conflict SELF_ANTI: tasks %d and %d must not "
                 "share a machine (anti-collocation) but must share one: %s", (int)a, (int)b,
                 pl_job_single_node(job) ? "the job is single-node (one machine for all its tasks)"
                                         : "this policy places a job on one machine");
        pl_job_slots_explain(job, c->reason, sizeof c->reason); /* it named task ids */
        *why = c->reason;
        return PL_OK;
    }
    int64_t total = 0;
    int32_t largest = 0, admitted = 0;
    for (int32_t m = 0; m < c->nmach; m++) {
        if (!pl_job_admits_node(job, c->mach[m].name))
            continue;
        admitted++;
        total += c->mach[m].ngpus;
        if (c->mach[m].ngpus > largest)
            largest = c->mach[m].ngpus;
    }
    if (!admitted)
        *why = "no machine with GPUs passes the job's node filter";
    else if (one_machine && largest < *k)
        *why = "needs more GPUs on one machine than any admissible machine has";
    else if (!one_machine && total < *k)
        *why = "needs more GPUs than the admissible machines have together";
    if (*why)
        return PL_OK;
    int conflict = 0;
    pl_status st = pl_pctx_constraint_conflicts(c, job, one_machine, c->reason, sizeof c->reason, &conflict);
    if (st || conflict) {
        if (conflict) /* the conflicts name task ids */
            pl_job_slots_explain(job, c->reason, sizeof c->reason);
        *why = conflict ? c->reason : NULL;
        return st;
    }
    if (!one_machine && pl_job_has_constraints(job) && usable_gpus(c, job) < *k)
        *why = "needs more GPUs than the machines its node constraints allow have together";
    return PL_OK;
}

static int distinct_gpus(const pl_pctx *c, const int32_t *gpus, int32_t k)
{
    for (int32_t a = 0; a < k; a++) {
        if (gpus[a] < 0 || gpus[a] >= c->nvert || c->gpu_mach[gpus[a]] < 0)
            return 0;
        for (int32_t b = a + 1; b < k; b++)
            if (gpus[a] == gpus[b])
                return 0;
    }
    return 1;
}

static double total_traffic(const pl_job *job)
{
    double sum = 0;
    for (int32_t i = 0; i < pl_job_edge_count(job); i++) {
        pl_job_edge_info e;
        if (pl_job_edge(job, i, &e) == PL_OK)
            sum += e.traffic;
    }
    return sum;
}

static pl_status slowdown_of(const pl_pctx *c, const pl_job *job, int32_t k, const pl_occupant *o,
                             double *s)
{
    *s = 1.0;
    const char *t = pl_job_workload_type(job), *ot = pl_job_workload_type(o->job);
    /* An unnamed workload has no profile: assumed not to interfere. */
    if (!t[0] || !ot[0])
        return PL_OK;
    pl_status st = pl_profile_set_slowdown(c->ps, t, pl_job_workload_size(job), k, ot,
                                           pl_job_workload_size(o->job), o->ngpus, s);
    /* A neighbour the profile says speeds the job up is counted as none:
     * slowdowns are >= 1 (the paper form refuses less, and the artifact form
     * counts a ratio >= 1 as no interference anyway). */
    if (st == PL_OK && !(*s >= 1.0 && isfinite(*s)))
        *s = 1.0;
    return st;
}

/* Occupants holding a GPU on the sockets of gpus[0..n), without repeats, in
 * order of discovery; *out from the scratch stack. An occupant is marked
 * seen with the stamp of this search, so nothing is cleared per search. */
static pl_status neighbours(pl_pctx *c, const int32_t *gpus, int32_t n, int whole_machine,
                            int32_t **out, int32_t *count)
{
    *count = 0;
    *out = NULL;
    if (!c->nocc)
        return PL_OK;
    int64_t old = c->capseen;
    pl_status st = pl_grow((void **)&c->occ_seen, &c->capseen, c->nocc, sizeof *c->occ_seen);
    if (!st && c->capseen > old) /* stamps start at 1: 0 is never seen */
        memset(c->occ_seen + old, 0, (size_t)(c->capseen - old) * sizeof *c->occ_seen);
    int32_t *list = st ? NULL : pl_arena_get(&c->scratch, (size_t)c->nocc, sizeof *list);
    if (!list)
        return PL_ENOMEM;
    int64_t stamp = ++c->seen_stamp;
    for (int32_t i = 0; i < n; i++) {
        int32_t mi = c->gpu_mach[gpus[i]];
        const pl_pmachine *m = &c->mach[mi];
        int32_t s = m->gpu_socket[c->gpu_index[gpus[i]]];
        for (int32_t j = 0; j < m->ngpus; j++) {
            int32_t o = c->owner[m->gpus[j]];
            if (o >= 0 && c->occ_seen[o] != stamp && (whole_machine || m->gpu_socket[j] == s)) {
                c->occ_seen[o] = stamp;
                list[(*count)++] = o;
            }
        }
    }
    *out = list;
    return PL_OK;
}

pl_status pl_pctx_interference(pl_pctx *c, const pl_job *job, int32_t k, const int32_t *gpus,
                               int32_t n, pl_utility_form form, double *mean, double *worst,
                               double *max_slowdown)
{
    int32_t *nb = NULL, nn = 0, *all = NULL, na = 0;
    double *ones = NULL, *slow = NULL;
    pl_arena_mark mark = pl_arena_save(&c->scratch);
    pl_status st = neighbours(c, gpus, n, 0, &nb, &nn);
    if (!st)
        st = neighbours(c, gpus, n, 1, &all, &na);
    if (!st && nn > 0 && (!(ones = pl_arena_get(&c->scratch, (size_t)nn, sizeof *ones)) ||
                          !(slow = pl_arena_get(&c->scratch, (size_t)nn, sizeof *slow))))
        st = PL_ENOMEM;
    *max_slowdown = 1.0;
    for (int32_t i = 0; i < nn && !st; i++) {
        ones[i] = 1.0;
        st = slowdown_of(c, job, k, &c->occ[nb[i]], &slow[i]);
        if (slow[i] > *max_slowdown)
            *max_slowdown = slow[i];
    }
    if (!st)
        st = pl_interference_mean(ones, slow, nn, form, mean);
    /* The worst case of the paper form: next to the machine's worst neighbour
     * (never below the mean, which rounding could otherwise put 1 ulp above
     * the max: pl_utility refuses a term above its worst case). */
    *worst = !st && *mean > *max_slowdown ? *mean : *max_slowdown;
    for (int32_t i = 0; i < na && !st; i++) {
        double s;
        st = slowdown_of(c, job, k, &c->occ[all[i]], &s);
        if (s > *worst)
            *worst = s;
    }
    pl_arena_release(&c->scratch, mark);
    return st;
}

pl_status pl_pctx_fragmentation(pl_pctx *c, const int32_t *dom, int32_t n, const int32_t *used,
                                int32_t n_used, double *omega)
{
    /* Sockets are (machine, socket index) pairs; n bounds their number. */
    pl_arena *ar = &c->scratch;
    pl_arena_mark mark = pl_arena_save(ar);
    int64_t *fr = pl_arena_get(ar, (size_t)n + 1, sizeof *fr), *tot = pl_arena_get(ar, (size_t)n + 1, sizeof *tot);
    int32_t *key_m = pl_arena_get(ar, (size_t)n + 1, sizeof *key_m);
    int32_t *key_s = pl_arena_get(ar, (size_t)n + 1, sizeof *key_s);
    pl_status st = PL_OK;
    int32_t ns = 0;
    if (!fr || !tot || !key_m || !key_s)
        st = PL_ENOMEM;
    for (int32_t i = 0; i < n && !st; i++) {
        int32_t mi = c->gpu_mach[dom[i]], s = c->mach[mi].gpu_socket[c->gpu_index[dom[i]]], j;
        for (j = 0; j < ns && (key_m[j] != mi || key_s[j] != s); j++)
            ;
        if (j < ns)
            continue;
        key_m[ns] = mi;
        key_s[ns] = s;
        tot[ns] = c->mach[mi].socket_total[s];
        fr[ns] = pl_pctx_socket_free(c, mi, s);
        for (int32_t u = 0; u < n_used; u++) {
            int32_t g = used[u];
            if (c->gpu_mach[g] == mi && c->mach[mi].gpu_socket[c->gpu_index[g]] == s &&
                pl_pctx_gpu_free(c, g))
                fr[ns]--;
        }
        ns++;
    }
    if (!st)
        st = pl_fragmentation(fr, tot, ns, omega);
    pl_arena_release(ar, mark);
    return st;
}

/* Every GPU of the machines the candidate touches: the domain of Eq. 5
 * (*out from the scratch stack). */
static pl_status machines_gpus(pl_pctx *c, const int32_t *gpus, int32_t k, int32_t **out,
                               int32_t *n)
{
    *n = 0;
    int64_t total = 0;
    for (int32_t pass = 0; pass < 2; pass++) {
        if (pass && !(*out = pl_arena_get(&c->scratch, (size_t)total + 1, sizeof **out)))
            return PL_ENOMEM;
        for (int32_t i = 0; i < k; i++) {
            int32_t mi = c->gpu_mach[gpus[i]], seen = 0;
            for (int32_t j = 0; j < i && !seen; j++)
                seen = c->gpu_mach[gpus[j]] == mi;
            if (seen)
                continue;
            if (!pass) {
                total += c->mach[mi].ngpus;
                continue;
            }
            memcpy(*out + *n, c->mach[mi].gpus, (size_t)c->mach[mi].ngpus * sizeof **out);
            *n += c->mach[mi].ngpus;
        }
    }
    return PL_OK;
}

static pl_status comm_terms(pl_pctx *c, const pl_job *job, const pl_cand *cand,
                            pl_utility_terms *terms)
{
    int32_t k = cand->k;
    pl_arena_mark mark = pl_arena_save(&c->scratch);
    int64_t *dist = pl_arena_get(&c->scratch, (size_t)k * (size_t)k + 1, sizeof *dist);
    if (!dist)
        return PL_ENOMEM;
    pl_status st = PL_OK;
    int64_t maxd = 0;
    for (int32_t i = 0; i < k && !st; i++)
        for (int32_t j = 0; j < k && !st; j++) {
            st = pl_pctx_dist(c, cand->gpus[i], cand->gpus[j], &dist[(size_t)i * (size_t)k + (size_t)j]);
            if (dist[(size_t)i * (size_t)k + (size_t)j] > maxd)
                maxd = dist[(size_t)i * (size_t)k + (size_t)j];
        }
    if (!st)
        st = pl_comm_cost(dist, k, &terms->comm);
    pl_arena_release(&c->scratch, mark);
    if (st)
        return st;
    terms->comm_min = 0;
    terms->comm_norm = 0;
    /* A job that sends nothing has no communication term (comm_norm 0). */
    if (k < 2 || total_traffic(job) <= 0)
        return PL_OK;
    int32_t mi = cand->machine;
    int artifact = c->req->opts->utility.form == PL_UTILITY_ARTIFACT;
    if (mi >= 0) {
        const pl_pmachine *m = &c->mach[mi];
        /* Artifact: (t - t_min) / (k x largest distance), its (t - 1) / 40 on
         * a Minsky with distances 1 / 20. Paper: t over the machine's worst t. */
        /* The greedy t_min of a large machine may miss the best set. */
        terms->comm_min = artifact ? (m->tmin[k] < terms->comm ? m->tmin[k] : terms->comm) : 0;
        terms->comm_norm = artifact ? (int64_t)k * m->maxdist : m->tmax[k];
    } else {
        /* Across machines there is no enumerated t_min: the worst pair sets the scale. */
        terms->comm_norm = artifact ? (int64_t)k * maxd : (int64_t)k * (k - 1) / 2 * maxd;
    }
    if (terms->comm_norm <= 0)
        terms->comm_norm = 0;
    return PL_OK;
}

pl_status pl_pctx_evaluate(pl_pctx *c, const pl_job *job, pl_cand *cand, int *ok)
{
    *ok = 0;
    int32_t k = cand->k;
    char why[256];
    if (!distinct_gpus(c, cand->gpus, k) ||
        pl_pctx_constraint_violation(c, job, cand->gpus, k, pl_job_single_node(job), why, sizeof why))
        return PL_OK;
    int32_t n;
    pl_status st = pl_plan_build_tasks(c->work, job, NULL, cand->gpus, k, &c->plan, &c->capplan, &n);
    if (st)
        return st;
    if (!pl_plan_fits(c->work, c->plan, n, 0))
        return PL_OK;
    cand->machine = c->gpu_mach[cand->gpus[0]];
    for (int32_t i = 1; i < k; i++)
        if (c->gpu_mach[cand->gpus[i]] != cand->machine)
            cand->machine = -1;
    if (cand->machine >= 0 && (st = pl_pctx_machine_ready(c, cand->machine)))
        return st;
    pl_utility_terms terms;
    memset(&terms, 0, sizeof terms);
    terms.gpus = k;
    if ((st = comm_terms(c, job, cand, &terms)))
        return st;
    const pl_utility_opts *uo = &c->req->opts->utility;
    if ((st = pl_pctx_interference(c, job, k, cand->gpus, k, uo->form, &terms.interference,
                                   &terms.interference_worst, &cand->slowdown)))
        return st;
    int32_t *dom, nd;
    pl_arena_mark mark = pl_arena_save(&c->scratch);
    if (!(st = machines_gpus(c, cand->gpus, k, &dom, &nd)))
        st = pl_pctx_fragmentation(c, dom, nd, cand->gpus, k, &terms.fragmentation);
    pl_arena_release(&c->scratch, mark);
    if (st)
        return st;
    terms.fragmentation_worst = 1.0;
    if ((st = pl_utility(uo, &terms, &cand->utility)))
        return st;
    cand->comm = terms.comm;
    *ok = 1;
    return PL_OK;
}

pl_status pl_pctx_commit(pl_pctx *c, const pl_job *job, const pl_cand *cand)
{
    pl_plan_item *items;
    int32_t n;
    pl_status st = pl_plan_build(c->work, job, cand->gpus, cand->k, &items, &n);
    if (st)
        return st;
    st = pl_plan_alloc(c->work, items, n);
    for (int32_t i = 0; i < n; i++)
        pl_pctx_state_changed(c, items[i].v);
    free(items);
    if (!st)
        st = add_occupant(c, job, cand->gpus, cand->k);
    return st;
}

int pl_cand_better(const pl_cand *a, const pl_cand *b)
{
    return a->utility > b->utility + 1e-12;
}

void pl_cand_copy(pl_cand *dst, const pl_cand *src)
{
    memcpy(dst->gpus, src->gpus, (size_t)src->k * sizeof *dst->gpus);
    dst->k = src->k;
    dst->machine = src->machine;
    dst->utility = src->utility;
    dst->comm = src->comm;
    dst->slowdown = src->slowdown;
}

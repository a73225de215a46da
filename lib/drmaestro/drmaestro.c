/* DRMaestro: the multi-phase flow networks, kept across rounds and edited
 * in place, their costs (Eq. 6-8), solving, decoding and the gang rule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal/drm_impl.h"
#include "internal/columns.h"

/* ---- cost model ---------------------------------------------------------- */

double pl_drm_utility(double phi, double tau, double z)
{
    if (!(tau > 0))
        return NAN;
    double u = (tau - phi) / tau;
    return phi <= tau ? u : u * (10.0 - z) / 9.0;
}

double pl_drm_cost(double ut, double preference, double waited)
{
    return (1.0 - ut) * preference + waited;
}

double pl_drm_slowdown(const pl_drm_sensitivity *s, double load)
{
    if (!s || s->points <= 0)
        return 1.0;
    if (load <= s->load[0])
        return s->slowdown[0];
    for (int32_t i = 1; i < s->points; i++)
        if (load <= s->load[i]) {
            double f = (load - s->load[i - 1]) / (s->load[i] - s->load[i - 1]);
            return s->slowdown[i - 1] + f * (s->slowdown[i] - s->slowdown[i - 1]);
        }
    return s->slowdown[s->points - 1];
}

/* What the cost model needs of one request this round. */
typedef struct drm_jobcost {
    int64_t unsched;            /* Eq. 8 plus the base */
    int64_t place;              /* phase 1: Eq. 7 with local phi, P = 1 */
    int64_t local, rack, cross; /* phases 2-3 preference arcs */
    int remote_ok;              /* NA: remote placements meet the SLO (or postponed too long) */
} drm_jobcost;

static int64_t scaled(const pl_drm *d, double c)
{
    double v = c * (double)d->opts.cost_scale;
    if (v > 1e15)
        v = 1e15; /* far below the solver's n * |c| <= 2^60 limit for any realistic n */
    return (int64_t)llround(v);
}

/* Queue-order tie-break in cost units added to the unscheduled cost of the
 * request at position i of n: n - i, or that scaled below one cost unit of
 * Eq. 8 for queues as long as cost_scale, so one step of W always dominates. */
static int64_t queue_tie(const pl_drm *d, int32_t i, int32_t n)
{
    int64_t k = n - i;
    return n < d->opts.cost_scale ? k : k * (d->opts.cost_scale - 1) / n;
}

static void job_cost(const pl_drm *d, const pl_drm_job_request *r, int64_t waited,
                     int64_t postponed, double load, int64_t tie, drm_jobcost *c)
{
    const pl_drm_opts *o = &d->opts;
    double phi = r->phi > 0 ? r->phi : pl_job_duration(r->job);
    double tau = r->tau > 0 ? r->tau : (pl_job_slo(r->job) > 0 ? pl_job_slo(r->job) : o->tau);
    double z = r->z > 0 ? r->z : o->z;
    double sf = o->network_aware ? pl_drm_slowdown(&r->sensitivity, load) : 1.0;
    /* Unknown completion time: the thesis' neutral cost 1, i.e. Ut = 0. */
    double ut_l = phi > 0 ? pl_drm_utility(phi, tau, z) : 0.0;
    double ut_r = phi > 0 ? pl_drm_utility(phi * sf, tau, z) : 0.0;
    double p = o->remote_preference, pl, pr, px;
    if (o->locality == PL_DRM_LOCALITY_FIRST) {
        pl = 1.0, pr = p, px = 2 * p - 1;
    } else {
        pr = 1.0, px = p, pl = 2 * p - 1;
    }
    c->unsched = scaled(d, pl_drm_cost(ut_l, 1.0, (double)waited) + o->unscheduled_base) + tie;
    c->place = scaled(d, pl_drm_cost(ut_l, 1.0, 0));
    c->local = scaled(d, pl_drm_cost(ut_l, pl, 0));
    c->rack = scaled(d, pl_drm_cost(ut_r, pr, 0));
    c->cross = scaled(d, pl_drm_cost(ut_r, px, 0));
    c->remote_ok = !(o->network_aware && ut_r < 0 && postponed < o->max_postpone);
}

/* ---- options and life cycle ---------------------------------------------- */

void pl_drm_opts_init(pl_drm_opts *o)
{
    if (o)
        *o = (pl_drm_opts){.solver = "network-simplex", .cost_scale = 1000, .locality = PL_DRM_LOCALITY_FIRST,
                           .remote_preference = 1.5, .max_postpone = 10, .tau = 100.0, .z = 1.0,
                           .unscheduled_base = 1.0, .load_cost = 0.1};
}

/* A phase's arrays: per candidate provider (one more, so none is empty),
 * per topology vertex and per rack. */
static const pl_column prov_cols[] = {
    PL_COLUMN(drm_phase, prov_vertex),  PL_COLUMN(drm_phase, prov_node), PL_COLUMN(drm_phase, prov_in_arc),
    PL_COLUMN(drm_phase, prov_out_arc), PL_COLUMN(drm_phase, prov_rack),
};
static const pl_column vertex_cols[] = {PL_COLUMN(drm_phase, prov_of_vertex)};
static const pl_column rack_cols[] = {PL_COLUMN(drm_phase, rack_node), PL_COLUMN(drm_phase, rack_in_arc)};

static void phase_free(drm_phase *ph)
{
    pl_flownet_free(ph->net);
    pl_columns_free(ph, prov_cols, PL_NCOLUMNS(prov_cols));
    pl_columns_free(ph, vertex_cols, PL_NCOLUMNS(vertex_cols));
    pl_columns_free(ph, rack_cols, PL_NCOLUMNS(rack_cols));
    memset(ph, 0, sizeof *ph);
}

static void sub_free_direct(drm_sub *s)
{
    free(s->direct_arc);
    free(s->direct_prov);
    s->direct_arc = s->direct_prov = NULL;
    s->ndirect = 0;
}

static void jphase_free_subs(drm_jphase *jp)
{
    for (int32_t k = 0; jp->sub && k < jp->count; k++)
        sub_free_direct(&jp->sub[k]);
    free(jp->sub);
    jp->sub = NULL;
}

void drm_set_admit(pl_drm *d, drm_admit_fn fn, void *ctx)
{
    d->admit = fn;
    d->admit_ctx = ctx;
}

void drm_set_revise(pl_drm *d, drm_revise_fn fn, void *ctx)
{
    d->revise = fn;
    d->revise_ctx = ctx;
}

int drm_phase_now(const pl_drm *d)
{
    return d->phase_now;
}

static void entry_free_held(drm_entry *e)
{
    for (int p = 0; p < DRM_PHASES; p++) {
        free(e->held[p]);
        e->held[p] = NULL;
        e->nheld[p] = 0;
    }
}

static void entries_forget_nodes(pl_drm *d)
{
    for (int32_t i = 0; i < d->ne; i++)
        for (int p = 0; p < DRM_PHASES; p++) {
            jphase_free_subs(&d->e[i].ph[p]);
            d->e[i].ph[p].sub = NULL;
            d->e[i].ph[p].count = -1;
            d->e[i].ph[p].unode = d->e[i].ph[p].uarc = -1;
        }
}

pl_status pl_drm_create(const pl_drm_opts *opts, pl_drm **out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_drm_create: NULL out");
    *out = NULL;
    pl_drm_opts o;
    PL_OPTS_OR_DEFAULTS(o, opts, pl_drm_opts_init);
    if (!o.solver)
        o.solver = "network-simplex";
    if (o.cost_scale < 1 || !(o.remote_preference > 1) || !(o.z >= 1 && o.z <= 10) ||
        !(o.tau > 0) || o.max_postpone < 0 || !(o.unscheduled_base >= 0) || !(o.load_cost >= 0) ||
        (o.locality != PL_DRM_LOCALITY_FIRST && o.locality != PL_DRM_REMOTE_FIRST))
        return pl_err(PL_EINVAL, "pl_drm_create: bad options (cost_scale >= 1, remote_preference > 1, "
                      "z in [1, 10], tau > 0, max_postpone, unscheduled_base, load_cost >= 0)");
    const pl_solver_ops *ops;
    pl_status st = pl_solver_find(o.solver, &ops);
    if (st != PL_OK)
        return st;
    pl_drm *d = pl_alloc(1, sizeof *d);
    if (!d)
        return PL_ENOMEM;
    d->opts = o;
    d->nvert = -1;
    *out = d;
    return PL_OK;
}

/* The planner's own arrays: job entries, racks, machines. */
static const pl_column owned[] = {PL_COLUMN(pl_drm, e), PL_COLUMN(pl_drm, rack_vertex),
                                  PL_COLUMN(pl_drm, rack_of_vertex), PL_COLUMN(pl_drm, machines)};

void pl_drm_free(pl_drm *d)
{
    if (!d)
        return;
    for (int p = 0; p < DRM_PHASES; p++)
        phase_free(&d->ph[p]);
    entries_forget_nodes(d);
    for (int32_t i = 0; i < d->ne; i++)
        entry_free_held(&d->e[i]);
    pl_columns_free(d, owned, PL_NCOLUMNS(owned));
    drm_result_release(d);
    free(d);
}

int32_t pl_drm_result_count(const pl_drm *d)
{
    return d ? d->res.n : 0;
}

const pl_drm_placement *pl_drm_result(const pl_drm *d, int32_t i)
{
    return d && i >= 0 && i < d->res.n ? &d->res.pl[i] : NULL;
}

int drm_kept(const pl_drm *d, int64_t id, const pl_job *job)
{
    int32_t nt = pl_job_task_count(job), ng = 0;
    for (int32_t k = 0; k < nt; k++) {
        pl_task_demand dm;
        if (pl_job_task(job, k, &dm) == PL_OK)
            ng += (int32_t)dm.gpus;
    }
    for (int32_t i = 0; d && i < d->ne; i++)
        if (d->e[i].id == id)
            return d->e[i].held[DRM_CPU] && d->e[i].nheld[DRM_CPU] == nt && d->e[i].nheld[DRM_GPU] == ng;
    return 0;
}

int64_t pl_drm_waited(const pl_drm *d, int64_t id)
{
    for (int32_t i = 0; d && i < d->ne; i++)
        if (d->e[i].id == id)
            return d->e[i].waited;
    return 0;
}

/* ---- providers: who offers each phase's resource --------------------------- */

static int64_t count_kind(const pl_topology *topo, int32_t v, pl_vertex_kind kind)
{
    int32_t n = 0;
    return pl_topology_descendants(topo, v, (int)kind, NULL, 0, &n) == PL_OK ? n : 0;
}

static int offers(const pl_topology *topo, int phase, int32_t v)
{
    if (phase == DRM_CPU) {
        int64_t cap = 0;
        pl_topology_subtree_amount(topo, v, -1, PL_RES_CORES, &cap, NULL);
        return cap > 0;
    }
    return count_kind(topo, v, phase == DRM_GPU ? PL_VK_GPU : PL_VK_STORAGE) > 0;
}

static pl_status phase_build_base(pl_drm *d, const pl_topology *topo, int p)
{
    drm_phase *ph = &d->ph[p];
    int32_t nv = d->nvert, npools = 0, *pools = NULL;
    pl_status st = PL_OK;
    if (p != DRM_CPU) {
        int32_t n = 0;
        st = pl_topology_descendants(topo, -1, PL_VK_POOL, NULL, 0, &n);
        pools = pl_alloc((size_t)n + 1, sizeof *pools);
        if (!pools)
            return PL_ENOMEM;
        if (n)
            st = pl_topology_descendants(topo, -1, PL_VK_POOL, pools, n, &npools);
    }
    int32_t cand = d->nmachines + npools;
    if (pl_columns_alloc(ph, prov_cols, PL_NCOLUMNS(prov_cols), cand + 1) ||
        pl_columns_alloc(ph, vertex_cols, PL_NCOLUMNS(vertex_cols), nv + 1) ||
        pl_columns_alloc(ph, rack_cols, PL_NCOLUMNS(rack_cols), d->nracks + 1)) {
        free(pools);
        return PL_ENOMEM;
    }
    for (int32_t v = 0; v < nv; v++)
        ph->prov_of_vertex[v] = -1;
    for (int32_t i = 0; i < cand; i++) {
        int32_t v = i < d->nmachines ? d->machines[i] : pools[i - d->nmachines];
        if (offers(topo, p, v)) {
            ph->prov_of_vertex[v] = ph->nprov;
            ph->prov_rack[ph->nprov] = d->rack_of_vertex[v];
            ph->prov_vertex[ph->nprov++] = v;
        }
    }
    free(pools);
    if (st == PL_OK)
        st = pl_flownet_create(&ph->net);
    pl_flownet *net = ph->net;
    if (st == PL_OK)
        st = pl_flownet_add_node(net, "t", 0, &ph->sink);
    if (st == PL_OK)
        st = pl_flownet_add_node(net, "X", 0, &ph->x);
    ph->nracks = d->nracks;
    for (int32_t r = 0; r < d->nracks && st == PL_OK; r++) {
        st = pl_flownet_add_node(net, NULL, 0, &ph->rack_node[r]);
        if (st == PL_OK)
            st = pl_flownet_add_arc(net, ph->x, ph->rack_node[r], 0, PL_CAP_INF, 0, &ph->rack_in_arc[r]);
    }
    for (int32_t s = 0; s < ph->nprov && st == PL_OK; s++) {
        int32_t r = ph->prov_rack[s];
        st = pl_flownet_add_node(net, NULL, 0, &ph->prov_node[s]);
        if (st == PL_OK)
            st = pl_flownet_add_arc(net, r >= 0 ? ph->rack_node[r] : ph->x, ph->prov_node[s], 0,
                                    PL_CAP_INF, 0, &ph->prov_in_arc[s]);
        if (st == PL_OK)
            st = pl_flownet_add_arc(net, ph->prov_node[s], ph->sink, 0, 0, 0, &ph->prov_out_arc[s]);
    }
    return st;
}

/* Unit sizes of a round: a phase-1 slot is the batch's largest task, a
 * phase-3 slot its largest share, so any task (share) fits in any slot and
 * a server never receives more than it can hold. */
typedef struct drm_units {
    int64_t cores, memory;     /* phase 1 */
    int64_t bw, bytes;         /* phase 3 */
    int64_t total[DRM_PHASES]; /* sub-tasks of the batch per phase (caps the slot counts) */
    int slots;                 /* the slot form; else Eq. 10's normalised units: */
    double max[2];             /* the largest provider's capacity of the phase's two resources */
} drm_units;

/* Eq. 5/10: an amount of one resource in units of the largest provider's
 * capacity of it, DRM_NORM units for the whole of that provider. */
#define DRM_NORM 1000

static int64_t norm_units(double amount, double max)
{
    return amount > 0 && max > 0 ? llround(DRM_NORM * amount / max) : 0;
}

/* The resources a phase normalises: cores and memory (phase 1), storage
 * bandwidth and bytes (phase 3). */
static const pl_resource norm_res[DRM_PHASES][2] = {
    { PL_RES_CORES, PL_RES_MEMORY }, { PL_RES_UNITS, PL_RES_UNITS }, { PL_RES_BANDWIDTH, PL_RES_STORAGE } };

/* Flow units of one sub-task: 1 in the slot form and in the GPU phase
 * (one resource, one unit each: Eq. 10 up to a constant factor), else
 * b_i = sum over the phase's resources of amount / largest provider's. */
static int64_t sub_units(const drm_units *u, int p, const pl_drm_job_request *r, int32_t task)
{
    if (u->slots || p == DRM_GPU)
        return 1;
    double a[2] = { (double)r->nvme_bw_bytes_per_s, (double)r->nvme_bytes };
    if (p == DRM_CPU) {
        pl_task_demand dm;
        pl_job_task(r->job, task, &dm);
        a[0] = (double)dm.cores;
        a[1] = (double)dm.memory;
    }
    int64_t b = norm_units(a[0], u->max[0]) + norm_units(a[1], u->max[1]);
    return b > 0 ? b : 1; /* a sub-task always carries flow */
}

/* The largest capacity of each normalised resource over the phase's providers. */
static void phase_maxima(const pl_topology *topo, const drm_phase *ph, int p, drm_units *u)
{
    u->max[0] = u->max[1] = 0;
    int kind = p == DRM_NVME ? PL_VK_STORAGE : -1;
    for (int32_t s = 0; s < ph->nprov && p != DRM_GPU; s++)
        for (int r = 0; r < 2; r++) {
            int64_t cap = 0;
            pl_topology_subtree_amount(topo, ph->prov_vertex[s], kind, norm_res[p][r], &cap, NULL);
            u->max[r] = (double)cap > u->max[r] ? (double)cap : u->max[r];
        }
}

static int64_t slots(int64_t free_amount, int64_t unit)
{
    if (free_amount <= 0)
        return 0;
    return unit > 0 ? free_amount / unit : INT64_MAX;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static pl_status provider_units(const pl_topology *topo, int p, int32_t v, const drm_units *u,
                                int64_t *units, double *used)
{
    int64_t cap = 0, fr = 0;
    pl_status st;
    if (!u->slots && p != DRM_GPU) {
        int64_t f2 = 0;
        int kind = p == DRM_NVME ? PL_VK_STORAGE : -1;
        st = pl_topology_subtree_amount(topo, v, kind, norm_res[p][0], &cap, &fr);
        if (st == PL_OK)
            st = pl_topology_subtree_amount(topo, v, kind, norm_res[p][1], NULL, &f2);
        *units = norm_units((double)fr, u->max[0]) + norm_units((double)f2, u->max[1]);
        /* Shares asking for nothing normalisable (no bandwidth or bytes
         * declared anywhere): one unit each, as many as the batch has. */
        if (u->max[0] <= 0 && u->max[1] <= 0)
            *units = u->total[p];
        *used = cap > 0 ? (double)(cap - fr) / (double)cap : 0.0;
        return st;
    }
    if (p == DRM_CPU) {
        int64_t mcap = 0, mfree = 0;
        st = pl_topology_subtree_amount(topo, v, -1, PL_RES_CORES, &cap, &fr);
        if (st == PL_OK)
            st = pl_topology_subtree_amount(topo, v, -1, PL_RES_MEMORY, &mcap, &mfree);
        *units = min64(slots(fr, u->cores), slots(mfree, u->memory));
    } else if (p == DRM_GPU) {
        st = pl_topology_subtree_amount(topo, v, PL_VK_GPU, PL_RES_UNITS, &cap, &fr);
        *units = fr;
    } else {
        int32_t n = 0, *vs = NULL;
        st = pl_topology_subtree_amount(topo, v, PL_VK_STORAGE, PL_RES_BANDWIDTH, &cap, &fr);
        if (st == PL_OK)
            st = pl_topology_descendants(topo, v, PL_VK_STORAGE, NULL, 0, &n);
        if (st == PL_OK && !(vs = pl_alloc((size_t)n + 1, sizeof *vs)))
            st = PL_ENOMEM;
        if (st == PL_OK && n)
            st = pl_topology_descendants(topo, v, PL_VK_STORAGE, vs, n, &n);
        int64_t sum = 0;
        for (int32_t i = 0; i < n && st == PL_OK; i++) {
            int64_t fbw = 0, fby = 0;
            pl_topology_amount(topo, vs[i], PL_RES_BANDWIDTH, NULL, NULL, &fbw);
            pl_topology_amount(topo, vs[i], PL_RES_STORAGE, NULL, NULL, &fby);
            int64_t k = min64(slots(fbw, u->bw), slots(fby, u->bytes));
            /* A device with neither resource declared still holds one share per unit. */
            if (u->bw <= 0 && u->bytes <= 0)
                k = INT64_MAX;
            sum = k > INT64_MAX - sum ? INT64_MAX : sum + k;
        }
        free(vs);
        *units = sum;
    }
    *units = min64(*units, u->total[p]);
    *used = cap > 0 ? (double)(cap - fr) / (double)cap : 0.0;
    return st;
}

/* Set an arc's capacity, leaving it untouched (and the warm start armed)
 * when it does not change. */
static pl_status set_upper(pl_flownet *net, int32_t arc, int64_t upper)
{
    pl_arc_info a;
    if (pl_flownet_get_arc(net, arc, &a) == PL_OK && a.lower == 0 && a.upper == upper)
        return PL_OK;
    return pl_flownet_set_arc_bounds(net, arc, 0, upper);
}

/* pinned[s]: units of running sub-tasks held by provider s (Algorithm 5
 * keeps them in the network): their flow crosses SN -> t too, so the arc
 * carries the free units plus theirs, and the queued sub-tasks still see
 * exactly the free units. */
static pl_status phase_update_providers(pl_drm *d, const pl_topology *topo, int p,
                                        const drm_units *u, const int64_t *pinned)
{
    drm_phase *ph = &d->ph[p];
    pl_status st = PL_OK;
    for (int32_t s = 0; s < ph->nprov && st == PL_OK; s++) {
        int64_t units = 0;
        double used = 0;
        st = provider_units(topo, p, ph->prov_vertex[s], u, &units, &used);
        if (st == PL_OK)
            st = set_upper(ph->net, ph->prov_out_arc[s], units + pinned[s]);
        if (st == PL_OK)
            st = pl_flownet_set_arc_cost(ph->net, ph->prov_out_arc[s],
                                         scaled(d, d->opts.load_cost * used));
    }
    return st;
}

/* ---- per-job nodes ------------------------------------------------------------ */

static void jphase_remove(drm_phase *ph, drm_jphase *jp)
{
    if (jp->count < 0)
        return;
    for (int32_t i = 0; i < jp->count; i++)
        pl_flownet_remove_node(ph->net, jp->sub[i].node);
    if (jp->unode >= 0)
        pl_flownet_remove_node(ph->net, jp->unode);
    jphase_free_subs(jp);
    jp->count = -1;
    jp->unode = jp->uarc = -1;
}

/* Sub-task i of request r in phase p belongs to which task. */
static pl_status sub_tasks(const pl_drm_job_request *r, int p, int32_t **task_of, int32_t *count)
{
    int32_t nt = pl_job_task_count(r->job), n = 0;
    if (p == DRM_CPU)
        n = nt;
    else if (p == DRM_NVME)
        n = r->nvme_shares;
    else
        for (int32_t k = 0; k < nt; k++) {
            pl_task_demand dm;
            pl_job_task(r->job, k, &dm);
            if (dm.gpus > INT32_MAX - n)
                return pl_err(PL_EINVAL, "drmaestro: job %lld asks for too many GPUs", (long long)r->id);
            n += (int32_t)dm.gpus;
        }
    int32_t *t = pl_alloc((size_t)n + 1, sizeof *t);
    if (!t)
        return PL_ENOMEM;
    int32_t i = 0;
    if (p == DRM_GPU)
        for (int32_t k = 0; k < nt; k++) {
            pl_task_demand dm;
            pl_job_task(r->job, k, &dm);
            for (int64_t g = 0; g < dm.gpus; g++)
                t[i++] = k;
        }
    else
        for (; i < n; i++)
            t[i] = p == DRM_CPU ? i : 0;
    *task_of = t;
    *count = n;
    return PL_OK;
}

static pl_status jphase_build(drm_phase *ph, drm_jphase *jp, const int32_t *task_of, int32_t n)
{
    jp->sub = pl_alloc((size_t)n + 1, sizeof *jp->sub);
    if (!jp->sub)
        return PL_ENOMEM;
    jp->count = n;
    if (n == 0)
        return PL_OK;
    pl_flownet *net = ph->net;
    pl_status st = pl_flownet_add_node(net, NULL, 0, &jp->unode);
    if (st == PL_OK)
        st = pl_flownet_add_arc(net, jp->unode, ph->sink, 0, n, 0, &jp->uarc);
    for (int32_t i = 0; i < n && st == PL_OK; i++) {
        drm_sub *s = &jp->sub[i];
        s->task = task_of[i];
        s->arc_rack = s->arc_local = s->home = s->server = s->pin_arc = s->pin_server = -1;
        s->units = 1;
        st = pl_flownet_add_node(net, NULL, 0, &s->node);
        if (st == PL_OK)
            st = pl_flownet_add_arc(net, s->node, jp->unode, 0, 1, 0, &s->arc_u);
        if (st == PL_OK)
            st = pl_flownet_add_arc(net, s->node, ph->x, 0, 1, 0, &s->arc_x);
    }
    return st;
}

static pl_status jphase_ensure(pl_drm *d, int p, drm_entry *e, const pl_drm_job_request *r)
{
    int32_t *task_of = NULL, n = 0;
    pl_status st = sub_tasks(r, p, &task_of, &n);
    if (st != PL_OK)
        return st;
    drm_jphase *jp = &e->ph[p];
    int same = jp->count == n;
    for (int32_t i = 0; same && i < n; i++)
        same = jp->sub[i].task == task_of[i];
    if (!same) {
        jphase_remove(&d->ph[p], jp);
        st = jphase_build(&d->ph[p], jp, task_of, n);
    }
    free(task_of);
    return st;
}

/* Point a sub-task's preference arcs at its home machine (phases 2-3). */
static pl_status sub_set_home(pl_drm *d, drm_phase *ph, drm_sub *s, int32_t home)
{
    if (s->home == home)
        return PL_OK;
    pl_status st = PL_OK;
    if (s->arc_local >= 0)
        st = pl_flownet_remove_arc(ph->net, s->arc_local);
    if (st == PL_OK && s->arc_rack >= 0)
        st = pl_flownet_remove_arc(ph->net, s->arc_rack);
    s->arc_local = s->arc_rack = -1;
    s->home = home;
    int32_t prov = ph->prov_of_vertex[home], rack = d->rack_of_vertex[home];
    if (st == PL_OK && prov >= 0)
        st = pl_flownet_add_arc(ph->net, s->node, ph->prov_node[prov], 0, 1, 0, &s->arc_local);
    if (st == PL_OK && rack >= 0)
        st = pl_flownet_add_arc(ph->net, s->node, ph->rack_node[rack], 0, 1, 0, &s->arc_rack);
    return st;
}

/* Costs are per unit of flow (Eq. 6 sums c_ij f_ij), so a sub-task of b_i
 * units pays b_i times Eq. 7/8; every arc it leaves by carries its b_i. */
static pl_status sub_set_costs(drm_phase *ph, int p, drm_sub *s, const drm_jobcost *c)
{
    pl_flownet *net = ph->net;
    pl_status st = pl_flownet_set_arc_cost(net, s->arc_u, c->unsched);
    int64_t remote_cap = p == DRM_CPU || c->remote_ok ? s->units : 0;
    if (st == PL_OK)
        st = set_upper(net, s->arc_u, s->units);
    if (st == PL_OK)
        st = pl_flownet_set_arc_cost(net, s->arc_x, p == DRM_CPU ? c->place : c->cross);
    if (st == PL_OK)
        st = set_upper(net, s->arc_x, remote_cap);
    if (st == PL_OK && s->arc_rack >= 0)
        st = pl_flownet_set_arc_cost(net, s->arc_rack, c->rack);
    if (st == PL_OK && s->arc_rack >= 0)
        st = set_upper(net, s->arc_rack, remote_cap);
    if (st == PL_OK && s->arc_local >= 0)
        st = pl_flownet_set_arc_cost(net, s->arc_local, c->local);
    if (st == PL_OK && s->arc_local >= 0 && !s->restricted)
        st = set_upper(net, s->arc_local, s->units);
    return st;
}

/* A running sub-task (Algorithm 5: kept until its job completes): every
 * route closed but one arc to the provider it was placed on, carrying its
 * b_i, so its flow is pinned there by conservation (no preemption). The
 * arc costs nothing: the pinned flow adds a constant to the optimum. */
static pl_status sub_pin(drm_phase *ph, drm_sub *s, int32_t server)
{
    pl_flownet *net = ph->net;
    int32_t prov = ph->prov_of_vertex[server];
    if (prov < 0)
        return pl_err(PL_EINTERNAL, "drmaestro: a running sub-task's server %d offers nothing", server);
    pl_status st = PL_OK;
    int32_t close[4] = { s->arc_u, s->arc_x, s->arc_rack, s->arc_local };
    for (int i = 0; i < 4 && st == PL_OK; i++)
        if (close[i] >= 0)
            st = set_upper(net, close[i], 0);
    if (st == PL_OK && s->pin_arc >= 0 && s->pin_server != server) {
        st = pl_flownet_remove_arc(net, s->pin_arc);
        s->pin_arc = -1;
    }
    if (st == PL_OK && s->pin_arc < 0)
        st = pl_flownet_add_arc(net, s->node, ph->prov_node[prov], 0, s->units, 0, &s->pin_arc);
    else if (st == PL_OK)
        st = set_upper(net, s->pin_arc, s->units);
    s->pin_server = server;
    s->server = server;
    return st;
}

static pl_status sub_unpin(drm_phase *ph, drm_sub *s)
{
    if (s->pin_arc < 0)
        return PL_OK;
    pl_status st = pl_flownet_remove_arc(ph->net, s->pin_arc);
    s->pin_arc = s->pin_server = -1;
    return st;
}

/* Undo an earlier round's restriction: remove the direct arcs and reopen
 * the local arc (sub_set_costs reopens the X and RN routes). Untouched
 * sub-tasks cost nothing, so an unfiltered handle keeps its warm starts. */
static pl_status sub_unrestrict(drm_phase *ph, drm_sub *s)
{
    if (!s->restricted)
        return PL_OK;
    pl_status st = PL_OK;
    for (int32_t i = 0; i < s->ndirect && st == PL_OK; i++)
        st = pl_flownet_remove_arc(ph->net, s->direct_arc[i]);
    sub_free_direct(s);
    s->restricted = 0;
    if (st == PL_OK && s->arc_local >= 0)
        st = set_upper(ph->net, s->arc_local, s->units);
    return st;
}

/* Apply drm_set_admit's filter to sub-task s of request req: when some
 * provider refuses it, close its routes through X and RN (which reach every
 * provider), keep the local arc only to an admitting home, and add one arc
 * to each other admitting provider, costed as the route it replaces (phase
 * 1: placement; later phases: same rack or cross rack from the home). */
static pl_status sub_restrict(pl_drm *d, drm_phase *ph, int p, drm_sub *s, int32_t req,
                              const drm_jobcost *c)
{
    pl_status st = sub_unrestrict(ph, s);
    if (st != PL_OK || !d->admit)
        return st;
    uint8_t *ok = pl_alloc((size_t)ph->nprov + 1, 1);
    if (!ok)
        return PL_ENOMEM;
    int32_t nok = 0;
    for (int32_t q = 0; q < ph->nprov; q++)
        nok += ok[q] = (uint8_t)(d->admit(d->admit_ctx, req, s->task, ph->prov_vertex[q]) != 0);
    /* Phase 1 only steers the task's home (its CPU and memory): when no
     * machine offering cores admits it, any home will do, and the GPU phase,
     * whose provider is the machine the constraint is about, enforces it. */
    if (nok == ph->nprov || (p == DRM_CPU && nok == 0)) {
        free(ok);
        return PL_OK;
    }
    int32_t home = p == DRM_CPU ? -1 : s->home;
    int32_t home_prov = home >= 0 ? ph->prov_of_vertex[home] : -1;
    int32_t home_rack = home >= 0 ? d->rack_of_vertex[home] : -1;
    int64_t remote_cap = p == DRM_CPU || c->remote_ok ? s->units : 0;
    s->restricted = 1;
    st = pl_flownet_set_arc_bounds(ph->net, s->arc_x, 0, 0);
    if (st == PL_OK && s->arc_rack >= 0)
        st = pl_flownet_set_arc_bounds(ph->net, s->arc_rack, 0, 0);
    if (st == PL_OK && s->arc_local >= 0 && !(home_prov >= 0 && ok[home_prov]))
        st = pl_flownet_set_arc_bounds(ph->net, s->arc_local, 0, 0);
    if (st == PL_OK && nok > 0 && (!(s->direct_arc = pl_alloc((size_t)nok, sizeof *s->direct_arc)) ||
                                   !(s->direct_prov = pl_alloc((size_t)nok, sizeof *s->direct_prov))))
        st = PL_ENOMEM;
    for (int32_t q = 0; q < ph->nprov && st == PL_OK; q++) {
        if (!ok[q] || (q == home_prov && s->arc_local >= 0))
            continue;
        int64_t cost = p == DRM_CPU ? c->place
                       : home_rack >= 0 && ph->prov_rack[q] == home_rack ? c->rack : c->cross;
        int32_t arc;
        st = pl_flownet_add_arc(ph->net, s->node, ph->prov_node[q], 0, remote_cap, cost, &arc);
        if (st == PL_OK) {
            s->direct_arc[s->ndirect] = arc;
            s->direct_prov[s->ndirect++] = q;
        }
    }
    free(ok);
    return st;
}

/* ---- decoding ----------------------------------------------------------------- */

static int64_t flow_of(const pl_flownet *net, int32_t arc)
{
    int64_t f = 0;
    if (arc < 0 || pl_flownet_get_flow(net, arc, &f) != PL_OK)
        return 0;
    return f;
}

typedef struct drm_queue {
    drm_sub **item;
    int32_t *next;
    int32_t *head, *tail;  /* [nracks + 1]: racks, then X */
    int32_t n;
} drm_queue;

/* FIFO lists, so that sub-tasks are dealt to servers in job-table order. */
static void q_push(drm_queue *q, int32_t list, drm_sub *s)
{
    q->item[q->n] = s;
    q->next[q->n] = -1;
    if (q->tail[list] >= 0)
        q->next[q->tail[list]] = q->n;
    else
        q->head[list] = q->n;
    q->tail[list] = q->n++;
}

static drm_sub *q_pop(drm_queue *q, int32_t list)
{
    int32_t i = q->head[list];
    if (i < 0)
        return NULL;
    q->head[list] = q->next[i];
    if (q->head[list] < 0)
        q->tail[list] = -1;
    return q->item[i];
}

/* Units entering RN and X are interchangeable (every arc after them costs the
 * same for all), so the flow on each RN/X -> SN arc is dealt out in any order. */
static pl_status decode_phase(pl_drm *d, int p, const uint8_t *active, int32_t nactive_subs)
{
    drm_phase *ph = &d->ph[p];
    drm_queue q;
    /* A unit routed X -> RN is queued twice: at X, then at its rack. */
    q.item = pl_alloc(2 * (size_t)nactive_subs + 1, sizeof *q.item);
    q.next = pl_alloc(2 * (size_t)nactive_subs + 1, sizeof *q.next);
    q.head = pl_alloc((size_t)ph->nracks + 2, sizeof *q.head);
    q.tail = pl_alloc((size_t)ph->nracks + 2, sizeof *q.tail);
    q.n = 0;
    pl_status st = PL_OK;
    if (!q.item || !q.next || !q.head || !q.tail) {
        st = PL_ENOMEM;
        goto out;
    }
    int32_t xl = ph->nracks;
    for (int32_t r = 0; r <= xl; r++)
        q.head[r] = q.tail[r] = -1;
    for (int32_t i = 0; i < d->ne; i++) {
        drm_jphase *jp = &d->e[i].ph[p];
        for (int32_t k = 0; active[i] && k < jp->count; k++) {
            drm_sub *s = &jp->sub[k];
            s->server = -1;
            for (int32_t q = 0; q < s->ndirect && s->server < 0; q++)
                if (flow_of(ph->net, s->direct_arc[q]) > 0)
                    s->server = ph->prov_vertex[s->direct_prov[q]];
            if (s->server >= 0)
                continue;
            if (flow_of(ph->net, s->arc_local) > 0)
                s->server = s->home;
            else if (flow_of(ph->net, s->arc_rack) > 0)
                q_push(&q, d->rack_of_vertex[s->home], s);
            else if (flow_of(ph->net, s->arc_x) > 0)
                q_push(&q, xl, s);
        }
    }
    for (int32_t r = 0; r < ph->nracks && st == PL_OK; r++)
        for (int64_t f = flow_of(ph->net, ph->rack_in_arc[r]); f > 0; f--) {
            drm_sub *s = q_pop(&q, xl);
            if (!s) {
                st = pl_err(PL_EINTERNAL, "drmaestro: flow through X does not add up");
                break;
            }
            q_push(&q, r, s);
        }
    for (int32_t v = 0; v < ph->nprov && st == PL_OK; v++) {
        int32_t list = ph->prov_rack[v] >= 0 ? ph->prov_rack[v] : xl;
        for (int64_t f = flow_of(ph->net, ph->prov_in_arc[v]); f > 0; f--) {
            drm_sub *s = q_pop(&q, list);
            if (!s) {
                st = pl_err(PL_EINTERNAL, "drmaestro: flow into a server does not add up");
                break;
            }
            s->server = ph->prov_vertex[v];
        }
    }
out:
    free(q.item);
    free(q.next);
    free(q.head);
    free(q.tail);
    return st;
}

/* Eq. 10's flows (phases 1 and 3 outside the slot form) are not one unit
 * per sub-task: a sub-task's b_i units may split over servers, or part of
 * them stay unscheduled, and the sum of normalised amounts does not make
 * each resource fit. So a sub-task is placed only when none of its units is
 * unscheduled, on the server its local or direct arc feeds, or else, as it
 * was routed, on the first server (preorder) of its home's rack or of the
 * cluster that still has flow from the aggregators left; and only where its
 * demand really fits after the earlier sub-tasks' (else it stays
 * unscheduled: the gang rule then holds its job back this round). */
static int units_fit(const pl_topology *topo, int p, drm_taken *scratch, int64_t *used, int32_t prov,
                     int32_t server, const pl_drm_job_request *r, int32_t task)
{
    if (p == DRM_NVME)
        return drm_pick_nvme(topo, scratch, server, r->nvme_bw_bytes_per_s, r->nvme_bytes) >= 0;
    pl_task_demand dm;
    int64_t fc = 0, fm = 0;
    pl_job_task(r->job, task, &dm);
    pl_topology_subtree_amount(topo, server, -1, PL_RES_CORES, NULL, &fc);
    pl_topology_subtree_amount(topo, server, -1, PL_RES_MEMORY, NULL, &fm);
    if (fc - used[2 * prov] < dm.cores || fm - used[2 * prov + 1] < dm.memory)
        return 0;
    used[2 * prov] += dm.cores;
    used[2 * prov + 1] += dm.memory;
    return 1;
}

static pl_status decode_units(pl_drm *d, const pl_topology *topo, int p, const pl_drm_job_request *reqs,
                              const uint8_t *active)
{
    drm_phase *ph = &d->ph[p];
    int64_t *budget = pl_alloc((size_t)ph->nprov + 1, sizeof *budget);
    int64_t *used = pl_alloc(2 * (size_t)ph->nprov + 1, sizeof *used);
    drm_taken scratch = { pl_alloc((size_t)d->nvert * PL_RES_COUNT + 1, sizeof(int64_t)) };
    pl_status st = budget && used && scratch.amt ? PL_OK : PL_ENOMEM;
    for (int32_t v = 0; v < ph->nprov && st == PL_OK; v++)
        budget[v] = flow_of(ph->net, ph->prov_in_arc[v]);
    for (int32_t i = 0; i < d->ne && st == PL_OK; i++) {
        const pl_drm_job_request *r = &reqs[d->e[i].req];
        drm_jphase *jp = &d->e[i].ph[p];
        for (int32_t k = 0; active[i] && k < jp->count; k++) {
            drm_sub *s = &jp->sub[k];
            s->server = -1;
            if (flow_of(ph->net, s->arc_u) > 0)
                continue;
            int32_t hp = s->home >= 0 ? ph->prov_of_vertex[s->home] : -1;
            if (flow_of(ph->net, s->arc_local) > 0 && hp >= 0 &&
                units_fit(topo, p, &scratch, used, hp, s->home, r, s->task)) {
                s->server = s->home;
                continue;
            }
            for (int32_t q = 0; q < s->ndirect && s->server < 0; q++) {
                int32_t v = s->direct_prov[q];
                if (flow_of(ph->net, s->direct_arc[q]) > 0 &&
                    units_fit(topo, p, &scratch, used, v, ph->prov_vertex[v], r, s->task))
                    s->server = ph->prov_vertex[v];
            }
            /* Second pass (any > 0), for units through the aggregators only,
             * where the flow never named the server: it scheduled the
             * sub-task but promised room that is not there, so any server of
             * the same routes where it does fit serves (the repair). A
             * sub-task sent to a named server (local or direct arc) without
             * room waits. */
            for (int any = 0; any < 2 && s->server < 0; any++) {
                int via_x = flow_of(ph->net, s->arc_x) > 0, via_rack = flow_of(ph->net, s->arc_rack) > 0;
                int32_t rack = s->home >= 0 ? d->rack_of_vertex[s->home] : -1;
                for (int32_t v = 0; v < ph->nprov && s->server < 0 && (via_x || via_rack); v++)
                    if ((any || budget[v] > 0) && (via_x || ph->prov_rack[v] == rack) &&
                        units_fit(topo, p, &scratch, used, v, ph->prov_vertex[v], r, s->task)) {
                        s->server = ph->prov_vertex[v];
                        budget[v] -= s->units;
                    }
            }
        }
    }
    free(budget);
    free(used);
    free(scratch.amt);
    return st;
}

/* ---- one round ------------------------------------------------------------------- */

static void drop_absent_entries(pl_drm *d)
{
    int32_t w = 0;
    for (int32_t i = 0; i < d->ne; i++) {
        if (d->e[i].req < 0) {
            for (int p = 0; p < DRM_PHASES; p++)
                if (d->ph[p].net)
                    jphase_remove(&d->ph[p], &d->e[i].ph[p]);
                else
                    jphase_free_subs(&d->e[i].ph[p]);
            entry_free_held(&d->e[i]);
            continue;
        }
        d->e[w++] = d->e[i];
    }
    d->ne = w;
}

pl_status drm_bind_requests(pl_drm *d, const pl_drm_job_request *reqs, int32_t n)
{
    for (int32_t i = 0; i < d->ne; i++)
        d->e[i].req = -1;
    for (int32_t i = 0; i < n; i++) {
        int32_t k;
        if (reqs[i].running && d->opts.drop_running)
            continue; /* dropped as when placed (the form before issue 23) */
        pl_status st = drm_entry_get(d, reqs[i].id, &k);
        if (st != PL_OK)
            return st;
        d->e[k].req = i;
        d->e[k].running = reqs[i].running != 0;
        if (d->e[k].running && !d->e[k].held[DRM_CPU])
            return pl_err(PL_EINVAL, "drmaestro: running request %lld was never placed by this handle",
                          (long long)reqs[i].id);
    }
    drop_absent_entries(d);
    return PL_OK;
}

/* Largest free cores and memory of any machine: a task beyond them can
 * never be placed, and must not set the slot size for the others. */
static void machine_max_free(const pl_drm *d, const pl_topology *topo, int64_t *cores,
                             int64_t *memory)
{
    *cores = *memory = 0;
    for (int32_t m = 0; m < d->nmachines; m++) {
        int64_t fc = 0, fm = 0;
        pl_topology_subtree_amount(topo, d->machines[m], -1, PL_RES_CORES, NULL, &fc);
        pl_topology_subtree_amount(topo, d->machines[m], -1, PL_RES_MEMORY, NULL, &fm);
        *cores = fc > *cores ? fc : *cores;
        *memory = fm > *memory ? fm : *memory;
    }
}

static int job_fits_somewhere(const pl_drm_job_request *r, int64_t cores, int64_t memory)
{
    int32_t nt = pl_job_task_count(r->job);
    for (int32_t k = 0; k < nt; k++) {
        pl_task_demand dm;
        pl_job_task(r->job, k, &dm);
        if (dm.cores > cores || dm.memory > memory)
            return 0;
    }
    return 1;
}

/* Unit sizes over the jobs still active (those that can fit somewhere). */
static void batch_units(const pl_drm *d, const pl_drm_job_request *reqs, const uint8_t *active,
                        drm_units *u)
{
    memset(u, 0, sizeof *u);
    for (int32_t i = 0; i < d->ne; i++) {
        if (!active[i])
            continue;
        const pl_drm_job_request *r = &reqs[d->e[i].req];
        int32_t nt = pl_job_task_count(r->job);
        for (int32_t k = 0; k < nt; k++) {
            pl_task_demand dm;
            pl_job_task(r->job, k, &dm);
            u->cores = dm.cores > u->cores ? dm.cores : u->cores;
            u->memory = dm.memory > u->memory ? dm.memory : u->memory;
            u->total[DRM_CPU]++;
            u->total[DRM_GPU] += dm.gpus;
        }
        if (r->nvme_shares > 0) {
            u->total[DRM_NVME] += r->nvme_shares;
            if (r->nvme_bw_bytes_per_s > u->bw)
                u->bw = r->nvme_bw_bytes_per_s;
            if (r->nvme_bytes > u->bytes)
                u->bytes = r->nvme_bytes;
        }
    }
}

/* Home machine of sub-task s in phase p (>= 1): its task's phase-1 machine. */
static int32_t home_of(const drm_entry *e, const drm_sub *s)
{
    return e->ph[DRM_CPU].sub[s->task].server;
}

static pl_status run_phase(pl_drm *d, const pl_topology *topo, int p, const pl_drm_job_request *reqs,
                           const drm_units *u, const drm_jobcost *costs, uint8_t *active,
                           pl_drm_stats *stats)
{
    double t0 = pl_now();
    pl_status st = PL_OK;
    drm_phase *ph = &d->ph[p];
    drm_units nu = *u;
    d->phase_now = p;
    if (!ph->net)
        st = phase_build_base(d, topo, p);
    if (st == PL_OK)
        phase_maxima(topo, ph, p, &nu);
    /* Every job's nodes and b_i first: the running ones' units on their
     * providers set the providers' capacities. */
    int64_t *pinned = pl_alloc((size_t)ph->nprov + 1, sizeof *pinned);
    if (!pinned && st == PL_OK)
        st = PL_ENOMEM;
    for (int32_t i = 0; i < d->ne && st == PL_OK; i++) {
        drm_entry *e = &d->e[i];
        const pl_drm_job_request *r = &reqs[e->req];
        st = jphase_ensure(d, p, e, r);
        drm_jphase *jp = &e->ph[p];
        if (st == PL_OK && e->running && e->nheld[p] != jp->count)
            st = pl_err(PL_EINVAL, "drmaestro: running request %lld changed its tasks", (long long)e->id);
        for (int32_t k = 0; k < jp->count && st == PL_OK; k++) {
            drm_sub *s = &jp->sub[k];
            s->units = sub_units(&nu, p, r, s->task);
            int32_t prov = e->running ? ph->prov_of_vertex[e->held[p][k]] : -1;
            if (prov >= 0)
                pinned[prov] += s->units;
        }
    }
    if (st == PL_OK)
        st = phase_update_providers(d, topo, p, &nu, pinned);
    free(pinned);
    int64_t supply = 0, nsubs = 0;
    for (int32_t i = 0; i < d->ne && st == PL_OK; i++) {
        drm_entry *e = &d->e[i];
        drm_jphase *jp = &e->ph[p];
        if (jp->count == 0)
            active[i] = 0;
        int64_t job_units = 0;
        for (int32_t k = 0; k < jp->count && st == PL_OK; k++) {
            drm_sub *s = &jp->sub[k];
            s->server = -1;
            int live = active[i] || e->running;
            if (active[i] && p != DRM_CPU)
                st = sub_set_home(d, ph, s, home_of(e, s));
            if (st == PL_OK && active[i])
                st = sub_set_costs(ph, p, s, &costs[i]);
            if (st == PL_OK)
                st = active[i] ? sub_restrict(d, ph, p, s, e->req, &costs[i]) : sub_unrestrict(ph, s);
            if (st == PL_OK)
                st = e->running ? sub_pin(ph, s, e->held[p][k]) : sub_unpin(ph, s);
            if (st == PL_OK)
                st = pl_flownet_set_supply(ph->net, s->node, live ? s->units : 0);
            supply += live ? s->units : 0;
            nsubs += active[i];
            job_units += s->units;
        }
        if (st == PL_OK && jp->count > 0)
            st = set_upper(ph->net, jp->uarc, job_units);
    }
    if (st == PL_OK)
        st = pl_flownet_set_supply(ph->net, ph->sink, -supply);
    double t1 = pl_now();
    if (stats) {
        stats->build_seconds += t1 - t0;
        stats->arcs[p] = pl_flownet_arc_count(ph->net);
    }
    if (st != PL_OK || nsubs == 0)
        return st;
    pl_solve_opts so;
    pl_solve_opts_init(&so);
    so.solver = d->opts.solver;
    so.cold_start = d->opts.cold_start;
    pl_solve_stats ss;
    st = pl_flownet_solve(ph->net, &so, &ss);
    if (stats) {
        stats->solve_seconds += pl_now() - t1;
        stats->warm[p] = ss.warm;
        if (st == PL_OK)
            pl_flownet_solution_cost(ph->net, &stats->cost[p]);
    }
    if (st == PL_OK && !nu.slots && p != DRM_GPU)
        st = decode_units(d, topo, p, reqs, active);
    else if (st == PL_OK)
        st = decode_phase(d, p, active, (int32_t)nsubs);
    return st;
}

static int phase_placed(const drm_entry *e, int p)
{
    for (int32_t k = 0; k < e->ph[p].count; k++)
        if (e->ph[p].sub[k].server < 0)
            return 0;
    return 1;
}

/* Whether the GPU sub-tasks the flow gave each server fit that server's
 * GPUs one per GPU. The flow counts free units, so on GPUs of several units
 * it may give a job more sub-tasks on a server than the server has GPUs with
 * a unit free; such a job waits for a later round instead of holding one GPU
 * twice (doc/drmaestro.md). */
static pl_status gpus_distinct_fit(const pl_topology *topo, const drm_taken *tk, const drm_entry *e,
                                   int *fits)
{
    const drm_jphase *gp = &e->ph[DRM_GPU];
    pl_status st = PL_OK;
    *fits = 1;
    for (int32_t k = 0; k < gp->count && *fits && !st; k++) {
        int32_t server = gp->sub[k].server, need = 0, have = 0, first = 1;
        for (int32_t j = 0; j < gp->count; j++) {
            need += gp->sub[j].server == server;
            first &= !(j < k && gp->sub[j].server == server);
        }
        if (first && (st = drm_distinct_gpus(topo, tk, server, &have)) == PL_OK)
            *fits = need <= have;
    }
    return st;
}

/* Pick concrete devices for a placed job; fills its result. */
static pl_status realise(const pl_topology *topo, drm_taken *tk, const drm_entry *e,
                         const pl_drm_job_request *r, pl_drm_placement *pl)
{
    int32_t *mach = (int32_t *)pl->machine;
    pl_drm_gpu *g = (pl_drm_gpu *)pl->gpu;
    pl_drm_nvme *sh = (pl_drm_nvme *)pl->share;
    const drm_jphase *cpu = &e->ph[DRM_CPU];
    for (int32_t k = 0; k < cpu->count; k++) {
        pl_task_demand dm;
        pl_job_task(r->job, k, &dm);
        mach[k] = cpu->sub[k].server;
        pl_status st = drm_pick_cpu(topo, tk, mach[k], dm.cores, dm.memory);
        if (st != PL_OK)
            return st;
    }
    const drm_jphase *gp = &e->ph[DRM_GPU];
    pl->gpus = 0;
    for (int32_t k = 0; k < gp->count; k++) {
        const drm_sub *s = &gp->sub[k];
        int32_t v = drm_pick_gpu(topo, tk, s->server, g, pl->gpus);
        if (v < 0)
            return pl_err(PL_EINTERNAL, "drmaestro: no free GPU left under vertex %d", s->server);
        g[pl->gpus++] = (pl_drm_gpu){ s->task, v, s->server, s->server == mach[s->task] };
    }
    const drm_jphase *np = &e->ph[DRM_NVME];
    pl->nvme = 0;
    for (int32_t k = 0; k < np->count; k++) {
        const drm_sub *s = &np->sub[k];
        int32_t v = drm_pick_nvme(topo, tk, s->server, r->nvme_bw_bytes_per_s, r->nvme_bytes);
        if (v < 0)
            return pl_err(PL_EINTERNAL, "drmaestro: no NVMe room left under vertex %d", s->server);
        sh[pl->nvme++] = (pl_drm_nvme){ v, s->server, s->server == mach[0] };
    }
    return PL_OK;
}

/* A placed job's servers per phase, where Algorithm 5 keeps its sub-tasks
 * while it runs. */
static pl_status remember_servers(drm_entry *e)
{
    entry_free_held(e);
    for (int p = 0; p < DRM_PHASES; p++) {
        int32_t n = e->ph[p].count > 0 ? e->ph[p].count : 0;
        if (!(e->held[p] = pl_alloc((size_t)n + 1, sizeof *e->held[p])))
            return PL_ENOMEM;
        for (int32_t k = 0; k < n; k++)
            e->held[p][k] = e->ph[p].sub[k].server;
        e->nheld[p] = n;
    }
    return PL_OK;
}

typedef struct drm_urgency {
    int64_t gain;
    int32_t i;
} drm_urgency;

static int by_urgency(const void *a, const void *b)
{
    const drm_urgency *x = a, *y = b;
    if (x->gain != y->gain)
        return x->gain > y->gain ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* drm_revise_fn's order, the entries by decreasing gain of placing them
 * (unscheduled minus placement cost: W and the queue tie-break), ties in
 * table order, and its remote_ok. */
static pl_status revise_inputs(const pl_drm *d, const drm_jobcost *costs, int32_t **order, uint8_t **remote_ok)
{
    drm_urgency *u = pl_alloc((size_t)d->ne + 1, sizeof *u);
    int32_t *o = *order = pl_alloc((size_t)d->ne + 1, sizeof *o);
    uint8_t *r = *remote_ok = pl_alloc((size_t)d->ne + 1, 1);
    if (!u || !o || !r) {
        free(u);
        return PL_ENOMEM;
    }
    for (int32_t i = 0; i < d->ne; i++) {
        u[i] = (drm_urgency){costs[i].unsched - costs[i].place, i};
        r[i] = (uint8_t)(costs[i].remote_ok != 0);
    }
    qsort(u, (size_t)d->ne, sizeof *u, by_urgency);
    for (int32_t i = 0; i < d->ne; i++)
        o[i] = u[i].i;
    free(u);
    return PL_OK;
}

pl_status pl_drm_round(pl_drm *d, pl_topology *topo, const pl_drm_job_request *reqs, int32_t n,
                       double network_load, int apply, pl_drm_stats *stats)
{
    if (!d || !topo)
        return pl_err(PL_EINVAL, "pl_drm_round: NULL argument");
    if (!(network_load >= 0 && network_load <= 1))
        return pl_err(PL_EINVAL, "pl_drm_round: network load must be in [0, 1]");
    pl_status st = drm_check_requests(reqs, n);
    if (st == PL_OK)
        st = drm_topology_init(d, topo);
    if (st != PL_OK)
        return st;
    if (stats)
        memset(stats, 0, sizeof *stats);
    double t0 = pl_now();
    if (d->opts.cold_start) {
        for (int p = 0; p < DRM_PHASES; p++)
            phase_free(&d->ph[p]);
        entries_forget_nodes(d);
    }
    st = drm_bind_requests(d, reqs, n);
    if (st == PL_OK)
        st = drm_result_reset(d, reqs, n);
    if (stats)
        stats->build_seconds += pl_now() - t0;
    if (st != PL_OK)
        return st;

    drm_units u;
    int64_t max_cores, max_memory;
    int32_t *order = NULL;
    uint8_t *remote_ok = NULL;
    /* The queue order of the tie-break counts the queued requests only, so
     * that the running ones change no cost (Algorithm 5's kept tasks). */
    int32_t nq = 0, *qpos = pl_alloc((size_t)n + 1, sizeof *qpos);
    for (int32_t i = 0; qpos && i < n; i++) {
        qpos[i] = nq;
        nq += !reqs[i].running;
        if (reqs[i].running)
            d->res.pl[i].outcome = PL_DRM_RUNNING;
    }
    machine_max_free(d, topo, &max_cores, &max_memory);
    drm_jobcost *costs = pl_alloc((size_t)d->ne + 1, sizeof *costs);
    uint8_t *active = pl_alloc((size_t)d->ne + 1, 1);
    uint8_t *outcome = pl_alloc((size_t)d->ne + 1, 1);
    drm_taken tk = { pl_alloc((size_t)d->nvert * PL_RES_COUNT + 1, sizeof(int64_t)) };
    if (!costs || !active || !outcome || !tk.amt || !qpos) {
        st = PL_ENOMEM;
        goto out;
    }
    for (int32_t i = 0; i < d->ne; i++) {
        drm_entry *e = &d->e[i];
        job_cost(d, &reqs[e->req], e->waited, e->postponed, network_load, queue_tie(d, qpos[e->req], nq),
                 &costs[i]);
        active[i] = (uint8_t)(!e->running && job_fits_somewhere(&reqs[e->req], max_cores, max_memory));
        outcome[i] = e->running ? PL_DRM_RUNNING : active[i] ? PL_DRM_PLACED : PL_DRM_NO_CPU;
    }
    batch_units(d, reqs, active, &u);
    u.slots = d->opts.slots != 0;
    static const uint8_t fail[DRM_PHASES] = { PL_DRM_NO_CPU, PL_DRM_NO_GPU, PL_DRM_NO_NVME };
    for (int p = 0; p < DRM_PHASES && st == PL_OK; p++) {
        st = run_phase(d, topo, p, reqs, &u, costs, active, stats);
        /* The filter may refuse a task the machine phase 1 gave it (its
         * GPUs promised to a more urgent task: doc/drmaestro.md, "Tasks of
         * several GPUs"); each solve adds a refusal, so this ends. */
        if (st == PL_OK && p == DRM_CPU && d->revise)
            st = revise_inputs(d, costs, &order, &remote_ok);
        while (st == PL_OK && p == DRM_CPU && d->revise && d->revise(d->revise_ctx, active, order, remote_ok))
            st = run_phase(d, topo, p, reqs, &u, costs, active, stats);
        for (int32_t i = 0; i < d->ne && st == PL_OK; i++) {
            if (!active[i] || phase_placed(&d->e[i], p))
                continue;
            outcome[i] = fail[p];
            if (p != DRM_CPU && !costs[i].remote_ok)
                outcome[i] = PL_DRM_POSTPONED;
            active[i] = 0; /* gang rule: no part in the later phases */
        }
        /* Jobs without this phase's resource keep going to the next one. */
        for (int32_t i = 0; i < d->ne && p + 1 < DRM_PHASES; i++)
            if (outcome[i] == PL_DRM_PLACED)
                active[i] = 1;
    }
    for (int32_t i = 0; i < d->ne && st == PL_OK; i++) {
        drm_entry *e = &d->e[i];
        pl_drm_placement *pl = &d->res.pl[e->req];
        int fits = 1;
        if (outcome[i] == PL_DRM_PLACED)
            st = gpus_distinct_fit(topo, &tk, e, &fits);
        if (!fits)
            outcome[i] = PL_DRM_NO_GPU;
        pl->outcome = (pl_drm_outcome)outcome[i];
        if (st == PL_OK && outcome[i] == PL_DRM_PLACED)
            st = realise(topo, &tk, e, &reqs[e->req], pl);
        if (st == PL_OK && outcome[i] == PL_DRM_PLACED)
            st = remember_servers(e);
    }
    if (st == PL_OK && apply)
        st = drm_apply(topo, &tk);
    if (st == PL_OK)
        for (int32_t i = 0; i < d->ne; i++) {
            drm_entry *e = &d->e[i];
            if (outcome[i] != PL_DRM_PLACED && outcome[i] != PL_DRM_RUNNING)
                e->waited++;
            if (outcome[i] == PL_DRM_POSTPONED)
                e->postponed++;
            d->res.pl[e->req].waited = e->waited;
        }
out:
    free(order);
    free(remote_ok);
    free(qpos);
    free(costs);
    free(active);
    free(outcome);
    free(tk.amt);
    return st;
}

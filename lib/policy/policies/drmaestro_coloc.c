/* DRMaestro's best effort against co-location interference (seed 004:
 * "placement ... while employing best-efforts on preventing workload
 * performance interference"; Eq. 11's phi is the completion time with the
 * resources it gets): a GPU whose socket already serves a job it would
 * slow, or be slowed by, beyond the QoS tolerance (pl_drm_coloc_slowdown(),
 * PL_SIM_QOS_TOLERANCE) misses the goal tau = phi. The GPU phase's flow
 * only offers a job the machines with a GPU that misses nothing, the GPU
 * pick then takes such a GPU, and a placement that still misses (two jobs
 * of one round on one socket) is postponed. After max_postpone
 * postponements a job may miss its own goal, never a neighbour's; after
 * twice that it goes anywhere (doc/drmaestro.md). */
#include <stdlib.h>
#include <string.h>
#include <placement/sim.h>
#include "internal/policy_impl.h"
#include "internal/drm_impl.h"

#define SOCKET_CAP 8 /* neighbours remembered per socket: more only ever adds misses */

struct pl_drm_coloc {
    const pl_topology *topo;
    const pl_drm *drm;
    int32_t nv;
    int32_t *sock;            /* [nv] socket of a GPU (its package, else itself), -1 */
    int32_t *nn;              /* [nv] neighbours per socket */
    const char **nb;          /* [nv * SOCKET_CAP] their workload types */
    const pl_job **req_job;   /* [n] request -> job */
    uint8_t *level;           /* [n] postponement level (fits()) */
    uint8_t *refused;         /* [n] the filter refused it a free GPU of its home machine this round */
    double *sf;               /* [n] its expected slowdown on a remote GPU */
    int32_t *entry;           /* [n] its pl_drm entry, built at the first GPU-phase call; NULL before */
    int local_only;           /* no disaggregation (the requests' common flag) */
    int32_t n;
    uint8_t *gpu_taken;       /* [nv] GPUs promised this round (decisions made) */
    int64_t *promised;        /* [nv] GPUs of local tasks phase 1 homes on a machine (revise) */
    uint8_t *multi;           /* [nv] one of them is a task of several GPUs */
    int32_t *ban;             /* [3 * nban]: request, task, machine phase 1 no longer admits */
    int64_t nban, ban_cap;
};

/* Whether a job of type `type`, slowed sf by a remote GPU (1 when local),
 * may join socket s at postponement level `level`: 0 when neither it (its
 * remote factor times its worst neighbour) nor a neighbour it slows would
 * miss the tolerance; 1 (postponed max_postpone times) when no neighbour
 * would: its own goal may go, never another job's; 2 (twice that): always. */
static int fits(const pl_drm_coloc *k, const char *type, int32_t s, double sf, int level)
{
    int harm = 0;
    double own = 1;
    for (int32_t q = 0; s >= 0 && q < k->nn[s]; q++) {
        const char *o = k->nb[(size_t)s * SOCKET_CAP + q];
        double sd = pl_drm_coloc_slowdown(type, o);
        own = sd > own ? sd : own;
        harm += pl_drm_coloc_slowdown(o, type) > 1 + PL_SIM_QOS_TOLERANCE;
    }
    return level >= 2 || (harm == 0 && (level == 1 || own * sf <= 1 + PL_SIM_QOS_TOLERANCE));
}

static void join(pl_drm_coloc *k, const char *type, int32_t gpu)
{
    int32_t s = gpu >= 0 && gpu < k->nv ? k->sock[gpu] : -1;
    if (s >= 0 && type && k->nn[s] < SOCKET_CAP)
        k->nb[(size_t)s * SOCKET_CAP + k->nn[s]++] = type;
}

void pl_drm_coloc_free(pl_drm_coloc *k)
{
    if (!k)
        return;
    free(k->sock);
    free(k->nn);
    free(k->nb);
    free(k->req_job);
    free(k->level);
    free(k->refused);
    free(k->sf);
    free(k->entry);
    free(k->gpu_taken);
    free(k->promised);
    free(k->multi);
    free(k->ban);
    free(k);
}

pl_status pl_drm_coloc_create(const pl_policy_request *req, const pl_drm *drm, int32_t n, pl_drm_coloc **out)
{
    pl_drm_coloc *k = pl_alloc(1, sizeof *k);
    if (!k)
        return PL_ENOMEM;
    k->topo = req->topo;
    k->drm = drm;
    k->nv = pl_topology_vertex_count(req->topo);
    k->n = n;
    k->sock = pl_alloc((size_t)k->nv + 1, sizeof *k->sock);
    k->nn = pl_alloc((size_t)k->nv + 1, sizeof *k->nn);
    k->nb = pl_alloc((size_t)k->nv * SOCKET_CAP + 1, sizeof *k->nb);
    k->req_job = pl_alloc((size_t)n + 1, sizeof *k->req_job);
    k->level = pl_alloc((size_t)n + 1, 1);
    k->refused = pl_alloc((size_t)n + 1, 1);
    k->sf = pl_alloc((size_t)n + 1, sizeof *k->sf);
    k->gpu_taken = pl_alloc((size_t)k->nv + 1, 1);
    k->promised = pl_alloc((size_t)k->nv + 1, sizeof *k->promised);
    k->multi = pl_alloc((size_t)k->nv + 1, 1);
    if (!k->sock || !k->nn || !k->nb || !k->req_job || !k->level || !k->refused || !k->sf || !k->gpu_taken ||
        !k->promised || !k->multi) {
        pl_drm_coloc_free(k);
        return PL_ENOMEM;
    }
    for (int32_t v = 0; v < k->nv; v++) {
        pl_vertex_info vi;
        int32_t pkg = -1;
        k->sock[v] = -1;
        if (pl_topology_vertex(req->topo, v, &vi) == PL_OK && vi.kind == PL_VK_GPU)
            k->sock[v] = pl_topology_ancestor(req->topo, v, PL_VK_PACKAGE, &pkg) == PL_OK ? pkg : v;
    }
    for (int32_t r = 0; r < req->nrunning; r++)
        for (int32_t g = 0; g < req->running[r].ngpus; g++)
            join(k, pl_job_workload_type(req->running[r].job), req->running[r].gpus[g]);
    *out = k;
    return PL_OK;
}

void pl_drm_coloc_bind(pl_drm_coloc *k, int32_t r, const pl_job *job, int level, double remote_sf,
                       int local_only)
{
    k->local_only = local_only;
    k->req_job[r] = job;
    k->level[r] = (uint8_t)(level < 0 ? 0 : level > 2 ? 2 : level);
    /* Only a profiled job's remote slowdown is known (the table's mean for
     * the others is a guess left to the NA costs). */
    k->sf[r] = pl_drm_network_known(pl_job_workload_type(job)) ? remote_sf : 1;
}

int pl_drm_coloc_refused(const pl_drm_coloc *k, int32_t r)
{
    return r >= 0 && r < k->n && k->refused[r];
}

/* A free GPU under v that fits request r, or -1; *any: v has a free GPU at all. */
static int32_t clean_gpu(const pl_drm_coloc *k, int32_t r, int32_t v, double sf, int *any)
{
    const char *type = pl_job_workload_type(k->req_job[r]);
    int32_t buf[64], n = 0;
    if (pl_topology_descendants(k->topo, v, PL_VK_GPU, buf, 64, &n) == PL_ELIMIT)
        n = 64;
    *any = 0;
    for (int32_t q = 0; q < n; q++) {
        int64_t free_units = 0;
        if (k->gpu_taken[buf[q]] || pl_topology_amount(k->topo, buf[q], PL_RES_UNITS, NULL, NULL, &free_units) ||
            free_units < 1)
            continue;
        *any = 1;
        if (fits(k, type, k->sock[buf[q]], sf, k->level[r]))
            return buf[q];
    }
    return -1;
}

/* The home machine (phase 1's choice) of request r's task, or -1. */
static int32_t home_of(pl_drm_coloc *k, int32_t r, int32_t task)
{
    const pl_drm *d = k->drm;
    if (!k->entry) {
        if (!(k->entry = pl_alloc((size_t)k->n + 1, sizeof *k->entry)))
            return -1;
        for (int32_t i = 0; i < k->n; i++)
            k->entry[i] = -1;
        for (int32_t i = 0; i < d->ne; i++)
            if (d->e[i].req >= 0 && d->e[i].req < k->n)
                k->entry[d->e[i].req] = i;
    }
    if (k->entry[r] < 0)
        return -1;
    const drm_jphase *jp = &d->e[k->entry[r]].ph[DRM_GPU];
    for (int32_t x = 0; x < jp->count; x++)
        if (jp->sub[x].task == task)
            return jp->sub[x].home;
    return -1;
}

static int banned(const pl_drm_coloc *k, int32_t r, int32_t task, int32_t machine)
{
    for (int64_t b = 0; b < k->nban; b++)
        if (k->ban[3 * b] == r && k->ban[3 * b + 1] == task && k->ban[3 * b + 2] == machine)
            return 1;
    return 0;
}

/* Without disaggregation a GPU task's home must have a free GPU (phase 1),
 * and its GPU phase admits only that home. A task of several GPUs is held
 * so in every variant: its GPUs are one machine's, the machine of its
 * cores (doc/drmaestro.md, "Tasks of several GPUs"). */
static int local_admit(pl_drm_coloc *k, int32_t r, int32_t task, int32_t provider)
{
    pl_task_demand d;
    if (pl_job_task(k->req_job[r], task, &d) || d.gpus <= 0)
        return 1;
    if (drm_phase_now(k->drm) == DRM_GPU) { /* a task of one GPU and no cores is local wherever its GPU is */
        int32_t h = home_of(k, r, task);
        return h < 0 || provider == h || (d.gpus == 1 && d.cores <= 0 && d.memory <= 0);
    }
    int64_t free_units = 0;
    return pl_topology_subtree_amount(k->topo, provider, PL_VK_GPU, PL_RES_UNITS, NULL, &free_units) == PL_OK &&
           free_units >= d.gpus;
}

/* Phase 1's machine capacity counts the GPUs of the tasks whose GPUs must
 * be local (a task of several GPUs; every GPU task without disaggregation
 * or when NA withholds the job's remote options): the most urgent job
 * first (drm_revise_fn's order: W, then the queue), each such task placed
 * by phase 1 is promised its GPUs on its machine, and one that finds them
 * promised to a more urgent task is refused that machine (then phase 1 is
 * solved again). A clash of one-GPU tasks only is left as the paper has it
 * (phase 1 counts no GPU, phase 2 holds one back): jobs without tasks of
 * several GPUs are decided as before (doc/drmaestro.md, "Tasks of several
 * GPUs"). Out of memory for a refusal, it makes none: the round then goes
 * on as without revision. */
int pl_drm_coloc_revise(void *ctx, const uint8_t *active, const int32_t *order, const uint8_t *remote_ok)
{
    pl_drm_coloc *k = ctx;
    const pl_drm *d = k->drm;
    int added = 0;
    memset(k->promised, 0, (size_t)k->nv * sizeof *k->promised);
    memset(k->multi, 0, (size_t)k->nv);
    for (int32_t x = 0; x < d->ne; x++) {
        const int32_t i = order[x];
        const drm_jphase *jp = &d->e[i].ph[DRM_CPU];
        int32_t r = d->e[i].req, all = 1;
        for (int32_t t = 0; t < jp->count; t++)
            all &= jp->sub[t].server >= 0;
        if (!active[i] || r < 0 || r >= k->n || !all) /* the gang rule drops a job phase 1 leaves unplaced */
            continue;
        const int local1 = k->local_only || !remote_ok[i]; /* a one-GPU task's GPU is local too */
        for (int32_t t = 0; t < jp->count; t++) {
            pl_task_demand dm;
            int32_t m = jp->sub[t].server;
            int64_t free_units = 0;
            if (pl_job_task(k->req_job[r], t, &dm) || dm.gpus <= 0 || (dm.gpus == 1 && !local1) ||
                m >= k->nv || pl_topology_subtree_amount(k->topo, m, PL_VK_GPU, PL_RES_UNITS, NULL, &free_units) ||
                free_units < dm.gpus) /* no machine admitted it (sub_restrict): phase 2 holds it back */
                continue;
            if (k->promised[m] + dm.gpus > free_units && (dm.gpus > 1 || k->multi[m])) {
                if (!banned(k, r, t, m) &&
                    pl_grow((void **)&k->ban, &k->ban_cap, 3 * (k->nban + 1), sizeof *k->ban) == PL_OK) {
                    k->ban[3 * k->nban] = r;
                    k->ban[3 * k->nban + 1] = t;
                    k->ban[3 * k->nban++ + 2] = m;
                    added = 1;
                }
                continue;
            }
            k->promised[m] += dm.gpus;
            k->multi[m] |= dm.gpus > 1;
        }
    }
    return added;
}

int pl_drm_coloc_admit(void *ctx, int32_t r, int32_t task, int32_t provider)
{
    pl_drm_coloc *k = ctx;
    pl_task_demand d;
    if (r < 0 || r >= k->n)
        return 0;
    int several = pl_job_task(k->req_job[r], task, &d) == PL_OK && d.gpus > 1;
    if ((k->local_only || several) && !local_admit(k, r, task, provider))
        return 0;
    if (drm_phase_now(k->drm) == DRM_CPU && banned(k, r, task, provider)) /* pl_drm_coloc_revise */
        return 0;
    if (drm_phase_now(k->drm) != DRM_GPU || k->level[r] >= 2)
        return 1;
    int32_t h = home_of(k, r, task);
    int any = 0, home = h < 0 || provider == h; /* no home: no CPU part to reach the GPU remotely */
    int ok = clean_gpu(k, r, provider, home ? 1 : k->sf[r], &any) >= 0;
    /* Only a local GPU refused counts: a job too sensitive for a remote one
     * is not postponed by waiting for a local one (they free up). */
    k->refused[r] |= (uint8_t)(home && any && !ok);
    return ok;
}

/* For each GPU of a placement in turn: keep it if it misses nothing, else
 * take a clean free GPU of the same machine not promised to another job of
 * the round (other[nother]). Returns the misses left; 0 commits. */
int pl_drm_coloc_choose(pl_drm_coloc *k, int32_t r, int32_t *gpus, const int32_t *home, int32_t ngpus,
                        const int32_t *other, int32_t nother)
{
    const char *type = pl_job_workload_type(k->req_job[r]);
    int left = 0;
    for (int32_t x = 0; x < nother; x++)
        k->gpu_taken[other[x]]++;
    for (int32_t x = 0; x < ngpus; x++) /* nor a GPU the job holds already */
        k->gpu_taken[gpus[x]]++;
    for (int32_t x = 0; x < ngpus; x++) {
        int32_t m = -1, g;
        int any;
        if (pl_topology_ancestor(k->topo, gpus[x], PL_VK_MACHINE, &m) != PL_OK)
            m = -1; /* a pool's GPU */
        double sf = home[x] < 0 || (m >= 0 && m == home[x]) ? 1 : k->sf[r];
        if (fits(k, type, k->sock[gpus[x]], sf, k->level[r]))
            continue;
        if (m >= 0 && (g = clean_gpu(k, r, m, sf, &any)) >= 0) {
            k->gpu_taken[gpus[x]]--;
            k->gpu_taken[g]++;
            gpus[x] = g;
        } else
            left++;
    }
    for (int32_t x = 0; x < nother; x++)
        k->gpu_taken[other[x]]--;
    for (int32_t x = 0; x < ngpus; x++)
        k->gpu_taken[gpus[x]]--;
    if (left == 0)
        for (int32_t x = 0; x < ngpus; x++) {
            join(k, type, gpus[x]);
            k->gpu_taken[gpus[x]] = 1;
        }
    return left;
}

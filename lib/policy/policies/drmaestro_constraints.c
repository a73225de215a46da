/* Placement constraints under "drmaestro" / "drmaestro-na". The flow
 * networks carry the node constraints (node Must / MustNot, node filter) and
 * the anti-affinity with running jobs as which providers a task may reach
 * (drm_set_admit: its aggregated routes closed, one arc per admitting
 * machine); task-to-task Must / MustNot and the anti-affinity between jobs
 * of the same round are not flow constraints, so each decoded placement is
 * checked here and one that breaks them is not placed this round. The
 * machine of a task is its GPU's; a constrained job takes no pool GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/policy_impl.h"
#include "internal/constraints_view.h"
#include "internal/job_constraints.h"
#include "internal/job_slots.h"
#include "internal/topology_internal.h"

typedef struct placed_job {
    const pl_job *job;
    int32_t *machine;               /* [k] machine vertex of each task's GPU, -1: a pool's */
    int32_t k;
} placed_job;

struct pl_drm_cons {
    const pl_policy_request *req;
    int32_t *req_queue;             /* [nqueue] request -> queue index */
    int32_t *hosts;                 /* machines with GPUs, for the conflict analysis */
    double *host_gpus;
    int32_t nhosts;
    placed_job *running;            /* [nrunning] */
    placed_job *accepted;           /* constrained jobs placed so far in this call */
    int32_t naccepted;
    char reason[1024];
};

static pl_status machines_of(const pl_topology *t, const int32_t *gpus, int32_t k, placed_job *p)
{
    if (!(p->machine = pl_alloc((size_t)k + 1, sizeof *p->machine)))
        return PL_ENOMEM;
    p->k = k;
    for (int32_t i = 0; i < k; i++)
        p->machine[i] = pl_topo_machine_of(t, gpus[i]);
    return PL_OK;
}

pl_status pl_drm_cons_create(const pl_policy_request *req, pl_drm_cons **out)
{
    pl_drm_cons *k = pl_alloc(1, sizeof *k);
    if (!(*out = k))
        return PL_ENOMEM;
    k->req = req;
    k->req_queue = pl_alloc((size_t)req->nqueue + 1, sizeof *k->req_queue);
    k->running = pl_alloc((size_t)req->nrunning + 1, sizeof *k->running);
    k->accepted = pl_alloc((size_t)req->nqueue + 1, sizeof *k->accepted);
    pl_status st = !k->req_queue || !k->running || !k->accepted ? PL_ENOMEM : PL_OK;
    if (!st)
        st = pl_cview_machines(req->topo, &k->hosts, &k->host_gpus, &k->nhosts);
    for (int32_t i = 0; i < req->nrunning && !st; i++) {
        k->running[i].job = req->running[i].job;
        st = machines_of(req->topo, req->running[i].gpus, req->running[i].ngpus, &k->running[i]);
    }
    return st;
}

void pl_drm_cons_free(pl_drm_cons *k)
{
    if (!k)
        return;
    for (int32_t i = 0; i < k->req->nrunning; i++)
        free(k->running[i].machine);
    for (int32_t i = 0; i < k->naccepted; i++)
        free(k->accepted[i].machine);
    free(k->running);
    free(k->accepted);
    free(k->req_queue);
    free(k->hosts);
    free(k->host_gpus);
    free(k);
}

void pl_drm_cons_bind(pl_drm_cons *k, int32_t r, int32_t queue_index)
{
    k->req_queue[r] = queue_index;
}

pl_status pl_drm_cons_refusal(pl_drm_cons *k, const pl_job *job, const char **why)
{
    *why = NULL;
    if (!pl_job_has_constraints(job))
        return PL_OK;
    pl_status st = pl_cview_check_job(k->req->topo, k->hosts, k->host_gpus, k->nhosts, job, 0, k->reason,
                                      sizeof k->reason, NULL, 0, NULL);
    if (st == PL_EINFEASIBLE) {
        pl_job_slots_explain(job, k->reason, sizeof k->reason); /* the conflicts name task ids */
        *why = k->reason;
        return PL_OK;
    }
    double usable = 0;
    for (int32_t h = 0; h < k->nhosts && !st; h++)
        for (int32_t t = 0; t < pl_job_task_count(job); t++)
            if (pl_job_task_admits(job, t, k->req->topo, k->hosts[h])) {
                usable += k->host_gpus[h];
                break;
            }
    if (!st && usable < pl_job_task_count(job))
        *why = "needs more GPUs than the machines its node constraints allow have together";
    return st;
}

/* A running or accepted job anti-affine with job that holds a GPU on machine m. */
static const pl_job *avoided_on(const pl_drm_cons *k, const pl_job *job, int32_t m)
{
    if (pl_job_label_count(job) == 0 && pl_job_anti_affinity_count(job) == 0)
        return NULL;
    for (int pass = 0; pass < 2; pass++) {
        const placed_job *v = pass ? k->accepted : k->running;
        int32_t n = pass ? k->naccepted : k->req->nrunning;
        for (int32_t i = 0; i < n; i++) {
            if (!pl_job_anti_affine(job, v[i].job))
                continue;
            for (int32_t t = 0; t < v[i].k; t++)
                if (v[i].machine[t] == m)
                    return v[i].job;
        }
    }
    return NULL;
}

int pl_drm_cons_admit(void *ctx, int32_t r, int32_t task, int32_t provider)
{
    const pl_drm_cons *k = ctx;
    const pl_job *job = k->req->queue[k->req_queue[r]];
    pl_vertex_info vi;
    if (!pl_job_has_constraints(job))
        return 1;
    if (pl_topology_vertex(k->req->topo, provider, &vi) != PL_OK || vi.kind != PL_VK_MACHINE)
        return 0;
    return pl_job_task_admits(job, task, k->req->topo, provider) && !avoided_on(k, job, provider);
}

static const char *violation(pl_drm_cons *k, const pl_job *job, const placed_job *p)
{
    char *b = k->reason;
    size_t n = sizeof k->reason;
    int32_t *cls = pl_alloc((size_t)p->k + 1, sizeof *cls);
    if (!cls || pl_job_collocation_classes(job, 0, cls) < 0) {
        free(cls);
        return "out of memory checking the constraints";
    }
    const char *why = NULL;
    for (int32_t a = 0; a < p->k && !why; a++) {
        const pl_job *other;
        if (p->machine[a] < 0)
            why = "a constrained job got a GPU outside every machine (a pool's)";
        else if (!pl_job_task_admits(job, a, k->req->topo, p->machine[a]))
            snprintf(b, n, "task %d got a GPU on a machine its node constraints refuse", (int)a), why = b;
        else if ((other = avoided_on(k, job, p->machine[a])))
            snprintf(b, n, "task %d shares a machine with job \"%s\" (anti-affinity)", (int)a,
                     pl_job_name(other)), why = b;
        for (int32_t c = a + 1; c < p->k && !why; c++) {
            if (cls[a] == cls[c] && p->machine[a] != p->machine[c])
                snprintf(b, n, "tasks %d and %d must share a machine (collocation) but got GPUs on two",
                         (int)a, (int)c), why = b;
            else if (p->machine[a] == p->machine[c] && pl_job_anti_collocated(job, a, c))
                snprintf(b, n, "tasks %d and %d must not share a machine (anti-collocation)", (int)a,
                         (int)c), why = b;
        }
    }
    free(cls);
    return why;
}

pl_status pl_drm_cons_accept(pl_drm_cons *k, int32_t queue_index, const int32_t *gpus, const char **why)
{
    *why = NULL;
    const pl_job *job = k->req->queue[queue_index];
    if (!pl_job_has_constraints(job))
        return PL_OK;
    placed_job p = {.job = job};
    pl_status st = machines_of(k->req->topo, gpus, pl_job_task_count(job), &p);
    if (st)
        return st;
    const char *v = violation(k, job, &p);
    if (v) {
        int names_tasks = v == k->reason; /* the static texts name none */
        if (v != k->reason)
            snprintf(k->reason, sizeof k->reason, "%s", v);
        size_t len = strlen(k->reason);
        snprintf(k->reason + len, sizeof k->reason - len, ": drmaestro's flow placement breaks a "
                 "constraint the network cannot express; not placed this round");
        if (names_tasks)
            pl_job_slots_explain(job, k->reason, sizeof k->reason);
        *why = k->reason;
        free(p.machine);
        return PL_OK;
    }
    k->accepted[k->naccepted++] = p;
    return PL_OK;
}

/* "firmament": the flow scheduler DRMaestro (seed 004) is measured
 * against, Firmament (OSDI'16) running Quincy's cost model (SOSP'09).
 * One flow network kept for the instance's life and re-solved each round
 * from the previous solution (pl_flownet_solve's warm start):
 *
 *   task T -> U_j (job j's unscheduled aggregator) -> sink
 *   task T -> X (cluster aggregator) -> R_r (rack) -> M_m (machine) -> sink
 *   task T -> R_r / M_m directly: preference arcs where its input data is
 *
 * Costs (doc/drmaestro.md, "The Firmament baseline"): T -> U_j is
 * base + omega x rounds waited (Quincy's unscheduled cost grows with the
 * wait); T -> X psi x D (the worst case: all D GiB of input cross the core
 * switch), T -> R_r of the data's rack xi x D, T -> M_m of the data's machine
 * 0; M_m -> sink carries the machine's free slots (tasks of the largest
 * queued demand that fit its free GPUs, cores and memory). A job's input
 * is a label "data=NAME:GIB" naming a machine vertex (no label: no data, no
 * preference arcs). Preemption is off, as in Firmament's default: running
 * tasks hold their machines and are not in the network. Firmament does not
 * model GPUs (a slot is a task); a task's GPUs are the first free ones of
 * its machine, its cores and memory spread there from the first package. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <placement/flownet.h>
#include "internal/policy_impl.h"
#include "internal/columns.h"
#include "internal/job_constraints.h"
#include "internal/job_slots.h"

enum { FM_OMEGA = 10, FM_PSI = 4, FM_XI = 2 };

typedef struct fm_task {
    int32_t node, arc_u, arc_x, arc_rack, arc_mach;
    int32_t dm;      /* machine index of its data (preference arcs), -1 */
    int32_t machine; /* decoded: machine index, -1 unscheduled */
    /* A task some machine's constraints refuse: its routes closed and one
     * arc to each admitting machine, rebuilt every round. */
    int32_t *darc, *dmach, nd;
} fm_task;

typedef struct fm_job {
    const pl_job *job;
    int64_t waited;     /* rounds it has been seen unplaced */
    int32_t ntasks, unode, uarc;
    fm_task *t;
} fm_job;

typedef struct fm_state {
    pl_flownet *net;
    int32_t sink, x, nmach, nrack;
    int32_t *mvert, *mnode, *m_in, *m_out, *mrack; /* per machine: vertex, node, X/R -> M, M -> sink, rack */
    int32_t *rnode, *r_in;                          /* per rack: node, X -> R */
    fm_job *jobs;
    int32_t njobs, cap;
} fm_state;

static void tasks_free(fm_job *j)
{
    for (int32_t k = 0; j->t && k < j->ntasks; k++) {
        free(j->t[k].darc);
        free(j->t[k].dmach);
    }
    free(j->t);
    j->t = NULL;
}

static void job_forget(fm_state *s, fm_job *j)
{
    for (int32_t k = 0; k < j->ntasks; k++)
        pl_flownet_remove_node(s->net, j->t[k].node);
    pl_flownet_remove_node(s->net, j->unode);
    tasks_free(j);
}

/* Per machine and per rack, sized by the vertex count (an upper bound). */
static const pl_column base_cols[] = {PL_COLUMN(fm_state, mvert), PL_COLUMN(fm_state, mnode),
                                      PL_COLUMN(fm_state, m_in),  PL_COLUMN(fm_state, m_out),
                                      PL_COLUMN(fm_state, mrack), PL_COLUMN(fm_state, rnode),
                                      PL_COLUMN(fm_state, r_in)};

static void fm_free(void *state)
{
    fm_state *s = state;
    if (!s)
        return;
    for (int32_t i = 0; i < s->njobs; i++)
        tasks_free(&s->jobs[i]);
    free(s->jobs);
    pl_flownet_free(s->net);
    pl_columns_free(s, base_cols, PL_NCOLUMNS(base_cols));
    free(s);
}

static pl_status fm_create(const pl_policy_opts *opts, const void *data, void **state)
{
    (void)opts;
    (void)data;
    fm_state *s = pl_alloc(1, sizeof *s);
    if (!s)
        return PL_ENOMEM;
    s->nmach = -1;
    *state = s;
    return PL_OK;
}

/* Sink, X, one node per rack and machine: built on the first round. */
static pl_status build_base(fm_state *s, const pl_topology *t)
{
    int32_t nv = pl_topology_vertex_count(t), nm = 0, nr = 0;
    pl_columns_free(s, base_cols, PL_NCOLUMNS(base_cols)); /* a rebuild after a failed round */
    int32_t *rvert = pl_alloc((size_t)nv + 1, sizeof *rvert);
    pl_status st = rvert ? pl_columns_alloc(s, base_cols, PL_NCOLUMNS(base_cols), (int64_t)nv + 1) : PL_ENOMEM;
    if (!st)
        st = pl_flownet_create(&s->net);
    for (int32_t v = 0; v < nv && !st; v++) {
        pl_vertex_info vi;
        if ((st = pl_topology_vertex(t, v, &vi)))
            break;
        if (vi.kind == PL_VK_RACK)
            rvert[nr++] = v;
        else if (vi.kind == PL_VK_MACHINE) {
            int32_t r = -1;
            s->mrack[nm] = -1;
            if (pl_topology_ancestor(t, v, PL_VK_RACK, &r) == PL_OK)
                for (int32_t q = 0; q < nr; q++)
                    s->mrack[nm] = rvert[q] == r ? q : s->mrack[nm];
            s->mvert[nm++] = v;
        }
    }
    if (!st)
        st = pl_flownet_add_node(s->net, "sink", 0, &s->sink);
    if (!st)
        st = pl_flownet_add_node(s->net, "X", 0, &s->x);
    for (int32_t r = 0; r < nr && !st; r++)
        if (!(st = pl_flownet_add_node(s->net, NULL, 0, &s->rnode[r])))
            st = pl_flownet_add_arc(s->net, s->x, s->rnode[r], 0, PL_CAP_INF, 0, &s->r_in[r]);
    for (int32_t m = 0; m < nm && !st; m++) {
        int32_t from = s->mrack[m] >= 0 ? s->rnode[s->mrack[m]] : s->x;
        if (!(st = pl_flownet_add_node(s->net, NULL, 0, &s->mnode[m])) &&
            !(st = pl_flownet_add_arc(s->net, from, s->mnode[m], 0, PL_CAP_INF, 0, &s->m_in[m])))
            st = pl_flownet_add_arc(s->net, s->mnode[m], s->sink, 0, 0, 0, &s->m_out[m]);
    }
    free(rvert);
    if (st) { /* the next round builds again */
        pl_flownet_free(s->net);
        s->net = NULL;
        nm = -1;
    }
    s->nmach = nm;
    s->nrack = nr;
    return st;
}

/* The machine (provider index) named by the job's "data=NAME:GIB" label and
 * the size, or -1 and 0. */
static int32_t data_of(const fm_state *s, const pl_topology *t, const pl_job *job, int64_t *gib)
{
    *gib = 0;
    for (int32_t i = 0; i < pl_job_label_count(job); i++) {
        const char *l = pl_job_label(job, i), *colon;
        if (strncmp(l, "data=", 5) || !(colon = strchr(l + 5, ':')))
            continue;
        size_t len = (size_t)(colon - (l + 5));
        for (int32_t m = 0; m < s->nmach; m++) {
            pl_vertex_info vi;
            if (pl_topology_vertex(t, s->mvert[m], &vi) == PL_OK && vi.name && strlen(vi.name) == len &&
                !strncmp(vi.name, l + 5, len)) {
                *gib = strtoll(colon + 1, NULL, 10);
                *gib = *gib > 0 ? *gib : 0;
                return m;
            }
        }
    }
    return -1;
}

/* A new job's nodes: U_j, one T per task with its Quincy arcs. */
static pl_status job_build(fm_state *s, const pl_topology *t, fm_job *j)
{
    int64_t gib;
    int32_t dm = data_of(s, t, j->job, &gib);
    j->ntasks = pl_job_task_count(j->job);
    j->t = pl_alloc((size_t)j->ntasks + 1, sizeof *j->t);
    pl_status st = j->t ? pl_flownet_add_node(s->net, NULL, 0, &j->unode) : PL_ENOMEM;
    if (!st)
        st = pl_flownet_add_arc(s->net, j->unode, s->sink, 0, j->ntasks, 0, &j->uarc);
    for (int32_t k = 0; k < j->ntasks && !st; k++) {
        fm_task *x = &j->t[k];
        x->arc_rack = x->arc_mach = -1;
        x->dm = dm;
        if (!(st = pl_flownet_add_node(s->net, NULL, 0, &x->node)) &&
            !(st = pl_flownet_add_arc(s->net, x->node, j->unode, 0, 1, 0, &x->arc_u)))
            st = pl_flownet_add_arc(s->net, x->node, s->x, 0, 1, FM_PSI * gib, &x->arc_x);
        if (!st && dm >= 0 && gib > 0 && s->mrack[dm] >= 0)
            st = pl_flownet_add_arc(s->net, x->node, s->rnode[s->mrack[dm]], 0, 1, FM_XI * gib, &x->arc_rack);
        if (!st && dm >= 0)
            st = pl_flownet_add_arc(s->net, x->node, s->mnode[dm], 0, 1, 0, &x->arc_mach);
    }
    return st;
}

/* A queued job's handle and queue position, sorted by handle for lookups. */
typedef struct fm_key {
    const pl_job *job;
    int32_t pos;
} fm_key;

static int cmp_key(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const fm_key *)a)->job, y = (uintptr_t)((const fm_key *)b)->job;
    return x < y ? -1 : x > y;
}

/* The state's jobs become exactly the queue's: kept ones stay in the order
 * first seen, jobs that left the queue lose their nodes, new ones are added
 * in queue order (so the network, and the decisions, never depend on where
 * the jobs sit in memory); order[i] = the state index of queue job i. */
static pl_status sync_jobs(fm_state *s, const pl_policy_request *req, int32_t *order)
{
    int32_t n = req->nqueue, kept = 0;
    fm_key *key = pl_alloc((size_t)n + 1, sizeof *key);
    fm_job *jobs = pl_alloc((size_t)n + 1, sizeof *jobs);
    pl_status st = PL_OK;
    if (!key || !jobs) { /* nothing changed */
        free(key);
        free(jobs);
        return PL_ENOMEM;
    }
    for (int32_t i = 0; i < n; i++) {
        key[i] = (fm_key){.job = req->queue[i], .pos = i};
        order[i] = -1;
    }
    qsort(key, (size_t)n, sizeof *key, cmp_key);
    for (int32_t a = 0; a < s->njobs; a++) {
        fm_key want = {.job = s->jobs[a].job};
        fm_key *hit = n ? bsearch(&want, key, (size_t)n, sizeof *key, cmp_key) : NULL;
        if (hit && order[hit->pos] < 0) {
            jobs[kept] = s->jobs[a];
            jobs[kept].waited++;
            order[hit->pos] = kept++;
        } else
            job_forget(s, &s->jobs[a]);
    }
    int32_t total = kept;
    for (int32_t i = 0; i < n && !st; i++)
        if (order[i] < 0) {
            jobs[total] = (fm_job){.job = req->queue[i]};
            order[i] = total;
            st = job_build(s, req->topo, &jobs[total++]);
        }
    free(key);
    free(s->jobs);
    s->jobs = jobs;
    s->njobs = total;
    if (st) { /* a half-built job: start afresh next round */
        for (int32_t i = 0; i < s->njobs; i++)
            tasks_free(&s->jobs[i]);
        s->njobs = 0;
        pl_flownet_free(s->net);
        s->net = NULL;
        s->nmach = -1;
    }
    return st;
}

/* Free slots of machine m: tasks of the largest queued demand that fit. */
static int64_t slots(const pl_topology *t, int32_t m, const pl_task_demand *dmax, int64_t ntasks)
{
    int64_t g = 0, c = 0, mem = 0, n = ntasks;
    pl_topology_subtree_amount(t, m, PL_VK_GPU, PL_RES_UNITS, NULL, &g);
    pl_topology_subtree_amount(t, m, -1, PL_RES_CORES, NULL, &c);
    pl_topology_subtree_amount(t, m, -1, PL_RES_MEMORY, NULL, &mem);
    if (dmax->gpus > 0 && g / dmax->gpus < n)
        n = g / dmax->gpus;
    if (dmax->cores > 0 && c / dmax->cores < n)
        n = c / dmax->cores;
    if (dmax->memory > 0 && mem / dmax->memory < n)
        n = mem / dmax->memory;
    return n;
}

/* The demand task k of job counts for in the machines' slot size: its
 * own, except that the first slot of a task of n GPUs in a slot job
 * (job_slots.c; it carries the whole task's cores and memory, the others
 * none) counts an n-th of them, as each of the task's n units of flow
 * stands for that share: as its own, a 4-GPU task of 8 cores would make a
 * slot 8 cores and a 20-core Minsky 2 slots, never enough for its 4. */
static pl_status slot_share(const pl_job *job, int32_t k, pl_task_demand *d)
{
    pl_status st = pl_job_task(job, k, d);
    if (st || !pl_job_is_slot_job(job))
        return st;
    const pl_job *user = pl_job_slot_origin(job);
    for (int32_t t = 0, f = 0; t < pl_job_task_count(user) && f <= k && !st; t++) {
        pl_task_demand u;
        if ((st = pl_job_task(user, t, &u)) || f != k || u.gpus <= 1) {
            f += u.gpus > 1 ? (int32_t)u.gpus : 1;
            continue;
        }
        d->cores = (d->cores + u.gpus - 1) / u.gpus;
        d->memory = (d->memory + u.gpus - 1) / u.gpus;
        break;
    }
    return st;
}

/* Apply the job's constraints to task k (pl_drm_cons, as drmaestro): undo
 * last round's restriction, then, when some machine refuses the task, close
 * its routes and add an arc to each admitting machine, costed as the route
 * it replaces (0 on the data's machine, its rack's cost there, else X's). */
static pl_status restrict_task(fm_state *s, pl_drm_cons *cons, int constrained, int32_t i, int32_t k,
                               fm_task *x)
{
    pl_status st = PL_OK;
    for (int32_t q = 0; q < x->nd && !st; q++)
        st = pl_flownet_remove_arc(s->net, x->darc[q]);
    x->nd = 0;
    const int32_t route[3] = {x->arc_x, x->arc_rack, x->arc_mach};
    int32_t nok = 0;
    for (int32_t m = 0; m < s->nmach && constrained; m++)
        nok += pl_drm_cons_admit(cons, i, k, s->mvert[m]) != 0;
    int closed = constrained && nok < s->nmach;
    for (int r = 0; r < 3 && !st; r++)
        if (route[r] >= 0)
            st = pl_flownet_set_arc_bounds(s->net, route[r], 0, closed ? 0 : 1);
    if (st || !closed)
        return st;
    if (!x->darc && (!(x->darc = pl_alloc((size_t)s->nmach + 1, sizeof *x->darc)) ||
                     !(x->dmach = pl_alloc((size_t)s->nmach + 1, sizeof *x->dmach))))
        return PL_ENOMEM;
    pl_arc_info ax, ar = {0};
    if ((st = pl_flownet_get_arc(s->net, x->arc_x, &ax)) ||
        (x->arc_rack >= 0 && (st = pl_flownet_get_arc(s->net, x->arc_rack, &ar))))
        return st;
    for (int32_t m = 0; m < s->nmach && !st; m++) {
        if (!pl_drm_cons_admit(cons, i, k, s->mvert[m]))
            continue;
        int64_t cost = m == x->dm                                      ? 0
                       : x->arc_rack >= 0 && s->mrack[m] == s->mrack[x->dm] ? ar.cost
                                                                        : ax.cost;
        x->dmach[x->nd] = m;
        st = pl_flownet_add_arc(s->net, x->node, s->mnode[m], 0, 1, cost, &x->darc[x->nd]);
        x->nd += !st;
    }
    return st;
}

static int64_t flow(const pl_flownet *net, int32_t arc)
{
    int64_t f = 0;
    return arc >= 0 && pl_flownet_get_flow(net, arc, &f) == PL_OK ? f : 0;
}

/* Which machine each task's unit reached: direct arcs first, then rack
 * arcs take their rack's R -> M flows, then X's units take what is left
 * (units entering a rack or X are interchangeable: every arc after them
 * costs 0). */
static pl_status decode(fm_state *s)
{
    int64_t *left = pl_alloc((size_t)s->nmach + 1, sizeof *left);
    if (!left)
        return PL_ENOMEM;
    for (int32_t m = 0; m < s->nmach; m++)
        left[m] = flow(s->net, s->m_in[m]);
    for (int pass = 0; pass < 3; pass++)
        for (int32_t i = 0; i < s->njobs; i++)
            for (int32_t k = 0; k < s->jobs[i].ntasks; k++) {
                fm_task *x = &s->jobs[i].t[k];
                if (pass == 0) {
                    x->machine = -1;
                    for (int32_t q = 0; q < x->nd; q++)
                        x->machine = flow(s->net, x->darc[q]) > 0 ? x->dmach[q] : x->machine;
                }
                if (x->machine >= 0 && pass == 0)
                    continue;
                int32_t arc = pass == 0 ? x->arc_mach : pass == 1 ? x->arc_rack : x->arc_x;
                if (flow(s->net, arc) <= 0)
                    continue;
                if (pass == 0) {
                    x->machine = x->dm;
                    continue;
                }
                int32_t rack = pass == 1 ? s->mrack[x->dm] : -1;
                for (int32_t m = 0; m < s->nmach && x->machine < 0; m++)
                    if (left[m] > 0 && (pass == 2 || s->mrack[m] == rack)) {
                        left[m]--;
                        x->machine = m;
                    }
            }
    free(left);
    return PL_OK;
}

static pl_status set_kind(pl_decision *out, int32_t i, pl_decision_kind kind, const char *reason)
{
    pl_decision_info info = {.kind = kind, .machine = -1, .slowdown = 1, .reason = reason};
    return pl_decision_set(out, i, &info);
}

/* Job j's resources on the machines the flow gave its tasks (on machine
 * index at[t] for task t when at is not NULL): the first free GPUs there,
 * cores and memory spread from the first package. *ok 0: they
 * do not fit (a smaller slot than the largest demand was counted); -1: a
 * pair constraint (anti-affinity, collocation, a single-node job split) is
 * broken, decision WAITING set. */
static pl_status realise(const fm_state *s, pl_topology *work, pl_drm_cons *cons, const fm_job *j,
                         const int32_t *at, pl_decision *out, int32_t i, int *ok)
{
    const int32_t k = j->ntasks;
    int32_t *mach = pl_alloc((size_t)k, sizeof *mach), *g = pl_alloc((size_t)k, sizeof *g);
    int32_t *host = pl_alloc((size_t)k, sizeof *host), *gl = pl_alloc((size_t)k, sizeof *gl);
    int32_t *gt = pl_alloc((size_t)k, sizeof *gt), ng = 0, machine = -2, nplan = 0, short_task = -1;
    pl_plan_item *plan = NULL;
    pl_status st = mach && g && host && gl && gt ? PL_OK : PL_ENOMEM;
    *ok = 1;
    for (int32_t t = 0; t < k && !st && *ok; t++) {
        pl_task_demand d;
        int32_t m = s->mvert[at ? at[t] : j->t[t].machine], buf[64], n = 0;
        mach[t] = m;
        g[t] = -1;
        machine = machine == -2 || machine == m ? m : -1;
        if ((st = pl_job_task(j->job, t, &d)))
            break;
        if ((st = pl_topology_descendants(work, m, d.gpus > 0 ? PL_VK_GPU : PL_VK_PACKAGE, buf, 64, &n)) ==
            PL_ELIMIT)
            st = PL_OK;
        n = n < 64 ? n : 64;
        for (int32_t q = 0; q < n && !st; q++) {
            int64_t free_units = 0;
            int taken = 0;
            for (int32_t p = 0; p < ng; p++)
                taken |= gl[p] == buf[q];
            if (d.gpus > 0 && (taken || pl_topology_amount(work, buf[q], PL_RES_UNITS, NULL, NULL, &free_units) ||
                               free_units < 1))
                continue;
            g[t] = d.gpus > 0 ? buf[q] : -1;
            host[t] = buf[q];
            break;
        }
        if (n == 0 || (d.gpus > 0 && g[t] < 0))
            *ok = 0;
        else if (g[t] >= 0) {
            gl[ng] = g[t];
            gt[ng++] = t;
        }
    }
    if (!st && *ok)
        st = pl_plan_build_spread(work, j->job, mach, gt, gl, ng, &plan, &nplan, &short_task);
    if (!st && *ok && (short_task >= 0 || !pl_plan_fits(work, plan, nplan, 0)))
        *ok = 0;
    const char *broken = NULL;
    if (!st && *ok && pl_job_single_node(j->job) && machine < 0)
        broken = "firmament: the flow put the tasks of a single-node job on several machines";
    if (!st && *ok && (broken || (!(st = pl_drm_cons_accept(cons, i, g, &broken)) && broken))) {
        *ok = -1; /* decided: waiting for the constraint's sake */
        st = set_kind(out, i, PL_DECISION_WAITING, broken);
    } else if (!st && *ok) {
        pl_decision_info info = {.kind = PL_DECISION_PLACED, .ngpus = k, .gpus = g, .machine = machine,
                                 .slowdown = 1, .utility = 1, .reason = "", .hosts = host};
        if (!(st = pl_plan_alloc(work, plan, nplan)) && !(st = pl_decision_set(out, i, &info)))
            st = pl_decision_set_plan(out, i, plan, nplan);
    }
    free(plan);
    free(mach);
    free(g);
    free(host);
    free(gl);
    free(gt);
    return st;
}

/* A class's GPUs: its tasks' that ask for one. */
static int32_t class_gpus(const fm_job *j, const int32_t *cls, int32_t c)
{
    int32_t n = 0;
    for (int32_t t = 0; t < j->ntasks; t++) {
        pl_task_demand d;
        n += cls[t] == c && pl_job_task(j->job, t, &d) == PL_OK && d.gpus > 0;
    }
    return n;
}

/* Whether machine m may hold task rep's class: its node constraints admit
 * every task of it and no task placed there before is anti-collocated
 * with one of them. */
static int class_may(const fm_state *s, pl_drm_cons *cons, int32_t i, const fm_job *j, const int32_t *cls,
                     const uint8_t *done, const int32_t *at, int32_t rep, int32_t m)
{
    for (int32_t t = 0; t < j->ntasks; t++) {
        if (cls[t] != cls[rep])
            continue;
        if (!pl_drm_cons_admit(cons, i, t, s->mvert[m]))
            return 0;
        for (int32_t u = 0; u < j->ntasks; u++)
            if (done[u] && at[u] == m && pl_job_anti_collocated(j->job, t, u))
                return 0;
    }
    return 1;
}

/* When the flow split collocated tasks over machines (a class of
 * pl_job_collocation_classes: the slots of a task of several GPUs, tasks
 * collocated by the user), the job's classes, the most GPUs first (lowest
 * task on a tie), each go whole to one of the machines the flow gave the
 * job that may hold it (class_may): best fit, the one with the fewest
 * GPUs free (after the classes before) that holds the class, else the one
 * with the most. The flow
 * cannot keep a class together and re-solving gives the same split; best
 * fit over the job's machines finds the packing the flow's counts allowed
 * (a 3- and a 4-GPU task on machines of 3 and 4 free GPUs). *at: machine
 * index per task; *split 0: nothing split, at is the flow's. */
static pl_status mend_classes(const fm_state *s, const pl_topology *work, pl_drm_cons *cons, int32_t i,
                              const fm_job *j, int32_t *at, int *split)
{
    const int32_t k = j->ntasks;
    int32_t *cls = pl_alloc((size_t)k + 1, sizeof *cls), *want = pl_alloc((size_t)k + 1, sizeof *want);
    int64_t *left = pl_alloc((size_t)s->nmach + 1, sizeof *left);
    uint8_t *used = pl_alloc((size_t)s->nmach + 1, 1), *done = pl_alloc((size_t)k + 1, 1);
    pl_status st = cls && want && left && used && done ? PL_OK : PL_ENOMEM;
    *split = 0;
    if (!st && pl_job_collocation_classes(j->job, 0, cls) < 0)
        st = PL_ENOMEM;
    for (int32_t t = 0; t < k && !st; t++) {
        at[t] = j->t[t].machine;
        used[at[t]] = 1;
        for (int32_t u = 0; u < t && !*split; u++)
            *split = cls[u] == cls[t] && at[u] != at[t];
    }
    for (int32_t m = 0; m < s->nmach && !st && *split; m++)
        if (used[m] && pl_topology_subtree_amount(work, s->mvert[m], PL_VK_GPU, PL_RES_UNITS, NULL, &left[m]))
            left[m] = 0;
    for (int32_t t = 0; t < k && !st && *split; t++)
        want[t] = class_gpus(j, cls, cls[t]);
    for (int32_t round = 0; round < k && !st && *split; round++) {
        int32_t rep = -1; /* the next class: the most GPUs, then the lowest task */
        for (int32_t t = 0; t < k; t++)
            if (!done[t] && (rep < 0 || want[t] > want[rep]))
                rep = t;
        if (rep < 0)
            break;
        int32_t fit = -1, big = -1;
        for (int32_t m = 0; m < s->nmach; m++) {
            if (!used[m] || !class_may(s, cons, i, j, cls, done, at, rep, m))
                continue;
            if (left[m] >= want[rep] && (fit < 0 || left[m] < left[fit]))
                fit = m;
            if (big < 0 || left[m] > left[big])
                big = m;
        }
        int32_t to = fit >= 0 ? fit : big; /* -1: no machine may hold it, it stays split (and waits) */
        for (int32_t t = 0; t < k; t++)
            if (cls[t] == cls[rep]) {
                at[t] = to >= 0 ? to : at[t];
                done[t] = 1;
            }
        if (to >= 0)
            left[to] -= want[rep];
    }
    free(cls);
    free(want);
    free(left);
    free(used);
    free(done);
    return st;
}

/* realise(), except that a single-node job the flow split over machines
 * is tried whole on each machine the flow used, in task order, and the
 * split collocation classes of a multi-node job are mended first. */
static pl_status realise_whole(const fm_state *s, pl_topology *work, pl_drm_cons *cons, const fm_job *j,
                               pl_decision *out, int32_t i, int *ok)
{
    int split = 0;
    for (int32_t t = 1; t < j->ntasks; t++)
        split |= j->t[t].machine != j->t[0].machine;
    int32_t *at = split ? pl_alloc((size_t)j->ntasks, sizeof *at) : NULL;
    pl_status st = split && !at ? PL_ENOMEM : PL_OK;
    if (!st && split && !pl_job_single_node(j->job) && !(st = mend_classes(s, work, cons, i, j, at, &split)))
        st = realise(s, work, cons, j, split ? at : NULL, out, i, ok);
    else if (!st && !split)
        st = realise(s, work, cons, j, NULL, out, i, ok);
    else if (!st) {
        *ok = 0;
        for (int32_t t = 0; t < j->ntasks && !st && *ok == 0; t++) {
            int seen = 0;
            for (int32_t u = 0; u < t; u++)
                seen |= j->t[u].machine == j->t[t].machine;
            for (int32_t u = 0; u < j->ntasks && !seen; u++)
                at[u] = j->t[t].machine;
            if (!seen)
                st = realise(s, work, cons, j, at, out, i, ok);
        }
    }
    free(at);
    return st;
}

/* Why the policy refuses the job outright, or NULL. */
static const char *refusal(const pl_job *job)
{
    if (pl_job_task_count(job) == 0)
        return "the job has no tasks";
    if (pl_job_gpu_model(job)[0])
        return "firmament does not choose GPUs by model";
    for (int32_t t = 0; t < pl_job_task_count(job); t++) {
        pl_task_demand d;
        if (pl_job_task(job, t, &d) == PL_OK && d.gpu_milli > 0)
            return "firmament places tasks of whole GPUs (a task asks for a share of one)";
    }
    return NULL;
}


/* Supplies, capacities (from topo) and one solve over the jobs not done
 * (placed or rejected); costs are set by the first pass. Then the jobs the
 * flow served are realised on work in queue order; *broken counts those a
 * pair constraint (anti-affinity, collocation) sends back or the flow
 * served in part. */
static pl_status fm_pass(fm_state *s, const pl_policy_request *req, const pl_topology *topo, pl_drm_cons *cons,
                         const int32_t *order, uint8_t *done, int pass, pl_topology *work, pl_decision *out,
                         int32_t *nplaced, int *broken)
{
    pl_status st = PL_OK;
    pl_task_demand dmax = {0};
    int64_t supply = 0;
    *broken = 0;
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        fm_job *j = &s->jobs[order[i]];
        const char *no = NULL;
        if (pass == 0 && !(no = refusal(j->job)))
            st = pl_drm_cons_refusal(cons, j->job, &no);
        if (!st && no) {
            done[i] = 1;
            st = set_kind(out, i, PL_DECISION_REJECTED, no);
        }
        int constrained = !done[i] && pl_job_has_constraints(j->job);
        for (int32_t k = 0; k < j->ntasks && !st; k++) {
            pl_task_demand d;
            if ((pass == 0 || constrained) && (st = restrict_task(s, cons, constrained, i, k, &j->t[k])))
                break;
            if ((st = slot_share(j->job, k, &d)))
                break;
            pl_arc_info ai;
            if (pass == 0 && !(st = pl_flownet_get_arc(s->net, j->t[k].arc_x, &ai)))
                st = pl_flownet_set_arc_cost(s->net, j->t[k].arc_u, ai.cost + 1 + FM_OMEGA * j->waited);
            if (!st)
                st = pl_flownet_set_supply(s->net, j->t[k].node, done[i] ? 0 : 1);
            supply += !done[i];
            if (!done[i]) {
                dmax.gpus = d.gpus > dmax.gpus ? d.gpus : dmax.gpus;
                dmax.cores = d.cores > dmax.cores ? d.cores : dmax.cores;
                dmax.memory = d.memory > dmax.memory ? d.memory : dmax.memory;
            }
        }
    }
    for (int32_t m = 0; m < s->nmach && !st; m++)
        st = pl_flownet_set_arc_bounds(s->net, s->m_out[m], 0, slots(topo, s->mvert[m], &dmax, supply));
    if (!st)
        st = pl_flownet_set_supply(s->net, s->sink, -supply);
    if (st || supply == 0)
        return st;
    pl_solve_opts so;
    pl_solve_opts_init(&so);
    if (!(st = pl_flownet_solve(s->net, &so, NULL)))
        st = decode(s);
    int first_partial = 1;
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        const fm_job *j = &s->jobs[order[i]];
        int32_t served = 0;
        int ok = 0;
        for (int32_t k = 0; k < j->ntasks; k++)
            served += j->t[k].machine >= 0;
        if (done[i] || served < j->ntasks) {
            /* Waiting (the decision's initial kind), or done. A job served
             * in part wasted its units: Quincy schedules tasks alone, our
             * jobs start whole. The first such job is solved again without
             * the others (they wait this round), so that a queue of gangs
             * sharing the slots cannot leave an idle cluster idle. */
            if (!done[i] && served > 0) {
                done[i] = !first_partial;
                first_partial = 0;
                (*broken)++;
            }
            continue;
        }
        if (req->opts->max_placed > 0 && *nplaced >= req->opts->max_placed)
            st = set_kind(out, i, PL_DECISION_WAITING, "max_placed reached");
        else if (!(st = realise_whole(s, work, cons, j, out, i, &ok)) && ok == 0)
            st = set_kind(out, i, PL_DECISION_WAITING, "firmament: the task does not fit the slot the flow gave it");
        *nplaced += ok > 0;
        done[i] = ok > 0;
        *broken += ok < 0;
    }
    return st;
}

/* The flow cannot express pair constraints nor whole jobs: a job placed
 * against a constraint waits, a job served in part is solved again alone
 * (fm_pass), and the others are solved again around what was placed (at
 * most this many passes a round). */
#define FM_PASSES 4

static pl_status fm_place(const pl_policy_request *req, pl_decision *out)
{
    fm_state *s = req->state;
    pl_topology *work = NULL;
    pl_drm_cons *cons = NULL;
    int32_t *order = pl_alloc((size_t)req->nqueue + 1, sizeof *order), nplaced = 0;
    uint8_t *done = pl_alloc((size_t)req->nqueue + 1, 1);
    pl_status st = order && done ? pl_drm_cons_create(req, &cons) : PL_ENOMEM;
    if (!st && s->nmach < 0)
        st = build_base(s, req->topo);
    if (!st)
        st = sync_jobs(s, req, order);
    for (int32_t i = 0; i < req->nqueue && !st; i++)
        pl_drm_cons_bind(cons, i, i);
    if (!st)
        st = pl_topology_copy(req->topo, &work);
    int broken = 1;
    for (int pass = 0; pass < FM_PASSES && broken && !st; pass++)
        st = fm_pass(s, req, pass ? work : req->topo, cons, order, done, pass, work, out, &nplaced, &broken);
    pl_topology_free(work);
    pl_drm_cons_free(cons);
    free(order);
    free(done);
    return st;
}

const pl_policy_ops pl_policy_firmament = {
    .name = "firmament",
    .description = "Firmament with Quincy's cost model (seed 004's baseline): incremental min-cost flow, "
                   "data-locality preferences, no GPU disaggregation, no preemption",
    .place = fm_place,
    .version = PL_POLICY_OPS_VERSION,
    .create = fm_create,
    .destroy = fm_free, /* no idle_rounds: the wait cost only reorders jobs that all wait for room */
};

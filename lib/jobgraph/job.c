/* pl_job: tasks, the undirected traffic graph between them, constraints and
 * goals (include/placement/job.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal/job_impl.h"

/* ---- life cycle ----------------------------------------------------------------- */

pl_status pl_job_create(const char *name, pl_job **out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_job_create: NULL out");
    *out = NULL;
    pl_job *job = pl_alloc(1, sizeof *job);
    if (!job)
        return PL_ENOMEM;
    job->name = pl_strdup(name ? name : "job");
    if (!job->name) {
        free(job);
        return PL_ENOMEM;
    }
    job->single_node = 1;
    *out = job;
    return PL_OK;
}

static void free_nodes(char **nodes, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        free(nodes[i]);
    free(nodes);
}

static void job_destroy(pl_job *job)
{
    for (int64_t i = 0; i < job->ntasks; i++)
        free(job->adj[i].edges);
    free(job->adj);
    free(job->tasks);
    free(job->edges);
    free(job->anti);
    free_nodes(job->nodes, job->nnodes);
    pl_job_free_constraints(job);
    free(job->wl_type);
    free(job->wl_size);
    free(job->gpu_model);
    free(job->name);
    free(job);
}

void pl_job_free(pl_job *job)
{
    /* A job in a set is the set's to free: ignoring the call turns the
     * documented misuse into a no-op instead of a double free. */
    if (job && !job->owner)
        job_destroy(job);
}

static int valid_task(const pl_job *job, int32_t t)
{
    return t >= 0 && t < job->ntasks;
}

static int demand_ok(const pl_task_demand *d)
{
    return d->gpus >= 0 && d->cores >= 0 && d->memory >= 0 && d->gpu_memory >= 0 && d->bandwidth >= 0 &&
           d->gpu_milli >= 0 && d->cpu_milli >= 0 && d->storage_bw >= 0 && d->storage_bytes >= 0;
}

int64_t pl_task_cores(const pl_task_demand *d)
{
    if (!d)
        return 0;
    int64_t extra = d->cpu_milli / 1000 + (d->cpu_milli % 1000 != 0), sum;
    return pl_add_ovf(d->cores, extra, &sum) ? INT64_MAX : sum;
}

pl_status pl_job_add_task(pl_job *job, const pl_task_demand *demand, int32_t *id)
{
    static const pl_task_demand one_gpu = {.gpus = 1};
    if (!job)
        return pl_err(PL_EINVAL, "pl_job_add_task: NULL job");
    if (!demand)
        demand = &one_gpu;
    if (!demand_ok(demand))
        return pl_err(PL_EINVAL, "pl_job_add_task: negative demand");
    if (demand->gpu_milli >= 1000)
        return pl_err(PL_EINVAL, "pl_job_add_task: gpu_milli %lld is not a share of one GPU (1..999; "
                      "ask for whole GPUs with gpus)", (long long)demand->gpu_milli);
    if (demand->gpu_milli > 0 && demand->gpus > 1)
        return pl_err(PL_EINVAL, "pl_job_add_task: a task with gpu_milli %lld takes a share of one GPU, "
                      "not %lld GPUs", (long long)demand->gpu_milli, (long long)demand->gpus);
    if (job->ntasks >= INT32_MAX)
        return pl_err(PL_EINVAL, "pl_job_add_task: too many tasks");
    if (pl_grow((void **)&job->tasks, &job->task_cap, job->ntasks + 1, sizeof *job->tasks))
        return PL_ENOMEM;
    if (pl_grow((void **)&job->adj, &job->adj_cap, job->ntasks + 1, sizeof *job->adj))
        return PL_ENOMEM;
    job->tasks[job->ntasks] = *demand;
    /* A caller's garbage there would be read as the members that later take it. */
    memset(job->tasks[job->ntasks].reserved, 0, sizeof job->tasks[job->ntasks].reserved);
    if (demand->gpu_milli > 0)
        job->tasks[job->ntasks].gpus = 0;
    job->adj[job->ntasks] = (pl_job_adj){0};
    if (id)
        *id = (int32_t)job->ntasks;
    job->ntasks++;
    return PL_OK;
}

/* Edge id between a and b, or -1: scans the shorter incidence list. */
static int32_t find_edge(const pl_job *job, int32_t a, int32_t b)
{
    const pl_job_adj *la = &job->adj[a], *lb = &job->adj[b];
    if (lb->n < la->n) {
        const pl_job_adj *t = la;
        la = lb;
        lb = t;
        int32_t x = a;
        a = b;
        b = x;
    }
    for (int64_t i = 0; i < la->n; i++) {
        const pl_job_edge_info *e = &job->edges[la->edges[i]];
        if ((e->a == a && e->b == b) || (e->a == b && e->b == a))
            return la->edges[i];
    }
    return -1;
}

static pl_status adj_push(pl_job_adj *l, int32_t edge)
{
    if (pl_grow((void **)&l->edges, &l->cap, l->n + 1, sizeof *l->edges))
        return PL_ENOMEM;
    l->edges[l->n++] = edge;
    return PL_OK;
}

static pl_status check_pair(const pl_job *job, int32_t a, int32_t b, const char *fn)
{
    if (!job)
        return pl_err(PL_EINVAL, "%s: NULL job", fn);
    if (!valid_task(job, a) || !valid_task(job, b))
        return pl_err(PL_EINVAL, "%s: task ids %d, %d not in [0, %lld)", fn, (int)a, (int)b,
                      (long long)job->ntasks);
    if (a == b)
        return pl_err(PL_EINVAL, "%s: a task cannot be paired with itself (%d)", fn, (int)a);
    return PL_OK;
}

static pl_status check_traffic(double traffic, const char *fn)
{
    if (!isfinite(traffic) || traffic < 0)
        return pl_err(PL_EINVAL, "%s: traffic must be finite and >= 0, got %g", fn, traffic);
    return PL_OK;
}

/* Add to an existing edge or append one (ids and traffic already checked).
 * Capacity for the new edge is reserved before any list is touched, so a
 * failure leaves the job unchanged. */
static pl_status add_edge(pl_job *job, int32_t a, int32_t b, double traffic)
{
    int32_t e = find_edge(job, a, b);
    if (e >= 0) {
        double sum = job->edges[e].traffic + traffic;
        if (!isfinite(sum))
            return pl_err(PL_EINVAL, "pl_job_add_edge: traffic %d-%d would overflow to infinity", (int)a, (int)b);
        job->edges[e].traffic = sum;
        return PL_OK;
    }
    if (job->nedges >= INT32_MAX)
        return pl_err(PL_EINVAL, "pl_job_add_edge: too many edges");
    if (pl_grow((void **)&job->edges, &job->edge_cap, job->nedges + 1, sizeof *job->edges))
        return PL_ENOMEM;
    pl_job_adj *la = &job->adj[a], *lb = &job->adj[b];
    if (pl_grow((void **)&la->edges, &la->cap, la->n + 1, sizeof *la->edges) ||
        pl_grow((void **)&lb->edges, &lb->cap, lb->n + 1, sizeof *lb->edges))
        return PL_ENOMEM;
    int32_t id = (int32_t)job->nedges++;
    job->edges[id] = (pl_job_edge_info){.a = a < b ? a : b, .b = a < b ? b : a, .traffic = traffic};
    (void)adj_push(la, id);
    (void)adj_push(lb, id);
    return PL_OK;
}

pl_status pl_job_add_edge(pl_job *job, int32_t a, int32_t b, double traffic)
{
    pl_status st = check_pair(job, a, b, "pl_job_add_edge");
    if (st)
        return st;
    if ((st = check_traffic(traffic, "pl_job_add_edge")))
        return st;
    return add_edge(job, a, b, traffic);
}

/* Join a with every b > a: pos[b] holds the edge a-b already has (marked
 * from a's list, O(deg a)), so no pair is looked up by a scan; the whole
 * graph costs O(n^2 + edges) instead of the O(n^3) of one add_edge per pair. */
static pl_status join_to_higher(pl_job *job, int32_t a, double traffic, int32_t *pos)
{
    const pl_job_adj *la = &job->adj[a];
    for (int64_t i = 0; i < la->n; i++) {
        const pl_job_edge_info *e = &job->edges[la->edges[i]];
        pos[e->a == a ? e->b : e->a] = la->edges[i];
    }
    pl_status st = PL_OK;
    for (int32_t b = a + 1; b < job->ntasks && !st; b++) {
        if (pos[b] >= 0) {
            double sum = job->edges[pos[b]].traffic + traffic;
            if (!isfinite(sum))
                st = pl_err(PL_EINVAL, "pl_job_add_all_to_all: traffic %d-%d would overflow to "
                            "infinity", (int)a, (int)b);
            else
                job->edges[pos[b]].traffic = sum;
            continue;
        }
        pl_job_adj *lb = &job->adj[b];
        if (pl_grow((void **)&lb->edges, &lb->cap, lb->n + 1, sizeof *lb->edges) ||
            pl_grow((void **)&job->adj[a].edges, &job->adj[a].cap, job->adj[a].n + 1,
                    sizeof *job->adj[a].edges))
            return PL_ENOMEM;
        int32_t id = (int32_t)job->nedges++;
        job->edges[id] = (pl_job_edge_info){.a = a, .b = b, .traffic = traffic};
        (void)adj_push(&job->adj[a], id);
        (void)adj_push(lb, id);
    }
    for (int64_t i = 0; i < job->adj[a].n; i++) {
        const pl_job_edge_info *e = &job->edges[job->adj[a].edges[i]];
        pos[e->a == a ? e->b : e->a] = -1;
    }
    return st;
}

pl_status pl_job_add_all_to_all(pl_job *job, double traffic)
{
    if (!job)
        return pl_err(PL_EINVAL, "pl_job_add_all_to_all: NULL job");
    pl_status st = check_traffic(traffic, "pl_job_add_all_to_all");
    if (st)
        return st;
    int64_t n = job->ntasks;
    if (n * (n - 1) / 2 > INT32_MAX - job->nedges)
        return pl_err(PL_EINVAL, "pl_job_add_all_to_all: %lld tasks give too many edges", (long long)n);
    /* Room for every new edge at once: one growth instead of one per pair. */
    if (pl_grow((void **)&job->edges, &job->edge_cap, job->nedges + n * (n - 1) / 2 + 1,
                sizeof *job->edges))
        return PL_ENOMEM;
    int32_t *pos = malloc((size_t)(n > 0 ? n : 1) * sizeof *pos);
    if (!pos)
        return PL_ENOMEM;
    memset(pos, 0xff, (size_t)(n > 0 ? n : 1) * sizeof *pos); /* all -1 */
    for (int32_t a = 0; a < n && !st; a++)
        st = join_to_higher(job, a, traffic, pos);
    free(pos);
    return st;
}

/* ---- attributes ------------------------------------------------------------------ */

pl_status pl_job_set_workload(pl_job *job, const char *type, const char *size)
{
    if (!job)
        return pl_err(PL_EINVAL, "pl_job_set_workload: NULL job");
    char *t = NULL, *s = NULL;
    if ((type && !(t = pl_strdup(type))) || (size && !(s = pl_strdup(size)))) {
        free(t);
        return PL_ENOMEM;
    }
    free(job->wl_type);
    free(job->wl_size);
    job->wl_type = t;
    job->wl_size = s;
    return PL_OK;
}

pl_status pl_job_set_gpu_model(pl_job *job, const char *models)
{
    if (!job)
        return pl_err(PL_EINVAL, "pl_job_set_gpu_model: NULL job");
    char *copy = NULL;
    if (models && *models) {
        /* An empty alternative would match GPUs of no model, which is never
         * what "A||B" or a trailing '|' meant. */
        size_t n = strlen(models);
        if (models[0] == '|' || models[n - 1] == '|' || strstr(models, "||"))
            return pl_err(PL_EINVAL, "pl_job_set_gpu_model: \"%s\" has an empty alternative", models);
        if (!(copy = pl_strdup(models)))
            return PL_ENOMEM;
    }
    free(job->gpu_model);
    job->gpu_model = copy;
    return PL_OK;
}

const char *pl_job_gpu_model(const pl_job *job)
{
    return job && job->gpu_model ? job->gpu_model : "";
}

/* The model of GPU v: its own "model", else the nearest "gpu_model" above it. */
static const char *gpu_model_of(const pl_topology *t, int32_t v)
{
    const char *m = pl_topology_attr(t, v, "model");
    pl_vertex_info vi;
    while (!m && pl_topology_vertex(t, v, &vi) == PL_OK && vi.parent >= 0) {
        v = vi.parent;
        m = pl_topology_attr(t, v, "gpu_model");
    }
    return m;
}

int pl_job_gpu_admits(const pl_job *job, const pl_topology *topo, int32_t gpu)
{
    if (!job || !topo)
        return 0;
    if (!job->gpu_model)
        return 1;
    const char *m = gpu_model_of(topo, gpu);
    if (!m)
        return 0;
    size_t len = strlen(m);
    for (const char *p = job->gpu_model; *p;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && !strncmp(p, m, n))
            return 1;
        p += n + (bar != NULL);
    }
    return 0;
}

static pl_status set_seconds(pl_job *job, double v, double *field, const char *fn)
{
    if (!job)
        return pl_err(PL_EINVAL, "%s: NULL job", fn);
    if (!isfinite(v) || v < 0)
        return pl_err(PL_EINVAL, "%s: expected a finite number >= 0, got %g", fn, v);
    *field = v;
    return PL_OK;
}

pl_status pl_job_set_min_utility(pl_job *job, double min_utility)
{
    if (job && !(min_utility >= 0 && min_utility <= 1))
        return pl_err(PL_EINVAL, "pl_job_set_min_utility: expected a number in [0, 1], got %g", min_utility);
    return set_seconds(job, min_utility, job ? &job->min_utility : NULL, "pl_job_set_min_utility");
}

pl_status pl_job_set_slo(pl_job *job, double seconds)
{
    return set_seconds(job, seconds, job ? &job->slo : NULL, "pl_job_set_slo");
}

pl_status pl_job_set_arrival(pl_job *job, double seconds)
{
    return set_seconds(job, seconds, job ? &job->arrival : NULL, "pl_job_set_arrival");
}

pl_status pl_job_set_duration(pl_job *job, double seconds)
{
    return set_seconds(job, seconds, job ? &job->duration : NULL, "pl_job_set_duration");
}

pl_status pl_job_set_single_node(pl_job *job, int single_node)
{
    if (!job)
        return pl_err(PL_EINVAL, "pl_job_set_single_node: NULL job");
    job->single_node = single_node != 0;
    return PL_OK;
}

static int64_t find_anti(const pl_job *job, int32_t a, int32_t b)
{
    int32_t lo = a < b ? a : b, hi = a < b ? b : a;
    for (int64_t i = 0; i < job->nanti; i++)
        if (job->anti[i][0] == lo && job->anti[i][1] == hi)
            return i;
    return -1;
}

pl_status pl_job_add_anti_collocation(pl_job *job, int32_t a, int32_t b)
{
    pl_status st = check_pair(job, a, b, "pl_job_add_anti_collocation");
    if (st)
        return st;
    if (find_anti(job, a, b) >= 0)
        return PL_OK;
    if (pl_grow((void **)&job->anti, &job->anti_cap, job->nanti + 1, sizeof *job->anti))
        return PL_ENOMEM;
    job->anti[job->nanti][0] = a < b ? a : b;
    job->anti[job->nanti][1] = a < b ? b : a;
    job->nanti++;
    return PL_OK;
}

pl_status pl_job_set_node_filter(pl_job *job, const char *const *names, int32_t count)
{
    if (!job)
        return pl_err(PL_EINVAL, "pl_job_set_node_filter: NULL job");
    if (count < 0 || (count > 0 && !names))
        return pl_err(PL_EINVAL, "pl_job_set_node_filter: bad names/count (%d)", (int)count);
    if (!names)
        count = 0;
    for (int32_t i = 0; i < count; i++)
        if (!names[i])
            return pl_err(PL_EINVAL, "pl_job_set_node_filter: names[%d] is NULL", (int)i);
    char **copy = NULL;
    if (count > 0 && !(copy = pl_alloc((size_t)count, sizeof *copy)))
        return PL_ENOMEM;
    for (int32_t i = 0; i < count; i++) {
        if (!(copy[i] = pl_strdup(names[i]))) {
            free_nodes(copy, i);
            return PL_ENOMEM;
        }
    }
    free_nodes(job->nodes, job->nnodes);
    job->nodes = copy;
    job->nnodes = count;
    return PL_OK;
}

/* ---- copy ------------------------------------------------------------------------- */

pl_status pl_job_copy(const pl_job *job, pl_job **out)
{
    if (!job || !out)
        return pl_err(PL_EINVAL, "pl_job_copy: NULL argument");
    *out = NULL;
    pl_job *c = NULL;
    pl_status st = pl_job_create(job->name, &c);
    for (int64_t i = 0; !st && i < job->ntasks; i++)
        st = pl_job_add_task(c, &job->tasks[i], NULL);
    /* Re-adding in order reproduces the edge ids. */
    for (int64_t i = 0; !st && i < job->nedges; i++)
        st = add_edge(c, job->edges[i].a, job->edges[i].b, job->edges[i].traffic);
    for (int64_t i = 0; !st && i < job->nanti; i++)
        st = pl_job_add_anti_collocation(c, job->anti[i][0], job->anti[i][1]);
    if (!st)
        st = pl_job_set_node_filter(c, (const char *const *)job->nodes, job->nnodes);
    if (!st)
        st = pl_job_set_workload(c, job->wl_type, job->wl_size);
    if (!st)
        st = pl_job_copy_constraints(job, c);
    if (!st)
        st = pl_job_set_gpu_model(c, job->gpu_model);
    if (st) {
        pl_job_free(c);
        return st;
    }
    c->min_utility = job->min_utility;
    c->slo = job->slo;
    c->arrival = job->arrival;
    c->duration = job->duration;
    c->single_node = job->single_node;
    *out = c;
    return PL_OK;
}

/* ---- queries ---------------------------------------------------------------------- */

const char *pl_job_name(const pl_job *job) { return job ? job->name : ""; }
int32_t pl_job_task_count(const pl_job *job) { return job ? (int32_t)job->ntasks : 0; }
int32_t pl_job_edge_count(const pl_job *job) { return job ? (int32_t)job->nedges : 0; }

pl_status pl_job_task(const pl_job *job, int32_t i, pl_task_demand *demand)
{
    if (!job || !demand)
        return pl_err(PL_EINVAL, "pl_job_task: NULL argument");
    if (!valid_task(job, i))
        return pl_err(PL_EINVAL, "pl_job_task: task %d not in [0, %lld)", (int)i, (long long)job->ntasks);
    *demand = job->tasks[i];
    return PL_OK;
}

pl_status pl_job_edge(const pl_job *job, int32_t i, pl_job_edge_info *info)
{
    if (!job || !info)
        return pl_err(PL_EINVAL, "pl_job_edge: NULL argument");
    if (i < 0 || i >= job->nedges)
        return pl_err(PL_EINVAL, "pl_job_edge: edge %d not in [0, %lld)", (int)i, (long long)job->nedges);
    *info = job->edges[i];
    return PL_OK;
}

pl_status pl_job_traffic(const pl_job *job, int32_t a, int32_t b, double *traffic)
{
    if (!job || !traffic)
        return pl_err(PL_EINVAL, "pl_job_traffic: NULL argument");
    if (!valid_task(job, a) || !valid_task(job, b))
        return pl_err(PL_EINVAL, "pl_job_traffic: task ids %d, %d not in [0, %lld)", (int)a, (int)b,
                      (long long)job->ntasks);
    int32_t e = a == b ? -1 : find_edge(job, a, b);
    *traffic = e >= 0 ? job->edges[e].traffic : 0.0;
    return PL_OK;
}

pl_status pl_job_total_demand(const pl_job *job, pl_task_demand *total)
{
    if (!job || !total)
        return pl_err(PL_EINVAL, "pl_job_total_demand: NULL argument");
    pl_task_demand s = {0};
    for (int64_t i = 0; i < job->ntasks; i++) {
        const pl_task_demand *d = &job->tasks[i];
        if (pl_add_ovf(s.gpus, d->gpus, &s.gpus) || pl_add_ovf(s.cores, d->cores, &s.cores) ||
            pl_add_ovf(s.memory, d->memory, &s.memory) ||
            pl_add_ovf(s.gpu_memory, d->gpu_memory, &s.gpu_memory) ||
            pl_add_ovf(s.bandwidth, d->bandwidth, &s.bandwidth) ||
            pl_add_ovf(s.gpu_milli, d->gpu_milli, &s.gpu_milli) ||
            pl_add_ovf(s.cpu_milli, d->cpu_milli, &s.cpu_milli) ||
            pl_add_ovf(s.storage_bw, d->storage_bw, &s.storage_bw) ||
            pl_add_ovf(s.storage_bytes, d->storage_bytes, &s.storage_bytes))
            return pl_err(PL_EOVERFLOW, "pl_job_total_demand: the demand of job '%s' overflows int64",
                          job->name);
    }
    *total = s;
    return PL_OK;
}

const char *pl_job_workload_type(const pl_job *job) { return job && job->wl_type ? job->wl_type : ""; }
const char *pl_job_workload_size(const pl_job *job) { return job && job->wl_size ? job->wl_size : ""; }
double pl_job_min_utility(const pl_job *job) { return job ? job->min_utility : 0; }
double pl_job_slo(const pl_job *job) { return job ? job->slo : 0; }
double pl_job_arrival(const pl_job *job) { return job ? job->arrival : 0; }
double pl_job_duration(const pl_job *job) { return job ? job->duration : 0; }
int pl_job_single_node(const pl_job *job) { return job ? job->single_node : 1; }

int pl_job_anti_collocated(const pl_job *job, int32_t a, int32_t b)
{
    if (!job || !valid_task(job, a) || !valid_task(job, b) || a == b)
        return 0;
    return find_anti(job, a, b) >= 0;
}

int pl_job_admits_node(const pl_job *job, const char *name)
{
    if (!job || job->nnodes == 0)
        return 1;
    if (!name)
        return 0;
    for (int32_t i = 0; i < job->nnodes; i++)
        if (!strcmp(job->nodes[i], name))
            return 1;
    return 0;
}

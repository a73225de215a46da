/* Placement constraints of a job (Kim's thesis ch. 4): node Must / MustNot
 * on machine attributes, task-to-task Must, job labels and job-to-job
 * anti-affinity, the equivalence classes of tasks, and the test of one task
 * against one machine. The conflict analysis is the constraint module's
 * (its topology view, lib/constraints/topology_view.c). */
#include <stdlib.h>
#include <string.h>
#include "internal/job_impl.h"
#include "internal/job_constraints.h"
#include "internal/constraints_view.h"

static int valid_task(const pl_job *job, int32_t t)
{
    return t >= 0 && t < job->ntasks;
}

/* ---- node constraints ------------------------------------------------------------- */

static pl_status add_rule(pl_job *job, int32_t task, const char *key, const char *value, int must_not,
                          const char *fn)
{
    if (!job)
        return pl_err(PL_EINVAL, "%s: NULL job", fn);
    if (task != PL_JOB_ALL_TASKS && !valid_task(job, task))
        return pl_err(PL_EINVAL, "%s: task %d not in [0, %lld) nor PL_JOB_ALL_TASKS", fn, (int)task,
                      (long long)job->ntasks);
    if (!key || !*key || !value || !*value)
        return pl_err(PL_EINVAL, "%s: key and value must be non-empty strings", fn);
    if (pl_grow((void **)&job->rules, &job->rules_cap, job->nrules + 1, sizeof *job->rules))
        return PL_ENOMEM;
    pl_job_rule r = {task, must_not, pl_strdup(key), pl_strdup(value)};
    if (!r.key || !r.value) {
        free(r.key);
        free(r.value);
        return PL_ENOMEM;
    }
    job->rules[job->nrules++] = r;
    return PL_OK;
}

pl_status pl_job_add_node_must(pl_job *job, int32_t task, const char *key, const char *value)
{
    return add_rule(job, task, key, value, 0, "pl_job_add_node_must");
}

pl_status pl_job_add_node_must_not(pl_job *job, int32_t task, const char *key, const char *value)
{
    return add_rule(job, task, key, value, 1, "pl_job_add_node_must_not");
}

int32_t pl_job_node_constraint_count(const pl_job *job)
{
    return job ? (int32_t)job->nrules : 0;
}

pl_status pl_job_node_constraint(const pl_job *job, int32_t i, pl_node_constraint *out)
{
    if (!job || !out)
        return pl_err(PL_EINVAL, "pl_job_node_constraint: NULL argument");
    if (i < 0 || i >= job->nrules)
        return pl_err(PL_EINVAL, "pl_job_node_constraint: index %d not in [0, %lld)", (int)i,
                      (long long)job->nrules);
    const pl_job_rule *r = &job->rules[i];
    *out = (pl_node_constraint){r->task, r->must_not, r->key, r->value};
    return PL_OK;
}

int pl_job_task_admits(const pl_job *job, int32_t task, const pl_topology *topo, int32_t v)
{
    pl_vertex_info vi;
    if (!job || !valid_task(job, task) || pl_topology_vertex(topo, v, &vi) != PL_OK)
        return 0;
    if (!pl_job_admits_node(job, vi.name))
        return 0;
    for (int64_t i = 0; i < job->nrules; i++) {
        const pl_job_rule *r = &job->rules[i];
        if (r->task != PL_JOB_ALL_TASKS && r->task != task)
            continue;
        const char *have = pl_topology_attr(topo, v, r->key);
        int equal = have && !strcmp(have, r->value);
        if (equal == r->must_not)
            return 0;
    }
    return 1;
}

/* ---- task-to-task Must and the classes --------------------------------------------- */

pl_status pl_job_add_collocation(pl_job *job, int32_t a, int32_t b)
{
    if (!job)
        return pl_err(PL_EINVAL, "pl_job_add_collocation: NULL job");
    if (!valid_task(job, a) || !valid_task(job, b) || a == b)
        return pl_err(PL_EINVAL, "pl_job_add_collocation: tasks %d, %d: need two distinct ids in [0, %lld)",
                      (int)a, (int)b, (long long)job->ntasks);
    int32_t lo = a < b ? a : b, hi = a < b ? b : a;
    for (int64_t i = 0; i < job->ncoloc; i++)
        if (job->coloc[i][0] == lo && job->coloc[i][1] == hi)
            return PL_OK;
    if (pl_grow((void **)&job->coloc, &job->coloc_cap, job->ncoloc + 1, sizeof *job->coloc))
        return PL_ENOMEM;
    job->coloc[job->ncoloc][0] = lo;
    job->coloc[job->ncoloc][1] = hi;
    job->ncoloc++;
    return PL_OK;
}

static int32_t uf_find(int32_t *parent, int32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

int32_t pl_job_task_classes(const pl_job *job, int32_t *cls)
{
    return job ? pl_job_collocation_classes(job, job->single_node, cls) : 0;
}

int32_t pl_job_collocation_classes(const pl_job *job, int one_machine, int32_t *cls)
{
    if (!job || job->ntasks == 0)
        return 0;
    int32_t n = (int32_t)job->ntasks;
    if (one_machine) {
        if (cls)
            memset(cls, 0, (size_t)n * sizeof *cls);
        return 1;
    }
    int32_t *parent = pl_alloc((size_t)n, sizeof *parent);
    if (!parent)
        return -1;
    for (int32_t t = 0; t < n; t++)
        parent[t] = t;
    for (int64_t i = 0; i < job->ncoloc; i++) {
        int32_t ra = uf_find(parent, job->coloc[i][0]), rb = uf_find(parent, job->coloc[i][1]);
        /* The smaller root wins: a root is its class's lowest task. */
        if (ra < rb)
            parent[rb] = ra;
        else if (rb < ra)
            parent[ra] = rb;
    }
    int32_t k = 0;
    for (int32_t t = 0; t < n; t++) {
        int32_t r = uf_find(parent, t);
        /* A root is its class's lowest task, so its number is known by then. */
        if (r == t) {
            if (cls)
                cls[t] = k;
            k++;
        } else if (cls) {
            cls[t] = cls[r];
        }
    }
    free(parent);
    return k;
}

const int32_t (*pl_job_collocation_pairs(const pl_job *job, int64_t *n))[2]
{
    *n = job ? job->ncoloc : 0;
    return job ? (const int32_t (*)[2])job->coloc : NULL;
}

const int32_t (*pl_job_anti_collocation_pairs(const pl_job *job, int64_t *n))[2]
{
    *n = job ? job->nanti : 0;
    return job ? (const int32_t (*)[2])job->anti : NULL;
}

const char *const *pl_job_node_filter(const pl_job *job, int32_t *n)
{
    *n = job ? job->nnodes : 0;
    return job ? (const char *const *)job->nodes : NULL;
}

int pl_job_collocated(const pl_job *job, int32_t a, int32_t b)
{
    if (!job || !valid_task(job, a) || !valid_task(job, b) || a == b)
        return 0;
    if (job->single_node)
        return 1;
    int32_t *cls = pl_alloc((size_t)job->ntasks, sizeof *cls);
    int same = cls && pl_job_task_classes(job, cls) > 0 && cls[a] == cls[b];
    free(cls);
    return same;
}

/* ---- labels and job-to-job anti-affinity -------------------------------------------- */

static int has_string(char *const *v, int64_t n, const char *s)
{
    for (int64_t i = 0; i < n; i++)
        if (!strcmp(v[i], s))
            return 1;
    return 0;
}

static pl_status add_string(char ***v, int64_t *n, int64_t *cap, const char *s, const char *fn)
{
    if (!s || !*s)
        return pl_err(PL_EINVAL, "%s: the label must be a non-empty string", fn);
    if (has_string(*v, *n, s))
        return PL_OK;
    if (pl_grow((void **)v, cap, *n + 1, sizeof **v))
        return PL_ENOMEM;
    if (!((*v)[*n] = pl_strdup(s)))
        return PL_ENOMEM;
    (*n)++;
    return PL_OK;
}

pl_status pl_job_add_label(pl_job *job, const char *label)
{
    if (!job)
        return pl_err(PL_EINVAL, "pl_job_add_label: NULL job");
    return add_string(&job->labels, &job->nlabels, &job->labels_cap, label, "pl_job_add_label");
}

pl_status pl_job_add_anti_affinity(pl_job *job, const char *label)
{
    if (!job)
        return pl_err(PL_EINVAL, "pl_job_add_anti_affinity: NULL job");
    return add_string(&job->avoid, &job->navoid, &job->avoid_cap, label, "pl_job_add_anti_affinity");
}

int32_t pl_job_label_count(const pl_job *job) { return job ? (int32_t)job->nlabels : 0; }
int32_t pl_job_anti_affinity_count(const pl_job *job) { return job ? (int32_t)job->navoid : 0; }

const char *pl_job_label(const pl_job *job, int32_t i)
{
    return job && i >= 0 && i < job->nlabels ? job->labels[i] : NULL;
}

const char *pl_job_anti_affinity_label(const pl_job *job, int32_t i)
{
    return job && i >= 0 && i < job->navoid ? job->avoid[i] : NULL;
}

int pl_job_has_label(const pl_job *job, const char *label)
{
    return job && label && has_string(job->labels, job->nlabels, label);
}

static int avoids(const pl_job *a, const pl_job *b)
{
    for (int64_t i = 0; i < a->navoid; i++)
        if (has_string(b->labels, b->nlabels, a->avoid[i]))
            return 1;
    return 0;
}

int pl_job_anti_affine(const pl_job *a, const pl_job *b)
{
    return a && b && a != b && (avoids(a, b) || avoids(b, a));
}

int pl_job_has_constraints(const pl_job *job)
{
    return job && (job->nrules || job->nnodes || job->ncoloc || job->nanti || job->nlabels || job->navoid);
}

/* ---- conflict analysis ---------------------------------------------------------------- */

pl_status pl_job_check_constraints(const pl_job *job, const pl_topology *topo, pl_conflict *conflicts,
                                   int32_t cap, int32_t *count)
{
    if (count)
        *count = 0;
    if (!job || !topo || cap < 0)
        return pl_err(PL_EINVAL, "pl_job_check_constraints: NULL job or topology, or negative cap");
    int32_t *hosts, n;
    double *gpus;
    pl_status st = pl_cview_machines(topo, &hosts, &gpus, &n);
    if (st)
        return st;
    char reason[2048];
    st = pl_cview_check_job(topo, hosts, gpus, n, job, pl_job_single_node(job), reason, sizeof reason,
                            conflicts, cap, count);
    free(hosts);
    free(gpus);
    return st;
}

/* ---- life cycle ----------------------------------------------------------------------- */

static void free_strings(char **v, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void pl_job_free_constraints(pl_job *job)
{
    for (int64_t i = 0; i < job->nrules; i++) {
        free(job->rules[i].key);
        free(job->rules[i].value);
    }
    free(job->rules);
    free(job->coloc);
    free_strings(job->labels, job->nlabels);
    free_strings(job->avoid, job->navoid);
}

pl_status pl_job_copy_constraints(const pl_job *src, pl_job *dst)
{
    pl_status st = PL_OK;
    for (int64_t i = 0; !st && i < src->nrules; i++)
        st = add_rule(dst, src->rules[i].task, src->rules[i].key, src->rules[i].value,
                      src->rules[i].must_not, "pl_job_copy");
    for (int64_t i = 0; !st && i < src->ncoloc; i++)
        st = pl_job_add_collocation(dst, src->coloc[i][0], src->coloc[i][1]);
    for (int64_t i = 0; !st && i < src->nlabels; i++)
        st = pl_job_add_label(dst, src->labels[i]);
    for (int64_t i = 0; !st && i < src->navoid; i++)
        st = pl_job_add_anti_affinity(dst, src->avoid[i]);
    return st;
}

/* Tasks of several whole GPUs (placement/job.h's pl_task_demand): the
 * policies map one task to one GPU, so a job with a task of k > 1 GPUs is
 * shown to them as its slot job, where that task is k tasks of one GPU each
 * (its slots, consecutive), held on one machine, talking to each other
 * heavily. A decision then has one entry per slot, which is what
 * pl_decision_info documents; every entry of a job of tasks of at most one
 * GPU is a task, so such a job is its own slot job and nothing changes.
 * Task ids in a reason a policy gives about a slot job are slot ids: the
 * code that writes such a reason appends which slots are which task
 * (pl_job_slots_explain), where it knows it named task ids, rather than
 * the engine guessing from the text afterwards. */
#include <stdlib.h>
#include <string.h>
#include "internal/job_impl.h"

/* Slots of one task: its whole GPUs, or 1 (a fractional or CPU-only task). */
static int64_t task_slots(const pl_task_demand *d)
{
    return d->gpus > 1 ? d->gpus : 1;
}

int pl_job_has_multi_gpu(const pl_job *job)
{
    for (int64_t t = 0; job && t < job->ntasks; t++)
        if (job->tasks[t].gpus > 1)
            return 1;
    return 0;
}

int64_t pl_job_slot_count(const pl_job *job)
{
    int64_t n = 0;
    for (int64_t t = 0; job && t < job->ntasks; t++)
        n += task_slots(&job->tasks[t]);
    return n;
}

int pl_job_is_slot_job(const pl_job *job)
{
    return job && job->slot_job;
}

const pl_job *pl_job_slot_origin(const pl_job *job)
{
    return job && job->slot_job ? job->slot_of : NULL;
}

pl_status pl_job_copy_goals(const pl_job *job, pl_job *v)
{
    pl_status st = pl_job_set_workload(v, job->wl_type, job->wl_size);
    if (!st)
        st = pl_job_set_min_utility(v, job->min_utility);
    if (!st)
        st = pl_job_set_slo(v, job->slo);
    if (!st)
        st = pl_job_set_arrival(v, job->arrival);
    if (!st)
        st = pl_job_set_duration(v, job->duration);
    if (!st)
        st = pl_job_set_single_node(v, job->single_node);
    if (!st)
        st = pl_job_set_node_filter(v, (const char *const *)job->nodes, job->nnodes);
    for (int64_t i = 0; !st && i < job->nlabels; i++)
        st = pl_job_add_label(v, job->labels[i]);
    for (int64_t i = 0; !st && i < job->navoid; i++)
        st = pl_job_add_anti_affinity(v, job->avoid[i]);
    return st;
}

/* The slots' tasks: the first slot of a task carries its whole demand (its
 * cores, memory and bandwidth sit by its first GPU, as a process drives its
 * GPUs from one socket), every other slot one GPU and its GPU memory. */
static pl_status add_slot_tasks(const pl_job *job, pl_job *s, int32_t *first)
{
    pl_status st = PL_OK;
    for (int64_t t = 0; t < job->ntasks && !st; t++) {
        pl_task_demand head = job->tasks[t], rest = {.gpus = 1, .gpu_memory = head.gpu_memory};
        if (head.gpus > 1)
            head.gpus = 1;
        st = pl_job_add_task(s, &head, &first[t]);
        for (int64_t i = 1; i < task_slots(&job->tasks[t]) && !st; i++)
            st = pl_job_add_task(s, &rest, NULL);
    }
    return st;
}

/* Traffic: an edge of the job spread evenly over the slot pairs of its two
 * tasks (the job's total traffic is kept), and between the slots of one
 * task the job's largest edge traffic (1 for a job without edges), so a
 * topology-aware policy keeps them on its best connected GPUs. */
static pl_status add_slot_edges(const pl_job *job, pl_job *s, const int32_t *first)
{
    double heavy = 0;
    pl_status st = PL_OK;
    for (int64_t e = 0; e < job->nedges; e++)
        heavy = job->edges[e].traffic > heavy ? job->edges[e].traffic : heavy;
    if (heavy <= 0)
        heavy = 1;
    for (int64_t e = 0; e < job->nedges && !st; e++) {
        const pl_job_edge_info *x = &job->edges[e];
        int64_t na = task_slots(&job->tasks[x->a]), nb = task_slots(&job->tasks[x->b]);
        double share = x->traffic / ((double)na * (double)nb);
        for (int64_t i = 0; i < na && !st; i++)
            for (int64_t j = 0; j < nb && !st; j++)
                if (share > 0)
                    st = pl_job_add_edge(s, first[x->a] + (int32_t)i, first[x->b] + (int32_t)j, share);
    }
    for (int64_t t = 0; t < job->ntasks && !st; t++)
        for (int64_t i = 0; i < task_slots(&job->tasks[t]) && !st; i++)
            for (int64_t j = i + 1; j < task_slots(&job->tasks[t]) && !st; j++)
                st = pl_job_add_edge(s, first[t] + (int32_t)i, first[t] + (int32_t)j, heavy);
    return st;
}

/* Constraints on the slots: a task's node rules on each of its slots, its
 * anti-collocations between every slot pair of the two tasks, its
 * collocations on the first slots; the slots of one task collocated, even
 * in a single-node job: a policy that places the tasks of such a job apart
 * (DRMaestro's remote GPUs) then sees that it must not. */
static pl_status add_slot_constraints(const pl_job *job, pl_job *s, const int32_t *first)
{
    pl_status st = PL_OK;
    for (int64_t r = 0; r < job->nrules && !st; r++) {
        const pl_job_rule *x = &job->rules[r];
        int64_t n = x->task == PL_JOB_ALL_TASKS ? 1 : task_slots(&job->tasks[x->task]);
        for (int64_t i = 0; i < n && !st; i++) {
            int32_t t = x->task == PL_JOB_ALL_TASKS ? PL_JOB_ALL_TASKS : first[x->task] + (int32_t)i;
            st = x->must_not ? pl_job_add_node_must_not(s, t, x->key, x->value)
                             : pl_job_add_node_must(s, t, x->key, x->value);
        }
    }
    for (int64_t p = 0; p < job->nanti && !st; p++) {
        int32_t a = job->anti[p][0], b = job->anti[p][1];
        for (int64_t i = 0; i < task_slots(&job->tasks[a]) && !st; i++)
            for (int64_t j = 0; j < task_slots(&job->tasks[b]) && !st; j++)
                st = pl_job_add_anti_collocation(s, first[a] + (int32_t)i, first[b] + (int32_t)j);
    }
    for (int64_t p = 0; p < job->ncoloc && !st; p++)
        st = pl_job_add_collocation(s, first[job->coloc[p][0]], first[job->coloc[p][1]]);
    for (int64_t t = 0; t < job->ntasks && !st; t++)
        for (int64_t i = 1; i < task_slots(&job->tasks[t]) && !st; i++)
            st = pl_job_add_collocation(s, first[t], first[t] + (int32_t)i);
    return st;
}

pl_status pl_job_slots(const pl_job *job, pl_job **out)
{
    *out = NULL;
    if (!pl_job_has_multi_gpu(job))
        return PL_OK;
    if (pl_job_slot_count(job) > INT32_MAX)
        return pl_err(PL_EINVAL, "job \"%s\" asks for more than %d GPUs", job->name, (int)INT32_MAX);
    int32_t *first = pl_alloc((size_t)job->ntasks, sizeof *first);
    pl_job *s = NULL;
    pl_status st = first ? pl_job_create(job->name, &s) : PL_ENOMEM;
    if (!st)
        st = add_slot_tasks(job, s, first);
    if (!st)
        st = add_slot_edges(job, s, first);
    if (!st)
        st = add_slot_constraints(job, s, first);
    if (!st)
        st = pl_job_copy_goals(job, s);
    if (!st)
        st = pl_job_set_gpu_model(s, job->gpu_model);
    if (!st) {
        s->slot_job = 1;
        s->slot_of = job;
    }
    free(first);
    return PL_HAND_OUT(st, s, pl_job_free, out);
}

int64_t pl_job_slot_serial(const pl_job *job)
{
    return job && job->slot_job ? job->slot_serial : 0;
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static int same_texts(char *const *a, char *const *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (!same_text(a[i], b[i]))
            return 0;
    return 1;
}

static int same_counts(const pl_job *a, const pl_job *b)
{
    return a->ntasks == b->ntasks && a->nedges == b->nedges && a->nrules == b->nrules && a->nanti == b->nanti &&
           a->ncoloc == b->ncoloc && a->nnodes == b->nnodes && a->nlabels == b->nlabels && a->navoid == b->navoid;
}

/* Everything pl_job_slots() reads (add_slot_*, pl_job_copy_goals, the GPU
 * model, the name): a field it starts reading belongs here too, or the
 * engine's kept slot jobs (slot_cache.c) miss a change to it. */
int pl_job_same_slots(const pl_job *a, const pl_job *b)
{
    if (!same_counts(a, b) || a->min_utility != b->min_utility || a->slo != b->slo ||
        a->arrival != b->arrival || a->duration != b->duration || a->single_node != b->single_node ||
        !same_text(a->name, b->name) || !same_text(a->wl_type, b->wl_type) ||
        !same_text(a->wl_size, b->wl_size) || !same_text(a->gpu_model, b->gpu_model) ||
        !same_texts(a->nodes, b->nodes, a->nnodes) || !same_texts(a->labels, b->labels, a->nlabels) ||
        !same_texts(a->avoid, b->avoid, a->navoid))
        return 0;
    /* The demands' reserved tail is zero in both (pl_job_add_task), the
     * pairs have no padding. */
    if ((a->ntasks && memcmp(a->tasks, b->tasks, (size_t)a->ntasks * sizeof *a->tasks)) ||
        (a->nanti && memcmp(a->anti, b->anti, (size_t)a->nanti * sizeof *a->anti)) ||
        (a->ncoloc && memcmp(a->coloc, b->coloc, (size_t)a->ncoloc * sizeof *a->coloc)))
        return 0;
    for (int64_t e = 0; e < a->nedges; e++)
        if (a->edges[e].a != b->edges[e].a || a->edges[e].b != b->edges[e].b ||
            a->edges[e].traffic != b->edges[e].traffic)
            return 0;
    for (int64_t r = 0; r < a->nrules; r++)
        if (a->rules[r].task != b->rules[r].task || a->rules[r].must_not != b->rules[r].must_not ||
            !same_text(a->rules[r].key, b->rules[r].key) || !same_text(a->rules[r].value, b->rules[r].value))
            return 0;
    return 1;
}

void pl_job_slots_explain(const pl_job *job, char *buf, size_t size)
{
    const pl_job *user = pl_job_slot_origin(job);
    if (!user || !size)
        return;
    size_t len = strnlen(buf, size - 1);
    pl_appendf(buf, size, &len, " (task ids here count a task of k GPUs as k:");
    int64_t first = 0, shown = 0;
    for (int64_t t = 0; t < user->ntasks; t++) {
        int64_t n = task_slots(&user->tasks[t]);
        if (n > 1 || first != t)
            pl_appendf(buf, size, &len, "%s task %lld is %lld", shown++ ? "," : "", (long long)t, (long long)first);
        if (n > 1)
            pl_appendf(buf, size, &len, "-%lld", (long long)(first + n - 1));
        first += n;
    }
    pl_appendf(buf, size, &len, ")");
}

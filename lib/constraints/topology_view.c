/* The constraint module's view of a topology and the jobs on it
 * (constraints_view.h): its machines as nodes, the jobs' tasks as units,
 * their rules as this module's constraints, and the conflicts of a resolve
 * told back in job terms. The jobs are read through their public and
 * internal accessors (internal/job_constraints.h), not their layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal/constraints_view.h"
#include "internal/constraints_impl.h"
#include "internal/columns.h"
#include "internal/job_constraints.h"
#include "internal/topology_internal.h"

/* ---- building ------------------------------------------------------------------------ */

static pl_status add_host(pl_cnodes *nodes, const pl_topology *t, int32_t v, double slots)
{
    int32_t na = pl_topology_attr_count(t, v);
    const char **keys = pl_alloc((size_t)na + 1, sizeof *keys);
    const char **values = pl_alloc((size_t)na + 1, sizeof *values);
    pl_vertex_info vi;
    pl_status st = !keys || !values ? PL_ENOMEM : pl_topology_vertex(t, v, &vi);
    for (int32_t i = 0; i < na && !st; i++)
        st = pl_topology_attr_at(t, v, i, &keys[i], &values[i]);
    if (!st)
        st = pl_cnodes_add_attrs(nodes, vi.name, slots, 0, keys, values, na, NULL);
    free(keys);
    free(values);
    return st;
}

static int one_machine(const pl_cview_spec *s, int32_t j)
{
    return s->one_machine ? s->one_machine[j] : pl_job_single_node(s->jobs[j]);
}

static pl_status count_units(pl_cview *m)
{
    const pl_cview_spec *s = &m->spec;
    int64_t n = 0;
    for (int32_t h = 0; h < s->nhosts; h++) {
        int busy = s->busy && s->busy[h] > 0;
        for (int32_t j = 0; j < s->njobs && s->avoid_busy && !busy; j++)
            busy = s->avoid_busy[(size_t)j * (size_t)s->nhosts + (size_t)h];
        m->busy_unit[h] = busy ? (int32_t)n++ : -1;
    }
    for (int32_t j = 0; j < s->njobs; j++) {
        m->first_unit[j] = (int32_t)n;
        n += pl_job_task_count(s->jobs[j]);
        if (n > INT32_MAX / 2)
            return pl_err(PL_EINVAL, "constraint model: too many tasks");
    }
    m->first_unit[s->njobs] = (int32_t)n;
    m->nunits = (int32_t)n;
    return PL_OK;
}

/* A busy unit holds what is taken on its host and stays there. */
static pl_status add_busy(pl_cview *m, int32_t h)
{
    const pl_cview_spec *s = &m->spec;
    int32_t u = m->busy_unit[h];
    uint8_t *set = pl_alloc((size_t)s->nhosts + 1, 1);
    if (!set)
        return PL_ENOMEM;
    set[h] = 1;
    m->unit_job[u] = -1;
    m->unit_task[u] = h;
    pl_status st = pl_constraints_set_demand(m->c, u, s->busy ? s->busy[h] : 0, 0);
    if (!st)
        st = pl_constraints_node_set(m->c, u, set, s->nhosts, "stay on its machine");
    free(set);
    return st;
}

/* Node rules, node filter and task pairs of job j. */
static pl_status add_job(pl_cview *m, int32_t j)
{
    const pl_cview_spec *s = &m->spec;
    const pl_job *job = s->jobs[j];
    const int32_t u0 = m->first_unit[j], k = pl_job_task_count(job);
    uint8_t *set = NULL;
    pl_status st = PL_OK;
    int32_t nfilter;
    pl_job_node_filter(job, &nfilter);
    if (nfilter) {
        pl_vertex_info vi;
        if (!(set = pl_alloc((size_t)s->nhosts + 1, 1)))
            return PL_ENOMEM;
        for (int32_t h = 0; h < s->nhosts && !st; h++)
            if (!(st = pl_topology_vertex(s->topo, s->hosts[h], &vi)))
                set[h] = (uint8_t)pl_job_admits_node(job, vi.name);
    }
    for (int32_t t = 0; t < k && !st; t++) {
        m->unit_job[u0 + t] = j;
        m->unit_task[u0 + t] = t;
        st = pl_constraints_set_demand(m->c, u0 + t, 1, 0);
        for (int32_t r = 0; r < pl_job_node_constraint_count(job) && !st; r++) {
            pl_node_constraint rule;
            if ((st = pl_job_node_constraint(job, r, &rule)))
                break;
            if (rule.task == PL_JOB_ALL_TASKS || rule.task == t)
                st = rule.must_not ? pl_constraints_node_must_not(m->c, u0 + t, rule.key, rule.value)
                                   : pl_constraints_node_must(m->c, u0 + t, rule.key, rule.value);
        }
        if (!st && set)
            st = pl_constraints_node_set(m->c, u0 + t, set, s->nhosts, "node filter");
        if (!st && t > 0 && one_machine(s, j))
            st = pl_constraints_colocate(m->c, u0, u0 + t);
    }
    free(set);
    int64_t ncoloc, nanti;
    const int32_t(*coloc)[2] = pl_job_collocation_pairs(job, &ncoloc);
    const int32_t(*anti)[2] = pl_job_anti_collocation_pairs(job, &nanti);
    for (int64_t i = 0; i < ncoloc && !st; i++)
        st = pl_constraints_colocate(m->c, u0 + coloc[i][0], u0 + coloc[i][1]);
    for (int64_t i = 0; i < nanti && !st; i++)
        st = pl_constraints_separate(m->c, u0 + anti[i][0], u0 + anti[i][1]);
    return st;
}

/* Job-to-job anti-affinity: every task of one apart from every task of the
 * other, and from the busy units of the hosts it must avoid. */
static pl_status add_separations(pl_cview *m)
{
    const pl_cview_spec *s = &m->spec;
    pl_status st = PL_OK;
    for (int32_t a = 0; a < s->njobs && !st; a++) {
        for (int32_t b = a + 1; b < s->njobs && !st; b++) {
            if (!pl_job_anti_affine(s->jobs[a], s->jobs[b]))
                continue;
            for (int32_t x = m->first_unit[a]; x < m->first_unit[a + 1] && !st; x++)
                for (int32_t y = m->first_unit[b]; y < m->first_unit[b + 1] && !st; y++)
                    st = pl_constraints_separate(m->c, x, y);
        }
        for (int32_t h = 0; h < s->nhosts && s->avoid_busy && !st; h++)
            if (s->avoid_busy[(size_t)a * (size_t)s->nhosts + (size_t)h])
                for (int32_t x = m->first_unit[a]; x < m->first_unit[a + 1] && !st; x++)
                    st = pl_constraints_separate(m->c, x, m->busy_unit[h]);
    }
    return st;
}

/* The model's arrays per unit, per job (one more: first_unit ends with the
 * total) and per host. */
static const pl_column unit_cols[] = {PL_COLUMN(pl_cview, unit_job), PL_COLUMN(pl_cview, unit_task)};
static const pl_column job_cols[] = {PL_COLUMN(pl_cview, first_unit)};
static const pl_column host_cols[] = {PL_COLUMN(pl_cview, busy_unit)};

pl_status pl_cview_build(const pl_cview_spec *spec, pl_cview **out)
{
    *out = NULL;
    pl_cview *m = pl_alloc(1, sizeof *m);
    if (!m)
        return PL_ENOMEM;
    m->spec = *spec;
    pl_status st = pl_columns_alloc(m, job_cols, PL_NCOLUMNS(job_cols), spec->njobs + 1);
    if (!st)
        st = pl_columns_alloc(m, host_cols, PL_NCOLUMNS(host_cols), spec->nhosts + 1);
    if (!st)
        st = count_units(m);
    if (!st)
        st = pl_columns_alloc(m, unit_cols, PL_NCOLUMNS(unit_cols), m->nunits + 1);
    if (!st)
        st = pl_cnodes_create(&m->nodes);
    for (int32_t h = 0; h < spec->nhosts && !st; h++)
        st = add_host(m->nodes, spec->topo, spec->hosts[h], spec->slots[h]);
    if (!st)
        st = pl_constraints_create(m->nunits, &m->c);
    for (int32_t h = 0; h < spec->nhosts && !st; h++)
        if (m->busy_unit[h] >= 0)
            st = add_busy(m, h);
    for (int32_t j = 0; j < spec->njobs && !st; j++)
        st = add_job(m, j);
    if (!st)
        st = add_separations(m);
    return PL_HAND_OUT(st, m, pl_cview_free, out);
}

void pl_cview_free(pl_cview *m)
{
    if (!m)
        return;
    pl_constraints_free(m->c);
    pl_cnodes_free(m->nodes);
    pl_columns_free(m, unit_cols, PL_NCOLUMNS(unit_cols));
    pl_columns_free(m, job_cols, PL_NCOLUMNS(job_cols));
    pl_columns_free(m, host_cols, PL_NCOLUMNS(host_cols));
    free(m);
}

/* ---- describing conflicts ---------------------------------------------------------------- */

static void unit_name(const pl_cview *m, int32_t u, char *buf, size_t cap, size_t *len)
{
    int32_t j = m->unit_job[u];
    if (j < 0) {
        pl_vertex_info vi;
        pl_topology_vertex(m->spec.topo, m->spec.hosts[m->unit_task[u]], &vi);
        pl_appendf(buf, cap, len, "the GPUs in use on machine %s", vi.name);
    } else if (m->spec.njobs == 1) {
        pl_appendf(buf, cap, len, "task %d", m->unit_task[u]);
    } else {
        pl_appendf(buf, cap, len, "task %d of job \"%s\"", m->unit_task[u], pl_job_name(m->spec.jobs[j]));
    }
}

/* "tasks 0, 1, 2": the class's units, at most 8 named. */
static int32_t class_members(const pl_cview *m, int32_t cls, char *buf, size_t cap, size_t *len)
{
    int32_t n = 0;
    for (int32_t u = 0; u < m->nunits; u++) {
        if (pl_constraints_class_of(m->c, u) != cls)
            continue;
        if (n < 8) {
            pl_appendf(buf, cap, len, n ? ", " : "");
            unit_name(m, u, buf, cap, len);
        } else if (n == 8) {
            pl_appendf(buf, cap, len, ", ...");
        }
        n++;
    }
    return n;
}

/* The node constraints of the class's tasks, each once. */
static void class_rules(const pl_cview *m, int32_t cls, char *buf, size_t cap, size_t *len)
{
    const char *sep = "";
    for (int32_t j = 0; j < m->spec.njobs; j++) {
        const pl_job *job = m->spec.jobs[j];
        int in = 0;
        for (int32_t u = m->first_unit[j]; u < m->first_unit[j + 1] && !in; u++)
            in = pl_constraints_class_of(m->c, u) == cls;
        if (!in)
            continue;
        for (int32_t r = 0; r < pl_job_node_constraint_count(job); r++) {
            pl_node_constraint rule;
            if (pl_job_node_constraint(job, r, &rule) ||
                (rule.task != PL_JOB_ALL_TASKS &&
                 pl_constraints_class_of(m->c, m->first_unit[j] + rule.task) != cls))
                continue;
            pl_appendf(buf, cap, len, "%s", sep);
            if (rule.task == PL_JOB_ALL_TASKS)
                pl_appendf(buf, cap, len, "%s%s", m->spec.njobs > 1 ? pl_job_name(job) : "job",
                        m->spec.njobs > 1 ? " (all tasks)" : "");
            else
                pl_appendf(buf, cap, len, "task %d", rule.task);
            pl_appendf(buf, cap, len, " %s %s=%s", rule.must_not ? "must-not" : "must", rule.key, rule.value);
            sep = "; ";
        }
        int32_t nfilter;
        const char *const *filter = pl_job_node_filter(job, &nfilter);
        if (nfilter) {
            pl_appendf(buf, cap, len, "%snode filter (", sep);
            for (int32_t i = 0; i < nfilter; i++)
                pl_appendf(buf, cap, len, "%s%s", i ? ", " : "", filter[i]);
            pl_appendf(buf, cap, len, ")");
            sep = "; ";
        }
    }
}

void pl_cview_describe(const pl_cview *m, const pl_conflict *f, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    if (f->kind == PL_CONFLICT_SELF_ANTI) {
        pl_appendf(buf, cap, &len, "constraint conflict SELF_ANTI: ");
        unit_name(m, f->unit_a, buf, cap, &len);
        pl_appendf(buf, cap, &len, " and ");
        unit_name(m, f->unit_b, buf, cap, &len);
        pl_appendf(buf, cap, &len, " must share a machine (collocation or single-node) and must not "
                "(anti-collocation)");
        return;
    }
    if (f->kind == PL_CONFLICT_NO_NODE && m->spec.nhosts == 0) {
        pl_appendf(buf, cap, &len, "constraint conflict NO_NODE: the topology has no machine with a GPU");
        return;
    }
    if (f->kind == PL_CONFLICT_NO_NODE) {
        pl_appendf(buf, cap, &len, "constraint conflict NO_NODE: no machine with GPUs meets every node "
                "constraint of ");
        int32_t n = class_members(m, f->cls, buf, cap, &len);
        pl_appendf(buf, cap, &len, "%s: ", n > 1 ? " (which must share a machine)" : "");
        class_rules(m, f->cls, buf, cap, &len);
        return;
    }
    /* TOO_BIG: the class's GPUs against the largest allowed host. */
    double need = 0, best = 0;
    int32_t first = -1;
    for (int32_t u = 0; u < m->nunits; u++)
        if (pl_constraints_class_of(m->c, u) == f->cls) {
            need += u >= m->first_unit[0] ? 1 : (m->spec.busy ? m->spec.busy[m->unit_task[u]] : 0);
            first = first < 0 ? u : first;
        }
    for (int32_t h = 0; first >= 0 && h < m->spec.nhosts; h++)
        if (pl_constraints_node_allowed(m->c, first, h) && m->spec.slots[h] > best)
            best = m->spec.slots[h];
    pl_appendf(buf, cap, &len, "constraint conflict TOO_BIG: ");
    int32_t n = class_members(m, f->cls, buf, cap, &len);
    pl_appendf(buf, cap, &len, "%s need %g GPUs on one machine, but the largest machine their node "
            "constraints allow has %g", n > 1 ? " (which must share a machine)" : "", need, best);
}

/* ---- the policies' hosts and the one-job check ---------------------------------------------- */

pl_status pl_cview_machines(const pl_topology *topo, int32_t **hosts, double **gpus, int32_t *n)
{
    *hosts = NULL;
    *gpus = NULL;
    *n = 0;
    int32_t nm = 0, *ms = NULL;
    pl_status st = pl_topo_list(topo, -1, PL_VK_MACHINE, &ms, &nm);
    double *g = st ? NULL : pl_alloc((size_t)nm + 1, sizeof *g);
    if (!st && !g)
        st = PL_ENOMEM;
    int32_t k = 0;
    for (int32_t i = 0; i < nm && !st; i++) {
        int32_t count = 0;
        if (!(st = pl_topology_descendants(topo, ms[i], PL_VK_GPU, NULL, 0, &count)) && count > 0) {
            ms[k] = ms[i];
            g[k++] = count;
        }
    }
    if (st) {
        free(ms);
        free(g);
        return st;
    }
    *hosts = ms;
    *gpus = g;
    *n = k;
    return PL_OK;
}

/* Map the model's conflict (classes over units) to the job's terms. */
static pl_conflict in_task_terms(const pl_cview *m, const pl_conflict *f, const int32_t *task_class)
{
    pl_conflict r = *f;
    int32_t u0 = m->first_unit[0];
    r.unit_a = f->unit_a >= u0 ? f->unit_a - u0 : -1;
    r.unit_b = f->unit_b >= u0 ? f->unit_b - u0 : -1;
    r.cls = r.unit_a >= 0 ? task_class[r.unit_a] : -1;
    return r;
}

pl_status pl_cview_check_job(const pl_topology *topo, const int32_t *hosts, const double *slots,
                             int32_t nhosts, const pl_job *job, int one_machine_flag, char *reason,
                             size_t size, pl_conflict *conflicts, int32_t cap, int32_t *count)
{
    uint8_t om = (uint8_t)(one_machine_flag != 0);
    pl_cview_spec spec = {.topo = topo, .hosts = hosts, .slots = slots, .nhosts = nhosts,
                          .jobs = &job, .njobs = 1, .one_machine = &om};
    pl_cview *m;
    if (count)
        *count = 0;
    if (size)
        reason[0] = '\0';
    pl_status st = pl_cview_build(&spec, &m);
    if (st)
        return st;
    st = pl_constraints_resolve(m->c, m->nodes);
    if (st != PL_EINFEASIBLE) {
        pl_cview_free(m);
        return st;
    }
    /* The model's classes are the job's when its one-machine rule is the
     * job's own; otherwise (a policy placing every job on one machine) all
     * tasks are one class. */
    int32_t k = pl_job_task_count(job);
    int32_t *task_class = pl_alloc((size_t)k + 1, sizeof *task_class);
    if (!task_class) {
        pl_cview_free(m);
        return PL_ENOMEM;
    }
    for (int32_t t = 0; t < k; t++)
        task_class[t] = pl_constraints_class_of(m->c, m->first_unit[0] + t);
    int32_t nc = pl_constraints_conflict_count(m->c);
    size_t len = 0;
    for (int32_t i = 0; i < nc; i++) {
        pl_conflict f;
        char one[512];
        pl_constraints_conflict(m->c, i, &f);
        pl_cview_describe(m, &f, one, sizeof one);
        pl_appendf(reason, size, &len, "%s%s", i ? "; " : "", one);
        if (conflicts && i < cap)
            conflicts[i] = in_task_terms(m, &f, task_class);
    }
    if (count)
        *count = nc;
    free(task_class);
    pl_cview_free(m);
    return pl_err(PL_EINFEASIBLE, "job \"%s\": %s", pl_job_name(job), size ? reason : "constraint conflicts");
}

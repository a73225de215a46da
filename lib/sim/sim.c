/* The discrete-event simulator (include/placement/sim.h, doc/simulator.md). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "sim_impl.h"
#include "internal/columns.h"

/* The public options took their usage-model members from the reserved
 * tail: the size must not change (ABI). 64-bit targets only: there a
 * pointer and a uint64_t have the same size. */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(pl_sim_opts) == offsetof(pl_sim_opts, gpu_share_factor) + sizeof(double) +
                                          4 * sizeof(uint64_t),
               "pl_sim_opts changed size");
#endif

void pl_sim_opts_init(pl_sim_opts *opts)
{
    if (!opts)
        return;
    pl_policy_opts_init(&opts->policy);
    opts->interval = 1.0;
    opts->runtime = PL_SIM_RUNTIME_PROGRESS;
    opts->startup_delay = 0;
    opts->job_startup_delay = NULL;
    opts->job_priority = NULL;
    opts->failures = NULL;
    opts->nfailures = 0;
    opts->progress = NULL;
    opts->progress_data = NULL;
    opts->gpu_share_factor = PL_SIM_GPU_SHARE_FACTOR;
    opts->gpu_share_model = PL_SIM_GPU_SHARE_CONSTANT;
    opts->usage_traces = NULL;
}

static pl_status check_job_options(const pl_sim_opts *o, const pl_jobset *jobs)
{
    if (!(o->startup_delay >= 0 && o->startup_delay <= PL_SIM_MAX_SECONDS))
        return pl_err(PL_EINVAL, "pl_sim_create: startup_delay must be a number of seconds in "
                      "[0, %g], got %g", PL_SIM_MAX_SECONDS, o->startup_delay);
    for (int32_t i = 0; i < pl_jobset_count(jobs); i++) {
        const pl_job *j = pl_jobset_get(jobs, i);
        if (pl_job_task_count(j) < 1)
            return pl_err(PL_EINVAL, "pl_sim_create: job %d (%s) has no tasks", (int)i, pl_job_name(j));
        if (o->job_startup_delay &&
            !(o->job_startup_delay[i] >= 0 && o->job_startup_delay[i] <= PL_SIM_MAX_SECONDS))
            return pl_err(PL_EINVAL, "pl_sim_create: job %d (%s): startup delay must be a number of "
                          "seconds in [0, %g], got %g", (int)i, pl_job_name(j), PL_SIM_MAX_SECONDS,
                          o->job_startup_delay[i]);
        if (o->job_priority && !isfinite(o->job_priority[i]))
            return pl_err(PL_EINVAL, "pl_sim_create: job %d (%s): priority must be finite", (int)i,
                          pl_job_name(j));
    }
    if (!(o->gpu_share_factor >= 1) || !isfinite(o->gpu_share_factor))
        return pl_err(PL_EINVAL, "pl_sim_create: gpu_share_factor must be a finite number >= 1, got %g",
                      o->gpu_share_factor);
    if (o->gpu_share_model != PL_SIM_GPU_SHARE_CONSTANT && o->gpu_share_model != PL_SIM_GPU_SHARE_USAGE)
        return pl_err(PL_EINVAL, "pl_sim_create: unknown gpu_share_model %d", (int)o->gpu_share_model);
    if (o->nfailures < 0 || (o->nfailures > 0 && !o->failures))
        return pl_err(PL_EINVAL, "pl_sim_create: %d failures and a %s array", (int)o->nfailures,
                      o->failures ? "non-NULL" : "NULL");
    return PL_OK;
}

int pl_sim_job_cpu_only(const pl_job *job)
{
    for (int32_t t = 0; t < pl_job_task_count(job); t++) {
        pl_task_demand d;
        if (pl_job_task(job, t, &d) != PL_OK || !pl_task_cpu_only(&d))
            return 0;
    }
    return pl_job_task_count(job) > 0;
}

/* ---- creation: GPU -> socket / machine tables ------------------------------- */

/* The topology's indexes: one element per vertex (one more, so that none
 * is empty), and the lists whose lengths the topology decides. */
static const pl_column vertex_cols[] = {
    PL_COLUMN(pl_sim, vert_machine), PL_COLUMN(pl_sim, is_package), PL_COLUMN(pl_sim, gpu_socket),
    PL_COLUMN(pl_sim, gpu_units),    PL_COLUMN(pl_sim, gpu_machine),
};
static const pl_column list_cols[] = {
    PL_COLUMN(pl_sim, machines),      PL_COLUMN(pl_sim, machine_socket_max), PL_COLUMN(pl_sim, gpus),
    PL_COLUMN(pl_sim, packages),      PL_COLUMN(pl_sim, mach_pkg),  PL_COLUMN(pl_sim, mach_pkg_start),
    PL_COLUMN(pl_sim, mach_numa),     PL_COLUMN(pl_sim, mach_numa_start),   PL_COLUMN(pl_sim, storage),
};

static pl_status list_kind(const pl_topology *t, int kind, int32_t **out, int32_t *n)
{
    pl_status st = pl_topology_descendants(t, -1, kind, NULL, 0, n);
    if (st)
        return st;
    *out = pl_alloc((size_t)*n + 1, sizeof **out);
    if (!*out)
        return PL_ENOMEM;
    return pl_topology_descendants(t, -1, kind, *out, *n, n);
}

/* Machine ordinal of every vertex under a machine: machines in preorder,
 * each subtree's vertices listed once. */
static pl_status index_machines(pl_sim *s, const int32_t *machines, int32_t nm)
{
    for (int32_t v = 0; v < s->nvert; v++)
        s->vert_machine[v] = -1;
    pl_status st = PL_OK;
    int32_t *sub = NULL, n = 0;
    for (int32_t i = 0; i < nm && !st; i++) {
        free(sub);
        sub = NULL;
        if (!(st = pl_topology_descendants(s->topo, machines[i], -1, NULL, 0, &n)) &&
            !(sub = pl_alloc((size_t)n + 1, sizeof *sub)))
            st = PL_ENOMEM;
        if (!st)
            st = pl_topology_descendants(s->topo, machines[i], -1, sub, n, &n);
        for (int32_t q = 0; q < n && !st; q++)
            if (s->vert_machine[sub[q]] < 0) /* a machine inside a machine keeps the outer one */
                s->vert_machine[sub[q]] = i;
    }
    free(sub);
    return st;
}

/* CSR lists of a kind's vertices per machine ordinal, in preorder. */
static pl_status per_machine(pl_sim *s, int kind, int32_t **list, int32_t **start)
{
    int32_t *all = NULL, n = 0;
    pl_status st = list_kind(s->topo, kind, &all, &n);
    if (!st && (!(*start = pl_alloc((size_t)s->nmachines + 2, sizeof **start)) ||
                !(*list = pl_alloc((size_t)n + 1, sizeof **list))))
        st = PL_ENOMEM;
    for (int32_t i = 0; !st && i < n; i++)
        if (s->vert_machine[all[i]] >= 0)
            (*start)[s->vert_machine[all[i]] + 1]++;
    for (int32_t m = 0; !st && m < s->nmachines; m++)
        (*start)[m + 1] += (*start)[m];
    int32_t *fill = st ? NULL : pl_alloc((size_t)s->nmachines + 1, sizeof *fill);
    if (!st && !fill)
        st = PL_ENOMEM;
    for (int32_t i = 0; !st && i < n; i++) {
        int32_t m = s->vert_machine[all[i]];
        if (m >= 0)
            (*list)[(*start)[m] + fill[m]++] = all[i];
    }
    free(fill);
    free(all);
    return st;
}

/* How many jobs may hold GPU g at once: its units capacity; a GPU that does
 * not model units (capacity 0) is exclusive, as every GPU was before shared
 * GPUs existed. */
static int32_t gpu_holders_max(const pl_topology *t, int32_t g)
{
    int64_t cap = 0;
    if (pl_topology_amount(t, g, PL_RES_UNITS, &cap, NULL, NULL) != PL_OK || cap < 1)
        return 1;
    return cap > INT32_MAX ? INT32_MAX : (int32_t)cap;
}

static pl_status index_gpus(pl_sim *s)
{
    int32_t *machines = NULL, nm = 0;
    pl_status st = list_kind(s->topo, PL_VK_GPU, &s->gpus, &s->ngpus);
    if (!st)
        st = list_kind(s->topo, PL_VK_MACHINE, &machines, &nm);
    if (!st)
        st = list_kind(s->topo, PL_VK_PACKAGE, &s->packages, &s->npackages);
    if (!st)
        st = list_kind(s->topo, PL_VK_STORAGE, &s->storage, &s->nstorage);
    if (!st)
        st = pl_columns_alloc(s, vertex_cols, PL_NCOLUMNS(vertex_cols), s->nvert + 1);
    if (!st)
        st = index_machines(s, machines, nm);
    for (int32_t i = 0; !st && i < s->npackages; i++)
        s->is_package[s->packages[i]] = 1;
    const int32_t ng = s->ngpus, ns = s->npackages;
    int32_t *ord = NULL, *per_socket = NULL;
    if (!st && (!(ord = pl_alloc((size_t)s->nvert + 1, sizeof *ord)) ||
                !(s->machine_socket_max = pl_alloc((size_t)nm + 1, sizeof *s->machine_socket_max)) ||
                !(per_socket = pl_alloc((size_t)ns + (size_t)ng + 1, sizeof *per_socket))))
        st = PL_ENOMEM;
    if (st)
        goto done;
    for (int32_t v = 0; v < s->nvert; v++)
        ord[v] = s->gpu_socket[v] = s->gpu_machine[v] = -1;
    for (int32_t i = 0; i < nm; i++)
        ord[machines[i]] = i;
    for (int32_t i = 0; i < ns; i++)
        ord[s->packages[i]] = i;
    /* A GPU under no package is its own socket (numbered after the packages). */
    int32_t next_socket = ns;
    for (int32_t i = 0; i < ng && !st; i++) {
        int32_t g = s->gpus[i], pkg = -1, mach = -1;
        if (pl_topology_ancestor(s->topo, g, PL_VK_PACKAGE, &pkg) != PL_OK)
            pkg = -1;
        if (pl_topology_ancestor(s->topo, g, PL_VK_MACHINE, &mach) != PL_OK)
            mach = -1;
        s->gpu_units[g] = gpu_holders_max(s->topo, g);
        s->gpu_socket[g] = pkg >= 0 ? ord[pkg] : next_socket++;
        s->gpu_machine[g] = mach >= 0 ? ord[mach] : -1;
        int32_t c = ++per_socket[s->gpu_socket[g]];
        if (mach >= 0 && c > s->machine_socket_max[ord[mach]])
            s->machine_socket_max[ord[mach]] = c;
    }
    s->nsockets = next_socket;
    s->nmachines = nm;
    s->machines = machines;
    machines = NULL;
    if (!st)
        st = per_machine(s, PL_VK_PACKAGE, &s->mach_pkg, &s->mach_pkg_start);
    if (!st)
        st = per_machine(s, PL_VK_NUMA, &s->mach_numa, &s->mach_numa_start);
done:
    free(machines);
    free(ord);
    free(per_socket);
    return st;
}

pl_status pl_sim_create(const pl_topology *topo, const pl_jobset *jobs, const pl_sim_opts *opts,
                        pl_sim **out)
{
    if (!out)
        return pl_err(PL_EINVAL, "pl_sim_create: NULL out");
    *out = NULL;
    if (!topo || !jobs)
        return pl_err(PL_EINVAL, "pl_sim_create: NULL topology or workload");
    pl_sim_opts o;
    PL_OPTS_OR_DEFAULTS(o, opts, pl_sim_opts_init);
    if (!(o.interval >= 0 && o.interval <= PL_SIM_MAX_SECONDS))
        return pl_err(PL_EINVAL, "pl_sim_create: interval must be a number of seconds in [0, %g], "
                      "got %g", PL_SIM_MAX_SECONDS, o.interval);
    if (o.runtime != PL_SIM_RUNTIME_PROGRESS && o.runtime != PL_SIM_RUNTIME_ARTIFACT)
        return pl_err(PL_EINVAL, "pl_sim_create: unknown runtime model %d", (int)o.runtime);
    int32_t n = pl_jobset_count(jobs);
    pl_status st = check_job_options(&o, jobs);
    if (st)
        return st;
    pl_sim *s = pl_alloc(1, sizeof *s);
    if (!s)
        return PL_ENOMEM;
    s->jobs = jobs;
    s->opts = o;
    s->njobs = n;
    st = pl_topology_copy(topo, &s->topo);
    if (!st) {
        s->nvert = pl_topology_vertex_count(s->topo);
        st = index_gpus(s);
    }
    if (!st)
        st = pl_sim_check_failures(s);
    if (!st)
        pl_sim_reference_job(s);
    if (!st && o.gpu_share_model == PL_SIM_GPU_SHARE_USAGE)
        st = pl_gpu_usage_load(o.usage_traces, &s->usage);
    if (!st) {
        if (o.policy.profiles)
            s->ps = o.policy.profiles;
        else if (!(st = pl_profile_set_builtin(&s->owned_ps)))
            s->ps = s->owned_ps;
        /* The policy would otherwise parse the built-in profiles at every call. */
        s->opts.policy.profiles = s->ps;
    }
    return PL_HAND_OUT(st, s, pl_sim_free, out);
}

void pl_sim_use_fabric(pl_sim *s, const pl_policy_ops *ops, pl_sim_fabric *fabric, const pl_nvme_choice *choices)
{
    s->policy_ops = ops;
    s->fabric = fabric;
    s->choices = choices;
}

void pl_sim_free(pl_sim *s)
{
    if (!s)
        return;
    pl_topology_free(s->topo);
    pl_profile_set_free(s->owned_ps);
    pl_gpu_usage_free(s->usage);
    pl_columns_free(s, vertex_cols, PL_NCOLUMNS(vertex_cols));
    pl_columns_free(s, list_cols, PL_NCOLUMNS(list_cols));
    free(s);
}


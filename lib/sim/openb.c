/* Loaders of the openb node and pod lists (openb.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal/columns.h"
#include "internal/openb.h"
#include "csv.h"

#define MIB (1024LL * 1024LL)

static pl_status integer(const pl_csv *c, int32_t col, const char *name, double max, int allow_empty,
                         int64_t *out)
{
    double v;
    pl_status st = pl_csv_number(c, col, name, 0, max, allow_empty, 0, &v);
    if (st)
        return st;
    if (v != floor(v))
        return pl_csv_fail(c, name, "expected a whole number, got '%s'", pl_csv_field(c, col));
    *out = (int64_t)v;
    return PL_OK;
}

static pl_status need(const pl_csv *c, const char *const *names, const int32_t *col, int n)
{
    for (int i = 0; i < n; i++)
        if (col[i] < 0)
            return pl_err(PL_EPARSE, "%s:%lld: the header has no column '%s'", c->source, (long long)c->line,
                          names[i]);
    return PL_OK;
}

static pl_status add_machine(pl_topology *t, int32_t root, const char *sn, int64_t cpu_milli, int64_t mem_mib,
                             int64_t gpus, const char *model)
{
    int32_t m, pkg, numa;
    pl_status st = pl_topology_add_vertex(t, PL_VK_MACHINE, root, sn, -1, &m);
    if (!st)
        st = pl_topology_add_vertex(t, PL_VK_PACKAGE, m, "package0", 0, &pkg);
    if (!st)
        st = pl_topology_set_capacity(t, pkg, PL_RES_CORES, cpu_milli / 1000);
    if (!st)
        st = pl_topology_add_link(t, m, pkg, PL_LK_BOARD, 0, 0, 0, NULL);
    if (!st)
        st = pl_topology_add_vertex(t, PL_VK_NUMA, pkg, "numa0", 0, &numa);
    if (!st)
        st = pl_topology_set_capacity(t, numa, PL_RES_MEMORY, mem_mib * MIB);
    if (!st)
        st = pl_topology_add_link(t, pkg, numa, PL_LK_MEMORY, 0, 0, 0, NULL);
    for (int64_t g = 0; g < gpus && !st; g++) {
        char name[32];
        int32_t v;
        snprintf(name, sizeof name, "gpu%lld", (long long)g);
        st = pl_topology_add_vertex(t, PL_VK_GPU, pkg, name, (int32_t)g, &v);
        if (!st)
            st = pl_topology_add_link(t, pkg, v, PL_LK_PCIE, 0, 0, 0, NULL);
    }
    if (!st && *model)
        st = pl_topology_set_attr(t, m, "gpu_model", model);
    return st;
}

static pl_status load_nodes(pl_csv *c, pl_topology **out)
{
    static const char *const known[] = {"sn", "cpu_milli", "memory_mib", "gpu", "model", NULL};
    int32_t col[5];
    pl_topology *t = NULL;
    int32_t root;
    pl_status st = pl_csv_header(c, known, col);
    if (!st)
        st = need(c, known, col, 4);
    if (!st)
        st = pl_topology_create(&t);
    if (!st)
        st = pl_topology_add_vertex(t, PL_VK_CLUSTER, -1, "openb", -1, &root);
    while (!st && pl_csv_next(c, &st)) {
        const char *sn = pl_csv_field(c, col[0]), *model = pl_csv_field(c, col[4]);
        int64_t cpu = 0, mem = 0, gpus = 0;
        if (!*sn || strchr(sn, '/'))
            st = pl_csv_fail(c, "sn", "expected a node name without '/', got '%s'", sn);
        if (!st)
            st = integer(c, col[1], "cpu_milli", 1e12, 0, &cpu);
        if (!st && cpu % 1000)
            st = pl_csv_fail(c, "cpu_milli", "expected whole cores (a multiple of 1000), got %lld", (long long)cpu);
        if (!st)
            st = integer(c, col[2], "memory_mib", 1e12, 0, &mem);
        if (!st)
            st = integer(c, col[3], "gpu", 16, 0, &gpus);
        if (!st && strchr(model, '|'))
            st = pl_csv_fail(c, "model", "expected one model name, got '%s'", model);
        if (!st && gpus > 0 && !*model)
            st = pl_csv_fail(c, "model", "a node with %lld GPUs needs a model", (long long)gpus);
        if (!st)
            st = add_machine(t, root, sn, cpu, mem, gpus, model);
    }
    if (st) {
        pl_topology_free(t);
        return st;
    }
    *out = t;
    return PL_OK;
}

/* The loaders' common part: check the arguments, open the CSV (the file
 * path, or text when path is NULL), run load on it, close it. */
typedef pl_status csv_load_fn(pl_csv *c, void *out);

static pl_status load_csv(const char *fn, const char *path, const char *text, const char *source,
                          csv_load_fn *load, void *out)
{
    pl_csv c;
    if (!(path || text) || !out)
        return pl_err(PL_EINVAL, "%s: NULL argument", fn);
    pl_status st = path ? pl_csv_open_file(&c, path)
                        : pl_csv_open_text(&c, text, strlen(text), source ? source : "<string>");
    if (!st)
        st = load(&c, out);
    pl_csv_close(&c);
    return st;
}

static pl_status nodes_loader(pl_csv *c, void *out)
{
    return load_nodes(c, out);
}

pl_status pl_openb_load_nodes(const char *path, pl_topology **out)
{
    return load_csv("pl_openb_load_nodes", path, NULL, NULL, nodes_loader, out);
}

pl_status pl_openb_load_nodes_string(const char *text, const char *source, pl_topology **out)
{
    return load_csv("pl_openb_load_nodes_string", NULL, text, source, nodes_loader, out);
}

enum { P_NAME, P_CPU, P_MEM, P_NGPU, P_MILLI, P_SPEC, P_QOS, P_PHASE, P_CREATE, P_DELETE, P_SCHED };

static pl_status make_job(const pl_csv *c, const int32_t *col, pl_job **out)
{
    int64_t cpu = 0, mem = 0, ngpu = 0, milli = 0;
    const char *name = pl_csv_field(c, col[P_NAME]), *spec = pl_csv_field(c, col[P_SPEC]);
    pl_status st = PL_OK;
    if (!*name)
        st = pl_csv_fail(c, "name", "missing value");
    if (!st)
        st = integer(c, col[P_CPU], "cpu_milli", 1e12, 0, &cpu);
    if (!st)
        st = integer(c, col[P_MEM], "memory_mib", 1e12, 0, &mem);
    if (!st)
        st = integer(c, col[P_NGPU], "num_gpu", 16, 0, &ngpu);
    if (!st)
        st = integer(c, col[P_MILLI], "gpu_milli", 1000, 0, &milli);
    if (!st && ngpu == 0 && milli != 0)
        st = pl_csv_fail(c, "gpu_milli", "a pod without GPU asks for %lld milli", (long long)milli);
    if (!st && ngpu > 0 && milli == 0)
        st = pl_csv_fail(c, "gpu_milli", "a pod with %lld GPUs asks for 0 milli of each", (long long)ngpu);
    if (!st && ngpu > 1 && milli < 1000)
        st = pl_csv_fail(c, "gpu_milli", "a share (%lld milli) of more than one GPU (%lld)", (long long)milli,
                         (long long)ngpu);
    pl_job *job = NULL;
    if (!st)
        st = pl_job_create(name, &job);
    /* The pod's CPU and memory go with its first task. */
    int64_t ntasks = milli == 1000 ? ngpu : 1;
    for (int64_t i = 0; i < ntasks && !st; i++) {
        pl_task_demand d = {0};
        d.gpus = milli == 1000 ? 1 : 0;
        d.gpu_milli = milli < 1000 ? milli : 0;
        if (i == 0) {
            d.cores = cpu / 1000;
            d.cpu_milli = cpu % 1000;
            d.memory = mem * MIB;
        }
        st = pl_job_add_task(job, &d, NULL);
    }
    if (!st && *spec && (st = pl_job_set_gpu_model(job, spec)))
        st = pl_csv_fail(c, "gpu_spec", "expected models joined by '|', got '%s'", spec);
    if (st) {
        pl_job_free(job);
        return st;
    }
    *out = job;
    return PL_OK;
}

/* Per pod, beside the job set. */
static const pl_column pod_cols[] = {PL_COLUMN(pl_openb_pods, creation), PL_COLUMN(pl_openb_pods, deletion)};

static pl_status load_pods(pl_csv *c, pl_openb_pods *out)
{
    static const char *const known[] = {"name",      "cpu_milli",     "memory_mib",    "num_gpu",
                                        "gpu_milli", "gpu_spec",      "qos",           "pod_phase",
                                        "creation_time", "deletion_time", "scheduled_time", NULL};
    int32_t col[11];
    int64_t cap = 0;
    memset(out, 0, sizeof *out);
    pl_status st = pl_csv_header(c, known, col);
    if (!st)
        st = need(c, known, col, 5);
    if (!st)
        st = pl_jobset_create(&out->jobs);
    while (!st && pl_csv_next(c, &st)) {
        pl_job *job = NULL;
        double cr = 0, de = NAN;
        if ((st = make_job(c, col, &job)))
            break;
        st = pl_csv_number(c, col[P_CREATE], "creation_time", 0, 1e18, 1, 0, &cr);
        if (!st)
            st = pl_csv_number(c, col[P_DELETE], "deletion_time", 0, 1e18, 1, NAN, &de);
        if (!st && de < cr)
            st = pl_csv_fail(c, "deletion_time", "before the creation time (%.0f < %.0f)", de, cr);
        if (!st && out->n >= cap) {
            int64_t ncap = pl_next_cap(cap, out->n + 1);
            if (!(st = pl_columns_grow(out, pod_cols, PL_NCOLUMNS(pod_cols), cap, ncap)))
                cap = ncap;
        }
        if (!st)
            st = pl_jobset_add(out->jobs, job, NULL);
        if (st) {
            pl_job_free(job);
            break;
        }
        out->creation[out->n] = cr;
        out->deletion[out->n] = de;
        out->n++;
    }
    if (st)
        pl_openb_pods_free(out);
    return st;
}

static pl_status pods_loader(pl_csv *c, void *out)
{
    return load_pods(c, out);
}

pl_status pl_openb_load_pods(const char *path, pl_openb_pods *out)
{
    return load_csv("pl_openb_load_pods", path, NULL, NULL, pods_loader, out);
}

pl_status pl_openb_load_pods_string(const char *text, const char *source, pl_openb_pods *out)
{
    return load_csv("pl_openb_load_pods_string", NULL, text, source, pods_loader, out);
}

void pl_openb_pods_free(pl_openb_pods *p)
{
    if (!p)
        return;
    pl_jobset_free(p->jobs);
    pl_columns_free(p, pod_cols, PL_NCOLUMNS(pod_cols));
    memset(p, 0, sizeof *p);
}

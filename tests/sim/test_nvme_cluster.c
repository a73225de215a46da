/* The NVMe simulator's cluster as a topology (issue 19): the built-in
 * DA / PA clusters of pl_nvme_sim_topology(), and the shipped
 * examples/clusters/call-*.json, give the same disagg cluster, the same
 * records and the same summary; `placement simulate --cluster` prints the
 * same rows as the built-in layout. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include <placement/nvme_sim.h>
#include "../../lib/disagg/disagg_impl.h"

static pl_topology *load_example(const char *name)
{
    char rel[128], path[PL_PATH_MAX];
    snprintf(rel, sizeof rel, "../../examples/clusters/%s", name);
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json(pl_test_data(path, rel), &t));
    return t;
}

/* Options of the built-in cluster for one of the shipped files. */
static pl_nvme_sim_opts builtin_opts(int pa, int gpus)
{
    pl_nvme_sim_opts o;
    pl_nvme_sim_opts_init(&o);
    o.layout = pa ? PL_NVME_LAYOUT_PA : PL_NVME_LAYOUT_DISAGG;
    o.gpus = gpus;
    return o;
}

static void same_cluster(const pl_disagg_cluster *a, const pl_disagg_cluster *b)
{
    assert_int_equal(a->nnodes, b->nnodes);
    assert_int_equal(a->nnvme, b->nnvme);
    assert_int_equal(a->ngpus, b->ngpus);
    assert_memory_equal(a->nodes, b->nodes, (size_t)a->nnodes * sizeof *a->nodes);
    if (a->nnvme)
        assert_memory_equal(a->nvme, b->nvme, (size_t)a->nnvme * sizeof *a->nvme);
    if (a->ngpus)
        assert_memory_equal(a->gpus, b->gpus, (size_t)a->ngpus * sizeof *a->gpus);
    assert_memory_equal(&a->opts, &b->opts, sizeof a->opts);
}

static const struct {
    const char *file;
    int pa, gpus;
} examples[] = {
    {"call-da.json", 0, 0}, {"call-pa.json", 1, 0}, {"call-gpu-da.json", 0, 1}, {"call-gpu-pa.json", 1, 1}};

/* Hand-checked shape of the built-in layouts (Table 4.2, sec. 4.4.1). */
static void test_builtin_layouts(void **state)
{
    (void)state;
    pl_nvme_sim_opts o = builtin_opts(1, 1);
    pl_disagg_cluster *c = NULL;
    assert_pl_ok(pl_nvme_sim_cluster(&o, &c));
    assert_int_equal(c->nnodes, 5);
    assert_int_equal(c->nnvme, 10);
    for (int i = 0; i < 10; i++) {
        assert_int_equal(c->nvme[i].home, i < 6 ? 0 : 1);
        assert_int_equal(c->nvme[i].bw, 2000000000LL);
        assert_int_equal(c->nvme[i].cap, 600000000000LL);
    }
    assert_int_equal(c->ngpus, 1);
    assert_int_equal(c->gpus[0].home, 2);
    assert_int_equal(c->gpus[0].n_splits, 3);
    pl_disagg_cluster_free(c);
    o = builtin_opts(0, 1);
    o.gpu_split = 0;
    assert_pl_ok(pl_nvme_sim_cluster(&o, &c));
    for (int i = 0; i < 10; i++)
        assert_int_equal(c->nvme[i].home, -1);
    assert_int_equal(c->gpus[0].home, -1);
    assert_int_equal(c->gpus[0].n_splits, 1);
    assert_int_equal(c->nodes[4].cores, 25);
    pl_disagg_cluster_free(c);
}

/* Each shipped file is its built-in cluster, with and without --gpu-unsplit. */
static void test_examples_equal_builtin(void **state)
{
    (void)state;
    for (size_t e = 0; e < sizeof examples / sizeof *examples; e++) {
        pl_topology *t = load_example(examples[e].file);
        for (int split = 0; split < 2; split++) {
            pl_nvme_sim_opts b = builtin_opts(examples[e].pa, examples[e].gpus), f = b;
            b.gpu_split = f.gpu_split = split;
            f.cluster = t;
            pl_disagg_cluster *cb = NULL, *cf = NULL;
            assert_pl_ok(pl_nvme_sim_cluster(&b, &cb));
            assert_pl_ok(pl_nvme_sim_cluster(&f, &cf));
            same_cluster(cb, cf);
            pl_disagg_cluster_free(cb);
            pl_disagg_cluster_free(cf);
        }
        pl_topology_free(t);
    }
}

/* A pool GPU whose JSON device group says "vgpu_splits": "1" is
 * unsplittable in the view: call-gpu-da-unsplit.json is call-gpu-da.json
 * with that attribute, and gives the built-in cluster with the GPU unsplit
 * without --gpu-unsplit (call-gpu-da.json itself keeps {1, 2, 4}). */
static void test_pool_gpu_unsplit_attr(void **state)
{
    (void)state;
    pl_topology *t = load_example("call-gpu-da-unsplit.json");
    pl_nvme_sim_opts b = builtin_opts(0, 1), f = b;
    b.gpu_split = 0;
    f.cluster = t; /* f.gpu_split stays 1: the file alone says "1" */
    pl_disagg_cluster *cb = NULL, *cf = NULL;
    assert_pl_ok(pl_nvme_sim_cluster(&b, &cb));
    assert_pl_ok(pl_nvme_sim_cluster(&f, &cf));
    assert_int_equal(cf->ngpus, 1);
    assert_int_equal(cf->gpus[0].home, -1);
    assert_int_equal(cf->gpus[0].n_splits, 1);
    assert_int_equal(cf->gpus[0].splits[0], 1);
    same_cluster(cb, cf);
    pl_disagg_cluster_free(cb);
    pl_disagg_cluster_free(cf);
    pl_topology_free(t);
    t = load_example("call-gpu-da.json");
    f.cluster = t;
    assert_pl_ok(pl_nvme_sim_cluster(&f, &cf));
    assert_int_equal(cf->gpus[0].n_splits, 3);
    pl_disagg_cluster_free(cf);
    pl_topology_free(t);
}

#define SAME(field) assert_true(sa.field == sb.field)

/* Every record, field by field. */
static void same_records(const pl_nvme_sim_result *a, const pl_nvme_sim_result *b)
{
    assert_int_equal(pl_nvme_sim_result_count(a), pl_nvme_sim_result_count(b));
    for (int32_t j = 0; j < pl_nvme_sim_result_count(a); j++) {
        pl_nvme_sim_record sa, sb;
        assert_pl_ok(pl_nvme_sim_result_record(a, j, &sa));
        assert_pl_ok(pl_nvme_sim_result_record(b, j, &sb));
        SAME(arrival_s), SAME(start_s), SAME(finish_s), SAME(deadline_s), SAME(type);
        SAME(high_priority), SAME(missed), SAME(node), SAME(composition), SAME(comp_size);
        SAME(sharers), SAME(decided_by);
    }
}

/* Same trace, same policy: the same records and summary, field by field. */
static void test_runs_equal_builtin(void **state)
{
    (void)state;
    static const char *const scenario[] = {"nvme-s1", "nvme-s2", "nvme-gpu-s1", "nvme-gpu-s3"};
    for (size_t e = 0; e < sizeof examples / sizeof *examples; e++) {
        pl_topology *t = load_example(examples[e].file);
        pl_nvme_sim_opts b = builtin_opts(examples[e].pa, 0), f;
        assert_pl_ok(pl_nvme_sim_scenario(scenario[e], &b));
        b.jobs = 600;
        f = b;
        f.cluster = t;
        f.gpus = 0; /* not read: the file has the GPU */
        double rb = 0, rf = 0;
        assert_pl_ok(pl_nvme_sim_rate(&b, &rb));
        assert_pl_ok(pl_nvme_sim_rate(&f, &rf));
        assert_true(rb == rf);
        pl_disagg_workload *jobs = NULL;
        int32_t n = 0;
        assert_pl_ok(pl_nvme_sim_generate(&f, &jobs, &n));
        for (int p = 0; p <= (int)PL_DISAGG_GPU_AWARE; p++) {
            pl_nvme_sim_result *ra = NULL, *rb2 = NULL;
            assert_pl_ok(pl_nvme_sim_run(&b, jobs, n, (pl_disagg_policy)p, &ra));
            assert_pl_ok(pl_nvme_sim_run(&f, jobs, n, (pl_disagg_policy)p, &rb2));
            pl_nvme_sim_summary sa, sb;
            assert_pl_ok(pl_nvme_sim_result_summary(ra, &sa));
            assert_pl_ok(pl_nvme_sim_result_summary(rb2, &sb));
            SAME(done), SAME(unfinished), SAME(missed_pct), SAME(missed_high_pct);
            SAME(mean_wait_s), SAME(mean_comp_size), SAME(mean_sharing), SAME(mean_hosted);
            SAME(nvme_usage_pct), SAME(cpu_util_pct), SAME(bw_util_pct), SAME(cap_util_pct);
            SAME(window_start_s), SAME(window_end_s), SAME(window_jobs), SAME(window_reached);
            SAME(compositions), SAME(maxcomp_decisions), SAME(minfrag_decisions);
            same_records(ra, rb2);
            pl_nvme_sim_result_free(ra);
            pl_nvme_sim_result_free(rb2);
        }
        free(jobs);
        pl_topology_free(t);
    }
}

/* A cluster file's errors reach the caller; a GPU workload needs a GPU in it. */
static void test_cluster_errors(void **state)
{
    (void)state;
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_string(
        "{\"machines\": [{\"template\": \"m\", \"count\": 2}],"
        " \"templates\": {\"m\": {\"tree\": {\"kind\": \"machine\", \"capacity\": {\"cores\": 4}}}},"
        " \"pools\": [{\"devices\": [{\"kind\": \"storage\", \"capacity\": {\"storage\": 5}}]}]}",
        0, &t));
    pl_nvme_sim_opts o;
    pl_nvme_sim_opts_init(&o);
    o.cluster = t;
    double rate;
    assert_pl_status(pl_nvme_sim_rate(&o, &rate), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "storage device cluster/pool0/storage0 has no \"bandwidth\""));
    pl_topology_free(t);
    t = load_example("call-da.json");
    o.cluster = t;
    assert_pl_ok(pl_nvme_sim_scenario("nvme-gpu-s2", &o));
    o.jobs = 50;
    pl_disagg_workload *jobs = NULL;
    int32_t n = 0;
    pl_nvme_sim_result *r = NULL;
    assert_pl_ok(pl_nvme_sim_generate(&o, &jobs, &n));
    assert_pl_status(pl_nvme_sim_run(&o, jobs, n, PL_DISAGG_GPU_AWARE, &r), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "requests a GPU and the cluster has none"));
    free(jobs);
    pl_topology_free(t);
}

/* Everything after the first line (which names the cluster). */
static const char *after_first_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    assert_non_null(nl);
    return nl + 1;
}

static void test_cli_cluster(void **state)
{
    (void)state;
    static char a[1 << 14], b[1 << 14];
    char path[PL_PATH_MAX], args[PL_PATH_MAX + 128];
    pl_test_data(path, "../../examples/clusters/call-da.json");
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s1 --jobs 500", 0, a, sizeof a), 0);
    snprintf(args, sizeof args, "simulate --scenario nvme-s1 --jobs 500 --cluster '%s'", path);
    assert_int_equal(pl_test_run_cli(NULL, args, 0, b, sizeof b), 0);
    assert_non_null(strstr(b, "call-da.json: 5 nodes, 125 cores, 10 NVMe, 0 GPUs, re-evaluated sharing\n"));
    assert_non_null(strstr(a, "; 5 nodes x 25 cores, 10 NVMe (disaggregated pool), re-evaluated"));
    assert_string_equal(after_first_line(a), after_first_line(b));
    /* The PA file gives the PA rows, which differ from the DA ones. */
    pl_test_data(path, "../../examples/clusters/call-pa.json");
    snprintf(args, sizeof args, "simulate --scenario nvme-s1 --jobs 500 --cluster '%s'", path);
    assert_int_equal(pl_test_run_cli(NULL, args, 0, b, sizeof b), 0);
    assert_string_not_equal(after_first_line(a), after_first_line(b));
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s1 --jobs 500 --layout pa", 0, a,
                                     sizeof a), 0);
    assert_string_equal(after_first_line(a), after_first_line(b));
    /* The layout is the file's; the sweeps vary the built-in cluster. */
    snprintf(args, sizeof args, "simulate --scenario nvme-s1 --layout pa --cluster '%s'", path);
    assert_int_equal(pl_test_run_cli(NULL, args, 1, b, sizeof b), 2);
    assert_non_null(strstr(b, "--cluster gives the layout"));
    snprintf(args, sizeof args, "simulate --scenario nvme-deadline --cluster '%s'", path);
    assert_int_equal(pl_test_run_cli(NULL, args, 1, b, sizeof b), 2);
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s1 --cluster /nonexistent.json",
                                     1, b, sizeof b), 1);
    assert_non_null(strstr(b, "placement simulate: /nonexistent.json: "));
}

/* What `placement simulate --scenario nvme-s1` and `--scenario nvme-gpu-s1
 * --layout pa` printed before the simulator built its cluster as a topology
 * (commit af3b3da): the view must not move a digit. */
static const char nvme_s1_da[] =
    "nvme-s1: 1500 workloads (70% bandwidth / 10% capacity / 20% compute), target load 0.70, one "
    "arrival every 113.1 s (Poisson, last at 1.96 days); 5 nodes x 25 cores, 10 NVMe "
    "(disaggregated pool), re-evaluated sharing\n"
    "measured: 1479 workloads arriving in [3340 s, 169330 s] (from the fat node's CPU load factor "
    "reaching the target to the last arrival)\n"
    "policy            missed%  mhigh%    wait_s   comp  share  nvme%   cpu%    bw%   cap% unfin\n"
    "first-fit           75.25   18.66    6485.7   1.00   1.00   99.8   67.2   84.1   13.6     0\n"
    "max-composition      2.57    2.57     739.6   1.34   2.25   99.4   67.3   84.0   13.9     0\n"
    "min-fragmentation   81.14   19.68    6844.0   1.00   1.00   99.8   67.1   84.1   13.6     0\n"
    "disagg-aware         7.51    4.46    1879.0   1.17   1.98  100.0   67.6   84.6   14.0     0\n";
static const char nvme_gpu_s1_pa[] =
    "nvme-gpu-s1: 1500 workloads (50% bandwidth / 20% capacity / 20% compute), target load 0.70, "
    "one arrival every 97.0 s (Poisson, last at 1.68 days); 5 nodes x 25 cores, 10 NVMe "
    "(physically attached), re-evaluated sharing\n"
    "measured: 1483 workloads arriving in [2163 s, 145220 s] (from the fat node's CPU load factor "
    "reaching the target to the last arrival)\n"
    "policy            missed%  mhigh%    wait_s   comp  share  nvme%   cpu%    bw%   cap% unfin\n"
    "first-fit           65.48   15.85   13630.2   1.00   1.00   80.0   61.1   61.6   17.4     0\n"
    "max-composition     36.68   10.45   10255.7   1.51   1.51   97.7   61.0   59.8   19.4     0\n"
    "min-fragmentation   65.54   15.91   13622.7   1.00   1.00   79.9   61.0   61.6   17.4     0\n"
    "disagg-aware        40.32   12.34   11192.7   1.04   1.40   80.9   61.0   59.8   19.4     0\n"
    "gpu-aware           36.68   10.45   10255.7   1.51   1.51   97.7   61.0   59.8   19.4     0\n";

static void test_cli_unchanged(void **state)
{
    (void)state;
    static char out[1 << 14];
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-s1", 0, out, sizeof out), 0);
    assert_string_equal(out, nvme_s1_da);
    assert_int_equal(pl_test_run_cli(NULL, "simulate --scenario nvme-gpu-s1 --layout pa", 0, out,
                                     sizeof out), 0);
    assert_string_equal(out, nvme_gpu_s1_pa);
    /* The shipped file gives the same rows. */
    char path[PL_PATH_MAX], args[PL_PATH_MAX + 64];
    snprintf(args, sizeof args, "simulate --scenario nvme-gpu-s1 --cluster '%s'",
             pl_test_data(path, "../../examples/clusters/call-gpu-pa.json"));
    assert_int_equal(pl_test_run_cli(NULL, args, 0, out, sizeof out), 0);
    assert_string_equal(after_first_line(out), after_first_line(nvme_gpu_s1_pa));
}

/* The CLI rows of the file whose pool GPU says "vgpu_splits": "1" are those
 * of call-gpu-da.json with --gpu-unsplit, and differ from its split rows. */
static void test_cli_unsplit_attr(void **state)
{
    (void)state;
    static char a[1 << 14], b[1 << 14];
    char path[PL_PATH_MAX], args[PL_PATH_MAX + 128];
    const char *run = "simulate --scenario nvme-gpu-s1 --jobs 500";
    snprintf(args, sizeof args, "%s --cluster '%s'", run,
             pl_test_data(path, "../../examples/clusters/call-gpu-da-unsplit.json"));
    assert_int_equal(pl_test_run_cli(NULL, args, 0, a, sizeof a), 0);
    snprintf(args, sizeof args, "%s --gpu-unsplit --cluster '%s'", run,
             pl_test_data(path, "../../examples/clusters/call-gpu-da.json"));
    assert_int_equal(pl_test_run_cli(NULL, args, 0, b, sizeof b), 0);
    assert_string_equal(after_first_line(a), after_first_line(b));
    snprintf(args, sizeof args, "%s --cluster '%s'", run, path);
    assert_int_equal(pl_test_run_cli(NULL, args, 0, b, sizeof b), 0);
    assert_string_not_equal(after_first_line(a), after_first_line(b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_layouts),
        cmocka_unit_test(test_examples_equal_builtin),
        cmocka_unit_test(test_runs_equal_builtin),
        cmocka_unit_test(test_cluster_errors),
        cmocka_unit_test(test_cli_cluster),
        cmocka_unit_test(test_pool_gpu_unsplit_attr),
        cmocka_unit_test(test_cli_unchanged),
        cmocka_unit_test(test_cli_unsplit_attr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

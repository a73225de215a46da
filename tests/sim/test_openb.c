/* Alibaba openb lists (lib/sim/openb.c) and the ATC'23 saturation driver
 * (lib/sim/saturate.c), on the excerpts in tests/data/openb. */
#include <math.h>
#include <string.h>
#include "../common/testutil.h"
#include "internal/openb.h"

static pl_topology *nodes20(void)
{
    char path[PL_PATH_MAX];
    pl_topology *t = NULL;
    assert_pl_ok(pl_openb_load_nodes(pl_test_data(path, "openb/nodes20.csv"), &t));
    return t;
}

static void pods200(pl_openb_pods *p)
{
    char path[PL_PATH_MAX];
    assert_pl_ok(pl_openb_load_pods(pl_test_data(path, "openb/pods200.csv"), p));
}

static void test_nodes(void **state)
{
    (void)state;
    pl_topology *t = nodes20();
    int32_t n = 0, g = 0;
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_MACHINE, NULL, 0, &n));
    assert_pl_ok(pl_topology_descendants(t, -1, PL_VK_GPU, NULL, 0, &g));
    assert_int_equal(n, 20);
    assert_int_equal(g, 108);
    /* Row 2 of the excerpt: openb-node-0000,64000,262144,2,P100. */
    int32_t m, pkg, numa;
    assert_pl_ok(pl_topology_find(t, "openb/openb-node-0000", &m));
    assert_string_equal(pl_topology_attr(t, m, "gpu_model"), "P100");
    assert_pl_ok(pl_topology_find(t, "openb/openb-node-0000/package0", &pkg));
    assert_pl_ok(pl_topology_find(t, "openb/openb-node-0000/package0/numa0", &numa));
    int64_t cap;
    assert_pl_ok(pl_topology_amount(t, pkg, PL_RES_CORES, &cap, NULL, NULL));
    assert_int_equal(cap, 64);
    assert_pl_ok(pl_topology_amount(t, numa, PL_RES_MEMORY, &cap, NULL, NULL));
    assert_int_equal(cap, 262144LL * 1024 * 1024);
    pl_topology_free(t);
}

static void test_pods(void **state)
{
    (void)state;
    pl_openb_pods p;
    pods200(&p);
    assert_int_equal(p.n, 200);
    /* openb-pod-0000,12000,16384,1,1000: one whole GPU, 12 cores. */
    pl_job *j = pl_jobset_get(p.jobs, 0);
    pl_task_demand d;
    assert_string_equal(pl_job_name(j), "openb-pod-0000");
    assert_int_equal(pl_job_task_count(j), 1);
    assert_pl_ok(pl_job_task(j, 0, &d));
    assert_int_equal(d.gpus, 1);
    assert_int_equal(d.cores, 12);
    assert_int_equal(d.memory, 16384LL << 20);
    /* openb-pod-0001,6000,12288,1,460: a share of one GPU. */
    assert_pl_ok(pl_job_task(pl_jobset_get(p.jobs, 1), 0, &d));
    assert_int_equal(d.gpus, 0);
    assert_int_equal(d.gpu_milli, 460);
    assert_true(p.creation[1] == 427061 && p.deletion[1] == 12902960);
    /* The 10 multi-GPU pods: one task per GPU; the 10 CPU-only pods: no GPU. */
    int multi = 0, cpu = 0;
    for (int32_t i = 180; i < 200; i++) {
        j = pl_jobset_get(p.jobs, i);
        assert_pl_ok(pl_job_task(j, 0, &d));
        multi += pl_job_task_count(j) > 1;
        cpu += d.gpus == 0 && d.gpu_milli == 0;
    }
    assert_int_equal(multi, 10);
    assert_int_equal(cpu, 10);
    pl_openb_pods_free(&p);
}

static void bad_pod(const char *row, const char *want)
{
    char text[512];
    pl_openb_pods p;
    snprintf(text, sizeof text, "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\nok,1000,10,1,1000,\n%s\n", row);
    assert_pl_status(pl_openb_load_pods_string(text, "pods.csv", &p), PL_EPARSE);
    if (!strstr(pl_last_error(), want))
        fail_msg("'%s' gave '%s', want '%s'", row, pl_last_error(), want);
}

static void test_errors(void **state)
{
    (void)state;
    bad_pod("p,1000,10,2,500,", "pods.csv:3: column 'gpu_milli'");
    bad_pod("p,1000,10,0,500,", "pods.csv:3: column 'gpu_milli'");
    bad_pod("p,1000,10,1,0,", "pods.csv:3: column 'gpu_milli'");
    bad_pod("p,x,10,1,1000,", "pods.csv:3: column 'cpu_milli'");
    bad_pod("p,1000,10,1.5,1000,", "pods.csv:3: column 'num_gpu'");
    bad_pod("p,1000,10,1,1000,A||B", "pods.csv:3: column 'gpu_spec'");
    pl_topology *t = NULL;
    assert_pl_status(pl_openb_load_nodes_string("sn,cpu_milli,memory_mib,gpu,model\nn0,8000,10,2,\n", "n.csv", &t),
                     PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "n.csv:2: column 'model'"));
    assert_pl_status(pl_openb_load_nodes_string("sn,cpu_milli,memory_mib,gpu,model\nn0,8500,10,2,T4\n", "n.csv", &t),
                     PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "n.csv:2: column 'cpu_milli'"));
    pl_openb_pods p;
    assert_pl_status(pl_openb_load_pods_string("name,cpu_milli\np,1\n", "q.csv", &p), PL_EPARSE);
    assert_non_null(strstr(pl_last_error(), "no column 'memory_mib'"));
}

static void test_saturate(void **state)
{
    (void)state;
    pl_topology *t = nodes20();
    pl_openb_pods p;
    pods200(&p);
    const char *const pols[] = {"random-fit", "dotprod", "gpu-clustering", "gpu-packing", "bestfit", "fgd", "fgd-coarse", "fgd-balance",
                                "fgd-price"};
    for (int k = 0; k < 9; k++) {
        pl_saturate_opts o;
        pl_saturate_result r, r2;
        pl_saturate_opts_init(&o);
        o.policy = pols[k];
        assert_pl_ok(pl_saturate_run(t, &p, &o, &r));
        assert_int_equal(r.npoints, 131);
        assert_true(r.alloc[0] == 0);
        /* No departures: the allocation never falls, and it exceeds the
         * mark only by the pod that crossed it (at most 8 of 108 GPUs). */
        for (int32_t i = 1; i < r.npoints; i++) {
            assert_true(r.alloc[i] >= r.alloc[i - 1]);
            assert_true(r.alloc[i] <= i + 800.0 / 108 + 1e-9);
        }
        assert_true(r.alloc[100] > 50 && r.alloc[130] <= 100);
        assert_int_equal(r.placed + r.failed, r.pods);
        /* The same seed replays the same run. */
        assert_pl_ok(pl_saturate_run(t, &p, &o, &r2));
        assert_memory_equal(r.alloc, r2.alloc, sizeof *r.alloc * (size_t)r.npoints);
        pl_saturate_result_free(&r);
        pl_saturate_result_free(&r2);
    }
    pl_saturate_opts o;
    pl_saturate_result r;
    pl_saturate_opts_init(&o);
    o.policy = "topo-aware";
    assert_pl_status(pl_saturate_run(t, &p, &o, &r), PL_ENOTFOUND);
    assert_non_null(strstr(pl_last_error(), "'topo-aware' is not a policy of the fragmentation model (random-fit, "));
    assert_non_null(strstr(pl_last_error(), ", fgd-balance"));
    o.policy = "fgd";
    o.timeline = 1;
    assert_pl_ok(pl_saturate_run(t, &p, &o, &r));
    assert_int_equal(r.pods, 200);
    assert_int_equal(r.nsamples, 200 + 200); /* every pod of the excerpt has a deletion time */
    assert_true(fabs(r.talloc[r.nsamples - 1]) < 1e-9); /* all departed at the end */
    pl_saturate_result_free(&r);
    pl_openb_pods_free(&p);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nodes),
        cmocka_unit_test(test_pods),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_saturate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

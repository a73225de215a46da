/* pl_job and pl_jobset: tasks and their demands, merged undirected edges,
 * all-to-all graphs, totals with overflow, constraints, copies and the
 * ownership rules of job sets. */
#include <float.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"

static pl_job *new_job(const char *name, int32_t ntasks)
{
    pl_job *job = NULL;
    assert_pl_ok(pl_job_create(name, &job));
    for (int32_t i = 0; i < ntasks; i++)
        assert_pl_ok(pl_job_add_task(job, NULL, NULL));
    return job;
}

static double traffic(const pl_job *job, int32_t a, int32_t b)
{
    double t = -1;
    assert_pl_ok(pl_job_traffic(job, a, b, &t));
    return t;
}

static void test_create_defaults(void **state)
{
    (void)state;
    pl_job *job = NULL;
    assert_pl_ok(pl_job_create(NULL, &job));
    assert_string_equal(pl_job_name(job), "job");
    assert_int_equal(pl_job_task_count(job), 0);
    assert_int_equal(pl_job_edge_count(job), 0);
    assert_int_equal(pl_job_single_node(job), 1);
    assert_true(pl_job_min_utility(job) == 0 && pl_job_slo(job) == 0);
    assert_true(pl_job_arrival(job) == 0 && pl_job_duration(job) == 0);
    assert_string_equal(pl_job_workload_type(job), "");
    assert_string_equal(pl_job_workload_size(job), "");
    assert_int_equal(pl_job_admits_node(job, "node7"), 1);
    pl_task_demand total = {.gpus = -1};
    assert_pl_ok(pl_job_total_demand(job, &total));
    assert_true(total.gpus == 0 && total.cores == 0 && total.memory == 0);
    pl_job_free(job);

    assert_pl_ok(pl_job_create("train", &job));
    assert_string_equal(pl_job_name(job), "train");
    pl_job_free(job);
    pl_job_free(NULL);
    assert_pl_status(pl_job_create("x", NULL), PL_EINVAL);
}

static void test_tasks(void **state)
{
    (void)state;
    pl_job *job = new_job("t", 0);
    int32_t id = -1;
    assert_pl_ok(pl_job_add_task(job, NULL, &id));
    assert_int_equal(id, 0);
    pl_task_demand d = {.gpus = 2, .cores = 8, .memory = 1 << 30, .gpu_memory = 3, .bandwidth = 4};
    assert_pl_ok(pl_job_add_task(job, &d, &id));
    assert_int_equal(id, 1);
    assert_int_equal(pl_job_task_count(job), 2);

    pl_task_demand got;
    assert_pl_ok(pl_job_task(job, 0, &got));
    assert_true(got.gpus == 1 && got.cores == 0 && got.memory == 0 && got.gpu_memory == 0 &&
                got.bandwidth == 0);
    assert_pl_ok(pl_job_task(job, 1, &got));
    assert_true(got.gpus == 2 && got.cores == 8 && got.memory == 1073741824 && got.gpu_memory == 3 &&
                got.bandwidth == 4);

    pl_task_demand bad = {.gpus = 1, .bandwidth = -1};
    assert_pl_status(pl_job_add_task(job, &bad, &id), PL_EINVAL);
    assert_int_equal(pl_job_task_count(job), 2);
    assert_pl_status(pl_job_add_task(NULL, NULL, NULL), PL_EINVAL);
    assert_pl_status(pl_job_task(job, 2, &got), PL_EINVAL);
    assert_pl_status(pl_job_task(job, -1, &got), PL_EINVAL);
    assert_pl_status(pl_job_task(job, 0, NULL), PL_EINVAL);
    assert_pl_status(pl_job_task(NULL, 0, &got), PL_EINVAL);
    assert_int_equal(pl_job_task_count(NULL), 0);
    pl_job_free(job);
}

static void test_edges_merge(void **state)
{
    (void)state;
    pl_job *job = new_job("e", 3);
    assert_pl_ok(pl_job_add_edge(job, 2, 0, 2.5));
    assert_pl_ok(pl_job_add_edge(job, 0, 2, 1.0)); /* same pair, other order: adds */
    assert_pl_ok(pl_job_add_edge(job, 1, 2, 0.5));
    assert_int_equal(pl_job_edge_count(job), 2);

    pl_job_edge_info e;
    assert_pl_ok(pl_job_edge(job, 0, &e));
    assert_int_equal(e.a, 0);
    assert_int_equal(e.b, 2);
    assert_true(e.traffic == 3.5);
    assert_pl_ok(pl_job_edge(job, 1, &e));
    assert_true(e.a == 1 && e.b == 2 && e.traffic == 0.5);

    assert_true(traffic(job, 0, 2) == 3.5);
    assert_true(traffic(job, 2, 0) == 3.5);
    assert_true(traffic(job, 2, 1) == 0.5);
    assert_true(traffic(job, 0, 1) == 0.0);
    assert_true(traffic(job, 1, 1) == 0.0);

    /* Every rejected edge leaves the graph as it was. */
    assert_pl_status(pl_job_add_edge(job, 0, 3, 1), PL_EINVAL);
    assert_pl_status(pl_job_add_edge(job, -1, 0, 1), PL_EINVAL);
    assert_pl_status(pl_job_add_edge(job, 1, 1, 1), PL_EINVAL);
    assert_pl_status(pl_job_add_edge(job, 0, 1, -0.5), PL_EINVAL);
    assert_pl_status(pl_job_add_edge(job, 0, 1, NAN), PL_EINVAL);
    assert_pl_status(pl_job_add_edge(job, 0, 1, INFINITY), PL_EINVAL);
    assert_pl_status(pl_job_add_edge(NULL, 0, 1, 1), PL_EINVAL);
    assert_int_equal(pl_job_edge_count(job), 2);
    assert_true(traffic(job, 0, 1) == 0.0);
    /* A sum that would reach infinity is refused too. */
    assert_pl_ok(pl_job_add_edge(job, 0, 1, DBL_MAX));
    assert_pl_status(pl_job_add_edge(job, 1, 0, DBL_MAX), PL_EINVAL);
    assert_true(traffic(job, 0, 1) == DBL_MAX);
    assert_int_equal(pl_job_edge_count(job), 3);

    double t;
    assert_pl_status(pl_job_traffic(job, 0, 3, &t), PL_EINVAL);
    assert_pl_status(pl_job_traffic(job, 0, 1, NULL), PL_EINVAL);
    assert_pl_status(pl_job_traffic(NULL, 0, 1, &t), PL_EINVAL);
    assert_pl_status(pl_job_edge(job, 3, &e), PL_EINVAL);
    assert_pl_status(pl_job_edge(job, -1, &e), PL_EINVAL);
    assert_pl_status(pl_job_edge(job, 0, NULL), PL_EINVAL);
    assert_int_equal(pl_job_edge_count(NULL), 0);
    pl_job_free(job);
}

static void test_all_to_all(void **state)
{
    (void)state;
    pl_job *job = new_job("a2a", 4);
    assert_pl_ok(pl_job_add_edge(job, 1, 0, 1.0));
    assert_pl_ok(pl_job_add_all_to_all(job, 2.0));
    assert_int_equal(pl_job_edge_count(job), 6); /* C(4, 2), the (0,1) edge merged */
    assert_true(traffic(job, 0, 1) == 3.0);
    for (int32_t a = 0; a < 4; a++)
        for (int32_t b = 0; b < 4; b++)
            if (a != b && !(a + b == 1))
                assert_true(traffic(job, a, b) == 2.0);
    /* New edges follow (0,1) in pair order: (0,2), (0,3), (1,2), (1,3), (2,3). */
    static const int32_t want[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    for (int32_t i = 0; i < 6; i++) {
        pl_job_edge_info e;
        assert_pl_ok(pl_job_edge(job, i, &e));
        assert_int_equal(e.a, want[i][0]);
        assert_int_equal(e.b, want[i][1]);
    }
    assert_pl_status(pl_job_add_all_to_all(job, -1), PL_EINVAL);
    assert_pl_status(pl_job_add_all_to_all(NULL, 1), PL_EINVAL);
    assert_int_equal(pl_job_edge_count(job), 6);
    pl_job_free(job);

    /* One task: no pair, no edge. */
    job = new_job("solo", 1);
    assert_pl_ok(pl_job_add_all_to_all(job, 4));
    assert_int_equal(pl_job_edge_count(job), 0);
    pl_job_free(job);

    /* A larger complete graph: 60 tasks, 1770 edges, each found both ways. */
    job = new_job("big", 60);
    assert_pl_ok(pl_job_add_all_to_all(job, 0.25));
    assert_int_equal(pl_job_edge_count(job), 1770);
    assert_pl_ok(pl_job_add_edge(job, 59, 17, 0.5));
    assert_int_equal(pl_job_edge_count(job), 1770);
    assert_true(traffic(job, 17, 59) == 0.75);
    assert_true(traffic(job, 58, 3) == 0.25);
    pl_job_free(job);
}

/* Issue 25: {"gpus":4096,"traffic":1} did not finish in 115 s, each of the
 * 8.4M pairs found by a scan of a task's edges. The alarm fails the test if
 * it takes a minute (it takes well under a second now). */
static void test_all_to_all_4096(void **state)
{
    (void)state;
    alarm(60);
    pl_job *job = new_job("wide", 4096);
    assert_pl_ok(pl_job_add_edge(job, 4095, 7, 1.5));
    assert_pl_ok(pl_job_add_all_to_all(job, 1.0));
    assert_int_equal(pl_job_edge_count(job), 4096 * 4095 / 2);
    assert_true(traffic(job, 7, 4095) == 2.5);
    assert_true(traffic(job, 4094, 4095) == 1.0);
    pl_job_free(job);
    alarm(0);
}

static void test_total_demand(void **state)
{
    (void)state;
    pl_job *job = new_job("sum", 0);
    pl_task_demand a = {.gpus = 1, .cores = 3, .memory = 1000, .gpu_memory = 16, .bandwidth = 7};
    pl_task_demand b = {.gpus = 2, .cores = 0, .memory = 24, .gpu_memory = 4, .bandwidth = 0};
    assert_pl_ok(pl_job_add_task(job, &a, NULL));
    assert_pl_ok(pl_job_add_task(job, &b, NULL));
    assert_pl_ok(pl_job_add_task(job, NULL, NULL));
    pl_task_demand t;
    assert_pl_ok(pl_job_total_demand(job, &t));
    assert_true(t.gpus == 4 && t.cores == 3 && t.memory == 1024 && t.gpu_memory == 20 && t.bandwidth == 7);
    assert_pl_status(pl_job_total_demand(job, NULL), PL_EINVAL);
    assert_pl_status(pl_job_total_demand(NULL, &t), PL_EINVAL);

    pl_task_demand huge = {.memory = INT64_MAX / 2 + 1};
    assert_pl_ok(pl_job_add_task(job, &huge, NULL));
    assert_pl_ok(pl_job_total_demand(job, &t)); /* 1024 + 2^62 fits */
    assert_true(t.memory == ((int64_t)1 << 62) + 1024);
    assert_pl_ok(pl_job_add_task(job, &huge, NULL));
    t.gpus = 99;
    assert_pl_status(pl_job_total_demand(job, &t), PL_EOVERFLOW);
    assert_true(t.gpus == 99); /* untouched on error */
    assert_non_null(strstr(pl_last_error(), "sum"));
    pl_job_free(job);
}

static void test_setters(void **state)
{
    (void)state;
    pl_job *job = new_job("s", 2);
    assert_pl_ok(pl_job_set_min_utility(job, 0.5));
    assert_pl_ok(pl_job_set_slo(job, 300));
    assert_pl_ok(pl_job_set_arrival(job, 0.513));
    assert_pl_ok(pl_job_set_duration(job, 120));
    assert_pl_ok(pl_job_set_single_node(job, 0));
    assert_true(pl_job_min_utility(job) == 0.5);
    assert_true(pl_job_slo(job) == 300);
    assert_true(pl_job_arrival(job) == 0.513);
    assert_true(pl_job_duration(job) == 120);
    assert_int_equal(pl_job_single_node(job), 0);
    assert_pl_ok(pl_job_set_single_node(job, 7));
    assert_int_equal(pl_job_single_node(job), 1);

    /* Rejected values keep the old one. */
    assert_pl_status(pl_job_set_min_utility(job, 1.5), PL_EINVAL);
    assert_pl_status(pl_job_set_min_utility(job, -0.1), PL_EINVAL);
    assert_pl_status(pl_job_set_min_utility(job, NAN), PL_EINVAL);
    assert_pl_status(pl_job_set_slo(job, -1), PL_EINVAL);
    assert_pl_status(pl_job_set_arrival(job, INFINITY), PL_EINVAL);
    assert_pl_status(pl_job_set_arrival(job, -0.5), PL_EINVAL);
    assert_pl_status(pl_job_set_duration(job, NAN), PL_EINVAL);
    assert_true(pl_job_min_utility(job) == 0.5 && pl_job_slo(job) == 300);
    assert_true(pl_job_arrival(job) == 0.513 && pl_job_duration(job) == 120);

    assert_pl_status(pl_job_set_min_utility(NULL, 0.5), PL_EINVAL);
    assert_pl_status(pl_job_set_slo(NULL, 1), PL_EINVAL);
    assert_pl_status(pl_job_set_arrival(NULL, 1), PL_EINVAL);
    assert_pl_status(pl_job_set_duration(NULL, 1), PL_EINVAL);
    assert_pl_status(pl_job_set_single_node(NULL, 1), PL_EINVAL);
    assert_pl_status(pl_job_set_workload(NULL, "a", "b"), PL_EINVAL);
    assert_true(pl_job_min_utility(NULL) == 0 && pl_job_arrival(NULL) == 0);
    assert_int_equal(pl_job_single_node(NULL), 1);
    assert_string_equal(pl_job_name(NULL), "");
    assert_string_equal(pl_job_workload_type(NULL), "");

    assert_pl_ok(pl_job_set_workload(job, "bvlc_alexnet", "1"));
    assert_string_equal(pl_job_workload_type(job), "bvlc_alexnet");
    assert_string_equal(pl_job_workload_size(job), "1");
    assert_pl_ok(pl_job_set_workload(job, NULL, "4"));
    assert_string_equal(pl_job_workload_type(job), "");
    assert_string_equal(pl_job_workload_size(job), "4");
    assert_pl_ok(pl_job_set_workload(job, NULL, NULL));
    assert_string_equal(pl_job_workload_size(job), "");
    pl_job_free(job);
}

static void test_anti_collocation(void **state)
{
    (void)state;
    pl_job *job = new_job("anti", 3);
    assert_pl_ok(pl_job_add_anti_collocation(job, 2, 0));
    assert_pl_ok(pl_job_add_anti_collocation(job, 0, 2)); /* duplicate: no-op */
    assert_int_equal(pl_job_anti_collocated(job, 0, 2), 1);
    assert_int_equal(pl_job_anti_collocated(job, 2, 0), 1);
    assert_int_equal(pl_job_anti_collocated(job, 0, 1), 0);
    assert_int_equal(pl_job_anti_collocated(job, 0, 0), 0);
    assert_int_equal(pl_job_anti_collocated(job, 0, 9), 0);
    assert_int_equal(pl_job_anti_collocated(NULL, 0, 2), 0);
    assert_pl_status(pl_job_add_anti_collocation(job, 1, 1), PL_EINVAL);
    assert_pl_status(pl_job_add_anti_collocation(job, 1, 3), PL_EINVAL);
    assert_pl_status(pl_job_add_anti_collocation(NULL, 0, 1), PL_EINVAL);
    assert_int_equal(pl_job_anti_collocated(job, 1, 3), 0);
    pl_job_free(job);
}

static void test_node_filter(void **state)
{
    (void)state;
    pl_job *job = new_job("nodes", 1);
    assert_int_equal(pl_job_admits_node(job, NULL), 1);
    const char *names[] = {"node0", "node3"};
    assert_pl_ok(pl_job_set_node_filter(job, names, 2));
    assert_int_equal(pl_job_admits_node(job, "node3"), 1);
    assert_int_equal(pl_job_admits_node(job, "node0"), 1);
    assert_int_equal(pl_job_admits_node(job, "node1"), 0);
    assert_int_equal(pl_job_admits_node(job, "node"), 0);
    assert_int_equal(pl_job_admits_node(job, NULL), 0);

    const char *with_null[] = {"node1", NULL};
    assert_pl_status(pl_job_set_node_filter(job, with_null, 2), PL_EINVAL);
    assert_pl_status(pl_job_set_node_filter(job, names, -1), PL_EINVAL);
    assert_pl_status(pl_job_set_node_filter(job, NULL, 2), PL_EINVAL);
    assert_pl_status(pl_job_set_node_filter(NULL, names, 2), PL_EINVAL);
    assert_int_equal(pl_job_admits_node(job, "node1"), 0); /* filter unchanged */

    assert_pl_ok(pl_job_set_node_filter(job, names, 0));
    assert_int_equal(pl_job_admits_node(job, "node1"), 1);
    assert_pl_ok(pl_job_set_node_filter(job, names + 1, 1));
    assert_int_equal(pl_job_admits_node(job, "node0"), 0);
    assert_pl_ok(pl_job_set_node_filter(job, NULL, 0));
    assert_int_equal(pl_job_admits_node(job, "node0"), 1);
    assert_int_equal(pl_job_admits_node(NULL, "x"), 1);
    pl_job_free(job);
}

static void test_copy_independent(void **state)
{
    (void)state;
    pl_job *job = new_job("orig", 0);
    pl_task_demand d = {.gpus = 1, .cores = 2, .memory = 3, .gpu_memory = 4, .bandwidth = 5};
    for (int i = 0; i < 3; i++)
        assert_pl_ok(pl_job_add_task(job, &d, NULL));
    assert_pl_ok(pl_job_add_edge(job, 2, 1, 1.5));
    assert_pl_ok(pl_job_add_edge(job, 0, 1, 4));
    assert_pl_ok(pl_job_add_anti_collocation(job, 0, 2));
    const char *names[] = {"node3"};
    assert_pl_ok(pl_job_set_node_filter(job, names, 1));
    assert_pl_ok(pl_job_set_workload(job, "bvlc_googlenet", "64"));
    assert_pl_ok(pl_job_set_min_utility(job, 0.3));
    assert_pl_ok(pl_job_set_slo(job, 900));
    assert_pl_ok(pl_job_set_arrival(job, 12.5));
    assert_pl_ok(pl_job_set_duration(job, 60));
    assert_pl_ok(pl_job_set_single_node(job, 0));

    pl_job *c = NULL;
    assert_pl_ok(pl_job_copy(job, &c));
    assert_ptr_not_equal(c, job);

    /* Change everything in the original; the copy keeps the old values. */
    assert_pl_ok(pl_job_add_edge(job, 1, 2, 1));
    assert_pl_ok(pl_job_add_edge(job, 0, 2, 1));
    assert_pl_ok(pl_job_add_task(job, NULL, NULL));
    assert_pl_ok(pl_job_add_anti_collocation(job, 0, 1));
    assert_pl_ok(pl_job_set_node_filter(job, NULL, 0));
    assert_pl_ok(pl_job_set_workload(job, "x", "y"));
    assert_pl_ok(pl_job_set_single_node(job, 1));
    assert_true(traffic(job, 1, 2) == 2.5);
    pl_job_free(job);

    assert_string_equal(pl_job_name(c), "orig");
    assert_int_equal(pl_job_task_count(c), 3);
    assert_int_equal(pl_job_edge_count(c), 2);
    pl_job_edge_info e;
    assert_pl_ok(pl_job_edge(c, 0, &e));
    assert_true(e.a == 1 && e.b == 2 && e.traffic == 1.5);
    assert_pl_ok(pl_job_edge(c, 1, &e));
    assert_true(e.a == 0 && e.b == 1 && e.traffic == 4);
    assert_true(traffic(c, 0, 2) == 0);
    pl_task_demand got;
    assert_pl_ok(pl_job_task(c, 2, &got));
    assert_true(got.cores == 2 && got.memory == 3 && got.gpu_memory == 4 && got.bandwidth == 5);
    assert_int_equal(pl_job_anti_collocated(c, 2, 0), 1);
    assert_int_equal(pl_job_anti_collocated(c, 0, 1), 0);
    assert_int_equal(pl_job_admits_node(c, "node3"), 1);
    assert_int_equal(pl_job_admits_node(c, "node1"), 0);
    assert_string_equal(pl_job_workload_type(c), "bvlc_googlenet");
    assert_string_equal(pl_job_workload_size(c), "64");
    assert_true(pl_job_min_utility(c) == 0.3 && pl_job_slo(c) == 900);
    assert_true(pl_job_arrival(c) == 12.5 && pl_job_duration(c) == 60);
    assert_int_equal(pl_job_single_node(c), 0);
    /* The copy is itself editable. */
    assert_pl_ok(pl_job_add_edge(c, 2, 0, 2));
    assert_true(traffic(c, 0, 2) == 2);
    pl_job_free(c);

    assert_pl_status(pl_job_copy(NULL, &c), PL_EINVAL);
    assert_pl_status(pl_job_copy(c, NULL), PL_EINVAL);
}

static void test_jobset(void **state)
{
    (void)state;
    pl_jobset *set = NULL;
    assert_pl_ok(pl_jobset_create(&set));
    assert_int_equal(pl_jobset_count(set), 0);
    pl_job *jobs[3];
    const char *names[] = {"a", "b", "c"};
    for (int32_t i = 0; i < 3; i++) {
        int32_t index = -1;
        jobs[i] = new_job(names[i], i + 1);
        assert_pl_ok(pl_jobset_add(set, jobs[i], &index));
        assert_int_equal(index, i);
    }
    assert_int_equal(pl_jobset_count(set), 3);
    assert_ptr_equal(pl_jobset_get(set, 1), jobs[1]);
    assert_int_equal(pl_job_task_count(pl_jobset_get(set, 2)), 3);
    assert_string_equal(pl_job_name(pl_jobset_get(set, 0)), "a");
    assert_null(pl_jobset_get(set, 3));
    assert_null(pl_jobset_get(set, -1));
    assert_null(pl_jobset_get(NULL, 0));
    assert_int_equal(pl_jobset_count(NULL), 0);

    /* Freeing an owned job directly is a no-op; the set still frees it once. */
    pl_job_free(jobs[0]);
    assert_string_equal(pl_job_name(pl_jobset_get(set, 0)), "a");

    /* A job of one set cannot join another: refused, left with its owner. */
    pl_jobset *other = NULL;
    assert_pl_ok(pl_jobset_create(&other));
    assert_pl_status(pl_jobset_add(other, jobs[2], NULL), PL_EINVAL);
    assert_int_equal(pl_jobset_count(other), 0);
    assert_int_equal(pl_job_task_count(jobs[2]), 3);
    pl_jobset_free(other);

    /* Failure still takes ownership: the job is freed (ASan would see a leak). */
    assert_pl_status(pl_jobset_add(NULL, new_job("lost", 2), NULL), PL_EINVAL);
    assert_pl_status(pl_jobset_add(set, NULL, NULL), PL_EINVAL);
    assert_int_equal(pl_jobset_count(set), 3);
    assert_pl_status(pl_jobset_create(NULL), PL_EINVAL);
    pl_jobset_free(set);
    pl_jobset_free(NULL);
}

/* The demand's reserved tail is stored as zeros whatever the caller left
 * there (members added later will take it), and the storage members
 * round-trip. */
static void test_task_reserved_zeroed(void **state)
{
    (void)state;
    pl_job *j;
    assert_pl_ok(pl_job_create("r", &j));
    pl_task_demand d;
    memset(&d, 0xa5, sizeof d);
    d.gpus = 1;
    d.cores = 2;
    d.memory = d.gpu_memory = d.bandwidth = d.gpu_milli = d.cpu_milli = 0;
    d.storage_bw = 7;
    d.storage_bytes = 9;
    assert_pl_ok(pl_job_add_task(j, &d, NULL));
    pl_task_demand got;
    assert_pl_ok(pl_job_task(j, 0, &got));
    assert_int_equal(got.storage_bw, 7);
    assert_int_equal(got.storage_bytes, 9);
    for (size_t k = 0; k < sizeof got.reserved / sizeof got.reserved[0]; k++)
        assert_int_equal(got.reserved[k], 0);
    pl_job_free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_defaults),
        cmocka_unit_test(test_tasks),
        cmocka_unit_test(test_task_reserved_zeroed),
        cmocka_unit_test(test_edges_merge),
        cmocka_unit_test(test_all_to_all),
        cmocka_unit_test(test_all_to_all_4096),
        cmocka_unit_test(test_total_demand),
        cmocka_unit_test(test_setters),
        cmocka_unit_test(test_anti_collocation),
        cmocka_unit_test(test_node_filter),
        cmocka_unit_test(test_copy_independent),
        cmocka_unit_test(test_jobset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

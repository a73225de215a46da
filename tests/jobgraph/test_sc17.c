/* pl_jobset_load_sc17(): the SC17 artifact's workload files (6 and 100
 * jobs), the mapping to tasks, traffic and constraints, numeric id order,
 * and format errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

#define GIB 1073741824LL

static pl_jobset *load_file(const char *rel)
{
    char path[PL_PATH_MAX];
    pl_jobset *set = NULL;
    assert_pl_ok(pl_jobset_load_sc17(pl_test_data(path, rel), &set));
    return set;
}

static double traffic(const pl_job *job, int32_t a, int32_t b)
{
    double t = -1;
    assert_pl_ok(pl_job_traffic(job, a, b, &t));
    return t;
}

static pl_task_demand task(const pl_job *job, int32_t i)
{
    pl_task_demand d = {.gpus = -1};
    assert_pl_ok(pl_job_task(job, i, &d));
    return d;
}

static void test_workloads_5(void **state)
{
    (void)state;
    pl_jobset *set = load_file("sc17/workloads-5.json");
    assert_int_equal(pl_jobset_count(set), 6);
    static const double arrival[6] = {0.513093165250245, 15.039122037036615, 24.36804537148004,
                                      25.332965062687443, 29.33493641120534, 29.893741982134614};
    static const char *const names[6] = {"job0", "job1", "job2", "job3", "job4", "job5"};
    static const int32_t gpus[6] = {1, 1, 1, 2, 2, 2};
    for (int32_t i = 0; i < 6; i++) {
        const pl_job *j = pl_jobset_get(set, i);
        assert_string_equal(pl_job_name(j), names[i]);
        assert_true(pl_job_arrival(j) == arrival[i]);
        assert_int_equal(pl_job_task_count(j), gpus[i]);
        assert_int_equal(pl_job_edge_count(j), gpus[i] == 2 ? 1 : 0);
        assert_int_equal(pl_job_single_node(j), 1);
        assert_true(pl_job_duration(j) == 0 && pl_job_slo(j) == 0);
    }

    /* Job 0: AlexNet batch 1 on one GPU, 1 core, 12 GB. */
    const pl_job *j = pl_jobset_get(set, 0);
    pl_task_demand d = task(j, 0);
    assert_true(d.gpus == 1 && d.cores == 1 && d.memory == 12 * GIB && d.gpu_memory == 0 && d.bandwidth == 0);
    assert_string_equal(pl_job_workload_type(j), "bvlc_alexnet");
    assert_string_equal(pl_job_workload_size(j), "1");
    assert_true(pl_job_min_utility(j) == 0.3);
    assert_string_equal(pl_job_workload_type(pl_jobset_get(set, 2)), "bvlc_googlenet");

    /* Job 3: 2 GPUs, 1 core and 1 GB split: the odd core to task 0. Batch 4: traffic 3. */
    j = pl_jobset_get(set, 3);
    d = task(j, 0);
    assert_true(d.gpus == 1 && d.cores == 1 && d.memory == GIB / 2);
    d = task(j, 1);
    assert_true(d.gpus == 1 && d.cores == 0 && d.memory == GIB / 2);
    assert_true(traffic(j, 1, 0) == 3);
    assert_string_equal(pl_job_workload_size(j), "4");
    assert_true(pl_job_min_utility(j) == 0.5);

    /* Job 5: 2 GB over 2 tasks, batch 1: traffic 4. */
    j = pl_jobset_get(set, 5);
    assert_true(task(j, 1).memory == GIB);
    assert_true(traffic(j, 0, 1) == 4);
    pl_task_demand t;
    assert_pl_ok(pl_job_total_demand(j, &t));
    assert_true(t.gpus == 2 && t.cores == 1 && t.memory == 2 * GIB);
    pl_jobset_free(set);
}

static void test_workloads_100(void **state)
{
    (void)state;
    pl_jobset *set = load_file("sc17/workloads-100.json");
    assert_int_equal(pl_jobset_count(set), 100);
    /* Numeric order: text order would put "10" right after "1". */
    for (int32_t i = 0; i < 100; i++) {
        char want[16];
        snprintf(want, sizeof want, "job%d", (int)i);
        assert_string_equal(pl_job_name(pl_jobset_get(set, i)), want);
    }
    assert_true(pl_job_arrival(pl_jobset_get(set, 9)) == 104);
    assert_true(pl_job_arrival(pl_jobset_get(set, 10)) == 114);
    assert_true(pl_job_arrival(pl_jobset_get(set, 99)) == 1007);
    for (int32_t i = 1; i < 100; i++)
        assert_true(pl_job_arrival(pl_jobset_get(set, i - 1)) <= pl_job_arrival(pl_jobset_get(set, i)));

    /* Job 15: 3 GPUs, 1 GB = 3 * 357913941 + 1 bytes: the extra byte to task 0. */
    const pl_job *j = pl_jobset_get(set, 15);
    assert_int_equal(pl_job_task_count(j), 3);
    assert_true(task(j, 0).memory == 357913942 && task(j, 1).memory == 357913941 &&
                task(j, 2).memory == 357913941);
    assert_true(task(j, 0).cores == 1 && task(j, 2).cores == 0);
    assert_int_equal(pl_job_edge_count(j), 3);
    assert_true(traffic(j, 2, 0) == 4);
    assert_true(fabs(pl_job_min_utility(j) - 0.3247560799523458) < 1e-15);

    /* The file asks for 166 GPUs in all, in 73 task pairs. */
    int64_t gpus = 0, edges = 0;
    for (int32_t i = 0; i < 100; i++) {
        pl_task_demand t;
        assert_pl_ok(pl_job_total_demand(pl_jobset_get(set, i), &t));
        gpus += t.gpus;
        edges += pl_job_edge_count(pl_jobset_get(set, i));
    }
    assert_int_equal(gpus, 166);
    assert_int_equal(edges, 73);
    pl_jobset_free(set);
}

#define JOB(extra) "{\"arrival\": 1, \"gpus\": 2, \"mem\": 3, \"tasks\": 5, \"type\": \"t\"" extra "}"

static void test_mapping_string(void **state)
{
    (void)state;
    /* Keys out of text order; batch sizes 64, 128 (a number), 256 (unknown). */
    const char *text = "{\"10\": " JOB(", \"size\": \"64\"") ", \"9\": " JOB(", \"size\": 128")
                       ", \"2\": " JOB(", \"size\": \"256\", \"id\": 2, \"color\": \"#fff\", \"time\": 0.5") "}";
    pl_jobset *set = NULL;
    assert_pl_ok(pl_jobset_load_sc17_string(text, 0, &set));
    assert_int_equal(pl_jobset_count(set), 3);
    const pl_job *j2 = pl_jobset_get(set, 0), *j9 = pl_jobset_get(set, 1), *j10 = pl_jobset_get(set, 2);
    assert_string_equal(pl_job_name(j2), "job2");
    assert_string_equal(pl_job_name(j9), "job9");
    assert_string_equal(pl_job_name(j10), "job10");
    assert_true(traffic(j10, 0, 1) == 2);
    assert_true(traffic(j9, 0, 1) == 1);
    assert_string_equal(pl_job_workload_size(j9), "128");
    assert_true(traffic(j2, 0, 1) == 1);
    /* 5 cores over 2 tasks: 3 + 2; 3 GB: 1.5 GiB each; no minimal_utility: 0. */
    assert_true(task(j2, 0).cores == 3 && task(j2, 1).cores == 2);
    assert_true(task(j2, 0).memory == 3 * GIB / 2 && task(j2, 1).memory == 3 * GIB / 2);
    assert_true(pl_job_min_utility(j2) == 0);
    pl_jobset_free(set);

    assert_pl_ok(pl_jobset_load_sc17_string("{}", 0, &set));
    assert_int_equal(pl_jobset_count(set), 0);
    pl_jobset_free(set);

    /* A fractional GB rounds to the nearest byte: 0.5 GB = 2^29. */
    assert_pl_ok(pl_jobset_load_sc17_string(
        "{\"0\": {\"arrival\": 0, \"gpus\": 1, \"mem\": 0.5, \"tasks\": 0, \"size\": \"1\", \"type\": \"x\"}}", 0,
        &set));
    assert_true(task(pl_jobset_get(set, 0), 0).memory == GIB / 2);
    pl_jobset_free(set);
}

static void expect_error(const char *text, const char *msg)
{
    pl_jobset *set = NULL;
    pl_status st = pl_jobset_load_sc17_string(text, 0, &set);
    if (st != PL_EPARSE)
        fail_msg("%s: got %s (%s), want PL_EPARSE", text, pl_status_name(st), pl_last_error());
    assert_null(set);
    if (strncmp(pl_last_error(), msg, strlen(msg)) != 0)
        fail_msg("%s: message \"%s\", want it to start with \"%s\"", text, pl_last_error(), msg);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("[]", "$: expected an object, got an array");
    expect_error("{\"01\": " JOB(", \"size\": \"1\"") "}", "$[\"01\"]: expected a job id");
    expect_error("{\"a\": " JOB(", \"size\": \"1\"") "}", "$[\"a\"]: expected a job id");
    expect_error("{\"-1\": " JOB(", \"size\": \"1\"") "}", "$[\"-1\"]: expected a job id");
    expect_error("{\"0\": 5}", "$[\"0\"]: expected an object, got 5");
    expect_error("{\"0\": " JOB("") "}", "$[\"0\"].size: missing");
    expect_error("{\"0\": {\"arrival\": 1, \"mem\": 3, \"tasks\": 5, \"type\": \"t\", \"size\": \"1\"}}",
                 "$[\"0\"].gpus: missing");
    expect_error("{\"0\": " JOB(", \"size\": \"1\", \"foo\": 1") "}", "$[\"0\"].foo: unknown key");
    expect_error("{\"3\": " JOB(", \"size\": \"1\", \"id\": 4") "}",
                 "$[\"3\"].id: the id 4 differs from the job's key \"3\"");
    expect_error("{\"0\": {\"arrival\": 1, \"gpus\": 0, \"mem\": 3, \"tasks\": 5, \"type\": \"t\", \"size\": \"1\"}}",
                 "$[\"0\"].gpus: expected an integer >= 1, got 0");
    expect_error("{\"0\": {\"arrival\": -1, \"gpus\": 1, \"mem\": 3, \"tasks\": 5, \"type\": \"t\", \"size\": \"1\"}}",
                 "$[\"0\"].arrival: expected a number >= 0, got -1");
    expect_error("{\"0\": {\"arrival\": 1, \"gpus\": 1, \"mem\": -3, \"tasks\": 5, \"type\": \"t\", \"size\": \"1\"}}",
                 "$[\"0\"].mem: expected a number in [0, 8e+09], got -3");
    expect_error("{\"0\": {\"arrival\": 1, \"gpus\": 1, \"mem\": 3, \"tasks\": 1.5, \"type\": \"t\", \"size\": \"1\"}}",
                 "$[\"0\"].tasks: expected an integer >= 0, got 1.5");
    expect_error("{\"0\": " JOB(", \"size\": \"1\", \"minimal_utility\": 2") "}",
                 "$[\"0\"].minimal_utility: expected a number in [0, 1], got 2");
    expect_error("{\"0\": " JOB(", \"size\": [1]") "}", "$[\"0\"].size: expected a string, got an array");
    expect_error("{\"0\": {\"arrival\": 1, \"gpus\": 1, \"mem\": 3, \"tasks\": 5, \"type\": 1, \"size\": \"1\"}}",
                 "$[\"0\"].type: expected a string, got 1");
    expect_error("{\"0\": ", "<string>:1:");

    char path[PL_PATH_MAX];
    pl_jobset *set = NULL;
    assert_pl_status(pl_jobset_load_sc17(pl_test_data(path, "sc17/nope.json"), &set), PL_EIO);
    assert_null(set);
    assert_pl_status(pl_jobset_load_sc17(NULL, &set), PL_EINVAL);
    assert_pl_status(pl_jobset_load_sc17(path, NULL), PL_EINVAL);
    assert_pl_status(pl_jobset_load_sc17_string(NULL, 0, &set), PL_EINVAL);
    assert_pl_status(pl_jobset_load_sc17_string("{}", 0, NULL), PL_EINVAL);
}


/* pl_test_json_loader over pl_jobset_load_sc17_string(). */
static pl_status load_sc17(const char *text, size_t length)
{
    pl_jobset *set = NULL;
    pl_status st = pl_jobset_load_sc17_string(text, length, &set);
    if (st)
        assert_null(set);
    pl_jobset_free(set);
    return st;
}

/* Degenerate documents (doc/robustness.md), shared with the other JSON suites. */
static void test_degenerate_documents(void **state)
{
    (void)state;
    pl_test_degenerate_json("0", load_sc17);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workloads_5),
        cmocka_unit_test(test_workloads_100),
        cmocka_unit_test(test_mapping_string),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_degenerate_documents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* pl_jobset_load_json(): the full example of doc/jobs.md field by field,
 * shorthands and defaults, and every schema error with its JSON path. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

static double traffic(const pl_job *job, int32_t a, int32_t b)
{
    double t = -1;
    assert_pl_ok(pl_job_traffic(job, a, b, &t));
    return t;
}

static pl_jobset *load(const char *text)
{
    pl_jobset *set = NULL;
    assert_pl_ok(pl_jobset_load_json_string(text, 0, &set));
    return set;
}

static void test_full_example(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_jobset *set = NULL;
    assert_pl_ok(pl_jobset_load_json(pl_test_data(path, "jobs/example.json"), &set));
    assert_int_equal(pl_jobset_count(set), 3);

    const pl_job *j = pl_jobset_get(set, 0);
    assert_string_equal(pl_job_name(j), "alexnet-2gpu");
    assert_true(pl_job_arrival(j) == 0.5);
    assert_int_equal(pl_job_task_count(j), 2);
    pl_task_demand d;
    assert_pl_ok(pl_job_task(j, 1, &d));
    assert_true(d.gpus == 1 && d.cores == 0 && d.memory == 0);
    assert_int_equal(pl_job_edge_count(j), 1);
    assert_true(traffic(j, 1, 0) == 4);
    assert_string_equal(pl_job_workload_type(j), "bvlc_alexnet");
    assert_string_equal(pl_job_workload_size(j), "1");
    assert_true(pl_job_min_utility(j) == 0.5 && pl_job_slo(j) == 300 && pl_job_duration(j) == 120);
    assert_int_equal(pl_job_single_node(j), 1);

    j = pl_jobset_get(set, 1);
    assert_string_equal(pl_job_name(j), "pipeline");
    assert_true(pl_job_arrival(j) == 15);
    assert_int_equal(pl_job_task_count(j), 3);
    assert_pl_ok(pl_job_task(j, 0, &d));
    assert_true(d.gpus == 1 && d.cores == 2 && d.memory == 8589934592LL && d.gpu_memory == 4294967296LL &&
                d.bandwidth == 12500000000LL);
    assert_pl_ok(pl_job_task(j, 2, &d));
    assert_true(d.gpus == 0 && d.cores == 4 && d.memory == 1073741824 && d.gpu_memory == 0);
    /* all-to-all 1, then edges add 3.5 to (0,1) and 0.5 to (1,2). */
    assert_int_equal(pl_job_edge_count(j), 3);
    assert_true(traffic(j, 0, 1) == 4.5);
    assert_true(traffic(j, 2, 1) == 1.5);
    assert_true(traffic(j, 0, 2) == 1);
    pl_task_demand t;
    assert_pl_ok(pl_job_total_demand(j, &t));
    assert_true(t.gpus == 2 && t.cores == 8 && t.memory == 18253611008LL && t.gpu_memory == 4294967296LL &&
                t.bandwidth == 12500000000LL);
    assert_string_equal(pl_job_workload_type(j), "bvlc_googlenet");
    assert_string_equal(pl_job_workload_size(j), "64");
    assert_int_equal(pl_job_single_node(j), 0);
    assert_int_equal(pl_job_anti_collocated(j, 2, 0), 1);
    assert_int_equal(pl_job_anti_collocated(j, 0, 1), 0);
    assert_int_equal(pl_job_admits_node(j, "node3"), 1);
    assert_int_equal(pl_job_admits_node(j, "node1"), 0);
    assert_true(pl_job_min_utility(j) == 0 && pl_job_slo(j) == 0 && pl_job_duration(j) == 0);

    /* Defaults: name from the index, one 1-GPU task, no edges, single node. */
    j = pl_jobset_get(set, 2);
    assert_string_equal(pl_job_name(j), "job2");
    assert_int_equal(pl_job_task_count(j), 1);
    assert_int_equal(pl_job_edge_count(j), 0);
    assert_int_equal(pl_job_single_node(j), 1);
    assert_true(pl_job_arrival(j) == 0);
    assert_string_equal(pl_job_workload_type(j), "");
    assert_int_equal(pl_job_admits_node(j, "anything"), 1);
    pl_jobset_free(set);
}

static void test_shorthands(void **state)
{
    (void)state;
    pl_jobset *set = load("{\"jobs\": [{\"gpus\": 3, \"traffic\": 2},"
                          " {\"tasks\": [{}, {\"cores\": 1}], \"edges\": [{\"a\": 1, \"b\": 0, \"traffic\": 1},"
                          "  {\"a\": 0, \"b\": 1, \"traffic\": 0.25}]}]}");
    assert_int_equal(pl_jobset_count(set), 2);
    const pl_job *j = pl_jobset_get(set, 0);
    assert_string_equal(pl_job_name(j), "job0");
    assert_int_equal(pl_job_task_count(j), 3);
    assert_int_equal(pl_job_edge_count(j), 3);
    assert_true(traffic(j, 2, 1) == 2);
    pl_task_demand t;
    assert_pl_ok(pl_job_total_demand(j, &t));
    assert_true(t.gpus == 3 && t.cores == 0);

    /* A task object's gpus defaults to 1; duplicate edges add up. */
    j = pl_jobset_get(set, 1);
    assert_pl_ok(pl_job_total_demand(j, &t));
    assert_true(t.gpus == 2 && t.cores == 1);
    assert_int_equal(pl_job_edge_count(j), 1);
    assert_true(traffic(j, 0, 1) == 1.25);
    pl_jobset_free(set);

    set = load("{\"jobs\": []}");
    assert_int_equal(pl_jobset_count(set), 0);
    pl_jobset_free(set);

    /* length bounds the text: the trailing garbage is not read. */
    const char text[] = "{\"jobs\": [{\"gpus\": 1}]}garbage";
    assert_pl_ok(pl_jobset_load_json_string(text, strlen(text) - 7, &set));
    assert_int_equal(pl_jobset_count(set), 1);
    pl_jobset_free(set);
}

/* Each case: a document and the exact start of the error message. */
static void expect_error(const char *text, pl_status want, const char *msg)
{
    pl_jobset *set = (pl_jobset *)&set; /* must be reset to NULL */
    pl_status st = pl_jobset_load_json_string(text, 0, &set);
    if (st != want)
        fail_msg("%s: got %s (%s), want %s", text, pl_status_name(st), pl_last_error(), pl_status_name(want));
    assert_null(set);
    if (strncmp(pl_last_error(), msg, strlen(msg)) != 0)
        fail_msg("%s: message \"%s\", want it to start with \"%s\"", text, pl_last_error(), msg);
}

static void test_schema_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"{\"jobs\": [{\"gpus\": 1}, {\"tasks\": [{\"gpus\": -1}]}]}",
         "$.jobs[1].tasks[0].gpus: expected an integer >= 0, got -1"},
        {"{\"jobs\": [{\"gpus\": 1, \"gpu\": 2}]}", "$.jobs[0].gpu: unknown key (expected one of: name, "},
        {"{\"jobs\": [{\"tasks\": [{\"gpus\": 1, \"mem\": 2}]}]}", "$.jobs[0].tasks[0].mem: unknown key"},
        {"{\"job\": []}", "$.job: unknown key (expected one of: jobs)"},
        {"{}", "$.jobs: missing"},
        {"[]", "$: expected an object, got an array"},
        {"{\"jobs\": {}}", "$.jobs: expected an array, got an object"},
        {"{\"jobs\": [3]}", "$.jobs[0]: expected an object, got 3"},
        {"{\"jobs\": [{\"gpus\": 1, \"tasks\": [{}]}]}", "$.jobs[0]: give either \"gpus\" or \"tasks\""},
        {"{\"jobs\": [{\"name\": \"x\"}]}", "$.jobs[0]: missing \"gpus\" or \"tasks\""},
        {"{\"jobs\": [{\"gpus\": 0}]}", "$.jobs[0].gpus: expected an integer >= 1, got 0"},
        {"{\"jobs\": [{\"gpus\": 5000}]}", "$.jobs[0].gpus: expected an integer <= 4096, got 5000"},
        {"{\"jobs\": [{\"gpus\": 1.5}]}", "$.jobs[0].gpus: expected an integer >= 1, got 1.5"},
        {"{\"jobs\": [{\"tasks\": []}]}", "$.jobs[0].tasks: expected 1 to 4096 tasks, got 0"},
        {"{\"jobs\": [{\"tasks\": {}}]}", "$.jobs[0].tasks: expected an array, got an object"},
        {"{\"jobs\": [{\"tasks\": [{\"memory\": \"8GB\"}]}]}",
         "$.jobs[0].tasks[0].memory: expected an integer >= 0, got the string \"8GB\""},
        {"{\"jobs\": [{\"tasks\": [{\"bandwidth\": 1.5}]}]}",
         "$.jobs[0].tasks[0].bandwidth: expected an integer >= 0, got 1.5"},
        {"{\"jobs\": [{\"gpus\": 2, \"edges\": [{\"a\": 0, \"b\": 2, \"traffic\": 1}]}]}",
         "$.jobs[0].edges[0].b: no task 2 (the job has 2 tasks, ids 0 to 1)"},
        {"{\"jobs\": [{\"gpus\": 2, \"edges\": [{\"a\": -1, \"b\": 1, \"traffic\": 1}]}]}",
         "$.jobs[0].edges[0].a: expected an integer >= 0, got -1"},
        {"{\"jobs\": [{\"gpus\": 2, \"edges\": [{\"a\": 1, \"b\": 1, \"traffic\": 1}]}]}",
         "$.jobs[0].edges[0]: a task cannot be paired with itself"},
        {"{\"jobs\": [{\"gpus\": 2, \"edges\": [{\"a\": 0, \"b\": 1}]}]}", "$.jobs[0].edges[0].traffic: missing"},
        {"{\"jobs\": [{\"gpus\": 2, \"edges\": [{\"a\": 0, \"b\": 1, \"traffic\": -2}]}]}",
         "$.jobs[0].edges[0].traffic: expected a number >= 0, got -2"},
        {"{\"jobs\": [{\"gpus\": 2, \"edges\": [{\"a\": 0, \"b\": 1, \"weight\": 2}]}]}",
         "$.jobs[0].edges[0].weight: unknown key (expected one of: a, b, traffic)"},
        {"{\"jobs\": [{\"gpus\": 2, \"traffic\": -1}]}", "$.jobs[0].traffic: expected a number >= 0, got -1"},
        {"{\"jobs\": [{\"gpus\": 2, \"traffic\": \"high\"}]}",
         "$.jobs[0].traffic: expected a number >= 0, got the string \"high\""},
        {"{\"jobs\": [{\"gpus\": 1, \"min_utility\": 1.5}]}",
         "$.jobs[0].min_utility: expected a number in [0, 1], got 1.5"},
        {"{\"jobs\": [{\"gpus\": 1, \"arrival\": -3}]}", "$.jobs[0].arrival: expected a number >= 0, got -3"},
        {"{\"jobs\": [{\"gpus\": 1, \"slo\": null}]}", "$.jobs[0].slo: expected a number >= 0, got null"},
        {"{\"jobs\": [{\"gpus\": 1, \"duration\": -0.5}]}",
         "$.jobs[0].duration: expected a number >= 0, got -0.5"},
        {"{\"jobs\": [{\"gpus\": 1, \"single_node\": \"yes\"}]}",
         "$.jobs[0].single_node: expected a boolean, got the string \"yes\""},
        {"{\"jobs\": [{\"gpus\": 2, \"anti_collocation\": [[0]]}]}",
         "$.jobs[0].anti_collocation[0]: expected a pair of task ids [a, b], got 1 elements"},
        {"{\"jobs\": [{\"gpus\": 2, \"anti_collocation\": [[0, 3]]}]}",
         "$.jobs[0].anti_collocation[0][1]: no task 3"},
        {"{\"jobs\": [{\"gpus\": 2, \"anti_collocation\": [[1, 1]]}]}",
         "$.jobs[0].anti_collocation[0]: a task cannot be paired with itself"},
        {"{\"jobs\": [{\"gpus\": 2, \"anti_collocation\": [0, 1]}]}",
         "$.jobs[0].anti_collocation[0]: expected an array, got 0"},
        {"{\"jobs\": [{\"gpus\": 1, \"nodes\": [\"node0\", \"\"]}]}",
         "$.jobs[0].nodes[1]: a node name must be non-empty"},
        {"{\"jobs\": [{\"gpus\": 1, \"nodes\": [1]}]}", "$.jobs[0].nodes[0]: expected a string, got 1"},
        {"{\"jobs\": [{\"gpus\": 1, \"nodes\": \"node0\"}]}",
         "$.jobs[0].nodes: expected an array, got the string \"node0\""},
        {"{\"jobs\": [{\"gpus\": 1, \"workload\": {\"size\": \"1\"}}]}", "$.jobs[0].workload.type: missing"},
        {"{\"jobs\": [{\"gpus\": 1, \"workload\": {\"type\": \"a\", \"batch\": 1}}]}",
         "$.jobs[0].workload.batch: unknown key"},
        {"{\"jobs\": [{\"gpus\": 1, \"workload\": {\"type\": \"a\", \"size\": true}}]}",
         "$.jobs[0].workload.size: expected a string, got true"},
        {"{\"jobs\": [{\"gpus\": 1, \"workload\": \"bvlc_alexnet\"}]}",
         "$.jobs[0].workload: expected an object, got the string \"bvlc_alexnet\""},
        {"{\"jobs\": [{\"gpus\": 1, \"name\": \"\"}]}", "$.jobs[0].name: a job name must be non-empty"},
        {"{\"jobs\": [{\"gpus\": 1, \"name\": 7}]}", "$.jobs[0].name: expected a string, got 7"},
        {"{\"jobs\": [{\"gpus\": 1, \"odd key\": 7}]}", "$.jobs[0][\"odd key\"]: unknown key"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        expect_error(cases[i].text, PL_EPARSE, cases[i].msg);
}

static void test_syntax_and_io(void **state)
{
    (void)state;
    expect_error("{\"jobs\": [", PL_EPARSE, "<string>:1:");
    expect_error("{\"jobs\": [], \"jobs\": []}", PL_EPARSE, "<string>:1:");
    expect_error("{\"jobs\": [{\"gpus\": 1}]} x", PL_EPARSE, "<string>:1:");

    char path[PL_PATH_MAX], want[PL_PATH_MAX + 16];
    pl_jobset *set = NULL;
    pl_test_data(path, "jobs/bad-syntax.json");
    assert_pl_status(pl_jobset_load_json(path, &set), PL_EPARSE);
    assert_null(set);
    snprintf(want, sizeof want, "%s:3:", path); /* the trailing comma on line 3 */
    if (strncmp(pl_last_error(), want, strlen(want)) != 0)
        fail_msg("message \"%s\", want it to start with \"%s\"", pl_last_error(), want);

    pl_test_data(path, "jobs/no-such-file.json");
    assert_pl_status(pl_jobset_load_json(path, &set), PL_EIO);
    assert_null(set);
    assert_non_null(strstr(pl_last_error(), "no-such-file.json"));

    assert_pl_status(pl_jobset_load_json(NULL, &set), PL_EINVAL);
    assert_pl_status(pl_jobset_load_json(path, NULL), PL_EINVAL);
    assert_pl_status(pl_jobset_load_json_string(NULL, 0, &set), PL_EINVAL);
    assert_pl_status(pl_jobset_load_json_string("{}", 0, NULL), PL_EINVAL);
}


/* pl_test_json_loader over pl_jobset_load_json_string(). */
static pl_status load_jobs(const char *text, size_t length)
{
    pl_jobset *set = NULL;
    pl_status st = pl_jobset_load_json_string(text, length, &set);
    if (st)
        assert_null(set);
    pl_jobset_free(set);
    return st;
}

/* Degenerate documents (doc/robustness.md), shared with the other JSON suites. */
static void test_degenerate_documents(void **state)
{
    (void)state;
    pl_test_degenerate_json("jobs", load_jobs);
    /* Nesting within the limit reaches the schema check. */
    char *deep = pl_test_deep_json("jobs", 100);
    assert_pl_status(load_jobs(deep, 0), PL_EPARSE);
    assert_string_equal(pl_last_error(), "$.jobs[0]: expected an object, got an array");
    free(deep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_example),
        cmocka_unit_test(test_shorthands),
        cmocka_unit_test(test_schema_errors),
        cmocka_unit_test(test_syntax_and_io),
        cmocka_unit_test(test_degenerate_documents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

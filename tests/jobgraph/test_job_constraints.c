/* Placement constraints of a job (Kim's thesis ch. 4): node Must / MustNot
 * for the job and per task, collocation, labels and anti-affinity, the
 * equivalence classes, the test of a task against a machine, the thesis's
 * three conflict kinds on a hand-made cluster, copying, and the JSON fields
 * with their errors. */
#include <string.h>
#include "testutil.h"

/* p0: power, p100, 4 GPUs; x0: x86, k80, 4 GPUs; v0: x86, v100, 2 GPUs;
 * c0: a machine without GPUs (arch power). */
static const char cluster_json[] =
    "{\"templates\": {"
    "   \"m\": {\"builtin\": \"minsky\"},"
    "   \"s\": {\"tree\": {\"kind\": \"machine\", \"children\": ["
    "     {\"kind\": \"gpu\", \"os_index\": 0, \"capacity\": {\"units\": 1}},"
    "     {\"kind\": \"gpu\", \"os_index\": 1, \"capacity\": {\"units\": 1}}]}},"
    "   \"c\": {\"tree\": {\"kind\": \"machine\", \"capacity\": {\"cores\": 8}}}},"
    " \"machines\": ["
    "   {\"template\": \"m\", \"name\": \"p\", \"attrs\": {\"arch\": \"power\", \"gpu\": \"p100\"}},"
    "   {\"template\": \"m\", \"name\": \"x\", \"attrs\": {\"arch\": \"x86\", \"gpu\": \"k80\"}},"
    "   {\"template\": \"s\", \"name\": \"v\", \"attrs\": {\"arch\": \"x86\", \"gpu\": \"v100\"}},"
    "   {\"template\": \"c\", \"name\": \"c\", \"attrs\": {\"arch\": \"power\"}}]}";

static pl_topology *cluster(int32_t *p0, int32_t *x0, int32_t *v0)
{
    pl_topology *t = NULL;
    assert_pl_ok(pl_topology_load_json_string(cluster_json, 0, &t));
    assert_pl_ok(pl_topology_find(t, "cluster/p0", p0));
    assert_pl_ok(pl_topology_find(t, "cluster/x0", x0));
    assert_pl_ok(pl_topology_find(t, "cluster/v0", v0));
    return t;
}

static pl_job *tasks(const char *name, int32_t k, int single_node)
{
    pl_job *j;
    assert_pl_ok(pl_job_create(name, &j));
    for (int32_t i = 0; i < k; i++)
        assert_pl_ok(pl_job_add_task(j, NULL, NULL));
    assert_pl_ok(pl_job_set_single_node(j, single_node));
    return j;
}

static void assert_msg_has(const char *needle)
{
    if (!strstr(pl_last_error(), needle))
        fail_msg("message \"%s\" lacks \"%s\"", pl_last_error(), needle);
}

static void test_building_and_queries(void **state)
{
    (void)state;
    pl_job *j = tasks("j", 3, 0);
    assert_int_equal(pl_job_has_constraints(j), 0);
    assert_pl_ok(pl_job_add_node_must(j, PL_JOB_ALL_TASKS, "arch", "x86"));
    assert_pl_ok(pl_job_add_node_must_not(j, 2, "gpu", "k80"));
    assert_int_equal(pl_job_has_constraints(j), 1);
    assert_pl_status(pl_job_add_node_must(j, 3, "a", "b"), PL_EINVAL);
    assert_pl_status(pl_job_add_node_must(j, -2, "a", "b"), PL_EINVAL);
    assert_pl_status(pl_job_add_node_must(j, 0, "", "b"), PL_EINVAL);
    assert_pl_status(pl_job_add_node_must_not(j, 0, "a", NULL), PL_EINVAL);
    assert_pl_status(pl_job_add_node_must(NULL, 0, "a", "b"), PL_EINVAL);
    assert_int_equal(pl_job_node_constraint_count(j), 2);
    pl_node_constraint nc;
    assert_pl_ok(pl_job_node_constraint(j, 0, &nc));
    assert_int_equal(nc.task, PL_JOB_ALL_TASKS);
    assert_int_equal(nc.must_not, 0);
    assert_string_equal(nc.key, "arch");
    assert_string_equal(nc.value, "x86");
    assert_pl_ok(pl_job_node_constraint(j, 1, &nc));
    assert_int_equal(nc.task, 2);
    assert_int_equal(nc.must_not, 1);
    assert_string_equal(nc.value, "k80");
    assert_pl_status(pl_job_node_constraint(j, 2, &nc), PL_EINVAL);

    assert_pl_ok(pl_job_add_collocation(j, 2, 0));
    assert_pl_ok(pl_job_add_collocation(j, 0, 2)); /* the same pair: no-op */
    assert_pl_status(pl_job_add_collocation(j, 1, 1), PL_EINVAL);
    assert_pl_status(pl_job_add_collocation(j, 0, 5), PL_EINVAL);
    assert_int_equal(pl_job_collocated(j, 0, 2), 1);
    assert_int_equal(pl_job_collocated(j, 2, 0), 1);
    assert_int_equal(pl_job_collocated(j, 0, 1), 0);
    assert_int_equal(pl_job_collocated(j, 0, 0), 0);

    assert_pl_ok(pl_job_add_label(j, "db"));
    assert_pl_ok(pl_job_add_label(j, "db"));
    assert_pl_ok(pl_job_add_label(j, "tenant-a"));
    assert_pl_status(pl_job_add_label(j, ""), PL_EINVAL);
    assert_int_equal(pl_job_label_count(j), 2);
    assert_string_equal(pl_job_label(j, 1), "tenant-a");
    assert_null(pl_job_label(j, 2));
    assert_int_equal(pl_job_has_label(j, "db"), 1);
    assert_int_equal(pl_job_has_label(j, "web"), 0);
    assert_pl_ok(pl_job_add_anti_affinity(j, "web"));
    assert_pl_status(pl_job_add_anti_affinity(j, NULL), PL_EINVAL);
    assert_int_equal(pl_job_anti_affinity_count(j), 1);
    assert_string_equal(pl_job_anti_affinity_label(j, 0), "web");

    /* Symmetric, never with itself, label matching only. */
    pl_job *web = tasks("web", 1, 1), *other = tasks("other", 1, 1);
    assert_pl_ok(pl_job_add_label(web, "web"));
    assert_pl_ok(pl_job_add_label(other, "tenant-a"));
    assert_int_equal(pl_job_anti_affine(j, web), 1);
    assert_int_equal(pl_job_anti_affine(web, j), 1);
    assert_int_equal(pl_job_anti_affine(j, other), 0);
    assert_int_equal(pl_job_anti_affine(j, j), 0);
    assert_int_equal(pl_job_anti_affine(NULL, j), 0);
    assert_pl_ok(pl_job_add_anti_affinity(other, "db"));
    assert_int_equal(pl_job_anti_affine(j, other), 1);
    pl_job *self = tasks("self", 1, 1);
    assert_pl_ok(pl_job_add_label(self, "web"));
    assert_pl_ok(pl_job_add_anti_affinity(self, "web"));
    assert_int_equal(pl_job_anti_affine(self, self), 0);
    assert_int_equal(pl_job_anti_affine(self, web), 1);

    /* A deep copy carries every constraint. */
    pl_job *c;
    assert_pl_ok(pl_job_copy(j, &c));
    assert_int_equal(pl_job_node_constraint_count(c), 2);
    assert_pl_ok(pl_job_node_constraint(c, 1, &nc));
    assert_true(nc.task == 2 && nc.must_not == 1 && !strcmp(nc.key, "gpu") && !strcmp(nc.value, "k80"));
    assert_int_equal(pl_job_collocated(c, 0, 2), 1);
    assert_int_equal(pl_job_label_count(c), 2);
    assert_string_equal(pl_job_anti_affinity_label(c, 0), "web");
    assert_int_equal(pl_job_anti_affine(c, web), 1);
    assert_int_equal(pl_job_anti_affine(c, j), 0); /* same labels, neither avoids "db" */
    pl_job_free(c);
    pl_job_free(j);
    pl_job_free(web);
    pl_job_free(other);
    pl_job_free(self);
}

static void test_classes(void **state)
{
    (void)state;
    pl_job *j = tasks("j", 5, 0);
    int32_t cls[5];
    assert_int_equal(pl_job_task_classes(j, cls), 5);
    assert_pl_ok(pl_job_add_collocation(j, 3, 4));
    assert_pl_ok(pl_job_add_collocation(j, 1, 3));
    /* {0}, {1, 3, 4}, {2}, numbered by their lowest task. */
    assert_int_equal(pl_job_task_classes(j, cls), 3);
    const int32_t want[5] = {0, 1, 2, 1, 1};
    for (int i = 0; i < 5; i++)
        assert_int_equal(cls[i], want[i]);
    assert_int_equal(pl_job_collocated(j, 1, 4), 1);
    assert_int_equal(pl_job_collocated(j, 2, 4), 0);
    /* Single-node is a Must over every task: one class. */
    assert_pl_ok(pl_job_set_single_node(j, 1));
    assert_int_equal(pl_job_task_classes(j, cls), 1);
    for (int i = 0; i < 5; i++)
        assert_int_equal(cls[i], 0);
    assert_int_equal(pl_job_collocated(j, 0, 2), 1);
    assert_int_equal(pl_job_task_classes(NULL, cls), 0);
    pl_job_free(j);
}

static void test_task_admits(void **state)
{
    (void)state;
    int32_t p0, x0, v0;
    pl_topology *t = cluster(&p0, &x0, &v0);
    pl_job *j = tasks("j", 2, 0);
    assert_pl_ok(pl_job_add_node_must_not(j, PL_JOB_ALL_TASKS, "gpu", "k80"));
    assert_pl_ok(pl_job_add_node_must(j, 1, "arch", "power"));
    /* task 0: not k80; task 1: not k80 and power. */
    assert_int_equal(pl_job_task_admits(j, 0, t, p0), 1);
    assert_int_equal(pl_job_task_admits(j, 0, t, x0), 0);
    assert_int_equal(pl_job_task_admits(j, 0, t, v0), 1);
    assert_int_equal(pl_job_task_admits(j, 1, t, p0), 1);
    assert_int_equal(pl_job_task_admits(j, 1, t, x0), 0);
    assert_int_equal(pl_job_task_admits(j, 1, t, v0), 0);
    /* MustNot on an attribute a vertex lacks holds: the GPU has no "gpu". */
    int32_t g;
    assert_pl_ok(pl_topology_find(t, "cluster/x0/package0/gpu0", &g));
    assert_int_equal(pl_job_task_admits(j, 0, t, g), 1);
    /* The node filter is part of it. */
    const char *names[] = {"v0", "x0"};
    assert_pl_ok(pl_job_set_node_filter(j, names, 2));
    assert_int_equal(pl_job_task_admits(j, 0, t, p0), 0);
    assert_int_equal(pl_job_task_admits(j, 0, t, v0), 1);
    assert_int_equal(pl_job_task_admits(j, 2, t, v0), 0);
    assert_int_equal(pl_job_task_admits(j, 0, t, 9999), 0);
    assert_int_equal(pl_job_task_admits(j, 0, NULL, v0), 0);
    pl_job_free(j);
    pl_topology_free(t);
}

/* The thesis's conflicts (sec. 2.2), each on the cluster above. */
static void test_conflicts(void **state)
{
    (void)state;
    int32_t p0, x0, v0;
    pl_topology *t = cluster(&p0, &x0, &v0);
    pl_conflict f[4];
    int32_t n = -1;

    /* None: not k80 and x86 leaves v0, which holds 2 single-node tasks. */
    pl_job *ok = tasks("ok", 2, 1);
    assert_pl_ok(pl_job_add_node_must_not(ok, PL_JOB_ALL_TASKS, "gpu", "k80"));
    assert_pl_ok(pl_job_add_node_must(ok, PL_JOB_ALL_TASKS, "arch", "x86"));
    assert_pl_ok(pl_job_check_constraints(ok, t, f, 4, &n));
    assert_int_equal(n, 0);
    /* A third task: TOO_BIG (3 GPUs on one machine, v0 has 2). */
    assert_pl_ok(pl_job_add_task(ok, NULL, NULL));
    assert_pl_status(pl_job_check_constraints(ok, t, f, 4, &n), PL_EINFEASIBLE);
    assert_int_equal(n, 1);
    assert_int_equal(f[0].kind, PL_CONFLICT_TOO_BIG);
    assert_int_equal(f[0].cls, 0);
    assert_int_equal(f[0].unit_a, 0);
    assert_msg_has("TOO_BIG: task 0, task 1, task 2 (which must share a machine) need 3 GPUs on one "
                   "machine, but the largest machine their node constraints allow has 2");
    /* Not single-node: three classes of one task, each fits v0. */
    assert_pl_ok(pl_job_set_single_node(ok, 0));
    assert_pl_ok(pl_job_check_constraints(ok, t, NULL, 0, &n));
    assert_int_equal(n, 0);

    /* NO_NODE: all tasks on power (p0, and c0 which has no GPU), task 1 on v100 (v0). */
    pl_job *nn = tasks("nn", 2, 1);
    assert_pl_ok(pl_job_add_node_must(nn, PL_JOB_ALL_TASKS, "arch", "power"));
    assert_pl_ok(pl_job_add_node_must(nn, 1, "gpu", "v100"));
    assert_pl_status(pl_job_check_constraints(nn, t, f, 4, &n), PL_EINFEASIBLE);
    assert_int_equal(n, 1);
    assert_int_equal(f[0].kind, PL_CONFLICT_NO_NODE);
    assert_int_equal(f[0].cls, 0);
    assert_int_equal(f[0].unit_a, 1); /* its filter emptied the set */
    assert_int_equal(f[0].unit_b, -1);
    assert_msg_has("NO_NODE: no machine with GPUs meets every node constraint of task 0, task 1 (which "
                   "must share a machine): job must arch=power; task 1 must gpu=v100");
    /* Apart, each task has a machine: no conflict. */
    assert_pl_ok(pl_job_set_single_node(nn, 0));
    assert_pl_status(pl_job_check_constraints(nn, t, f, 4, &n), PL_EINFEASIBLE); /* task 1: power and v100 */
    assert_int_equal(n, 1);
    assert_int_equal(f[0].cls, 1);
    assert_int_equal(f[0].unit_a, 1);
    assert_msg_has("NO_NODE: no machine with GPUs meets every node constraint of task 1: job must "
                   "arch=power; task 1 must gpu=v100");

    /* NO_NODE by the node filter: only x0, which is not power. */
    pl_job *nf = tasks("nf", 1, 1);
    const char *only[] = {"x0"};
    assert_pl_ok(pl_job_set_node_filter(nf, only, 1));
    assert_pl_ok(pl_job_check_constraints(nf, t, f, 4, &n));
    assert_pl_ok(pl_job_add_node_must(nf, PL_JOB_ALL_TASKS, "arch", "power"));
    assert_pl_status(pl_job_check_constraints(nf, t, f, 4, &n), PL_EINFEASIBLE);
    assert_int_equal(f[0].kind, PL_CONFLICT_NO_NODE);
    assert_msg_has("job must arch=power; node filter (x0)");
    /* Every name of a longer filter is named, in the job's order. */
    const char *two[] = {"x0", "v0"};
    assert_pl_ok(pl_job_set_node_filter(nf, two, 2));
    assert_pl_status(pl_job_check_constraints(nf, t, f, 4, &n), PL_EINFEASIBLE);
    assert_msg_has("job must arch=power; node filter (x0, v0)");

    /* SELF_ANTI: 0 ~ 1 ~ 2 by collocation, 0 and 2 anti-collocated. */
    pl_job *sa = tasks("sa", 3, 0);
    assert_pl_ok(pl_job_add_collocation(sa, 0, 1));
    assert_pl_ok(pl_job_add_collocation(sa, 1, 2));
    assert_pl_ok(pl_job_add_anti_collocation(sa, 2, 0));
    assert_pl_status(pl_job_check_constraints(sa, t, f, 4, &n), PL_EINFEASIBLE);
    assert_int_equal(n, 1);
    assert_int_equal(f[0].kind, PL_CONFLICT_SELF_ANTI);
    assert_int_equal(f[0].cls, 0);
    assert_int_equal(f[0].unit_a, 0);
    assert_int_equal(f[0].unit_b, 2);
    assert_msg_has("SELF_ANTI: task 0 and task 2 must share a machine (collocation or single-node) and "
                   "must not (anti-collocation)");
    /* Two conflicts at once, room for one: both counted, the first written. */
    assert_pl_ok(pl_job_add_node_must(sa, 0, "gpu", "none-such"));
    f[1].kind = (pl_conflict_kind)77;
    assert_pl_status(pl_job_check_constraints(sa, t, f, 1, &n), PL_EINFEASIBLE);
    assert_int_equal(n, 2);
    assert_int_equal(f[0].kind, PL_CONFLICT_NO_NODE);
    assert_int_equal((int)f[1].kind, 77);
    assert_msg_has("task 0 must gpu=none-such; constraint conflict SELF_ANTI");

    /* A topology without a GPU machine: NO_NODE for every class. */
    pl_topology *empty;
    assert_pl_ok(pl_topology_create(&empty));
    assert_pl_status(pl_job_check_constraints(ok, empty, f, 4, &n), PL_EINFEASIBLE);
    assert_int_equal(n, 3);
    assert_msg_has("the topology has no machine with a GPU");
    assert_pl_status(pl_job_check_constraints(NULL, t, f, 4, &n), PL_EINVAL);
    assert_pl_status(pl_job_check_constraints(ok, t, f, -1, &n), PL_EINVAL);
    pl_topology_free(empty);
    pl_job_free(ok);
    pl_job_free(nn);
    pl_job_free(nf);
    pl_job_free(sa);
    pl_topology_free(t);
}

/* The JSON fields (doc/jobs.md) and their errors. */
static void test_json(void **state)
{
    (void)state;
    static const char text[] =
        "{\"jobs\": [{\"name\": \"db\", \"single_node\": false,"
        "  \"tasks\": [{\"must\": {\"gpu\": \"v100\"}}, {\"must_not\": {\"zone\": [\"a\", \"b\"]}}, {}],"
        "  \"must\": {\"arch\": \"x86\"}, \"must_not\": {\"gpu\": \"k80\"},"
        "  \"collocation\": [[0, 2]], \"anti_collocation\": [[1, 2]],"
        "  \"labels\": [\"db\", \"tenant-a\"], \"anti_affinity\": [\"web\"]}]}";
    pl_jobset *set = NULL;
    assert_pl_ok(pl_jobset_load_json_string(text, 0, &set));
    const pl_job *j = pl_jobset_get(set, 0);
    /* Rules in order: each task's own (as its object is read), then the job's. */
    static const struct { int32_t task; int must_not; const char *key, *value; } want[] = {
        {0, 0, "gpu", "v100"}, {1, 1, "zone", "a"}, {1, 1, "zone", "b"},
        {PL_JOB_ALL_TASKS, 0, "arch", "x86"}, {PL_JOB_ALL_TASKS, 1, "gpu", "k80"},
    };
    assert_int_equal(pl_job_node_constraint_count(j), 5);
    for (int i = 0; i < 5; i++) {
        pl_node_constraint nc;
        assert_pl_ok(pl_job_node_constraint(j, i, &nc));
        assert_int_equal(nc.task, want[i].task);
        assert_int_equal(nc.must_not, want[i].must_not);
        assert_string_equal(nc.key, want[i].key);
        assert_string_equal(nc.value, want[i].value);
    }
    assert_int_equal(pl_job_collocated(j, 2, 0), 1);
    assert_int_equal(pl_job_collocated(j, 1, 0), 0);
    assert_int_equal(pl_job_anti_collocated(j, 1, 2), 1);
    assert_int_equal(pl_job_label_count(j), 2);
    assert_string_equal(pl_job_label(j, 1), "tenant-a");
    assert_string_equal(pl_job_anti_affinity_label(j, 0), "web");
    pl_jobset_free(set);

    static const struct { const char *json, *want; } bad[] = {
        {"{\"jobs\": [{\"gpus\": 1, \"must\": [\"arch\"]}]}", "$.jobs[0].must: expected an object, got an array"},
        {"{\"jobs\": [{\"gpus\": 1, \"must\": {\"arch\": [\"x86\"]}}]}",
         "$.jobs[0].must.arch: expected a string (several Must values of one key intersect: give one)"},
        {"{\"jobs\": [{\"gpus\": 1, \"must\": {\"arch\": \"\"}}]}", "$.jobs[0].must.arch: an attribute value must be non-empty"},
        {"{\"jobs\": [{\"gpus\": 1, \"must\": {\"\": \"x\"}}]}", "an attribute key must be non-empty"},
        {"{\"jobs\": [{\"gpus\": 1, \"must_not\": {\"zone\": [\"a\", 3]}}]}",
         "$.jobs[0].must_not.zone[1]: expected a string or an array of strings"},
        {"{\"jobs\": [{\"gpus\": 1, \"must_not\": {\"zone\": []}}]}", "$.jobs[0].must_not.zone: expected at least one value"},
        {"{\"jobs\": [{\"tasks\": [{}, {\"must\": {\"gpu\": 1}}]}]}", "$.jobs[0].tasks[1].must.gpu: expected a string"},
        {"{\"jobs\": [{\"tasks\": [{\"mustnot\": {}}]}]}", "$.jobs[0].tasks[0].mustnot: unknown key"},
        {"{\"jobs\": [{\"gpus\": 2, \"collocation\": [[0, 2]]}]}",
         "$.jobs[0].collocation[0][1]: no task 2 (the job has 2 tasks, ids 0 to 1)"},
        {"{\"jobs\": [{\"gpus\": 2, \"collocation\": [[1, 1]]}]}",
         "$.jobs[0].collocation[0]: a task cannot be paired with itself"},
        {"{\"jobs\": [{\"gpus\": 2, \"collocation\": [[0]]}]}", "$.jobs[0].collocation[0]: expected a pair"},
        {"{\"jobs\": [{\"gpus\": 1, \"labels\": \"db\"}]}", "$.jobs[0].labels: expected an array, got"},
        {"{\"jobs\": [{\"gpus\": 1, \"labels\": [\"db\", \"\"]}]}", "$.jobs[0].labels[1]: a label must be non-empty"},
        {"{\"jobs\": [{\"gpus\": 1, \"anti_affinity\": [7]}]}", "$.jobs[0].anti_affinity[0]: expected a string, got 7"},
        {"{\"jobs\": [{\"gpus\": 1, \"antiaffinity\": []}]}", "$.jobs[0].antiaffinity: unknown key"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        set = (pl_jobset *)&set;
        pl_status st = pl_jobset_load_json_string(bad[i].json, 0, &set);
        if (st != PL_EPARSE)
            fail_msg("case %zu: %s, want PL_EPARSE: %s", i, pl_status_name(st), pl_last_error());
        assert_null(set);
        assert_msg_has(bad[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_building_and_queries),
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_task_admits),
        cmocka_unit_test(test_conflicts),
        cmocka_unit_test(test_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

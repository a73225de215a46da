/* "firmament": Quincy's cost model on the flow core, checked against flows
 * solved by hand on a cluster of one-GPU machines (one slot each). Costs
 * (doc/drmaestro.md, "The Firmament baseline"): psi = 4 per GiB through X,
 * xi = 2 per GiB through the data's rack, 0 on the data's machine;
 * unscheduled = X cost + 1 + 10 x rounds waited. */
#include "policy_fixture.h"

/* `machines` machines of one package (4 cores) and one GPU, 2 to a rack:
 * cluster/rack<r>/node<i>. */
static pl_topology *one_gpu_cluster(int32_t machines)
{
    pl_topology *m, *c;
    int32_t mach, pkg, g;
    assert_pl_ok(pl_topology_create(&m));
    assert_pl_ok(pl_topology_add_vertex(m, PL_VK_MACHINE, -1, "machine", -1, &mach));
    assert_pl_ok(pl_topology_add_vertex(m, PL_VK_PACKAGE, mach, NULL, 0, &pkg));
    assert_pl_ok(pl_topology_set_capacity(m, pkg, PL_RES_CORES, 4));
    assert_pl_ok(pl_topology_add_vertex(m, PL_VK_GPU, pkg, NULL, 0, &g));
    assert_pl_ok(pl_topology_set_capacity(m, g, PL_RES_UNITS, 1));
    assert_pl_ok(pl_topology_add_link(m, g, pkg, PL_LK_PCIE, 0, 0, 0, NULL));
    assert_pl_ok(pl_topology_cluster(m, machines, 2, 0, &c));
    pl_topology_free(m);
    return c;
}

/* One task of one GPU and one core; data "NAME:GIB" or NULL. */
static pl_job *task_job(const char *name, const char *data)
{
    pl_job *j;
    pl_task_demand d = {.gpus = 1, .cores = 1};
    assert_pl_ok(pl_job_create(name, &j));
    assert_pl_ok(pl_job_add_task(j, &d, NULL));
    if (data) {
        char label[64];
        snprintf(label, sizeof label, "data=%s", data);
        assert_pl_ok(pl_job_add_label(j, label));
    }
    return j;
}

/* The machine a placed decision's GPU is on, by name ("node<i>"); NULL when not placed. */
static const char *machine_of(const pl_topology *t, const pl_decision *d, int32_t i, char *buf)
{
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(d, i, &info));
    if (info.kind != PL_DECISION_PLACED)
        return NULL;
    assert_int_equal(info.ngpus, 1);
    int32_t m;
    pl_vertex_info vi;
    assert_pl_ok(pl_topology_ancestor(t, info.gpus[0], PL_VK_MACHINE, &m));
    assert_int_equal(info.machine, m);
    assert_pl_ok(pl_topology_vertex(t, m, &vi));
    strcpy(buf, vi.name);
    return buf;
}

/* Four machines (rack0: node0, node1; rack1: node2, node3), four jobs:
 *   A data node1 10 GiB: node1 0, rack0 20, X 40
 *   B data node1  2 GiB: node1 0, rack0  4, X  8
 *   C no data:           X 0
 *   D data node3  5 GiB: node3 0, rack1 10, X 20
 * A and B both want node1's one slot: A there and B on node0 through rack0
 * costs 4, B there and A through rack0 costs 20. C could take node0 or
 * node2 at cost 0, but on node0 it would push B through X (8 instead of 4):
 * C on node2. D on node3. The unique optimum, cost 4. */
static void test_quincy_locality(void **s)
{
    (void)s;
    pl_topology *t = one_gpu_cluster(4);
    pl_job *q[4] = {task_job("A", "node1:10"), task_job("B", "node1:2"), task_job("C", NULL),
                    task_job("D", "node3:5")};
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "firmament";
    pl_decision *d;
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, q, 4, &d));
    static const char *const want[4] = {"node1", "node0", "node2", "node3"};
    char buf[32];
    for (int32_t i = 0; i < 4; i++) {
        const char *m = machine_of(t, d, i, buf);
        assert_non_null(m);
        assert_string_equal(m, want[i]);
    }
    /* The decisions apply: every GPU taken, no GPU twice. */
    pl_topology *copy;
    assert_pl_ok(pl_topology_copy(t, &copy));
    assert_pl_ok(pl_decision_apply(d, q, 4, copy));
    int64_t cap, fr;
    assert_pl_ok(pl_topology_subtree_amount(copy, vx(copy, "cluster"), PL_VK_GPU, PL_RES_UNITS, &cap, &fr));
    assert_int_equal(cap, 4);
    assert_int_equal(fr, 0);
    pl_topology_free(copy);
    pl_decision_free(d);
    for (int i = 0; i < 4; i++)
        pl_job_free(q[i]);
    pl_topology_free(t);
}

/* One slot (node0) for E (no data: gain of placing 1 + 10 w) and F (3 GiB
 * on node0: gain 13 + 10 w over waiting). Both new: F. With E seen in two
 * earlier rounds (w = 2: gain 21) and F new: E. The instance keeps the
 * wait across rounds; a one-shot call starts every job at w = 0. */
static void test_wait_grows(void **s)
{
    (void)s;
    pl_topology *t = one_gpu_cluster(1);
    pl_job *e = task_job("E", NULL), *f = task_job("F", "node0:3");
    pl_job *both[2] = {e, f};
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "firmament";
    pl_decision *d;
    char buf[32];
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, both, 2, &d));
    assert_null(machine_of(t, d, 0, buf));
    assert_non_null(machine_of(t, d, 1, buf));
    pl_decision_free(d);

    pl_policy *p;
    assert_pl_ok(pl_policy_create(&o, &p));
    int32_t gpu = vx(t, "cluster/rack0/node0/package0/gpu0");
    assert_pl_ok(pl_topology_alloc(t, gpu, PL_RES_UNITS, 1)); /* no room for two rounds */
    for (int r = 0; r < 2; r++) {
        assert_pl_ok(pl_policy_decide(p, NULL, t, NULL, 0, &e, 1, &d));
        assert_null(machine_of(t, d, 0, buf));
        pl_decision_free(d);
    }
    assert_pl_ok(pl_topology_release(t, gpu, PL_RES_UNITS, 1));
    assert_pl_ok(pl_policy_decide(p, NULL, t, NULL, 0, both, 2, &d));
    assert_string_equal(machine_of(t, d, 0, buf), "node0");
    assert_null(machine_of(t, d, 1, buf));
    pl_decision_free(d);
    pl_policy_free(p);
    pl_job_free(e);
    pl_job_free(f);
    pl_topology_free(t);
}

/* More tasks than slots: the flow leaves the rest unscheduled (waiting),
 * and a job asking for two GPUs in one task is refused. */
static void test_waiting_and_refusal(void **s)
{
    (void)s;
    pl_topology *t = one_gpu_cluster(2);
    pl_job *q[4] = {task_job("a", NULL), task_job("b", NULL), task_job("c", NULL), NULL};
    pl_task_demand two = {.gpus = 2, .cores = 1};
    assert_pl_ok(pl_job_create("two", &q[3]));
    assert_pl_ok(pl_job_add_task(q[3], &two, NULL));
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "firmament";
    pl_decision *d;
    assert_pl_ok(pl_policy_place(&o, t, NULL, 0, q, 4, &d));
    int placed = 0;
    for (int32_t i = 0; i < 3; i++) {
        pl_decision_info info;
        assert_pl_ok(pl_decision_get(d, i, &info));
        placed += info.kind == PL_DECISION_PLACED;
        assert_true(info.kind == PL_DECISION_PLACED || info.kind == PL_DECISION_WAITING);
    }
    assert_int_equal(placed, 2);
    pl_decision_info info;
    assert_pl_ok(pl_decision_get(d, 3, &info));
    assert_int_equal(info.kind, PL_DECISION_REJECTED);
    pl_decision_free(d);
    for (int i = 0; i < 4; i++)
        pl_job_free(q[i]);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quincy_locality),
        cmocka_unit_test(test_wait_grows),
        cmocka_unit_test(test_waiting_and_refusal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

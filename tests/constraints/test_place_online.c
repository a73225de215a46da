/* The VM-by-VM replay of the ch. 4 algorithms (pl_constraint_place_online()):
 * units that grow VM by VM, lifetimes to the end of the current iteration,
 * migration costs, and the time-weighted metrics, on hand-checked cases. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include <placement/constraint_online.h>

#define assert_near(x, want, eps) do { \
        double x_ = (x), w_ = (want); \
        if (!(fabs(x_ - w_) <= (eps))) \
            fail_msg("%s = %.12g, want %.12g", #x, x_, w_); \
    } while (0)

static pl_cnodes *plain_nodes(int32_t count, double cores)
{
    pl_cnodes *n = NULL;
    assert_pl_ok(pl_cnodes_create(&n));
    for (int32_t i = 0; i < count; i++)
        assert_pl_ok(pl_cnodes_add(n, NULL, cores, 64, "", NULL));
    return n;
}

/* Two nodes of 2 cores. VM 0 (unit X, 1 core) at t=0, VM 1 (unit Y, 1 core)
 * at 10, VM 2 (unit X, 1 core) at 20, the last request; iterations of 30 s,
 * VM 0's migration costs 5 s. */
static pl_constraints *grow_case(pl_cnodes **nodes, pl_conline_vm vms[3])
{
    *nodes = plain_nodes(2, 2);
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(3, &c));
    for (int32_t u = 0; u < 3; u++)
        assert_pl_ok(pl_constraints_set_demand(c, u, 1, 1));
    assert_pl_ok(pl_constraints_colocate(c, 0, 2));
    vms[0] = (pl_conline_vm){0, 30, 5};
    vms[1] = (pl_conline_vm){10, 30, 5};
    vms[2] = (pl_conline_vm){20, 30, 5};
    return c;
}

static void replay(pl_constraints *c, const pl_cnodes *n, const char *alg, const pl_conline_vm *vms, double lo,
                   double hi, pl_conline_result *r)
{
    pl_constraint_place_opts o;
    pl_constraint_place_opts_init(&o);
    o.algorithm = alg;
    assert_pl_ok(pl_constraint_place_online(c, n, &o, vms, lo, hi, r));
}

/* ES-basic: X and Y share node 0; X grown to 2 cores no longer fits there
 * and moves (VM 0 migrates, +5 s) to node 1. VM 0 then ends at 35 (20 s
 * done of its 30 s iteration... minus the 5 s: 15 done, 15 left), VM 1 at
 * 40, VM 2 at 50. Active: 1 node on [0, 20), 2 on [20, 40), 1 on [40, 50)
 * = 70 / 50. The cores bound (running cores / 2, up): 1, 1, 2 on [20, 35),
 * 1, 1 = 65 / 50. Sigma of utilisation: 0.25 on [5, 10), 0.5 on [10, 20),
 * 0.25 on [20, 25) = 7.5 / 20. */
static void test_es_growth_migrates(void **state)
{
    (void)state;
    pl_cnodes *n = NULL;
    pl_conline_vm vms[3];
    pl_constraints *c = grow_case(&n, vms);
    pl_conline_result r;
    replay(c, n, "es-basic", vms, 5, 25, &r);
    assert_int_equal(r.failed, 0);
    assert_int_equal(r.migrations, 1);
    assert_near(r.mig_time, 5, 1e-12);
    assert_near(r.end, 50, 1e-9);
    assert_near(r.active, 70.0 / 50, 1e-12);
    assert_near(r.active_min, 65.0 / 50, 1e-12);
    assert_near(r.sigma, 7.5 / 20, 1e-12);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* LB-basic: X on node 0, Y on node 1 (worst fit); X grows in place, nothing
 * migrates. Ends 30, 40, 50. Active: 1 on [0, 10), 2 on [10, 40), 1 on
 * [40, 50) = 80 / 50. Sigma: 0.25 on [5, 10), 0 on [10, 20), 0.25 on
 * [20, 25) = 2.5 / 20. */
static void test_lb_growth_in_place(void **state)
{
    (void)state;
    pl_cnodes *n = NULL;
    pl_conline_vm vms[3];
    pl_constraints *c = grow_case(&n, vms);
    pl_conline_result r;
    replay(c, n, "lb-basic", vms, 5, 25, &r);
    assert_int_equal(r.migrations, 0);
    assert_near(r.active, 80.0 / 50, 1e-12);
    assert_near(r.sigma, 2.5 / 20, 1e-12);
    /* an empty window: sigma just after the requests up to t=10 (0.5, 0.5 -> 0) */
    replay(c, n, "lb-basic", vms, 10, 10, &r);
    assert_near(r.sigma, 0, 1e-12);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* One node of 3 cores: VM 0 (unit X, 1 core), VM 1 (unit Y, 2 cores), then
 * VM 2 (unit X, 1 core) cannot join X (X 2 + Y 2 > 3, nowhere to move Y),
 * fails, and leaves X as it was. Ends: VM 0 at 20 + 30 - 20 = 30, VM 1 at 40;
 * 1 active node on [0, 40). */
static void test_failed_growth_keeps_unit(void **state)
{
    (void)state;
    pl_cnodes *n = plain_nodes(1, 3);
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(3, &c));
    for (int32_t u = 0; u < 3; u++)
        assert_pl_ok(pl_constraints_set_demand(c, u, u == 1 ? 2 : 1, 1));
    assert_pl_ok(pl_constraints_colocate(c, 0, 2));
    pl_conline_vm vms[3] = {{0, 30, 1}, {10, 30, 1}, {20, 30, 1}};
    pl_conline_result r;
    replay(c, n, "constraint-energy", vms, 0, 20, &r);
    assert_int_equal(r.failed, 1);
    assert_int_equal(r.migrations, 0);
    assert_near(r.end, 40, 1e-9);
    assert_near(r.active, 1, 1e-12);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* Nodes of 2, 2 and 4 cores; unit X of VMs 0, 1, 3 and unit W of VMs 2, 4
 * (1 core each), one request every 10 s. X fills node 0, W goes to node 1,
 * X grown to 3 cores moves to node 2 (2 migrations) and leaves node 0
 * empty. When W grows, its own node 1 still counts as active for the
 * activeness-aware algorithm, which keeps W there; ES-basic's first fit
 * moves W to node 0, the lowest index (a third migration). */
static void test_grown_unit_node_stays_active(void **state)
{
    (void)state;
    pl_cnodes *n = NULL;
    assert_pl_ok(pl_cnodes_create(&n));
    for (int32_t i = 0; i < 3; i++)
        assert_pl_ok(pl_cnodes_add(n, NULL, i < 2 ? 2 : 4, 64, "", NULL));
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(5, &c));
    pl_conline_vm vms[5];
    for (int32_t u = 0; u < 5; u++) {
        assert_pl_ok(pl_constraints_set_demand(c, u, 1, 1));
        vms[u] = (pl_conline_vm){10.0 * u, 100, 1};
    }
    assert_pl_ok(pl_constraints_colocate(c, 0, 1));
    assert_pl_ok(pl_constraints_colocate(c, 1, 3));
    assert_pl_ok(pl_constraints_colocate(c, 2, 4));
    pl_conline_result r;
    replay(c, n, "constraint-energy", vms, 0, 40, &r);
    assert_int_equal(r.failed, 0);
    assert_int_equal(r.migrations, 2);
    replay(c, n, "es-basic", vms, 0, 40, &r);
    assert_int_equal(r.migrations, 3);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

static void test_invalid(void **state)
{
    (void)state;
    pl_cnodes *n = NULL;
    pl_conline_vm vms[3];
    pl_constraints *c = grow_case(&n, vms);
    pl_conline_result r;
    assert_pl_status(pl_constraint_place_online(c, n, NULL, vms, 5, 1, &r), PL_EINVAL);
    assert_pl_status(pl_constraint_place_online(NULL, n, NULL, vms, 0, 1, &r), PL_EINVAL);
    vms[1].create = 30;
    assert_pl_status(pl_constraint_place_online(c, n, NULL, vms, 0, 1, &r), PL_EINVAL);
    vms[1].create = 10;
    vms[2].runtime = 0;
    assert_pl_status(pl_constraint_place_online(c, n, NULL, vms, 0, 1, &r), PL_EINVAL);
    vms[2].runtime = 30;
    pl_constraint_place_opts o;
    pl_constraint_place_opts_init(&o);
    o.algorithm = "nope";
    assert_pl_status(pl_constraint_place_online(c, n, &o, vms, 0, 1, &r), PL_ENOTFOUND);
    assert_pl_ok(pl_constraint_place_online(c, n, NULL, vms, 0, 1, &r));
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_es_growth_migrates),
        cmocka_unit_test(test_lb_growth_in_place),
        cmocka_unit_test(test_failed_growth_keeps_unit),
        cmocka_unit_test(test_grown_unit_node_stays_active),
        cmocka_unit_test(test_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

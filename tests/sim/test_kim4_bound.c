/* The kim-ch4 constrained bound (pl_kim4_min_nodes()): hand-counted node
 * minima where the constraints, not the cores, set the count, agreement
 * with brute force on random small sets, and, on
 * generated scenarios of every reading, a bound no replayed algorithm's
 * active nodes go below in any interval. */
#include <math.h>
#include <stdlib.h>
#include "../common/testutil.h"
#include <placement/kim_sim.h>
#include <placement/constraint_online.h>
#include "internal/constraints_impl.h"

/* Per-class sizes of the running units (run[u] != 0) of a resolved set. */
static int32_t min_nodes(pl_constraints *c, const pl_cnodes *nodes, const int *run)
{
    assert_pl_ok(pl_constraints_resolve(c, nodes));
    double cores[8] = {0}, mem[8] = {0};
    int32_t members[8] = {0}, got = -1;
    for (int32_t u = 0; u < c->units; u++)
        if (run[u]) {
            int32_t k = c->class_of[u];
            cores[k] += c->cores[u];
            mem[k] += c->mem_gb[u];
            members[k]++;
        }
    assert_pl_ok(pl_kim4_min_nodes(c, nodes, cores, mem, members, &got));
    return got;
}

/* Nodes of the given cores (64 GB) and attributes. */
static pl_cnodes *make_nodes(int32_t n, const double *cores, const char *const *attrs)
{
    pl_cnodes *nodes = NULL;
    assert_pl_ok(pl_cnodes_create(&nodes));
    for (int32_t i = 0; i < n; i++)
        assert_pl_ok(pl_cnodes_add(nodes, NULL, cores[i], 64, attrs[i], NULL));
    return nodes;
}

/* Units of the given cores and memory, no constraint yet. */
static pl_constraints *make_units(int32_t n, const double *cores, double mem)
{
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(n, &c));
    for (int32_t u = 0; u < n; u++)
        assert_pl_ok(pl_constraints_set_demand(c, u, cores[u], mem));
    return c;
}

/* Three nodes of 4 cores, n0 and n2 with att1=1. Unit A = VMs 0 + 1 (1 core
 * each, Must together, att1=1), unit B = VM 2 (3 cores), unit C = VM 3
 * (2 cores, MustNot with A). 7 cores: 2 nodes by cores. B fits with neither
 * A (2 + 3 > 4) nor C (2 + 3 > 4), and A and C are kept apart: 3 nodes.
 * Without C running, A and B still cannot share: 2. */
static void test_anti_affinity_counts(void **s)
{
    (void)s;
    const double ncores[3] = {4, 4, 4}, demand[4] = {1, 1, 3, 2};
    const char *const attrs[3] = {"att1=1", "att1=0", "att1=1"};
    pl_cnodes *nodes = make_nodes(3, ncores, attrs);
    pl_constraints *c = make_units(4, demand, 3);
    assert_pl_ok(pl_constraints_colocate(c, 0, 1));
    assert_pl_ok(pl_constraints_node_must(c, 0, "att1", "1"));
    assert_pl_ok(pl_constraints_node_must(c, 1, "att1", "1"));
    assert_pl_ok(pl_constraints_separate(c, 3, 0));
    const int all[4] = {1, 1, 1, 1}, no_c[4] = {1, 1, 1, 0}, none[4] = {0};
    assert_int_equal(min_nodes(c, nodes, all), 3);
    assert_int_equal(min_nodes(c, nodes, no_c), 2);
    assert_int_equal(min_nodes(c, nodes, none), 0);
    pl_constraints_free(c);
    /* the same units without the anti-affinity: A and C share a node, B another */
    c = make_units(4, demand, 3);
    assert_pl_ok(pl_constraints_colocate(c, 0, 1));
    assert_int_equal(min_nodes(c, nodes, all), 2);
    pl_constraints_free(c);
    pl_cnodes_free(nodes);
}

/* n0: 4 cores, att1=1; n1: 8 cores, att1=0. A (3 cores) and B (2) fit on
 * n1 alone; with A confined to att1=1 it takes n0, where B does not fit
 * (3 + 2 > 4): 2. Memory counts as well: 3 + 3 units of 40 GB on one
 * 64 GB node do not fit. */
static void test_filter_and_memory_count(void **s)
{
    (void)s;
    const double ncores[2] = {4, 8}, demand[2] = {3, 2}, one[2] = {1, 1};
    const char *const attrs[2] = {"att1=1", "att1=0"};
    pl_cnodes *nodes = make_nodes(2, ncores, attrs);
    pl_constraints *c = make_units(2, demand, 3);
    const int both[2] = {1, 1};
    assert_int_equal(min_nodes(c, nodes, both), 1);
    assert_pl_ok(pl_constraints_node_must(c, 0, "att1", "1"));
    assert_int_equal(min_nodes(c, nodes, both), 2);
    pl_constraints_free(c);
    c = make_units(2, one, 40);
    assert_int_equal(min_nodes(c, nodes, both), 2);
    /* errors: unresolved set, NULL */
    int32_t got = 0, members[2] = {1, 1};
    double sz[2] = {1, 1};
    pl_constraints_invalidate(c);
    assert_pl_status(pl_kim4_min_nodes(c, nodes, sz, sz, members, &got), PL_EINVAL);
    assert_pl_status(pl_kim4_min_nodes(NULL, nodes, sz, sz, members, &got), PL_EINVAL);
    pl_constraints_free(c);
    pl_cnodes_free(nodes);
}

/* Brute force: every assignment of the units to the nodes (4^6), the fewest
 * nodes used by one that keeps colocated units together, separated ones
 * apart, filters and cores; -1 when none does. */
static int32_t brute_min(const pl_constraints *c, const pl_cnodes *nodes)
{
    int32_t best = -1, at[6];
    for (int32_t code = 0; code < 4096; code++) {
        double used[4] = {0};
        int ok = 1;
        for (int32_t u = 0, x = code; u < 6; u++, x /= 4) {
            at[u] = x % 4;
            used[at[u]] += c->cores[u];
            ok &= c->allowed[(size_t)c->class_of[u] * 4 + (size_t)at[u]] != 0;
        }
        for (int64_t i = 0; i < c->ncoloc; i++)
            ok &= at[c->coloc[i].a] == at[c->coloc[i].b];
        for (int64_t i = 0; i < c->nsep; i++)
            ok &= at[c->sep[i].a] != at[c->sep[i].b];
        int32_t n = 0;
        for (int32_t k = 0; k < 4; k++) {
            ok &= used[k] <= nodes->v[k].cores + 1e-9;
            n += used[k] > 0;
        }
        if (ok && (best < 0 || n < best))
            best = n;
    }
    return best;
}

/* Random small sets: the search agrees with brute force. */
static void test_matches_brute_force(void **s)
{
    (void)s;
    uint64_t rng = 12345;
    const char *const attrs[4] = {"att1=1", "att1=0", "att1=1", "att1=0"};
    int compared = 0;
    for (int trial = 0; trial < 300; trial++) {
        double ncores[4], demand[6];
        for (int k = 0; k < 4; k++)
            ncores[k] = 3 + (double)(pl_rng_u64(&rng) % 4);
        for (int u = 0; u < 6; u++)
            demand[u] = 1 + (double)(pl_rng_u64(&rng) % 3);
        pl_cnodes *nodes = make_nodes(4, ncores, attrs);
        pl_constraints *c = make_units(6, demand, 3);
        for (int u = 0; u < 6; u++) {
            uint64_t r = pl_rng_u64(&rng);
            if (r % 4 == 0)
                assert_pl_ok(pl_constraints_node_must(c, u, "att1", r & 8 ? "1" : "0"));
            if (u > 0 && r / 4 % 5 == 0)
                assert_pl_ok(pl_constraints_colocate(c, u - 1, u));
            else if (u > 0 && r / 4 % 5 < 3)
                assert_pl_ok(pl_constraints_separate(c, (int32_t)(r / 32 % (uint64_t)u), u));
        }
        if (pl_constraints_resolve(c, nodes) == PL_OK) {
            double cores[7] = {0}, mem[7] = {0};
            int32_t members[7] = {0}, got = -1, want = brute_min(c, nodes);
            for (int32_t u = 0; u < 6; u++) {
                cores[c->class_of[u]] += c->cores[u];
                mem[c->class_of[u]] += c->mem_gb[u];
                members[c->class_of[u]]++;
            }
            pl_status st = pl_kim4_min_nodes(c, nodes, cores, mem, members, &got);
            assert_int_equal(st, want < 0 ? PL_EINFEASIBLE : PL_OK);
            if (want >= 0)
                assert_int_equal(got, want);
            compared++;
        }
        pl_constraints_free(c);
        pl_cnodes_free(nodes);
    }
    assert_true(compared > 150);
}

/* The observer sees every interval: its active nodes integrate to the replay's. */
typedef struct obs {
    double active, t_first, t_last;
} obs;

static pl_status observe(void *ctx, double t0, double t1, const double *cores, const double *mem,
                         const int32_t *members, int32_t active)
{
    (void)cores;
    (void)mem;
    (void)members;
    obs *o = ctx;
    if (o->t_last >= 0 && fabs(t0 - o->t_last) > 1e-12)
        return PL_EINVAL; /* a gap between intervals */
    if (o->t_first < 0)
        o->t_first = t0;
    o->t_last = t1;
    o->active += active * (t1 - t0);
    return PL_OK;
}

static void test_observer_covers_replay(void **s)
{
    (void)s;
    const double ncores[2] = {2, 2}, demand[3] = {1, 1, 1};
    const char *const attrs[2] = {"", ""};
    pl_cnodes *nodes = make_nodes(2, ncores, attrs);
    pl_constraints *c = make_units(3, demand, 3);
    assert_pl_ok(pl_constraints_separate(c, 0, 1));
    const pl_conline_vm vms[3] = {{0, 50, 0}, {10, 30, 0}, {40, 25, 0}};
    pl_conline_result r;
    obs o = {0, -1, -1};
    assert_pl_ok(pl_constraint_place_online_observed(c, nodes, NULL, vms, 0, 40, observe, &o, &r));
    assert_true(o.t_first == 0 && fabs(o.t_last - r.end) < 1e-12);
    assert_true(fabs(o.active - r.active * r.end) < 1e-9);
    pl_constraints_free(c);
    pl_cnodes_free(nodes);
}

/* Generated cluster scenarios, every reading: each algorithm's replay is
 * checked interval by interval against the bound of its own running VMs
 * (check_bound: PL_EVERIFY on a violation); the row sits between the
 * cores-only bound and activity-aware. */
static void test_bound_below_every_replay(void **s)
{
    (void)s;
    for (int32_t reading = 0; reading < 4; reading++) {
        pl_kim_opts o;
        pl_kim_opts_init(&o);
        o.runs = 12;
        o.reading = reading;
        o.check_bound = 1;
        pl_kim_row rows[PL_KIM_CH4_ROWS];
        int32_t n = 0;
        assert_pl_ok(pl_kim_ch4(&o, rows, PL_KIM_CH4_ROWS, &n));
        assert_true(rows[7].value >= rows[6].value - 1e-12);
        assert_true(rows[7].value <= rows[2].value && rows[7].extra <= rows[2].value);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_anti_affinity_counts),
        cmocka_unit_test(test_filter_and_memory_count),
        cmocka_unit_test(test_matches_brute_force),
        cmocka_unit_test(test_observer_covers_replay),
        cmocka_unit_test(test_bound_below_every_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

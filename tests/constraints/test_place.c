/* The ch. 4 algorithms: hand-made cases (first fit, worst fit,
 * rearrangement, spot migration) and a property test over random clusters
 * and jobs checked by an independent checker written here. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "testutil.h"
#include <placement/constraint_sets.h>

static pl_constraint_place_opts alg(const char *name)
{
    pl_constraint_place_opts o;
    pl_constraint_place_opts_init(&o);
    o.algorithm = name;
    return o;
}

static pl_cnodes *uniform(int32_t count, double cores, const char *const *attrs)
{
    pl_cnodes *n = NULL;
    assert_pl_ok(pl_cnodes_create(&n));
    for (int32_t i = 0; i < count; i++)
        assert_pl_ok(pl_cnodes_add(n, NULL, cores, 64, attrs ? attrs[i] : NULL, NULL));
    return n;
}

static void assert_assign(const int32_t *got, const int32_t *want, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("unit %d on node %d, want %d", i, got[i], want[i]);
}

/* Three 2-core units on three 4-core nodes: first fit packs 0,0,1 (2 active
 * nodes); worst fit spreads 0,1,2 (sigma 0). With units 0 and 1 separated,
 * first fit gives 0,1,0. */
static void test_first_and_worst_fit(void **state)
{
    (void)state;
    pl_cnodes *n = uniform(3, 4, NULL);
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(3, &c));
    for (int32_t u = 0; u < 3; u++)
        assert_pl_ok(pl_constraints_set_demand(c, u, 2, 1));
    int32_t a[3], unplaced = -1, active;
    double sigma;
    pl_constraint_place_opts e = alg("constraint-energy"), b = alg("constraint-balance");
    assert_pl_ok(pl_constraint_place(c, n, &e, a, &unplaced));
    const int32_t we[] = { 0, 0, 1 }, wb[] = { 0, 1, 2 }, ws[] = { 0, 1, 0 };
    assert_assign(a, we, 3);
    assert_int_equal(unplaced, 0);
    assert_pl_ok(pl_constraints_metrics(c, n, a, &active, NULL));
    assert_int_equal(active, 2);
    assert_pl_ok(pl_constraint_place(c, n, &b, a, &unplaced));
    assert_assign(a, wb, 3);
    assert_pl_ok(pl_constraints_metrics(c, n, a, NULL, &sigma));
    assert_true(sigma < 1e-12);
    assert_pl_ok(pl_constraints_separate(c, 0, 1));
    assert_pl_ok(pl_constraint_place(c, n, &e, a, NULL));
    assert_assign(a, ws, 3);
    pl_constraint_place_opts bad = alg("constraint-fastest");
    assert_pl_status(pl_constraint_place(c, n, &bad, a, NULL), PL_ENOTFOUND);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* Rearrangement (sequence of length 2): unit 0 (2 cores, free) lands on
 * node 0; unit 1 (3 cores) must be in zone a = node 0, which has 2 cores
 * left. Moving unit 0 to node 1 makes room: 1, 0. Without rearrangement
 * unit 1 fails. Same for anti-affinity: unit 2 (zone a) must not share
 * with unit 0, which is moved away. */
static void test_rearrangement(void **state)
{
    (void)state;
    const char *const zones[] = { "zone=a", "zone=b" };
    pl_cnodes *n = uniform(2, 4, zones);
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(2, &c));
    assert_pl_ok(pl_constraints_set_demand(c, 0, 2, 1));
    assert_pl_ok(pl_constraints_set_demand(c, 1, 3, 1));
    assert_pl_ok(pl_constraints_node_must(c, 1, "zone", "a"));
    int32_t a[3], unplaced;
    const int32_t want[] = { 1, 0 };
    for (int k = 0; k < 2; k++) {
        pl_constraint_place_opts o = alg(k ? "constraint-balance" : "constraint-energy");
        o.spot_migration = 0;
        assert_pl_ok(pl_constraint_place(c, n, &o, a, &unplaced));
        /* balance's worst fit also starts unit 0 on node 0 (tie: lowest index) */
        assert_assign(a, want, 2);
        assert_int_equal(unplaced, 0);
        o.rearrange = 0;
        assert_pl_ok(pl_constraint_place(c, n, &o, a, &unplaced));
        assert_int_equal(unplaced, 1);
        assert_int_equal(a[0], 0);
        assert_int_equal(a[1], -1);
    }
    pl_constraints_free(c);

    assert_pl_ok(pl_constraints_create(2, &c));
    assert_pl_ok(pl_constraints_set_demand(c, 0, 1, 1));
    assert_pl_ok(pl_constraints_set_demand(c, 1, 1, 1));
    assert_pl_ok(pl_constraints_node_must(c, 1, "zone", "a"));
    assert_pl_ok(pl_constraints_separate(c, 0, 1));
    pl_constraint_place_opts o = alg("constraint-energy");
    assert_pl_ok(pl_constraint_place(c, n, &o, a, &unplaced));
    assert_assign(a, want, 2);
    assert_pl_ok(pl_constraints_check(c, n, a));
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* Spot migration: unit 0 (1 core) -> node 0 (0.1), unit 1 (4) -> node 1
 * (0.4), unit 2 (5, zone a) -> node 0 (0.6): sigma 0.1. Moving unit 0 to
 * node 1 gives 0.5 / 0.5, sigma 0: a gain of 0.1 > 0.01, so it moves. A
 * threshold of 0.2 keeps it. */
static void test_spot_migration(void **state)
{
    (void)state;
    const char *const zones[] = { "zone=a", "zone=b" };
    pl_cnodes *n = uniform(2, 10, zones);
    pl_constraints *c = NULL;
    assert_pl_ok(pl_constraints_create(3, &c));
    assert_pl_ok(pl_constraints_set_demand(c, 0, 1, 1));
    assert_pl_ok(pl_constraints_set_demand(c, 1, 4, 1));
    assert_pl_ok(pl_constraints_set_demand(c, 2, 5, 1));
    assert_pl_ok(pl_constraints_node_must(c, 2, "zone", "a"));
    pl_constraint_place_opts o = alg("constraint-balance");
    int32_t a[3];
    double sigma;
    assert_pl_ok(pl_constraint_place(c, n, &o, a, NULL));
    const int32_t moved[] = { 1, 1, 0 }, kept[] = { 0, 1, 0 };
    assert_assign(a, moved, 3);
    assert_pl_ok(pl_constraints_metrics(c, n, a, NULL, &sigma));
    assert_true(sigma < 1e-12);
    o.spot_threshold = 0.2;
    assert_pl_ok(pl_constraint_place(c, n, &o, a, NULL));
    assert_assign(a, kept, 3);
    assert_pl_ok(pl_constraints_metrics(c, n, a, NULL, &sigma));
    assert_true(fabs(sigma - 0.1) < 1e-12);
    pl_constraints_free(c);
    pl_cnodes_free(n);
}

/* ---- property test ---------------------------------------------------------------- */

#define MAXU 48
#define MAXN 16

typedef struct job {
    int32_t units, nodes;
    double cores[MAXU], ncores[MAXN];
    int32_t att[MAXN][3];
    int32_t nf, fu[MAXU], fatt[MAXU], fval[MAXU], fneg[MAXU];
    int32_t nco, co[MAXU][2];
    int32_t nsep, sep[4 * MAXU][2];
} job;

/* Independent of the library: filters, pairs and core capacities. */
static const char *violation(const job *j, const int32_t *a)
{
    static char buf[128];
    double used[MAXN] = { 0 };
    for (int32_t q = 0; q < j->nf; q++) {
        int32_t u = j->fu[q];
        if (a[u] < 0)
            continue;
        int eq = j->att[a[u]][j->fatt[q]] == j->fval[q];
        if (eq == j->fneg[q]) {
            snprintf(buf, sizeof buf, "filter %d of unit %d", q, u);
            return buf;
        }
    }
    for (int32_t q = 0; q < j->nco; q++)
        if (a[j->co[q][0]] >= 0 && a[j->co[q][1]] >= 0 && a[j->co[q][0]] != a[j->co[q][1]])
            return "affinity";
    for (int32_t q = 0; q < j->nsep; q++)
        if (a[j->sep[q][0]] >= 0 && a[j->sep[q][0]] == a[j->sep[q][1]])
            return "anti-affinity";
    for (int32_t u = 0; u < j->units; u++)
        if (a[u] >= 0)
            used[a[u]] += j->cores[u];
    for (int32_t n = 0; n < j->nodes; n++)
        if (used[n] > j->ncores[n] + 1e-9)
            return "capacity";
    return NULL;
}

static void random_job(pl_test_rng *r, job *j)
{
    memset(j, 0, sizeof *j);
    j->nodes = (int32_t)pl_test_range(r, 2, MAXN);
    j->units = (int32_t)pl_test_range(r, 1, MAXU);
    static const double sizes[] = { 4, 8, 16 };
    for (int32_t n = 0; n < j->nodes; n++) {
        j->ncores[n] = sizes[pl_test_range(r, 0, 2)];
        j->att[n][0] = (int32_t)pl_test_range(r, 1, 2); /* every node has att0 (thesis: 1 or 2) */
        j->att[n][1] = (int32_t)pl_test_range(r, 0, 1);
        j->att[n][2] = (int32_t)pl_test_range(r, 0, 1);
    }
    for (int32_t u = 0; u < j->units; u++)
        j->cores[u] = 0.5 * (double)pl_test_range(r, 1, 8);
    /* groups of consecutive units: affinity chains inside a group now and
     * then, anti-affinity between a group's members, a shared filter */
    for (int32_t u = 0; u < j->units;) {
        int32_t len = (int32_t)pl_test_range(r, 1, 6);
        if (u + len > j->units)
            len = j->units - u;
        int anti = pl_test_range(r, 0, 99) < 40, filt = pl_test_range(r, 0, 99) < 50;
        int32_t fatt = (int32_t)pl_test_range(r, 0, 2), fval = fatt == 0 ? (int32_t)pl_test_range(r, 1, 2) : 1;
        int fneg = pl_test_range(r, 0, 99) < 25;
        for (int32_t q = u; q < u + len; q++) {
            if (q > u && pl_test_range(r, 0, 99) < (anti ? 3 : 30)) {
                j->co[j->nco][0] = q - 1;
                j->co[j->nco++][1] = q;
            }
            if (anti)
                for (int32_t p = u; p < q && j->nsep < 4 * MAXU; p++)
                    if (pl_test_range(r, 0, 1)) {
                        j->sep[j->nsep][0] = p;
                        j->sep[j->nsep++][1] = q;
                    }
            if (filt) {
                j->fu[j->nf] = q;
                j->fatt[j->nf] = fatt;
                j->fval[j->nf] = fval;
                j->fneg[j->nf++] = fneg;
            }
        }
        u += len;
    }
}

static void build(const job *j, pl_cnodes **np, pl_constraints **cp)
{
    assert_pl_ok(pl_cnodes_create(np));
    for (int32_t n = 0; n < j->nodes; n++) {
        char attrs[64];
        snprintf(attrs, sizeof attrs, "att0=%d,att1=%d,att2=%d", j->att[n][0], j->att[n][1], j->att[n][2]);
        assert_pl_ok(pl_cnodes_add(*np, NULL, j->ncores[n], 1000, attrs, NULL));
    }
    assert_pl_ok(pl_constraints_create(j->units, cp));
    for (int32_t u = 0; u < j->units; u++)
        assert_pl_ok(pl_constraints_set_demand(*cp, u, j->cores[u], 1));
    for (int32_t q = 0; q < j->nf; q++) {
        char key[8], val[8];
        snprintf(key, sizeof key, "att%d", j->fatt[q]);
        snprintf(val, sizeof val, "%d", j->fval[q]);
        if (j->fneg[q])
            assert_pl_ok(pl_constraints_node_must_not(*cp, j->fu[q], key, val));
        else
            assert_pl_ok(pl_constraints_node_must(*cp, j->fu[q], key, val));
    }
    for (int32_t q = 0; q < j->nco; q++)
        assert_pl_ok(pl_constraints_colocate(*cp, j->co[q][0], j->co[q][1]));
    for (int32_t q = 0; q < j->nsep; q++)
        assert_pl_ok(pl_constraints_separate(*cp, j->sep[q][0], j->sep[q][1]));
}

static void test_property_random(void **state)
{
    (void)state;
    pl_test_rng rng = { 7004 };
    static const char *const algs[] = { "constraint-energy", "constraint-balance" };
    int runs = 1500, conflicts = 0;
    int64_t placed = 0, failed = 0, active_sum[2] = { 0, 0 };
    double sigma_sum[2] = { 0, 0 };
    for (int run = 0; run < runs; run++) {
        job j;
        random_job(&rng, &j);
        pl_cnodes *n;
        pl_constraints *c;
        build(&j, &n, &c);
        pl_status rs = pl_constraints_resolve(c, n);
        if (rs == PL_EINFEASIBLE) {
            conflicts++;
            assert_true(pl_constraints_conflict_count(c) > 0);
        } else {
            assert_pl_ok(rs);
        }
        for (int k = 0; k < 2; k++) {
            pl_constraint_place_opts o = alg(algs[k]);
            o.rearrange = run % 3 != 0;
            int32_t a[MAXU], unplaced = -1;
            pl_status st = pl_constraint_place(c, n, &o, a, &unplaced);
            if (rs == PL_EINFEASIBLE) {
                assert_pl_status(st, PL_EINFEASIBLE);
                for (int32_t u = 0; u < j.units; u++)
                    assert_int_equal(a[u], -1);
                continue;
            }
            assert_pl_ok(st);
            const char *v = violation(&j, a);
            if (v)
                fail_msg("run %d %s: %s violated", run, algs[k], v);
            assert_pl_ok(pl_constraints_check(c, n, a));
            int32_t nplaced = 0, active;
            double sigma;
            for (int32_t u = 0; u < j.units; u++)
                nplaced += a[u] >= 0;
            placed += nplaced;
            failed += unplaced;
            /* a class is placed whole or not at all */
            for (int32_t q = 0; q < j.nco; q++)
                assert_true((a[j.co[q][0]] < 0) == (a[j.co[q][1]] < 0));
            assert_pl_ok(pl_constraints_metrics(c, n, a, &active, &sigma));
            active_sum[k] += active;
            sigma_sum[k] += sigma;
        }
        pl_constraints_free(c);
        pl_cnodes_free(n);
    }
    print_message("random %d: %d with conflicts; %lld units placed, %lld classes failed; "
                  "active nodes energy %lld vs balance %lld; sigma %.3f vs %.3f\n", runs,
                  conflicts, (long long)placed, (long long)failed, (long long)active_sum[0],
                  (long long)active_sum[1], sigma_sum[0], sigma_sum[1]);
    /* the instances exercise both outcomes and both goals */
    assert_true(conflicts > 0 && conflicts < runs / 2);
    assert_true(placed > 1000 && failed > 0);
    assert_true(active_sum[0] < active_sum[1]);
    assert_true(sigma_sum[1] < sigma_sum[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_and_worst_fit),
        cmocka_unit_test(test_rearrangement),
        cmocka_unit_test(test_spot_migration),
        cmocka_unit_test(test_property_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

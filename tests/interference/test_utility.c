/* The cost model of seed 002: Eq. 3-5, the artifact's U_job and U_sys with
 * the worked values of doc/interference.md (hand-computed), and the paper
 * form's Eq. 1 / U = 1 - Eq. 1, plus option and term checks. */
#include <math.h>
#include <string.h>
#include "testutil.h"

#define TOL 1e-4

static pl_utility_opts opts_form(pl_utility_form form)
{
    pl_utility_opts o;
    pl_utility_opts_init(&o);
    o.form = form;
    return o;
}

static void assert_einval_naming(pl_status st, const char *field)
{
    if (st != PL_EINVAL)
        fail_msg("got %s, want PL_EINVAL", pl_status_name(st));
    if (!strstr(pl_last_error(), field))
        fail_msg("message \"%s\" does not name %s", pl_last_error(), field);
}

/* ---- options ----------------------------------------------------------------------------- */

static void test_opts_defaults(void **state)
{
    (void)state;
    pl_utility_opts o;
    memset(&o, 0xff, sizeof o);
    pl_utility_opts_init(&o);
    assert_float_equal(o.alpha_cc, 1.0 / 3, 1e-15);
    assert_float_equal(o.alpha_b, 1.0 / 3, 1e-15);
    assert_float_equal(o.alpha_d, 1.0 / 3, 1e-15);
    assert_int_equal(o.form, PL_UTILITY_PAPER);
    assert_float_equal(o.min_cost, 0.01, 1e-15);
    assert_pl_ok(pl_utility_opts_check(&o));
    pl_utility_opts_init(NULL);
}

static void test_opts_check(void **state)
{
    (void)state;
    pl_utility_opts o = opts_form(PL_UTILITY_ARTIFACT);
    /* The artifact's locality preset. */
    o.alpha_cc = 0.8, o.alpha_b = 0.1, o.alpha_d = 0.1;
    assert_pl_ok(pl_utility_opts_check(&o));
    o.alpha_cc = 1, o.alpha_b = 0, o.alpha_d = 0;
    assert_pl_ok(pl_utility_opts_check(&o));
    o.alpha_cc = 0.9, o.alpha_b = 0.2, o.alpha_d = -0.1;
    assert_einval_naming(pl_utility_opts_check(&o), "alpha_d");
    o.alpha_cc = -0.5, o.alpha_b = 1, o.alpha_d = 0.5;
    assert_einval_naming(pl_utility_opts_check(&o), "alpha_cc");
    o.alpha_cc = 0.5, o.alpha_b = NAN, o.alpha_d = 0.5;
    assert_einval_naming(pl_utility_opts_check(&o), "alpha_b");
    o.alpha_cc = 0.5, o.alpha_b = INFINITY, o.alpha_d = 0;
    assert_einval_naming(pl_utility_opts_check(&o), "alpha_b");
    o.alpha_cc = 0.3, o.alpha_b = 0.3, o.alpha_d = 0.3;
    assert_einval_naming(pl_utility_opts_check(&o), "alpha_cc + alpha_b + alpha_d");
    /* The thesis' 0.33 each sums to 0.99: not 1. */
    o.alpha_cc = 0.33, o.alpha_b = 0.33, o.alpha_d = 0.33;
    assert_einval_naming(pl_utility_opts_check(&o), "alpha_cc + alpha_b + alpha_d");
    o.alpha_d = 0.34 + 5e-7;
    assert_pl_ok(pl_utility_opts_check(&o));
    o = opts_form((pl_utility_form)2);
    assert_einval_naming(pl_utility_opts_check(&o), "form");
    o = opts_form(PL_UTILITY_PAPER);
    o.min_cost = 0;
    assert_einval_naming(pl_utility_opts_check(&o), "min_cost");
    o.min_cost = 1.5;
    assert_einval_naming(pl_utility_opts_check(&o), "min_cost");
    o.min_cost = NAN;
    assert_einval_naming(pl_utility_opts_check(&o), "min_cost");
    o.min_cost = 1;
    assert_pl_ok(pl_utility_opts_check(&o));
    assert_pl_status(pl_utility_opts_check(NULL), PL_EINVAL);
}

/* ---- Eq. 3-5 ------------------------------------------------------------------------------- */

/* The artifact's 2x2-GPU machine: GPUs 0, 1 on socket 0 and 2, 3 on socket 1,
 * distance 1 on a socket and 20 across. */
static const int64_t minsky[4][4] = {{0, 1, 20, 20}, {1, 0, 20, 20}, {20, 20, 0, 1}, {20, 20, 1, 0}};

static int64_t comm_of(const int *gpus, int32_t k)
{
    int64_t sub[16], t = -1;
    for (int32_t i = 0; i < k; i++)
        for (int32_t j = 0; j < k; j++)
            sub[i * k + j] = minsky[gpus[i]][gpus[j]];
    assert_pl_ok(pl_comm_cost(sub, k, &t));
    return t;
}

static void test_comm_cost(void **state)
{
    (void)state;
    assert_int_equal(comm_of((const int[]){0, 1}, 2), 1);
    assert_int_equal(comm_of((const int[]){2, 3}, 2), 1);
    assert_int_equal(comm_of((const int[]){0, 2}, 2), 20);
    assert_int_equal(comm_of((const int[]){1, 3}, 2), 20);
    assert_int_equal(comm_of((const int[]){0, 1, 2}, 3), 41);
    assert_int_equal(comm_of((const int[]){1, 2, 3}, 3), 41);
    assert_int_equal(comm_of((const int[]){0, 1, 2, 3}, 4), 82);
    assert_int_equal(comm_of((const int[]){3}, 1), 0);
    int64_t t = -1;
    assert_pl_ok(pl_comm_cost(NULL, 0, &t));
    assert_int_equal(t, 0);
    /* Only pairs i < j count: the lower triangle is not read. */
    const int64_t upper[9] = {0, 2, 3, -7, 0, 5, -7, -7, 0};
    assert_pl_ok(pl_comm_cost(upper, 3, &t));
    assert_int_equal(t, 10);
    const int64_t neg[4] = {0, -1, -1, 0};
    assert_pl_status(pl_comm_cost(neg, 2, &t), PL_EINVAL);
    const int64_t big[9] = {0, INT64_MAX / 2, INT64_MAX / 2, 0, 0, 2, 0, 0, 0};
    assert_pl_status(pl_comm_cost(big, 3, &t), PL_EOVERFLOW);
    assert_pl_status(pl_comm_cost(NULL, 2, &t), PL_EINVAL);
    assert_pl_status(pl_comm_cost(upper, -1, &t), PL_EINVAL);
    assert_pl_status(pl_comm_cost(upper, 3, NULL), PL_EINVAL);
}

static void test_interference_mean(void **state)
{
    (void)state;
    double out = -1;
    const double s1[] = {69.165}, c1[] = {75.03};
    assert_pl_ok(pl_interference_mean(s1, c1, 1, PL_UTILITY_ARTIFACT, &out));
    assert_float_equal(out, 0.921831, 1e-6);
    assert_pl_ok(pl_interference_mean(s1, c1, 1, PL_UTILITY_PAPER, &out));
    assert_float_equal(out, 75.03 / 69.165, 1e-12);
    /* One neighbour slows the job (100 -> 125), one speeds it up (100 -> 80). */
    const double s2[] = {100, 100}, c2[] = {125, 80};
    assert_pl_ok(pl_interference_mean(s2, c2, 2, PL_UTILITY_PAPER, &out));
    assert_float_equal(out, (1.25 + 0.8) / 2, 1e-12);
    /* The artifact adds only ratios < 1 and divides by all neighbours. */
    assert_pl_ok(pl_interference_mean(s2, c2, 2, PL_UTILITY_ARTIFACT, &out));
    assert_float_equal(out, 0.8 / 2, 1e-12);
    /* No neighbour slows the job: no interference (1) in both forms. */
    const double c3[] = {80, 100};
    assert_pl_ok(pl_interference_mean(s2, c3, 2, PL_UTILITY_ARTIFACT, &out));
    assert_true(out == 1.0);
    assert_pl_ok(pl_interference_mean(NULL, NULL, 0, PL_UTILITY_ARTIFACT, &out));
    assert_true(out == 1.0);
    out = -1;
    assert_pl_ok(pl_interference_mean(NULL, NULL, 0, PL_UTILITY_PAPER, &out));
    assert_true(out == 1.0);
    const double bad[] = {100, 0};
    assert_pl_status(pl_interference_mean(s2, bad, 2, PL_UTILITY_PAPER, &out), PL_EINVAL);
    const double nan[] = {NAN, 1};
    assert_pl_status(pl_interference_mean(nan, c2, 2, PL_UTILITY_ARTIFACT, &out), PL_EINVAL);
    assert_pl_status(pl_interference_mean(NULL, c2, 2, PL_UTILITY_ARTIFACT, &out), PL_EINVAL);
    assert_pl_status(pl_interference_mean(s2, c2, -1, PL_UTILITY_ARTIFACT, &out), PL_EINVAL);
    assert_pl_status(pl_interference_mean(s2, c2, 2, (pl_utility_form)9, &out), PL_EINVAL);
    assert_pl_status(pl_interference_mean(s2, c2, 2, PL_UTILITY_PAPER, NULL), PL_EINVAL);
}

static void test_fragmentation(void **state)
{
    (void)state;
    double w = -1;
    /* Minsky after a 2-GPU job on socket 0 and a 1-GPU job on socket 1. */
    const int64_t fr[] = {0, 1}, tot[] = {2, 2};
    assert_pl_ok(pl_fragmentation(fr, tot, 2, &w));
    assert_float_equal(w, 0.25, 1e-15);
    /* A socket without GPUs does not count. */
    const int64_t fr3[] = {0, 1, 0}, tot3[] = {2, 2, 0};
    assert_pl_ok(pl_fragmentation(fr3, tot3, 3, &w));
    assert_float_equal(w, 0.25, 1e-15);
    const int64_t fr4[] = {3, 1, 4, 0}, tot4[] = {4, 4, 4, 4};
    assert_pl_ok(pl_fragmentation(fr4, tot4, 4, &w));
    assert_float_equal(w, 0.5, 1e-15);
    assert_pl_ok(pl_fragmentation(tot3 + 2, tot3 + 2, 1, &w));
    assert_true(w == 0.0);
    assert_pl_ok(pl_fragmentation(NULL, NULL, 0, &w));
    assert_true(w == 0.0);
    const int64_t over[] = {3, 1};
    assert_pl_status(pl_fragmentation(over, tot, 2, &w), PL_EINVAL);
    const int64_t negf[] = {-1, 1};
    assert_pl_status(pl_fragmentation(negf, tot, 2, &w), PL_EINVAL);
    assert_pl_status(pl_fragmentation(fr, NULL, 2, &w), PL_EINVAL);
    assert_pl_status(pl_fragmentation(fr, tot, 2, NULL), PL_EINVAL);
}

/* ---- the artifact form --------------------------------------------------------------------- */

static double job_u(const pl_utility_opts *o, pl_utility_terms t)
{
    double u = -1;
    assert_pl_ok(pl_utility(o, &t, &u));
    return u;
}

static double sys_u(const pl_utility_opts *o, pl_utility_terms t)
{
    double u = -1;
    assert_pl_ok(pl_system_utility(o, &t, &u));
    return u;
}

static void test_artifact_worked_values(void **state)
{
    (void)state;
    pl_utility_opts o = opts_form(PL_UTILITY_ARTIFACT);
    /* 2-GPU job across sockets, no neighbours: c_comm = (20 - 1) / 40 = 0.475,
     * U = [1 / (0.475^0.5 + 0.01^0.5)] / 5 = 0.2534 (< 0.5: postponed). */
    pl_utility_terms across = {.gpus = 2, .comm = 20, .comm_min = 1, .comm_norm = 40,
                               .interference = 1, .fragmentation = 0.5};
    assert_float_equal(job_u(&o, across), 0.2534, TOL);
    assert_float_equal(job_u(&o, across), 0.2534204, 1e-6);
    /* Same socket: both costs at the floor, U = 1. */
    pl_utility_terms same = across;
    same.comm = 1;
    assert_float_equal(job_u(&o, same), 1.0, 1e-12);
    /* 3 GPUs always cost t = 41 on this machine: the minimum (artifact defect 5). */
    pl_utility_terms three = {.gpus = 3, .comm = 41, .comm_min = 41, .comm_norm = 60, .interference = 1};
    assert_float_equal(job_u(&o, three), 1.0, 1e-12);
}

static void test_artifact_interference_from_builtin(void **state)
{
    (void)state;
    pl_profile_set *ps = NULL;
    double solo = 0, coloc = 0, mean = 0;
    assert_pl_ok(pl_profile_set_builtin(&ps));
    assert_pl_ok(pl_profile_set_solo(ps, "bvlc_alexnet", "1", 1, PL_SPREAD_INTRA_SOCKET, &solo));
    assert_pl_ok(pl_profile_set_colocated(ps, "bvlc_alexnet", "1", 1, "bvlc_alexnet", "4", 1, &coloc));
    pl_profile_set_free(ps);
    assert_pl_ok(pl_interference_mean(&solo, &coloc, 1, PL_UTILITY_ARTIFACT, &mean));
    assert_float_equal(mean, 0.922, 1e-3);
    pl_utility_opts o = opts_form(PL_UTILITY_ARTIFACT);
    /* 1-GPU AlexNet b1 next to AlexNet b4: the communication cost is the
     * floor whatever t says, U = [1 / (0.01^0.5 + 0.92183^0.5)] / 5 = 0.1887. */
    pl_utility_terms t = {.gpus = 1, .comm = 999, .comm_norm = 40, .interference = mean, .fragmentation = 0.75};
    assert_float_equal(job_u(&o, t), 0.1887, TOL);
    assert_float_equal(job_u(&o, t), 0.1886578, 1e-6);
}

static void test_artifact_system_utility(void **state)
{
    (void)state;
    pl_utility_opts o = opts_form(PL_UTILITY_ARTIFACT);
    /* All three costs at the floor: U_sys = 1 (normaliser 1 / (3 0.01^(1/3)) = 1.5472). */
    pl_utility_terms best = {.gpus = 2, .comm = 1, .comm_min = 1, .comm_norm = 40, .interference = 1,
                             .fragmentation = 1};
    assert_float_equal(sys_u(&o, best), 1.0, 1e-12);
    best.fragmentation = 0;
    assert_float_equal(sys_u(&o, best), 1.0, 1e-12);
    /* Fragmentation 0.5: [1 / (2 0.01^(1/3) + 0.5^(1/3))] / 1.5472 = 0.52779. */
    best.fragmentation = 0.5;
    assert_float_equal(sys_u(&o, best), 0.527794, 1e-6);
    /* c_comm 0.475, interference (suffered + caused) / 2 = 0.9, omega 0.25:
     * [1 / (0.475^(1/3) + 0.9^(1/3) + 0.25^(1/3))] / 1.5472 = 0.27206. */
    pl_utility_terms mid = {.gpus = 2, .comm = 20, .comm_min = 1, .comm_norm = 40, .interference = 0.9,
                            .fragmentation = 0.25};
    assert_float_equal(sys_u(&o, mid), 0.272059, 1e-6);
}

/* The normalisers depend on min_cost only (as in the artifact), so other
 * weights move the maximum: the locality preset tops out at 0.3959. */
static void test_artifact_other_weights(void **state)
{
    (void)state;
    pl_utility_opts o = opts_form(PL_UTILITY_ARTIFACT);
    o.alpha_cc = 0.8, o.alpha_b = 0.1, o.alpha_d = 0.1;
    pl_utility_terms same = {.gpus = 2, .comm = 1, .comm_min = 1, .comm_norm = 40, .interference = 1};
    /* [1 / (0.01^1.2 + 0.01^0.15)] / 5 */
    assert_float_equal(job_u(&o, same), 0.3959077, 1e-6);
    /* Every cost is floored at min_cost: a larger floor, same U for the best case. */
    o = opts_form(PL_UTILITY_ARTIFACT);
    o.min_cost = 0.04;
    assert_float_equal(job_u(&o, same), 1.0, 1e-12);
    /* c_comm = 19 / 40 = 0.475 stays; 0.04^0.5 = 0.2: [1 / (0.68920 + 0.2)] * 2 * 0.2 = 0.44983. */
    pl_utility_terms across = same;
    across.comm = 20;
    assert_float_equal(job_u(&o, across), 0.4 / (sqrt(0.475) + 0.2), 1e-12);
}

/* ---- the paper form ------------------------------------------------------------------------- */

/* Utility of the default form for a slowdown against a fixed worst case. */
static double u_at(const pl_utility_opts *o, double comm, double slow, double worst, double frag)
{
    pl_utility_terms t = {.gpus = 2, .comm = (int64_t)comm, .comm_norm = 22, .interference = slow,
                          .interference_worst = worst, .fragmentation = frag, .fragmentation_worst = 1};
    return job_u(o, t);
}

/* Issue 23: a worse neighbour never raises the utility. The example
 * (a neighbour causing slowdown 1.05 against one causing 1.50, a 1-GPU job
 * with no communication term, worst case 1.5): the default form gives
 * 1 - (0.05 / 0.5) / 3 = 0.9667 against 1 - 1 / 3 = 0.6667; the artifact's
 * form, kept by name, gives 0.186 against 0.218 (its inversion). */
static void test_worse_neighbour_never_raises_utility(void **state)
{
    (void)state;
    pl_utility_opts o;
    pl_utility_opts_init(&o);
    pl_utility_terms mild = {.gpus = 1, .interference = 1.05, .interference_worst = 1.5};
    pl_utility_terms bad = mild;
    bad.interference = 1.5;
    assert_float_equal(job_u(&o, mild), 1 - 0.1 / 3, 1e-12);
    assert_float_equal(job_u(&o, bad), 1 - 1.0 / 3, 1e-12);
    assert_true(job_u(&o, mild) > job_u(&o, bad));
    assert_true(sys_u(&o, mild) > sys_u(&o, bad));
    /* The artifact form sees solo / co-located: 1 / 1.05 and 1 / 1.5. */
    pl_utility_opts art = opts_form(PL_UTILITY_ARTIFACT);
    pl_utility_terms amild = {.gpus = 1, .interference = 1 / 1.05}, abad = {.gpus = 1, .interference = 1 / 1.5};
    assert_float_equal(job_u(&art, amild), 0.2 / (0.1 + sqrt(1 / 1.05)), 1e-12);
    assert_float_equal(job_u(&art, amild), 0.186, 1e-3);
    assert_float_equal(job_u(&art, abad), 0.218, 1e-3);
    /* The property over a grid, for three weight presets: for every
     * communication cost, fragmentation and worst case, utility does not
     * rise as the slowdown grows, and falls strictly when interference has
     * weight. */
    static const double presets[3][3] = {{1.0 / 3, 1.0 / 3, 1.0 / 3}, {0.8, 0.1, 0.1}, {0.1, 0.8, 0.1}};
    for (int p = 0; p < 3; p++) {
        o.alpha_cc = presets[p][0], o.alpha_b = presets[p][1], o.alpha_d = presets[p][2];
        for (int comm = 0; comm <= 22; comm += 11)
            for (double frag = 0; frag <= 1; frag += 0.25)
                for (double worst = 1.1; worst <= 3; worst += 0.3) {
                    double prev = u_at(&o, comm, 1.0, worst, frag);
                    for (double slow = 1.0 + worst / 50; slow <= worst; slow += worst / 50) {
                        double u = u_at(&o, comm, slow, worst, frag);
                        if (!(u < prev))
                            fail_msg("preset %d comm %d frag %g worst %g: U(%g) = %.9f >= U(previous) = %.9f",
                                     p, comm, frag, worst, slow, u, prev);
                        prev = u;
                    }
                }
    }
}

static void test_paper_form(void **state)
{
    (void)state;
    pl_utility_opts o = opts_form(PL_UTILITY_PAPER);
    double obj = -1, u = -1;
    /* t = t_w (term 1), slowdown 1.2 of worst 1.5 (0.2 / 0.5 = 0.4), omega 0.5
     * of 1 (0.5): objective (1 + 0.4 + 0.5) / 3 = 0.6333, U = 0.3667. */
    pl_utility_terms t = {.gpus = 2, .comm = 20, .comm_norm = 20, .interference = 1.2,
                          .interference_worst = 1.5, .fragmentation = 0.5, .fragmentation_worst = 1};
    assert_pl_ok(pl_objective(&o, &t, &obj));
    assert_float_equal(obj, 0.6333, TOL);
    assert_float_equal(obj, 1.9 / 3, 1e-12);
    assert_pl_ok(pl_utility(&o, &t, &u));
    assert_float_equal(u, 0.3667, TOL);
    assert_float_equal(sys_u(&o, t), 1.1 / 3, 1e-12);
    /* Locality preset: 0.8 * 1 + 0.1 * 0.4 + 0.1 * 0.5 = 0.89. */
    o.alpha_cc = 0.8, o.alpha_b = 0.1, o.alpha_d = 0.1;
    assert_pl_ok(pl_objective(&o, &t, &obj));
    assert_float_equal(obj, 0.89, 1e-12);
    assert_float_equal(job_u(&o, t), 0.11, 1e-12);
    /* Half the distance, no slowdown, omega 0.25 of 0.5: (0.5 + 0 + 0.5) / 3. */
    o = opts_form(PL_UTILITY_PAPER);
    pl_utility_terms h = {.gpus = 2, .comm = 10, .comm_norm = 20, .interference = 1,
                          .interference_worst = 1.5, .fragmentation = 0.25, .fragmentation_worst = 0.5};
    assert_float_equal(job_u(&o, h), 1 - 1.0 / 3, 1e-12);
    /* Worst cases of 0 (and 1 for I) contribute nothing: no division by zero
     * for a 1-GPU job (t = t_w = 0) or a full system (omega_w = 0). */
    pl_utility_terms none = {.gpus = 1, .interference = 1, .interference_worst = 1};
    assert_pl_ok(pl_objective(&o, &none, &obj));
    assert_true(obj == 0.0);
    assert_true(job_u(&o, none) == 1.0);
    /* pl_objective ignores the form. */
    pl_utility_opts art = opts_form(PL_UTILITY_ARTIFACT);
    assert_pl_ok(pl_objective(&art, &t, &obj));
    assert_float_equal(obj, 1.9 / 3, 1e-12);
}

static void test_invalid_terms(void **state)
{
    (void)state;
    pl_utility_opts paper = opts_form(PL_UTILITY_PAPER), art = opts_form(PL_UTILITY_ARTIFACT);
    pl_utility_terms ok = {.gpus = 2, .comm = 20, .comm_min = 1, .comm_norm = 40, .interference = 1.2,
                           .interference_worst = 1.5, .fragmentation = 0.5, .fragmentation_worst = 1};
    double u = 0;
    assert_pl_ok(pl_utility(&paper, &ok, &u));
    assert_pl_ok(pl_utility(&art, &ok, &u));
    pl_utility_terms t = ok;
    t.comm = 41; /* beyond its worst case 40 */
    assert_einval_naming(pl_utility(&paper, &t, &u), "comm_norm");
    t = ok, t.interference = 0.9; /* a ratio, not a slowdown */
    assert_einval_naming(pl_utility(&paper, &t, &u), "interference");
    assert_pl_ok(pl_utility(&art, &t, &u));
    t = ok, t.interference = 1.6;
    assert_einval_naming(pl_objective(&paper, &t, &u), "interference_worst");
    t = ok, t.fragmentation = 0.6, t.fragmentation_worst = 0.5;
    assert_einval_naming(pl_system_utility(&paper, &t, &u), "fragmentation_worst");
    t = ok, t.fragmentation = 1.5;
    assert_einval_naming(pl_utility(&art, &t, &u), "fragmentation");
    t = ok, t.interference = 0;
    assert_einval_naming(pl_utility(&art, &t, &u), "interference");
    t = ok, t.interference = NAN;
    assert_einval_naming(pl_system_utility(&art, &t, &u), "interference");
    t = ok, t.comm = -1;
    assert_einval_naming(pl_utility(&art, &t, &u), "comm");
    t = ok, t.gpus = -1;
    assert_einval_naming(pl_utility(&art, &t, &u), "gpus");
    pl_utility_opts bad = art;
    bad.alpha_b = 0.5;
    assert_einval_naming(pl_utility(&bad, &ok, &u), "alpha_cc + alpha_b + alpha_d");
    assert_pl_status(pl_utility(NULL, &ok, &u), PL_EINVAL);
    assert_pl_status(pl_utility(&art, NULL, &u), PL_EINVAL);
    assert_pl_status(pl_system_utility(&art, &ok, NULL), PL_EINVAL);
    assert_pl_status(pl_objective(&art, &ok, NULL), PL_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opts_defaults),
        cmocka_unit_test(test_opts_check),
        cmocka_unit_test(test_comm_cost),
        cmocka_unit_test(test_interference_mean),
        cmocka_unit_test(test_fragmentation),
        cmocka_unit_test(test_artifact_worked_values),
        cmocka_unit_test(test_artifact_interference_from_builtin),
        cmocka_unit_test(test_artifact_system_utility),
        cmocka_unit_test(test_artifact_other_weights),
        cmocka_unit_test(test_worse_neighbour_never_raises_utility),
        cmocka_unit_test(test_paper_form),
        cmocka_unit_test(test_invalid_terms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* GPU usage-pattern simulator on hand-made traces; every expected time is
 * worked out by hand in the comment above its assertion. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include <placement/gpuqos.h>

#define TOL 1e-9

static pl_gpu_call kern(double start, double dur)
{
    pl_gpu_call c;
    memset(&c, 0, sizeof c);
    c.kind = PL_GPU_KERNEL;
    c.start_s = start;
    c.duration_s = dur;
    return c;
}

static pl_gpu_call copy(pl_gpu_call_kind kind, double start, double dur, double bw)
{
    pl_gpu_call c = kern(start, dur);
    c.kind = kind;
    c.bw_bytes_per_s = bw;
    return c;
}

static pl_gpu_trace trace(const pl_gpu_call *calls, int32_t n, double period)
{
    pl_gpu_trace t = { calls, n, period, 0.0 };
    return t;
}

static pl_gpu_sim_opts horizon(double h, double bw)
{
    pl_gpu_sim_opts o;
    pl_gpu_sim_opts_init(&o);
    o.horizon_s = h;
    if (bw > 0)
        o.pcie_max_bytes_per_s = bw;
    return o;
}

/* Alone, a model replays its iteration exactly: 50 s / 5 s = 10 iterations. */
static void test_solo_replay(void **state)
{
    (void)state;
    pl_gpu_call a[] = { kern(0, 2), copy(PL_GPU_MEMCPY_H2D, 3, 1, 1e9) };
    pl_gpu_trace t = trace(a, 2, 5);
    pl_gpu_sim_opts o = horizon(50, 0);
    pl_gpu_sim_result r;
    assert_pl_ok(pl_gpu_simulate(&t, 1, &o, &r));
    assert_int_equal(r.iterations, 10);
    assert_true(fabs(r.iteration_s - 5) < TOL);
    assert_true(fabs(r.slowdown) < TOL);
    assert_true(fabs(r.kernel_wait_s) < TOL);
}

/* A: kernel [0,2), period 4. B: kernel submitted at 1, period 4 (tail 1).
 * B waits 1 s once (runs 2-4), then both interleave without waiting:
 * A completes iterations at 4, 8, 12; B at 5, 9, 13. Horizon 13. */
static void test_kernels_fcfs_interleave(void **state)
{
    (void)state;
    pl_gpu_call a[] = { kern(0, 2) }, b[] = { kern(1, 2) };
    pl_gpu_trace t[2] = { trace(a, 1, 4), trace(b, 1, 4) };
    pl_gpu_sim_opts o = horizon(13, 0);
    pl_gpu_sim_result r[2];
    assert_pl_ok(pl_gpu_simulate(t, 2, &o, r));
    assert_int_equal(r[0].iterations, 3);
    assert_true(fabs(r[0].slowdown) < TOL);
    assert_int_equal(r[1].iterations, 3);
    assert_true(fabs(r[1].iteration_s - 13.0 / 3) < TOL);
    assert_true(fabs(r[1].slowdown - (13.0 / 3 - 4) / 4) < TOL);
    assert_true(fabs(r[0].kernel_wait_s) < TOL);
    assert_true(fabs(r[1].kernel_wait_s - 1) < TOL);
}

/* Both: kernel [0,3), period 4 (tail 1); a tie goes to model 0 (FCFS by
 * submission, then index). A runs 0-3, 6-9, 12-15, 18-21 and completes at
 * 4, 10, 16, 22; B runs 3-6, 9-12, 15-18, 21-24 and completes at 7, 13, 19.
 * Waits (start - submit): A 0+2+2+2 = 6; B 3+2+2+2 = 9 (its 4th kernel,
 * submitted at 19, starts at 21 within the horizon 22). */
static void test_kernels_fcfs_contention(void **state)
{
    (void)state;
    pl_gpu_call a[] = { kern(0, 3) };
    pl_gpu_trace t[2] = { trace(a, 1, 4), trace(a, 1, 4) };
    pl_gpu_sim_opts o = horizon(22, 0);
    pl_gpu_sim_result r[2];
    assert_pl_ok(pl_gpu_simulate(t, 2, &o, r));
    assert_int_equal(r[0].iterations, 4);
    assert_true(fabs(r[0].iteration_s - 5.5) < TOL);
    assert_true(fabs(r[0].slowdown - 0.375) < TOL);
    assert_int_equal(r[1].iterations, 3);
    assert_true(fabs(r[1].iteration_s - 19.0 / 3) < TOL);
    assert_true(fabs(r[0].kernel_wait_s - 6) < TOL);
    assert_true(fabs(r[1].kernel_wait_s - 9) < TOL);
}

/* Two H2D copies of 20 B at 10 B/s each on a 10 B/s link: 5 B/s each, both
 * end at 4 instead of 2 (slowdown 1). Opposite directions do not share. A
 * sum under the maximum (25 B/s) does not slow anyone. */
static void test_memcpy_share(void **state)
{
    (void)state;
    pl_gpu_call h[] = { copy(PL_GPU_MEMCPY_H2D, 0, 2, 10) }, d[] = { copy(PL_GPU_MEMCPY_D2H, 0, 2, 10) };
    pl_gpu_trace same[2] = { trace(h, 1, 2), trace(h, 1, 2) };
    pl_gpu_trace opp[2] = { trace(h, 1, 2), trace(d, 1, 2) };
    pl_gpu_sim_result r[2];
    pl_gpu_sim_opts o = horizon(8, 10);
    assert_pl_ok(pl_gpu_simulate(same, 2, &o, r));
    assert_int_equal(r[0].iterations, 2);
    assert_true(fabs(r[0].slowdown - 1.0) < 1e-6);
    assert_true(fabs(r[1].slowdown - 1.0) < 1e-6);
    assert_pl_ok(pl_gpu_simulate(opp, 2, &o, r));
    assert_int_equal(r[0].iterations, 4);
    assert_true(fabs(r[0].slowdown) < 1e-6 && fabs(r[1].slowdown) < 1e-6);
    o = horizon(8, 25);
    assert_pl_ok(pl_gpu_simulate(same, 2, &o, r));
    assert_true(fabs(r[0].slowdown) < 1e-6);
}

/* A: 40 B at 10 B/s (4 s), period 4. B: 10 B at 10 B/s (1 s), period 4.
 * Shared 10 B/s: 5 B/s each until B ends at 2 (A has 30 B left), then A
 * alone at 10 B/s ends at 5. B's tail 3 ends its iteration at 5 too. Both
 * iterations last 5: slowdown 0.25 (horizon 10: 2 iterations). Rates are
 * recomputed when a copy ends, as the thesis says. */
static void test_memcpy_rates_change(void **state)
{
    (void)state;
    pl_gpu_call a[] = { copy(PL_GPU_MEMCPY_H2D, 0, 4, 10) }, b[] = { copy(PL_GPU_MEMCPY_H2D, 0, 1, 10) };
    pl_gpu_trace t[2] = { trace(a, 1, 4), trace(b, 1, 4) };
    pl_gpu_sim_opts o = horizon(10, 10);
    pl_gpu_sim_result r[2];
    assert_pl_ok(pl_gpu_simulate(t, 2, &o, r));
    assert_int_equal(r[0].iterations, 2);
    assert_int_equal(r[1].iterations, 2);
    assert_true(fabs(r[0].slowdown - 0.25) < 1e-6);
    assert_true(fabs(r[1].slowdown - 0.25) < 1e-6);
}

/* Host-side add-on: gaps 1 + tail 1 stretched by 1.5 -> iteration 1.5 + 1 +
 * 1.5 = 4 against a solo period of 3. */
static void test_host_slowdown(void **state)
{
    (void)state;
    pl_gpu_call a[] = { kern(1, 1) };
    pl_gpu_trace t = trace(a, 1, 3);
    t.host_slowdown = 0.5;
    pl_gpu_sim_opts o = horizon(8, 0);
    pl_gpu_sim_result r;
    assert_pl_ok(pl_gpu_simulate(&t, 1, &o, &r));
    assert_int_equal(r.iterations, 2);
    assert_true(fabs(r.slowdown - 1.0 / 3) < TOL);
}

/* Split by 4: group [call 1, call 2] repeated 4 times. Call 1: d1 = 4,
 * d2 = 2.5 -> a = 1, b = 3 -> 1.75 s; call 2: d1 = 1, d2 = 0.5 (default)
 * -> 0.25 s. Gaps 0 / 1 / 0 / 1 / tail 1: c0 [0,1), group from 2 to
 * 2 + 4 * 2 = 10, c3 [11,12), period 13. */
static void test_split_trace(void **state)
{
    (void)state;
    pl_gpu_call c[] = { kern(0, 1), kern(2, 4), copy(PL_GPU_MEMCPY_D2H, 6, 1, 1e9), kern(8, 1) };
    c[1].split = 1;
    c[1].split2_duration_s = 2.5;
    c[2].split = 1;
    pl_gpu_trace in = trace(c, 4, 10), out;
    assert_pl_ok(pl_gpu_trace_split(&in, 4, &out));
    assert_int_equal(out.ncalls, 10);
    assert_true(fabs(out.period_s - 13) < TOL);
    assert_true(fabs(out.calls[1].start_s - 2) < TOL);
    assert_true(fabs(out.calls[1].duration_s - 1.75) < TOL);
    assert_true(fabs(out.calls[2].start_s - 3.75) < TOL);
    assert_true(fabs(out.calls[2].duration_s - 0.25) < TOL);
    assert_int_equal(out.calls[2].kind, PL_GPU_MEMCPY_D2H);
    assert_true(fabs(out.calls[7].start_s - 8.0) < TOL);
    assert_true(fabs(out.calls[9].start_s - 11) < TOL);
    pl_gpu_trace_release(&out);
    /* factor 2 reproduces the second profile; factor 1 the first */
    assert_pl_ok(pl_gpu_trace_split(&in, 2, &out));
    assert_int_equal(out.ncalls, 6);
    assert_true(fabs(out.calls[1].duration_s - 2.5) < TOL);
    assert_true(fabs(out.period_s - 11) < TOL); /* 1 + 1 + 2 * 3 + 1 + 1 + 1 */
    pl_gpu_trace_release(&out);
    assert_pl_ok(pl_gpu_trace_split(&in, 1, &out));
    assert_int_equal(out.ncalls, 4);
    assert_true(fabs(out.period_s - 10) < TOL);
    assert_true(fabs(out.calls[3].start_s - 8) < TOL);
    pl_gpu_trace_release(&out);
    assert_pl_status(pl_gpu_trace_split(&in, 0, &out), PL_EINVAL);
}

/* LS: kernel [0,1), period 4. Batch: kernel [0,4) marked split with no
 * overhead, period 5. Unsplit (horizon 19): LS runs 0-1, 5-6, 10-11, 15-16
 * and completes at 4, 9, 14, 19 (4.75 s mean, slowdown 0.1875); the batch
 * runs 1-5, 6-10, 11-15 and completes at 6, 11, 16 (16/3, slowdown 1/15).
 * So with QoS 0.1 the pair has no element from factor 1, with QoS 0.2 it
 * has m = 1/15. Split by 4 (1 s kernels back to back) the LS waits at most
 * one sub-kernel: its slowdown must drop. */
static void test_qos_matrix_and_split_effect(void **state)
{
    (void)state;
    pl_gpu_call l[] = { kern(0, 1) }, b[] = { kern(0, 4) };
    b[0].split = 1;
    pl_gpu_trace ls = trace(l, 1, 4), bt = trace(b, 1, 5);
    pl_gpu_sim_opts o = horizon(19, 0);
    pl_gpu_trace pair[2] = { ls, bt };
    pl_gpu_sim_result r[2];
    assert_pl_ok(pl_gpu_simulate(pair, 2, &o, r));
    assert_int_equal(r[0].iterations, 4);
    assert_true(fabs(r[0].slowdown - 0.1875) < TOL);
    assert_int_equal(r[1].iterations, 3);
    assert_true(fabs(r[1].slowdown - 1.0 / 15) < TOL);

    int32_t f1[] = { 1 }, f;
    double m, s;
    assert_pl_ok(pl_gpu_qos_matrix(&ls, 1, &bt, 1, f1, 1, 0.1, &o, &m, &s, &f));
    assert_true(isnan(m) && isnan(s));
    assert_int_equal(f, 0);
    assert_pl_ok(pl_gpu_qos_matrix(&ls, 1, &bt, 1, f1, 1, 0.2, &o, &m, &s, &f));
    assert_true(fabs(m - 1.0 / 15) < TOL && fabs(s - 0.1875) < TOL);
    assert_int_equal(f, 1);

    pl_gpu_sim_opts lo = horizon(1000, 0);
    pl_gpu_trace split;
    assert_pl_ok(pl_gpu_trace_split(&bt, 4, &split));
    pl_gpu_trace p1[2] = { ls, bt }, p4[2] = { ls, split };
    pl_gpu_sim_result r1[2], r4[2];
    assert_pl_ok(pl_gpu_simulate(p1, 2, &lo, r1));
    assert_pl_ok(pl_gpu_simulate(p4, 2, &lo, r4));
    assert_true(r4[0].slowdown < r1[0].slowdown);
    /* and the matrix picks the factor meeting QoS 0.1 */
    int32_t fs[] = { 1, 2, 4, 8 };
    assert_pl_ok(pl_gpu_qos_matrix(&ls, 1, &bt, 1, fs, 4, 0.1, &lo, &m, &s, &f));
    assert_true(!isnan(m) && s < 0.1 && f > 1);
    pl_gpu_trace_release(&split);
}

/* Random traces: alone, a model replays its period exactly (slowdown 0,
 * floor(horizon / period) iterations); together, interference only delays
 * (slowdown >= 0, waits >= 0), and the replay terminates. */
static void random_trace(pl_test_rng *r, pl_gpu_call *c, int32_t *n, double *period)
{
    *n = (int32_t)pl_test_range(r, 1, 8);
    double t = 0;
    for (int32_t k = 0; k < *n; k++) {
        t += (double)pl_test_range(r, 0, 5) / 10.0;
        int kind = (int)pl_test_range(r, 0, 2);
        c[k] = kind == 0 ? kern(t, (double)pl_test_range(r, 1, 10) / 10.0)
                         : copy((pl_gpu_call_kind)kind, t, (double)pl_test_range(r, 1, 10) / 10.0,
                                (double)pl_test_range(r, 1, 20));
        t += c[k].duration_s;
    }
    *period = t + (double)pl_test_range(r, 0, 5) / 10.0;
}

static void test_random_invariants(void **state)
{
    (void)state;
    pl_test_rng rng = { 4242 };
    for (int run = 0; run < 400; run++) {
        pl_gpu_call a[8], b[8];
        int32_t na, nb;
        double pa, pb;
        random_trace(&rng, a, &na, &pa);
        random_trace(&rng, b, &nb, &pb);
        pl_gpu_trace t[2] = { trace(a, na, pa), trace(b, nb, pb) };
        pl_gpu_sim_opts o = horizon(60, 25);
        pl_gpu_sim_result r[2];
        assert_pl_ok(pl_gpu_simulate(t, 1, &o, r));
        /* the horizon may cut the last iteration: 60 / period rounded down */
        assert_int_equal(r[0].iterations, (int64_t)floor(60 / pa + 1e-9));
        assert_true(fabs(r[0].slowdown) < 1e-9);
        assert_pl_ok(pl_gpu_simulate(t, 2, &o, r));
        for (int i = 0; i < 2; i++) {
            if (r[i].slowdown < -1e-9 || r[i].kernel_wait_s < 0)
                fail_msg("run %d model %d: slowdown %g wait %g", run, i, r[i].slowdown, r[i].kernel_wait_s);
        }
    }
}

static void test_errors(void **state)
{
    (void)state;
    pl_gpu_call a[] = { kern(2, 1), kern(1, 1) };
    pl_gpu_trace t = trace(a, 2, 5);
    pl_gpu_sim_result r;
    assert_pl_status(pl_gpu_simulate(&t, 1, NULL, &r), PL_EINVAL); /* decreasing start */
    pl_gpu_call b[] = { copy(PL_GPU_MEMCPY_H2D, 0, 1, 0) };
    t = trace(b, 1, 5);
    assert_pl_status(pl_gpu_simulate(&t, 1, NULL, &r), PL_EINVAL); /* copy without bandwidth */
    pl_gpu_call c[] = { kern(0, 3) };
    t = trace(c, 1, 2);
    assert_pl_status(pl_gpu_simulate(&t, 1, NULL, &r), PL_EINVAL); /* period before the end */
    t = trace(c, 1, 3);
    pl_gpu_sim_opts o = horizon(2, 0);
    assert_pl_status(pl_gpu_simulate(&t, 1, &o, &r), PL_ELIMIT);
    assert_pl_status(pl_gpu_simulate(&t, 0, NULL, &r), PL_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solo_replay),
        cmocka_unit_test(test_kernels_fcfs_interleave),
        cmocka_unit_test(test_kernels_fcfs_contention),
        cmocka_unit_test(test_memcpy_share),
        cmocka_unit_test(test_memcpy_rates_change),
        cmocka_unit_test(test_host_slowdown),
        cmocka_unit_test(test_split_trace),
        cmocka_unit_test(test_qos_matrix_and_split_effect),
        cmocka_unit_test(test_random_invariants),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

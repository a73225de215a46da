/* The short soak (bench/soak.h; bench-soak runs the long one): place,
 * commit and release on 50 machines, half with 2-unit GPUs, with every
 * policy that places whole jobs on GPUs; no GPU over its units or twice in
 * a job, nothing left allocated at the end, and (outside AddressSanitizer,
 * whose quarantine holds freed memory on purpose) RSS growth after warm-up
 * under 1 MB. */
#include <string.h>
#include "testutil.h"
#include "../../bench/soak.h"

#if defined(__SANITIZE_ADDRESS__)
#define PL_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PL_UNDER_ASAN 1
#endif
#endif

static void soak_policy(const char *policy, int64_t cycles)
{
    pl_soak_opts o;
    pl_soak_opts_init(&o);
    o.machines = 50;
    o.cycles = cycles;
    o.policy = policy;
    o.rss_every = 500;
    pl_soak_result r;
    pl_status st = pl_soak_run(&o, &r);
    if (st != PL_OK)
        fail_msg("%s: %s", policy, pl_last_error());
    print_message("%s: %lld cycles, placed %lld, not placed %lld, shared-GPU tasks %lld, "
                  "RSS %lld -> %lld KiB\n", policy, (long long)r.cycles, (long long)r.placed,
                  (long long)r.not_placed, (long long)r.shared_tasks, (long long)r.rss_start_kb,
                  (long long)r.rss_max_kb);
    assert_int_equal(r.cycles, cycles);
    assert_int_equal(r.double_booked, 0);
    assert_int_equal(r.leaked, 0);
    assert_int_equal(r.released, r.placed);
    /* Most cycles place a job, and shared GPUs are really shared. */
    assert_true(r.placed > cycles / 2);
    assert_true(r.shared_tasks > 0);
#ifndef PL_UNDER_ASAN
    assert_true(r.rss_max_kb - r.rss_start_kb < 1024);
#endif
}

static void test_soak_baselines(void **s)
{
    (void)s;
    static const char *const policies[] = {"fcfs", "bf", "pack", "spread", "random"};
    for (size_t i = 0; i < sizeof policies / sizeof *policies; i++)
        soak_policy(policies[i], 2500);
}

static void test_soak_topo_aware(void **s)
{
    (void)s;
    soak_policy("topo-aware", 2500);
}

static void test_soak_drmaestro(void **s)
{
    (void)s;
    soak_policy("drmaestro", 2500);
    soak_policy("drmaestro-na", 1000);
}

/* A policy that ignores what is free: the first GPUs of the cluster, every
 * time. The soak must count its decisions as double booked, or its check
 * could never fail. */
static pl_status place_first_gpus(const pl_policy_request *req, pl_decision *out)
{
    int32_t gpus[64], n = 0;
    pl_status st = pl_topology_descendants(req->topo, -1, PL_VK_GPU, gpus, 64, &n);
    for (int32_t i = 0; i < req->nqueue && !st; i++) {
        int32_t k = pl_job_task_count(req->queue[i]);
        pl_decision_info info = {.kind = PL_DECISION_PLACED, .ngpus = k, .gpus = gpus,
                                 .machine = -1, .slowdown = 1, .reason = ""};
        st = k <= 8 ? pl_decision_set(out, i, &info) : PL_EINVAL;
    }
    return st;
}

static void test_soak_catches_double_booking(void **s)
{
    (void)s;
    static const pl_policy_ops bad = {
    .name = "soak-first-gpus",
    .description = "test: the first GPUs, free or not",
    .place = place_first_gpus,
};
    assert_pl_ok(pl_policy_register(&bad));
    pl_soak_opts o;
    pl_soak_opts_init(&o);
    o.machines = 4;
    o.cycles = 200;
    o.policy = "soak-first-gpus";
    pl_soak_result r;
    assert_pl_ok(pl_soak_run(&o, &r));
    assert_true(r.double_booked > 0);
    assert_int_equal(r.leaked, 0);
    assert_pl_ok(pl_policy_unregister("soak-first-gpus"));
}

static void test_soak_rejects_bad_options(void **s)
{
    (void)s;
    pl_soak_opts o;
    pl_soak_opts_init(&o);
    o.load = 1.5;
    pl_soak_result r;
    assert_pl_status(pl_soak_run(&o, &r), PL_EINVAL);
    pl_soak_opts_init(&o);
    o.machines = 2;
    o.cycles = 10;
    o.policy = "no-such-policy";
    assert_pl_status(pl_soak_run(&o, &r), PL_ENOTFOUND);
    assert_non_null(strstr(pl_last_error(), "no-such-policy"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_soak_baselines),
        cmocka_unit_test(test_soak_topo_aware),
        cmocka_unit_test(test_soak_drmaestro),
        cmocka_unit_test(test_soak_catches_double_booking),
        cmocka_unit_test(test_soak_rejects_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

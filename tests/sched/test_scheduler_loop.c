/* examples/c/scheduler_loop (issue 19's walk-through of the lifecycle), run
 * as a user would with every registered policy on two traces: the shared-GPU
 * example, and a busy one written here (120 jobs of 1 to 4 GPUs, a few
 * seconds apart, on two machines, so that most wait for a release). The
 * example checks double booking and leaks itself; its last line must say
 * none, with every placed job released. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"

static char out[1 << 16];

/* Run the example; return its exit status, out holding what it printed. */
static int run_loop(const char *cluster, const char *trace, const char *policy)
{
    const char *bin = getenv("PL_SCHEDULER_LOOP_BIN");
    assert_non_null(bin);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' --policy '%s' 2>&1", bin, cluster, trace, policy);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The last line's counts. */
static void last_line(long *placed, long *released, long *booked, long *leaked)
{
    char *line = out, *nl;
    while ((nl = strchr(line, '\n')) && nl[1])
        line = nl + 1;
    if (sscanf(line, "placed %ld released %ld double-booked %ld leaked %ld", placed, released, booked,
               leaked) != 4)
        fail_msg("unexpected last line: %s", line);
}

static void check_every_policy(const char *cluster, const char *trace, long want_placed)
{
    for (int i = 0; i < pl_policy_count(); i++) {
        const char *name = pl_policy_get(i)->name;
        int rc = run_loop(cluster, trace, name);
        long placed, released, booked, leaked;
        last_line(&placed, &released, &booked, &leaked);
        if (rc != 0 || booked != 0 || leaked != 0 || placed != released ||
            (want_placed && placed != want_placed))
            fail_msg("%s (exit %d): %s", name, rc, out);
    }
}

static void test_example_trace(void **state)
{
    (void)state;
    char cluster[PL_PATH_MAX], trace[PL_PATH_MAX];
    snprintf(cluster, sizeof cluster, "%s/../../examples/sim/cluster-with-shared-gpus.json", getenv("PL_TEST_DATA"));
    snprintf(trace, sizeof trace, "%s/../../examples/sim/shared-gpus-trace.csv", getenv("PL_TEST_DATA"));
    check_every_policy(cluster, trace, 40);
}

static void test_busy_trace(void **state)
{
    (void)state;
    char trace[PL_TEST_TMP_PATH];
    FILE *f = pl_test_tmpfile(trace);
    fputs("name,arrival,gpus,cores,memory,duration\n", f);
    pl_test_rng r = {19};
    double t = 0;
    for (int i = 0; i < 120; i++) {
        t += (double)pl_test_range(&r, 0, 4);
        fprintf(f, "j%d,%g,%d,%d,4,%d\n", i, t, (int)pl_test_range(&r, 1, 4),
                (int)pl_test_range(&r, 1, 8), (int)pl_test_range(&r, 5, 60));
    }
    fclose(f);
    char cluster[PL_PATH_MAX];
    snprintf(cluster, sizeof cluster, "%s/../../examples/sim/cluster-exclusive-gpus.json", getenv("PL_TEST_DATA"));
    check_every_policy(cluster, trace, 120);
    remove(trace);
    /* A fixed trace of the same kind on which drmaestro's placements could
     * not be committed by policy.h's rule (its tasks take cores anywhere on
     * their machine; the decisions now carry that plan). */
    char fixed[PL_PATH_MAX];
    check_every_policy(cluster, pl_test_data(fixed, "sched/busy-trace.csv"), 120);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_trace),
        cmocka_unit_test(test_busy_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

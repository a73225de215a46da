/* `placement place`, run as a user would: the table, DOT, exit codes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../common/testutil.h"

static char out[1 << 20];
static char jobs_path[64];

static int run(const char *args, int merge)
{
    return pl_test_run_cli(NULL, args, merge, out, sizeof out);
}

/* A talking pair, a single GPU job and one too big for a Minsky. */
static int setup(void **s)
{
    (void)s;
    strcpy(jobs_path, "/tmp/pl-place-cli-XXXXXX");
    int fd = mkstemp(jobs_path);
    if (fd < 0)
        return -1;
    const char *text = "{\"jobs\": [\n"
                       " {\"name\": \"pair\", \"gpus\": 2, \"traffic\": 4},\n"
                       " {\"name\": \"solo\", \"gpus\": 1},\n"
                       " {\"name\": \"huge\", \"gpus\": 5, \"traffic\": 1}\n"
                       "]}\n";
    ssize_t w = write(fd, text, strlen(text));
    close(fd);
    return w == (ssize_t)strlen(text) ? 0 : -1;
}

static int teardown(void **s)
{
    (void)s;
    unlink(jobs_path);
    return 0;
}

static const char *line_of(const char *job)
{
    static char line[1024];
    char key[64];
    snprintf(key, sizeof key, "\n%s ", job);
    const char *p = strstr(out, key);
    assert_non_null(p);
    p++;
    size_t n = strcspn(p, "\n");
    assert_true(n < sizeof line);
    memcpy(line, p, n);
    line[n] = '\0';
    return line;
}

/* topo-aware: the pair gets the NVLink pair (t = 1 of the worst 22, half
 * the GPUs free after: U = 1 - (1/22 + 0.5) / 3 = 0.8182 in the default
 * paper form, 1 in the artifact's); the single GPU job socket 1; the 5-GPU
 * job is rejected. */
static void test_table(void **s)
{
    (void)s;
    char args[256];
    snprintf(args, sizeof args, "place --builtin minsky --jobs %s", jobs_path);
    assert_int_equal(run(args, 0), 0);
    assert_int_equal(strncmp(out, "job ", 4), 0);
    assert_non_null(strstr(out, "decision"));
    assert_non_null(strstr(out, "slowdown"));
    const char *l = line_of("pair");
    assert_non_null(strstr(l, " placed "));
    assert_non_null(strstr(l, " machine/package0/gpu0,machine/package0/gpu1 "));
    assert_non_null(strstr(l, " 0.8182 "));
    assert_non_null(strstr(l, " 1.000"));
    l = line_of("solo");
    assert_non_null(strstr(l, " machine/package1/gpu2 "));
    l = line_of("huge");
    assert_non_null(strstr(l, " rejected "));
    assert_non_null(strstr(l, "more GPUs on one machine"));
    snprintf(args, sizeof args, "place --builtin minsky --jobs %s --utility artifact", jobs_path);
    assert_int_equal(run(args, 0), 0);
    assert_non_null(strstr(line_of("pair"), " 1.0000 "));
}

/* fcfs on the SC17 5-job file (1, 1, 1, 2, 2, 2 GPUs) on one Minsky:
 * gpu0, gpu1, gpu2 by first fit; job3 needs 2 with only gpu3 free: it waits
 * and job4, job5 wait behind it. */
static void test_sc17_fcfs(void **s)
{
    (void)s;
    char data[PL_PATH_MAX], args[PL_PATH_MAX + 128];
    snprintf(args, sizeof args, "place -b minsky --sc17 %s --policy fcfs",
             pl_test_data(data, "sc17/workloads-5.json"));
    assert_int_equal(run(args, 0), 0);
    assert_non_null(strstr(line_of("job0"), " machine/package0/gpu0 "));
    assert_non_null(strstr(line_of("job1"), " machine/package0/gpu1 "));
    assert_non_null(strstr(line_of("job2"), " machine/package1/gpu2 "));
    assert_non_null(strstr(line_of("job3"), " waiting "));
    assert_non_null(strstr(line_of("job5"), "behind job \"job3\""));
}

/* doc/jobs.md's tasks of several GPUs on two Minskys: the 4-GPU trainer
 * takes node0 whole (Eq. 3 over its 4 GPUs: NVLink pairs 1 + 1, four
 * cross-socket pairs 22 each = 90); ps-worker's 2-GPU task the NVLink pair
 * of node1's package0 and its 1-GPU task gpu2 (1 + 22 + 22 = 45); a 5-GPU
 * task fits no 4-GPU machine. */
static void test_multi_gpu_tasks(void **s)
{
    (void)s;
    char data[PL_PATH_MAX], args[PL_PATH_MAX + 128];
    snprintf(args, sizeof args, "place -b minsky --machines 2 --jobs %s",
             pl_test_data(data, "jobs/multi-gpu.json"));
    assert_int_equal(run(args, 0), 0);
    const char *l = line_of("trainer");
    assert_non_null(strstr(l, " placed "));
    assert_non_null(strstr(l, " cluster/rack0/node0/package0/gpu0,cluster/rack0/node0/package0/gpu1,"
                              "cluster/rack0/node0/package1/gpu2,cluster/rack0/node0/package1/gpu3 "));
    assert_non_null(strstr(l, " 90 "));
    l = line_of("ps-worker");
    assert_non_null(strstr(l, " cluster/rack0/node1/package0/gpu0,cluster/rack0/node1/package0/gpu1,"
                              "cluster/rack0/node1/package1/gpu2 "));
    assert_non_null(strstr(l, " 45 "));
    l = line_of("too-big");
    assert_non_null(strstr(l, " rejected "));
    assert_non_null(strstr(l, "more GPUs on one machine"));
}

/* --dot: the placed GPUs are shaded; a 2-machine cluster names node1. */
static void test_dot(void **s)
{
    (void)s;
    char args[256];
    snprintf(args, sizeof args, "place --builtin minsky --machines 2 --per-rack 2 --jobs %s --dot",
             jobs_path);
    assert_int_equal(run(args, 0), 0);
    assert_int_equal(strncmp(out, "graph topology {", 16), 0);
    assert_non_null(strstr(out, "fillcolor=grey"));
    assert_non_null(strstr(out, "node1"));
}

static void test_errors(void **s)
{
    (void)s;
    char args[256];
    snprintf(args, sizeof args, "place --builtin minsky --jobs %s --policy nosuch", jobs_path);
    assert_int_equal(run(args, 1), 1);
    assert_non_null(strstr(out, "placement place: no policy named \"nosuch\""));
    snprintf(args, sizeof args, "place --jobs %s", jobs_path);
    assert_int_equal(run(args, 1), 2);
    assert_non_null(strstr(out, "exactly one of --builtin, --xml, --json"));
    snprintf(args, sizeof args, "place -b minsky --jobs %s --sc17 %s", jobs_path, jobs_path);
    assert_int_equal(run(args, 1), 2);
    assert_non_null(strstr(out, "exactly one of --jobs, --sc17"));
    assert_int_equal(run("place -b minsky --jobs /nonexistent.json", 1), 1);
    assert_non_null(strstr(out, "placement place: "));
    snprintf(args, sizeof args, "place -b minsky --jobs %s --utility best", jobs_path);
    assert_int_equal(run(args, 1), 2);
    assert_int_equal(run("place --help", 0), 0);
    assert_non_null(strstr(out, "usage: placement place"));
    assert_non_null(strstr(out, "topo-aware-p"));
    assert_int_equal(run("--help", 0), 0);
    assert_non_null(strstr(out, "place "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_sc17_fcfs),
        cmocka_unit_test(test_dot),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_multi_gpu_tasks),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

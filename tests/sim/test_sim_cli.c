/* `placement simulate` and `placement demo`, run as a user would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../common/testutil.h"

static char out[1 << 20];

/* Run "placement ARGS"; capture stdout (and stderr if merge) into out. */
static int run(const char *args, int merge)
{
    return pl_test_run_cli(NULL, args, merge, out, sizeof out);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void make_tmp(char *dir)
{
    strcpy(dir, "/tmp/pl_sim_cli_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void test_simulate_scenario(void **s)
{
    (void)s;
    char dir[64], args[512], path[512];
    make_tmp(dir);
    snprintf(args, sizeof args, "simulate --scenario sc17-proto --policy fcfs,topo-aware-p --out %s/o",
             dir);
    assert_int_equal(run(args, 0), 0);
    assert_non_null(strstr(out, "sc17-proto: 6 jobs on 1 Minsky machines\n"));
    assert_non_null(strstr(out, "policy        makespan_s"));
    assert_non_null(strstr(out, "\nfcfs "));
    assert_non_null(strstr(out, "\ntopo-aware-p "));
    snprintf(path, sizeof path, "%s/o/sc17-proto-topo-aware-p.csv", dir);
    char *csv = slurp(path);
    assert_non_null(csv);
    assert_int_equal(strncmp(csv, "job,name,state,gpus,arrival,start,finish,", 41), 0);
    /* Header + 6 jobs. */
    int lines = 0;
    for (char *p = csv; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 7);
    assert_non_null(strstr(csv, "\n0,job0,done,1,0.513093,1.000000,70.165000,"));
    snprintf(path, sizeof path, "%s/o/sc17-proto.svg", dir);
    char *svg = slurp(path);
    assert_non_null(svg);
    assert_int_equal(strncmp(svg, "<?xml", 5), 0);
    assert_non_null(strstr(svg, ">topo-aware-p</text>"));
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    assert_int_equal(system(args), 0);
}

static void test_simulate_trace(void **s)
{
    (void)s;
    char path[PL_PATH_MAX], args[PL_PATH_MAX + 128];
    snprintf(args, sizeof args, "simulate --trace '%s' --machines 1 --policy bf",
             pl_test_data(path, "sc17/workloads-5.json"));
    assert_int_equal(run(args, 0), 0);
    assert_non_null(strstr(out, "trace: 6 jobs on 1 Minsky machines\n"));
    assert_non_null(strstr(out, "\nbf "));
}

static void test_simulate_errors(void **s)
{
    (void)s;
    assert_int_equal(run("simulate", 1), 2);
    assert_non_null(strstr(out, "exactly one of --scenario, --trace"));
    assert_int_equal(run("simulate --scenario sc17-proto --policy nosuch", 1), 2);
    assert_non_null(strstr(out, "nosuch"));
    assert_int_equal(run("simulate --scenario nosuch", 1), 1);
    assert_non_null(strstr(out, "no scenario 'nosuch'"));
    assert_int_equal(run("simulate --trace /nonexistent.json", 1), 1);
    assert_int_equal(run("simulate --scenario sc17-s2 --jobs 0", 1), 2);
    assert_non_null(strstr(out, "--jobs wants an integer"));
    assert_int_equal(run("simulate --scenario sc17-proto extra", 1), 2);
    assert_int_equal(run("simulate --help", 0), 0);
    assert_non_null(strstr(out, "sc17-proto sc17-s1 sc17-s2"));
}

static void test_demo(void **s)
{
    (void)s;
    char dir[64], args[256];
    make_tmp(dir);
    snprintf(args, sizeof args, "demo --out %s", dir);
    assert_int_equal(run(args, 0), 0);
    assert_non_null(strstr(out, "== sc17-proto"));
    assert_non_null(strstr(out, "== sc17-s1"));
    /* The paper's prototype numbers and the artifact's scenario-1 row. */
    assert_non_null(strstr(out, "356.9"));
    assert_non_null(strstr(out, "461.7"));
    assert_non_null(strstr(out, "1540.0"));
    assert_non_null(strstr(out, "75.7"));
    assert_non_null(strstr(out, "sc17-s1.svg"));
    char path[128];
    snprintf(path, sizeof path, "%s/sc17-s1-bf.csv", dir);
    assert_int_equal(access(path, R_OK), 0);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    assert_int_equal(system(args), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simulate_scenario), cmocka_unit_test(test_simulate_trace),
        cmocka_unit_test(test_simulate_errors),   cmocka_unit_test(test_demo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

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

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A CSV trace on a JSON cluster (two 2s4g-pcie machines), a startup delay
 * of 2 s for every job and a failure: fcfs places a on node0 and b on node1
 * at 0 (tasks start at 2); a GPU of node1 fails at 5: b is killed (20
 * GPU-seconds lost) and waits for 4 GPUs on one machine: node0 after a ends
 * at 12; b starts at 14 and ends at 24. */
static void test_simulate_trace_cluster_failures(void **s)
{
    (void)s;
    char dir[64], args[1024], path[512];
    make_tmp(dir);
    snprintf(path, sizeof path, "%s/t.csv", dir);
    write_file(path, "name,arrival,gpus,duration\na,0,4,10\nb,0,4,10\n");
    snprintf(path, sizeof path, "%s/c.json", dir);
    write_file(path, "{\"name\": \"lab\", \"templates\": {\"m\": {\"builtin\": \"2s4g-pcie\"}},\n"
                     " \"machines\": [{\"template\": \"m\", \"count\": 2}]}\n");
    snprintf(path, sizeof path, "%s/f.csv", dir);
    write_file(path, "time,gpu,repair\n5,lab/node1/package0/pci-switch0/gpu0,10\n");
    snprintf(args, sizeof args, "simulate --trace %s/t.csv --cluster %s/c.json --failures %s/f.csv "
             "--startup-delay 2 --policy fcfs --out %s/o", dir, dir, dir, dir);
    assert_int_equal(run(args, 0), 0);
    snprintf(path, sizeof path, "trace: 2 jobs on 2 machines, 8 GPUs (%s/c.json)\n", dir);
    assert_non_null(strstr(out, path));
    assert_non_null(strstr(out, "fcfs: 1 device failures, 1 jobs killed and re-queued, 20.0 GPU-seconds lost"));
    assert_non_null(strstr(out, " gpu_util   frag qos_viol\n"));
    snprintf(path, sizeof path, "%s/o/trace-fcfs.csv", dir);
    char *csv = slurp(path);
    assert_non_null(csv);
    assert_non_null(strstr(csv, "\n0,a,done,4,0.000000,2.000000,12.000000,2.000000,10.000000,"));
    assert_non_null(strstr(csv, "\n1,b,done,4,0.000000,14.000000,24.000000,14.000000,10.000000,"));
    snprintf(path, sizeof path, "%s/o/trace-fcfs-timeline.csv", dir);
    csv = slurp(path);
    assert_non_null(csv);
    assert_int_equal(strncmp(csv, "time,running,queued,gpus_used,gpus_failed,gpu_util,", 51), 0);
    assert_non_null(strstr(csv, "\n5.000000,1,1,4,1,0.500000,")); /* a runs, b queued, 1 GPU down */

    /* Errors: the trace's file and line, the cluster's loader, usage. */
    snprintf(path, sizeof path, "%s/bad.csv", dir);
    write_file(path, "arrival,gpus\n0,two\n");
    snprintf(args, sizeof args, "simulate --trace %s --policy fcfs", path);
    assert_int_equal(run(args, 1), 1);
    snprintf(path, sizeof path, "%s/bad.csv:2: column 'gpus': expected a number, got 'two'", dir);
    assert_non_null(strstr(out, path));
    snprintf(args, sizeof args, "simulate --trace %s/t.csv --cluster %s/c.json --machines 3", dir, dir);
    assert_int_equal(run(args, 1), 2);
    assert_non_null(strstr(out, "not with --cluster"));
    snprintf(args, sizeof args, "simulate --trace %s/t.csv --cluster %s/nope.json", dir, dir);
    assert_int_equal(run(args, 1), 1);
    snprintf(args, sizeof args, "simulate --trace %s/t.csv --startup-delay -1", dir);
    assert_int_equal(run(args, 1), 2);
    /* Issue 25: times beyond 1e10 s lost precision (--interval 1e17 gave a
     * 10 s job a run time of 16 s, 1e308 an infinite turnaround, exit 0). */
    static const char *const big[] = {"--interval 1e17", "--interval 1e308", "--interval inf",
                                      "--startup-delay 1e18"};
    for (int i = 0; i < 4; i++) {
        snprintf(args, sizeof args, "simulate --trace %s/t.csv %s", dir, big[i]);
        assert_int_equal(run(args, 1), 2);
        assert_non_null(strstr(out, "[0, 1e10]"));
    }
    snprintf(path, sizeof path, "%s/f2.csv", dir);
    write_file(path, "time,gpu\n1,gpu9\n");
    snprintf(args, sizeof args, "simulate --trace %s/t.csv --failures %s", dir, path);
    assert_int_equal(run(args, 1), 1);
    assert_non_null(strstr(out, "f2.csv:2: column 'gpu': no vertex 'gpu9'"));
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    assert_int_equal(system(args), 0);
}

/* The progress bar: on stderr only when it is a terminal (a pseudo-terminal
 * from script(1) here), never on a pipe, and not with --quiet. */
static void test_progress_bar(void **s)
{
    (void)s;
    assert_int_equal(run("simulate --scenario sc17-s1 --policy fcfs", 1), 0);
    assert_null(strstr(out, "jobs, t ="));
    assert_null(strchr(out, '\r'));
    const char *bin = getenv("PL_PLACEMENT_BIN");
    if (!bin || system("command -v script > /dev/null 2>&1") != 0) {
        skip();
        return;
    }
    char cmd[PL_PATH_MAX + 256];
    snprintf(cmd, sizeof cmd, "script -qec '%s simulate --scenario sc17-s1 --policy fcfs,bf > /dev/null' /dev/null",
             bin);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    assert_non_null(strstr(out, "\r[1/2] sc17-s1: fcfs "));
    assert_non_null(strstr(out, "\r[2/2] sc17-s1: bf "));
    assert_non_null(strstr(out, "[##############################] 100.0% 100/100 jobs, t = "));
    snprintf(cmd, sizeof cmd, "script -qec '%s simulate --scenario sc17-s1 --policy fcfs --quiet > /dev/null' /dev/null",
             bin);
    p = popen(cmd, "r");
    assert_non_null(p);
    n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    pclose(p);
    assert_null(strstr(out, "jobs, t ="));
}

/* --utility picks the form by name: on sc17-s1 topo-aware-p postpones
 * crossing pairs in the artifact's form (1401.7 s) and never in the default
 * paper form, where it equals topo-aware (1397.7 s; doc/results.md). */
static void test_simulate_utility_form(void **s)
{
    (void)s;
    assert_int_equal(run("simulate --scenario sc17-s1 --policy topo-aware-p --quiet", 0), 0);
    assert_non_null(strstr(out, "\ntopo-aware-p      1397.7 "));
    assert_int_equal(run("simulate --scenario sc17-s1 --policy topo-aware-p --quiet --utility paper", 0), 0);
    assert_non_null(strstr(out, "\ntopo-aware-p      1397.7 "));
    assert_int_equal(run("simulate --scenario sc17-s1 --policy topo-aware-p --quiet --utility artifact", 0), 0);
    assert_non_null(strstr(out, "\ntopo-aware-p      1401.7 "));
    assert_int_equal(run("simulate --scenario sc17-s1 --utility best", 1), 2);
    assert_non_null(strstr(out, "--utility wants 'paper' or 'artifact'"));
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
    /* Issue 25: the OOM killer ended this one. */
    assert_int_equal(run("simulate --scenario sc17-s2 --jobs 100000000", 1), 2);
    assert_non_null(strstr(out, "--jobs wants at most 1000000"));
    /* Issue 25: strtoull took -1 as 2^64 - 1 and saturated a 20-digit seed. */
    assert_int_equal(run("simulate --scenario sc17-proto --seed -1", 1), 2);
    assert_non_null(strstr(out, "--seed wants an integer in 0..18446744073709551615"));
    assert_int_equal(run("simulate --scenario sc17-proto --seed 99999999999999999999", 1), 2);
    assert_non_null(strstr(out, "--seed wants an integer"));
    assert_int_equal(run("place --builtin minsky --jobs nosuch.json --seed -1", 1), 2);
    assert_non_null(strstr(out, "--seed wants an integer"));
    assert_int_equal(run("simulate --scenario sc17-proto extra", 1), 2);
    assert_int_equal(run("simulate --help", 0), 0);
    assert_non_null(strstr(out, "sc17-proto sc17-table1 sc17-s1 sc17-s2"));
}

static void test_demo(void **s)
{
    (void)s;
    char dir[64], args[256];
    make_tmp(dir);
    snprintf(args, sizeof args, "demo --out %s", dir);
    assert_int_equal(run(args, 0), 0);
    assert_non_null(strstr(out, "== sc17-proto"));
    assert_non_null(strstr(out, "== sc17-table1"));
    assert_non_null(strstr(out, "== sc17-s1"));
    /* The Table 1 block: topo-aware-p 1.2x or more ahead of fcfs and bf. */
    const char *b = strstr(out, "== sc17-table1");
    const char *speed = strstr(b, "ours_speedup");
    assert_non_null(speed);
    static const char *const pols[] = {"\nfcfs ", "\nbf ", "\ntopo-aware "};
    for (int p = 0; p < 3; p++) {
        const char *l = strstr(speed, pols[p]);
        assert_non_null(l);
        double ours = 0, art = 0, paper = 0, x = 0;
        char name[32];
        assert_int_equal(sscanf(l + 1, "%31s %lf %lf %lf %lfx", name, &ours, &art, &paper, &x), 5);
        if (!(x >= 1.2))
            fail_msg("sc17-table1: %s speedup %.2fx < 1.2x", name, x);
    }
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
        cmocka_unit_test(test_simulate_utility_form),
        cmocka_unit_test(test_simulate_trace_cluster_failures),
        cmocka_unit_test(test_progress_bar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

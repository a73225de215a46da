/* `placement slurm-conf`, run as a user would: the exact files for a 4-node
 * Minsky cluster (checked by hand against doc/topology-builtin.md: 2 sockets
 * of 10 cores, 2 x 256 GiB, GPU pairs 0-1 and 2-3 on 2 NVLink bricks of
 * 20 GB/s each, nothing but the X-Bus across sockets), the same from the
 * equivalent JSON, and the errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../common/testutil.h"

static char out[1 << 16];

static int run(const char *args, int merge)
{
    return pl_test_run_cli(NULL, args, merge, out, sizeof out);
}

static const char want_slurm[] =
    "# slurm.conf lines written by placement slurm-conf (doc/slurm.md)\n"
    "GresTypes=gpu\n"
    "NodeName=node0 CPUs=20 Sockets=2 CoresPerSocket=10 ThreadsPerCore=1 RealMemory=524288"
    " Gres=gpu:idx0:1,gpu:idx1:1,gpu:idx2:1,gpu:idx3:1 State=UNKNOWN\n"
    "NodeName=node1 CPUs=20 Sockets=2 CoresPerSocket=10 ThreadsPerCore=1 RealMemory=524288"
    " Gres=gpu:idx0:1,gpu:idx1:1,gpu:idx2:1,gpu:idx3:1 State=UNKNOWN\n"
    "NodeName=node2 CPUs=20 Sockets=2 CoresPerSocket=10 ThreadsPerCore=1 RealMemory=524288"
    " Gres=gpu:idx0:1,gpu:idx1:1,gpu:idx2:1,gpu:idx3:1 State=UNKNOWN\n"
    "NodeName=node3 CPUs=20 Sockets=2 CoresPerSocket=10 ThreadsPerCore=1 RealMemory=524288"
    " Gres=gpu:idx0:1,gpu:idx1:1,gpu:idx2:1,gpu:idx3:1 State=UNKNOWN\n";

#define GRES_NODE(n)                                                                    \
    "NodeName=" n " Name=gpu Type=idx0 File=/dev/nvidia0 Cores=0-9 Links=-1,2,0,0\n"    \
    "NodeName=" n " Name=gpu Type=idx1 File=/dev/nvidia1 Cores=0-9 Links=2,-1,0,0\n"    \
    "NodeName=" n " Name=gpu Type=idx2 File=/dev/nvidia2 Cores=10-19 Links=0,0,-1,2\n"  \
    "NodeName=" n " Name=gpu Type=idx3 File=/dev/nvidia3 Cores=10-19 Links=0,0,2,-1\n"

static const char want_gres[] =
    "# gres.conf written by placement slurm-conf: GPU K of a node is Type=idxK,\n"
    "# Links= counts NVLinks (units of 20000000000 bytes/s), 0 = no NVLink between them\n"
    GRES_NODE("node0") GRES_NODE("node1") GRES_NODE("node2") GRES_NODE("node3");

static const char want_topology[] =
    "# topology.conf written by placement slurm-conf (TopologyPlugin=topology/tree)\n"
    "SwitchName=rack0 Nodes=node[0-1]\n"
    "SwitchName=rack1 Nodes=node[2-3]\n"
    "SwitchName=cluster Switches=rack[0-1]\n";

static void assert_file(const char *dir, const char *name, const char *want)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char got[1 << 16];
    size_t n = fread(got, 1, sizeof got - 1, f);
    got[n] = '\0';
    fclose(f);
    if (strcmp(got, want))
        fail_msg("%s differs:\n--- got\n%s--- want\n%s", name, got, want);
}

static void remove_dir(const char *dir)
{
    static const char *const names[] = {"slurm.conf", "gres.conf", "topology.conf"};
    char path[512];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        remove(path);
    }
    rmdir(dir);
}

static void assert_minsky4(const char *args)
{
    char dir[] = "/tmp/pl_slurm_XXXXXX", cmd[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "slurm-conf %s --out %s", args, dir);
    assert_int_equal(run(cmd, 1), 0);
    assert_file(dir, "slurm.conf", want_slurm);
    assert_file(dir, "gres.conf", want_gres);
    assert_file(dir, "topology.conf", want_topology);
    remove_dir(dir);
}

static void test_builtin_minsky4(void **s)
{
    (void)s;
    assert_minsky4("--builtin minsky --machines 4 --per-rack 2");
}

/* The JSON a site would write for the same cluster gives the same files:
 * the hook loads that JSON, so names and GPU order must agree. */
static void test_json_minsky4(void **s)
{
    (void)s;
    char path[PL_TEST_TMP_PATH], args[512];
    FILE *f = pl_test_tmpfile(path);
    fputs("{\"templates\": {\"m\": {\"builtin\": \"minsky\"}},\n"
          " \"racks\": [{\"machines\": [{\"template\": \"m\", \"count\": 2}]},\n"
          "           {\"machines\": [{\"template\": \"m\", \"count\": 2}]}]}\n", f);
    fclose(f);
    snprintf(args, sizeof args, "--json %s", path);
    assert_minsky4(args);
    remove(path);
}

/* To standard output: the three files one after the other; --untyped and
 * --device-prefix change only what they name. */
static void test_stdout_options(void **s)
{
    (void)s;
    assert_int_equal(run("slurm-conf --builtin minsky --untyped --device-prefix /tmp/fake/gpu"
                         " --nvlink-bw 40000000000", 0), 0);
    assert_non_null(strstr(out, "# ==> slurm.conf <==\n"));
    assert_non_null(strstr(out, "NodeName=machine CPUs=20 Sockets=2 CoresPerSocket=10"
                                " ThreadsPerCore=1 RealMemory=524288 Gres=gpu:4 State=UNKNOWN\n"));
    assert_non_null(strstr(out, "\n# ==> gres.conf <==\n"));
    assert_non_null(strstr(out, "NodeName=machine Name=gpu File=/tmp/fake/gpu2 Cores=10-19"
                                " Links=0,0,-1,1\n"));
    assert_non_null(strstr(out, "\n# ==> topology.conf <==\n"));
    assert_non_null(strstr(out, "SwitchName=machine-switch Nodes=machine\n"));
    assert_null(strstr(out, "Type="));
}

/* Machines without NVLink: every pair 0; DGX-1's cube mesh: 1 or 2 bricks. */
static void test_links(void **s)
{
    (void)s;
    assert_int_equal(run("slurm-conf --builtin 2s4g-pcie", 0), 0);
    assert_non_null(strstr(out, "Type=idx0 File=/dev/nvidia0 Cores=0-15 Links=-1,0,0,0\n"));
    assert_int_equal(run("slurm-conf --builtin dgx1 --nvlink-bw 25000000000", 0), 0);
    /* 6 NVLinks per GPU: 1 to two peers, 2 to two others, none to the
     * remaining three (reached only through another GPU). */
    assert_non_null(strstr(out, "Type=idx0 File=/dev/nvidia0 Cores=0-19 Links=-1,1,1,2,2,0,0,0\n"));
    assert_int_equal(run("slurm-conf --builtin dgx2", 0), 0);
    assert_non_null(strstr(out, "Type=idx15 File=/dev/nvidia15 "));
    assert_null(strstr(out, ",0,"));
}

static void test_errors(void **s)
{
    (void)s;
    assert_int_equal(run("slurm-conf", 1), 2);
    assert_non_null(strstr(out, "exactly one of --json, --builtin"));
    assert_int_equal(run("slurm-conf --builtin minsky --json x.json", 1), 2);
    assert_int_equal(run("slurm-conf --json x.json --machines 2", 1), 2);
    assert_non_null(strstr(out, "go with --builtin"));
    assert_int_equal(run("slurm-conf --builtin minsky --machines 0", 1), 2);
    assert_non_null(strstr(out, "--machines wants an integer"));
    assert_int_equal(run("slurm-conf --builtin minsky extra", 1), 2);
    assert_int_equal(run("slurm-conf --builtin nosuch", 1), 1);
    assert_non_null(strstr(out, "placement slurm-conf: "));
    assert_int_equal(run("slurm-conf --json /nonexistent.json", 1), 1);
    assert_int_equal(run("slurm-conf --builtin minsky --out /nonexistent/dir/x", 1), 1);
    assert_non_null(strstr(out, "cannot create /nonexistent/dir/x"));
    assert_int_equal(run("slurm-conf --help", 0), 0);
    assert_non_null(strstr(out, "usage: placement slurm-conf"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_minsky4), cmocka_unit_test(test_json_minsky4),
        cmocka_unit_test(test_stdout_options),  cmocka_unit_test(test_links),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Workload traces: the CSV and JSON forms, SC17 detection, errors with
 * file, line and column, priorities in the queue, CPU-only jobs, NVMe
 * demands (doc/simulator.md sec. 6b). */
#include <unistd.h>
#include "simtest.h"

static pl_sim_trace *load(const char *text)
{
    pl_sim_trace *t = NULL;
    assert_pl_ok(pl_sim_trace_load_string(text, 0, "test.csv", &t));
    return t;
}

static pl_sim_result *run_trace(const pl_topology *topo, const pl_sim_trace *t, const char *policy)
{
    pl_sim_opts o;
    pl_sim_opts_init(&o);
    o.policy.policy = policy;
    o.job_priority = pl_sim_trace_priorities(t);
    o.job_startup_delay = pl_sim_trace_startup_delays(t);
    return sim_run_opts(topo, pl_sim_trace_jobs(t), &o);
}

/* One Minsky, fcfs. a (4 GPUs, 10 s) at 0; b and c (2 GPUs, 5 s) at 1 and
 * 2; d (4 GPUs, 1 s, priority 5) at 3. At the round of 10 the queue is d,
 * b, c (priority first): d takes the machine 10-11, then b and c 11-16.
 * Without the priority it is b, c, d: b and c 10-15, d 15-16. */
static const char *const prio_csv = "name,arrival,gpus,duration,priority\n"
                                    "a,0,4,10,\n"
                                    "b,1,2,5,0\n"
                                    "c,2,2,5,0\n"
                                    "d,3,4,1,5\n";

static void test_priority_order(void **s)
{
    (void)s;
    pl_topology *topo = sim_minsky(1);
    pl_sim_trace *t = load(prio_csv);
    assert_string_equal(pl_sim_trace_format(t), "csv");
    assert_int_equal(pl_jobset_count(pl_sim_trace_jobs(t)), 4);
    assert_true(pl_sim_trace_priorities(t)[3] == 5 && pl_sim_trace_priorities(t)[0] == 0);
    pl_sim_result *r = run_trace(topo, t, "fcfs");
    assert_true(sim_rec(r, 3).start == 10 && sim_rec(r, 3).finish == 11);
    assert_true(sim_rec(r, 1).start == 11 && sim_rec(r, 2).start == 11);
    assert_true(sim_rec(r, 3).priority == 5);
    pl_sim_result_free(r);

    pl_sim_opts o;
    pl_sim_opts_init(&o);
    o.policy.policy = "fcfs";
    r = sim_run_opts(topo, pl_sim_trace_jobs(t), &o); /* no priorities */
    assert_true(sim_rec(r, 1).start == 10 && sim_rec(r, 2).start == 10);
    assert_true(sim_rec(r, 3).start == 15);
    pl_sim_result_free(r);
    pl_sim_trace_free(t);
    pl_topology_free(topo);
}

/* Every column, and the job it builds: cores and memory split over the
 * GPUs (remainder on task 0, as the SC17 loader), the rest as job fields. */
static void test_columns(void **s)
{
    (void)s;
    pl_sim_trace *t = load("arrival,tasks,cores,memory,profile,size,duration,slo,priority,min_utility,startup,name\n"
                           "1.5,2,5,3,bvlc_alexnet,4,60,90,-1,0.25,2,first\n"
                           "# a comment\n"
                           "\n"
                           "  7 , 0 , 8 , 16 , , , 30 , , , , , cpu \n");
    const pl_jobset *js = pl_sim_trace_jobs(t);
    assert_int_equal(pl_jobset_count(js), 2);
    const pl_job *a = pl_jobset_get(js, 0), *b = pl_jobset_get(js, 1);
    assert_string_equal(pl_job_name(a), "first");
    assert_int_equal(pl_job_task_count(a), 2);
    pl_task_demand d0, d1;
    assert_pl_ok(pl_job_task(a, 0, &d0));
    assert_pl_ok(pl_job_task(a, 1, &d1));
    assert_true(d0.gpus == 1 && d0.cores == 3 && d1.cores == 2);
    assert_true(d0.memory == 1610612736 && d1.memory == 1610612736); /* 1.5 GiB each */
    assert_string_equal(pl_job_workload_type(a), "bvlc_alexnet");
    assert_string_equal(pl_job_workload_size(a), "4");
    assert_true(pl_job_arrival(a) == 1.5 && pl_job_duration(a) == 60 && pl_job_slo(a) == 90);
    assert_true(pl_job_min_utility(a) == 0.25);
    double traffic = 0;
    assert_pl_ok(pl_job_traffic(a, 0, 1, &traffic));
    assert_true(traffic == 3); /* batch 4: the SC17 rule, 4/3/2/1 */
    assert_true(pl_sim_trace_priorities(t)[0] == -1 && pl_sim_trace_startup_delays(t)[0] == 2);
    /* gpus 0: one CPU-only task. */
    assert_string_equal(pl_job_name(b), "cpu");
    assert_int_equal(pl_job_task_count(b), 1);
    assert_pl_ok(pl_job_task(b, 0, &d0));
    assert_true(d0.gpus == 0 && d0.cores == 8 && d0.memory == 16 * 1073741824LL);
    pl_sim_trace_free(t);
}

/* The JSON form of prio_csv gives the same run, byte for byte. */
static void test_json_form(void **s)
{
    (void)s;
    pl_topology *topo = sim_minsky(1);
    pl_sim_trace *c = load(prio_csv), *j = NULL;
    assert_pl_ok(pl_sim_trace_load_string("{\"jobs\": [\n"
                                          " {\"name\": \"a\", \"arrival\": 0, \"gpus\": 4, \"duration\": 10},\n"
                                          " {\"name\": \"b\", \"arrival\": 1, \"gpus\": 2, \"duration\": 5},\n"
                                          " {\"name\": \"c\", \"arrival\": 2, \"gpus\": 2, \"duration\": 5, \"priority\": 0},\n"
                                          " {\"name\": \"d\", \"arrival\": 3, \"tasks\": 4, \"duration\": 1, \"priority\": 5}\n"
                                          "]}", 0, NULL, &j));
    assert_string_equal(pl_sim_trace_format(j), "json");
    pl_sim_result *rc = run_trace(topo, c, "fcfs"), *rj = run_trace(topo, j, "fcfs");
    size_t lc, lj;
    char *a = sim_csv(pl_sim_result_write_csv, rc, &lc), *b = sim_csv(pl_sim_result_write_csv, rj, &lj);
    assert_int_equal(lc, lj);
    assert_memory_equal(a, b, lc);
    free(a);
    free(b);
    pl_sim_result_free(rc);
    pl_sim_result_free(rj);
    pl_sim_trace_free(j);
    /* A bare array works too. */
    assert_pl_ok(pl_sim_trace_load_string("[{\"arrival\": 0, \"gpus\": 1, \"duration\": 3}]", 0, NULL, &j));
    assert_int_equal(pl_jobset_count(pl_sim_trace_jobs(j)), 1);
    assert_string_equal(pl_job_name(pl_jobset_get(pl_sim_trace_jobs(j), 0)), "job0");
    pl_sim_trace_free(j);
    pl_sim_trace_free(c);
    pl_topology_free(topo);
}

static void test_sc17_detected(void **s)
{
    (void)s;
    char path[PL_PATH_MAX];
    pl_sim_trace *t = NULL;
    assert_pl_ok(pl_sim_trace_load(pl_test_data(path, "sc17/workloads-5.json"), &t));
    assert_string_equal(pl_sim_trace_format(t), "sc17");
    assert_int_equal(pl_jobset_count(pl_sim_trace_jobs(t)), 6);
    assert_true(pl_sim_trace_priorities(t)[5] == 0 && pl_sim_trace_startup_delays(t)[5] == 0);
    pl_sim_trace_free(t);
}

/* A CPU-only job (gpus 0) takes all 20 cores of the Minsky from 0 to 100:
 * the GPU job (1 core) cannot start before, though the 4 GPUs are free,
 * which the fragmentation sees (the reference job is the GPU job: 1 GPU, 1
 * core; the machine has no free core: all its free GPUs are stranded). */
static void test_cpu_only_jobs(void **s)
{
    (void)s;
    pl_topology *topo = sim_minsky(1);
    pl_sim_trace *t = load("arrival,gpus,cores,duration\n0,0,20,100\n1,1,1,10\n");
    pl_sim_result *r = run_trace(topo, t, "fcfs");
    pl_sim_job_record cpu = sim_rec(r, 0), gpu = sim_rec(r, 1);
    assert_true(cpu.start == 0 && cpu.finish == 100 && cpu.machine == 0);
    assert_true(gpu.start == 100 && gpu.finish == 110);
    pl_sim_sample p;
    assert_pl_ok(pl_sim_result_timeline(r, 0, &p));
    assert_true(p.time == 0 && p.core_util == 1 && p.gpus_used == 0 && p.fragmentation == 1);
    pl_sim_summary m = sim_sum(r);
    assert_true(fabs(m.mean_fragmentation - 100.0 / 110) < SIM_EPS);
    pl_sim_result_free(r);
    pl_sim_trace_free(t);

    /* More cores than any machine has: rejected, not waiting forever. */
    t = load("arrival,gpus,cores,duration\n0,0,21,100\n");
    r = run_trace(topo, t, "bf");
    assert_int_equal(sim_rec(r, 0).state, PL_SIM_REJECTED);
    pl_sim_result_free(r);
    pl_sim_trace_free(t);
    pl_topology_free(topo);
}

/* NVMe demands: storage_bw in MB/s and storage in GB (decimal), all of a
 * job's on task 0 (one volume, one device); cores still split. */
static void check_storage_jobs(const pl_sim_trace *t)
{
    const pl_jobset *js = pl_sim_trace_jobs(t);
    assert_int_equal(pl_jobset_count(js), 3);
    const pl_job *a = pl_jobset_get(js, 0), *b = pl_jobset_get(js, 1), *c = pl_jobset_get(js, 2);
    pl_task_demand d0, d1;
    assert_int_equal(pl_job_task_count(a), 2);
    assert_pl_ok(pl_job_task(a, 0, &d0));
    assert_pl_ok(pl_job_task(a, 1, &d1));
    assert_true(d0.storage_bw == 1500000000LL && d0.storage_bytes == 250000000000LL);
    assert_true(d1.storage_bw == 0 && d1.storage_bytes == 0);
    assert_true(d0.cores == 3 && d1.cores == 2);
    assert_pl_ok(pl_job_task(b, 0, &d0));
    assert_true(d0.storage_bw == 2500000 && d0.storage_bytes == 0); /* 2.5 MB/s, no bytes */
    assert_pl_ok(pl_job_task(c, 0, &d0));
    assert_true(d0.storage_bw == 0 && d0.storage_bytes == 0); /* neither given */
}

static void test_storage_columns(void **s)
{
    (void)s;
    pl_sim_trace *t = load("arrival,gpus,cores,storage_bw,storage\n"
                           "0,2,5,1500,250\n"
                           "1,1,0,2.5,\n"
                           "2,1,0,,\n");
    check_storage_jobs(t);
    pl_sim_trace_free(t);
    assert_pl_ok(pl_sim_trace_load_string("{\"jobs\": [\n"
                                          " {\"arrival\": 0, \"gpus\": 2, \"cores\": 5, \"storage_bw\": 1500, \"storage\": 250},\n"
                                          " {\"arrival\": 1, \"gpus\": 1, \"storage_bw\": 2.5},\n"
                                          " {\"arrival\": 2, \"gpus\": 1}\n"
                                          "]}", 0, NULL, &t));
    check_storage_jobs(t);
    pl_sim_trace_free(t);
}

/* One Minsky and a pool of ONE NVMe device, 2000 MB/s and 600 GB
 * (minsky-one-nvme.json). a (1 GPU, 10 s, 1500 MB/s) at 0 and b (1 GPU,
 * 5 s, 1200 MB/s) at 1 each need more than half of it: b waits for a
 * although 3 GPUs are free, and runs 10-15. nvme_util: 0.75 over [0, 10],
 * 0.6 over [10, 15]: mean 10.5/15. */
static void test_storage_run(void **s)
{
    (void)s;
    char path[PL_PATH_MAX];
    pl_topology *topo = NULL;
    assert_pl_ok(pl_topology_load_json(pl_test_data(path, "topologies/minsky-one-nvme.json"), &topo));
    pl_sim_trace *t = load("name,arrival,gpus,duration,storage_bw,storage\n"
                           "a,0,1,10,1500,100\n"
                           "b,1,1,5,1200,10\n");
    static const char *const policies[] = {"fcfs", "topo-aware"};
    for (int p = 0; p < 2; p++) {
        pl_sim_result *r = run_trace(topo, t, policies[p]);
        pl_sim_job_record a = sim_rec(r, 0), b = sim_rec(r, 1);
        assert_true(a.start == 0 && a.finish == 10);
        assert_true(b.start == 10 && b.finish == 15);
        pl_sim_summary m = sim_sum(r);
        assert_true(m.mean_nvme_util > 0);
        assert_true(fabs(m.mean_nvme_util - 10.5 / 15) < SIM_EPS);
        pl_sim_result_free(r);
    }
    pl_sim_trace_free(t);
    pl_topology_free(topo);
}

static void trace_error(const char *text, const char *want)
{
    pl_sim_trace *t = (pl_sim_trace *)1;
    assert_pl_status(pl_sim_trace_load_string(text, 0, "bad.csv", &t), PL_EPARSE);
    assert_null(t);
    if (!strstr(pl_last_error(), want))
        fail_msg("message '%s' lacks '%s'", pl_last_error(), want);
}

static void test_errors(void **s)
{
    (void)s;
    trace_error("arrival,gpus,colour\n", "bad.csv:1: unknown column 'colour' (known: name, arrival, gpus,");
    trace_error("gpus\n1\n", "bad.csv:1: missing column 'arrival'");
    trace_error("arrival\n1\n", "bad.csv:1: missing column 'gpus' (or 'tasks')");
    trace_error("arrival,gpus,tasks\n", "columns 'gpus' and 'tasks' are the same field");
    trace_error("arrival,gpus,type,profile\n", "columns 'type', 'profile' and 'workload' are the same field");
    trace_error("arrival,gpus\n0,1\n\n2,x\n", "bad.csv:4: column 'gpus': expected a number, got 'x'");
    trace_error("arrival,gpus\n0,1.5\n", "bad.csv:2: column 'gpus': expected a whole number, got '1.5'");
    trace_error("arrival,gpus\n0,5000\n", "bad.csv:2: column 'gpus': expected a number in [0, 4096]");
    trace_error("arrival,gpus\n-1,1\n", "bad.csv:2: column 'arrival': expected a number in [0,");
    trace_error("arrival,gpus\n,1\n", "bad.csv:2: column 'arrival': missing value");
    trace_error("arrival,gpus\nnan,1\n", "column 'arrival': expected a number, got 'nan'");
    trace_error("arrival,gpus,min_utility\n0,1,2\n", "column 'min_utility': expected a number in [0, 1]");
    trace_error("arrival,gpus,storage_bw\n0,1,-1\n", "bad.csv:2: column 'storage_bw': expected a number in [0,");
    trace_error("arrival,gpus,storage\n0,1,-0.5\n", "bad.csv:2: column 'storage': expected a number in [0,");
    trace_error("arrival,gpus,storage_bw\n0,1,nan\n", "bad.csv:2: column 'storage_bw': expected a number, got 'nan'");
    trace_error("arrival,gpus,storage\n0,1,NaN\n", "bad.csv:2: column 'storage': expected a number, got 'NaN'");
    trace_error("arrival,gpus,storage_bw\n0,1,1e13\n", "column 'storage_bw': expected a number in [0, 1e+12]");
    trace_error("{\"jobs\": [{\"arrival\": 0, \"gpus\": 1, \"storage_bw\": -1}]}", "bad.csv: $.jobs[0].storage_bw");
    trace_error("{\"jobs\": [{\"arrival\": 0, \"gpus\": 1, \"storage\": -2}]}", "bad.csv: $.jobs[0].storage");
    trace_error("{\"jobs\": [{\"arrival\": 0, \"gpus\": 1, \"storage\": \"5\"}]}", "bad.csv: $.jobs[0].storage");
    trace_error("arrival,gpus\n0,1,3\n", "bad.csv:2: 3 fields, the header has 2");
    trace_error("arrival,gpus,name\n0,1,\"x\"\n", "quoted fields are not supported");
    trace_error("", "bad.csv: empty (no header line)");
    trace_error("[{\"arrival\": 0}]", "bad.csv: $[0].gpus: missing");
    trace_error("{\"jobs\": [{\"arrival\": 0, \"gpus\": 1, \"colour\": 2}]}", "bad.csv: $.jobs[0]");
    trace_error("{\"jobs\": [{\"arrival\": 0, \"gpus\": -1}]}", "$.jobs[0].gpus");
    trace_error("{\"jobs\": [{\"arrival\": 0, \"gpus\": 1, \"tasks\": 1}]}", "\"gpus\" and \"tasks\" are the same field");
    trace_error("{\"jobs\": [{\"arrival\": 0, \"gpus\": 1, \"size\": 4}]}", "$.jobs[0].size: expected a string");
    trace_error("{\"jobs\": 3}", "$.jobs");
    trace_error("{\"jobs\": [\n{\"arrival\": 0,,}]}", "bad.csv:2:");
    trace_error("{\"0\": {\"arrival\": 0}}", "bad.csv: $[\"0\"].gpus");
    pl_sim_trace *t = NULL;
    assert_pl_status(pl_sim_trace_load("/nonexistent/trace.csv", &t), PL_EIO);
    assert_pl_status(pl_sim_trace_load_string(NULL, 0, NULL, &t), PL_EINVAL);
    assert_null(pl_sim_trace_jobs(NULL));
    assert_null(pl_sim_trace_format(NULL));

    /* The file's name and line in messages from a file. */
    char path[64] = "/tmp/pl_sim_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "arrival,gpus\n0,1\n1,-2\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    assert_pl_status(pl_sim_trace_load(path, &t), PL_EPARSE);
    char want[128];
    snprintf(want, sizeof want, "%s:3: column 'gpus'", path);
    assert_non_null(strstr(pl_last_error(), want));
    unlink(path);
}

/* Arbitrary bytes never crash the loader (the sanitizer build checks the
 * memory accesses): each is refused or read. */
static void test_garbage(void **s)
{
    (void)s;
    uint64_t x = 12345;
    char buf[257];
    for (int round = 0; round < 300; round++) {
        size_t n = (size_t)(round % 256) + 1;
        for (size_t i = 0; i < n; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            static const char alphabet[] = "arrival,gpus\n0123456789.,-e{}[]\":# \tcores";
            buf[i] = round % 3 ? alphabet[(x >> 33) % (sizeof alphabet - 1)] : (char)(x >> 56);
        }
        pl_sim_trace *t = NULL;
        pl_status st = pl_sim_trace_load_string(buf, n, NULL, &t);
        assert_true(st == PL_OK || st == PL_EPARSE || st == PL_ELIMIT);
        assert_true((st == PL_OK) == (t != NULL));
        pl_sim_trace_free(t);
    }
}

/* Issue 25: a spreadsheet's UTF-8 byte order mark before the header gave
 * "unknown column '\ufeffarrival'", the BOM invisible in the message. */
static void test_byte_order_mark(void **s)
{
    (void)s;
    pl_sim_trace *t = NULL;
    assert_pl_ok(pl_sim_trace_load_string("\xef\xbb\xbf" "arrival,gpus,duration\n2,1,5\n", 0, "bom.csv", &t));
    const pl_jobset *js = pl_sim_trace_jobs(t);
    assert_int_equal(pl_jobset_count(js), 1);
    assert_true(pl_job_arrival(pl_jobset_get(js, 0)) == 2.0);
    pl_sim_trace_free(t);
    char path[PL_PATH_MAX];
    assert_pl_ok(pl_sim_trace_load(pl_test_data(path, "fuzz/fuzz_sim_trace/bom-header.csv"), &t));
    assert_int_equal(pl_jobset_count(pl_sim_trace_jobs(t)), 1);
    pl_sim_trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_priority_order), cmocka_unit_test(test_columns),
        cmocka_unit_test(test_json_form),      cmocka_unit_test(test_sc17_detected),
        cmocka_unit_test(test_cpu_only_jobs),  cmocka_unit_test(test_errors),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_byte_order_mark),
        cmocka_unit_test(test_storage_columns),
        cmocka_unit_test(test_storage_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

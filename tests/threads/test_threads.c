/* The thread-safety rule (doc/guide.md, "Threads"): distinct handles are
 * independent, handles only read may be shared, the registries may be used
 * concurrently, errors are per thread. NTHREADS threads each build and solve
 * their own flow networks with every registered solver, load the builtin
 * machines and topology files (hwloc XML, JSON), place the SC17 workload
 * with every policy (from a job set of their own, then from one job set and
 * one profile set all threads share read-only) and run the simulator, while
 * registering and removing solvers and policies of their own; every answer
 * must equal the one the main thread computed alone beforehand.
 * tools/tsan.sh runs this suite under ThreadSanitizer. */
#include <hwloc.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/testutil.h"

#define NTHREADS 8
#define N_NETWORKS 40
#define MAX_ANSWERS 20000
#define LABEL_MAX 64

/* Every answer of one run of the workload, in a fixed order; labels say what
 * each is so that a mismatch names it. */
typedef struct answers {
    int n;
    double value[MAX_ANSWERS];
    char label[MAX_ANSWERS][LABEL_MAX];
    int failed;               /* a call that should work did not */
    char failure[4 * PL_PATH_MAX];
} answers;

static void record(answers *a, double v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void record(answers *a, double v, const char *fmt, ...)
{
    if (a->n == MAX_ANSWERS) {
        a->failed = 1;
        snprintf(a->failure, sizeof a->failure, "more than %d answers", MAX_ANSWERS);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->label[a->n], LABEL_MAX, fmt, ap);
    va_end(ap);
    a->value[a->n++] = v;
}

/* Threads may not call cmocka's assertions, so failures are kept and
 * reported by the main thread. */
static int check(answers *a, pl_status st, const char *what)
{
    if (st == PL_OK)
        return 1;
    if (!a->failed) {
        a->failed = 1;
        snprintf(a->failure, sizeof a->failure, "%s: %s: %s", what, pl_status_name(st), pl_last_error());
    }
    return 0;
}

/* ---- flow networks ----------------------------------------------------------- */

static void solve_networks(answers *a)
{
    pl_randnet_opts o;
    pl_randnet_opts_init(&o);
    pl_test_rng rng = {2026};
    for (int i = 0; i < N_NETWORKS; i++) {
        pl_flownet *net = pl_randnet(&rng, &o);
        if (!net) {
            check(a, PL_ENOMEM, "pl_randnet");
            return;
        }
        for (int s = 0; s < pl_solver_count(); s++) {
            /* Other threads' user solvers come and go (registry_churn). */
            const pl_solver_ops *ops = pl_solver_at(s);
            if (!ops || strncmp(ops->name, "user-", 5) == 0)
                continue;
            const char *name = ops->name;
            int64_t cost = 0;
            pl_status st = pl_test_solve(net, name, &cost);
            record(a, st, "network %d %s status", i, name);
            record(a, st == PL_OK ? (double)cost : 0, "network %d %s cost", i, name);
        }
        pl_flownet_free(net);
    }
}

/* ---- topologies ---------------------------------------------------------------- */

static void load_builtins(answers *a)
{
    for (const char *const *name = pl_topology_builtin_names(); *name; name++) {
        pl_topology *t = NULL;
        if (!check(a, pl_topology_builtin(*name, &t), *name))
            return;
        int32_t nv = pl_topology_vertex_count(t);
        record(a, nv, "%s vertices", *name);
        record(a, pl_topology_link_count(t), "%s links", *name);
        int64_t d = 0;
        check(a, pl_topology_distance(t, 0, nv - 1, &d), "pl_topology_distance");
        record(a, (double)d, "%s distance 0..%d", *name, (int)nv - 1);
        pl_topology_free(t);
    }
}

/* hwloc XML exports and JSON cluster files, through hwloc and jansson. */
static void load_files(answers *a, const char *const *files)
{
    for (int i = 0; files[i]; i++) {
        pl_topology *t = NULL;
        size_t k = strlen(files[i]);
        pl_status st = k > 4 && strcmp(files[i] + k - 4, ".xml") == 0 ? pl_topology_load_xml(files[i], &t)
                                                                       : pl_topology_load_json(files[i], &t);
        if (!check(a, st, files[i]))
            return;
        record(a, pl_topology_vertex_count(t), "file %d vertices", i);
        record(a, pl_topology_link_count(t), "file %d links", i);
        pl_topology_free(t);
    }
}

/* ---- policies ------------------------------------------------------------------ */

static uint64_t fnv(uint64_t h, int64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (uint64_t)(v >> (8 * i)) & 0xff;
        h *= 1099511628211u;
    }
    return h;
}

/* One policy call over the whole workload on a fresh 5-Minsky cluster, then
 * applied: records every decision (kind, GPUs, utility) and the free GPUs left. */
static void place_once(answers *a, const char *policy, const pl_jobset *js, const pl_profile_set *prof)
{
    pl_topology *m = NULL, *c = NULL;
    if (!check(a, pl_topology_builtin("minsky", &m), "minsky") ||
        !check(a, pl_topology_cluster(m, 5, 5, 0, &c), "pl_topology_cluster")) {
        pl_topology_free(m);
        return;
    }
    int32_t nq = pl_jobset_count(js);
    pl_job **queue = calloc((size_t)nq, sizeof *queue);
    for (int32_t i = 0; i < nq; i++)
        queue[i] = pl_jobset_get(js, i);
    pl_policy_opts opts;
    pl_policy_opts_init(&opts);
    opts.policy = policy;
    opts.profiles = prof;
    pl_decision *d = NULL;
    if (check(a, pl_policy_place(&opts, c, NULL, 0, queue, nq, &d), policy)) {
        uint64_t h = 14695981039346656037u;
        int placed = 0;
        for (int32_t i = 0; i < nq; i++) {
            pl_decision_info info;
            check(a, pl_decision_get(d, i, &info), "pl_decision_get");
            h = fnv(h, info.kind);
            for (int32_t g = 0; g < info.ngpus; g++)
                h = fnv(h, info.gpus[g]);
            placed += info.kind == PL_DECISION_PLACED;
            record(a, info.utility, "%s job %d utility", policy, (int)i);
        }
        record(a, (double)(h >> 12), "%s decision hash", policy);
        record(a, placed, "%s placed", policy);
        check(a, pl_decision_apply(d, queue, nq, c), "pl_decision_apply");
        int64_t cap = 0, free_gpus = 0;
        check(a, pl_topology_subtree_amount(c, 0, PL_VK_GPU, PL_RES_UNITS, &cap, &free_gpus),
              "pl_topology_subtree_amount");
        record(a, (double)(cap - free_gpus), "%s GPUs used", policy);
    }
    pl_decision_free(d);
    free(queue);
    pl_topology_free(c);
    pl_topology_free(m);
}

static void place_with_every_policy(answers *a, const pl_jobset *js, const pl_profile_set *prof)
{
    for (int p = 0; p < pl_policy_count(); p++) {
        const pl_policy_ops *ops = pl_policy_get(p);
        /* Other threads' user policies come and go: only built-in ones
         * give answers that do not depend on timing. */
        if (ops && strncmp(ops->name, "user-", 5) != 0)
            place_once(a, ops->name, js, prof);
    }
}

/* With a job set of this thread's own, then with the job set and profile
 * set every thread shares read-only (the documented exception to the rule). */
static void place_workload(answers *a, const char *workload, const pl_jobset *shared_js,
                           const pl_profile_set *shared_prof)
{
    pl_jobset *js = NULL;
    if (!check(a, pl_jobset_load_sc17(workload, &js), workload))
        return;
    place_with_every_policy(a, js, NULL);
    pl_jobset_free(js);
    place_with_every_policy(a, shared_js, shared_prof);
}

/* ---- simulator ------------------------------------------------------------------- */

static void simulate(answers *a, const char *scenario, const char *policy)
{
    pl_topology *t = NULL;
    pl_jobset *js = NULL;
    pl_sim *sim = NULL;
    pl_sim_result *res = NULL;
    pl_sim_opts opts;
    pl_sim_opts_init(&opts);
    opts.policy.policy = policy;
    if (check(a, pl_sim_scenario(scenario, NULL, &t, &js), scenario) &&
        check(a, pl_sim_create(t, js, &opts, &sim), "pl_sim_create") &&
        check(a, pl_sim_run(sim, &res), "pl_sim_run")) {
        pl_sim_summary sum;
        check(a, pl_sim_result_summary(res, &sum), "pl_sim_result_summary");
        record(a, sum.done, "%s %s done", scenario, policy);
        record(a, sum.makespan, "%s %s makespan", scenario, policy);
        record(a, sum.mean_wait, "%s %s mean wait", scenario, policy);
        record(a, sum.mean_slowdown, "%s %s mean slowdown", scenario, policy);
        for (int32_t i = 0; i < pl_sim_result_count(res); i++) {
            pl_sim_job_record r;
            check(a, pl_sim_result_job(res, i, &r), "pl_sim_result_job");
            record(a, r.start, "%s %s job %d start", scenario, policy, (int)i);
            record(a, r.finish, "%s %s job %d finish", scenario, policy, (int)i);
        }
    }
    pl_sim_result_free(res);
    pl_sim_free(sim);
    pl_jobset_free(js);
    pl_topology_free(t);
}

/* ---- one worker ------------------------------------------------------------------ */

static pl_status user_place(const pl_policy_request *req, pl_decision *out)
{
    (void)req;
    (void)out;
    return PL_OK;
}

static pl_status user_solve(const pl_flow_problem *p, const pl_solve_opts *opts, pl_flow_solution *out)
{
    (void)p;
    (void)opts;
    (void)out;
    return pl_solver_error(PL_EINTERNAL, "not a real solver");
}

/* Register and remove a solver and a policy of this thread's many times
 * while the other threads look names up and list the registries. */
/* The user entries each worker registers, per thread id (0 .. NTHREADS-1).
 * Static storage set up before the threads start, not a worker's stack:
 * another thread may take an entry from pl_solver_at() just before it is
 * unregistered and still read its name, so an ops struct must outlive its
 * registration (solver.h), and nothing may rewrite it meanwhile. */
static char churn_names[NTHREADS][32], own_names[NTHREADS][32];
static pl_solver_ops churn_solvers[NTHREADS];
static pl_policy_ops churn_policies[NTHREADS], own_policies[NTHREADS];

static void init_user_entries(void)
{
    for (int id = 0; id < NTHREADS; id++) {
        snprintf(churn_names[id], sizeof churn_names[id], "user-churn-%d", id);
        snprintf(own_names[id], sizeof own_names[id], "user-%d", id);
        churn_solvers[id] = (pl_solver_ops){.name = churn_names[id], .description = "test", .solve = user_solve};
        churn_policies[id] = (pl_policy_ops){.name = churn_names[id], .description = "test", .place = user_place};
        own_policies[id] = (pl_policy_ops){.name = own_names[id], .description = "test", .place = user_place};
    }
}

static void registry_churn(answers *a, int id)
{
    const char *name = churn_names[id];
    pl_solver_ops *const sops_p = &churn_solvers[id];
    pl_policy_ops *const pops_p = &churn_policies[id];
    for (int i = 0; i < 200 && !a->failed; i++) {
        const pl_solver_ops *so = NULL;
        const pl_policy_ops *po = NULL;
        check(a, pl_solver_register(sops_p), "pl_solver_register");
        check(a, pl_policy_register(pops_p), "pl_policy_register");
        check(a, pl_solver_find(name, &so), "pl_solver_find");
        check(a, pl_policy_find(name, &po), "pl_policy_find");
        if ((so != sops_p || po != pops_p) && !a->failed) {
            a->failed = 1;
            snprintf(a->failure, sizeof a->failure, "%s found as another entry", name);
        }
        check(a, pl_solver_find("ssp", &so), "pl_solver_find ssp");
        for (int k = 0; k < pl_policy_count(); k++)
            (void)pl_policy_get(k);
        check(a, pl_solver_unregister(name), "pl_solver_unregister");
        check(a, pl_policy_unregister(name), "pl_policy_unregister");
    }
}

typedef struct worker {
    int id;
    char workload[PL_PATH_MAX];
    char files[3][PL_PATH_MAX];
    const char *file_list[4];
    answers *out;
    pthread_barrier_t *barrier;  /* NULL for the single-thread reference */
    const pl_jobset *shared_jobs;
    const pl_profile_set *shared_profiles;
    pthread_t thread;
} worker;

/* Registers a policy of its own around the work, so the registry is written
 * while the other threads read it, and provokes an error of its own so that
 * pl_last_error() is shown to be per thread. */
static void *work(void *arg)
{
    worker *w = arg;
    answers *a = w->out;
    if (w->id >= 0)
        check(a, pl_policy_register(&own_policies[w->id]), "pl_policy_register");

    if (w->id >= 0)
        registry_churn(a, w->id);
    solve_networks(a);
    load_builtins(a);
    load_files(a, w->file_list);
    place_workload(a, w->workload, w->shared_jobs, w->shared_profiles);
    simulate(a, "sc17-proto", "topo-aware");
    simulate(a, "sc17-proto", "fcfs");
    simulate(a, "sc17-proto", "drmaestro");
    simulate(a, "sc17-s1", "topo-aware-p");

    /* Every worker sets its own error, then waits for all the others to
     * have set theirs: with a shared message only the last would survive. */
    char missing[64];
    snprintf(missing, sizeof missing, "no-such-machine-%d", w->id);
    pl_topology *t = NULL;
    if (pl_topology_builtin(missing, &t) != PL_ENOTFOUND)
        check(a, PL_EINTERNAL, "unknown builtin");
    if (w->barrier)
        pthread_barrier_wait(w->barrier);
    if (!strstr(pl_last_error(), missing) && !a->failed) {
        a->failed = 1;
        snprintf(a->failure, sizeof a->failure, "thread %d's error was overwritten: %s", w->id,
                 pl_last_error());
    }
    if (w->id >= 0) {
        registry_churn(a, w->id);
        check(a, pl_policy_unregister(own_names[w->id]), "pl_policy_unregister");
    }
    return NULL;
}

static void compare(const answers *want, const answers *got, int thread)
{
    if (got->failed)
        fail_msg("thread %d: %s", thread, got->failure);
    if (got->n != want->n)
        fail_msg("thread %d: %d answers, single thread %d", thread, got->n, want->n);
    for (int i = 0; i < want->n; i++)
        if (memcmp(&got->value[i], &want->value[i], sizeof(double)) != 0)
            fail_msg("thread %d: %s = %.17g, single thread %.17g", thread, want->label[i],
                     got->value[i], want->value[i]);
}

static double answer(const answers *a, const char *label)
{
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->label[i], label) == 0)
            return a->value[i];
    fail_msg("no answer \"%s\"", label);
    return NAN;
}

/* The single-thread reference must itself be right, or agreeing with it
 * proves nothing: every solver gives the same status and cost per network,
 * and the outcomes include optimal and failed solves. */
static void check_reference(const answers *ref)
{
    if (ref->failed)
        fail_msg("single thread: %s", ref->failure);
    int ns = pl_solver_count(), optimal = 0, other = 0;
    assert_true(ns >= 5);
    for (int i = 0; i < N_NETWORKS; i++) {
        const double *first = &ref->value[2 * ns * i];
        for (int s = 1; s < ns; s++) {
            const double *v = &ref->value[2 * (ns * i + s)];
            if (v[0] != first[0] || v[1] != first[1])
                fail_msg("network %d: %s gives %g/%g, %s %g/%g", i, pl_solver_at(s)->name, v[0], v[1],
                         pl_solver_at(0)->name, first[0], first[1]);
        }
        if (first[0] == PL_OK)
            optimal++;
        else
            other++;
    }
    assert_true(optimal >= N_NETWORKS / 4);
    assert_true(other >= 1);
    /* Minsky: 2 packages + 2 NUMA nodes + 4 GPUs under the machine root. */
    assert_true(answer(ref, "minsky vertices") >= 9);
    /* workloads-100 asks for 162 GPUs; 5 Minsky machines have 20. */
    assert_true(answer(ref, "fcfs GPUs used") > 0);
    assert_true(answer(ref, "fcfs GPUs used") <= 20);
    assert_true(answer(ref, "sc17-proto topo-aware done") == 6);
    assert_true(answer(ref, "sc17-s1 topo-aware-p done") == 100);
}

static void test_threads_agree_with_one_thread(void **state)
{
    (void)state;
    int policies = pl_policy_count(), solvers = pl_solver_count();
    worker *w = calloc(NTHREADS + 1, sizeof *w);
    answers *out = calloc(NTHREADS + 1, sizeof *out);
    assert_non_null(w);
    assert_non_null(out);
    char path[PL_PATH_MAX];
    pl_jobset *shared_jobs = NULL;
    pl_profile_set *shared_profiles = NULL;
    assert_pl_ok(pl_jobset_load_sc17(pl_test_data(path, "sc17/workloads-100.json"), &shared_jobs));
    assert_pl_ok(pl_profile_set_builtin(&shared_profiles));
    for (int t = 0; t <= NTHREADS; t++) {
        w[t].id = t == NTHREADS ? -1 : t;
        w[t].out = &out[t];
        w[t].shared_jobs = shared_jobs;
        w[t].shared_profiles = shared_profiles;
        pl_test_data(w[t].workload, "sc17/workloads-100.json");
        w[t].file_list[0] = pl_test_data(w[t].files[0], "topologies/power8gpudistances.xml");
        w[t].file_list[1] = pl_test_data(w[t].files[1], "topologies/nvidiaDGX2.xml");
        w[t].file_list[2] = pl_test_data(w[t].files[2], "topologies/cluster-small.json");
        w[t].file_list[3] = NULL;
    }
    /* hwloc tears its XML plugin down, and with it libxml2's per-thread
     * state handling (xmlCleanupParser), whenever its last topology is
     * destroyed; a thread that read XML and exits after that leaks its
     * libxml2 state (tools/valgrind.supp). A long-lived process keeps
     * hwloc initialised across its threads' lifetimes; so does this test. */
    hwloc_topology_t keep;
    assert_int_equal(hwloc_topology_init(&keep), 0);
    /* The reference runs alone, without a user policy of its own. */
    work(&w[NTHREADS]);
    pthread_barrier_t barrier;
    assert_int_equal(pthread_barrier_init(&barrier, NULL, NTHREADS), 0);
    for (int t = 0; t < NTHREADS; t++)
        w[t].barrier = &barrier;
    check_reference(&out[NTHREADS]);
    init_user_entries();
    for (int t = 0; t < NTHREADS; t++)
        assert_int_equal(pthread_create(&w[t].thread, NULL, work, &w[t]), 0);
    for (int t = 0; t < NTHREADS; t++)
        assert_int_equal(pthread_join(w[t].thread, NULL), 0);
    for (int t = 0; t < NTHREADS; t++)
        compare(&out[NTHREADS], &out[t], t);
    pthread_barrier_destroy(&barrier);
    /* Every user entry was removed again. */
    assert_int_equal(pl_policy_count(), policies);
    assert_int_equal(pl_solver_count(), solvers);
    hwloc_topology_destroy(keep);
    pl_jobset_free(shared_jobs);
    pl_profile_set_free(shared_profiles);
    free(w);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_agree_with_one_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

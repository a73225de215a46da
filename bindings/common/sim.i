/* placement/sim.h: the trace-driven simulator (doc/simulator.md).
 *
 * Lifetime: pl_sim_create() borrows the job set for the life of the
 * simulator and of every result (the records' names point into its jobs).
 * A Sim therefore runs on its own copy of the set, shared by reference
 * count with the SimResults it returns: a result stays valid after its
 * simulator, topology and job set are collected. The topology is copied by
 * the library. The ProfileSet (optional) is borrowed: the idiomatic layers
 * (placement.Simulator in both languages) keep it alive with the Sim.
 *
 * Records are copied out (SimRecord owns its name), the summary is returned
 * by value, so no script-side object points into another. */

%{
#include <errno.h>

typedef struct plb_shared_jobs {
    pl_jobset *jobs;
    int refs;
} plb_shared_jobs;

typedef struct Sim {
    pl_sim *sim;
    plb_shared_jobs *jobs;
    char *policy; /* pl_sim_create() copies the options but not the name they point to */
} Sim;

typedef struct SimResult {
    pl_sim_result *res;
    plb_shared_jobs *jobs;
} SimResult;

/* One job's record, owning its name (the C record borrows it from the job). */
typedef struct SimRecord {
    int32_t job;
    char *name;
    const char *state;
    int32_t ngpus;
    double arrival, start, finish, wait, run_time, ideal_time, slowdown, utility, min_utility;
    bool below_min_utility, cross_socket;
    int32_t machine;
} SimRecord;

typedef pl_sim_summary SimSummary;

/* Both halves of a built-in scenario until the script takes them. */
typedef struct Scenario {
    pl_topology *topo;
    pl_jobset *jobs;
} Scenario;

static void plb_shared_jobs_release(plb_shared_jobs *s)
{
    if (s && --s->refs == 0) {
        pl_jobset_free(s->jobs);
        free(s);
    }
}

/* A copy of every job of src, so the simulator does not borrow the caller's set. */
static plb_shared_jobs *plb_shared_jobs_copy(const JobSet *src)
{
    plb_shared_jobs *s = calloc(1, sizeof *s);
    if (!s) {
        plb_status = pl_solver_error(PL_ENOMEM, "out of memory");
        return NULL;
    }
    s->refs = 1;
    pl_status st = pl_jobset_create(&s->jobs);
    for (int32_t i = 0; st == PL_OK && i < pl_jobset_count(src); i++) {
        Job *c = NULL;
        st = pl_job_copy(pl_jobset_get(src, i), &c);
        if (st == PL_OK) {
            st = pl_jobset_add(s->jobs, c, NULL);
            if (st != PL_OK)
                pl_job_free(c);
        }
    }
    if (st != PL_OK) {
        plb_status = st;
        plb_shared_jobs_release(s);
        return NULL;
    }
    return s;
}

static const char *plb_sim_state_name(pl_sim_job_state s)
{
    static const char *const names[] = { "done", "rejected", "unfinished" };
    return (unsigned)s < 3 ? names[s] : "?";
}

static pl_status plb_result_csv(const void *res, FILE *f)
{
    return pl_sim_result_write_csv(res, f);
}
%}

%rename(SimRuntime) pl_sim_runtime;
typedef enum pl_sim_runtime { PL_SIM_RUNTIME_PROGRESS = 0, PL_SIM_RUNTIME_ARTIFACT = 1 } pl_sim_runtime;

%newobject Sim::run;
%newobject SimResult::record;
%newobject SimResult::summary;
%newobject SimResult::csv;
%newobject Scenario::take_topology;
%newobject Scenario::take_jobs;

typedef struct {} Sim;
%nodefaultctor SimResult;
typedef struct {} SimResult;
%nodefaultctor Scenario;
typedef struct {} Scenario;

/* Read-only snapshots. */
%immutable;
%nodefaultctor SimRecord;
typedef struct {
    int32_t job;
    char *name;
    const char *state;      /* "done", "rejected" or "unfinished" */
    int32_t ngpus;
    double arrival, start, finish, wait, run_time, ideal_time, slowdown, utility, min_utility;
    bool below_min_utility, cross_socket;
    int32_t machine;
} SimRecord;

%nodefaultctor SimSummary;
typedef struct {
    int32_t jobs, done, rejected, unfinished;
    double makespan, mean_wait, max_wait, mean_turnaround, mean_slowdown, max_slowdown;
    int32_t slower_than_ideal, below_min_utility, slo_violations;
    int64_t rounds;
    double decision_mean, decision_p50, decision_p90, decision_p99, decision_max, wall_time;
} SimSummary;
%mutable;

%extend SimRecord {
    ~SimRecord() { free($self->name); free($self); }
}
%extend SimSummary {
    ~SimSummary() { free($self); }
}

%extend Sim {
    /** A simulator of jobs (copied) arriving on topo (copied) under a named
     *  policy. profiles NULL: the builtin SC17 profiles (borrowed otherwise). */
    Sim(const Topology *topo, const JobSet *jobs, const char *policy = "topo-aware",
        uint64_t seed = 1, double interval = 1.0, pl_sim_runtime runtime = PL_SIM_RUNTIME_PROGRESS,
        const ProfileSet *profiles = NULL, int32_t max_placed = 0, double network_load = 0)
    {
        if (!topo || !jobs)
            PLB_FAIL(PL_EINVAL, NULL, "Sim: topology and jobs are required");
        Sim *s = calloc(1, sizeof *s);
        if (!s)
            PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
        s->policy = strdup(policy ? policy : "topo-aware");
        s->jobs = plb_shared_jobs_copy(jobs);
        if (!s->policy || !s->jobs) {
            if (!s->policy)
                plb_status = pl_solver_error(PL_ENOMEM, "out of memory");
            plb_shared_jobs_release(s->jobs);
            free(s->policy);
            free(s);
            return NULL;
        }
        pl_sim_opts o;
        pl_sim_opts_init(&o);
        o.policy.policy = s->policy;
        o.policy.seed = seed;
        o.policy.profiles = profiles;
        o.policy.max_placed = max_placed;
        o.policy.network_load = network_load;
        o.interval = interval;
        o.runtime = runtime;
        pl_status st = pl_sim_create(topo, s->jobs->jobs, &o, &s->sim);
        if (st != PL_OK) {
            plb_status = st;
            plb_shared_jobs_release(s->jobs);
            free(s->policy);
            free(s);
            return NULL;
        }
        return s;
    }
    ~Sim()
    {
        pl_sim_free($self->sim);
        plb_shared_jobs_release($self->jobs);
        free($self->policy);
        free($self);
    }
    /** Run from an idle state; each call starts over. */
    SimResult *run()
    {
        SimResult *r = calloc(1, sizeof *r);
        if (!r)
            PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
        pl_status st = pl_sim_run($self->sim, &r->res);
        if (st != PL_OK) {
            free(r);
            plb_status = st;
            return NULL;
        }
        r->jobs = $self->jobs;
        r->jobs->refs++;
        return r;
    }
    const char *policy() { return $self->policy; }
    int32_t job_count() { return pl_jobset_count($self->jobs->jobs); }
}

%extend SimResult {
    ~SimResult()
    {
        pl_sim_result_free($self->res);
        plb_shared_jobs_release($self->jobs);
        free($self);
    }
    int32_t count() { return pl_sim_result_count($self->res); }
    /** A copy of job i's record (workload order). */
    SimRecord *record(int32_t i)
    {
        pl_sim_job_record c;
        PLB_CHECK(pl_sim_result_job($self->res, i, &c), NULL);
        SimRecord *r = calloc(1, sizeof *r);
        char *name = strdup(c.name ? c.name : "");
        if (!r || !name) {
            free(r);
            free(name);
            PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
        }
        *r = (SimRecord){ c.job, name, plb_sim_state_name(c.state), c.ngpus, c.arrival, c.start,
                          c.finish, c.wait, c.run_time, c.ideal_time, c.slowdown, c.utility,
                          c.min_utility, c.below_min_utility != 0, c.cross_socket != 0, c.machine };
        return r;
    }
    SimSummary *summary()
    {
        SimSummary *s = malloc(sizeof *s);
        if (!s)
            PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
        pl_status st = pl_sim_result_summary($self->res, s);
        if (st != PL_OK) {
            free(s);
            plb_status = st;
            return NULL;
        }
        return s;
    }
    /** The per-job records as CSV text (pl_sim_result_write_csv()). */
    char *csv() { return plb_write_string(plb_result_csv, $self->res); }
    /** Write the CSV to a file; PL_EIO if it cannot be written. */
    void write_csv(const char *path)
    {
        FILE *f = fopen(path, "w");
        if (!f)
            PLB_FAIL(PL_EIO, , "cannot open '%s' for writing: %s", path, strerror(errno));
        pl_status st = pl_sim_result_write_csv($self->res, f);
        if (fclose(f) != 0 && st == PL_OK)
            PLB_FAIL(PL_EIO, , "writing '%s' failed: %s", path, strerror(errno));
        PLB_CHECK(st, );
    }
}

%extend Scenario {
    /** Build a built-in scenario ("sc17-proto", "sc17-s1", "sc17-s2");
     *  0 keeps the scenario's own size. */
    Scenario(const char *name, int32_t machines = 0, int32_t jobs = 0, uint64_t seed = 1)
    {
        Scenario *s = calloc(1, sizeof *s);
        if (!s)
            PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
        pl_sim_scenario_opts o;
        pl_sim_scenario_opts_init(&o);
        o.machines = machines;
        o.jobs = jobs;
        o.seed = seed;
        pl_status st = pl_sim_scenario(name, &o, &s->topo, &s->jobs);
        if (st != PL_OK) {
            free(s);
            plb_status = st;
            return NULL;
        }
        return s;
    }
    ~Scenario()
    {
        pl_topology_free($self->topo);
        pl_jobset_free($self->jobs);
        free($self);
    }
    /** The topology, once (PL_ESTATE afterwards). */
    Topology *take_topology()
    {
        if (!$self->topo)
            PLB_FAIL(PL_ESTATE, NULL, "Scenario: topology already taken");
        Topology *t = $self->topo;
        $self->topo = NULL;
        return t;
    }
    /** The jobs, once (PL_ESTATE afterwards). */
    JobSet *take_jobs()
    {
        if (!$self->jobs)
            PLB_FAIL(PL_ESTATE, NULL, "Scenario: jobs already taken");
        JobSet *j = $self->jobs;
        $self->jobs = NULL;
        return j;
    }
}

%inline %{
static int sim_scenario_count(void)
{
    int n = 0;
    for (const char *const *p = pl_sim_scenario_names(); *p; p++)
        n++;
    return n;
}
static const char *sim_scenario_name(int i)
{
    if (i < 0 || i >= sim_scenario_count())
        PLB_FAIL(PL_EINVAL, NULL, "scenario index %d out of range", i);
    return pl_sim_scenario_names()[i];
}
%}

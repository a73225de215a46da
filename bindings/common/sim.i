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
 * Records are copied out (SimRecord owns its name), the summary and the
 * time-series points are returned by value, so no script-side object points
 * into another. The arrays of the options (per-job priorities and startup
 * delays, failures) and the policy's own options are copied into the Sim,
 * which the library lets borrow them.
 *
 * Progress: every Sim hands the library plb_sim_progress() with itself as
 * data; it forwards to a script function when one is set (set_progress()).
 * The plb_cb functions declared below that hold and call that function are
 * defined per language (python/progress.i, lua/progress.i; the argument
 * type plb_cbarg and its typemap in each placement.i). A script error in it stops
 * further calls and is raised by run() once the run is over (the C
 * simulator cannot be interrupted). run() refuses to be re-entered from the
 * callback (PL_ESTATE), which the library forbids. */

%{
#include <errno.h>

typedef struct plb_shared_jobs {
    pl_jobset *jobs;
    int refs;
} plb_shared_jobs;

/* A script-side callback (per language, see the file comment). */
typedef struct plb_cb plb_cb;
/* A callback of fn (None / nil: NULL, plb_status unchanged); NULL and
 * plb_status set when out of memory. */
static plb_cb *plb_cb_new(plb_ctx ctx, plb_cbarg fn);
/* Call it; 0 when it raised (the error is kept for plb_cb_raise()). */
static int plb_cb_call(plb_cb *cb, plb_ctx ctx, int32_t settled, int32_t total, double sim_time);
/* Nonzero when a call raised since the last plb_cb_raise(). */
static int plb_cb_failed(const plb_cb *cb);
/* Make the kept error the error of the running wrapper (sets plb_error_pending). */
static void plb_cb_raise(plb_cb *cb, plb_ctx ctx);
static void plb_cb_free(plb_cb *cb);

/* What a Sim needs beyond the name and numbers: built by SimOptions
 * setters, copied into the Sim at construction. */
typedef struct SimOptions {
    double startup_delay;
    plb_f64s job_startup_delay; /* v NULL: not set */
    plb_f64s job_priority;      /* v NULL: not set */
    pl_sim_failure *failures;
    int32_t nfailures, cap_failures;
    double gpu_share_factor;                /* pl_sim_opts_init()'s unless set */
    pl_sim_gpu_share_model gpu_share_model;
    char *usage_traces;                     /* owned; NULL: the built-in patterns only */
} SimOptions;

typedef struct Sim {
    pl_sim *sim;
    plb_shared_jobs *jobs;
    char *policy; /* pl_sim_create() copies the options but not the name they point to */
    PolicyOptions *options;      /* borrowed by the library through policy_opts */
    double *job_startup_delay;   /* borrowed by the library */
    double *job_priority;        /* borrowed by the library */
    pl_sim_failure *failures;    /* borrowed by the library */
    plb_cb *progress;            /* NULL: none */
    plb_ctx ctx;                 /* of the run in progress */
    int running;
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
    double placed;
    int32_t restarts;
    double priority;
    int32_t remote_gpus;
    bool shared_gpu;
} SimRecord;

typedef pl_sim_summary SimSummary;
typedef pl_sim_sample SimSample;
typedef pl_sim_failure SimFailure;
typedef pl_sim_trace Trace;

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

static pl_status plb_timeline_csv(const void *res, FILE *f)
{
    return pl_sim_result_write_timeline_csv(res, f);
}

/* Write one of the result's CSV tables to a file. */
static void plb_write_file(plb_writer w, const void *obj, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        PLB_FAIL(PL_EIO, , "cannot open '%s' for writing: %s", path, strerror(errno));
    pl_status st = w(obj, f);
    if (fclose(f) != 0 && st == PL_OK)
        PLB_FAIL(PL_EIO, , "writing '%s' failed: %s", path, strerror(errno));
    PLB_CHECK(st, );
}

static void plb_sim_progress(void *data, int32_t settled, int32_t total, double sim_time)
{
    Sim *s = data;
    if (!s->progress || plb_cb_failed(s->progress))
        return;
    /* Wrapped calls made by the callback reset these thread-locals: keep
     * the running wrapper's. */
    pl_status status = plb_status;
    int pending = plb_error_pending;
    plb_cb_call(s->progress, s->ctx, settled, total, sim_time);
    plb_status = status;
    plb_error_pending = pending;
}

static double *plb_f64_dup(const plb_f64s *a)
{
    double *v = malloc(sizeof *v * (size_t)(a->n > 0 ? a->n : 1));
    if (v && a->n > 0)
        memcpy(v, a->v, sizeof *v * (size_t)a->n);
    return v;
}

static void plb_add_failure(SimOptions *o, pl_sim_failure f)
{
    if (o->nfailures == o->cap_failures) {
        if (o->cap_failures > INT32_MAX / 2)
            PLB_FAIL(PL_ELIMIT, , "too many failures");
        int32_t cap = o->cap_failures ? 2 * o->cap_failures : 8;
        pl_sim_failure *v = realloc(o->failures, sizeof *v * (size_t)cap);
        if (!v)
            PLB_FAIL(PL_ENOMEM, , "out of memory");
        o->failures = v;
        o->cap_failures = cap;
    }
    o->failures[o->nfailures++] = f;
}

static void plb_sim_free(Sim *s)
{
    if (!s)
        return;
    pl_sim_free(s->sim);
    plb_shared_jobs_release(s->jobs);
    free(s->policy);
    plb_policy_options_free(s->options);
    free(s->job_startup_delay);
    free(s->job_priority);
    free(s->failures);
    if (s->progress)
        plb_cb_free(s->progress);
    free(s);
}

/* Copy what `more` adds into s and o (PL_EINVAL for arrays of the wrong length). */
static int plb_sim_take_options(Sim *s, const SimOptions *more, pl_sim_opts *o)
{
    int32_t jobs = pl_jobset_count(s->jobs->jobs);
    /* The library ignores the file under the constant model; a script that names one
     * surely meant the usage model (the CLI refuses it too). */
    if (more->usage_traces && more->gpu_share_model != PL_SIM_GPU_SHARE_USAGE) {
        plb_status = pl_solver_error(PL_EINVAL, "Sim: usage_traces '%s' needs gpu_share_model usage",
                                     more->usage_traces);
        return 0;
    }
    o->startup_delay = more->startup_delay;
    const plb_f64s *arrays[2] = { &more->job_startup_delay, &more->job_priority };
    const char *what[2] = { "startup delays", "priorities" };
    double **dst[2] = { &s->job_startup_delay, &s->job_priority };
    for (int k = 0; k < 2; k++) {
        if (!arrays[k]->v)
            continue;
        if (arrays[k]->n != jobs) {
            plb_status = pl_solver_error(PL_EINVAL, "Sim: %d %s for %d jobs", (int)arrays[k]->n,
                                         what[k], (int)jobs);
            return 0;
        }
        if (!(*dst[k] = plb_f64_dup(arrays[k]))) {
            plb_status = pl_solver_error(PL_ENOMEM, "out of memory");
            return 0;
        }
    }
    o->job_startup_delay = s->job_startup_delay;
    o->job_priority = s->job_priority;
    o->gpu_share_factor = more->gpu_share_factor;
    o->gpu_share_model = more->gpu_share_model;
    /* pl_sim_create() reads the file and keeps nothing of the path. */
    o->usage_traces = more->usage_traces;
    if (more->nfailures > 0) {
        s->failures = malloc(sizeof *s->failures * (size_t)more->nfailures);
        if (!s->failures) {
            plb_status = pl_solver_error(PL_ENOMEM, "out of memory");
            return 0;
        }
        memcpy(s->failures, more->failures, sizeof *s->failures * (size_t)more->nfailures);
        o->failures = s->failures;
        o->nfailures = more->nfailures;
    }
    return 1;
}
%}

%rename(SimRuntime) pl_sim_runtime;
typedef enum pl_sim_runtime { PL_SIM_RUNTIME_PROGRESS = 0, PL_SIM_RUNTIME_ARTIFACT = 1 } pl_sim_runtime;

%newobject Sim::run;
%newobject SimResult::timeline_csv;
%newobject Trace::load;
%newobject Trace::from_string;
%newobject Trace::jobs;
%newobject SimResult::record;
%newobject SimResult::summary;
%newobject SimResult::csv;
%newobject Scenario::take_topology;
%newobject Scenario::take_jobs;

/** The trace-driven simulator, low level (placement.Simulator is the Python front end): jobs
 *  arriving on a topology under a named policy (doc/simulator.md). */
typedef struct {} Sim;
%nodefaultctor SimResult;
/** One run of a Sim: per-job records, a summary, the utilisation time series and their CSV forms
 *  (placement.SimulationResult wraps it). */
typedef struct {} SimResult;
%nodefaultctor Scenario;
/** A built-in simulator scenario before its topology and jobs are taken (placement.scenario() is
 *  the front end). */
typedef struct {} Scenario;
/** Simulator options beyond the policy's: startup delays, priorities, device failures. */
typedef struct {} SimOptions;
%nodefaultctor Trace;
/** A workload trace (CSV, JSON or SC17): its jobs, per-job priorities and startup delays
 *  (doc/simulator.md 6b). */
typedef struct {} Trace;

/* Read-only snapshots. */
%immutable;
%nodefaultctor SimRecord;
/** One job's record of a run (placement.SimJobRecord has the same fields). */
typedef struct {
    int32_t job;
    char *name;
    const char *state;      /* "done", "rejected" or "unfinished" */
    int32_t ngpus;
    double arrival, start, finish, wait, run_time, ideal_time, slowdown, utility, min_utility;
    bool below_min_utility, cross_socket;
    int32_t machine;
    double placed;          /* time of the placing decision; -1 if not run */
    int32_t restarts;       /* times a device failure killed it */
    double priority;
    int32_t remote_gpus;
    bool shared_gpu;        /* another job held one of its GPUs at the same time (doc/simulator.md 3c) */
} SimRecord;

%nodefaultctor SimSummary;
/** Aggregates of a run (placement.SimSummary has the same fields). */
typedef struct {
    int32_t jobs, done, rejected, unfinished;
    double makespan, mean_wait, max_wait, mean_turnaround, mean_slowdown, max_slowdown;
    int32_t slower_than_ideal, below_min_utility, slo_violations;
    int64_t rounds;
    double decision_mean, decision_p50, decision_p90, decision_p99, decision_max, wall_time;
    double mean_gpu_util, mean_core_util, mean_nvme_util, mean_fragmentation;
    int32_t failures, jobs_killed;
    double lost_gpu_seconds;
    int32_t remote_jobs;
    int32_t shared_jobs, qos_violations;
} SimSummary;

/** One point of the utilisation time series (doc/simulator.md sec. 5b;
 *  placement.SimSample has the same fields). */
typedef struct {
    double time;
    int32_t running, queued, gpus_used, gpus_failed;
    double gpu_util, core_util, nvme_util, fragmentation;
    int32_t remote_gpus;
} SimSample;

/** One device failure: the GPU vertex gpu fails at time, back after repair
 *  seconds (0: never). */
typedef struct {
    double time;
    int32_t gpu;
    double repair;
} SimFailure;
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
        const ProfileSet *profiles = NULL, int32_t max_placed = 0, double network_load = 0,
        const PolicyOptions *options = NULL, const SimOptions *more = NULL)
    {
        if (!topo || !jobs)
            PLB_FAIL(PL_EINVAL, NULL, "Sim: topology and jobs are required");
        /* pl_policy_place() refuses it, but the simulator would take it as no limit. */
        if (max_placed < 0)
            PLB_FAIL(PL_EINVAL, NULL, "Sim: max_placed must be >= 0, got %d", (int)max_placed);
        Sim *s = calloc(1, sizeof *s);
        if (!s)
            PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
        s->policy = strdup(policy ? policy : "topo-aware");
        if (!s->policy) {
            free(s);
            PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
        }
        s->jobs = plb_shared_jobs_copy(jobs);
        if (!s->jobs || (options && !(s->options = plb_policy_options_copy(options)))) {
            plb_sim_free(s);
            return NULL;
        }
        pl_sim_opts o;
        pl_sim_opts_init(&o);
        o.policy.policy = s->policy;
        o.policy.seed = seed;
        o.policy.profiles = profiles;
        o.policy.max_placed = max_placed;
        o.policy.network_load = network_load;
        o.policy.policy_opts = plb_policy_ext(s->options);
        o.interval = interval;
        o.runtime = runtime;
        o.progress = plb_sim_progress;
        o.progress_data = s;
        if (more && !plb_sim_take_options(s, more, &o)) {
            plb_sim_free(s);
            return NULL;
        }
        pl_status st = pl_sim_create(topo, s->jobs->jobs, &o, &s->sim);
        if (st != PL_OK) {
            plb_sim_free(s);
            plb_status = st;
            return NULL;
        }
        return s;
    }
    ~Sim() { plb_sim_free($self); }
    /** Run from an idle state; each call starts over. */
    SimResult *run(plb_ctx ctx)
    {
        if ($self->running)
            PLB_FAIL(PL_ESTATE, NULL, "Sim.run: the simulator is running (called from its progress callback)");
        SimResult *r = calloc(1, sizeof *r);
        if (!r)
            PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
        $self->running = 1;
        $self->ctx = ctx;
        pl_status st = pl_sim_run($self->sim, &r->res);
        $self->running = 0;
        if (st == PL_OK && $self->progress && plb_cb_failed($self->progress)) {
            pl_sim_result_free(r->res);
            free(r);
            plb_cb_raise($self->progress, ctx);
            return NULL;
        }
        if (st != PL_OK) {
            free(r);
            plb_status = st;
            return NULL;
        }
        r->jobs = $self->jobs;
        r->jobs->refs++;
        return r;
    }
    /** Call fn(settled, total, sim_time) as runs progress (None / nil: no
     *  calls). An error in fn stops the calls and is raised by run() when
     *  the run is over. */
    void set_progress(plb_ctx ctx, plb_cbarg fn)
    {
        if ($self->running)
            PLB_FAIL(PL_ESTATE, , "Sim.set_progress: the simulator is running");
        plb_cb *cb = plb_cb_new(ctx, fn);
        if (plb_status != PL_OK)
            return;
        if ($self->progress)
            plb_cb_free($self->progress);
        $self->progress = cb;
    }
    /** The policy's name. */
    const char *policy() { return $self->policy; }
    /** Number of jobs. */
    int32_t job_count() { return pl_jobset_count($self->jobs->jobs); }
}

%extend SimResult {
    ~SimResult()
    {
        pl_sim_result_free($self->res);
        plb_shared_jobs_release($self->jobs);
        free($self);
    }
    /** Number of job records. */
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
                          c.min_utility, c.below_min_utility != 0, c.cross_socket != 0, c.machine,
                          c.placed, c.restarts, c.priority, c.remote_gpus, c.shared_gpu != 0 };
        return r;
    }
    /** The aggregates of the run. */
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
    /** Write the per-job CSV to path; IOError if it cannot be written. */
    void write_csv(const char *path) { plb_write_file(plb_result_csv, $self->res, path); }
    /** Points of the utilisation time series. */
    int64_t timeline_count() { return pl_sim_result_timeline_count($self->res); }
    /** Point i of the time series (a copy). */
    SimSample timeline(int64_t i)
    {
        SimSample p;
        memset(&p, 0, sizeof p);
        PLB_CHECK(pl_sim_result_timeline($self->res, i, &p), p);
        return p;
    }
    /** The time series as CSV text (pl_sim_result_write_timeline_csv()). */
    char *timeline_csv() { return plb_write_string(plb_timeline_csv, $self->res); }
    /** Write the time series as CSV to path; IOError if it cannot be written. */
    void write_timeline_csv(const char *path) { plb_write_file(plb_timeline_csv, $self->res, path); }
}

%extend SimOptions {
    /** No options: no startup delay, priorities or failures; the constant GPU share model
     *  with the default factor (pl_sim_opts_init()). */
    SimOptions()
    {
        SimOptions *o = calloc(1, sizeof *o);
        if (!o)
            PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
        pl_sim_opts d;
        pl_sim_opts_init(&d);
        o->gpu_share_factor = d.gpu_share_factor;
        o->gpu_share_model = d.gpu_share_model;
        return o;
    }
    ~SimOptions()
    {
        free($self->job_startup_delay.v);
        free($self->job_priority.v);
        free($self->failures);
        free($self->usage_traces);
        free($self);
    }
    /** Device-side slowdown of jobs sharing a GPU under the constant model, and of a pair without
     *  usage patterns under the usage model (>= 1; checked when the Sim is created;
     *  doc/simulator.md 3c). */
    void set_gpu_share_factor(double factor) { $self->gpu_share_factor = factor; }
    /** How co-tenants of a GPU slow each other: "constant" (default: the share factor) or
     *  "usage" (their workloads' GPU usage patterns replayed together; doc/simulator.md 3c). */
    void set_gpu_share_model(const char *model)
    {
        if (model && strcmp(model, "constant") == 0)
            $self->gpu_share_model = PL_SIM_GPU_SHARE_CONSTANT;
        else if (model && strcmp(model, "usage") == 0)
            $self->gpu_share_model = PL_SIM_GPU_SHARE_USAGE;
        else
            PLB_FAIL(PL_EINVAL, , "gpu_share_model '%s' (expected constant or usage)", model ? model : "(null)");
    }
    /** The usage model's usage-pattern CSV (None / nil: the built-in patterns only); read when
     *  the Sim is created (IOError, ParseError there). */
    void set_usage_traces(const char *path = NULL)
    {
        char *p = NULL;
        if (path && !(p = strdup(path)))
            PLB_FAIL(PL_ENOMEM, , "out of memory");
        free($self->usage_traces);
        $self->usage_traces = p;
    }
    /** Seconds from every job's placement to the start of its tasks. */
    void set_startup_delay(double seconds) { $self->startup_delay = seconds; }
    /** Per-job startup delays, one per job in workload order (replace the common one). */
    void set_job_startup_delays(plb_doubles_in seconds)
    {
        plb_f64s a = { seconds.n, seconds.v };
        double *v = plb_f64_dup(&a);
        if (!v)
            PLB_FAIL(PL_ENOMEM, , "out of memory");
        free($self->job_startup_delay.v);
        $self->job_startup_delay = (plb_f64s){ seconds.n, v };
    }
    /** Per-job queue priorities (higher first), one per job in workload order. */
    void set_priorities(plb_doubles_in priorities)
    {
        plb_f64s a = { priorities.n, priorities.v };
        double *v = plb_f64_dup(&a);
        if (!v)
            PLB_FAIL(PL_ENOMEM, , "out of memory");
        free($self->job_priority.v);
        $self->job_priority = (plb_f64s){ priorities.n, v };
    }
    /** A device failure: GPU vertex gpu fails at time, back repair seconds later (0: never).
     *  The library checks the values when the Sim is created. */
    void add_failure(double time, int32_t gpu, double repair = 0)
    {
        plb_add_failure($self, (pl_sim_failure){ time, gpu, repair });
    }
    /** Append the failures of a CSV failure trace (pl_sim_failures_load()), GPU names resolved in topo. */
    void load_failures(const char *path, const Topology *topo)
    {
        pl_sim_failure *f = NULL;
        int32_t n = 0;
        PLB_CHECK(pl_sim_failures_load(path, topo, &f, &n), );
        for (int32_t i = 0; i < n && plb_status == PL_OK; i++)
            plb_add_failure($self, f[i]);
        pl_sim_failures_free(f);
    }
    /** Number of failures added. */
    int32_t failure_count() { return $self->nfailures; }
    /** Failure i. */
    SimFailure failure(int32_t i)
    {
        SimFailure f = { 0, -1, 0 };
        if (i < 0 || i >= $self->nfailures)
            PLB_FAIL(PL_EINVAL, f, "failure index %d out of range (%d failures)", (int)i,
                     (int)$self->nfailures);
        return $self->failures[i];
    }
}

%extend Trace {
    /** A workload trace file: CSV, the JSON trace form or an SC17 workload (doc/simulator.md 6b). */
    static Trace *load(const char *path)
    {
        Trace *t = NULL;
        PLB_CHECK(pl_sim_trace_load(path, &t), NULL);
        return t;
    }
    /** A trace from text; source names it in error messages. */
    static Trace *from_string(const char *text, const char *source = NULL)
    {
        Trace *t = NULL;
        PLB_CHECK(pl_sim_trace_load_string(text, 0, source, &t), NULL);
        return t;
    }
    ~Trace() { pl_sim_trace_free($self); }
    /** Number of jobs. */
    int32_t count() { return pl_jobset_count(pl_sim_trace_jobs($self)); }
    /** "csv", "json" or "sc17". */
    const char *format() { return pl_sim_trace_format($self); }
    /** A copy of the trace's jobs. */
    JobSet *jobs()
    {
        const pl_jobset *src = pl_sim_trace_jobs($self);
        JobSet *s = NULL;
        PLB_CHECK(pl_jobset_create(&s), NULL);
        for (int32_t i = 0; i < pl_jobset_count(src); i++) {
            Job *c = NULL;
            pl_status st = pl_job_copy(pl_jobset_get(src, i), &c);
            if (st == PL_OK)
                st = pl_jobset_add(s, c, NULL);
            if (st != PL_OK) {
                pl_jobset_free(s);
                plb_status = st;
                return NULL;
            }
        }
        return s;
    }
    /** Per-job queue priorities (higher first), in workload order. */
    plb_f64s priorities()
    {
        int32_t n = pl_jobset_count(pl_sim_trace_jobs($self));
        plb_f64s r = plb_f64s_alloc(n);
        if (r.v && n > 0)
            memcpy(r.v, pl_sim_trace_priorities($self), sizeof *r.v * (size_t)n);
        return r;
    }
    /** Per-job startup delays in seconds, in workload order. */
    plb_f64s startup_delays()
    {
        int32_t n = pl_jobset_count(pl_sim_trace_jobs($self));
        plb_f64s r = plb_f64s_alloc(n);
        if (r.v && n > 0)
            memcpy(r.v, pl_sim_trace_startup_delays($self), sizeof *r.v * (size_t)n);
        return r;
    }
}

%extend Scenario {
    /** Build a built-in scenario ("sc17-proto", "sc17-table1", "sc17-s1", "sc17-s2", "drmaestro");
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
/** Number of built-in scenarios (see sim_scenario_name()). */
static int sim_scenario_count(void)
{
    int n = 0;
    for (const char *const *p = pl_sim_scenario_names(); *p; p++)
        n++;
    return n;
}
/** Name of built-in scenario i ("sc17-proto", "sc17-table1", "sc17-s1", ...). */
static const char *sim_scenario_name(int i)
{
    if (i < 0 || i >= sim_scenario_count())
        PLB_FAIL(PL_EINVAL, NULL, "scenario index %d out of range", i);
    return pl_sim_scenario_names()[i];
}
%}

/* placement/job.h: Job and JobSet.
 *
 * Lifetime: a JobSet owns its jobs in C, so a script-side Job that pointed
 * into a set would dangle once the set is collected. JobSet.add() therefore
 * adds a copy and JobSet.get() returns a copy: every Job object owns exactly
 * one Job, and no object has to keep another alive. */

%newobject Job::copy;
%newobject JobSet::get;
%newobject JobSet::from_json;
%newobject JobSet::from_json_string;
%newobject JobSet::from_sc17;

%{
static int plb_node_constraint(const Job *j, int32_t i, pl_node_constraint *c)
{
    pl_status st = pl_job_node_constraint(j, i, c);
    if (st != PL_OK)
        plb_status = st;
    return st == PL_OK;
}

static const char *plb_conflict_kind_name(pl_conflict_kind k)
{
    static const char *const names[] = { "NO_NODE", "SELF_ANTI", "TOO_BIG" };
    return (unsigned)k < 3 ? names[k] : "?";
}
%}

/* The task index of the node-constraint calls that means "every task". */
%constant int32_t JOB_ALL_TASKS = PL_JOB_ALL_TASKS;

%rename(ConflictKind) pl_conflict_kind;
typedef enum pl_conflict_kind {
    PL_CONFLICT_NO_NODE = 0, PL_CONFLICT_SELF_ANTI = 1, PL_CONFLICT_TOO_BIG = 2
} pl_conflict_kind;

%inline %{
/* "NO_NODE", "SELF_ANTI" or "TOO_BIG" (the thesis's names). */
/** Name of a conflict kind: "NO_NODE", "SELF_ANTI" or "TOO_BIG" (the thesis's names). */
static const char *conflict_kind_name(pl_conflict_kind kind) { return plb_conflict_kind_name(kind); }
%}

/** A job: tasks with GPU, core, memory and bandwidth demands, traffic between tasks, placement
 *  constraints (node Must/MustNot, collocation, anti-affinity, a node filter), a workload type for
 *  the interference profiles, arrival, duration, minimal utility and SLO (doc/jobs.md). Tasks are
 *  numbered 0, 1, ... in the order added. */
typedef struct {} Job;
/** An ordered set of Jobs (a queue or a workload): indexable and iterable; add() and get() copy, so
 *  no Job object depends on the set. */
typedef struct {} JobSet;

%extend Job {
    /** An empty job named name; add_task() gives it tasks. */
    Job(const char *name = NULL)
    {
        Job *j = NULL;
        PLB_CHECK(pl_job_create(name, &j), NULL);
        return j;
    }
    ~Job() { pl_job_free($self); }
    /** An independent copy. */
    Job *copy()
    {
        Job *j = NULL;
        PLB_CHECK(pl_job_copy($self, &j), NULL);
        return j;
    }
    /** Add a task; returns its index. gpus 0 and gpu_milli 0: a CPU-only
     *  task; gpu_milli 1..999: that share of one GPU; cpu_milli on top of cores;
     *  storage_bw (bytes/s) and storage_bytes: NVMe on one storage device. */
    int32_t add_task(int64_t gpus = 1, int64_t cores = 0, int64_t memory = 0,
                     int64_t gpu_memory = 0, int64_t bandwidth = 0, int64_t gpu_milli = 0,
                     int64_t cpu_milli = 0, int64_t storage_bw = 0, int64_t storage_bytes = 0)
    {
        pl_task_demand d = {.gpus = gpus, .cores = cores, .memory = memory, .gpu_memory = gpu_memory,
                            .bandwidth = bandwidth, .gpu_milli = gpu_milli, .cpu_milli = cpu_milli,
                            .storage_bw = storage_bw, .storage_bytes = storage_bytes};
        int32_t id = -1;
        PLB_CHECK(pl_job_add_task($self, &d, &id), -1);
        return id;
    }
    /** Traffic (a relative volume, >= 0) between tasks a and b. */
    void add_edge(int32_t a, int32_t b, double traffic) { PLB_CHECK(pl_job_add_edge($self, a, b, traffic), ); }
    /** The same traffic between every pair of tasks. */
    void add_all_to_all(double traffic) { PLB_CHECK(pl_job_add_all_to_all($self, traffic), ); }
    /** Workload type and size, which name the job's interference profiles ("bvlc_alexnet", "1"). */
    void set_workload(const char *type, const char *size = NULL) { PLB_CHECK(pl_job_set_workload($self, type, size), ); }
    /** The lowest utility (0..1) at which the job may be placed. */
    void set_min_utility(double u) { PLB_CHECK(pl_job_set_min_utility($self, u), ); }
    /** Service-level objective: the run time in seconds it should not exceed. */
    void set_slo(double seconds) { PLB_CHECK(pl_job_set_slo($self, seconds), ); }
    /** Arrival time in seconds (the simulator's clock). */
    void set_arrival(double seconds) { PLB_CHECK(pl_job_set_arrival($self, seconds), ); }
    /** Run time in seconds when it runs alone (the simulator's default model). */
    void set_duration(double seconds) { PLB_CHECK(pl_job_set_duration($self, seconds), ); }
    /** Whether every task must run on one machine. */
    void set_single_node(bool on) { PLB_CHECK(pl_job_set_single_node($self, on), ); }
    /** Tasks a and b must not share a machine. */
    void add_anti_collocation(int32_t a, int32_t b) { PLB_CHECK(pl_job_add_anti_collocation($self, a, b), ); }

    /* Placement constraints (placement/job.h, doc/jobs.md). task -1
     * (JOB_ALL_TASKS) means the whole job. */
    /** Node Must: the task (or every task) runs on a machine whose attribute key equals value. */
    void add_node_must(const char *key, const char *value, int32_t task = -1)
    {
        PLB_CHECK(pl_job_add_node_must($self, task, key, value), );
    }
    /** Node MustNot: not on a machine whose attribute key equals value. */
    void add_node_must_not(const char *key, const char *value, int32_t task = -1)
    {
        PLB_CHECK(pl_job_add_node_must_not($self, task, key, value), );
    }
    /** Number of node constraints. */
    int32_t node_constraint_count() { return pl_job_node_constraint_count($self); }
    /** Task of node constraint i (JOB_ALL_TASKS: the whole job). */
    int32_t node_constraint_task(int32_t i)
    {
        pl_node_constraint c;
        return plb_node_constraint($self, i, &c) ? c.task : PL_JOB_ALL_TASKS;
    }
    /** Whether node constraint i is a MustNot. */
    bool node_constraint_must_not(int32_t i)
    {
        pl_node_constraint c;
        return plb_node_constraint($self, i, &c) && c.must_not;
    }
    /** Attribute key of node constraint i. */
    const char *node_constraint_key(int32_t i)
    {
        pl_node_constraint c;
        return plb_node_constraint($self, i, &c) ? c.key : NULL;
    }
    /** Attribute value of node constraint i. */
    const char *node_constraint_value(int32_t i)
    {
        pl_node_constraint c;
        return plb_node_constraint($self, i, &c) ? c.value : NULL;
    }
    /** Whether task may run on machine vertex v of topo (its node constraints and the node filter). */
    bool task_admits(int32_t task, const Topology *topo, int32_t v)
    {
        return pl_job_task_admits($self, task, topo, v) != 0;
    }
    /** Restrict the job to machines with these names (an empty list clears the filter). */
    void set_node_filter(plb_strs_in names)
    {
        PLB_CHECK(pl_job_set_node_filter($self, (const char *const *)names.v, names.n), );
    }
    /** Whether the node filter admits the machine named name. */
    bool admits_node(const char *name) { return pl_job_admits_node($self, name) != 0; }
    /** Tasks a and b run on the same machine. */
    void add_collocation(int32_t a, int32_t b) { PLB_CHECK(pl_job_add_collocation($self, a, b), ); }
    /** Whether tasks a and b must share a machine. */
    bool collocated(int32_t a, int32_t b) { return pl_job_collocated($self, a, b) != 0; }
    /** Whether tasks a and b must not share a machine. */
    bool anti_collocated(int32_t a, int32_t b) { return pl_job_anti_collocated($self, a, b) != 0; }
    /** The class of each task under "must share a machine" (classes 0, 1, ... by lowest task). */
    plb_ints task_classes()
    {
        plb_ints r = plb_ints_alloc(pl_job_task_count($self));
        if (r.v && pl_job_task_classes($self, r.v) < 0) {
            free(r.v);
            PLB_FAIL(PL_ENOMEM, ((plb_ints){ 0, NULL }), "out of memory");
        }
        return r;
    }
    /** Label the job (other jobs' anti-affinity names labels). */
    void add_label(const char *label) { PLB_CHECK(pl_job_add_label($self, label), ); }
    /** Number of labels. */
    int32_t label_count() { return pl_job_label_count($self); }
    /** Label i. */
    const char *label(int32_t i)
    {
        const char *l = pl_job_label($self, i);
        if (!l)
            PLB_FAIL(PL_EINVAL, NULL, "label index %d out of range", (int)i);
        return l;
    }
    /** Whether the job carries label. */
    bool has_label(const char *label) { return pl_job_has_label($self, label) != 0; }
    /** No task of this job shares a machine with another job labelled label (symmetric). */
    void add_anti_affinity(const char *label) { PLB_CHECK(pl_job_add_anti_affinity($self, label), ); }
    /** Number of anti-affinity labels. */
    int32_t anti_affinity_count() { return pl_job_anti_affinity_count($self); }
    /** Anti-affinity label i. */
    const char *anti_affinity_label(int32_t i)
    {
        const char *l = pl_job_anti_affinity_label($self, i);
        if (!l)
            PLB_FAIL(PL_EINVAL, NULL, "anti-affinity index %d out of range", (int)i);
        return l;
    }
    /** Whether this job and other must not share a machine (either one's anti-affinity names a
     *  label of the other). */
    bool anti_affine(const Job *other) { return pl_job_anti_affine($self, other) != 0; }
    /** Whether the job has any placement constraint. */
    bool has_constraints() { return pl_job_has_constraints($self) != 0; }
    /** Raise InfeasibleError (PL_EINFEASIBLE) naming every conflict of the
     *  job's constraints on topo (pl_job_check_constraints()). */
    void check_constraints(const Topology *topo)
    {
        PLB_CHECK(pl_job_check_constraints($self, topo, NULL, 0, NULL), );
    }
    /** The conflicts, flat: kind, class, task_a, task_b for each (empty: none). */
    plb_ints conflicts_flat(const Topology *topo)
    {
        plb_ints r = { 0, NULL };
        int32_t n = 0;
        pl_status st = pl_job_check_constraints($self, topo, NULL, 0, &n);
        if (st != PL_OK && st != PL_EINFEASIBLE) {
            plb_status = st;
            return r;
        }
        if (n > INT32_MAX / 4)
            PLB_FAIL(PL_ELIMIT, r, "%d conflicts", (int)n);
        pl_conflict *c = malloc(sizeof *c * (size_t)(n > 0 ? n : 1));
        if (!c)
            PLB_FAIL(PL_ENOMEM, r, "out of memory");
        st = pl_job_check_constraints($self, topo, c, n, &n);
        if (st != PL_OK && st != PL_EINFEASIBLE) {
            free(c);
            plb_status = st;
            return r;
        }
        r = plb_ints_alloc(4 * n);
        for (int32_t i = 0; r.v && i < n; i++) {
            r.v[4 * i] = (int32_t)c[i].kind;
            r.v[4 * i + 1] = c[i].cls;
            r.v[4 * i + 2] = c[i].unit_a;
            r.v[4 * i + 3] = c[i].unit_b;
        }
        free(c);
        return r;
    }

    /** The job's name. */
    const char *name() { return pl_job_name($self); }
    /** Number of tasks. */
    int32_t task_count() { return pl_job_task_count($self); }
    /** Number of task pairs with traffic. */
    int32_t edge_count() { return pl_job_edge_count($self); }
    /** Traffic between tasks a and b (0 if none). */
    double traffic(int32_t a, int32_t b)
    {
        double t = 0;
        PLB_CHECK(pl_job_traffic($self, a, b, &t), 0);
        return t;
    }
    /** Total GPUs over all tasks. */
    int64_t total_gpus()
    {
        pl_task_demand d;
        PLB_CHECK(pl_job_total_demand($self, &d), 0);
        return d.gpus;
    }
    /** Workload type (None if not set). */
    const char *workload_type() { return pl_job_workload_type($self); }
    /** Workload size (None if not set). */
    const char *workload_size() { return pl_job_workload_size($self); }
    /** The lowest utility at which the job may be placed. */
    double min_utility() { return pl_job_min_utility($self); }
    /** Service-level objective in seconds (0: none). */
    double slo() { return pl_job_slo($self); }
    /** Arrival time in seconds. */
    double arrival() { return pl_job_arrival($self); }
    /** Run time alone in seconds. */
    double duration() { return pl_job_duration($self); }
    /** Whether every task must run on one machine. */
    bool single_node() { return pl_job_single_node($self) != 0; }
    /** GPU models the job accepts, "A|B" ("" or None: any GPU). */
    void set_gpu_model(const char *models) { PLB_CHECK(pl_job_set_gpu_model($self, models), ); }
    /** GPU models the job accepts, "A|B" (None: any GPU). */
    const char *gpu_model() { return pl_job_gpu_model($self); }
    /** Task i's demand: (gpus, cores, memory, gpu_memory, bandwidth, gpu_milli, cpu_milli). */
    plb_i64s task_demand(int32_t i)
    {
        plb_i64s r = { 0, NULL };
        pl_task_demand d;
        PLB_CHECK(pl_job_task($self, i, &d), r);
        int64_t v[7] = { d.gpus, d.cores, d.memory, d.gpu_memory, d.bandwidth, d.gpu_milli, d.cpu_milli };
        r = plb_i64s_alloc(7);
        if (r.v)
            memcpy(r.v, v, sizeof v);
        return r;
    }
}

%extend JobSet {
    /** An empty set. */
    JobSet()
    {
        JobSet *s = NULL;
        PLB_CHECK(pl_jobset_create(&s), NULL);
        return s;
    }
    ~JobSet() { pl_jobset_free($self); }
    /** Jobs from a JSON file (doc/jobs.md). */
    static JobSet *from_json(const char *path)
    {
        JobSet *s = NULL;
        PLB_CHECK(pl_jobset_load_json(path, &s), NULL);
        return s;
    }
    /** Jobs from JSON text (doc/jobs.md). */
    static JobSet *from_json_string(const char *text)
    {
        JobSet *s = NULL;
        PLB_CHECK(pl_jobset_load_json_string(text, 0, &s), NULL);
        return s;
    }
    /** An SC17 artifact workload file. */
    static JobSet *from_sc17(const char *path)
    {
        JobSet *s = NULL;
        PLB_CHECK(pl_jobset_load_sc17(path, &s), NULL);
        return s;
    }
    /** Append a copy of job; returns its index. */
    int32_t add(const Job *job)
    {
        Job *c = NULL;
        int32_t i = -1;
        PLB_CHECK(pl_job_copy(job, &c), -1);
        PLB_CHECK(pl_jobset_add($self, c, &i), -1);
        return i;
    }
    /** Number of jobs. */
    int32_t count() { return pl_jobset_count($self); }
    /** A copy of job i. */
    Job *get(int32_t i)
    {
        const Job *j = pl_jobset_get($self, i);
        if (!j)
            PLB_FAIL(PL_EINVAL, NULL, "job index %d out of range (set of %d)", (int)i,
                     (int)pl_jobset_count($self));
        Job *c = NULL;
        PLB_CHECK(pl_job_copy(j, &c), NULL);
        return c;
    }
}

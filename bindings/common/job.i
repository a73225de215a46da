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
static const char *conflict_kind_name(pl_conflict_kind kind) { return plb_conflict_kind_name(kind); }
%}

typedef struct {} Job;
typedef struct {} JobSet;

%extend Job {
    Job(const char *name = NULL)
    {
        Job *j = NULL;
        PLB_CHECK(pl_job_create(name, &j), NULL);
        return j;
    }
    ~Job() { pl_job_free($self); }
    Job *copy()
    {
        Job *j = NULL;
        PLB_CHECK(pl_job_copy($self, &j), NULL);
        return j;
    }
    /** Add a task; returns its index. gpus 0 and gpu_milli 0: a CPU-only
     *  task; gpu_milli 1..999: that share of one GPU; cpu_milli on top of cores. */
    int32_t add_task(int64_t gpus = 1, int64_t cores = 0, int64_t memory = 0,
                     int64_t gpu_memory = 0, int64_t bandwidth = 0, int64_t gpu_milli = 0,
                     int64_t cpu_milli = 0)
    {
        pl_task_demand d = { gpus, cores, memory, gpu_memory, bandwidth, gpu_milli, cpu_milli };
        int32_t id = -1;
        PLB_CHECK(pl_job_add_task($self, &d, &id), -1);
        return id;
    }
    void add_edge(int32_t a, int32_t b, double traffic) { PLB_CHECK(pl_job_add_edge($self, a, b, traffic), ); }
    void add_all_to_all(double traffic) { PLB_CHECK(pl_job_add_all_to_all($self, traffic), ); }
    void set_workload(const char *type, const char *size = NULL) { PLB_CHECK(pl_job_set_workload($self, type, size), ); }
    void set_min_utility(double u) { PLB_CHECK(pl_job_set_min_utility($self, u), ); }
    void set_slo(double seconds) { PLB_CHECK(pl_job_set_slo($self, seconds), ); }
    void set_arrival(double seconds) { PLB_CHECK(pl_job_set_arrival($self, seconds), ); }
    void set_duration(double seconds) { PLB_CHECK(pl_job_set_duration($self, seconds), ); }
    void set_single_node(bool on) { PLB_CHECK(pl_job_set_single_node($self, on), ); }
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
    int32_t node_constraint_count() { return pl_job_node_constraint_count($self); }
    int32_t node_constraint_task(int32_t i)
    {
        pl_node_constraint c;
        return plb_node_constraint($self, i, &c) ? c.task : PL_JOB_ALL_TASKS;
    }
    bool node_constraint_must_not(int32_t i)
    {
        pl_node_constraint c;
        return plb_node_constraint($self, i, &c) && c.must_not;
    }
    const char *node_constraint_key(int32_t i)
    {
        pl_node_constraint c;
        return plb_node_constraint($self, i, &c) ? c.key : NULL;
    }
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
    bool admits_node(const char *name) { return pl_job_admits_node($self, name) != 0; }
    /** Tasks a and b run on the same machine. */
    void add_collocation(int32_t a, int32_t b) { PLB_CHECK(pl_job_add_collocation($self, a, b), ); }
    bool collocated(int32_t a, int32_t b) { return pl_job_collocated($self, a, b) != 0; }
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
    void add_label(const char *label) { PLB_CHECK(pl_job_add_label($self, label), ); }
    int32_t label_count() { return pl_job_label_count($self); }
    const char *label(int32_t i)
    {
        const char *l = pl_job_label($self, i);
        if (!l)
            PLB_FAIL(PL_EINVAL, NULL, "label index %d out of range", (int)i);
        return l;
    }
    bool has_label(const char *label) { return pl_job_has_label($self, label) != 0; }
    /** No task of this job shares a machine with another job labelled label (symmetric). */
    void add_anti_affinity(const char *label) { PLB_CHECK(pl_job_add_anti_affinity($self, label), ); }
    int32_t anti_affinity_count() { return pl_job_anti_affinity_count($self); }
    const char *anti_affinity_label(int32_t i)
    {
        const char *l = pl_job_anti_affinity_label($self, i);
        if (!l)
            PLB_FAIL(PL_EINVAL, NULL, "anti-affinity index %d out of range", (int)i);
        return l;
    }
    bool anti_affine(const Job *other) { return pl_job_anti_affine($self, other) != 0; }
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

    const char *name() { return pl_job_name($self); }
    int32_t task_count() { return pl_job_task_count($self); }
    int32_t edge_count() { return pl_job_edge_count($self); }
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
    const char *workload_type() { return pl_job_workload_type($self); }
    const char *workload_size() { return pl_job_workload_size($self); }
    double min_utility() { return pl_job_min_utility($self); }
    double slo() { return pl_job_slo($self); }
    double arrival() { return pl_job_arrival($self); }
    double duration() { return pl_job_duration($self); }
    bool single_node() { return pl_job_single_node($self) != 0; }
    /** GPU models the job accepts, "A|B" ("" or None: any GPU). */
    void set_gpu_model(const char *models) { PLB_CHECK(pl_job_set_gpu_model($self, models), ); }
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

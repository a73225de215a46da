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
    /** Add a task; returns its index. */
    int32_t add_task(int64_t gpus = 1, int64_t cores = 0, int64_t memory = 0,
                     int64_t gpu_memory = 0, int64_t bandwidth = 0)
    {
        pl_task_demand d = { gpus, cores, memory, gpu_memory, bandwidth };
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

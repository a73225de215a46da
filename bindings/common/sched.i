/* placement/sched.h: the allocation lifecycle. A Sched owns its handle (and
 * through it a copy of the topology and of every committed job), so nothing
 * it holds is borrowed from the script; topology() returns a copy. */

%{
typedef struct pl_sched Sched;

%}

%newobject Sched::place;
%newobject Sched::topology;
%newobject Sched::path_name;
/** The allocation lifecycle of a live cluster (doc/guide.md, 3b): place() asks a policy where jobs
 *  would go, commit() allocates a decision under a job id, release() frees exactly what a commit
 *  took. The Sched owns copies of the topology and of every committed job. */
typedef struct {} Sched;

%extend Sched {
    /** A live cluster: a copy of topology (its allocations stay as background load). */
    Sched(const Topology *topology)
    {
        Sched *s = NULL;
        PLB_CHECK(pl_sched_create(topology, &s), NULL);
        return s;
    }
    ~Sched() { pl_sched_free($self); }
    /** Rounds without any change that may still change the policy's
     *  decisions (0: call place again only after a commit or release;
     *  DRMaestro: 11, call it periodically while jobs wait). */
    int32_t idle_rounds() const { return pl_sched_idle_rounds($self); }
    /** Where jobs (in queue order) would go now; allocates nothing. The
     *  committed jobs are the running ones. One call is one round of the
     *  policy: the Sched keeps the policy's state (DRMaestro's waiting
     *  counters) from call to call while the policy stays the same. */
    Decisions *place(const JobSet *jobs, const char *policy = NULL, uint64_t seed = 1,
                     const ProfileSet *profiles = NULL, const PolicyOptions *options = NULL)
    {
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        if (policy)
            o.policy = policy;
        o.seed = seed;
        o.profiles = profiles;
        o.policy_opts = plb_policy_ext(options);
        if (!jobs)
            PLB_FAIL(PL_EINVAL, NULL, "Sched.place: jobs is None/nil");
        Job **q = plb_queue(jobs);
        if (!q)
            return NULL;
        Decisions *d = NULL;
        pl_status st = pl_sched_place($self, &o, q, pl_jobset_count(jobs), &d);
        free(q);
        PLB_CHECK(st, NULL);
        return d;
    }
    /** Commit decision i of decisions for job under id (job is copied). */
    void commit(const char *id, const Job *job, const Decisions *decisions, int32_t i)
    {
        PLB_CHECK(pl_sched_commit($self, id, job, decisions, i), );
    }
    /** Commit job under id on the GPU vertices gpus (task t on gpus[t]; -1 for a CPU-only task). */
    void commit_gpus(const char *id, const Job *job, plb_doubles_in gpus)
    {
        int32_t *g = plb_vertex_ids_or(gpus, "Sched.commit_gpus", 1);
        if (!g)
            return;
        pl_status st = pl_sched_commit_gpus($self, id, job, g, gpus.n);
        free(g);
        PLB_CHECK(st, );
    }
    /** Commit job under id on hosts: a GPU per GPU task, a package per CPU-only task. */
    void commit_hosts(const char *id, const Job *job, plb_doubles_in hosts)
    {
        int32_t *h = plb_vertex_ids(hosts, "Sched.commit_hosts");
        if (!h)
            return;
        pl_status st = pl_sched_commit_hosts($self, id, job, h, hosts.n);
        free(h);
        PLB_CHECK(st, );
    }
    /** Where each entry of the job committed under id runs (one per task, k for a task of k GPUs): its
     *  GPU, or a CPU-only task's package. */
    plb_ints hosts(const char *id)
    {
        plb_ints r = { 0, NULL };
        pl_sched_job_info info;
        PLB_CHECK(pl_sched_job($self, id, &info), r);
        r = plb_ints_alloc(info.ngpus);
        if (r.v && info.ngpus > 0)
            memcpy(r.v, info.hosts, sizeof *r.v * (size_t)info.ngpus);
        return r;
    }
    /** Release the job committed under id: exactly what its commit took. */
    void release(const char *id) { PLB_CHECK(pl_sched_release($self, id), ); }
    /** Mark GPU vertex gpu down (down true: a failure, a drained GPU) or up
     *  again (false): no policy places on it while it is down. Release the
     *  jobs that hold it first. */
    void device_down(int32_t gpu, bool down = true) { PLB_CHECK(pl_sched_device_down($self, gpu, down), ); }
    /** Number of committed jobs. */
    int32_t job_count() { return pl_sched_job_count($self); }
    /** Id of committed job k (0 .. job_count() - 1, in commit order). */
    const char *id_at(int32_t k)
    {
        pl_sched_job_info info;
        PLB_CHECK(pl_sched_job_at($self, k, &info), NULL);
        return info.id;
    }
    /** GPU vertices of the job committed under id, by entry (one per task, k for a task of k GPUs). */
    plb_ints gpus(const char *id)
    {
        plb_ints r = { 0, NULL };
        pl_sched_job_info info;
        PLB_CHECK(pl_sched_job($self, id, &info), r);
        r = plb_ints_alloc(info.ngpus);
        if (r.v && info.ngpus > 0)
            memcpy(r.v, info.gpus, sizeof *r.v * (size_t)info.ngpus);
        return r;
    }
    /** Score job on each machine vertex of machines alone: topo-aware's
     *  utility there, -1 where it does not fit now (CPU-only and fractional
     *  tasks and GPU models honoured as by place()). */
    plb_f64s score(const Job *job, plb_doubles_in machines)
    {
        plb_f64s r = { 0, NULL };
        int32_t *m = plb_vertex_ids(machines, "Sched.score");
        if (!m)
            return r;
        if (!(r.v = malloc(sizeof *r.v * (size_t)(machines.n > 0 ? machines.n : 1)))) {
            free(m);
            PLB_FAIL(PL_ENOMEM, r, "out of memory");
        }
        pl_status st = pl_sched_score($self, NULL, job, m, machines.n, r.v);
        free(m);
        if (st) {
            free(r.v);
            r.v = NULL;
            PLB_CHECK(st, r);
        }
        r.n = machines.n;
        return r;
    }
    /** Path of vertex v of the live topology ("cluster/rack0/node0/package0/gpu1"). */
    char *path_name(int32_t v) { return plb_path_name(pl_sched_topology($self), v); }
    /** Name of vertex v of the live topology ("gpu1", "node0"). */
    const char *vertex_name(int32_t v) { return plb_vertex_name(pl_sched_topology($self), v); }
    /** A copy of the live topology: capacities and what is allocated now. */
    Topology *topology()
    {
        Topology *t = NULL;
        PLB_CHECK(pl_topology_copy(pl_sched_topology($self), &t), NULL);
        return t;
    }
}

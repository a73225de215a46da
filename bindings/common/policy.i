/* placement/policy.h: policies by name, and their decisions.
 *
 * A Decisions object copies what it reports (GPU ids, reasons) out of the
 * Decisions it owns, and apply() takes the topology and jobs again, so it
 * keeps nothing else alive. */

%rename(DecisionKind) pl_decision_kind;
typedef enum pl_decision_kind {
    PL_DECISION_PLACED = 0, PL_DECISION_POSTPONED = 1, PL_DECISION_WAITING = 2,
    PL_DECISION_REJECTED = 3
} pl_decision_kind;

%{
/* The jobs of a set as the array pl_policy_place() wants (borrowed). */
static Job **plb_queue(const JobSet *jobs)
{
    int32_t n = pl_jobset_count(jobs);
    Job **q = malloc(sizeof *q * (size_t)(n > 0 ? n : 1));
    if (!q) {
        plb_status = pl_solver_error(PL_ENOMEM, "out of memory");
        return NULL;
    }
    for (int32_t i = 0; i < n; i++)
        q[i] = pl_jobset_get(jobs, i);
    return q;
}
%}

%inline %{
/** Number of registered placement policies (see policy_name()). */
static int policy_count(void) { return pl_policy_count(); }
/** Name of policy i, built-in policies first. */
static const char *policy_name(int i)
{
    const pl_policy_ops *ops = pl_policy_get(i);
    if (!ops)
        PLB_FAIL(PL_EINVAL, NULL, "policy index %d out of range", i);
    return ops->name;
}
/** Name of a decision kind: "placed", "postponed", "waiting" or "rejected". */
static const char *decision_kind_name(pl_decision_kind k)
{
    static const char *const names[] = { "placed", "postponed", "waiting", "rejected" };
    return (unsigned)k < 4 ? names[k] : "?";
}
%}

%{
static int plb_decision(const Decisions *d, int32_t i, pl_decision_info *info)
{
    pl_status st = pl_decision_get(d, i, info);
    if (st != PL_OK)
        plb_status = st;
    return st == PL_OK;
}
%}

/* Options of the policies that have their own (pl_policy_opts.policy_opts):
 * one object per policy call or simulator, holding the option struct of
 * that policy and copies of every array it points to, so nothing it
 * hands to the library is borrowed from the script. */
%{
typedef struct PolicyOptions {
    pl_policy_ext_kind kind;
    char *policy;                /* for messages */
    pl_sa_policy_opts sa;
    pl_two_level_opts two_level;
    pl_gpu_qos_opts gpu_qos;
    plb_strs_in platforms, workloads; /* owned; two_level points into them */
    double *task_runtime_s;           /* owned, [workloads * platforms] */
    char *usage_traces;               /* owned; gpu_qos.usage_traces points to it */
} PolicyOptions;

static void plb_policy_options_free(PolicyOptions *o)
{
    if (!o)
        return;
    plb_strs_in_free(&o->platforms);
    plb_strs_in_free(&o->workloads);
    free(o->task_runtime_s);
    free(o->usage_traces);
    free(o->policy);
    free(o);
}

/* Re-point two_level and gpu_qos at this object's own arrays and strings
 * (after a copy or a set). */
static void plb_policy_options_link(PolicyOptions *o)
{
    o->gpu_qos.usage_traces = o->usage_traces;
    o->two_level.nplatforms = o->platforms.n;
    o->two_level.platforms = (const char *const *)o->platforms.v;
    o->two_level.nworkloads = o->workloads.n;
    o->two_level.workloads = (const char *const *)o->workloads.v;
    o->two_level.task_runtime_s = o->task_runtime_s;
}

static int plb_strs_copy(plb_strs_in *dst, const plb_strs_in *src)
{
    dst->n = 0;
    dst->v = calloc((size_t)(src->n > 0 ? src->n : 1), sizeof *dst->v);
    if (!dst->v)
        return 0;
    for (int32_t i = 0; i < src->n; i++) {
        if (!(dst->v[i] = strdup(src->v[i])))
            return 0;
        dst->n = i + 1;
    }
    return 1;
}

static PolicyOptions *plb_policy_options_copy(const PolicyOptions *src)
{
    PolicyOptions *o = calloc(1, sizeof *o);
    if (!o)
        PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
    *o = *src;
    o->platforms = (plb_strs_in){ 0, NULL };
    o->workloads = (plb_strs_in){ 0, NULL };
    o->task_runtime_s = NULL;
    o->usage_traces = NULL;
    o->policy = strdup(src->policy);
    size_t cells = (size_t)src->platforms.n * (size_t)src->workloads.n;
    o->task_runtime_s = malloc(sizeof(double) * (cells > 0 ? cells : 1));
    if (src->usage_traces)
        o->usage_traces = strdup(src->usage_traces);
    if (!o->policy || !o->task_runtime_s || (src->usage_traces && !o->usage_traces)
        || !plb_strs_copy(&o->platforms, &src->platforms)
        || !plb_strs_copy(&o->workloads, &src->workloads)) {
        plb_policy_options_free(o);
        PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
    }
    if (cells > 0)
        memcpy(o->task_runtime_s, src->task_runtime_s, sizeof(double) * cells);
    plb_policy_options_link(o);
    return o;
}

/* The struct for pl_policy_opts.policy_opts (NULL: the policy's defaults). */
static const void *plb_policy_ext(const PolicyOptions *o)
{
    if (!o)
        return NULL;
    switch (o->kind) {
    case PL_POLICY_EXT_SA: return &o->sa;
    case PL_POLICY_EXT_TWO_LEVEL: return &o->two_level;
    default: return &o->gpu_qos;
    }
}

/* PL_EINVAL unless o holds the options of `kind`: an option given to a
 * policy that does not have it. */
static int plb_policy_options_is(PolicyOptions *o, pl_policy_ext_kind kind, const char *option)
{
    if (o->kind == kind)
        return 1;
    plb_status = pl_solver_error(PL_EINVAL, "policy '%s' has no option '%s'", o->policy, option);
    return 0;
}
%}

%nodefaultctor PolicyOptions;
/** The options of a policy that has its own (sa-placement, two-level, gpu-qos). Policy(name,
 *  **options) and placement.policy_options() build one from keyword arguments. */
typedef struct {} PolicyOptions;

%extend PolicyOptions {
    /** The defaults of a policy that has options of its own: "sa-placement",
     *  "two-level" or "gpu-qos" (PL_EINVAL for any other name). */
    PolicyOptions(const char *policy)
    {
        static const struct { const char *name; pl_policy_ext_kind kind; } known[] = {
            { "sa-placement", PL_POLICY_EXT_SA },
            { "two-level", PL_POLICY_EXT_TWO_LEVEL },
            { "gpu-qos", PL_POLICY_EXT_GPU_QOS },
        };
        for (size_t i = 0; policy && i < sizeof known / sizeof known[0]; i++) {
            if (strcmp(policy, known[i].name) != 0)
                continue;
            PolicyOptions *o = calloc(1, sizeof *o);
            if (!o || !(o->policy = strdup(policy))) {
                free(o);
                PLB_FAIL(PL_ENOMEM, NULL, "out of memory");
            }
            o->kind = known[i].kind;
            pl_sa_policy_opts_init(&o->sa);
            pl_two_level_opts_init(&o->two_level);
            pl_gpu_qos_opts_init(&o->gpu_qos);
            return o;
        }
        PLB_FAIL(PL_EINVAL, NULL, "policy '%s' has no options of its own (only sa-placement, "
                 "two-level and gpu-qos have)", policy ? policy : "(null)");
    }
    ~PolicyOptions() { plb_policy_options_free($self); }
    /** The policy these options are for. */
    const char *policy() { return $self->policy; }

    /** sa-placement: "batch" (default) or "online". */
    void set_mode(const char *mode)
    {
        if (!plb_policy_options_is($self, PL_POLICY_EXT_SA, "mode"))
            return;
        if (mode && strcmp(mode, "batch") == 0)
            $self->sa.mode = PL_SA_BATCH;
        else if (mode && strcmp(mode, "online") == 0)
            $self->sa.mode = PL_SA_ONLINE;
        else
            PLB_FAIL(PL_EINVAL, , "sa-placement: mode '%s' (expected batch or online)", mode ? mode : "(null)");
    }
    /** sa-placement: the built-in predictor's slowdowns, "lookup" (default: the profiles'
     *  measured ones) or "tree" (a bagged REPTree learned from the profiles; doc/policies.md 4e).
     *  gpu-qos: the default predictor's device side, "profiles" (default: share_factor for
     *  every pair) or "usage" (the pair's GPU usage patterns, falling back to share_factor). */
    void set_model(const char *model)
    {
        if ($self->kind == PL_POLICY_EXT_GPU_QOS) {
            if (model && strcmp(model, "profiles") == 0)
                $self->gpu_qos.model = PL_GPU_QOS_MODEL_PROFILES;
            else if (model && strcmp(model, "usage") == 0)
                $self->gpu_qos.model = PL_GPU_QOS_MODEL_USAGE;
            else
                PLB_FAIL(PL_EINVAL, , "gpu-qos: model '%s' (expected profiles or usage)",
                         model ? model : "(null)");
            return;
        }
        if (!plb_policy_options_is($self, PL_POLICY_EXT_SA, "model"))
            return;
        if (model && strcmp(model, "lookup") == 0)
            $self->sa.model = PL_SA_MODEL_LOOKUP;
        else if (model && strcmp(model, "tree") == 0)
            $self->sa.model = PL_SA_MODEL_TREE;
        else
            PLB_FAIL(PL_EINVAL, , "sa-placement: model '%s' (expected lookup or tree)", model ? model : "(null)");
    }
    /** sa-placement: moves tried (the library checks the values when the policy runs). */
    void set_iterations(int64_t n)
    {
        if (plb_policy_options_is($self, PL_POLICY_EXT_SA, "iterations"))
            $self->sa.iterations = n;
    }
    /** sa-placement: the annealing's starting temperature. */
    void set_initial_temperature(double t)
    {
        if (plb_policy_options_is($self, PL_POLICY_EXT_SA, "initial_temperature"))
            $self->sa.initial_temperature = t;
    }
    /** sa-placement: the factor the temperature is multiplied by after each move. */
    void set_cooling(double c)
    {
        if (plb_policy_options_is($self, PL_POLICY_EXT_SA, "cooling"))
            $self->sa.cooling = c;
    }
    /** gpu-qos: a latency-sensitive job's slowdown must stay below this. */
    void set_qos(double q)
    {
        if (plb_policy_options_is($self, PL_POLICY_EXT_GPU_QOS, "qos"))
            $self->gpu_qos.qos = q;
    }
    /** gpu-qos: "mmp" (default), "mmp-stuck", "greedy" or "optimal". */
    void set_pairing(const char *pairing)
    {
        static const char *const names[] = { "mmp", "mmp-stuck", "greedy", "optimal" };
        static const pl_gpu_pairing_algo algos[] = { PL_GPU_PAIRING_MMP, PL_GPU_PAIRING_MMP_STUCK,
                                                     PL_GPU_PAIRING_GREEDY, PL_GPU_PAIRING_OPTIMAL };
        if (!plb_policy_options_is($self, PL_POLICY_EXT_GPU_QOS, "pairing"))
            return;
        for (int i = 0; pairing && i < 4; i++) {
            if (strcmp(pairing, names[i]) == 0) {
                $self->gpu_qos.pairing = algos[i];
                return;
            }
        }
        PLB_FAIL(PL_EINVAL, , "gpu-qos: pairing '%s' (expected mmp, mmp-stuck, greedy or optimal)",
                 pairing ? pairing : "(null)");
    }
    /** gpu-qos: the default predictor's cost of sharing the GPU itself (>= 1; default 1: the
     *  profiles alone); under model "usage", the factor of pairs without usage patterns. */
    void set_share_factor(double f)
    {
        if (plb_policy_options_is($self, PL_POLICY_EXT_GPU_QOS, "share_factor"))
            $self->gpu_qos.share_factor = f;
    }
    /** gpu-qos, model "usage": a usage-pattern CSV added to the built-in Table 5.1 patterns
     *  (doc/simulator.md sec. 3c), or None/nil (default): the built-in ones only. The library
     *  reads it when the policy is created (IOError, ParseError). */
    void set_usage_traces(const char *path = NULL)
    {
        if (!plb_policy_options_is($self, PL_POLICY_EXT_GPU_QOS, "usage_traces"))
            return;
        char *p = path ? strdup(path) : NULL;
        if (path && !p)
            PLB_FAIL(PL_ENOMEM, , "out of memory");
        free($self->usage_traces);
        $self->usage_traces = p;
        plb_policy_options_link($self);
    }
    /** two-level: the table t_K(P) of one task's run time in seconds,
     *  task_runtime_s row-major [workload][platform]. */
    void set_task_runtimes(plb_strs_in platforms, plb_strs_in workloads, plb_doubles_in task_runtime_s)
    {
        if (!plb_policy_options_is($self, PL_POLICY_EXT_TWO_LEVEL, "task_runtime_s"))
            return;
        if ((int64_t)platforms.n * workloads.n != task_runtime_s.n)
            PLB_FAIL(PL_EINVAL, , "two-level: %d run times for %d workloads x %d platforms",
                     (int)task_runtime_s.n, (int)workloads.n, (int)platforms.n);
        /* Copies: the arguments are freed by their freearg typemaps. */
        plb_strs_in p = { 0, NULL }, w = { 0, NULL };
        double *t = malloc(sizeof *t * (size_t)(task_runtime_s.n > 0 ? task_runtime_s.n : 1));
        if (!t || !plb_strs_copy(&p, &platforms) || !plb_strs_copy(&w, &workloads)) {
            free(t);
            plb_strs_in_free(&p);
            plb_strs_in_free(&w);
            PLB_FAIL(PL_ENOMEM, , "out of memory");
        }
        if (task_runtime_s.n > 0)
            memcpy(t, task_runtime_s.v, sizeof *t * (size_t)task_runtime_s.n);
        plb_strs_in_free(&$self->platforms);
        plb_strs_in_free(&$self->workloads);
        free($self->task_runtime_s);
        $self->platforms = p;
        $self->workloads = w;
        $self->task_runtime_s = t;
        plb_policy_options_link($self);
    }
}

%newobject place;
%nodefaultctor Decisions;
/** A policy's decisions, one per job in queue order, as Sched.place() and placement.place() return
 *  them: kind(i), gpus(i) (vertex ids), gpu_paths(i) (their paths), machine(i), utility(i), ...
 *  Policy.place() wraps them in a Placement. */
typedef struct {} Decisions;

%{
/** Decide placements of jobs (in queue order) on topo with a named policy.
 *  profiles NULL: the builtin SC17 profiles. The topology is not modified. */
static Decisions *place(const char *policy, const Topology *topo, const JobSet *jobs,
                          const ProfileSet *profiles, uint64_t seed,
                          int32_t max_placed, double network_load, const PolicyOptions *options)
{
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    if (policy)
        o.policy = policy;
    o.profiles = profiles;
    o.seed = seed;
    o.max_placed = max_placed;
    o.network_load = network_load;
    o.policy_opts = plb_policy_ext(options);
    Job **q = plb_queue(jobs);
    if (!q)
        return NULL;
    Decisions *d;
    pl_status st = pl_policy_place(&o, topo, NULL, 0, q, pl_jobset_count(jobs), &d);
    free(q);
    PLB_CHECK(st, NULL);
    return d;
}
%}
/** Decide placements of jobs (in queue order) on topo with a named policy.
 *  profiles NULL: the builtin SC17 profiles; options NULL: the policy's
 *  defaults. The topology is not modified. */
Decisions *place(const char *policy, const Topology *topo, const JobSet *jobs,
                 const ProfileSet *profiles = NULL, uint64_t seed = 1,
                 int32_t max_placed = 0, double network_load = 0,
                 const PolicyOptions *options = NULL);


%extend Decisions {
    ~Decisions() { pl_decision_free($self); }
    /** Number of decisions (one per job of the queue). */
    int32_t count() { return pl_decision_count($self); }
    /** Kind of decision i (DECISION_PLACED, _POSTPONED, _WAITING, _REJECTED). */
    pl_decision_kind kind(int32_t i)
    {
        pl_decision_info d;
        return plb_decision($self, i, &d) ? d.kind : PL_DECISION_REJECTED;
    }
    /** GPU vertex of each entry of job i: one per task, k for a task of k GPUs (-1 for a CPU-only task;
     *  empty unless placed). */
    plb_ints gpus(int32_t i)
    {
        plb_ints r = { 0, NULL };
        pl_decision_info d;
        if (!plb_decision($self, i, &d))
            return r;
        r = plb_ints_alloc(d.ngpus);
        if (r.v && d.ngpus > 0)
            memcpy(r.v, d.gpus, sizeof *r.v * (size_t)d.ngpus);
        return r;
    }
    /** Where each entry runs: its GPU, or a CPU-only task's package (gpus(i) has -1 there). */
    plb_ints hosts(int32_t i)
    {
        plb_ints r = { 0, NULL };
        pl_decision_info d;
        if (!plb_decision($self, i, &d))
            return r;
        r = plb_ints_alloc(d.ngpus);
        if (r.v && d.ngpus > 0)
            memcpy(r.v, d.hosts, sizeof *r.v * (size_t)d.ngpus);
        return r;
    }
    /** Storage vertex holding the NVMe demand of each entry of job i (-1 for a task without one); empty
     *  unless placed with a storage demand. */
    plb_ints storage(int32_t i)
    {
        plb_ints r = { 0, NULL };
        pl_decision_info d;
        if (!plb_decision($self, i, &d) || !d.storage)
            return r;
        r = plb_ints_alloc(d.ngpus);
        if (r.v && d.ngpus > 0)
            memcpy(r.v, d.storage, sizeof *r.v * (size_t)d.ngpus);
        return r;
    }
    /** Machine vertex of job i (-1 if none or several). */
    int32_t machine(int32_t i)
    {
        pl_decision_info d;
        return plb_decision($self, i, &d) ? d.machine : -1;
    }
    /** Utility of job i's placement (0..1). */
    double utility(int32_t i)
    {
        pl_decision_info d;
        return plb_decision($self, i, &d) ? d.utility : 0;
    }
    /** Communication cost of job i's placement (traffic x distance summed over task pairs). */
    int64_t comm_cost(int32_t i)
    {
        pl_decision_info d;
        return plb_decision($self, i, &d) ? d.comm_cost : 0;
    }
    /** Predicted slowdown of job i from interference (1: none). */
    double slowdown(int32_t i)
    {
        pl_decision_info d;
        return plb_decision($self, i, &d) ? d.slowdown : 1;
    }
    /** Why job i was not placed (None or "" when placed). */
    const char *reason(int32_t i)
    {
        pl_decision_info d;
        return plb_decision($self, i, &d) ? d.reason : NULL;
    }
    /** Allocate the placed jobs' resources on topo (all or nothing); jobs = the queue given to place(). */
    void apply(Topology *topo, const JobSet *jobs, const ProfileSet *profiles = NULL)
    {
        pl_policy_opts o;
        pl_policy_opts_init(&o);
        o.profiles = profiles;
        Job **q = plb_queue(jobs);
        if (!q)
            return;
        pl_status st = pl_decision_apply($self, q, pl_jobset_count(jobs), topo);
        free(q);
        PLB_CHECK(st, );
    }
}

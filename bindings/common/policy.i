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
static int policy_count(void) { return pl_policy_count(); }
static const char *policy_name(int i)
{
    const pl_policy_ops *ops = pl_policy_get(i);
    if (!ops)
        PLB_FAIL(PL_EINVAL, NULL, "policy index %d out of range", i);
    return ops->name;
}
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

%newobject place;
%nodefaultctor Decisions;
typedef struct {} Decisions;

%{
/** Decide placements of jobs (in queue order) on topo with a named policy.
 *  profiles NULL: the builtin SC17 profiles. The topology is not modified. */
static Decisions *place(const char *policy, const Topology *topo, const JobSet *jobs,
                          const ProfileSet *profiles, uint64_t seed,
                          int32_t max_placed, double network_load)
{
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    if (policy)
        o.policy = policy;
    o.profiles = profiles;
    o.seed = seed;
    o.max_placed = max_placed;
    o.network_load = network_load;
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
 *  profiles NULL: the builtin SC17 profiles. The topology is not modified. */
Decisions *place(const char *policy, const Topology *topo, const JobSet *jobs,
                 const ProfileSet *profiles = NULL, uint64_t seed = 1,
                 int32_t max_placed = 0, double network_load = 0);


%extend Decisions {
    ~Decisions() { pl_decision_free($self); }
    int32_t count() { return pl_decision_count($self); }
    pl_decision_kind kind(int32_t i)
    {
        pl_decision_info d;
        return plb_decision($self, i, &d) ? d.kind : PL_DECISION_REJECTED;
    }
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
    int32_t machine(int32_t i)
    {
        pl_decision_info d;
        return plb_decision($self, i, &d) ? d.machine : -1;
    }
    double utility(int32_t i)
    {
        pl_decision_info d;
        return plb_decision($self, i, &d) ? d.utility : 0;
    }
    int64_t comm_cost(int32_t i)
    {
        pl_decision_info d;
        return plb_decision($self, i, &d) ? d.comm_cost : 0;
    }
    double slowdown(int32_t i)
    {
        pl_decision_info d;
        return plb_decision($self, i, &d) ? d.slowdown : 1;
    }
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
        pl_policy_request req = { &o, topo, NULL, 0, q, pl_jobset_count(jobs) };
        pl_status st = pl_decision_apply($self, &req, topo);
        free(q);
        PLB_CHECK(st, );
    }
}

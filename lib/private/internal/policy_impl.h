/* Internals shared by the placement policies (not installed).
 *
 * A policy call works on a context: a private copy of the topology on which
 * the jobs placed so far in the call are allocated, a table of the machines
 * (their GPUs, sockets and GPU distances), and who holds each GPU (running
 * jobs and jobs placed earlier in the call), for interference. */
#ifndef PL_POLICY_IMPL_H
#define PL_POLICY_IMPL_H

#include <placement/policy.h>
#include "internal/core.h"

/* ---- resource plans (decision.c) ----------------------------------------- */

/* One amount of one resource on one vertex. */
typedef struct pl_plan_item {
    int32_t v;
    pl_resource res;
    int64_t amount;
} pl_plan_item;

/* What placing task i of job on hosts[i] takes (policy.h's resource rule:
 * a GPU for a GPU or fractional task, a package for a CPU-only one), merged
 * per (vertex, resource). *items is freed by the caller. */
PL_INTERNAL pl_status pl_plan_build(const pl_topology *t, const pl_job *job, const int32_t *hosts,
                                    int32_t k, pl_plan_item **items, int32_t *n);
/* The same for tasks[i] (NULL: task i) of job on hosts[i], i < k, into a
 * buffer the caller keeps (*items of *cap, grown with pl_grow). */
PL_INTERNAL pl_status pl_plan_build_tasks(const pl_topology *t, const pl_job *job, const int32_t *tasks,
                                          const int32_t *hosts, int32_t k, pl_plan_item **items,
                                          int64_t *cap, int32_t *n);
/* The milli of GPU g a whole-GPU task takes: capacity / units (0: g does
 * not model them). */
PL_INTERNAL int64_t pl_gpu_milli_share(const pl_topology *t, int32_t g);
/* A task that needs no GPU at all (gpus 0, gpu_milli 0). */
static inline int pl_task_cpu_only(const pl_task_demand *d)
{
    return d->gpus == 0 && d->gpu_milli == 0;
}
/* 1 if every item fits the free amounts (use_capacity: the capacities). */
PL_INTERNAL int pl_plan_fits(const pl_topology *t, const pl_plan_item *items, int32_t n,
                             int use_capacity);
/* Allocate every item (the caller has checked they fit, or restores a snapshot). */
PL_INTERNAL pl_status pl_plan_alloc(pl_topology *t, const pl_plan_item *items, int32_t n);

/* The resources of a placement made machine by machine (DRMaestro): task
 * m's cores and memory spread over the packages and NUMA nodes of machine[m]
 * in preorder (free there minus what the plan took already), GPU x's unit
 * and the GPU memory of its task gpu_task[x] on gpus[x]. *short_task is the
 * first task whose machine lacks the cores or memory, -1 if none. *items is
 * freed by the caller. */
PL_INTERNAL pl_status pl_plan_build_spread(const pl_topology *t, const pl_job *job, const int32_t *machine,
                                           const int32_t *gpu_task, const int32_t *gpus, int32_t ngpus,
                                           pl_plan_item **items, int32_t *n, int32_t *short_task);

/* A placed decision may carry the policy's own resource plan (copied), for
 * policies whose placements do not follow policy.h's rule (DRMaestro takes a
 * task's cores on its machine, not its GPU's package). */
/* pl_policy_create() of a policy given by its table rather than its name
 * (one the registry does not list: the NVMe composition rules, which the
 * simulator's NVMe experiments run). opts->policy must be ops->name. */
PL_INTERNAL pl_status pl_policy_create_ops(const pl_policy_ops *ops, const pl_policy_opts *opts, pl_policy **out);
PL_INTERNAL pl_status pl_decision_set_plan(pl_decision *d, int32_t i, const pl_plan_item *items, int32_t n);
/* What placed decision i takes for job on t: its own plan, else policy.h's
 * rule on its GPUs. *items is freed by the caller. */
PL_INTERNAL pl_status pl_decision_plan(const pl_decision *d, int32_t i, const pl_topology *t,
                                       const pl_job *job, pl_plan_item **items, int32_t *n);

/* Placed decision i has `remote` GPUs serving a task whose cores are on
 * another machine (DRMaestro's disaggregation; the simulator slows them). */
/* The storage vertex of each entry of placed decision i (copied; the
 * engine's storage pass, storage.c: pl_decision_set() leaves it NULL). */
PL_INTERNAL pl_status pl_decision_set_storage(pl_decision *d, int32_t i, const int32_t *storage);
PL_INTERNAL pl_status pl_decision_set_remote(pl_decision *d, int32_t i, int32_t remote);
PL_INTERNAL int32_t pl_decision_remote(const pl_decision *d, int32_t i);

/* A decision set of n WAITING entries. */
PL_INTERNAL pl_status pl_decision_create_internal(int32_t n, pl_decision **out);
/* Set decision i to kind (not PLACED) with reason; no machine, slowdown 1. */
PL_INTERNAL pl_status pl_decision_set_kind(pl_decision *out, int32_t i, pl_decision_kind kind,
                                           const char *reason);

/* ---- sets of word sequences (keyset.c) ------------------------------------ */

typedef struct pl_keyset_entry {
    int64_t off, len;       /* words[off .. off + len) */
    uint64_t hash;
} pl_keyset_entry;

/* Zero-filled = empty. Ids are 0, 1, 2, ... in insertion order. */
typedef struct pl_keyset {
    int64_t *words;
    int64_t nwords, capwords;
    pl_keyset_entry *e;
    int32_t n;
    int64_t cap;
    int32_t *slot;          /* open addressing: entry index or -1 */
    int64_t nslots;         /* a power of two, or 0 */
    int32_t last;           /* id + 1 of the sequence last added or found, 0: none */
} pl_keyset;

/* *id = the id of the sequence w[0..n) (*added = 1: it was not there). */
PL_INTERNAL pl_status pl_keyset_add(pl_keyset *ks, const int64_t *w, int64_t n, int32_t *id, int *added);
/* Empty the set, keeping its memory. */
PL_INTERNAL void pl_keyset_clear(pl_keyset *ks);
PL_INTERNAL void pl_keyset_free(pl_keyset *ks);

/* ---- values kept across an instance's calls (keep.c) ------------------------ */

typedef struct pl_keep_entry {
    int64_t key;
    int64_t used;           /* the call that last found it */
    pl_job *job;            /* NULL: nothing kept yet */
    void *aux;              /* what else was made with it (NULL: nothing) */
} pl_keep_entry;

/* Jobs a policy instance derives from a queued job once and keeps while
 * the job waits, by a 64-bit key, each with something of its own (aux).
 * Zero-filled = empty; free_aux frees an aux (NULL: free()). An entry is
 * dropped at the end of the first call that does not find it. */
typedef struct pl_keep {
    pl_keyset index;        /* key -> entry */
    pl_keep_entry *e;
    int32_t n;
    int64_t cap;
    pl_keep_entry *retired; /* replaced in this call, freed at its end */
    int64_t nretired, capretired;
    int64_t call;
    void (*free_aux)(void *aux);
} pl_keep;

/* *e = the entry of key, made empty (job NULL) if there was none; either
 * way it counts as found in this call. Valid until the next find. */
PL_INTERNAL pl_status pl_keep_find(pl_keep *k, int64_t key, pl_keep_entry **e);
/* Keep job and aux in entry e (taken over: freed on failure); what they
 * replace lives until pl_keep_end(), as does everything the call found. */
PL_INTERNAL pl_status pl_keep_set(pl_keep *k, pl_keep_entry *e, pl_job *job, void *aux);
/* The end of a call: free what it replaced and the entries it did not find. */
PL_INTERNAL void pl_keep_end(pl_keep *k);
/* Free every entry and the table (k stays an empty pl_keep). */
PL_INTERNAL void pl_keep_free(pl_keep *k);

/* ---- scratch stack (arena.c) ----------------------------------------------- */

typedef struct pl_arena_chunk pl_arena_chunk;
/* Zero-filled = empty. */
typedef struct pl_arena {
    pl_arena_chunk *first, *cur;
} pl_arena;
typedef struct pl_arena_mark {
    pl_arena_chunk *chunk;
    size_t used;
} pl_arena_mark;

/* count x size zero-filled bytes, valid until released past; NULL (error
 * set) out of memory. */
PL_INTERNAL void *pl_arena_get(pl_arena *a, size_t count, size_t size);
/* The current top, and giving back everything taken since (LIFO). */
PL_INTERNAL pl_arena_mark pl_arena_save(const pl_arena *a);
PL_INTERNAL void pl_arena_release(pl_arena *a, pl_arena_mark m);
PL_INTERNAL void pl_arena_free(pl_arena *a);

/* ---- context (candidates.c) ---------------------------------------------- */

typedef struct pl_pmachine {
    int32_t vertex;
    const char *name;
    int32_t ngpus;
    int32_t *gpus;          /* GPU vertices in preorder */
    int32_t *gpu_socket;    /* per GPU: index into sockets[] */
    int32_t nsockets;
    int32_t *sockets;       /* package vertex (or -1: GPUs under no package) */
    int32_t *socket_total;  /* GPUs per socket */
    int64_t *dist;          /* ngpus x ngpus, computed on first use */
    int64_t maxdist;        /* largest GPU-pair distance */
    int64_t *tmin, *tmax;   /* per k: smallest / largest Eq. 3 t of k GPUs */
    int shares_dist;        /* dist, tmin and tmax are another machine's */
    int32_t shape;          /* machine shape (machine_class.c), -1: a shape of its own */
    int32_t cls;            /* machine class: shape and capacities, -1: a class of its own */
    int32_t *sub;           /* a classed machine's subtree in preorder */
    int32_t nsub;
} pl_pmachine;

typedef struct pl_occupant {
    const pl_job *job;
    int32_t ngpus;
    int32_t iclass;         /* equal for occupants of one workload type, size and GPU count */
} pl_occupant;

typedef struct pl_pctx {
    const pl_policy_request *req;
    const pl_profile_set *ps;
    pl_profile_set *owned_ps;
    pl_topology *work;      /* the caller's topology plus this call's placements */
    int32_t nvert;
    int32_t nmach;
    pl_pmachine *mach;
    int32_t *mgpus, *mblock; /* the machines' arrays (gpus; the others) */
    int32_t *gpu_mach;      /* per vertex: machine index of a GPU, else -1 */
    int32_t *gpu_index;     /* per vertex: index of a GPU in its machine */
    int32_t *owner;         /* per vertex: occupant holding the GPU, else -1 */
    pl_occupant *occ;
    int64_t nocc, capocc;
    /* Per machine: the occupants holding a GPU there. owner[]
     * keeps only the last of the jobs sharing a GPU of units >= 2, and
     * anti-affinity must see them all. */
    int32_t **mocc;
    int64_t *nmocc, *capmocc;
    uint64_t rng;           /* "random": splitmix64 state */
    /* Machine shapes and classes (machine_class.c): computed on first use;
     * per shape a machine whose distances are computed (-1: none yet);
     * scratch of one position per vertex (-1). */
    int classes_done;
    pl_keyset shapes, classes;
    int32_t *shape_dist;
    int64_t capshape;
    int32_t *subpos;
    /* Occupants' workload classes; machine states: each machine's state and
     * free GPU count (-1: not known since its last change), and per state
     * the last job that saw it (stamp) and the first machine it saw in it;
     * a scratch key. */
    pl_keyset occ_classes;
    pl_keyset states;
    int32_t *mstate, *mfree;
    int64_t *state_stamp;
    int64_t capstamp, stamp;
    int32_t *state_first;
    int64_t capfirst;
    int64_t *kbuf;
    int64_t capkbuf;
    /* Scratch: the stack of DRB and the evaluations, a resource plan, and
     * per occupant the last neighbour search that saw it. */
    pl_arena scratch;
    pl_plan_item *plan;
    int64_t capplan;
    int64_t *occ_seen;
    int64_t capseen, seen_stamp;
    /* The machines as hosts of the constraint model (constraint_check.c),
     * built on first use, and the text of the last rejection it gave. */
    int32_t *host_v;
    double *host_gpus;
    char reason[1024];
} pl_pctx;

/* A candidate placement of one job: task i on gpus[i]. */
typedef struct pl_cand {
    int32_t k;
    int32_t *gpus;
    int32_t machine;        /* machine index, -1 if several */
    double utility;
    int64_t comm;
    double slowdown;
} pl_cand;

PL_INTERNAL pl_status pl_pctx_create(const pl_policy_request *req, pl_pctx **out);
PL_INTERNAL void pl_pctx_free(pl_pctx *c);

/* GPU distance (machine matrices within a machine, Dijkstra across). */
PL_INTERNAL pl_status pl_pctx_dist(pl_pctx *c, int32_t a, int32_t b, int64_t *d);
/* Make sure machine m's distance matrix and t_min/t_max are computed. */
PL_INTERNAL pl_status pl_pctx_machine_ready(pl_pctx *c, int32_t m);
/* 1 if GPU vertex g is free in the work topology. */
PL_INTERNAL int pl_pctx_gpu_free(const pl_pctx *c, int32_t g);
/* Free GPUs of machine m (preorder) into out (cap >= ngpus); returns how many. */
PL_INTERNAL int32_t pl_pctx_free_gpus(const pl_pctx *c, int32_t m, int32_t *out);
/* Free GPUs of socket s of machine m. */
PL_INTERNAL int32_t pl_pctx_socket_free(const pl_pctx *c, int32_t m, int32_t s);

/* ---- machine classes (machine_class.c) ------------------------------------ */

/* Sort the machines by shape and class (once per context): machines of one
 * shape have subtrees of the same containment tree, kinds, links and
 * weights by preorder position, that no link leaves except at the root, and
 * GPUs on packages at the same positions, so the same GPU distances;
 * machines of one class also have the same capacities, so the same view for
 * every computation of a candidate on them. */
PL_INTERNAL pl_status pl_pctx_classes(pl_pctx *c);
/* Workload class of an occupant (type, size, GPUs: all its interference
 * depends on). */
PL_INTERNAL pl_status pl_pctx_occupant_class(pl_pctx *c, const pl_job *job, int32_t ngpus, int32_t *id);
/* Forget the machine states seen (a new job). */
PL_INTERNAL void pl_pctx_states_reset(pl_pctx *c);
/* *seen = 1 if a machine of m's class in the same state was recorded since
 * the last reset: the same allocated amounts on every vertex, the same
 * occupants by workload class on the same GPUs; otherwise record m's
 * state. A classless machine is never seen. A machine's state is kept
 * until pl_pctx_commit changes it: valid while the work topology and the
 * occupants change only through pl_pctx_commit. */
PL_INTERNAL pl_status pl_pctx_state_seen(pl_pctx *c, int32_t m, int *seen);
/* The same, naming the machine: *first = the first machine recorded in m's
 * class and state since the last reset, or m itself (now recorded) if none
 * was; m for a classless machine. */
PL_INTERNAL pl_status pl_pctx_state_first(pl_pctx *c, int32_t m, int32_t *first);
/* The free GPUs of machine m (pl_pctx_free_gpus), kept as the states are. */
PL_INTERNAL int32_t pl_pctx_free_count(pl_pctx *c, int32_t m);
/* Forget the states and free counts of the machines holding vertex v
 * (pl_pctx_commit). */
PL_INTERNAL void pl_pctx_state_changed(pl_pctx *c, int32_t v);

/* *why = why a job can never be placed on this topology (REJECTED: no
 * tasks, too big, a constraint conflict naming the constraints; valid until
 * the next call), or NULL; k = its tasks. single_machine_only: the policy
 * puts every job on one machine. Fails only out of memory. */
PL_INTERNAL pl_status pl_pctx_job_check(pl_pctx *c, const pl_job *job, int32_t *k,
                                        int single_machine_only, const char **why);

/* ---- placement constraints (constraint_check.c) --------------------------- */

/* 1 if machine m may hold the whole job now: k GPUs, every task's node
 * constraints and node filter, no running or placed job there it must
 * avoid (job-to-job anti-affinity). */
PL_INTERNAL int pl_pctx_machine_admits(pl_pctx *c, const pl_job *job, int32_t m, int32_t k);
/* 1 if machine m may hold some task of job now (multi-machine placements). */
PL_INTERNAL int pl_pctx_machine_usable(pl_pctx *c, const pl_job *job, int32_t m);
/* 1 if task t of job may run on machine m (node constraints, node filter). */
PL_INTERNAL int pl_pctx_task_admits(const pl_pctx *c, const pl_job *job, int32_t t, int32_t m);
/* An occupant of machine m that job must not share it with, or NULL. */
PL_INTERNAL const pl_job *pl_pctx_machine_avoided(const pl_pctx *c, const pl_job *job, int32_t m);
/* The one check of a candidate (task i on gpus[i]): node constraints and
 * filter of each task, task pairs that must or must not share a machine
 * (one_machine: all tasks must), job-to-job anti-affinity with every
 * occupant. NULL if it passes, else why not (in buf, or a static text). */
PL_INTERNAL const char *pl_pctx_constraint_violation(pl_pctx *c, const pl_job *job, const int32_t *gpus,
                                                     int32_t k, int one_machine, char *buf, size_t size);
/* *conflict = 1 and buf = the thesis's conflicts of job's constraints on
 * the context's machines (one_machine: all its tasks share one). */
PL_INTERNAL pl_status pl_pctx_constraint_conflicts(pl_pctx *c, const pl_job *job, int one_machine,
                                                   char *buf, size_t size, int *conflict);

/* Fill utility, comm cost and slowdown of job on gpus (k of them); 0 if the
 * resources do not fit the work topology or anti-collocation is violated
 * (*ok = 0). */
PL_INTERNAL pl_status pl_pctx_evaluate(pl_pctx *c, const pl_job *job, pl_cand *cand, int *ok);

/* Interference terms of job if it ran on the sockets of gpus (n of them):
 * mean (form-dependent), worst and max slowdown. */
PL_INTERNAL pl_status pl_pctx_interference(pl_pctx *c, const pl_job *job, int32_t k,
                                           const int32_t *gpus, int32_t n, pl_utility_form form,
                                           double *mean, double *worst, double *max_slowdown);
/* Eq. 5 over the sockets holding the GPUs of dom (n of them), after taking
 * the n_used GPUs of used. */
PL_INTERNAL pl_status pl_pctx_fragmentation(pl_pctx *c, const int32_t *dom, int32_t n,
                                            const int32_t *used, int32_t n_used, double *omega);

/* Allocate the candidate in the work topology and record its occupant. */
PL_INTERNAL pl_status pl_pctx_commit(pl_pctx *c, const pl_job *job, const pl_cand *cand);

/* ---- the driver shared by the built-in policies (engine.c) --------------- */

typedef enum pl_choose_result {
    PL_CHOSEN = 0,   /* cand filled */
    PL_NO_FIT = 1    /* nothing fits now (WAITING) */
} pl_choose_result;

typedef struct pl_engine_rules pl_engine_rules;

/* Pick a placement of job (k GPUs) in the context; cand->gpus has room for k. */
typedef pl_status (*pl_choose_fn)(pl_pctx *c, const pl_job *job, int32_t k, const pl_engine_rules *rules,
                                  pl_cand *cand, pl_choose_result *res);
/* A baseline's rule on one machine: k of the free GPUs of machine m into
 * gpus; 0 if it has fewer. */
typedef int (*pl_pick_fn)(pl_pctx *c, int32_t m, int32_t k, int32_t *gpus);
/* A baseline's order across machines: negative when candidate a is
 * preferred to b. */
typedef double (*pl_rank_fn)(pl_pctx *c, const pl_cand *a, const pl_cand *b);

/* What a policy driven by the engine is (pl_policy_ops::data): its choice
 * and the queue rules. */
struct pl_engine_rules {
    pl_choose_fn choose;
    int block_on_wait;      /* fcfs: the first waiting job blocks the rest */
    int postpone;           /* topo-aware-p */
    int single_machine;     /* baselines: a job is placed on one machine */
    pl_pick_fn pick;        /* for the baselines' shared choose */
    pl_rank_fn rank;
};

/* pl_policy_ops::place of every engine-driven policy: pl_engine_run() with
 * the rules in req->data. */
PL_INTERNAL pl_status pl_engine_place(const pl_policy_request *req, pl_decision *out);

/* Define a built-in policy: its ops table, with place function and data. */
#define PL_POLICY_DEFINE(sym, pname, pdescription, pplace, pdata) \
    const pl_policy_ops sym = {.name = (pname), .description = (pdescription), .place = (pplace), \
                               .version = PL_POLICY_OPS_VERSION, .data = (pdata)}

PL_INTERNAL pl_status pl_engine_run(const pl_policy_request *req, pl_decision *out,
                                    const pl_engine_rules *rules);

/* topo-aware's job utility for job on each of machines[n] (machine
 * vertices) alone, -1 where it does not fit now or is not admissible. */
PL_INTERNAL pl_status pl_topo_aware_scores(const pl_policy_request *req, const pl_job *job,
                                           const int32_t *machines, int32_t n, double *scores);

/* Best-utility comparison used across machines: 1 if a beats b. */
PL_INTERNAL int pl_cand_better(const pl_cand *a, const pl_cand *b);
PL_INTERNAL void pl_cand_copy(pl_cand *dst, const pl_cand *src);

/* ---- DRB (drb.c) ------------------------------------------------------------ */

/* Map the k tasks of job onto the free GPUs P (n of them) by Algorithm 2;
 * gpus[i] receives task i's GPU. *ok = 0 when Algorithm 3's constraints
 * leave a task without a side. */
PL_INTERNAL pl_status pl_drb_map(pl_pctx *c, const pl_job *job, int32_t k, const int32_t *P,
                                 int32_t n, int32_t *gpus, int *ok);
/* The Fiduccia-Mattheyses pass on a physical split (exposed for tests). */
PL_INTERNAL pl_status pl_drb_refine(pl_pctx *c, const int32_t *P, int32_t n, uint8_t *side,
                                    int64_t *cut_before, int64_t *cut_after);

/* ---- constraints under drmaestro (drmaestro_constraints.c) ----------------- */

typedef struct pl_drm_cons pl_drm_cons;
PL_INTERNAL pl_status pl_drm_cons_create(const pl_policy_request *req, pl_drm_cons **out);
PL_INTERNAL void pl_drm_cons_free(pl_drm_cons *k);
/* Request r of the round is queued job queue_index (for the filter). */
PL_INTERNAL void pl_drm_cons_bind(pl_drm_cons *k, int32_t r, int32_t queue_index);
/* *why = why job's constraints can never be met here (REJECTED), or NULL. */
PL_INTERNAL pl_status pl_drm_cons_refusal(pl_drm_cons *k, const pl_job *job, const char **why);
/* The drm_admit_fn filter (ctx: the pl_drm_cons). */
PL_INTERNAL int pl_drm_cons_admit(void *ctx, int32_t req, int32_t task, int32_t provider);
/* Check a decoded placement of queued job queue_index (gpus per task) in
 * queue order: *why = the broken constraint, or NULL and the job counts as
 * placed for the anti-affinity of later ones. */
PL_INTERNAL pl_status pl_drm_cons_accept(pl_drm_cons *k, int32_t queue_index, const int32_t *gpus,
                                         const char **why);

/* ---- demands the policies do not model (demands.c) ------------------------- */

/* ops->place(req, out), with the jobs' CPU-only tasks, fractional GPUs, GPU
 * models and CPU millicores honoured (policy.h's file comment): a job that
 * has none of them, on a topology without GPUs partly shared, gets the
 * policy's decision untouched. */
PL_INTERNAL pl_status pl_demand_place(const pl_policy_ops *ops, const pl_policy_request *req, pl_decision *out);
/* 1 if the job has a demand the policies do not model (a CPU-only or
 * fractional task, CPU millicores, a GPU model): pl_demand_place() shows
 * it to them as a view. */
PL_INTERNAL int pl_demand_special(const pl_job *job);
/* *plain 1 if pl_demand_place() would hand queue[n] on t to the policy
 * untouched: no job is special and no GPU of t is partly shared. */
PL_INTERNAL pl_status pl_demand_plain(const pl_topology *t, pl_job *const *queue, int32_t n, int *plain);

/* ---- tasks of several GPUs (slots.c) ---------------------------------------- */

/* The slot jobs an instance keeps across its calls (slot_cache.c): keyed
 * by the user's job, checked against a copy of it. Zero-filled = empty. */
typedef struct pl_slot_cache {
    pl_keep kept;
    int64_t serial;         /* the last pl_job_slot_serial() given */
} pl_slot_cache;

/* *slots = the slot job of job (pl_job_slots()), NULL when job is its own.
 * With a cache: the one kept since job was last seen unchanged, else a new
 * one with the next serial, borrowed until pl_slot_cache_end(). Without
 * (NULL): a new one, serial 0, *owned = 1: the caller frees it. */
PL_INTERNAL pl_status pl_slot_cache_get(pl_slot_cache *c, const pl_job *job, pl_job **slots, int *owned);
/* The end of a call (NULL: nothing): drop the slot jobs it did not use. */
PL_INTERNAL void pl_slot_cache_end(pl_slot_cache *c);
PL_INTERNAL void pl_slot_cache_free(pl_slot_cache *c);

/* pl_demand_place() on the slot jobs (pl_job_slots()) of the queued and
 * running jobs, from cache (NULL: made for this call only): decision i has
 * one entry per slot of queue[i]; a placement the policy made that splits
 * a multi-GPU task over machines or gives two of its slots one GPU becomes
 * ::PL_DECISION_REJECTED with the reason. A call without multi-GPU tasks
 * is pl_demand_place() itself. */
PL_INTERNAL pl_status pl_slots_place(const pl_policy_ops *ops, const pl_policy_request *req,
                                     pl_slot_cache *cache, pl_decision *out);
/* 1 (default 0): instance p makes every slot job anew in each call, as
 * before its cache (bench/slot_cache.c compares the two). */
PL_INTERNAL void pl_policy_fresh_slots(pl_policy *p, int fresh);

/* ---- NVMe storage demands (storage.c) ---------------------------------------- */

/* pl_policy_ops::flags bit of the library's own policies that place NVMe
 * storage themselves (the composition rules, nvme_rules.c): the storage
 * pass leaves their decisions alone, waiting ones included (a composed
 * demand may exceed every single device). Not in the public header: a
 * policy outside the library cannot set a plan. */
#define PL_POLICY_OWN_STORAGE (1u << 31)

/* After the policy's decisions out on queue[n] over topo: each task with a
 * storage demand (pl_task_demand's storage_bw, storage_bytes) of a placed
 * job gets one storage device with both free, one of its machine first,
 * else one of the nearest pool, then the most free bandwidth, the lowest
 * id; the device's items join the decision's plan and its
 * pl_decision_info.storage. A job with no such device now becomes WAITING,
 * one no device its machines could ever reach REJECTED. A placed job whose
 * own plan already takes storage (a policy composing devices) keeps it:
 * every storage task names the plan's first device. No storage demand in
 * the queue: out untouched. */
PL_INTERNAL pl_status pl_storage_place(const pl_topology *topo, pl_job *const *queue, int32_t n,
                                       pl_decision *out);

/* ---- built-in policies ------------------------------------------------------ */

PL_INTERNAL extern const pl_policy_ops pl_policy_topo_aware;
PL_INTERNAL extern const pl_policy_ops pl_policy_topo_aware_p;
PL_INTERNAL extern const pl_policy_ops pl_policy_fcfs;
PL_INTERNAL extern const pl_policy_ops pl_policy_bf;
PL_INTERNAL extern const pl_policy_ops pl_policy_pack;
PL_INTERNAL extern const pl_policy_ops pl_policy_spread;
PL_INTERNAL extern const pl_policy_ops pl_policy_random;
PL_INTERNAL extern const pl_policy_ops pl_policy_drmaestro;
PL_INTERNAL extern const pl_policy_ops pl_policy_drmaestro_na;
PL_INTERNAL extern const pl_policy_ops pl_policy_firmament;
PL_INTERNAL extern const pl_policy_ops pl_policy_drmaestro_local;
PL_INTERNAL extern const pl_policy_ops pl_policy_drmaestro_na_local;

/* DRMaestro's co-location filter for one round (policies/drmaestro_coloc.c):
 * the sockets' Rodinia neighbours from the running jobs; n requests. */
typedef struct pl_drm_coloc pl_drm_coloc;
struct pl_drm;
PL_INTERNAL pl_status pl_drm_coloc_create(const pl_policy_request *req, const struct pl_drm *drm, int32_t n,
                                          pl_drm_coloc **out);
PL_INTERNAL void pl_drm_coloc_free(pl_drm_coloc *k);
/* Request r is job; level: 0 its placement misses no goal, 1 (postponed
 * max_postpone times) it may miss its own, 2 anything goes; remote_sf: its
 * expected slowdown on a remote GPU; local_only: no disaggregation (a GPU
 * task's home needs a free GPU, its GPUs only there; every request of a
 * round has the same flag). */
PL_INTERNAL void pl_drm_coloc_bind(pl_drm_coloc *k, int32_t r, const pl_job *job, int level, double remote_sf,
                                   int local_only);
/* Whether the filter refused request r a free GPU of its home machine this round. */
PL_INTERNAL int pl_drm_coloc_refused(const pl_drm_coloc *k, int32_t r);
/* drm_admit_fn of the GPU phase: provider has a free GPU whose socket
 * neighbours request r neither slows nor is slowed by beyond the tolerance. */
PL_INTERNAL int pl_drm_coloc_admit(void *ctx, int32_t r, int32_t task, int32_t provider);
/* drm_revise_fn of phase 1: refuses a task whose GPUs must be local (a
 * task of several GPUs; every GPU task without disaggregation or remote
 * options) the machine whose free GPUs phase 1 already gave more urgent
 * such tasks, when the clash involves a task of several GPUs; ctx: the
 * pl_drm_coloc. */
PL_INTERNAL int pl_drm_coloc_revise(void *ctx, const uint8_t *active, const int32_t *order,
                                     const uint8_t *remote_ok);
/* Move request r's GPUs (in place) to clean GPUs of their machines, avoiding
 * other[nother] (promised to the round's later placements); home[x] is the
 * machine of GPU x's task. Returns the GPUs that still do not fit its
 * level; when 0, they join their sockets for the round's later requests. */
PL_INTERNAL int pl_drm_coloc_choose(pl_drm_coloc *k, int32_t r, int32_t *gpus, const int32_t *home,
                                    int32_t ngpus, const int32_t *other, int32_t nother);
/* The state an instance's ops->create made (NULL for a stateless policy). */
PL_INTERNAL void *pl_policy_state(const pl_policy *p);
/* Running jobs a drmaestro instance's last round kept in its networks
 * (Algorithm 5); state: the instance's pl_policy_state(). */
PL_INTERNAL int32_t pl_drm_policy_kept(const void *state);
PL_INTERNAL extern const pl_policy_ops pl_policy_constraint_energy;
PL_INTERNAL extern const pl_policy_ops pl_policy_constraint_balance;
PL_INTERNAL extern const pl_policy_ops pl_policy_sa_placement;
PL_INTERNAL extern const pl_policy_ops pl_policy_two_level;
PL_INTERNAL extern const pl_policy_ops pl_policy_gpu_qos;
PL_INTERNAL extern const pl_policy_ops pl_policy_fgd, pl_policy_random_fit, pl_policy_dotprod,
    pl_policy_gpu_clustering, pl_policy_gpu_packing, pl_policy_bestfit, pl_policy_fgd_coarse, pl_policy_fgd_balance,
    pl_policy_fgd_price;

/* The driver of the two ch. 4 policies (constraint_policy.c): algorithm is
 * "constraint-energy" or "constraint-balance" (pl_constraint_place()). */
PL_INTERNAL pl_status pl_constraint_policy_run(const pl_policy_request *req, pl_decision *out,
                                               const char *algorithm);

#endif

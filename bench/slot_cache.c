/* Slot jobs kept across a scheduler's rounds (lib/policy/engine/slot_cache.c)
 * against made anew in every round, in one run: a pl_sched with `queued`
 * waiting jobs of one 4-GPU task over `rounds` rounds on a Minsky cluster.
 * Each round the placed jobs are committed, new ones refill the queue, and
 * the placed ones run `hold` rounds before release. Both modes must decide
 * the same: the bench compares a checksum of every decision. The placed
 * jobs are freed only at the end: drmaestro numbers its jobs by address,
 * so a new job at a freed one's address would make its decisions depend on
 * the allocator, not on the cache (tests/policy/test_slot_cache.c checks
 * the cache on reused addresses). firmament keys its network by the
 * queue's addresses, which the slot jobs now keep while they wait: its
 * decisions differ by design (it forgot a multi-GPU job every round).
 * Usage: bench-slot-cache [policy=topo-aware] [queued=200] [rounds=50] [machines=4] [hold=3]
 * Prints the CPU seconds of the rounds (pl_sched_place only) per mode, the
 * least of 5 runs each (interleaved: the machine is shared), and their
 * ratio. callgrind counts the instructions of one mode alone:
 * `valgrind --tool=callgrind bench-slot-cache topo-aware 200 50 4 3 kept`. */
#include <placement/placement.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal/sched_impl.h"

#define CHECK(x) do { pl_status s_ = (x); if (s_ != PL_OK) { \
    fprintf(stderr, "%s: %s\n", #x, pl_last_error()); exit(1); } } while (0)

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static pl_job *make_job(int id)
{
    char name[32];
    snprintf(name, sizeof name, "j%d", id);
    pl_job *j;
    CHECK(pl_job_create(name, &j));
    pl_task_demand d = {.gpus = 4, .cores = 4, .memory = 8LL << 30};
    CHECK(pl_job_add_task(j, &d, NULL));
    CHECK(pl_job_set_workload(j, id % 2 ? "bvlc_alexnet" : "bvlc_googlenet", id % 3 ? "1" : "4"));
    CHECK(pl_job_set_duration(j, 100));
    return j;
}

typedef struct outcome {
    double seconds;
    unsigned long long checksum;
    int placed;
} outcome;

typedef struct held {
    char id[32];
    int until;
} held;

static outcome run(const pl_policy_opts *o, int queued, int rounds, int machines, int hold, int fresh)
{
    pl_topology *m, *t;
    CHECK(pl_topology_builtin("minsky", &m));
    CHECK(pl_topology_cluster(m, machines, 32, 0, &t));
    pl_topology_free(m);
    pl_sched *s;
    CHECK(pl_sched_create(t, &s));
    pl_policy *p;
    CHECK(pl_policy_create(o, &p));
    pl_policy_fresh_slots(p, fresh);
    pl_sched_use_policy(s, p);
    pl_job **q = calloc((size_t)queued, sizeof *q);
    pl_job **done = calloc((size_t)(queued + rounds * queued), sizeof *done);
    held *h = calloc((size_t)(queued + rounds * queued), sizeof *h);
    int nq = 0, made = 0, nheld = 0;
    outcome res = {0, 1469598103934665603ull, 0};
    for (int r = 0; r < rounds; r++) {
        while (nq < queued)
            q[nq++] = make_job(made++);
        pl_decision *d;
        double t0 = cpu_now();
        CHECK(pl_sched_place(s, o, q, nq, &d));
        res.seconds += cpu_now() - t0;
        int kept = 0;
        for (int i = 0; i < nq; i++) {
            pl_decision_info info;
            CHECK(pl_decision_get(d, i, &info));
            res.checksum = (res.checksum ^ (unsigned long long)(info.kind + 7 * i)) * 1099511628211ull;
            if (info.kind != PL_DECISION_PLACED) {
                q[kept++] = q[i];
                continue;
            }
            for (int32_t g = 0; g < info.ngpus; g++)
                res.checksum = (res.checksum ^ (unsigned long long)info.gpus[g]) * 1099511628211ull;
            snprintf(h[nheld].id, sizeof h[nheld].id, "%s", pl_job_name(q[i]));
            h[nheld].until = r + hold;
            CHECK(pl_sched_commit(s, h[nheld].id, q[i], d, i));
            done[nheld++] = q[i];
            res.placed++;
        }
        nq = kept;
        pl_decision_free(d);
        for (int k = 0; k < nheld; k++)
            if (h[k].until == r)
                CHECK(pl_sched_release(s, h[k].id));
    }
    for (int i = 0; i < nq; i++)
        pl_job_free(q[i]);
    for (int k = 0; k < nheld; k++)
        pl_job_free(done[k]);
    free(q);
    free(done);
    free(h);
    pl_sched_free(s);
    pl_topology_free(t);
    return res;
}

int main(int argc, char **argv)
{
    const char *policy = argc > 1 ? argv[1] : "topo-aware";
    int queued = argc > 2 ? atoi(argv[2]) : 200, rounds = argc > 3 ? atoi(argv[3]) : 50;
    int machines = argc > 4 ? atoi(argv[4]) : 4, hold = argc > 5 ? atoi(argv[5]) : 3;
    /* "kept" or "fresh" alone (argv[6]): one mode, for callgrind. */
    const char *only = argc > 6 ? argv[6] : NULL;
    if (queued < 1 || rounds < 1 || machines < 1 || hold < 1) {
        fprintf(stderr, "usage: bench-slot-cache [policy] [queued>0] [rounds>0] [machines>0] [hold>0] [kept|fresh]\n");
        return 2;
    }
    printf("%s, %d queued 4-GPU jobs, %d rounds, %d Minsky machines, jobs held %d rounds\n", policy, queued,
           rounds, machines, hold);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = policy;
    outcome kept = {0}, fresh = {0};
    for (int rep = 0; rep < (only ? 1 : 5); rep++) {
        if (!only || !strcmp(only, "kept")) {
            outcome x = run(&o, queued, rounds, machines, hold, 0);
            x.seconds = rep && kept.seconds < x.seconds ? kept.seconds : x.seconds;
            kept = x;
        }
        if (!only || !strcmp(only, "fresh")) {
            outcome x = run(&o, queued, rounds, machines, hold, 1);
            x.seconds = rep && fresh.seconds < x.seconds ? fresh.seconds : x.seconds;
            fresh = x;
        }
    }
    if (!only || !strcmp(only, "kept"))
        printf("  slot jobs kept:       %8.3f s CPU in pl_sched_place, %d placed\n", kept.seconds, kept.placed);
    if (!only || !strcmp(only, "fresh"))
        printf("  made in every round:  %8.3f s CPU in pl_sched_place, %d placed\n", fresh.seconds, fresh.placed);
    if (only)
        return 0;
    int same = kept.checksum == fresh.checksum && kept.placed == fresh.placed;
    printf("  ratio (every round / kept): %.2f; decisions identical: %s\n",
           kept.seconds > 0 ? fresh.seconds / kept.seconds : 0, same ? "yes" : "NO");
    return same ? 0 : 1;
}

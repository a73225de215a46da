/* bench-scotch: topo-aware (interference and fragmentation off) against
 * Scotch's static mapping (Dual Recursive Bipartitioning, the algorithm
 * topo-aware builds on), on the same job graphs and topologies.
 *
 * For each topology (minsky, dgx1, dgx2, a 4-machine Minsky cluster) and each
 * job (k = 2 .. 8 tasks, three traffic patterns: all-to-all, ring, random
 * weights), both map the job onto the idle topology; the table prints both
 * communication costs: Eq. (3) (sum of GPU-pair distances) and the
 * traffic-weighted cost sum over edges of traffic x distance (what Scotch
 * minimises). Scotch's target architecture is the topology's GPUs with the
 * library's distance matrix (a complete graph whose edge weights are the
 * distances: a metric, so Scotch's path distances equal them).
 *
 * Scotch balances a job over its whole target, so on the full topology it
 * spreads a small job across sockets and machines. A second run therefore
 * gives Scotch only the k GPUs topo-aware chose: same GPU set, so Eq. (3)
 * is equal and the traffic-weighted cost compares the two assignments of
 * tasks to those GPUs (topo-aware's Algorithm 3 against Scotch's DRB).
 * Exit status 0; the last lines give the mean ratios.
 * Usage: bench-scotch [--seed S] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <scotch/scotch.h>
#include <placement/placement.h>

#define KMAX 8

typedef struct job_spec {
    int k;
    const char *pattern;
    double w[KMAX][KMAX]; /* symmetric traffic, 0 = no edge */
} job_spec;

static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void make_job(job_spec *j, int k, int pattern)
{
    memset(j, 0, sizeof *j);
    j->k = k;
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++) {
            double w = 0;
            if (pattern == 0)
                w = 1;
            else if (pattern == 1)
                w = (b == a + 1 || (a == 0 && b == k - 1 && k > 2)) ? 4 : 0;
            else
                w = (double)(rnd() % 5); /* 0 .. 4, 0 = no edge */
            j->w[a][b] = j->w[b][a] = w;
        }
    j->pattern = pattern == 0 ? "all-to-all" : pattern == 1 ? "ring" : "random";
}

static pl_job *to_pl_job(const job_spec *j)
{
    pl_job *job;
    if (pl_job_create("bench", &job))
        return NULL;
    for (int i = 0; i < j->k; i++)
        pl_job_add_task(job, NULL, NULL);
    for (int a = 0; a < j->k; a++)
        for (int b = a + 1; b < j->k; b++)
            if (j->w[a][b] > 0)
                pl_job_add_edge(job, a, b, j->w[a][b]);
    return job;
}

/* Eq. (3) and the traffic-weighted cost of tasks placed on GPU vertices g. */
static int costs(const pl_topology *t, const job_spec *j, const int32_t *g, int64_t *eq3, double *weighted)
{
    int64_t d[KMAX * KMAX];
    if (pl_topology_distance_matrix(t, g, j->k, d) || pl_comm_cost(d, j->k, eq3))
        return -1;
    *weighted = 0;
    for (int a = 0; a < j->k; a++)
        for (int b = a + 1; b < j->k; b++)
            *weighted += j->w[a][b] * (double)d[a * j->k + b];
    return 0;
}

static int topo_aware(const pl_topology *t, const job_spec *j, int32_t *g)
{
    pl_job *job = to_pl_job(j);
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "topo-aware";
    o.utility.form = PL_UTILITY_PAPER;
    o.utility.alpha_cc = 1;
    o.utility.alpha_b = 0;
    o.utility.alpha_d = 0;
    pl_decision *d;
    int rc = -1;
    if (job && pl_policy_place(&o, t, NULL, 0, &job, 1, &d) == PL_OK) {
        pl_decision_info info;
        if (pl_decision_get(d, 0, &info) == PL_OK && info.kind == PL_DECISION_PLACED) {
            memcpy(g, info.gpus, (size_t)j->k * sizeof *g);
            rc = 0;
        }
        pl_decision_free(d);
    }
    pl_job_free(job);
    return rc;
}

/* Scotch static mapping of the job graph onto the GPUs (gpus[0..n-1]). */
static int scotch(const job_spec *j, const int32_t *gpus, int32_t n, const int64_t *dist, int32_t *g)
{
    /* Target graph: complete graph on the GPUs, edge loads = distances. */
    SCOTCH_Num *tv = calloc((size_t)n + 1, sizeof *tv), *te = calloc((size_t)n * n, sizeof *te),
               *tl = calloc((size_t)n * n, sizeof *tl);
    SCOTCH_Num jv[KMAX + 1], je[KMAX * KMAX], jl[KMAX * KMAX], part[KMAX];
    int rc = -1, ne = 0;
    if (!tv || !te || !tl)
        goto out;
    for (int32_t a = 0; a < n; a++) {
        tv[a] = ne;
        for (int32_t b = 0; b < n; b++)
            if (a != b) {
                te[ne] = b;
                tl[ne++] = (SCOTCH_Num)dist[(int64_t)a * n + b];
            }
    }
    tv[n] = ne;
    int je_n = 0;
    for (int a = 0; a < j->k; a++) {
        jv[a] = je_n;
        for (int b = 0; b < j->k; b++)
            if (a != b && j->w[a][b] > 0) {
                je[je_n] = b;
                jl[je_n++] = (SCOTCH_Num)(j->w[a][b] * 10 + 0.5);
            }
    }
    jv[j->k] = je_n;
    SCOTCH_Graph tg, jg;
    SCOTCH_Arch arch;
    SCOTCH_Strat strat;
    SCOTCH_graphInit(&tg);
    SCOTCH_graphInit(&jg);
    SCOTCH_archInit(&arch);
    SCOTCH_stratInit(&strat);
    SCOTCH_randomReset(); /* the same mapping every run */
    if (SCOTCH_graphBuild(&tg, 0, n, tv, NULL, NULL, NULL, ne, te, tl) == 0 &&
        SCOTCH_graphCheck(&tg) == 0 && SCOTCH_archBuild0(&arch, &tg, 0, NULL, &strat) == 0 &&
        SCOTCH_graphBuild(&jg, 0, j->k, jv, NULL, NULL, NULL, je_n, je_n ? je : NULL, je_n ? jl : NULL) == 0 &&
        SCOTCH_graphCheck(&jg) == 0 && (SCOTCH_stratExit(&strat), SCOTCH_stratInit(&strat)) == 0 &&
        SCOTCH_graphMap(&jg, &arch, &strat, part) == 0) {
        rc = 0;
        for (int a = 0; a < j->k; a++)
            g[a] = gpus[part[a]];
    }
    SCOTCH_stratExit(&strat);
    SCOTCH_archExit(&arch);
    SCOTCH_graphExit(&jg);
    SCOTCH_graphExit(&tg);
out:
    free(tv);
    free(te);
    free(tl);
    return rc;
}

static int distinct(const int32_t *g, int k)
{
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++)
            if (g[a] == g[b])
                return 0;
    return 1;
}

int main(int argc, char **argv)
{
    rng_state = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            rng_state = strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: bench-scotch [--seed S]\n");
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    const char *names[4] = {"minsky", "dgx1", "dgx2", "4x minsky"};
    double sum_ratio_eq3 = 0, sum_ratio_w = 0;
    int cases = 0, scotch_shared = 0;
    double sum_ratio_same = 0;
    int same_cases = 0;
    printf("%-10s %-10s %2s %10s %11s %10s %11s %12s\n", "topology", "traffic", "k", "eq3 topo",
           "eq3 scotch", "wgt topo", "wgt scotch", "wgt scotch@");
    printf("%-10s %-10s %2s %10s %11s %10s %11s %12s\n", "", "", "", "", "(all GPUs)", "", "(all GPUs)",
           "topo's GPUs");
    for (int ti = 0; ti < 4; ti++) {
        pl_topology *t = NULL, *m = NULL;
        if (ti < 3) {
            if (pl_topology_builtin(names[ti], &t))
                return fprintf(stderr, "%s\n", pl_last_error()), 1;
        } else if (pl_topology_builtin("minsky", &m) || pl_topology_cluster(m, 4, 4, 0, &t)) {
            return fprintf(stderr, "%s\n", pl_last_error()), 1;
        }
        pl_topology_free(m);
        int32_t n, gpus[64];
        if (pl_topology_descendants(t, -1, PL_VK_GPU, gpus, 64, &n))
            return fprintf(stderr, "%s\n", pl_last_error()), 1;
        int64_t *dist = malloc((size_t)n * n * sizeof *dist);
        if (!dist || pl_topology_distance_matrix(t, gpus, n, dist))
            return fprintf(stderr, "distance matrix failed\n"), 1;
        int32_t per_machine = ti == 3 ? 4 : n;
        for (int k = 2; k <= KMAX && k <= per_machine; k++)
            for (int pattern = 0; pattern < 3; pattern++) {
                job_spec j;
                make_job(&j, k, pattern);
                int32_t ga[KMAX], gs[KMAX];
                int64_t ea, es;
                double wa, ws;
                if (topo_aware(t, &j, ga) || scotch(&j, gpus, n, dist, gs) || costs(t, &j, ga, &ea, &wa))
                    return fprintf(stderr, "%s k=%d %s: mapping failed: %s\n", names[ti], k, j.pattern,
                                   pl_last_error()), 1;
                /* Scotch on topo-aware's own GPU set. */
                int64_t dsub[KMAX * KMAX], e2;
                int32_t g2[KMAX];
                double w2 = -1;
                if (pl_topology_distance_matrix(t, ga, k, dsub) == PL_OK &&
                    scotch(&j, ga, k, dsub, g2) == 0 && distinct(g2, k) && costs(t, &j, g2, &e2, &w2) == 0) {
                    sum_ratio_same += w2 > 0 ? wa / w2 : 1.0;
                    same_cases++;
                }
                int ok = distinct(gs, k);
                if (!ok) {
                    scotch_shared++;
                    printf("%-10s %-10s %2d %10lld %11s %10.1f %11s %12.1f\n", names[ti], j.pattern, k,
                           (long long)ea, "shared GPU", wa, "-", w2);
                    continue;
                }
                if (costs(t, &j, gs, &es, &ws))
                    return 1;
                printf("%-10s %-10s %2d %10lld %11lld %10.1f %11.1f %12.1f\n", names[ti], j.pattern, k,
                       (long long)ea, (long long)es, wa, ws, w2);
                sum_ratio_eq3 += es ? (double)ea / (double)es : 1.0;
                sum_ratio_w += ws > 0 ? wa / ws : 1.0;
                cases++;
            }
        free(dist);
        pl_topology_free(t);
    }
    printf("\n%d cases; mean topo-aware / scotch: Eq. (3) %.3f, traffic-weighted %.3f "
           "(<= 1: topo-aware no worse on average)\n",
           cases, cases ? sum_ratio_eq3 / cases : 0, cases ? sum_ratio_w / cases : 0);
    printf("%d cases; mean topo-aware / scotch on topo-aware's GPUs, traffic-weighted: %.3f "
           "(the assignment within the chosen GPUs)\n",
           same_cases, same_cases ? sum_ratio_same / same_cases : 0);
    if (scotch_shared)
        printf("%d cases left out: Scotch put two tasks on one GPU\n", scotch_shared);
    return 0;
}

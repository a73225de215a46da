/* The "kim-ch4" scenario: Kim thesis ch. 4, the six constraint-aware
 * placement algorithms replayed VM by VM in time as sec. 4.1 runs them
 * (pl_constraint_place_online()): VM creation requests arrive at normally
 * distributed times up to the last one (6300 s on the cluster, 3600 s in
 * the simulation), each VM joins its unit (which grows and may migrate),
 * runs a Table 4.2 SPEC CPU2006 application iteratively until the last
 * request and then finishes its iteration. Two settings:
 * - cluster (sec. 5, the source of Table 4.4): 4 nodes of 12 cores, 36 VMs
 *   of one core, units of 1-5 VMs, groups of 1-3 units, attributes att1
 *   and att2 (one node with both, one with each, one with none);
 * - simulation (sec. 4.2 Default, Table 4.1): 256 nodes of 12 cores,
 *   att0 in {1, 2} and att1, att2 in {0, 1} (32 nodes per combination), VMs
 *   of 1 / 0.75 / 0.5 core (40 / 40 / 20 %) asking 75 % of the cores, units
 *   up to 500 %, groups up to 64 units.
 * Both: nodes used up to 85 % of their cores and indexed in random order,
 * 60 % of the groups with a VMtoNode-Must and 60 % with a VMtoVM-MustNot
 * constraint, VMs created in random order. Choices the thesis leaves open:
 * doc/results.md "Seed 003 ch. 4". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <placement/constraint_online.h>
#include <placement/kim_sim.h>
#include "sim_impl.h"

#define K4_CORES 12
#define K4_CPU_CAP 0.85
#define K4_RATE_NODE_MUST 0.6
#define K4_RATE_MUST_NOT 0.6
#define K4_MAX_UNIT 5.0
/* Spot migration's threshold on sigma (utilisation as a fraction), "experimentally selected" in the
 * thesis: the largest power of ten at which spot migration still acts on 256 nodes (at 1e-3 one move
 * rarely changes sigma by that much there; on the cluster 1e-2 and 1e-4 give the same). */
#define K4_SPOT_THRESHOLD 1e-4

typedef struct k4_setting {
    int32_t nodes, nattr;
    int att0_types;      /* att0 every node has, of two types (1, 2): the simulation's */
    int32_t vms;         /* > 0: exactly this many one-core VMs (the cluster); 0: VMs of Table 4.1 to `load` */
    double load;
    int32_t max_group;
    double last;         /* the last creation request (s) */
    int32_t period;      /* periodic migration: creation requests between rounds */
    int32_t runs;
    double cap;          /* share of the cores used (K4_CPU_CAP, or 1 in the no-cap reading) */
    int even;            /* request gaps |normal| instead of sorted normal times (a reading) */
} k4_setting;

/* The periodic algorithm's period is the thesis's 100 creations on 256
 * nodes; the cluster's is not given: the same creations per node (100 x
 * 4 / 256, rounded) give 2. */
static const k4_setting k4_settings[2] = {
    {4, 2, 0, 36, 0, 3, 6300, 2, 200, K4_CPU_CAP, 0},
    {256, 3, 1, 0, 0.75, 64, 3600, 100, 20, K4_CPU_CAP, 0},
};

/* Table 4.2: run time and live-migration overhead (s). */
static const double k4_apps[8][2] = {
    {741.15, 9.45}, {741.17, 2.20}, {767.39, 1.80}, {653.86, 0.92},
    {599.08, 65.43}, {380.87, 42.13}, {481.04, 27.93}, {581.88, 73.82},
};

#define K4_ALGS 6
static const char *const k4_algs[K4_ALGS] = {"es-basic", "att-aware", "constraint-energy",
                                             "lb-basic", "periodic", "constraint-balance"};
static const char *const k4_names[PL_KIM_CH4_ROWS] = {"es-basic", "att-aware", "activity-aware", "lb-basic",
                                                      "periodic", "spot", "cores-bound", "constrained-bound"};

/* The constrained bound of one replay's states, time-weighted; with `check`,
 * a state whose bound exceeds the replay's active nodes is an error. */
typedef struct k4_bound {
    const pl_constraints *c;
    const pl_cnodes *nodes;
    double integral;
    int check;
} k4_bound;

static pl_status k4_observe(void *ctx, double t0, double t1, const double *cores, const double *mem,
                            const int32_t *members, int32_t active)
{
    k4_bound *b = ctx;
    int32_t need = 0;
    pl_status st = pl_kim4_min_nodes(b->c, b->nodes, cores, mem, members, &need);
    if (st)
        return st;
    if (b->check && need > active)
        return pl_err(PL_EVERIFY, "kim-ch4: %d nodes active at %g s, the constrained bound says %d", (int)active,
                      t0, (int)need);
    b->integral += need * (t1 - t0);
    return PL_OK;
}

static int32_t rng_below(uint64_t *rng, int32_t n)
{
    return (int32_t)(pl_rng_u64(rng) % (uint64_t)n);
}

static void shuffle(uint64_t *rng, int32_t *a, int32_t n)
{
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = rng_below(rng, i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Attribute value of combination `combo` for attribute a. */
static int attr_value(const k4_setting *k, int32_t combo, int32_t a)
{
    int bit = (combo >> a) & 1;
    return a == 0 && k->att0_types ? 1 + bit : bit;
}

/* An equal number of nodes per attribute combination, in random index order. */
static pl_status k4_nodes(const k4_setting *k, uint64_t *rng, pl_cnodes **out)
{
    int32_t combo[256];
    for (int32_t i = 0; i < k->nodes; i++)
        combo[i] = i % (1 << k->nattr);
    shuffle(rng, combo, k->nodes);
    pl_status st = pl_cnodes_create(out);
    for (int32_t i = 0; i < k->nodes && !st; i++) {
        char attrs[64];
        int len = 0;
        for (int32_t a = 0; a < k->nattr; a++)
            len += snprintf(attrs + len, sizeof attrs - (size_t)len, "%satt%d=%d", a ? "," : "", (int)a,
                            attr_value(k, combo[i], a));
        st = pl_cnodes_add(*out, NULL, k->cap * K4_CORES, 64, attrs, NULL);
    }
    return st;
}

typedef struct k4_gen {
    int32_t n, cap, units;
    double *cores;
    int32_t *unit;       /* per VM */
} k4_gen;

static pl_status push_vm(k4_gen *g, double cores)
{
    if (g->n == g->cap) {
        int32_t cap = g->cap ? 2 * g->cap : 256;
        double *c = pl_realloc_array(g->cores, (size_t)cap, sizeof *c);
        if (c)
            g->cores = c;
        int32_t *u = pl_realloc_array(g->unit, (size_t)cap, sizeof *u);
        if (u)
            g->unit = u;
        if (!c || !u)
            return PL_ENOMEM;
        g->cap = cap;
    }
    g->cores[g->n] = cores;
    g->unit[g->n++] = g->units;
    return PL_OK;
}

static double vm_size(uint64_t *rng)
{
    double u = pl_rng_unit(rng);
    return u < 0.4 ? 1.0 : u < 0.8 ? 0.75 : 0.5;
}

/* VM units: the cluster's of 1-5 one-core VMs up to k->vms VMs; the
 * simulation's filled with Table 4.1 VMs to a size drawn up to 500 %, until
 * the VMs ask k->load of the cores. */
static pl_status k4_units(const k4_setting *k, uint64_t *rng, k4_gen *g)
{
    pl_status st = PL_OK;
    double total = 0, want = k->load * k->nodes * K4_CORES;
    while (!st && (k->vms ? g->n < k->vms : total < want)) {
        if (k->vms) {
            for (int32_t s = 1 + rng_below(rng, (int32_t)K4_MAX_UNIT); s > 0 && g->n < k->vms && !st; s--)
                st = push_vm(g, 1.0);
        } else {
            double target = 0.5 + (K4_MAX_UNIT - 0.5) * pl_rng_unit(rng), size = 0;
            do {
                double v = vm_size(rng);
                if (size > 0 && size + v > K4_MAX_UNIT)
                    break;
                st = push_vm(g, v);
                size += v;
            } while (!st && size < target);
            total += size;
        }
        g->units++;
    }
    return st;
}

/* The attribute combinations a node constraint of values val[] (0: none on
 * that attribute) allows, as a bit mask. */
static uint32_t allowed_combos(const k4_setting *k, const int *val)
{
    uint32_t m = 0;
    for (int32_t c = 0; c < (1 << k->nattr); c++) {
        int ok = 1;
        for (int32_t a = 0; a < k->nattr; a++)
            ok &= val[a] == 0 || attr_value(k, c, a) == val[a];
        m |= (uint32_t)ok << c;
    }
    return m;
}

static int32_t popcount(uint32_t m)
{
    int32_t n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* Hall's condition after confining `cores` more to the combinations m: every
 * union S of combinations holds the cores confined within S. */
static int fits_confined(const k4_setting *k, double *confined, uint32_t m, double cores)
{
    uint32_t all = (1u << (1 << k->nattr)) - 1;
    double per_combo = k->cap * K4_CORES * (k->nodes >> k->nattr);
    confined[m] += cores;
    int ok = 1;
    for (uint32_t S = m; S <= all && ok; S = (S + 1) | m) {
        double need = 0;
        for (uint32_t M = S;; M = (M - 1) & S) {
            need += confined[M];
            if (!M)
                break;
        }
        ok = need <= per_combo * popcount(S) + 1e-9;
        if (S == all)
            break;
    }
    if (!ok)
        confined[m] -= cores;
    return ok;
}

/* Groups of consecutive units with their constraints; VM i is created
 * (-> unit id[i] of the constraint set) in random order. Feasible by
 * construction as the thesis's generator: an anti-affine group gets no more
 * units than its node filter leaves nodes, and a node constraint is dropped
 * when the cores it would confine overfill the nodes it allows. */
static pl_status k4_constraints(const k4_setting *k, uint64_t *rng, const k4_gen *g, const int32_t *id,
                                pl_constraints *c)
{
    pl_status st = PL_OK;
    double confined[256] = {0};
    for (int32_t i = 0; i < g->n && !st; i++)
        st = pl_constraints_set_demand(c, id[i], g->cores[i], 3);
    for (int32_t i = 1; i < g->n && !st; i++)
        if (g->unit[i] == g->unit[i - 1])
            st = pl_constraints_colocate(c, id[i - 1], id[i]);
    int32_t *first = st ? NULL : pl_alloc((size_t)g->units + 1, sizeof *first);
    if (!st && !first)
        st = PL_ENOMEM;
    if (!st) {
        for (int32_t i = g->n - 1; i >= 0; i--)
            first[g->unit[i]] = i;
        first[g->units] = g->n;
    }
    for (int32_t u = 0; u < g->units && !st;) {
        int32_t size = 1 + rng_below(rng, k->max_group);
        int must = pl_rng_unit(rng) < K4_RATE_NODE_MUST, apart = pl_rng_unit(rng) < K4_RATE_MUST_NOT;
        int val[3] = {0, 0, 0};
        for (int32_t a = 0; a < k->nattr; a++)
            val[a] = (a == 0 && k->att0_types) + rng_below(rng, 2); /* att0: 1 or 2; others: any or 1 */
        uint32_t m = allowed_combos(k, val);
        int32_t room = must ? popcount(m) * (k->nodes >> k->nattr) : k->nodes;
        if (apart && size > room)
            size = room;
        if (size > g->units - u)
            size = g->units - u;
        double cores = 0;
        for (int32_t i = first[u]; i < first[u + size]; i++)
            cores += g->cores[i];
        if (must)
            must = fits_confined(k, confined, m, cores);
        for (int32_t gu = u; gu < u + size && !st; gu++) {
            for (int32_t i = first[gu]; i < first[gu + 1] && must && !st; i++)
                for (int32_t a = 0; a < k->nattr && !st; a++) {
                    char key[16], v[16];
                    snprintf(key, sizeof key, "att%d", (int)a);
                    snprintf(v, sizeof v, "%d", val[a]);
                    if (val[a])
                        st = pl_constraints_node_must(c, id[i], key, v);
                }
            for (int32_t h = u; apart && h < gu && !st; h++)
                st = pl_constraints_separate(c, id[first[gu]], id[first[h]]);
        }
        u += size;
    }
    free(first);
    return st;
}

/* Creation requests at sorted normal draws (or, in the even reading, after
 * gaps of |normal| draws) mapped onto [0, last] (the first at 0, the last at
 * `last`), each VM running a random Table 4.2 application. */
static void k4_times(const k4_setting *k, uint64_t *rng, pl_conline_vm *vms, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        vms[i].create = k->even ? (i ? vms[i - 1].create + fabs(pl_kim_normal(rng)) : 0) : pl_kim_normal(rng);
    for (int32_t i = 1; i < n; i++) /* insertion sort: n is small and mostly sorted below */
        for (int32_t j = i; j > 0 && vms[j - 1].create > vms[j].create; j--) {
            double t = vms[j].create;
            vms[j].create = vms[j - 1].create;
            vms[j - 1].create = t;
        }
    double lo = vms[0].create, span = vms[n - 1].create - lo;
    for (int32_t i = 0; i < n; i++) {
        int32_t a = rng_below(rng, 8);
        vms[i].create = span > 0 ? k->last * (vms[i].create - lo) / span : k->last;
        vms[i].runtime = k4_apps[a][0];
        vms[i].mig_cost = k4_apps[a][1];
    }
    vms[n - 1].create = k->last;
}

/* One generated scenario: nodes, constraints over the VMs in creation order, times. */
static pl_status k4_scenario(const k4_setting *k, uint64_t *rng, pl_cnodes **nodes, pl_constraints **c,
                             pl_conline_vm **vms, int32_t *nvms)
{
    k4_gen g = {0};
    pl_status st = k4_nodes(k, rng, nodes);
    if (!st)
        st = k4_units(k, rng, &g);
    int32_t *id = st ? NULL : pl_alloc((size_t)g.n + 1, sizeof *id);
    *vms = st ? NULL : pl_alloc((size_t)g.n + 1, sizeof **vms);
    if (!st && (!id || !*vms))
        st = PL_ENOMEM;
    if (!st) {
        for (int32_t i = 0; i < g.n; i++)
            id[i] = i;
        shuffle(rng, id, g.n);
        st = pl_constraints_create(g.n, c);
    }
    if (!st)
        st = k4_constraints(k, rng, &g, id, *c);
    if (!st)
        k4_times(k, rng, *vms, g.n);
    *nvms = g.n;
    free(id);
    free(g.cores);
    free(g.unit);
    return st;
}

/* Each algorithm replays the scenario; rows accumulate the ratios / runs. */
static pl_status k4_run(const k4_setting *k, uint64_t *rng, pl_kim_row *rows, int32_t runs, int check)
{
    pl_cnodes *nodes = NULL;
    pl_constraints *c = NULL;
    pl_conline_vm *vms = NULL;
    int32_t n = 0;
    pl_status st = k4_scenario(k, rng, &nodes, &c, &vms, &n);
    pl_conline_result res[K4_ALGS];
    /* sigma window: from the request of 20 % of the creations to that of 80 % */
    int32_t lo = (int32_t)lround(0.2 * n), hi = (int32_t)lround(0.8 * n);
    /* The constrained bound of ES-basic's running VMs (the ratios' base); the
     * exact search is for the cluster's few nodes: NaN in the simulation. */
    int exact = k->nodes <= 16;
    k4_bound bound = {c, nodes, 0, check};
    for (int a = 0; a < K4_ALGS && !st; a++) {
        pl_constraint_place_opts o;
        pl_constraint_place_opts_init(&o);
        o.algorithm = k4_algs[a];
        o.period = k->period;
        o.spot_threshold = K4_SPOT_THRESHOLD;
        int observe = exact && (a == 0 || a == 2 || check);
        bound.integral = 0;
        st = pl_constraint_place_online_observed(c, nodes, &o, vms, vms[lo > 0 ? lo - 1 : 0].create,
                                                 vms[hi > 0 ? hi - 1 : 0].create, observe ? k4_observe : NULL,
                                                 &bound, &res[a]);
        /* value: ES-basic's running VMs; extra: activity-aware's own (their
         * migrations end them at other times), both over ES-basic's nodes */
        double span = st ? 0 : res[a].end - vms[0].create, avg = span > 0 ? bound.integral / span : 0;
        if (!st && a == 0)
            rows[K4_ALGS + 1].value += (exact ? avg / res[0].active : NAN) / runs;
        if (!st && a == 2)
            rows[K4_ALGS + 1].extra += (exact ? avg / res[0].active : NAN) / runs;
    }
    if (!st)
        rows[K4_ALGS].value += res[0].active_min / res[0].active / runs;
    for (int a = 0; a < K4_ALGS && !st; a++) {
        rows[a].value += res[a].active / res[0].active / runs;  /* n_active_ratio, against ES-basic */
        rows[a].extra += (res[3].sigma > 0 ? res[a].sigma / res[3].sigma : 1) / runs; /* against LB-basic */
        rows[a].ratio += 100.0 * res[a].failed / n / runs;
        rows[a].moves += (double)res[a].migrations / runs;
    }
    pl_constraints_free(c);
    pl_cnodes_free(nodes);
    free(vms);
    return st;
}

pl_status pl_kim_ch4(const pl_kim_opts *opts, pl_kim_row *rows, int32_t cap, int32_t *nrows)
{
    pl_kim_opts o;
    pl_status st = pl_kim_start("pl_kim_ch4", opts, &o, rows, cap, nrows, k4_names, PL_KIM_CH4_ROWS);
    if (st)
        return st;
    if (o.setting != PL_KIM_CH4_CLUSTER && o.setting != PL_KIM_CH4_SIMULATION)
        return pl_err(PL_EINVAL, "pl_kim_ch4: unknown setting %d", (int)o.setting);
    k4_setting k = k4_settings[o.setting];
    k.cap = o.reading & PL_KIM_CH4_NO_CAP ? 1.0 : K4_CPU_CAP;
    k.even = (o.reading & PL_KIM_CH4_EVEN_TIMES) != 0;
    int32_t runs = o.runs ? o.runs : k.runs;
    for (int32_t run = 0; run < runs && !st; run++) {
        uint64_t rng = o.seed * 1000003u + (uint64_t)run;
        st = k4_run(&k, &rng, rows, runs, o.check_bound);
    }
    if (!st)
        *nrows = PL_KIM_CH4_ROWS;
    return st;
}

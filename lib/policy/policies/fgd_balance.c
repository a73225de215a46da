/* "fgd-balance" (ours): exploration version. */
#include <math.h>
#include <stdlib.h>
#include "internal/frag.h"

static double knob(const char *name, double dflt)
{
    const char *v = getenv(name);
    return v ? atof(v) : dflt;
}

static int accessible(const pl_fnode *n, const pl_fpod *p)
{
    if (p->any)
        return 1;
    if (n->mixed)
        return 1;
    return n->model >= 0 && (p->models >> n->model & 1);
}

/* GPU milli of n that the CPU left cannot feed at the distribution's CPU per milli. */
static double strand(const pl_fstate *s, const pl_fnode *n)
{
    double idle = 0;
    for (int32_t i = 0; i < n->ngpu; i++)
        idle += n->left[i];
    if (s->cpu_per_milli <= 0)
        return 0;
    if (knob("FB_SK", 0) > 0) {
        double w = 0, fs = 0;
        for (int32_t k = 0; k < s->ntyp; k++) {
            const pl_fpod *p = &s->typ[k].pod;
            if (p->milli == 0 || p->cpu == 0)
                continue;
            double fed = (double)n->cpu_left * p->ngpu * p->milli / (double)p->cpu;
            w += s->typ[k].freq * (idle > fed ? idle - fed : 0);
            fs += s->typ[k].freq;
        }
        return fs > 0 ? w / fs : 0;
    }
    double fed = (double)n->cpu_left / (s->cpu_per_milli * 1);
    return idle > fed ? idle - fed : 0;
}

/* Expected idle milli left when the node is filled with pods of one kind of the distribution. */
static double fill(pl_fstate *s, const pl_fnode *n)
{
    int64_t idle = 0;
    int32_t whole = 0;
    for (int32_t i = 0; i < n->ngpu; i++) {
        idle += n->left[i];
        whole += n->left[i] == 1000;
    }
    if (idle == 0)
        return 0;
    double w = 0;
    for (int32_t k = 0; k < s->ntyp; k++) {
        const pl_fpod *p = &s->typ[k].pod;
        int64_t f = idle;
        if (p->milli > 0 && accessible(n, p)) {
            int64_t q = p->cpu > 0 ? n->cpu_left / p->cpu : 1 << 30, pods = 0;
            if (p->milli < 1000)
                for (int32_t i = 0; i < n->ngpu; i++)
                    pods += n->left[i] / p->milli;
            else
                pods = whole / p->ngpu;
            if (pods > q)
                pods = q;
            f = idle - pods * p->ngpu * p->milli;
        }
        w += s->typ[k].freq * (double)f;
    }
    return w;
}

static double A, L, M, NU;

/* Idle milli weighted by how much of its model the pods requiring it will need. */
static double reserve(const pl_fstate *s, const pl_fnode *n)
{
    double r = 0;
    for (int32_t i = 0; i < n->ngpu; i++) {
        int32_t m = n->mixed ? n->gmodel[i] : n->model;
        if (m >= 0)
            r += s->model_pressure[m] * n->left[i];
    }
    return r;
}

static double value(pl_fstate *s, pl_fnode *n)
{
    double v = 0;
    if (A != 0) v += A * pl_frag_node(s, n);
    if (L != 0) v += L * (knob("FB_SK", 0) > 0 ? pl_frag_memo_aux(s, n, (double (*)(pl_fstate *, const pl_fnode *))strand) : strand(s, n));
    if (M != 0) v += M * pl_frag_memo_aux(s, n, fill);
    if (NU != 0) v -= NU * reserve(s, n);
    return v;
}

static void score(pl_fstate *s, const pl_fpod *p, const pl_fnode *n, int64_t *sc, int32_t *gpu)
{
    static int init; static double levels, scale, SK;
    if (!init) { init = 1;
    A = knob("FB_A", 1); L = knob("FB_LAMBDA", 1.0); M = knob("FB_MU", 0); NU = knob("FB_NU", 0);
    levels = knob("FB_LEVELS", 100), scale = knob("FB_SCALE", 1000); SK = knob("FB_SK", 0); }
    (void)SK;
    double before = value(s, (pl_fnode *)n), best = 0;
    pl_fnode t;
    *gpu = -1;
    if (p->milli > 0 && p->milli < 1000) {
        for (int32_t i = 0; i < n->ngpu; i++) {
            int seen = 0;
            for (int32_t j = 0; j < i && !seen; j++)
                seen = n->left[j] == n->left[i];
            if (n->left[i] < p->milli || seen)
                continue;
            t = *n;
            pl_fnode_sub(&t, p, i);
            double v = before - value(s, &t);
            if (*gpu < 0 || v > best) {
                best = v;
                *gpu = i;
            }
        }
    } else {
        t = *n;
        pl_fnode_sub(&t, p, -1);
        best = before - value(s, &t);
    }
    *sc = (int64_t)(levels / (1.0 + exp(-best / scale)));
}

const pl_fpolicy pl_fpolicy_fgd_balance = {"fgd-balance", score, 0, 1};

PL_FPOLICY_OPS(pl_policy_fgd_balance, pl_fpolicy_fgd_balance, "fgd-balance",
               "FGD plus the GPU milli the node's CPU can no longer feed (ours)");

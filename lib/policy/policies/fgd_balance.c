/* "fgd-balance" (ours): exploration version. */
#include <math.h>
#include <stdlib.h>
#include "internal/frag.h"

static double knob(const char *name, double dflt)
{
    const char *v = getenv(name);
    return v ? atof(v) : dflt;
}

/* GPU milli of n that the CPU left cannot feed at the distribution's CPU per milli. */
static double strand(const pl_fstate *s, const pl_fnode *n)
{
    double idle = 0;
    for (int32_t i = 0; i < n->ngpu; i++)
        idle += n->left[i];
    if (s->cpu_per_milli <= 0)
        return 0;
    double fed = (double)n->cpu_left / s->cpu_per_milli;
    return idle > fed ? idle - fed : 0;
}

static double value(pl_fstate *s, pl_fnode *n, double lambda)
{
    return pl_frag_node(s, n) + lambda * strand(s, n);
}

static void score(pl_fstate *s, const pl_fpod *p, const pl_fnode *n, int64_t *sc, int32_t *gpu)
{
    double lambda = knob("FB_LAMBDA", 1.0), levels = knob("FB_LEVELS", 100), scale = knob("FB_SCALE", 1000);
    double before = value(s, (pl_fnode *)n, lambda), best = 0;
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
            double v = before - value(s, &t, lambda);
            if (*gpu < 0 || v > best) {
                best = v;
                *gpu = i;
            }
        }
    } else {
        t = *n;
        pl_fnode_sub(&t, p, -1);
        best = before - value(s, &t, lambda);
    }
    *sc = (int64_t)(levels / (1.0 + exp(-best / scale)));
}

const pl_fpolicy pl_fpolicy_fgd_balance = {"fgd-balance", score, 0, 1};

PL_FPOLICY_OPS(pl_policy_fgd_balance, pl_fpolicy_fgd_balance, "fgd-balance",
               "FGD plus the GPU milli the node's CPU can no longer feed (ours)");

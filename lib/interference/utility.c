/* The cost model of seed 002 (Eq. 1-5) in its two forms; formulas, worked
 * values and the reasons for each choice are in doc/interference.md. */
#include <math.h>
#include <placement/interference.h>
#include "internal/interference_impl.h"

/* Tolerance of the weight sum, and of a measured term against its worst
 * case (callers compute both in floating point). */
#define WEIGHT_SUM_TOL 1e-6
#define WORST_TOL 1e-9

void pl_utility_opts_init(pl_utility_opts *opts)
{
    if (!opts)
        return;
    opts->alpha_cc = 1.0 / 3.0;
    opts->alpha_b = 1.0 / 3.0;
    opts->alpha_d = 1.0 / 3.0;
    opts->form = PL_UTILITY_PAPER;
    opts->min_cost = 0.01;
}

static pl_status check_weight(const char *name, double w)
{
    if (!(w >= 0) || !isfinite(w))
        return pl_err(PL_EINVAL, "pl_utility_opts.%s must be >= 0 and finite, got %g", name, w);
    return PL_OK;
}

pl_status pl_utility_opts_check(const pl_utility_opts *opts)
{
    if (!opts)
        return pl_err(PL_EINVAL, "pl_utility_opts_check: NULL options");
    pl_status st;
    if ((st = check_weight("alpha_cc", opts->alpha_cc)) != PL_OK ||
        (st = check_weight("alpha_b", opts->alpha_b)) != PL_OK ||
        (st = check_weight("alpha_d", opts->alpha_d)) != PL_OK)
        return st;
    double sum = opts->alpha_cc + opts->alpha_b + opts->alpha_d;
    if (fabs(sum - 1.0) > WEIGHT_SUM_TOL)
        return pl_err(PL_EINVAL, "pl_utility_opts: alpha_cc + alpha_b + alpha_d must be 1, got %.9g", sum);
    if (opts->form != PL_UTILITY_ARTIFACT && opts->form != PL_UTILITY_PAPER)
        return pl_err(PL_EINVAL, "pl_utility_opts.form: unknown form %d", (int)opts->form);
    if (!(opts->min_cost > 0 && opts->min_cost <= 1))
        return pl_err(PL_EINVAL, "pl_utility_opts.min_cost must be in (0, 1], got %g", opts->min_cost);
    return PL_OK;
}

/* ---- Eq. 3-5 ------------------------------------------------------------------------------ */

pl_status pl_comm_cost(const int64_t *dist, int32_t k, int64_t *t)
{
    if (!t || k < 0 || (!dist && k > 0))
        return pl_err(PL_EINVAL, "pl_comm_cost: NULL argument or k < 0 (k = %d)", (int)k);
    int64_t sum = 0;
    for (int32_t i = 0; i < k; i++) {
        for (int32_t j = i + 1; j < k; j++) {
            int64_t d = dist[(int64_t)i * k + j];
            if (d < 0)
                return pl_err(PL_EINVAL, "pl_comm_cost: negative distance %lld between %d and %d",
                              (long long)d, (int)i, (int)j);
            if (pl_add_ovf(sum, d, &sum))
                return pl_err(PL_EOVERFLOW, "pl_comm_cost: the sum of distances overflows int64");
        }
    }
    *t = sum;
    return PL_OK;
}

pl_status pl_interference_mean(const double *solo, const double *colocated, int32_t n,
                               pl_utility_form form, double *out)
{
    if (!out || n < 0 || (n > 0 && (!solo || !colocated)))
        return pl_err(PL_EINVAL, "pl_interference_mean: NULL argument or n < 0 (n = %d)", (int)n);
    if (form != PL_UTILITY_ARTIFACT && form != PL_UTILITY_PAPER)
        return pl_err(PL_EINVAL, "pl_interference_mean: unknown form %d", (int)form);
    double sum = 0;
    for (int32_t i = 0; i < n; i++) {
        double s = solo[i], c = colocated[i];
        if (!(s > 0) || !isfinite(s) || !(c > 0) || !isfinite(c))
            return pl_err(PL_EINVAL, "pl_interference_mean: times of job %d must be > 0 and finite "
                          "(solo %g, co-located %g)", (int)i, s, c);
        if (form == PL_UTILITY_PAPER)
            sum += c / s;
        else if (s / c < 1)
            sum += s / c; /* the artifact adds only neighbours that slow the job */
    }
    if (n == 0 || (form == PL_UTILITY_ARTIFACT && sum == 0))
        *out = 1.0;
    else
        *out = sum / n;
    return PL_OK;
}

pl_status pl_fragmentation(const int64_t *free_gpus, const int64_t *total_gpus, int32_t sockets,
                           double *omega)
{
    if (!omega || sockets < 0 || (sockets > 0 && (!free_gpus || !total_gpus)))
        return pl_err(PL_EINVAL, "pl_fragmentation: NULL argument or sockets < 0 (%d)", (int)sockets);
    double sum = 0;
    int32_t counted = 0;
    for (int32_t i = 0; i < sockets; i++) {
        if (free_gpus[i] < 0 || total_gpus[i] < 0 || free_gpus[i] > total_gpus[i])
            return pl_err(PL_EINVAL, "pl_fragmentation: socket %d has %lld free of %lld GPUs", (int)i,
                          (long long)free_gpus[i], (long long)total_gpus[i]);
        if (total_gpus[i] == 0)
            continue;
        sum += (double)free_gpus[i] / (double)total_gpus[i];
        counted++;
    }
    *omega = counted ? sum / counted : 0.0;
    return PL_OK;
}

/* ---- terms --------------------------------------------------------------------------------- */

static pl_status check_terms(const pl_utility_terms *t, pl_utility_form form)
{
    if (t->gpus < 0)
        return pl_err(PL_EINVAL, "pl_utility_terms.gpus must be >= 0, got %d", (int)t->gpus);
    if (t->comm < 0 || t->comm_min < 0 || t->comm_norm < 0)
        return pl_err(PL_EINVAL, "pl_utility_terms: comm (%lld), comm_min (%lld) and comm_norm (%lld) "
                      "must be >= 0", (long long)t->comm, (long long)t->comm_min, (long long)t->comm_norm);
    if (!(t->interference > 0) || !isfinite(t->interference))
        return pl_err(PL_EINVAL, "pl_utility_terms.interference must be > 0 and finite, got %g",
                      t->interference);
    if (!(t->fragmentation >= 0 && t->fragmentation <= 1))
        return pl_err(PL_EINVAL, "pl_utility_terms.fragmentation must be in [0, 1], got %g",
                      t->fragmentation);
    if (form == PL_UTILITY_ARTIFACT)
        return PL_OK;
    if (t->comm_norm > 0 && t->comm > t->comm_norm)
        return pl_err(PL_EINVAL, "pl_utility_terms.comm (%lld) exceeds its worst case comm_norm (%lld)",
                      (long long)t->comm, (long long)t->comm_norm);
    if (t->interference < 1 - WORST_TOL)
        return pl_err(PL_EINVAL, "pl_utility_terms.interference must be a slowdown >= 1 in the paper "
                      "form, got %g", t->interference);
    if (!(t->interference_worst >= 0) || !isfinite(t->interference_worst))
        return pl_err(PL_EINVAL, "pl_utility_terms.interference_worst must be >= 0 and finite, got %g",
                      t->interference_worst);
    if (t->interference_worst > 1 && t->interference > t->interference_worst * (1 + WORST_TOL))
        return pl_err(PL_EINVAL, "pl_utility_terms.interference (%g) exceeds its worst case "
                      "interference_worst (%g)", t->interference, t->interference_worst);
    if (!(t->fragmentation_worst >= 0 && t->fragmentation_worst <= 1))
        return pl_err(PL_EINVAL, "pl_utility_terms.fragmentation_worst must be in [0, 1], got %g",
                      t->fragmentation_worst);
    if (t->fragmentation_worst > 0 && t->fragmentation > t->fragmentation_worst * (1 + WORST_TOL))
        return pl_err(PL_EINVAL, "pl_utility_terms.fragmentation (%g) exceeds its worst case "
                      "fragmentation_worst (%g)", t->fragmentation, t->fragmentation_worst);
    return PL_OK;
}

static pl_status check_call(const char *fn, const pl_utility_opts *opts, const pl_utility_terms *terms,
                            const double *out, pl_utility_form form)
{
    if (!opts || !terms || !out)
        return pl_err(PL_EINVAL, "%s: NULL argument", fn);
    pl_status st = pl_utility_opts_check(opts);
    return st == PL_OK ? check_terms(terms, form) : st;
}

/* ---- the artifact form ---------------------------------------------------------------------- */

/* The artifact never lets a cost drop below min_cost: a zero cost would make
 * 1 / sum c^alpha infinite. */
static double floored(double c, double min_cost)
{
    return c < min_cost ? min_cost : c;
}

/* (t - t_min) / t_norm; a 1-GPU job (or no normaliser) has no communication. */
static double artifact_comm_cost(const pl_utility_terms *t, double min_cost)
{
    if (t->gpus <= 1 || t->comm_norm == 0)
        return min_cost;
    return floored((double)(t->comm - t->comm_min) / (double)t->comm_norm, min_cost);
}

/* The artifact's interference value is the mean solo/co-located ratio (<= 1);
 * 1 or more means no neighbour slows the job, the cheapest case. */
static double artifact_interference_cost(double interference, double min_cost)
{
    return interference >= 1 ? min_cost : floored(interference, min_cost);
}

/* An empty (1) or full (0) system both count as the cheapest case. */
static double artifact_fragmentation_cost(double omega, double min_cost)
{
    return omega == 0 || omega == 1 ? min_cost : floored(omega, min_cost);
}

/* U_job = [1 / (c_comm^(1.5 a_cc) + c_int^(1.5 a_b))] / U_max with
 * U_max = 1 / (2 min_cost^(1/2)): the fragmentation weight is spread over the
 * two remaining terms (w + w / 2) and U_max is the value with both costs at
 * min_cost and weights 1/3 (5 for min_cost 0.01). */
static double artifact_job_utility(const pl_utility_opts *o, const pl_utility_terms *t)
{
    double cc = artifact_comm_cost(t, o->min_cost);
    double ci = artifact_interference_cost(t->interference, o->min_cost);
    double sum = pow(cc, 1.5 * o->alpha_cc) + pow(ci, 1.5 * o->alpha_b);
    return (1.0 / sum) * (2.0 * pow(o->min_cost, 0.5));
}

/* U_sys = [1 / sum_m c_m^(a_m)] / U_max, U_max = 1 / (3 min_cost^(1/3))
 * (1.5472 for min_cost 0.01). */
static double artifact_system_utility(const pl_utility_opts *o, const pl_utility_terms *t)
{
    double cc = artifact_comm_cost(t, o->min_cost);
    double ci = artifact_interference_cost(t->interference, o->min_cost);
    double cf = artifact_fragmentation_cost(t->fragmentation, o->min_cost);
    double sum = pow(cc, o->alpha_cc) + pow(ci, o->alpha_b) + pow(cf, o->alpha_d);
    return (1.0 / sum) * (3.0 * pow(o->min_cost, 1.0 / 3.0));
}

/* ---- the paper form ------------------------------------------------------------------------- */

static double clamp01(double x)
{
    return x < 0 ? 0 : (x > 1 ? 1 : x);
}

/* Eq. (1), every term over its worst case; terms already checked. */
static double paper_objective(const pl_utility_opts *o, const pl_utility_terms *t)
{
    double comm = t->comm_norm > 0 ? (double)t->comm / (double)t->comm_norm : 0;
    double interf = t->interference_worst > 1 ? (t->interference - 1) / (t->interference_worst - 1) : 0;
    double frag = t->fragmentation_worst > 0 ? t->fragmentation / t->fragmentation_worst : 0;
    /* Clamping only absorbs the rounding WORST_TOL lets through. */
    return o->alpha_cc * clamp01(comm) + o->alpha_b * clamp01(interf) + o->alpha_d * clamp01(frag);
}

/* ---- public entry points ----------------------------------------------------------------------- */

pl_status pl_objective(const pl_utility_opts *opts, const pl_utility_terms *terms, double *obj)
{
    pl_status st = check_call("pl_objective", opts, terms, obj, PL_UTILITY_PAPER);
    if (st != PL_OK)
        return st;
    *obj = paper_objective(opts, terms);
    return PL_OK;
}

/* Job and system utility differ only in the artifact's form; the paper's is
 * 1 - its objective for both. */
static pl_status utility_of(const char *fn, const pl_utility_opts *opts, const pl_utility_terms *terms,
                            double *u, double (*artifact)(const pl_utility_opts *, const pl_utility_terms *))
{
    pl_status st = check_call(fn, opts, terms, u, opts ? opts->form : PL_UTILITY_ARTIFACT);
    if (st != PL_OK)
        return st;
    *u = opts->form == PL_UTILITY_ARTIFACT ? artifact(opts, terms) : clamp01(1.0 - paper_objective(opts, terms));
    return PL_OK;
}

pl_status pl_utility(const pl_utility_opts *opts, const pl_utility_terms *terms, double *u)
{
    return utility_of("pl_utility", opts, terms, u, artifact_job_utility);
}

pl_status pl_system_utility(const pl_utility_opts *opts, const pl_utility_terms *terms, double *u)
{
    return utility_of("pl_system_utility", opts, terms, u, artifact_system_utility);
}

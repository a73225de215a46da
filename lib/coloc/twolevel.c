/* Two-level scheduling by platform and co-runner affinity (ch. 3 sec. 2). */
#include <stdlib.h>
#include <string.h>
#include "coloc_impl.h"

pl_status pl_coloc_platform_affinity(const double *t, int32_t apps, int32_t platforms, double *pa)
{
    if (!t || !pa || apps < 1 || platforms < 2)
        return pl_err(PL_EINVAL, "pl_coloc_platform_affinity: need runtimes, output, apps >= 1, platforms >= 2");
    for (int32_t i = 0; i < apps * platforms; i++)
        if (!(t[i] > 0))
            return pl_err(PL_EINVAL, "pl_coloc_platform_affinity: runtime of app %d on platform %d is not > 0",
                          (int)(i / platforms), (int)(i % platforms));
    for (int32_t k = 0; k < apps; k++)
        for (int32_t p = 0; p < platforms; p++) {
            double s = 0;
            for (int32_t q = 0; q < platforms; q++)
                if (q != p)
                    s += t[k * platforms + q] / t[k * platforms + p];
            pa[k * platforms + p] = s / (platforms - 1);
        }
    return PL_OK;
}

double pl_coloc_corunner_affinity(double t_with_s, double t_onecore_s)
{
    if (!(t_onecore_s > 0))
        return -1;
    double d = (t_with_s - t_onecore_s) / t_onecore_s;
    return d > 0 ? d : 0;
}

/* Indices 0..n-1 sorted by key (ascending, or descending when desc), ties by index. */
static void order_by(int32_t *idx, int32_t n, const double *key, int32_t stride, int desc)
{
    for (int32_t i = 0; i < n; i++)
        idx[i] = i;
    for (int32_t i = 1; i < n; i++)
        for (int32_t j = i; j > 0; j--) {
            double a = key[idx[j - 1] * stride], b = key[idx[j] * stride];
            if (desc ? a < b : a > b) {
                int32_t t = idx[j];
                idx[j] = idx[j - 1];
                idx[j - 1] = t;
            } else
                break;
        }
}

pl_status pl_coloc_share_cores(const double *pa, int32_t apps, int32_t platforms, const int32_t *cores,
                          const int64_t *tasks, int32_t *alloc)
{
    if (!pa || !cores || !tasks || !alloc || apps < 1 || platforms < 1)
        return pl_err(PL_EINVAL, "pl_coloc_share_cores: NULL argument or empty problem");
    for (int32_t p = 0; p < platforms; p++)
        if (cores[p] < 0)
            return pl_err(PL_EINVAL, "pl_coloc_share_cores: platform %d has %d cores", (int)p, (int)cores[p]);
    for (int32_t k = 0; k < apps; k++)
        if (tasks[k] < 0)
            return pl_err(PL_EINVAL, "pl_coloc_share_cores: application %d has %lld tasks", (int)k, (long long)tasks[k]);
    int64_t *need = pl_alloc((size_t)apps, sizeof *need);
    double *needd = pl_alloc((size_t)apps, sizeof *needd);
    int32_t *free_ = pl_alloc((size_t)platforms, sizeof *free_);
    double *avg = pl_alloc((size_t)platforms, sizeof *avg);
    int32_t *left = pl_alloc((size_t)platforms, sizeof *left);
    char *elig = pl_alloc((size_t)apps * (size_t)platforms, 1);
    int32_t *app_order = pl_alloc((size_t)apps, sizeof *app_order);
    int32_t *plat_order = pl_alloc((size_t)platforms, sizeof *plat_order);
    pl_status st = PL_OK;
    if (!need || !needd || !free_ || !avg || !left || !elig || !app_order || !plat_order) {
        st = PL_ENOMEM;
        goto done;
    }
    memset(alloc, 0, (size_t)apps * (size_t)platforms * sizeof *alloc);
    memcpy(need, tasks, (size_t)apps * sizeof *need);
    memcpy(free_, cores, (size_t)platforms * sizeof *free_);
    /* The first average is kept for every round: recomputing it over the
     * applications still in need could exclude one already served by P. */
    for (int32_t p = 0; p < platforms; p++) {
        double s = 0;
        int32_t c = 0;
        for (int32_t k = 0; k < apps; k++)
            if (tasks[k] > 0) {
                s += pa[k * platforms + p];
                c++;
            }
        avg[p] = c ? s / c : 0;
    }
    for (int progress = 1; progress;) {
        progress = 0;
        for (int32_t p = 0; p < platforms; p++) {
            left[p] = 0;
            for (int32_t k = 0; k < apps; k++) {
                elig[k * platforms + p] = need[k] > 0 && pa[k * platforms + p] > avg[p];
                left[p] += elig[k * platforms + p];
            }
            if (left[p] == 0)   /* no affine application left: do not leave cores idle */
                for (int32_t k = 0; k < apps; k++) {
                    elig[k * platforms + p] = need[k] > 0;
                    left[p] += elig[k * platforms + p];
                }
        }
        for (int32_t k = 0; k < apps; k++)
            needd[k] = (double)need[k];
        order_by(app_order, apps, needd, 1, 0);
        for (int32_t i = 0; i < apps; i++) {
            int32_t k = app_order[i];
            order_by(plat_order, platforms, pa + k * platforms, 1, 1);
            for (int32_t j = 0; j < platforms; j++) {
                int32_t p = plat_order[j];
                if (!elig[k * platforms + p])
                    continue;
                int64_t share = free_[p] / left[p];
                left[p]--;
                int64_t g = share < need[k] ? share : need[k];
                if (g <= 0)
                    continue;
                alloc[k * platforms + p] += (int32_t)g;
                free_[p] -= (int32_t)g;
                need[k] -= g;
                progress = 1;
            }
        }
    }
done:
    free(need);
    free(needd);
    free(free_);
    free(avg);
    free(left);
    free(elig);
    free(app_order);
    free(plat_order);
    return st;
}

static int combo_has(const pl_coloc_combo *c, int32_t k, int32_t *pos)
{
    for (int32_t i = 0; i < c->napps; i++)
        if (c->app[i] == k) {
            if (pos)
                *pos = i;
            return 1;
        }
    return 0;
}

/* How many whole copies of combination c the remaining pilots allow. */
static int64_t copies(const pl_coloc_combo *c, const int64_t *rem, int32_t cores_per_node)
{
    int32_t each = cores_per_node / c->napps;
    int64_t n = INT64_MAX;
    for (int32_t i = 0; i < c->napps; i++) {
        int64_t m = rem[c->app[i]] / each;
        if (m < n)
            n = m;
    }
    return n;
}

static pl_status check_level2(int32_t nodes, int32_t cpn, int32_t apps, const int32_t *pilots,
                              const pl_coloc_combo *combos, int32_t ncombos)
{
    if (nodes < 0 || cpn < 1 || apps < 1 || !pilots || ncombos < 0 || (ncombos && !combos))
        return pl_err(PL_EINVAL, "pl_coloc_map_pilots: bad platform shape or NULL argument");
    int64_t total = 0;
    for (int32_t k = 0; k < apps; k++) {
        if (pilots[k] < 0)
            return pl_err(PL_EINVAL, "pl_coloc_map_pilots: application %d has %d pilots", (int)k, (int)pilots[k]);
        total += pilots[k];
    }
    if (total > (int64_t)nodes * cpn)
        return pl_err(PL_EINVAL, "pl_coloc_map_pilots: %lld pilots exceed %d nodes x %d cores", (long long)total,
                      (int)nodes, (int)cpn);
    for (int32_t c = 0; c < ncombos; c++) {
        const pl_coloc_combo *cb = &combos[c];
        if (cb->napps < 1 || cb->napps > PL_COLOC_MAX_COMBO || cpn % cb->napps)
            return pl_err(PL_EINVAL, "pl_coloc_map_pilots: combination %d has %d applications for %d cores per node",
                          (int)c, (int)cb->napps, (int)cpn);
        for (int32_t i = 0; i < cb->napps; i++) {
            if (cb->app[i] < 0 || cb->app[i] >= apps || !(cb->ca[i] >= 0))
                return pl_err(PL_EINVAL, "pl_coloc_map_pilots: combination %d member %d: app %d or affinity invalid",
                              (int)c, (int)i, (int)cb->app[i]);
            for (int32_t j = 0; j < i; j++)
                if (cb->app[j] == cb->app[i])
                    return pl_err(PL_EINVAL, "pl_coloc_map_pilots: combination %d repeats application %d", (int)c,
                                  (int)cb->app[i]);
        }
    }
    return PL_OK;
}

pl_status pl_coloc_map_pilots(int32_t nodes, int32_t cpn, int32_t apps, const int32_t *pilots,
                          const pl_coloc_combo *combos, int32_t ncombos, uint64_t seed,
                          int32_t *core_app, int32_t *node_combo)
{
    pl_status st = check_level2(nodes, cpn, apps, pilots, combos, ncombos);
    if (st != PL_OK)
        return st;
    if (!core_app || !node_combo)
        return pl_err(PL_EINVAL, "pl_coloc_map_pilots: NULL output");
    int64_t *rem = pl_alloc((size_t)apps, sizeof *rem);
    double *ca = pl_alloc((size_t)apps, sizeof *ca);
    int32_t *pool = NULL;
    if (!rem || !ca) {
        st = PL_ENOMEM;
        goto done;
    }
    for (int32_t k = 0; k < apps; k++) {
        rem[k] = pilots[k];
        double s = 0;
        int32_t n = 0, pos;
        for (int32_t c = 0; c < ncombos; c++)
            if (combo_has(&combos[c], k, &pos)) {
                s += combos[c].ca[pos];
                n++;
            }
        ca[k] = n ? s / n : 0;   /* CA(K,P): mean over the combinations containing K */
    }
    for (int64_t i = 0; i < (int64_t)nodes * cpn; i++)
        core_app[i] = -1;
    for (int32_t v = 0; v < nodes; v++)
        node_combo[v] = -1;
    int32_t next = 0;
    while (next < nodes) {
        /* the most co-runner-sensitive application that can still fill a whole combination */
        int32_t best_k = -1, best_c = -1;
        for (int32_t k = 0; k < apps; k++) {
            if (rem[k] <= 0 || (best_k >= 0 && ca[k] <= ca[best_k]))
                continue;
            int32_t pick = -1, pos, ppos = 0;
            for (int32_t c = 0; c < ncombos; c++)
                if (combo_has(&combos[c], k, &pos) && copies(&combos[c], rem, cpn) > 0 &&
                    (pick < 0 || combos[c].ca[pos] < combos[pick].ca[ppos])) {
                    pick = c;
                    ppos = pos;
                }
            if (pick >= 0) {
                best_k = k;
                best_c = pick;
            }
        }
        if (best_k < 0)
            break;
        const pl_coloc_combo *cb = &combos[best_c];
        int64_t n = copies(cb, rem, cpn);
        int32_t each = cpn / cb->napps;
        for (int64_t r = 0; r < n && next < nodes; r++, next++) {
            node_combo[next] = best_c;
            for (int32_t i = 0; i < cb->napps; i++)
                for (int32_t e = 0; e < each; e++)
                    core_app[(int64_t)next * cpn + i * each + e] = cb->app[i];
            for (int32_t i = 0; i < cb->napps; i++)
                rem[cb->app[i]] -= each;
        }
    }
    /* leftovers: a seeded random mix packed onto the free nodes */
    int64_t total = 0;
    for (int32_t k = 0; k < apps; k++)
        total += rem[k];
    pool = pl_alloc((size_t)total + 1, sizeof *pool);
    if (!pool) {
        st = PL_ENOMEM;
        goto done;
    }
    int64_t n = 0;
    for (int32_t k = 0; k < apps; k++)
        for (int64_t i = 0; i < rem[k]; i++)
            pool[n++] = k;
    uint64_t rng = seed;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = pl_rng_below(&rng, i + 1);
        int32_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    for (int64_t i = 0; i < n; i++)
        core_app[(int64_t)next * cpn + i] = pool[i];
done:
    free(rem);
    free(ca);
    free(pool);
    return st;
}

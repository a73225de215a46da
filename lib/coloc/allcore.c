/* The level-1 baselines of ch. 3 sec. 3: Fair-AllCore shares every
 * platform equally, Worst-AllCore gives each platform to the applications
 * that suit it least. Both reuse the affinity algorithm's sharing (equal
 * split capped by need, increasing need first, rounds while cores and need
 * remain); their level 2 is pl_coloc_map_pilots() with the AllCore
 * combinations only (whole nodes per application). */
#include <stdlib.h>
#include "coloc_impl.h"

pl_status pl_coloc_fair_share(int32_t apps, int32_t platforms, const int32_t *cores, const int64_t *tasks,
                              int32_t *alloc)
{
    if (apps < 1 || platforms < 1)
        return pl_err(PL_EINVAL, "pl_coloc_fair_share: empty problem");
    /* Equal affinities leave no application above the average, so every
     * application in need is eligible everywhere (pl_coloc_share_cores). */
    double *same = pl_alloc((size_t)apps * (size_t)platforms, sizeof *same);
    if (!same)
        return PL_ENOMEM;
    for (int64_t i = 0; i < (int64_t)apps * platforms; i++)
        same[i] = 1;
    pl_status st = pl_coloc_share_cores(same, apps, platforms, cores, tasks, alloc);
    free(same);
    return st;
}

pl_status pl_coloc_worst_share(const double *pa, int32_t apps, int32_t platforms, const int32_t *cores,
                               const int64_t *tasks, int32_t *alloc)
{
    if (!pa || apps < 1 || platforms < 1)
        return pl_err(PL_EINVAL, "pl_coloc_worst_share: NULL affinities or empty problem");
    /* c - PA mirrors every comparison: eligible below the mean, platforms
     * visited from the least affine; c keeps the values positive. */
    double c = 0;
    for (int64_t i = 0; i < (int64_t)apps * platforms; i++)
        if (pa[i] > c)
            c = pa[i];
    c += 1;
    double *mirror = pl_alloc((size_t)apps * (size_t)platforms, sizeof *mirror);
    if (!mirror)
        return PL_ENOMEM;
    for (int64_t i = 0; i < (int64_t)apps * platforms; i++)
        mirror[i] = c - pa[i];
    pl_status st = pl_coloc_share_cores(mirror, apps, platforms, cores, tasks, alloc);
    free(mirror);
    return st;
}

/* Internal declarations of the interference module (not installed). */
#ifndef PL_INTERFERENCE_IMPL_H
#define PL_INTERFERENCE_IMPL_H

#include <stddef.h>
#include <placement/interference.h>
#include <placement/job.h>
#include "internal/core.h"

/* The SC17 artifact's prof_from_experiments.json, embedded at build time by
 * embed.py from data/prof_sc17.json (NUL-terminated; the length excludes
 * the NUL), so pl_profile_set_builtin() reads no file at run time. */
PL_INTERNAL extern const char pl_sc17_profiles_json[];
PL_INTERNAL extern const size_t pl_sc17_profiles_json_len;

/* Workload type the built-in set derives from AlexNet's entries (the SC17
 * paper's CaffeRef, BVLC's reference CaffeNet; doc/interference.md sec. 2). */
#define PL_PROFILE_CAFFEREF "bvlc_reference_caffenet"

/* Copy every entry naming type `from` (as the job or as its neighbour) with
 * `to` in its place: a workload profiled as another. PL_EINVAL (NULL, from
 * == to), PL_ENOMEM. */
PL_INTERNAL pl_status pl_profile_set_copy_type(pl_profile_set *ps, const char *from, const char *to);

/* One co-located entry of a profile set; the strings are the set's. */
typedef struct pl_profile_pair {
    const char *type, *size, *other_type, *other_size;
    int32_t gpus, other_gpus;
    double seconds;
} pl_profile_pair;

/* The co-located entries one at a time (what sa-placement's learned model
 * trains on): *cursor starts at 0; 1 with *out filled while entries remain,
 * 0 at the end. Table order: fixed for a given set, not its insertion order. */
PL_INTERNAL int pl_profile_set_next_pair(const pl_profile_set *ps, int64_t *cursor, pl_profile_pair *out);

/* Solo run time of job on k GPUs at a spread: its profile at that spread,
 * else its profile at the other spread scaled by the 2-GPU ratio of the
 * two, else its duration; PL_EINVAL with the job named when none exists. */
PL_INTERNAL pl_status pl_profile_solo_time(const pl_profile_set *ps, const pl_job *job, int32_t k,
                                           pl_spread spread, double *out);

#endif

/* Internal declarations of the interference module (not installed). */
#ifndef PL_INTERFERENCE_IMPL_H
#define PL_INTERFERENCE_IMPL_H

#include <stddef.h>
#include "../core/core.h"

/* The SC17 artifact's prof_from_experiments.json, embedded at build time by
 * embed.py from data/prof_sc17.json (NUL-terminated; the length excludes
 * the NUL), so pl_profile_set_builtin() reads no file at run time. */
PL_INTERNAL extern const char pl_sc17_profiles_json[];
PL_INTERNAL extern const size_t pl_sc17_profiles_json_len;

#endif

/* pl_profile_set_load_sc17(): the SC17 artifact's prof_from_experiments.json
 * layout (doc/interference.md). Every level is checked, so a misspelt key
 * ("intra_socket", "numgpus") is an error rather than a silently missing
 * profile, and every error names the JSON path of the bad field
 * ("$.solo.bvlc_alexnet.1.num_gpus.2.intra-socket: ..."). A time of 0 is
 * the artifact's "not measured" (3-GPU inter-socket runs, some pairs) and
 * is skipped. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <placement/interference.h>
#include "internal/interference_impl.h"
#include "internal/json.h"

/* ---- typed access (shared helpers: lib/core/json.h) ------------------------------------- */

static pl_status expect_object(const json_t *v, const char *path)
{
    return pl_json_expect(v, JSON_OBJECT, path);
}

/* The only member of a {"num_gpus": {...}} wrapper, into *out with its path. */
static pl_status num_gpus_member(const json_t *obj, const char *path, const json_t **out, char *sub)
{
    pl_status st = expect_object(obj, path);
    if (st != PL_OK)
        return st;
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val) {
        if (strcmp(key, "num_gpus")) {
            pl_json_key(sub, path, key);
            return pl_json_fail(sub, "unknown key (expected num_gpus)");
        }
    }
    pl_json_key(sub, path, "num_gpus");
    *out = json_object_get(obj, "num_gpus");
    if (!*out)
        return pl_json_fail(sub, "missing (an object is required)");
    return expect_object(*out, sub);
}

/* A GPU-count key ("1", "2", ...) as an int32 >= 1. */
static pl_status gpus_key(const char *key, const char *path, int32_t *gpus)
{
    char *end;
    errno = 0;
    long v = strtol(key, &end, 10);
    if (*key < '0' || *key > '9' || *end || errno || v < 1 || v > INT32_MAX)
        return pl_json_fail(path, "expected a GPU count >= 1 as the key, got \"%.40s\"", key);
    *gpus = (int32_t)v;
    return PL_OK;
}

/* A time in seconds: a number >= 0 (0: not measured). */
static pl_status seconds_value(const json_t *v, const char *path, double *out)
{
    if (!json_is_number(v))
        return pl_json_fail(path, "expected a time in seconds, got %s", pl_json_type_name(json_typeof(v)));
    double s = json_number_value(v);
    if (!(s >= 0) || !isfinite(s))
        return pl_json_fail(path, "expected a time in seconds >= 0, got %.17g", s);
    *out = s;
    return PL_OK;
}

/* ---- the shared levels ------------------------------------------------------------------ */

/* Both sections, and each co-runner table inside "collocation", share the
 * levels {type: {size: {"num_gpus": {g: X}}}}; leaf reads one X for
 * (type, size, g) with what the caller passed as ctx. */
typedef pl_status (*leaf_fn)(void *ctx, const json_t *x, const char *path, const char *type,
                             const char *size, int32_t gpus);

static pl_status walk_levels(const json_t *root, const char *root_path, leaf_fn leaf, void *ctx)
{
    pl_status st = expect_object(root, root_path);
    const char *type, *size, *g;
    json_t *by_size, *entry, *x;
    char p1[PL_JSON_PATH], p2[PL_JSON_PATH], p3[PL_JSON_PATH], p4[PL_JSON_PATH];
    json_object_foreach((json_t *)root, type, by_size) {
        if (st != PL_OK)
            break;
        pl_json_key(p1, root_path, type);
        if ((st = expect_object(by_size, p1)) != PL_OK)
            break;
        json_object_foreach(by_size, size, entry) {
            const json_t *by_gpus;
            pl_json_key(p2, p1, size);
            if ((st = num_gpus_member(entry, p2, &by_gpus, p3)) != PL_OK)
                break;
            json_object_foreach((json_t *)by_gpus, g, x) {
                int32_t gpus = 0;
                pl_json_key(p4, p3, g);
                if ((st = gpus_key(g, p4, &gpus)) != PL_OK || (st = leaf(ctx, x, p4, type, size, gpus)) != PL_OK)
                    break;
            }
            if (st != PL_OK)
                break;
        }
    }
    return st;
}

/* ---- solo ------------------------------------------------------------------------------ */

/* {"intra-socket": s, "inter-socket": s}, either may be absent. */
static pl_status load_solo_gpus(void *ctx, const json_t *obj, const char *path, const char *type,
                                const char *size, int32_t gpus)
{
    pl_profile_set *ps = ctx;
    pl_status st = expect_object(obj, path);
    const char *key;
    json_t *val;
    char sub[PL_JSON_PATH];
    json_object_foreach((json_t *)obj, key, val) {
        if (st != PL_OK)
            break;
        pl_json_key(sub, path, key);
        pl_spread spread;
        if (!strcmp(key, "intra-socket"))
            spread = PL_SPREAD_INTRA_SOCKET;
        else if (!strcmp(key, "inter-socket"))
            spread = PL_SPREAD_INTER_SOCKET;
        else
            return pl_json_fail(sub, "unknown key (expected one of: intra-socket, inter-socket)");
        double s = 0;
        st = seconds_value(val, sub, &s);
        if (st == PL_OK && s > 0 && (st = pl_profile_set_add_solo(ps, type, size, gpus, spread, s)) != PL_OK)
            st = pl_json_prefixed(st, sub);
    }
    return st;
}

/* ---- collocation ----------------------------------------------------------------------- */

/* The job whose co-runners are being read. */
typedef struct partners {
    pl_profile_set *ps;
    const char *type, *size;
    int32_t gpus;
} partners;

/* One co-runner's time for the job of ctx (a partners). */
static pl_status load_partner(void *ctx, const json_t *time, const char *path, const char *otype,
                              const char *osize, int32_t ogpus)
{
    const partners *p = ctx;
    double s = 0;
    pl_status st = seconds_value(time, path, &s);
    if (st == PL_OK && s > 0 &&
        (st = pl_profile_set_add_colocated(p->ps, p->type, p->size, p->gpus, otype, osize, ogpus, s)) != PL_OK)
        st = pl_json_prefixed(st, path);
    return st;
}

/* {other_type: {other_size: {"num_gpus": {og: s}}}} for one (type, size, gpus). */
static pl_status load_partners(void *ctx, const json_t *obj, const char *path, const char *type,
                               const char *size, int32_t gpus)
{
    partners p = {.ps = ctx, .type = type, .size = size, .gpus = gpus};
    return walk_levels(obj, path, load_partner, &p);
}

/* ---- documents -------------------------------------------------------------------------- */

static pl_status load_doc(json_t *doc, void **out)
{
    pl_profile_set *ps = NULL;
    pl_status st = expect_object(doc, "$");
    const char *key;
    json_t *val;
    if (st == PL_OK) {
        json_object_foreach(doc, key, val) {
            if (strcmp(key, "solo") && strcmp(key, "collocation")) {
                char sub[PL_JSON_PATH];
                pl_json_key(sub, "$", key);
                st = pl_json_fail(sub, "unknown key (expected one of: solo, collocation)");
                break;
            }
        }
    }
    if (st == PL_OK)
        st = pl_profile_set_create(&ps);
    if (st == PL_OK && (val = json_object_get(doc, "solo")))
        st = walk_levels(val, "$.solo", load_solo_gpus, ps);
    if (st == PL_OK && (val = json_object_get(doc, "collocation")))
        st = walk_levels(val, "$.collocation", load_partners, ps);
    return PL_HAND_OUT(st, ps, pl_profile_set_free, out);
}

pl_status pl_profile_set_load_sc17_string(const char *text, size_t length, pl_profile_set **out)
{
    return pl_json_load("pl_profile_set_load_sc17_string", text, length, NULL, load_doc, (void **)out);
}

pl_status pl_profile_set_load_sc17(const char *path, pl_profile_set **out)
{
    return pl_json_load("pl_profile_set_load_sc17", NULL, 0, path, load_doc, (void **)out);
}

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
#include "interference_impl.h"

/* Room for a JSON path; deeper paths are cut (the message stays useful). */
#define JP 512

/* ---- messages and paths --------------------------------------------------------------- */

static pl_status fail(const char *path, const char *fmt, ...) PL_PRINTF(2, 3);
static pl_status fail(const char *path, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return pl_err(PL_EPARSE, "%s: %s", path, msg);
}

/* Put path in front of the message of a failed call, keeping its status. */
static pl_status prefixed(pl_status st, const char *path)
{
    char msg[768];
    snprintf(msg, sizeof msg, "%s", pl_last_error());
    return pl_err(st, "%s: %s", path, msg);
}

/* "$.a.key", or "$.a[\"odd key\"]" when the key is not a plain word. */
static void jp_key(char *out, const char *parent, const char *key)
{
    int plain = *key != '\0';
    for (const char *c = key; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-'))
            plain = 0;
    snprintf(out, JP, plain ? "%s.%s" : "%s[\"%s\"]", parent, key);
}

static const char *kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

static pl_status expect_object(const json_t *v, const char *path)
{
    return json_is_object(v) ? PL_OK : fail(path, "expected an object, got %s", kind(v));
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
            jp_key(sub, path, key);
            return fail(sub, "unknown key (expected num_gpus)");
        }
    }
    jp_key(sub, path, "num_gpus");
    *out = json_object_get(obj, "num_gpus");
    if (!*out)
        return fail(sub, "missing (an object is required)");
    return expect_object(*out, sub);
}

/* A GPU-count key ("1", "2", ...) as an int32 >= 1. */
static pl_status gpus_key(const char *key, const char *path, int32_t *gpus)
{
    char *end;
    errno = 0;
    long v = strtol(key, &end, 10);
    if (*key < '0' || *key > '9' || *end || errno || v < 1 || v > INT32_MAX)
        return fail(path, "expected a GPU count >= 1 as the key, got \"%.40s\"", key);
    *gpus = (int32_t)v;
    return PL_OK;
}

/* A time in seconds: a number >= 0 (0: not measured). */
static pl_status seconds_value(const json_t *v, const char *path, double *out)
{
    if (!json_is_number(v))
        return fail(path, "expected a time in seconds, got %s", kind(v));
    double s = json_number_value(v);
    if (!(s >= 0) || !isfinite(s))
        return fail(path, "expected a time in seconds >= 0, got %.17g", s);
    *out = s;
    return PL_OK;
}

/* ---- solo ------------------------------------------------------------------------------ */

/* {"intra-socket": s, "inter-socket": s}, either may be absent. */
static pl_status load_solo_gpus(pl_profile_set *ps, const json_t *obj, const char *path,
                                const char *type, const char *size, int32_t gpus)
{
    pl_status st = expect_object(obj, path);
    const char *key;
    json_t *val;
    char sub[JP];
    json_object_foreach((json_t *)obj, key, val) {
        if (st != PL_OK)
            break;
        jp_key(sub, path, key);
        pl_spread spread;
        if (!strcmp(key, "intra-socket"))
            spread = PL_SPREAD_INTRA_SOCKET;
        else if (!strcmp(key, "inter-socket"))
            spread = PL_SPREAD_INTER_SOCKET;
        else
            return fail(sub, "unknown key (expected one of: intra-socket, inter-socket)");
        double s = 0;
        st = seconds_value(val, sub, &s);
        if (st == PL_OK && s > 0 && (st = pl_profile_set_add_solo(ps, type, size, gpus, spread, s)) != PL_OK)
            st = prefixed(st, sub);
    }
    return st;
}

static pl_status load_solo(pl_profile_set *ps, const json_t *solo)
{
    pl_status st = expect_object(solo, "$.solo");
    const char *type, *size, *g;
    json_t *by_size, *entry, *times;
    char p1[JP], p2[JP], p3[JP], p4[JP];
    json_object_foreach((json_t *)solo, type, by_size) {
        if (st != PL_OK)
            break;
        jp_key(p1, "$.solo", type);
        if ((st = expect_object(by_size, p1)) != PL_OK)
            break;
        json_object_foreach(by_size, size, entry) {
            const json_t *by_gpus;
            jp_key(p2, p1, size);
            if ((st = num_gpus_member(entry, p2, &by_gpus, p3)) != PL_OK)
                break;
            json_object_foreach((json_t *)by_gpus, g, times) {
                int32_t gpus;
                jp_key(p4, p3, g);
                if ((st = gpus_key(g, p4, &gpus)) != PL_OK ||
                    (st = load_solo_gpus(ps, times, p4, type, size, gpus)) != PL_OK)
                    break;
            }
            if (st != PL_OK)
                break;
        }
    }
    return st;
}

/* ---- collocation ----------------------------------------------------------------------- */

/* {other_type: {other_size: {"num_gpus": {og: s}}}} for one (type, size, gpus). */
static pl_status load_partners(pl_profile_set *ps, const json_t *obj, const char *path,
                               const char *type, const char *size, int32_t gpus)
{
    pl_status st = expect_object(obj, path);
    const char *otype, *osize, *og;
    json_t *by_size, *entry, *time;
    char p1[JP], p2[JP], p3[JP], p4[JP];
    json_object_foreach((json_t *)obj, otype, by_size) {
        if (st != PL_OK)
            break;
        jp_key(p1, path, otype);
        if ((st = expect_object(by_size, p1)) != PL_OK)
            break;
        json_object_foreach(by_size, osize, entry) {
            const json_t *by_gpus;
            jp_key(p2, p1, osize);
            if ((st = num_gpus_member(entry, p2, &by_gpus, p3)) != PL_OK)
                break;
            json_object_foreach((json_t *)by_gpus, og, time) {
                int32_t ogpus;
                double s = 0;
                jp_key(p4, p3, og);
                if ((st = gpus_key(og, p4, &ogpus)) != PL_OK || (st = seconds_value(time, p4, &s)) != PL_OK)
                    break;
                if (s > 0 && (st = pl_profile_set_add_colocated(ps, type, size, gpus, otype, osize,
                                                                ogpus, s)) != PL_OK) {
                    st = prefixed(st, p4);
                    break;
                }
            }
            if (st != PL_OK)
                break;
        }
    }
    return st;
}

static pl_status load_collocation(pl_profile_set *ps, const json_t *coloc)
{
    pl_status st = expect_object(coloc, "$.collocation");
    const char *type, *size, *g;
    json_t *by_size, *entry, *partners;
    char p1[JP], p2[JP], p3[JP], p4[JP];
    json_object_foreach((json_t *)coloc, type, by_size) {
        if (st != PL_OK)
            break;
        jp_key(p1, "$.collocation", type);
        if ((st = expect_object(by_size, p1)) != PL_OK)
            break;
        json_object_foreach(by_size, size, entry) {
            const json_t *by_gpus;
            jp_key(p2, p1, size);
            if ((st = num_gpus_member(entry, p2, &by_gpus, p3)) != PL_OK)
                break;
            json_object_foreach((json_t *)by_gpus, g, partners) {
                int32_t gpus;
                jp_key(p4, p3, g);
                if ((st = gpus_key(g, p4, &gpus)) != PL_OK ||
                    (st = load_partners(ps, partners, p4, type, size, gpus)) != PL_OK)
                    break;
            }
            if (st != PL_OK)
                break;
        }
    }
    return st;
}

/* ---- documents -------------------------------------------------------------------------- */

static pl_status load_doc(json_t *doc, pl_profile_set **out)
{
    pl_profile_set *ps = NULL;
    pl_status st = expect_object(doc, "$");
    const char *key;
    json_t *val;
    if (st == PL_OK) {
        json_object_foreach(doc, key, val) {
            if (strcmp(key, "solo") && strcmp(key, "collocation")) {
                char sub[JP];
                jp_key(sub, "$", key);
                st = fail(sub, "unknown key (expected one of: solo, collocation)");
                break;
            }
        }
    }
    if (st == PL_OK)
        st = pl_profile_set_create(&ps);
    if (st == PL_OK && (val = json_object_get(doc, "solo")))
        st = load_solo(ps, val);
    if (st == PL_OK && (val = json_object_get(doc, "collocation")))
        st = load_collocation(ps, val);
    json_decref(doc);
    if (st != PL_OK) {
        pl_profile_set_free(ps);
        return st;
    }
    *out = ps;
    return PL_OK;
}

static pl_status syntax_error(const char *source, const json_error_t *e)
{
    return pl_err(PL_EPARSE, "%s:%d:%d: %s", source, e->line, e->column, e->text);
}

pl_status pl_profile_set_load_sc17_string(const char *text, size_t length, pl_profile_set **out)
{
    if (!text || !out)
        return pl_err(PL_EINVAL, "pl_profile_set_load_sc17_string: NULL argument");
    *out = NULL;
    json_error_t e;
    json_t *doc = json_loadb(text, length ? length : strlen(text), JSON_REJECT_DUPLICATES, &e);
    if (!doc)
        return syntax_error("<string>", &e);
    return load_doc(doc, out);
}

pl_status pl_profile_set_load_sc17(const char *path, pl_profile_set **out)
{
    if (!path || !out)
        return pl_err(PL_EINVAL, "pl_profile_set_load_sc17: NULL argument");
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return pl_err(PL_EIO, "pl_profile_set_load_sc17: cannot open '%s': %s", path, strerror(errno));
    json_error_t e;
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &e);
    int read_failed = ferror(f);
    fclose(f);
    if (!doc)
        return read_failed ? pl_err(PL_EIO, "pl_profile_set_load_sc17: cannot read '%s'", path)
                           : syntax_error(path, &e);
    return load_doc(doc, out);
}

/* Profile sets: solo and co-located run times in two open-addressing hash
 * tables (linear probing, power-of-two capacity, at most half full), so
 * every lookup is O(1) expected. Keys are compared field by field; the
 * strings are owned by the set. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <placement/interference.h>
#include "internal/interference_impl.h"

/* One measured time. Solo entries have other_type == NULL and a spread;
 * co-located entries have spread -1. An empty slot has type == NULL. */
typedef struct prof_entry {
    char *type, *size, *other_type, *other_size;
    int32_t gpus, other_gpus, spread;
    uint64_t hash;
    double seconds;
} prof_entry;

/* A lookup key: borrowed strings. */
typedef struct prof_key {
    const char *type, *size, *other_type, *other_size;
    int32_t gpus, other_gpus, spread;
} prof_key;

typedef struct prof_table {
    prof_entry *slots;
    int64_t cap, count;
} prof_table;

struct pl_profile_set {
    prof_table solo, coloc;
    int32_t max_other_gpus; /* largest neighbour GPU count of a co-located entry */
};

/* ---- keys ----------------------------------------------------------------------- */

/* FNV-1a: strings include their NUL so ("ab","c") and ("a","bc") differ. */
static uint64_t fnv_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static uint64_t key_hash(const prof_key *k)
{
    uint64_t h = 14695981039346656037ULL;
    h = fnv_bytes(h, k->type, strlen(k->type) + 1);
    h = fnv_bytes(h, k->size, strlen(k->size) + 1);
    h = fnv_bytes(h, &k->gpus, sizeof k->gpus);
    h = fnv_bytes(h, &k->spread, sizeof k->spread);
    if (k->other_type) {
        h = fnv_bytes(h, k->other_type, strlen(k->other_type) + 1);
        h = fnv_bytes(h, k->other_size, strlen(k->other_size) + 1);
        h = fnv_bytes(h, &k->other_gpus, sizeof k->other_gpus);
    }
    return h;
}

static int key_equal(const prof_entry *e, const prof_key *k, uint64_t hash)
{
    if (e->hash != hash || e->gpus != k->gpus || e->spread != k->spread ||
        strcmp(e->type, k->type) || strcmp(e->size, k->size))
        return 0;
    if (!k->other_type)
        return 1;
    return e->other_gpus == k->other_gpus && !strcmp(e->other_type, k->other_type) &&
           !strcmp(e->other_size, k->other_size);
}

/* ---- tables ---------------------------------------------------------------------- */

/* Slot holding key k, or the empty slot where it would go (cap > 0). */
static prof_entry *probe(const prof_table *t, const prof_key *k, uint64_t hash)
{
    uint64_t mask = (uint64_t)t->cap - 1;
    for (uint64_t i = hash & mask;; i = (i + 1) & mask) {
        prof_entry *e = &t->slots[i];
        if (!e->type || key_equal(e, k, hash))
            return e;
    }
}

static const prof_entry *find(const prof_table *t, const prof_key *k)
{
    if (t->count == 0)
        return NULL;
    const prof_entry *e = probe(t, k, key_hash(k));
    return e->type ? e : NULL;
}

static void entry_free(prof_entry *e)
{
    free(e->type);
    free(e->size);
    free(e->other_type);
    free(e->other_size);
}

static void table_free(prof_table *t)
{
    for (int64_t i = 0; i < t->cap; i++)
        if (t->slots[i].type)
            entry_free(&t->slots[i]);
    free(t->slots);
}

/* Double the capacity (16 at first) and re-insert every entry. */
static pl_status table_grow(prof_table *t)
{
    int64_t cap = t->cap ? t->cap * 2 : 16;
    prof_entry *slots = pl_alloc((size_t)cap, sizeof *slots);
    if (!slots)
        return PL_ENOMEM;
    uint64_t mask = (uint64_t)cap - 1;
    for (int64_t i = 0; i < t->cap; i++) {
        prof_entry *e = &t->slots[i];
        if (!e->type)
            continue;
        uint64_t j = e->hash & mask;
        while (slots[j].type)
            j = (j + 1) & mask;
        slots[j] = *e;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return PL_OK;
}

static pl_status table_put(prof_table *t, const prof_key *k, double seconds)
{
    /* Counts are reported as int32_t. */
    if (t->count >= INT32_MAX)
        return pl_err(PL_ENOMEM, "profile set: more than %d entries", (int)INT32_MAX);
    if ((t->count + 1) * 2 > t->cap) {
        pl_status st = table_grow(t);
        if (st != PL_OK)
            return st;
    }
    uint64_t hash = key_hash(k);
    prof_entry *e = probe(t, k, hash);
    if (e->type) {
        e->seconds = seconds;
        return PL_OK;
    }
    prof_entry n = {.gpus = k->gpus, .other_gpus = k->other_gpus, .spread = k->spread,
                    .hash = hash, .seconds = seconds};
    n.type = pl_strdup(k->type);
    n.size = pl_strdup(k->size);
    if (k->other_type) {
        n.other_type = pl_strdup(k->other_type);
        n.other_size = pl_strdup(k->other_size);
    }
    if (!n.type || !n.size || (k->other_type && (!n.other_type || !n.other_size))) {
        entry_free(&n);
        return PL_ENOMEM;
    }
    *e = n;
    t->count++;
    return PL_OK;
}

/* ---- argument checks --------------------------------------------------------------- */

static pl_status check_solo_key(const char *fn, const char *type, const char *size, int32_t gpus,
                                pl_spread spread)
{
    if (!type || !size)
        return pl_err(PL_EINVAL, "%s: NULL type or size", fn);
    if (gpus < 1)
        return pl_err(PL_EINVAL, "%s: gpus must be >= 1, got %d", fn, (int)gpus);
    if (spread != PL_SPREAD_INTRA_SOCKET && spread != PL_SPREAD_INTER_SOCKET)
        return pl_err(PL_EINVAL, "%s: unknown spread %d", fn, (int)spread);
    return PL_OK;
}

static pl_status check_coloc_key(const char *fn, const char *type, const char *size, int32_t gpus,
                                 const char *other_type, const char *other_size, int32_t other_gpus)
{
    if (!type || !size || !other_type || !other_size)
        return pl_err(PL_EINVAL, "%s: NULL type or size", fn);
    if (gpus < 1 || other_gpus < 1)
        return pl_err(PL_EINVAL, "%s: gpus and other_gpus must be >= 1, got %d and %d", fn,
                      (int)gpus, (int)other_gpus);
    return PL_OK;
}

static pl_status check_seconds(const char *fn, double seconds)
{
    if (!(seconds > 0) || !isfinite(seconds))
        return pl_err(PL_EINVAL, "%s: seconds must be > 0 and finite, got %g", fn, seconds);
    return PL_OK;
}

static prof_key solo_key(const char *type, const char *size, int32_t gpus, pl_spread spread)
{
    return (prof_key){.type = type, .size = size, .gpus = gpus, .spread = (int32_t)spread};
}

static prof_key coloc_key(const char *type, const char *size, int32_t gpus, const char *other_type,
                          const char *other_size, int32_t other_gpus)
{
    return (prof_key){.type = type, .size = size, .gpus = gpus, .spread = -1,
                      .other_type = other_type, .other_size = other_size, .other_gpus = other_gpus};
}

/* ---- public API ---------------------------------------------------------------------- */

pl_status pl_profile_set_create(pl_profile_set **out)
{
    return pl_create_zeroed("pl_profile_set_create", (void **)out, sizeof **out);
}

void pl_profile_set_free(pl_profile_set *ps)
{
    if (!ps)
        return;
    table_free(&ps->solo);
    table_free(&ps->coloc);
    free(ps);
}

pl_status pl_profile_set_add_solo(pl_profile_set *ps, const char *type, const char *size, int32_t gpus,
                                  pl_spread spread, double seconds)
{
    static const char fn[] = "pl_profile_set_add_solo";
    if (!ps)
        return pl_err(PL_EINVAL, "%s: NULL profile set", fn);
    pl_status st = check_solo_key(fn, type, size, gpus, spread);
    if (st == PL_OK)
        st = check_seconds(fn, seconds);
    if (st != PL_OK)
        return st;
    prof_key k = solo_key(type, size, gpus, spread);
    return table_put(&ps->solo, &k, seconds);
}

pl_status pl_profile_set_add_colocated(pl_profile_set *ps, const char *type, const char *size,
                                       int32_t gpus, const char *other_type, const char *other_size,
                                       int32_t other_gpus, double seconds)
{
    static const char fn[] = "pl_profile_set_add_colocated";
    if (!ps)
        return pl_err(PL_EINVAL, "%s: NULL profile set", fn);
    pl_status st = check_coloc_key(fn, type, size, gpus, other_type, other_size, other_gpus);
    if (st == PL_OK)
        st = check_seconds(fn, seconds);
    if (st != PL_OK)
        return st;
    prof_key k = coloc_key(type, size, gpus, other_type, other_size, other_gpus);
    st = table_put(&ps->coloc, &k, seconds);
    if (st == PL_OK && other_gpus > ps->max_other_gpus)
        ps->max_other_gpus = other_gpus;
    return st;
}

pl_status pl_profile_set_solo(const pl_profile_set *ps, const char *type, const char *size,
                              int32_t gpus, pl_spread spread, double *seconds)
{
    static const char fn[] = "pl_profile_set_solo";
    if (!ps || !seconds)
        return pl_err(PL_EINVAL, "%s: NULL argument", fn);
    pl_status st = check_solo_key(fn, type, size, gpus, spread);
    if (st != PL_OK)
        return st;
    prof_key k = solo_key(type, size, gpus, spread);
    const prof_entry *e = find(&ps->solo, &k);
    if (!e)
        return pl_err(PL_ENOTFOUND, "%s: no solo time for %s size %s on %d GPU(s) %s", fn, type,
                      size, (int)gpus, spread == PL_SPREAD_INTRA_SOCKET ? "intra-socket" : "inter-socket");
    *seconds = e->seconds;
    return PL_OK;
}

/* The argument checks of a query about a co-located pair. */
static pl_status check_coloc_query(const char *fn, const pl_profile_set *ps, const double *out,
                                   const char *type, const char *size, int32_t gpus,
                                   const char *other_type, const char *other_size, int32_t other_gpus)
{
    if (!ps || !out)
        return pl_err(PL_EINVAL, "%s: NULL argument", fn);
    return check_coloc_key(fn, type, size, gpus, other_type, other_size, other_gpus);
}

pl_status pl_profile_set_colocated(const pl_profile_set *ps, const char *type, const char *size,
                                   int32_t gpus, const char *other_type, const char *other_size,
                                   int32_t other_gpus, double *seconds)
{
    static const char fn[] = "pl_profile_set_colocated";
    pl_status st = check_coloc_query(fn, ps, seconds, type, size, gpus, other_type, other_size, other_gpus);
    if (st != PL_OK)
        return st;
    prof_key k = coloc_key(type, size, gpus, other_type, other_size, other_gpus);
    const prof_entry *e = find(&ps->coloc, &k);
    if (!e)
        return pl_err(PL_ENOTFOUND, "%s: no time for %s size %s on %d GPU(s) next to %s size %s on %d GPU(s)",
                      fn, type, size, (int)gpus, other_type, other_size, (int)other_gpus);
    *seconds = e->seconds;
    return PL_OK;
}

pl_status pl_profile_set_slowdown(const pl_profile_set *ps, const char *type, const char *size,
                                  int32_t gpus, const char *other_type, const char *other_size,
                                  int32_t other_gpus, double *slowdown)
{
    static const char fn[] = "pl_profile_set_slowdown";
    pl_status st = check_coloc_query(fn, ps, slowdown, type, size, gpus, other_type, other_size, other_gpus);
    if (st != PL_OK)
        return st;
    prof_key sk = solo_key(type, size, gpus, PL_SPREAD_INTRA_SOCKET);
    const prof_entry *solo = find(&ps->solo, &sk), *coloc = NULL;
    /* The neighbour's GPU count is not a measured dimension: the artifact
     * measured each pair once, beside the neighbour size that fitted, and
     * copies a 1-GPU job's time over every neighbour count. So a count
     * without a time takes the nearest measured one (the smaller on a tie). */
    int32_t q = other_gpus < ps->max_other_gpus ? other_gpus : ps->max_other_gpus;
    for (int32_t d = 0; !coloc && d < ps->max_other_gpus; d++) {
        for (int32_t og = q - d; og <= q + d && !coloc; og += 2 * d + !d) {
            if (og < 1 || og > ps->max_other_gpus)
                continue;
            prof_key ck = coloc_key(type, size, gpus, other_type, other_size, og);
            coloc = find(&ps->coloc, &ck);
        }
    }
    /* Co-location is only ever on the same socket(s), so the intra-socket
     * solo time is the baseline the co-located time was measured against. */
    *slowdown = solo && coloc ? coloc->seconds / solo->seconds : 1.0;
    return PL_OK;
}

pl_status pl_profile_set_counts(const pl_profile_set *ps, int32_t *solo, int32_t *colocated)
{
    if (!ps)
        return pl_err(PL_EINVAL, "pl_profile_set_counts: NULL profile set");
    if (solo)
        *solo = (int32_t)ps->solo.count;
    if (colocated)
        *colocated = (int32_t)ps->coloc.count;
    return PL_OK;
}

int pl_profile_set_next_pair(const pl_profile_set *ps, int64_t *cursor, pl_profile_pair *out)
{
    for (; *cursor < ps->coloc.cap; (*cursor)++) {
        const prof_entry *e = &ps->coloc.slots[*cursor];
        if (e->type) {
            *out = (pl_profile_pair){e->type, e->size, e->other_type, e->other_size, e->gpus, e->other_gpus,
                                     e->seconds};
            (*cursor)++;
            return 1;
        }
    }
    return 0;
}

/* Every entry naming `from`, in either role, copied with `to` in its place.
 * The entries are snapshot first: inserting may grow the table, which moves
 * the slots (their strings stay owned by the table and are not freed). */
static pl_status copy_type_in(pl_profile_set *ps, prof_table *t, const char *from, const char *to)
{
    int64_t n = 0;
    prof_entry *copy = pl_alloc((size_t)t->count + 1, sizeof *copy);
    if (!copy)
        return PL_ENOMEM;
    for (int64_t i = 0; i < t->cap; i++) {
        const prof_entry *e = &t->slots[i];
        if (e->type && (!strcmp(e->type, from) || (e->other_type && !strcmp(e->other_type, from))))
            copy[n++] = *e;
    }
    pl_status st = PL_OK;
    for (int64_t i = 0; i < n && st == PL_OK; i++) {
        const prof_entry *e = &copy[i];
        int self = !strcmp(e->type, from), other = e->other_type && !strcmp(e->other_type, from);
        /* (to, x), (x, to) and (to, to) for a pair of `from`s. */
        for (int v = 1; v < 4 && st == PL_OK; v++) {
            if (((v & 1) && !self) || ((v & 2) && !other))
                continue;
            const char *ty = (v & 1) ? to : e->type, *oty = (v & 2) ? to : e->other_type;
            if (!e->other_type)
                st = pl_profile_set_add_solo(ps, ty, e->size, e->gpus, (pl_spread)e->spread, e->seconds);
            else
                st = pl_profile_set_add_colocated(ps, ty, e->size, e->gpus, oty, e->other_size,
                                                  e->other_gpus, e->seconds);
        }
    }
    free(copy);
    return st;
}

pl_status pl_profile_set_copy_type(pl_profile_set *ps, const char *from, const char *to)
{
    if (!ps || !from || !to || !strcmp(from, to))
        return pl_err(PL_EINVAL, "pl_profile_set_copy_type: NULL argument or from == to");
    pl_status st = copy_type_in(ps, &ps->solo, from, to);
    return st == PL_OK ? copy_type_in(ps, &ps->coloc, from, to) : st;
}

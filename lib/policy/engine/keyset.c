/* A set of word sequences (keyset in policy_impl.h): open addressing over
 * hashes, the sequences stored back to back in one growing array, so a
 * policy call reuses its memory from one job to the next. */
#include <stdlib.h>
#include <string.h>
#include "internal/policy_impl.h"

static uint64_t hash_words(const int64_t *w, int64_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n;
    for (int64_t i = 0; i < n; i++) {
        h ^= (uint64_t)w[i];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    return h;
}

void pl_keyset_clear(pl_keyset *ks)
{
    ks->nwords = 0;
    ks->n = 0;
    ks->last = 0;
    for (int64_t i = 0; i < ks->nslots; i++)
        ks->slot[i] = -1;
}

void pl_keyset_free(pl_keyset *ks)
{
    free(ks->words);
    free(ks->e);
    free(ks->slot);
    memset(ks, 0, sizeof *ks);
}

static int64_t find_slot(const pl_keyset *ks, uint64_t h, const int64_t *w, int64_t n)
{
    for (int64_t i = (int64_t)(h & (uint64_t)(ks->nslots - 1));; i = (i + 1) & (ks->nslots - 1)) {
        int32_t e = ks->slot[i];
        if (e < 0 || (ks->e[e].hash == h && ks->e[e].len == n &&
                      !memcmp(ks->words + ks->e[e].off, w, (size_t)n * sizeof *w)))
            return i;
    }
}

/* Double the slot table (at most half full after). */
static pl_status rehash(pl_keyset *ks)
{
    int64_t ns = ks->nslots ? ks->nslots * 2 : 64;
    int32_t *slot = pl_alloc((size_t)ns, sizeof *slot);
    if (!slot)
        return PL_ENOMEM;
    free(ks->slot);
    ks->slot = slot;
    ks->nslots = ns;
    for (int64_t i = 0; i < ns; i++)
        slot[i] = -1;
    for (int32_t e = 0; e < ks->n; e++) {
        int64_t i = (int64_t)(ks->e[e].hash & (uint64_t)(ns - 1));
        while (slot[i] >= 0)
            i = (i + 1) & (ns - 1);
        slot[i] = e;
    }
    return PL_OK;
}

pl_status pl_keyset_add(pl_keyset *ks, const int64_t *w, int64_t n, int32_t *id, int *added)
{
    *added = 0;
    /* Runs of equal sequences (the machines of a cluster, one after the
     * other) cost a comparison, not a hash. */
    if (ks->last > 0) {
        const pl_keyset_entry *l = &ks->e[ks->last - 1];
        if (l->len == n && !memcmp(ks->words + l->off, w, (size_t)n * sizeof *w)) {
            *id = ks->last - 1;
            return PL_OK;
        }
    }
    pl_status st;
    if (2 * ((int64_t)ks->n + 1) > ks->nslots && (st = rehash(ks)))
        return st;
    uint64_t h = hash_words(w, n);
    int64_t i = find_slot(ks, h, w, n);
    if (ks->slot[i] >= 0) {
        *id = ks->slot[i];
        ks->last = *id + 1;
        return PL_OK;
    }
    if ((st = pl_grow((void **)&ks->words, &ks->capwords, ks->nwords + n, sizeof *ks->words)) ||
        (st = pl_grow((void **)&ks->e, &ks->cap, ks->n + 1, sizeof *ks->e)))
        return st;
    if (n)
        memcpy(ks->words + ks->nwords, w, (size_t)n * sizeof *w);
    ks->e[ks->n] = (pl_keyset_entry){ks->nwords, n, h};
    ks->nwords += n;
    ks->slot[i] = ks->n;
    *id = ks->n++;
    ks->last = ks->n;
    *added = 1;
    return PL_OK;
}

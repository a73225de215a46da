/* Profile sets: adding, replacing and looking up solo and co-located times,
 * slowdowns (unknown pairs: 1), the SC17 loader's skipping of zeros and its
 * errors with JSON paths, and the built-in set against the artifact's file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "testutil.h"

static double solo(const pl_profile_set *ps, const char *type, const char *size, int32_t gpus,
                   pl_spread spread)
{
    double s = -1;
    assert_pl_ok(pl_profile_set_solo(ps, type, size, gpus, spread, &s));
    return s;
}

static double coloc(const pl_profile_set *ps, const char *type, const char *size, int32_t gpus,
                    const char *otype, const char *osize, int32_t ogpus)
{
    double s = -1;
    assert_pl_ok(pl_profile_set_colocated(ps, type, size, gpus, otype, osize, ogpus, &s));
    return s;
}

static double slowdown(const pl_profile_set *ps, const char *type, const char *size, int32_t gpus,
                       const char *otype, const char *osize, int32_t ogpus)
{
    double s = -1;
    assert_pl_ok(pl_profile_set_slowdown(ps, type, size, gpus, otype, osize, ogpus, &s));
    return s;
}

static void assert_counts(const pl_profile_set *ps, int32_t want_solo, int32_t want_coloc)
{
    int32_t s = -1, c = -1;
    assert_pl_ok(pl_profile_set_counts(ps, &s, &c));
    assert_int_equal(s, want_solo);
    assert_int_equal(c, want_coloc);
}

/* ---- hand-built sets ------------------------------------------------------------------- */

static void test_empty_set(void **state)
{
    (void)state;
    pl_profile_set *ps = NULL;
    double s = -1;
    assert_pl_ok(pl_profile_set_create(&ps));
    assert_counts(ps, 0, 0);
    assert_pl_status(pl_profile_set_solo(ps, "a", "1", 1, PL_SPREAD_INTRA_SOCKET, &s), PL_ENOTFOUND);
    assert_non_null(strstr(pl_last_error(), "a size 1 on 1 GPU(s) intra-socket"));
    assert_pl_status(pl_profile_set_colocated(ps, "a", "1", 1, "b", "4", 2, &s), PL_ENOTFOUND);
    assert_true(s == -1);
    assert_true(slowdown(ps, "a", "1", 1, "b", "4", 2) == 1.0);
    pl_profile_set_free(ps);
    pl_profile_set_free(NULL);
}

static void test_add_lookup_replace(void **state)
{
    (void)state;
    pl_profile_set *ps = NULL;
    double s = -1;
    assert_pl_ok(pl_profile_set_create(&ps));
    assert_pl_ok(pl_profile_set_add_solo(ps, "net", "4", 2, PL_SPREAD_INTRA_SOCKET, 100.0));
    assert_pl_ok(pl_profile_set_add_solo(ps, "net", "4", 2, PL_SPREAD_INTER_SOCKET, 130.0));
    assert_pl_ok(pl_profile_set_add_colocated(ps, "net", "4", 2, "other", "1", 1, 150.0));
    assert_counts(ps, 2, 1);
    assert_true(solo(ps, "net", "4", 2, PL_SPREAD_INTRA_SOCKET) == 100.0);
    assert_true(solo(ps, "net", "4", 2, PL_SPREAD_INTER_SOCKET) == 130.0);
    assert_true(coloc(ps, "net", "4", 2, "other", "1", 1) == 150.0);
    /* Every key field matters: other GPUs, other size, own GPUs. */
    assert_pl_status(pl_profile_set_colocated(ps, "net", "4", 2, "other", "1", 2, &s), PL_ENOTFOUND);
    assert_pl_status(pl_profile_set_colocated(ps, "net", "4", 2, "other", "4", 1, &s), PL_ENOTFOUND);
    assert_pl_status(pl_profile_set_colocated(ps, "net", "4", 1, "other", "1", 1, &s), PL_ENOTFOUND);
    assert_pl_status(pl_profile_set_solo(ps, "net", "4", 1, PL_SPREAD_INTRA_SOCKET, &s), PL_ENOTFOUND);
    /* Replacing keeps the count. */
    assert_pl_ok(pl_profile_set_add_solo(ps, "net", "4", 2, PL_SPREAD_INTRA_SOCKET, 120.0));
    assert_pl_ok(pl_profile_set_add_colocated(ps, "net", "4", 2, "other", "1", 1, 180.0));
    assert_counts(ps, 2, 1);
    assert_true(solo(ps, "net", "4", 2, PL_SPREAD_INTRA_SOCKET) == 120.0);
    /* Slowdown is against the intra-socket solo time: 180 / 120. */
    assert_true(slowdown(ps, "net", "4", 2, "other", "1", 1) == 1.5);
    /* String boundaries are part of the key: ("ab", "c") is not ("a", "bc"). */
    assert_pl_ok(pl_profile_set_add_solo(ps, "ab", "c", 1, PL_SPREAD_INTRA_SOCKET, 1.0));
    assert_pl_ok(pl_profile_set_add_solo(ps, "a", "bc", 1, PL_SPREAD_INTRA_SOCKET, 2.0));
    assert_true(solo(ps, "ab", "c", 1, PL_SPREAD_INTRA_SOCKET) == 1.0);
    assert_true(solo(ps, "a", "bc", 1, PL_SPREAD_INTRA_SOCKET) == 2.0);
    assert_counts(ps, 4, 1);
    pl_profile_set_free(ps);
}

static void test_slowdown_needs_both(void **state)
{
    (void)state;
    pl_profile_set *ps = NULL;
    assert_pl_ok(pl_profile_set_create(&ps));
    /* Only a co-located time: no baseline, so no interference assumed. */
    assert_pl_ok(pl_profile_set_add_colocated(ps, "a", "1", 1, "b", "1", 1, 90.0));
    assert_true(slowdown(ps, "a", "1", 1, "b", "1", 1) == 1.0);
    /* An inter-socket solo time is not the baseline either. */
    assert_pl_ok(pl_profile_set_add_solo(ps, "a", "1", 1, PL_SPREAD_INTER_SOCKET, 60.0));
    assert_true(slowdown(ps, "a", "1", 1, "b", "1", 1) == 1.0);
    assert_pl_ok(pl_profile_set_add_solo(ps, "a", "1", 1, PL_SPREAD_INTRA_SOCKET, 72.0));
    assert_true(slowdown(ps, "a", "1", 1, "b", "1", 1) == 1.25);
    /* The pair is directed: b next to a is not profiled. */
    assert_true(slowdown(ps, "b", "1", 1, "a", "1", 1) == 1.0);
    pl_profile_set_free(ps);
}

/* The neighbour's GPU count falls back to the nearest measured one (the
 * smaller on a tie); type, size and the job's own count never do. */
static void test_slowdown_nearest_neighbour_count(void **state)
{
    (void)state;
    pl_profile_set *ps = NULL;
    assert_pl_ok(pl_profile_set_create(&ps));
    assert_pl_ok(pl_profile_set_add_solo(ps, "a", "1", 2, PL_SPREAD_INTRA_SOCKET, 100.0));
    assert_pl_ok(pl_profile_set_add_colocated(ps, "a", "1", 2, "b", "1", 3, 130.0));
    assert_true(slowdown(ps, "a", "1", 2, "b", "1", 1) == 1.3);
    assert_true(slowdown(ps, "a", "1", 2, "b", "1", 7) == 1.3);
    assert_pl_ok(pl_profile_set_add_colocated(ps, "a", "1", 2, "b", "1", 1, 110.0));
    assert_true(slowdown(ps, "a", "1", 2, "b", "1", 2) == 1.1);
    assert_true(slowdown(ps, "a", "1", 2, "b", "1", 3) == 1.3);
    assert_true(slowdown(ps, "a", "1", 2, "b", "4", 1) == 1.0);
    assert_true(slowdown(ps, "a", "1", 2, "c", "1", 1) == 1.0);
    assert_true(slowdown(ps, "a", "1", 1, "b", "1", 1) == 1.0);
    pl_profile_set_free(ps);
    /* The artifact's 2-GPU AlexNet b4 was measured beside a 2-GPU AlexNet
     * b1 only (191.7 s / 152.285 s = 1.259); a 1-GPU AlexNet b1 neighbour takes
     * that time. */
    assert_pl_ok(pl_profile_set_builtin(&ps));
    double want = coloc(ps, "bvlc_alexnet", "4", 2, "bvlc_alexnet", "1", 2) /
                  solo(ps, "bvlc_alexnet", "4", 2, PL_SPREAD_INTRA_SOCKET);
    assert_float_equal(want, 191.7 / 152.285, 1e-12);
    assert_true(slowdown(ps, "bvlc_alexnet", "4", 2, "bvlc_alexnet", "1", 1) == want);
    pl_profile_set_free(ps);
}

static void test_invalid_arguments(void **state)
{
    (void)state;
    pl_profile_set *ps = NULL;
    double s = 0;
    int32_t n = 0;
    assert_pl_status(pl_profile_set_create(NULL), PL_EINVAL);
    assert_pl_ok(pl_profile_set_create(&ps));
    assert_pl_status(pl_profile_set_add_solo(NULL, "a", "1", 1, PL_SPREAD_INTRA_SOCKET, 1), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_solo(ps, NULL, "1", 1, PL_SPREAD_INTRA_SOCKET, 1), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_solo(ps, "a", NULL, 1, PL_SPREAD_INTRA_SOCKET, 1), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_solo(ps, "a", "1", 0, PL_SPREAD_INTRA_SOCKET, 1), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_solo(ps, "a", "1", 1, (pl_spread)7, 1), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_solo(ps, "a", "1", 1, PL_SPREAD_INTRA_SOCKET, 0), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_solo(ps, "a", "1", 1, PL_SPREAD_INTRA_SOCKET, -2), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_solo(ps, "a", "1", 1, PL_SPREAD_INTRA_SOCKET, NAN), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_solo(ps, "a", "1", 1, PL_SPREAD_INTRA_SOCKET, INFINITY), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_colocated(ps, "a", "1", 1, NULL, "1", 1, 1), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_colocated(ps, "a", "1", 1, "b", "1", 0, 1), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_colocated(ps, "a", "1", -1, "b", "1", 1, 1), PL_EINVAL);
    assert_pl_status(pl_profile_set_add_colocated(ps, "a", "1", 1, "b", "1", 1, NAN), PL_EINVAL);
    assert_counts(ps, 0, 0);
    assert_pl_status(pl_profile_set_solo(ps, "a", "1", 1, PL_SPREAD_INTRA_SOCKET, NULL), PL_EINVAL);
    assert_pl_status(pl_profile_set_solo(NULL, "a", "1", 1, PL_SPREAD_INTRA_SOCKET, &s), PL_EINVAL);
    assert_pl_status(pl_profile_set_colocated(ps, "a", NULL, 1, "b", "1", 1, &s), PL_EINVAL);
    assert_pl_status(pl_profile_set_slowdown(ps, "a", "1", 1, "b", "1", 1, NULL), PL_EINVAL);
    assert_pl_status(pl_profile_set_slowdown(ps, "a", "1", 0, "b", "1", 1, &s), PL_EINVAL);
    assert_pl_status(pl_profile_set_counts(NULL, &n, &n), PL_EINVAL);
    pl_profile_set_free(ps);
}

/* Enough keys to grow the tables many times; every one still found. */
static void test_many_entries(void **state)
{
    (void)state;
    pl_profile_set *ps = NULL;
    char size[32], other[32];
    assert_pl_ok(pl_profile_set_create(&ps));
    for (int i = 0; i < 3000; i++) {
        snprintf(size, sizeof size, "%d", i);
        snprintf(other, sizeof other, "o%d", i % 7);
        assert_pl_ok(pl_profile_set_add_solo(ps, "t", size, 1 + i % 3, PL_SPREAD_INTRA_SOCKET, 1.0 + i));
        assert_pl_ok(pl_profile_set_add_colocated(ps, "t", size, 1, other, size, 2, 2.0 + i));
    }
    assert_counts(ps, 3000, 3000);
    for (int i = 0; i < 3000; i++) {
        snprintf(size, sizeof size, "%d", i);
        snprintf(other, sizeof other, "o%d", i % 7);
        assert_true(solo(ps, "t", size, 1 + i % 3, PL_SPREAD_INTRA_SOCKET) == 1.0 + i);
        assert_true(coloc(ps, "t", size, 1, other, size, 2) == 2.0 + i);
        assert_true(slowdown(ps, "t", size, 1 + i % 3, other, size, 2) == (i % 3 ? 1.0 : (2.0 + i) / (1.0 + i)));
    }
    pl_profile_set_free(ps);
}

/* ---- the SC17 loader ------------------------------------------------------------------ */

static void test_sc17_zero_is_skipped(void **state)
{
    (void)state;
    pl_profile_set *ps = NULL;
    double s = -1;
    const char *text =
        "{\"solo\": {\"a\": {\"1\": {\"num_gpus\": {\"2\": {\"intra-socket\": 0, \"inter-socket\": 2.5}}}}},"
        " \"collocation\": {\"a\": {\"1\": {\"num_gpus\": {\"2\": {\"b\": {\"4\": {\"num_gpus\":"
        "   {\"1\": 0, \"3\": 7}}}}}}}}}";
    assert_pl_ok(pl_profile_set_load_sc17_string(text, 0, &ps));
    assert_counts(ps, 1, 1);
    assert_pl_status(pl_profile_set_solo(ps, "a", "1", 2, PL_SPREAD_INTRA_SOCKET, &s), PL_ENOTFOUND);
    assert_true(solo(ps, "a", "1", 2, PL_SPREAD_INTER_SOCKET) == 2.5);
    assert_pl_status(pl_profile_set_colocated(ps, "a", "1", 2, "b", "4", 1, &s), PL_ENOTFOUND);
    assert_true(coloc(ps, "a", "1", 2, "b", "4", 3) == 7.0);
    pl_profile_set_free(ps);
    /* Both sections are optional; an empty document is an empty set. */
    assert_pl_ok(pl_profile_set_load_sc17_string("{}", 0, &ps));
    assert_counts(ps, 0, 0);
    pl_profile_set_free(ps);
    /* length limits the text. */
    assert_pl_ok(pl_profile_set_load_sc17_string("{}garbage", 2, &ps));
    pl_profile_set_free(ps);
}

typedef struct bad_doc {
    const char *text;
    const char *message; /* expected in pl_last_error() */
} bad_doc;

static void test_sc17_errors(void **state)
{
    (void)state;
    static const bad_doc cases[] = {
        {"[]", "$: expected an object, got an array"},
        {"{\"colocation\": {}}", "$.colocation: unknown key (expected one of: solo, collocation)"},
        {"{\"solo\": 3}", "$.solo: expected an object, got 3"},
        {"{\"solo\": {\"my net\": []}}", "$.solo[\"my net\"]: expected an object, got an array"},
        {"{\"solo\": {\"a\": {\"1\": {\"numgpus\": {}}}}}", "$.solo.a.1.numgpus: unknown key (expected num_gpus)"},
        {"{\"solo\": {\"a\": {\"1\": {}}}}", "$.solo.a.1.num_gpus: missing"},
        {"{\"solo\": {\"a\": {\"1\": {\"num_gpus\": {\"x\": {}}}}}}",
         "$.solo.a.1.num_gpus.x: expected a GPU count >= 1 as the key, got \"x\""},
        {"{\"solo\": {\"a\": {\"1\": {\"num_gpus\": {\"0\": {}}}}}}", "$.solo.a.1.num_gpus.0: expected a GPU count"},
        {"{\"solo\": {\"a\": {\"1\": {\"num_gpus\": {\"1\": {\"intra_socket\": 3}}}}}}",
         "$.solo.a.1.num_gpus.1.intra_socket: unknown key (expected one of: intra-socket, inter-socket)"},
        {"{\"solo\": {\"a\": {\"1\": {\"num_gpus\": {\"1\": {\"intra-socket\": -3}}}}}}",
         "$.solo.a.1.num_gpus.1.intra-socket: expected a time in seconds >= 0, got -3"},
        {"{\"solo\": {\"a\": {\"1\": {\"num_gpus\": {\"1\": {\"inter-socket\": \"3\"}}}}}}",
         "$.solo.a.1.num_gpus.1.inter-socket: expected a time in seconds, got a string"},
        {"{\"collocation\": {\"a\": {\"1\": {\"num_gpus\": {\"1\": {\"b\": {\"4\": {\"num_gpus\": {\"2\": true}}}}}}}}}",
         "$.collocation.a.1.num_gpus.1.b.4.num_gpus.2: expected a time in seconds, got a boolean"},
        {"{\"collocation\": {\"a\": {\"1\": {\"num_gpus\": {\"1\": {\"b\": {\"4\": {\"num_gpu\": {}}}}}}}}}",
         "$.collocation.a.1.num_gpus.1.b.4.num_gpu: unknown key (expected num_gpus)"},
        {"{\"collocation\": {\"a\": {\"1\": {\"num_gpus\": {\"1\": {\"b\": {\"4\": {\"num_gpus\": {\"-1\": 5}}}}}}}}}",
         "$.collocation.a.1.num_gpus.1.b.4.num_gpus.-1: expected a GPU count"},
        {"{\"collocation\": {\"a\": {\"1\": {\"num_gpus\": {\"1\": {\"b\": []}}}}}}",
         "$.collocation.a.1.num_gpus.1.b: expected an object, got an array"},
        {"{\"solo\":", "<string>:1:"},
        {"{\"solo\": {}, \"solo\": {}}", "duplicate"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pl_profile_set *ps = (pl_profile_set *)&cases[i]; /* must be reset to NULL */
        pl_status st = pl_profile_set_load_sc17_string(cases[i].text, 0, &ps);
        if (st != PL_EPARSE)
            fail_msg("case %zu: %s, want PL_EPARSE", i, pl_status_name(st));
        assert_null(ps);
        if (!strstr(pl_last_error(), cases[i].message))
            fail_msg("case %zu: message \"%s\" lacks \"%s\"", i, pl_last_error(), cases[i].message);
    }
    pl_profile_set *ps = NULL;
    assert_pl_status(pl_profile_set_load_sc17_string(NULL, 0, &ps), PL_EINVAL);
    assert_pl_status(pl_profile_set_load_sc17_string("{}", 0, NULL), PL_EINVAL);
    assert_pl_status(pl_profile_set_load_sc17("/nonexistent/prof.json", &ps), PL_EIO);
    assert_non_null(strstr(pl_last_error(), "/nonexistent/prof.json"));
    assert_pl_status(pl_profile_set_load_sc17(NULL, &ps), PL_EINVAL);
}

/* ---- the built-in set ------------------------------------------------------------------ */

static void test_builtin_values(void **state)
{
    (void)state;
    pl_profile_set *ps = NULL;
    double s = -1;
    assert_pl_ok(pl_profile_set_builtin(&ps));
    /* 4 batch sizes x 2 types x (1-GPU intra, 2-GPU intra and inter, 3-GPU
     * intra); 288 co-located entries of which 113 are 0 (not measured);
     * plus CaffeRef, derived from AlexNet: 16 solo entries, and 335
     * co-located ones (CaffeRef for AlexNet as the job, as the neighbour, or
     * both), checked one by one in test_builtin_equals_file. */
    assert_counts(ps, 32 + 16, 175 + 335);
    assert_float_equal(solo(ps, "bvlc_reference_caffenet", "1", 2, PL_SPREAD_INTER_SOCKET), 159.115, 1e-9);
    assert_float_equal(coloc(ps, "bvlc_reference_caffenet", "1", 1, "bvlc_reference_caffenet", "4", 1), 75.03,
                       1e-9);
    assert_float_equal(solo(ps, "bvlc_alexnet", "1", 1, PL_SPREAD_INTRA_SOCKET), 69.165, 1e-9);
    assert_float_equal(coloc(ps, "bvlc_alexnet", "1", 1, "bvlc_alexnet", "4", 1), 75.03, 1e-9);
    assert_float_equal(coloc(ps, "bvlc_alexnet", "1", 1, "bvlc_alexnet", "1", 1), 63.79, 1e-9);
    assert_float_equal(slowdown(ps, "bvlc_alexnet", "1", 1, "bvlc_alexnet", "4", 1), 75.03 / 69.165, 1e-12);
    /* Solo 2-GPU inter / intra (notes on seed 002). */
    assert_float_equal(solo(ps, "bvlc_alexnet", "1", 2, PL_SPREAD_INTER_SOCKET), 159.115, 1e-9);
    assert_float_equal(solo(ps, "bvlc_alexnet", "1", 2, PL_SPREAD_INTRA_SOCKET), 127.415, 1e-9);
    assert_float_equal(solo(ps, "bvlc_alexnet", "128", 2, PL_SPREAD_INTER_SOCKET), 1795.05, 1e-9);
    assert_float_equal(solo(ps, "bvlc_googlenet", "64", 2, PL_SPREAD_INTER_SOCKET), 3387.095, 1e-9);
    assert_float_equal(solo(ps, "bvlc_googlenet", "128", 2, PL_SPREAD_INTRA_SOCKET), 6587.755, 1e-9);
    assert_float_equal(solo(ps, "bvlc_googlenet", "128", 1, PL_SPREAD_INTRA_SOCKET), 6693.14, 1e-9);
    assert_float_equal(solo(ps, "bvlc_alexnet", "64", 3, PL_SPREAD_INTRA_SOCKET), 977.23, 1e-9);
    /* The artifact's 0 for 1- and 3-GPU inter-socket runs means "not measured". */
    assert_pl_status(pl_profile_set_solo(ps, "bvlc_alexnet", "64", 3, PL_SPREAD_INTER_SOCKET, &s), PL_ENOTFOUND);
    assert_pl_status(pl_profile_set_solo(ps, "bvlc_alexnet", "1", 1, PL_SPREAD_INTER_SOCKET, &s), PL_ENOTFOUND);
    assert_pl_status(pl_profile_set_solo(ps, "bvlc_vgg", "1", 1, PL_SPREAD_INTRA_SOCKET, &s), PL_ENOTFOUND);
    assert_pl_status(pl_profile_set_builtin(NULL), PL_EINVAL);
    pl_profile_set_free(ps);
}

/* Every non-zero time of the artifact's file, walked independently of the
 * loader, must be in ps with exactly that value; returns how many. */
#define ALEX "bvlc_alexnet"
#define CAFFEREF "bvlc_reference_caffenet"

/* The type a derived entry has in place of `type` (copy 1: CaffeRef for AlexNet). */
static const char *as(const char *type, int copy)
{
    return copy && !strcmp(type, ALEX) ? CAFFEREF : type;
}

/* With derived, the built-in set's CaffeRef copies of every AlexNet entry
 * are checked and counted too. */
static void walk_solo(const pl_profile_set *ps, json_t *doc, int derived, int32_t *n)
{
    const char *type, *size, *g, *where;
    json_t *by_size, *entry, *times, *v;
    json_object_foreach(json_object_get(doc, "solo"), type, by_size) {
        json_object_foreach(by_size, size, entry) {
            json_object_foreach(json_object_get(entry, "num_gpus"), g, times) {
                json_object_foreach(times, where, v) {
                    double want = json_number_value(v);
                    pl_spread sp = strcmp(where, "intra-socket") ? PL_SPREAD_INTER_SOCKET : PL_SPREAD_INTRA_SOCKET;
                    if (want == 0)
                        continue;
                    for (int c = 0; c < 1 + (derived && !strcmp(type, ALEX)); c++) {
                        assert_true(solo(ps, as(type, c), size, atoi(g), sp) == want);
                        (*n)++;
                    }
                }
            }
        }
    }
}

static void walk_coloc(const pl_profile_set *ps, json_t *doc, int derived, int32_t *n)
{
    const char *type, *size, *g, *ot, *os, *og;
    json_t *by_size, *entry, *partners, *o_by_size, *o_entry, *v;
    json_object_foreach(json_object_get(doc, "collocation"), type, by_size) {
        json_object_foreach(by_size, size, entry) {
            json_object_foreach(json_object_get(entry, "num_gpus"), g, partners) {
                json_object_foreach(partners, ot, o_by_size) {
                    json_object_foreach(o_by_size, os, o_entry) {
                        json_object_foreach(json_object_get(o_entry, "num_gpus"), og, v) {
                            double want = json_number_value(v);
                            if (want == 0)
                                continue;
                            /* Bit 0: the job's type replaced, bit 1: the neighbour's. */
                            for (int c = 0; c < 4; c++) {
                                if (c && (!derived || ((c & 1) && strcmp(type, ALEX)) ||
                                          ((c & 2) && strcmp(ot, ALEX))))
                                    continue;
                                assert_true(coloc(ps, as(type, c & 1), size, atoi(g), as(ot, c & 2), os,
                                                  atoi(og)) == want);
                                (*n)++;
                            }
                        }
                    }
                }
            }
        }
    }
}

static void assert_matches_file(const pl_profile_set *ps, const char *path, int derived)
{
    json_error_t e;
    json_t *doc = json_load_file(path, 0, &e);
    if (!doc)
        fail_msg("%s: %s", path, e.text);
    int32_t ns = 0, nc = 0;
    walk_solo(ps, doc, derived, &ns);
    walk_coloc(ps, doc, derived, &nc);
    json_decref(doc);
    assert_counts(ps, ns, nc);
}

static void test_builtin_equals_file(void **state)
{
    (void)state;
    char path[PL_PATH_MAX];
    pl_profile_set *builtin = NULL, *loaded = NULL;
    pl_test_data(path, "sc17/prof_from_experiments.json");
    assert_pl_ok(pl_profile_set_builtin(&builtin));
    assert_pl_ok(pl_profile_set_load_sc17(path, &loaded));
    assert_matches_file(builtin, path, 1);
    assert_matches_file(loaded, path, 0);
    pl_profile_set_free(builtin);
    pl_profile_set_free(loaded);
}


/* pl_test_json_loader over pl_profile_set_load_sc17_string(). */
static pl_status load_profiles(const char *text, size_t length)
{
    pl_profile_set *ps = NULL;
    pl_status st = pl_profile_set_load_sc17_string(text, length, &ps);
    if (st)
        assert_null(ps);
    pl_profile_set_free(ps);
    return st;
}

/* Degenerate documents (doc/robustness.md), shared with the other JSON suites. */
static void test_degenerate_documents(void **state)
{
    (void)state;
    pl_test_degenerate_json("solo", load_profiles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_set),
        cmocka_unit_test(test_add_lookup_replace),
        cmocka_unit_test(test_slowdown_needs_both),
        cmocka_unit_test(test_slowdown_nearest_neighbour_count),
        cmocka_unit_test(test_invalid_arguments),
        cmocka_unit_test(test_many_entries),
        cmocka_unit_test(test_sc17_zero_is_skipped),
        cmocka_unit_test(test_sc17_errors),
        cmocka_unit_test(test_builtin_values),
        cmocka_unit_test(test_builtin_equals_file),
        cmocka_unit_test(test_degenerate_documents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

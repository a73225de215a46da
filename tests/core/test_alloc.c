/* The allocation helpers every module shares (lib/core/alloc.c, core.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <placement/status.h>
#include "../common/testutil.h"
#include "internal/core.h"

typedef struct thing {
    int32_t n;
    double w;
} thing;

static void thing_free(thing *t)
{
    free(t);
}

static void test_push_i32_doubles_from_first_cap(void **s)
{
    (void)s;
    int32_t *list = NULL, n = 0, cap = 0;
    assert_pl_ok(pl_push_i32(&list, &n, &cap, 2, 10));
    assert_int_equal(cap, 2);
    assert_pl_ok(pl_push_i32(&list, &n, &cap, 2, 11));
    assert_pl_ok(pl_push_i32(&list, &n, &cap, 2, 12));
    assert_int_equal(cap, 4);
    assert_int_equal(n, 3);
    for (int32_t i = 0; i < n; i++)
        assert_int_equal(list[i], 10 + i);
    free(list);
}

static void test_free_lists_i32(void **s)
{
    (void)s;
    int32_t *rows[3] = {NULL, NULL, NULL}, n[3] = {0}, cap[3] = {0};
    for (int r = 0; r < 2; r++)
        for (int32_t x = 0; x < 5; x++)
            assert_pl_ok(pl_push_i32(&rows[r], &n[r], &cap[r], 4, x));
    /* Only the lists go (the table is the caller's); an empty row and a
     * NULL table are fine. */
    pl_free_lists_i32(rows, 3);
    pl_free_lists_i32(NULL, 3);
}

static void test_create_zeroed(void **s)
{
    (void)s;
    thing *t = (thing *)&t; /* not NULL: the call must set it */
    assert_pl_ok(pl_create_zeroed("make_thing", (void **)&t, sizeof *t));
    assert_non_null(t);
    assert_true(t->n == 0 && t->w == 0);
    free(t);
    assert_pl_status(pl_create_zeroed("make_thing", NULL, sizeof *t), PL_EINVAL);
    assert_string_equal(pl_last_error(), "make_thing: NULL out");
}

static pl_status build(pl_status st, thing **out)
{
    thing *t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->n = 7;
    return PL_HAND_OUT(st, t, thing_free, out);
}

static void test_hand_out(void **s)
{
    (void)s;
    thing *t = NULL;
    assert_pl_ok(build(PL_OK, &t));
    assert_non_null(t);
    assert_int_equal(t->n, 7);
    free(t);
    /* On failure the object is freed (ASan would see a leak otherwise) and
     * *out is left alone. */
    t = NULL;
    assert_int_equal(build(PL_EPARSE, &t), PL_EPARSE);
    assert_null(t);
}

static void init_thing(thing *t)
{
    t->n = 3;
    t->w = 0.5;
}

static void test_opts_or_defaults(void **s)
{
    (void)s;
    const thing mine = {.n = 9, .w = 2.0};
    const thing *given = &mine, *none = NULL;
    thing o;
    PL_OPTS_OR_DEFAULTS(o, given, init_thing);
    assert_true(o.n == 9 && o.w == 2.0);
    PL_OPTS_OR_DEFAULTS(o, none, init_thing);
    assert_true(o.n == 3 && o.w == 0.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_push_i32_doubles_from_first_cap),
        cmocka_unit_test(test_free_lists_i32),
        cmocka_unit_test(test_create_zeroed),
        cmocka_unit_test(test_hand_out),
        cmocka_unit_test(test_opts_or_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Structs of arrays through a table of columns (lib/core/columns.h). */
#include <stdint.h>
#include <string.h>
#include "../common/testutil.h"
#include "internal/columns.h"

typedef struct soa {
    int32_t *id;
    double *w;
    int64_t *pair; /* two per row */
} soa;

static const pl_column cols[] = {PL_COLUMN(soa, id), PL_COLUMN(soa, w), PL_COLUMN_N(soa, pair, 2)};

static void test_alloc_zeroed_and_free_nulls(void **s)
{
    (void)s;
    soa a;
    assert_pl_ok(pl_columns_alloc(&a, cols, PL_NCOLUMNS(cols), 3));
    for (int i = 0; i < 3; i++)
        assert_true(a.id[i] == 0 && a.w[i] == 0 && a.pair[2 * i] == 0 && a.pair[2 * i + 1] == 0);
    pl_columns_free(&a, cols, PL_NCOLUMNS(cols));
    assert_true(!a.id && !a.w && !a.pair);
    /* Zero rows still give usable pointers, as pl_alloc does. */
    assert_pl_ok(pl_columns_alloc(&a, cols, PL_NCOLUMNS(cols), 0));
    assert_true(a.id && a.w && a.pair);
    pl_columns_free(&a, cols, PL_NCOLUMNS(cols));
}

/* A caller's allocator: counts the bytes it hands out, and fails the
 * fail_at-th call (0: never). */
typedef struct counting {
    size_t bytes;
    int calls, fail_at;
} counting;

static void *count_alloc(void *ctx, size_t count, size_t size)
{
    counting *c = ctx;
    if (++c->calls == c->fail_at)
        return NULL;
    c->bytes += count * size;
    return pl_alloc(count, size);
}

static void test_alloc_with_callers_allocator(void **s)
{
    (void)s;
    soa a;
    counting c = {0};
    assert_pl_ok(pl_columns_alloc_with(&a, cols, PL_NCOLUMNS(cols), 5, count_alloc, &c));
    /* Each column through the allocator, with rows x per_row elements. */
    assert_int_equal(c.calls, 3);
    assert_int_equal(c.bytes, 5 * 4 + 5 * 8 + 10 * 8);
    assert_true(a.id[4] == 0 && a.w[4] == 0 && a.pair[9] == 0);
    pl_columns_free(&a, cols, PL_NCOLUMNS(cols));
    /* One failure: PL_ENOMEM, and every column freed and NULL. */
    c = (counting){.fail_at = 2};
    assert_pl_status(pl_columns_alloc_with(&a, cols, PL_NCOLUMNS(cols), 5, count_alloc, &c), PL_ENOMEM);
    assert_true(!a.id && !a.w && !a.pair);
}

static void test_grow_keeps_and_zero_fills(void **s)
{
    (void)s;
    soa a = {0};
    assert_pl_ok(pl_columns_grow(&a, cols, PL_NCOLUMNS(cols), 0, 2));
    a.id[1] = 7;
    a.w[1] = 0.5;
    a.pair[3] = -9;
    assert_pl_ok(pl_columns_grow(&a, cols, PL_NCOLUMNS(cols), 2, 40));
    assert_int_equal(a.id[1], 7);
    assert_true(a.w[1] == 0.5);
    assert_int_equal(a.pair[3], -9);
    for (int i = 2; i < 40; i++)
        assert_true(a.id[i] == 0 && a.w[i] == 0 && a.pair[2 * i] == 0 && a.pair[2 * i + 1] == 0);
    pl_columns_free(&a, cols, PL_NCOLUMNS(cols));
}

static void test_copy(void **s)
{
    (void)s;
    soa a, b = {0}, c = {0};
    assert_pl_ok(pl_columns_alloc(&a, cols, PL_NCOLUMNS(cols), 4));
    for (int i = 0; i < 4; i++) {
        a.id[i] = i;
        a.w[i] = i / 4.0;
        a.pair[2 * i] = -i;
        a.pair[2 * i + 1] = i * 100;
    }
    assert_pl_ok(pl_columns_copy(&b, &a, cols, PL_NCOLUMNS(cols), 3));
    assert_memory_equal(b.id, a.id, 3 * sizeof *a.id);
    assert_memory_equal(b.w, a.w, 3 * sizeof *a.w);
    assert_memory_equal(b.pair, a.pair, 6 * sizeof *a.pair);
    assert_ptr_not_equal(b.id, a.id);
    /* Nothing to copy: NULL columns. */
    assert_pl_ok(pl_columns_copy(&c, &a, cols, PL_NCOLUMNS(cols), 0));
    assert_true(!c.id && !c.w && !c.pair);
    pl_columns_free(&a, cols, PL_NCOLUMNS(cols));
    pl_columns_free(&b, cols, PL_NCOLUMNS(cols));
}

static void test_next_cap(void **s)
{
    (void)s;
    assert_int_equal(pl_next_cap(0, 1), 16);
    assert_int_equal(pl_next_cap(16, 17), 25);
    assert_true(pl_next_cap(100, 1000) >= 1000);
    assert_int_equal(pl_next_cap(64, 10), 64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_zeroed_and_free_nulls),
        cmocka_unit_test(test_alloc_with_callers_allocator),
        cmocka_unit_test(test_grow_keeps_and_zero_fills),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_next_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

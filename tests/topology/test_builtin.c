/* Placeholder suite: being written (issue 4). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <placement/placement.h>

static void test_placeholder(void **state)
{
    (void)state;
    pl_topology *t = NULL;
    assert_int_equal(pl_topology_create(&t), PL_OK);
    pl_topology_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_placeholder)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

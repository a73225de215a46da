/* Placeholder suite: being written (issue 5). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <placement/placement.h>

static void test_placeholder(void **state)
{
    (void)state;
    assert_int_equal(pl_status_name(PL_OK)[0], 'P');
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_placeholder)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

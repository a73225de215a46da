/* Status names and the thread-local last-error message. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "../common/testutil.h"

static void test_names(void **s)
{
    (void)s;
    assert_string_equal(pl_status_name(PL_OK), "PL_OK");
    assert_string_equal(pl_status_name(PL_EPARSE), "PL_EPARSE");
    assert_string_equal(pl_status_name(PL_EINTERNAL), "PL_EINTERNAL");
    assert_string_equal(pl_status_name((pl_status)999), "PL_E?");
    assert_string_equal(pl_status_string(PL_EINFEASIBLE), "problem is infeasible");
    assert_string_equal(pl_status_string((pl_status)-1), "unknown status");
}

static void test_version(void **s)
{
    (void)s;
    assert_string_equal(pl_version(), PL_VERSION);
}

static void test_message_set_by_failure(void **s)
{
    (void)s;
    pl_flownet *net;
    assert_pl_ok(pl_flownet_create(&net));
    assert_pl_status(pl_flownet_add_arc(net, 0, 1, 0, 1, 1, NULL), PL_EINVAL);
    assert_non_null(strstr(pl_last_error(), "node 0 out of range"));
    pl_flownet_free(net);
}

/* Each thread fails differently many times; no thread may ever read another's message. */
static void *fail_repeatedly(void *arg)
{
    intptr_t id = (intptr_t)arg;
    pl_flownet *net;
    if (pl_flownet_create(&net))
        return (void *)1;
    char want[64];
    snprintf(want, sizeof want, "node %d out of range", (int)(1000 + id));
    for (int i = 0; i < 20000; i++) {
        pl_flownet_set_supply(net, (int32_t)(1000 + id), 1);
        if (!strstr(pl_last_error(), want)) {
            pl_flownet_free(net);
            return (void *)1;
        }
    }
    pl_flownet_free(net);
    return NULL;
}

static void test_message_is_per_thread(void **s)
{
    (void)s;
    pthread_t t[4];
    for (intptr_t i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, fail_repeatedly, (void *)i), 0);
    for (int i = 0; i < 4; i++) {
        void *ret;
        pthread_join(t[i], &ret);
        assert_null(ret);
    }
}

static void test_pl_free_null(void **s)
{
    (void)s;
    pl_free(NULL); /* must be a no-op */
    pl_flownet_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_message_set_by_failure),
        cmocka_unit_test(test_message_is_per_thread),
        cmocka_unit_test(test_pl_free_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

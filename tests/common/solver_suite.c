/* sc_run_suite(): the shared battery for one solver, chosen by its flags,
 * followed by the suite's own tests (see solver_cases.h). */
#include <stdlib.h>
#include <string.h>
#include "solver_cases.h"

typedef struct sc_entry {
    const char *name;
    CMUnitTestFunction fn;
    unsigned needs; /* every one of these SC_* flags */
    unsigned unless; /* none of these */
} sc_entry;

#define SC_ENTRY(fn, needs) {#fn, fn, needs, 0}

static const sc_entry battery[] = {
    SC_ENTRY(sc_test_registered, 0),
    SC_ENTRY(sc_test_infeasible, 0),
    SC_ENTRY(sc_test_unbounded, 0),
    {"sc_test_max_iterations", sc_test_max_iterations, 0, SC_RACING},
    SC_ENTRY(sc_test_direct_certificate, 0),
    SC_ENTRY(sc_test_direct_infeasible, 0),
    SC_ENTRY(sc_test_direct_nothing_to_do, 0),
    SC_ENTRY(sc_test_direct_warm_from_optimum, SC_WARM),
    SC_ENTRY(sc_test_direct_warm_from_garbage, SC_WARM | SC_UNTRUSTED_WARM),
    SC_ENTRY(sc_test_fixtures, SC_VS_SSP),
    SC_ENTRY(sc_test_random_small, SC_VS_SSP),
    SC_ENTRY(sc_test_random_wide, SC_VS_SSP),
    SC_ENTRY(sc_test_warm_random_changes, SC_WARM),
    SC_ENTRY(sc_test_warm_structural_changes, SC_WARM),
    SC_ENTRY(sc_test_warm_mixed_statuses, SC_WARM | SC_VS_SSP),
};

typedef struct case_run {
    const sc_solver *s;
    const sc_case *c;
} case_run;

static void run_case(void **state)
{
    const case_run *r = *state;
    sc_run_case(r->s, r->c);
}

int sc_run_suite(const sc_solver *s, const struct CMUnitTest *own, size_t n_own)
{
    size_t n_battery = sizeof battery / sizeof battery[0], count = 0;
    struct CMUnitTest *tests = calloc(sc_case_count + n_battery + n_own, sizeof *tests);
    case_run *runs = calloc(sc_case_count, sizeof *runs);
    if (!tests || !runs) {
        free(tests);
        free(runs);
        return 1;
    }
    for (size_t i = 0; i < sc_case_count; i++) {
        runs[i] = (case_run){s, sc_cases[i]};
        tests[count++] = (struct CMUnitTest){
            .name = sc_case_name(sc_cases[i]), .test_func = run_case, .initial_state = &runs[i]};
    }
    for (size_t i = 0; i < n_battery; i++)
        if ((s->flags & battery[i].needs) == battery[i].needs && !(s->flags & battery[i].unless))
            tests[count++] = (struct CMUnitTest){
                .name = battery[i].name, .test_func = battery[i].fn, .initial_state = (void *)s};
    memcpy(tests + count, own, n_own * sizeof *own);
    int failed = _cmocka_run_group_tests(s->name, tests, count + n_own, NULL, NULL);
    free(tests);
    free(runs);
    return failed;
}

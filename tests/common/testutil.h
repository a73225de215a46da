/* Helpers shared by the cmocka suites. */
#ifndef PL_TESTUTIL_H
#define PL_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <placement/placement.h>

/* Path of a fixture under tests/data (from $PL_TEST_DATA); static buffer per call site is
 * not needed: the result is written to buf (size PL_PATH_MAX). */
#define PL_PATH_MAX 4096
const char *pl_test_data(char *buf, const char *rel);

/* Assert that a call returns PL_OK, printing pl_last_error() if not. */
#define assert_pl_ok(call) do { \
        pl_status st_ = (call); \
        if (st_ != PL_OK) \
            fail_msg("%s returned %s: %s", #call, pl_status_name(st_), pl_last_error()); \
    } while (0)

/* Assert a status code, printing the message on mismatch. */
#define assert_pl_status(call, want) do { \
        pl_status st_ = (call); \
        if (st_ != (want)) \
            fail_msg("%s returned %s, want %s: %s", #call, pl_status_name(st_), \
                     pl_status_name(want), pl_last_error()); \
    } while (0)

/* What a topology writer (pl_topology_write_text, pl_topology_write_dot)
 * prints for t, as a malloc'ed string; fails the test if it fails. */
char *pl_test_topology_output(pl_status (*writer)(const pl_topology *, FILE *), const pl_topology *t);

/* A new temporary file /tmp/pl_test_XXXXXX, opened for writing, its name
 * in path; fails the test if it cannot be made. The caller removes it. */
#define PL_TEST_TMP_PATH 32
FILE *pl_test_tmpfile(char path[PL_TEST_TMP_PATH]);

/* Run the placement CLI ($PL_PLACEMENT_BIN, else "placement") with args
 * through the shell, in directory dir (NULL: the current one); capture its
 * stdout (and stderr when merge) into out (cap bytes, NUL-terminated);
 * return the exit status (-1 if it did not exit). */
int pl_test_run_cli(const char *dir, const char *args, int merge, char *out, size_t cap);

/* One line of tests/data/flow/EXPECTED.txt: "FILE cost=C nodes=N arcs=M". */
typedef struct pl_test_fixture {
    char file[256];
    int64_t cost;
    int32_t nodes, arcs;
} pl_test_fixture;

/* Every fixture listed in EXPECTED.txt, in file order, into a malloc'ed
 * array (free() it); returns the count, or -1 if the file cannot be read. */
int pl_test_read_fixtures(pl_test_fixture **out);

/* Read fixture fx's DIMACS file (failing the test if it cannot). */
pl_flownet *pl_test_load_fixture(const pl_test_fixture *fx);

/* A JSON loader under test: parse text (length 0: strlen), free what it
 * built, and return its status; on failure it must have built nothing. */
typedef pl_status (*pl_test_json_loader)(const char *text, size_t length);

/* JSON {"<key>": [[[...]]]} nesting depth arrays; the caller frees it. */
char *pl_test_deep_json(const char *key, int depth);

/* The degenerate documents of doc/robustness.md against one loader whose
 * top-level object takes key: blank and empty text, NaN, -Infinity, 1e400,
 * a 20-digit integer and 100000-deep nesting are each PL_EPARSE with the
 * parser's position or reason. */
void pl_test_degenerate_json(const char *key, pl_test_json_loader load);

/* Solve net with the named solver (and certificate verification); return status. */
pl_status pl_test_solve(pl_flownet *net, const char *solver, int64_t *cost);

/* Small deterministic PRNG (splitmix64) so random tests replay exactly. */
typedef struct { uint64_t s; } pl_test_rng;
uint64_t pl_test_rand(pl_test_rng *r);
int64_t pl_test_range(pl_test_rng *r, int64_t lo, int64_t hi); /* inclusive */

/* Random small network of the kinds the random suites need. */
typedef struct pl_randnet_opts {
    int32_t max_nodes;       /* nodes drawn in [2, max_nodes] */
    int32_t max_arcs;        /* arcs drawn in [1, max_arcs] */
    int64_t max_cap;         /* capacities in [0, max_cap] */
    int64_t max_cost;        /* costs in [-max_cost, max_cost] when neg_costs, else [0, max_cost] */
    int neg_costs;           /* allow negative costs */
    int lower_bounds;        /* sometimes give arcs a lower bound */
    int inf_arcs;            /* sometimes make an arc PL_CAP_INF */
    int64_t max_supply;      /* supplies drawn so they balance, |b| <= max_supply */
} pl_randnet_opts;
void pl_randnet_opts_init(pl_randnet_opts *o);
pl_flownet *pl_randnet(pl_test_rng *r, const pl_randnet_opts *o);

#endif

/* Adding a solver and a policy of your own (doc/guide.md, sections 4-5):
 *
 *   cc extend.c $(pkg-config --cflags --libs placement) -o extend && ./extend
 *
 * "counting-simplex" is network simplex that counts its calls; "first-free"
 * puts each queued job's tasks on the first free GPUs of the first machine
 * that still has enough. Both are registered by name and then used exactly
 * like the built-in ones. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <placement/placement.h>

/* ---- a solver ---------------------------------------------------------------- */

static atomic_long solves; /* atomic: networks may be solved in several threads */

static pl_status counting_solve(const pl_flow_problem *p, const pl_solve_opts *opts,
                                pl_flow_solution *out)
{
    const pl_solver_ops *inner;
    pl_status st = pl_solver_find("network-simplex", &inner);
    if (st != PL_OK)
        return st;
    atomic_fetch_add(&solves, 1);
    /* Without a free_state function we get out->state == NULL, so the inner
     * solver keeps no basis between solves and runs cold each time. */
    return inner->solve(p, opts, out);
}

static const pl_solver_ops counting_simplex = {
    .name = "counting-simplex",
    .description = "network simplex that counts its calls",
    .solve = counting_solve,
};

/* ---- a policy ---------------------------------------------------------------- */

/* Machines in preorder; a GPU is free when its one unit is, and not given to
 * an earlier job of this call (taken[]). */
static int32_t pick_gpus(const pl_topology *t, int32_t k, char *taken, int32_t *gpus, int32_t *machine)
{
    int32_t nm = 0;
    pl_topology_descendants(t, -1, PL_VK_MACHINE, NULL, 0, &nm);
    int32_t *machines = malloc(((size_t)nm + 1) * sizeof *machines);
    int32_t found = 0;
    pl_topology_descendants(t, -1, PL_VK_MACHINE, machines, nm, &nm);
    for (int32_t m = 0; m < nm && found < k; m++) {
        int32_t ng = 0, list[256];
        found = 0;
        pl_topology_descendants(t, machines[m], PL_VK_GPU, list, 256, &ng);
        for (int32_t i = 0; i < ng && i < 256 && found < k; i++) {
            int64_t free_units = 0;
            pl_topology_amount(t, list[i], PL_RES_UNITS, NULL, NULL, &free_units);
            if (free_units >= 1 && !taken[list[i]])
                gpus[found++] = list[i];
        }
        *machine = machines[m];
    }
    free(machines);
    if (found < k)
        return 0;
    for (int32_t i = 0; i < k; i++)
        taken[gpus[i]] = 1;
    return k;
}

static pl_status first_free_place(const pl_policy_request *req, pl_decision *out)
{
    char *taken = calloc((size_t)pl_topology_vertex_count(req->topo) + 1, 1);
    if (!taken)
        return pl_solver_error(PL_ENOMEM, "first-free: out of memory");
    pl_status st = PL_OK;
    for (int32_t j = 0; j < req->nqueue && st == PL_OK; j++) {
        int32_t k = pl_job_task_count(req->queue[j]), gpus[64], machine = -1;
        pl_decision_info d = {.kind = PL_DECISION_WAITING, .reason = "no machine has enough free GPUs"};
        if (k > 64) {
            d.kind = PL_DECISION_REJECTED;
            d.reason = "more than 64 tasks";
        } else if (pick_gpus(req->topo, k, taken, gpus, &machine) == k) {
            d = (pl_decision_info){.kind = PL_DECISION_PLACED, .ngpus = k, .gpus = gpus,
                                   .machine = machine, .utility = 1, .slowdown = 1, .reason = ""};
        }
        st = pl_decision_set(out, j, &d);
    }
    free(taken);
    return st;
}

static const pl_policy_ops first_free = {
    .name = "first-free",
    .description = "first free GPUs of the first machine with enough",
    .place = first_free_place,
};

/* ---- using them ----------------------------------------------------------------- */

static int fail(const char *what)
{
    fprintf(stderr, "extend: %s: %s\n", what, pl_last_error());
    return 1;
}

/* Two units from node 0 to node 2, over 0->1->2 (cost 2 each) or 0->2 (cost 5, capacity 1). */
static int solve_with_counting_simplex(void)
{
    pl_flownet *net;
    if (pl_flownet_create(&net) != PL_OK)
        return fail("pl_flownet_create");
    pl_flownet_add_nodes(net, 3, NULL);
    pl_flownet_set_supply(net, 0, 2);
    pl_flownet_set_supply(net, 2, -2);
    pl_flownet_add_arc(net, 0, 1, 0, 1, 1, NULL);
    pl_flownet_add_arc(net, 1, 2, 0, 1, 1, NULL);
    pl_flownet_add_arc(net, 0, 2, 0, 1, 5, NULL);
    pl_solve_opts o;
    pl_solve_opts_init(&o);
    o.solver = "counting-simplex";
    o.verify = 1;
    int64_t cost = 0;
    if (pl_flownet_solve(net, &o, NULL) != PL_OK || pl_flownet_solution_cost(net, &cost) != PL_OK) {
        pl_flownet_free(net);
        return fail("solve");
    }
    printf("counting-simplex: cost %lld after %ld solve(s)\n", (long long)cost, atomic_load(&solves));
    pl_flownet_free(net);
    return 0;
}

/* Three jobs of 3, 2 and 2 one-GPU tasks on one 4-GPU Minsky. */
static int place_with_first_free(void)
{
    pl_topology *minsky = NULL;
    if (pl_topology_builtin("minsky", &minsky) != PL_OK)
        return fail("minsky");
    pl_job *jobs[3];
    const int sizes[3] = {3, 2, 2};
    for (int j = 0; j < 3; j++) {
        char name[8];
        snprintf(name, sizeof name, "job%d", j);
        pl_job_create(name, &jobs[j]);
        for (int t = 0; t < sizes[j]; t++)
            pl_job_add_task(jobs[j], NULL, NULL);
    }
    pl_policy_opts o;
    pl_policy_opts_init(&o);
    o.policy = "first-free";
    pl_decision *d = NULL;
    int rc = 0;
    if (pl_policy_place(&o, minsky, NULL, 0, jobs, 3, &d) != PL_OK) {
        rc = fail("pl_policy_place");
    } else {
        for (int32_t j = 0; j < pl_decision_count(d); j++) {
            pl_decision_info info;
            pl_decision_get(d, j, &info);
            printf("first-free: %s %s", pl_job_name(jobs[j]),
                   info.kind == PL_DECISION_PLACED ? "placed on" : "waits,");
            for (int32_t g = 0; g < info.ngpus; g++) {
                pl_vertex_info v;
                pl_topology_vertex(minsky, info.gpus[g], &v);
                printf(" %s", v.name);
            }
            printf("%s%s\n", info.reason[0] ? " " : "", info.reason);
        }
    }
    pl_decision_free(d);
    for (int j = 0; j < 3; j++)
        pl_job_free(jobs[j]);
    pl_topology_free(minsky);
    return rc;
}

int main(void)
{
    if (pl_solver_register(&counting_simplex) != PL_OK || pl_policy_register(&first_free) != PL_OK)
        return fail("register");
    int rc = solve_with_counting_simplex() || place_with_first_free();
    pl_solver_unregister("counting-simplex");
    pl_policy_unregister("first-free");
    return rc;
}

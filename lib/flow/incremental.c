/* Incremental re-solve: keeping the normalised problem of a solved network
 * up to date change by change, so that a re-solve after a few changes does
 * not pay the passes over every arc that building the problem costs (the
 * residual lists alone took 9 ms a solve on a 1M-arc scheduling graph,
 * against 2 ms for the relaxation solver's own warm work; doc/flow.md).
 *
 * A network is armed after a successful solve by a solver flagged
 * PL_SOLVER_INCREMENTAL, if it has no lower bounds (then the normalised
 * supplies and flows are the user's own) and no infinite arc of negative
 * cost (the unboundedness check stays on the full path). Armed, it keeps:
 *  - residual lists with room to grow: node v's arcs are out_arcs[out_first[v]
 *    .. out_end[v]-1], room up to lim[v]; a full list moves to the end of
 *    the pool with twice the room, and removed arcs leave their lists
 *    (pos[r] finds an entry, the list's last entry fills the hole);
 *  - ncap and is_inf per arc, and the totals the limits are checked on;
 *  - flow, the last solution clipped to the current bounds (0 on new and
 *    removed arcs), and imb, its excess against the current supplies;
 *  - the list of arcs changed since the last solve.
 * Anything it does not handle (a lower bound, a failed allocation, too much
 * garbage in the pool) disarms it; the next solve then takes the full path
 * and re-arms. Disarming never loses correctness, only speed.
 *
 * The capacity of infinite arcs (cap_inf) is set with room to spare when
 * arming, so that supplies growing a little do not force the full path:
 * any value above what an optimal flow needs and within the 2^62 limit
 * serves (doc/flow.md). */
#include <stdlib.h>
#include <string.h>
#include "internal/flownet_impl.h"

#define PL_COST_LIMIT ((int64_t)1 << 60)

static int64_t abs64(int64_t x)
{
    return x < 0 ? -x : x; /* costs are within +-2^60 when armed (checked on solve) */
}

void pl_inc_disarm(pl_flownet *net)
{
    if (!net->inc.armed)
        return;
    net->inc.armed = 0;
    net->csr_valid = 0; /* the gapped lists are not the contiguous CSR */
}

static int realloc_to(void **arr, int64_t count, size_t size)
{
    void *p = pl_realloc_array(*arr, (size_t)(count ? count : 1), size);
    if (!p)
        return -1;
    *arr = p;
    return 0;
}

/* Make room for node ids below need; -1 on failure. */
static int node_room(pl_flownet *net, int64_t need)
{
    if (need <= net->inc.node_room)
        return 0;
    int64_t room = need + need / 2 + 16, old = net->inc.node_room;
    if (realloc_to((void **)&net->out_first, room + 1, sizeof(int32_t)) ||
        realloc_to((void **)&net->out_end, room, sizeof(int32_t)) ||
        realloc_to((void **)&net->inc.lim, room, sizeof(int32_t)) ||
        realloc_to((void **)&net->inc.imb, room, sizeof(int64_t)) ||
        realloc_to((void **)&net->pot, room, sizeof(int64_t)))
        return -1;
    memset(net->inc.imb + old, 0, (size_t)(room - old) * sizeof(int64_t));
    net->inc.node_room = room;
    return 0;
}

/* Make room for arc ids below need; -1 on failure. */
static int arc_room(pl_flownet *net, int64_t need)
{
    if (need <= net->inc.arc_room)
        return 0;
    int64_t room = need + need / 2 + 16, old = net->inc.arc_room;
    if (realloc_to((void **)&net->inc.pos, 2 * room, sizeof(int32_t)) ||
        realloc_to((void **)&net->inc.is_changed, room, 1) ||
        realloc_to((void **)&net->ncap, room, sizeof(int64_t)) ||
        realloc_to((void **)&net->is_inf, room, 1) ||
        realloc_to((void **)&net->flow, room, sizeof(int64_t)))
        return -1;
    memset(net->inc.is_changed + old, 0, (size_t)(room - old));
    for (int64_t r = 2 * old; r < 2 * room; r++)
        net->inc.pos[r] = -1;
    net->inc.arc_room = room;
    return 0;
}

/* ---- residual lists ------------------------------------------------------ */

static int list_add(pl_flownet *net, int32_t v, int32_t r)
{
    if (net->out_end[v] == net->inc.lim[v]) {
        int64_t count = net->out_end[v] - net->out_first[v], room = 2 * count + 4;
        int64_t at = net->inc.pool_len;
        if (at + room > INT32_MAX)
            return -1;
        if (at + room > net->inc.pool_cap) {
            int64_t cap = (at + room) + (at + room) / 2;
            if (realloc_to((void **)&net->out_arcs, cap, sizeof(int32_t)))
                return -1;
            net->inc.pool_cap = cap;
        }
        for (int64_t i = 0; i < count; i++) {
            int32_t q = net->out_arcs[net->out_first[v] + i];
            net->out_arcs[at + i] = q;
            net->inc.pos[q] = (int32_t)(at + i);
        }
        net->inc.garbage += net->inc.lim[v] - net->out_first[v];
        net->out_first[v] = (int32_t)at;
        net->out_end[v] = (int32_t)(at + count);
        net->inc.lim[v] = (int32_t)(at + room);
        net->inc.pool_len = at + room;
    }
    int32_t i = net->out_end[v]++;
    net->out_arcs[i] = r;
    net->inc.pos[r] = i;
    return 0;
}

static void list_remove(pl_flownet *net, int32_t v, int32_t r)
{
    int32_t i = net->inc.pos[r];
    if (i < 0)
        return;
    int32_t last = --net->out_end[v];
    if (i != last) {
        int32_t q = net->out_arcs[last];
        net->out_arcs[i] = q;
        net->inc.pos[q] = i;
    }
    net->inc.pos[r] = -1;
}

static int mark_changed(pl_flownet *net, int32_t a)
{
    if (net->inc.is_changed[a])
        return 0;
    if (pl_grow((void **)&net->inc.changed, &net->inc.changed_cap, net->inc.n_changed + 1,
                sizeof *net->inc.changed))
        return -1;
    net->inc.changed[net->inc.n_changed++] = a;
    net->inc.is_changed[a] = 1;
    return 0;
}

/* ---- arming ----------------------------------------------------------------- */

/* Gapped lists for the live arcs, each with a quarter more room than it
 * needs (plus two), laid out in node order. */
static int build_lists(pl_flownet *net)
{
    int32_t n = net->n, m = net->m;
    int32_t *first = net->out_first, *end = net->out_end, *lim = net->inc.lim;
    memset(end, 0, (size_t)n * sizeof *end);
    for (int32_t a = 0; a < m; a++)
        if (!net->arc_dead[a]) {
            end[net->tail[a]]++;
            end[net->head[a]]++;
        }
    int64_t at = 0;
    for (int32_t v = 0; v < n; v++) {
        int64_t deg = end[v];
        first[v] = end[v] = (int32_t)at;
        at += deg + deg / 4 + 2;
        lim[v] = (int32_t)at;
    }
    if (at > INT32_MAX)
        return -1;
    if (at > net->inc.pool_cap || net->inc.pool_cap > 2 * at + 1024) {
        if (realloc_to((void **)&net->out_arcs, at, sizeof(int32_t)))
            return -1;
        net->inc.pool_cap = at ? at : 1;
    }
    net->inc.pool_len = at;
    net->inc.garbage = 0;
    for (int64_t r = 0; r < 2 * (int64_t)net->inc.arc_room; r++)
        net->inc.pos[r] = -1;
    for (int32_t a = 0; a < m; a++)
        if (!net->arc_dead[a]) {
            int32_t i = end[net->tail[a]]++;
            net->out_arcs[i] = 2 * a;
            net->inc.pos[2 * a] = i;
            i = end[net->head[a]]++;
            net->out_arcs[i] = 2 * a + 1;
            net->inc.pos[2 * a + 1] = i;
        }
    return 0;
}

void pl_inc_arm(pl_flownet *net, int64_t cap_inf)
{
    net->inc.armed = 0;
    /* The full path sized every shared array to n and m exactly. */
    net->inc.node_room = net->inc.arc_room = net->inc.pool_cap = 0;
    int64_t finite = 0, pos = 0, sum = 0, cmax = 0, n_inf = 0;
    for (int32_t a = 0; a < net->m; a++) {
        if (net->arc_dead[a])
            continue;
        if (net->lower[a] != 0)
            return;
        if (net->is_inf[a]) {
            if (net->cost[a] < 0)
                return;
            n_inf++;
        } else {
            finite += net->ncap[a]; /* checked against 2^62 by the solve just done */
        }
        int64_t c = abs64(net->cost[a]);
        cmax = c > cmax ? c : cmax;
    }
    for (int32_t v = 0; v < net->n; v++)
        if (pl_add_ovf(sum, net->supply[v], &sum) ||
            pl_add_ovf(pos, net->supply[v] > 0 ? net->supply[v] : 0, &pos))
            return; /* stays disarmed: the full path reports it */
    /* Twice what is needed, within the flow limit: supplies may grow. */
    int64_t need, room = PL_FLOW_LIMIT / (n_inf + 1);
    if (pl_add_ovf(finite, pos, &need) || pl_add_ovf(need, 1, &need))
        return;
    int64_t big = need <= room / 2 ? 2 * need : room;
    if (big < cap_inf)
        big = cap_inf;
    /* One more than needed: an empty network still gets its arrays. */
    if (node_room(net, (int64_t)net->n + 1) || arc_room(net, (int64_t)net->m + 1) || build_lists(net)) {
        net->csr_valid = 0;
        return;
    }
    for (int32_t a = 0; a < net->m; a++) {
        if (net->arc_dead[a]) {
            net->ncap[a] = 0;
            net->is_inf[a] = 0;
        } else if (net->is_inf[a]) {
            net->ncap[a] = big;
        }
    }
    memset(net->inc.imb, 0, (size_t)net->n * sizeof *net->inc.imb);
    for (int64_t i = 0; i < net->inc.n_changed; i++)
        net->inc.is_changed[net->inc.changed[i]] = 0;
    net->inc.n_changed = 0;
    net->inc.finite_total = finite;
    net->inc.pos_supply = pos;
    net->inc.supply_sum = sum;
    net->inc.max_cost = cmax;
    net->inc.cap_inf = big;
    net->inc.n_inf = n_inf;
    net->inc.n_neg_inf = 0;
    net->csr_valid = 1;
    net->inc.armed = 1;
}

/* ---- hooks -------------------------------------------------------------------- */

void pl_inc_node_added(pl_flownet *net, int32_t v)
{
    if (!net->inc.armed)
        return;
    if (node_room(net, (int64_t)v + 1)) {
        pl_inc_disarm(net);
        return;
    }
    if (v >= net->warm_n) {
        /* An id without a list at the last solve: an empty list with no room
         * (the first arc moves it). A revived older id keeps its emptied list. */
        net->out_first[v] = net->out_end[v] = net->inc.lim[v] = (int32_t)net->inc.pool_len;
    }
    net->inc.imb[v] = 0;
    net->pot[v] = 0;
}

void pl_inc_supply(pl_flownet *net, int32_t v, int64_t supply)
{
    if (!net->inc.armed)
        return;
    int64_t old = net->supply[v], d, pos_old = old > 0 ? old : 0, pos_new = supply > 0 ? supply : 0;
    if (pl_sub_ovf(supply, old, &d) || pl_add_ovf(net->inc.imb[v], d, &net->inc.imb[v]) ||
        pl_add_ovf(net->inc.supply_sum, d, &net->inc.supply_sum) ||
        pl_add_ovf(net->inc.pos_supply, pos_new - pos_old, &net->inc.pos_supply))
        pl_inc_disarm(net);
}

/* Move flow f off arc a in the imbalances (f > 0: less flow on a). */
static int shed_flow(pl_flownet *net, int32_t a, int64_t f)
{
    int64_t *t = &net->inc.imb[net->tail[a]], *h = &net->inc.imb[net->head[a]];
    return pl_add_ovf(*t, f, t) || pl_sub_ovf(*h, f, h);
}

/* Count arc a into (sign 1) or out of (-1) the totals, from its ncap/is_inf. */
static int count_arc(pl_flownet *net, int32_t a, int sign)
{
    if (net->is_inf[a]) {
        net->inc.n_inf += sign;
        if (net->cost[a] < 0)
            net->inc.n_neg_inf += sign;
        return 0;
    }
    return pl_add_ovf(net->inc.finite_total, sign * net->ncap[a], &net->inc.finite_total);
}

/* Set ncap/is_inf of arc a from its upper bound (lower bounds are 0). */
static void set_capacity(pl_flownet *net, int32_t a, int64_t upper)
{
    net->is_inf[a] = upper == PL_CAP_INF;
    net->ncap[a] = net->is_inf[a] ? net->inc.cap_inf : upper;
}

void pl_inc_arc_added(pl_flownet *net, int32_t a)
{
    if (!net->inc.armed)
        return;
    int32_t t = net->tail[a], h = net->head[a];
    if (net->lower[a] != 0 || arc_room(net, (int64_t)a + 1) || mark_changed(net, a)) {
        pl_inc_disarm(net);
        return;
    }
    net->flow[a] = 0;
    set_capacity(net, a, net->upper[a]);
    int64_t c = abs64(net->cost[a]);
    net->inc.max_cost = c > net->inc.max_cost ? c : net->inc.max_cost;
    if (count_arc(net, a, 1) || list_add(net, t, 2 * a) || list_add(net, h, 2 * a + 1))
        pl_inc_disarm(net);
}

void pl_inc_arc_killed(pl_flownet *net, int32_t a)
{
    if (!net->inc.armed)
        return;
    if (mark_changed(net, a) || shed_flow(net, a, net->flow[a]) || count_arc(net, a, -1)) {
        pl_inc_disarm(net);
        return;
    }
    net->flow[a] = 0;
    net->ncap[a] = 0;
    net->is_inf[a] = 0;
    list_remove(net, net->tail[a], 2 * a);
    list_remove(net, net->head[a], 2 * a + 1);
}

void pl_inc_arc_cost(pl_flownet *net, int32_t a, int64_t cost)
{
    if (!net->inc.armed)
        return;
    if (mark_changed(net, a)) {
        pl_inc_disarm(net);
        return;
    }
    if (net->is_inf[a])
        net->inc.n_neg_inf += (cost < 0) - (net->cost[a] < 0);
    int64_t c = abs64(cost);
    net->inc.max_cost = c > net->inc.max_cost ? c : net->inc.max_cost;
}

void pl_inc_arc_bounds(pl_flownet *net, int32_t a, int64_t lower, int64_t upper)
{
    if (!net->inc.armed)
        return;
    if (lower != 0 || mark_changed(net, a) || count_arc(net, a, -1)) {
        pl_inc_disarm(net);
        return;
    }
    set_capacity(net, a, upper);
    if (count_arc(net, a, 1)) {
        pl_inc_disarm(net);
        return;
    }
    if (net->flow[a] > net->ncap[a]) {
        if (shed_flow(net, a, net->flow[a] - net->ncap[a])) {
            pl_inc_disarm(net);
            return;
        }
        net->flow[a] = net->ncap[a];
    }
}

/* ---- solving ------------------------------------------------------------------ */

int pl_inc_problem(pl_flownet *net, pl_flow_problem *p, pl_flow_delta *d)
{
    if (!net->inc.armed)
        return 0;
    if (net->inc.garbage > net->inc.pool_len / 2 + 1024) { /* re-arm compactly */
        pl_inc_disarm(net);
        return 0;
    }
    int64_t need;
    int64_t cost_limit = net->n ? PL_COST_LIMIT / net->n : PL_COST_LIMIT;
    /* Anything to report (imbalance, a limit) is reported by the full path. */
    if (net->inc.supply_sum != 0 || net->inc.n_neg_inf != 0 || net->inc.pos_supply > PL_FLOW_LIMIT ||
        net->inc.finite_total > PL_FLOW_LIMIT || net->inc.max_cost > cost_limit ||
        pl_add_ovf(net->inc.finite_total, net->inc.pos_supply, &need) || need >= net->inc.cap_inf ||
        net->inc.cap_inf > PL_FLOW_LIMIT / (net->inc.n_inf + 1) || net->inc.n_changed > net->m / 4 + 64)
        return 0;
    *d = (pl_flow_delta){.excess = net->inc.imb, .changed_arcs = net->inc.changed,
                         .n_changed_arcs = (int32_t)net->inc.n_changed, .cost_bound = net->inc.max_cost};
    *p = (pl_flow_problem){
        .n = net->n, .m = net->m, .tail = net->tail, .head = net->head,
        .cap = net->ncap, .cost = net->cost, .supply = net->supply,
        .out_first = net->out_first, .out_arcs = net->out_arcs, .out_end = net->out_end,
        .is_inf = net->is_inf, .cap_inf = net->inc.cap_inf, .warm = 1,
        .structure_version = net->structure_version, .delta = d,
    };
    return 1;
}

void pl_inc_solved(pl_flownet *net)
{
    memset(net->inc.imb, 0, (size_t)net->n * sizeof *net->inc.imb);
    for (int64_t i = 0; i < net->inc.n_changed; i++)
        net->inc.is_changed[net->inc.changed[i]] = 0;
    net->inc.n_changed = 0;
}

/* placement/flownet.h + solver.h: FlowNetwork. */

#ifdef SWIGLUA
/* SWIG's Lua constant table holds 64-bit integers as strings. */
%luacode {
placement.CAP_INF = math.maxinteger or 2^63  -- 2^63 under Lua 5.1, whose numbers are doubles
}
#else
%constant int64_t CAP_INF = PL_CAP_INF;
#endif
%constant const char *DEFAULT_SOLVER = PL_DEFAULT_SOLVER;

%inline %{
/* Names of the known solvers, built-in first. */
/** Number of registered min-cost-flow solvers (see solver_name()). */
static int solver_count(void) { return pl_solver_count(); }
/** Name of solver i (0 .. solver_count() - 1), built-in solvers first. */
static const char *solver_name(int i)
{
    const pl_solver_ops *ops = pl_solver_at(i);
    if (!ops)
        PLB_FAIL(PL_EINVAL, NULL, "solver index %d out of range", i);
    return ops->name;
}
%}

%rename(ArcInfo) pl_arc_info;
/** One arc of a FlowNetwork, as FlowNetwork.arc() returns it. */
typedef struct pl_arc_info {
    /** Node the arc leaves. */
    int32_t tail;
    /** Node the arc enters. */
    int32_t head;
    /** Lower bound on its flow. */
    int64_t lower;
    /** Capacity (CAP_INF: unbounded). */
    int64_t upper;
    /** Cost per unit of flow. */
    int64_t cost;
} pl_arc_info;

%newobject FlowNetwork::from_dimacs;
%newobject FlowNetwork::from_dimacs_string;
%newobject FlowNetwork::to_dimacs;
%newobject FlowNetwork::copy_structure;

/** A min-cost flow network: nodes with supplies, arcs with lower bounds, capacities and costs;
 *  solve() finds a minimum-cost flow with any registered solver, and re-solving after edits reuses
 *  the solver's state (doc/flow.md). */
typedef struct {} FlowNetwork;

%extend FlowNetwork {
    /** An empty network; add_node() and add_arc() build it. */
    FlowNetwork()
    {
        FlowNetwork *n = NULL;
        PLB_CHECK(pl_flownet_create(&n), NULL);
        return n;
    }
    ~FlowNetwork() { pl_flownet_free($self); }

    /** Read a DIMACS `min` file. */
    static FlowNetwork *from_dimacs(const char *path)
    {
        FlowNetwork *n = NULL;
        PLB_CHECK(pl_flownet_read_dimacs(path, &n), NULL);
        return n;
    }
    /** Parse DIMACS `min` text. */
    static FlowNetwork *from_dimacs_string(const char *text)
    {
        FlowNetwork *n = NULL;
        if (!text)
            PLB_FAIL(PL_EINVAL, NULL, "from_dimacs_string: text is None/nil");
        PLB_CHECK(pl_flownet_read_dimacs_string(text, strlen(text), &n), NULL);
        return n;
    }
    /** The network as DIMACS text. */
    char *to_dimacs()
    {
        char *t = NULL;
        PLB_CHECK(pl_flownet_write_dimacs_string($self, &t), NULL);
        return t;
    }

    /** Add a node with supply (negative: a demand) and an optional name; returns its id. */
    int32_t add_node(int64_t supply = 0, const char *name = NULL)
    {
        int32_t id = -1;
        PLB_CHECK(pl_flownet_add_node($self, name, supply, &id), -1);
        return id;
    }
    /** Add count unnamed nodes of supply 0; returns the id of the first. */
    int32_t add_nodes(int32_t count)
    {
        int32_t id = -1;
        if (count < 0)
            PLB_FAIL(PL_EINVAL, -1, "add_nodes: count must be >= 0, got %d", (int)count);
        PLB_CHECK(pl_flownet_add_nodes($self, count, &id), -1);
        return id;
    }
    /* C order (lower, upper, cost); the Python layer offers keywords. */
    int32_t add_arc(int32_t tail, int32_t head, int64_t lower, int64_t upper, int64_t cost)
    {
        int32_t id = -1;
        PLB_CHECK(pl_flownet_add_arc($self, tail, head, lower, upper, cost, &id), -1);
        return id;
    }
    /** Set the supply of node (negative: a demand). */
    void set_supply(int32_t node, int64_t supply) { PLB_CHECK(pl_flownet_set_supply($self, node, supply), ); }
    /** Supply of node (negative: a demand). */
    int64_t supply(int32_t node)
    {
        int64_t s = 0;
        PLB_CHECK(pl_flownet_get_supply($self, node, &s), 0);
        return s;
    }
    /** Set the name of node (None / nil clears it); find_node() looks names up. */
    void set_node_name(int32_t node, const char *name) { PLB_CHECK(pl_flownet_set_node_name($self, node, name), ); }
    /** Name of node, None when it has none. */
    const char *node_name(int32_t node) { return pl_flownet_node_name($self, node); }
    /** Id of the node named name (NotFoundError if there is none). */
    int32_t find_node(const char *name)
    {
        int32_t v = -1;
        PLB_CHECK(pl_flownet_find_node($self, name, &v), -1);
        return v;
    }
    /** Set the cost per unit of flow on arc. */
    void set_arc_cost(int32_t arc, int64_t cost) { PLB_CHECK(pl_flownet_set_arc_cost($self, arc, cost), ); }
    /** Set the lower bound and capacity of arc (CAP_INF: unbounded). */
    void set_arc_bounds(int32_t arc, int64_t lower, int64_t upper) { PLB_CHECK(pl_flownet_set_arc_bounds($self, arc, lower, upper), ); }
    /** Remove arc; its id may be reused by a later add_arc(). */
    void remove_arc(int32_t arc) { PLB_CHECK(pl_flownet_remove_arc($self, arc), ); }
    /** Remove node and its arcs; its id may be reused by a later add_node(). */
    void remove_node(int32_t node) { PLB_CHECK(pl_flownet_remove_node($self, node), ); }
    /** Number of node ids in use, removed ones included. */
    int32_t node_count() { return pl_flownet_node_count($self); }
    /** Number of arc ids in use, removed ones included. */
    int32_t arc_count() { return pl_flownet_arc_count($self); }
    /** Whether node was removed. */
    bool node_removed(int32_t node) { return pl_flownet_node_removed($self, node) != 0; }
    /** Whether arc was removed. */
    bool arc_removed(int32_t arc) { return pl_flownet_arc_removed($self, arc) != 0; }
    /** Tail, head, bounds and cost of arc, as an ArcInfo. */
    pl_arc_info arc(int32_t arc)
    {
        pl_arc_info a;
        memset(&a, 0, sizeof a);
        PLB_CHECK(pl_flownet_get_arc($self, arc, &a), a);
        return a;
    }

    /** Solve (solver None / nil: the library default); returns the optimal cost. */
    int64_t solve_cost(const char *solver = NULL, bool verify = false, int64_t max_iterations = 0,
                       bool cold_start = false)
    {
        pl_solve_opts o;
        pl_solve_opts_init(&o);
        o.solver = solver;
        o.verify = verify;
        o.max_iterations = max_iterations;
        o.cold_start = cold_start;
        PLB_CHECK(pl_flownet_solve($self, &o, NULL), 0);
        int64_t c = 0;
        PLB_CHECK(pl_flownet_solution_cost($self, &c), 0);
        return c;
    }
    /** Whether the network holds a solution (solve() succeeded and nothing changed since). */
    bool has_solution() { return pl_flownet_has_solution($self) != 0; }
    /** Cost of the held solution (StateError without one). */
    int64_t cost()
    {
        int64_t c = 0;
        PLB_CHECK(pl_flownet_solution_cost($self, &c), 0);
        return c;
    }
    /** Flow on arc in the held solution. */
    int64_t flow(int32_t arc)
    {
        int64_t f = 0;
        PLB_CHECK(pl_flownet_get_flow($self, arc, &f), 0);
        return f;
    }
    /** Potential (dual value) of node in the held solution. */
    int64_t potential(int32_t node)
    {
        int64_t p = 0;
        PLB_CHECK(pl_flownet_get_potential($self, node, &p), 0);
        return p;
    }
    /** Every arc's flow (index = arc id). */
    plb_i64s flows()
    {
        plb_i64s r = { 0, NULL };
        const int64_t *f = pl_flownet_flows($self);
        if (!f)
            PLB_FAIL(PL_ESTATE, r, "the network holds no solution (solve it first)");
        r = plb_i64s_alloc(pl_flownet_arc_count($self));
        if (r.v)
            memcpy(r.v, f, sizeof *f * (size_t)r.n);
        return r;
    }
    /** Every node's potential (index = node id). */
    plb_i64s potentials()
    {
        plb_i64s r = { 0, NULL };
        const int64_t *p = pl_flownet_potentials($self);
        if (!p)
            PLB_FAIL(PL_ESTATE, r, "the network holds no solution (solve it first)");
        r = plb_i64s_alloc(pl_flownet_node_count($self));
        if (r.v)
            memcpy(r.v, p, sizeof *p * (size_t)r.n);
        return r;
    }
    /** Check the held solution's certificate (raises VerifyError). */
    void verify() { PLB_CHECK(pl_flow_verify($self), ); }
    /** GLPK's optimal cost, raising VerifyError if it differs. */
    int64_t lp_check()
    {
        int64_t c = 0;
        PLB_CHECK(pl_flow_lp_check($self, &c), 0);
        return c;
    }
}

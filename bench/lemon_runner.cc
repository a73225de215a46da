// lemon-runner: solve a DIMACS `min` file with LEMON's NetworkSimplex and
// CostScaling (default parameters) and print, per algorithm, one line
//
//     ALGORITHM STATUS RUN_SECONDS COST INIT_SECONDS
//
// ALGORITHM is lemon-ns or lemon-cs; STATUS is OPTIMAL, INFEASIBLE or
// UNBOUNDED; RUN_SECONDS is the wall time of run() alone (what bench-solvers
// compares with); INIT_SECONDS the time of constructing the algorithm object
// and setting its maps (excluded from the comparison). Reading the file is
// not timed. Values are `long long` (libplacement's int64_t); a capacity of
// 9223372036854775807 (PL_CAP_INF) is LEMON's INF, i.e. no upper bound.
//
// usage: lemon-runner [--ns] [--cs] [--cpu] [--repeat N [--budget SEC]] FILE.min
// (default: both algorithms, once; with --repeat, the least time of up to N
// runs, each on a freshly constructed algorithm object, with no further run
// once the runs took SEC seconds of run() time; --cpu: RUN_SECONDS and
// INIT_SECONDS are process CPU time instead of wall time, as bench-solvers
// --clock cpu measures our solvers)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>

#include <lemon/cost_scaling.h>
#include <lemon/dimacs.h>
#include <lemon/network_simplex.h>
#include <lemon/smart_graph.h>

typedef long long Value;
typedef lemon::SmartDigraph Graph;

static bool cpu_clock = false;

static double now()
{
    if (cpu_clock)
        return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <typename Alg>
static const char *status_name(typename Alg::ProblemType t)
{
    switch (t) {
    case Alg::OPTIMAL: return "OPTIMAL";
    case Alg::INFEASIBLE: return "INFEASIBLE";
    case Alg::UNBOUNDED: return "UNBOUNDED";
    }
    return "?";
}

template <typename Alg>
static void solve(const char *name, const Graph &g, const Graph::ArcMap<Value> &lower,
                  const Graph::ArcMap<Value> &upper, const Graph::ArcMap<Value> &cost,
                  const Graph::NodeMap<Value> &supply, int repeat, double budget)
{
    double best_run = 0, best_init = 0;
    typename Alg::ProblemType res = Alg::INFEASIBLE;
    Value total = 0;
    double spent = 0;
    for (int k = 0; k < repeat && (k == 0 || spent < budget); k++) {
        double t0 = now();
        Alg alg(g);
        alg.lowerMap(lower).upperMap(upper).costMap(cost).supplyMap(supply);
        double t1 = now();
        res = alg.run();
        double t2 = now();
        spent += t2 - t1;
        total = res == Alg::OPTIMAL ? alg.template totalCost<Value>() : 0;
        if (k == 0 || t2 - t1 < best_run)
            best_run = t2 - t1;
        if (k == 0 || t1 - t0 < best_init)
            best_init = t1 - t0;
    }
    std::printf("%s %s %.6f %lld %.6f\n", name, status_name<Alg>(res), best_run, total, best_init);
    std::fflush(stdout);
}

int main(int argc, char **argv)
{
    bool ns = false, cs = false;
    int repeat = 1;
    double budget = 1e30;
    const char *path = nullptr;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc && std::atoi(argv[i + 1]) > 0)
            repeat = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--budget") && i + 1 < argc)
            budget = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--ns"))
            ns = true;
        else if (!std::strcmp(argv[i], "--cs"))
            cs = true;
        else if (!std::strcmp(argv[i], "--cpu"))
            cpu_clock = true;
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else {
            std::fprintf(stderr, "usage: lemon-runner [--ns] [--cs] [--cpu] [--repeat N [--budget SEC]] FILE.min\n");
            return 2;
        }
    }
    if (!path) {
        std::fprintf(stderr, "usage: lemon-runner [--ns] [--cs] [--cpu] [--repeat N [--budget SEC]] FILE.min\n");
        return 2;
    }
    if (!ns && !cs)
        ns = cs = true;
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "lemon-runner: cannot open %s\n", path);
        return 2;
    }
    Graph g;
    Graph::ArcMap<Value> lower(g), upper(g), cost(g);
    Graph::NodeMap<Value> supply(g);
    try {
        lemon::readDimacsMin(in, g, lower, upper, cost, supply);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "lemon-runner: %s: %s\n", path, e.what());
        return 2;
    }
    std::printf("lemon-graph %d %d\n", lemon::countNodes(g), lemon::countArcs(g));
    if (ns)
        solve<lemon::NetworkSimplex<Graph, Value, Value> >("lemon-ns", g, lower, upper, cost, supply, repeat, budget);
    if (cs)
        solve<lemon::CostScaling<Graph, Value, Value> >("lemon-cs", g, lower, upper, cost, supply, repeat, budget);
    return 0;
}

"""libplacement for Python: topology- and interference-aware placement,
min-cost flow and the trace-driven simulator (doc/bindings.md).

The classes are SWIG proxies of the C handles: each object owns its handle
and frees it when collected. Failures raise a subclass of placement.Error
named after the library status (ParseError for PL_EPARSE, ...), whose text
is the library's message (pl_last_error()) and whose .status is the code.
"""
import collections

from . import _core
from .core import (  # noqa: F401  (re-exported API)
    ArcInfo, Decisions as _Decisions, FlowNetwork, Job, JobSet, LinkInfo, ProfileSet, Topology,
    CAP_INF, DEFAULT_SOLVER, VERSION, last_error, status_name, status_string,
    link_kind_name, resource_name, vertex_kind_name, place as _place,
    policy_count, policy_name, solver_count, solver_name,
    topology_builtin_count, topology_builtin_name, decision_kind_name,
    Sim as _Sim, Scenario as _Scenario, sim_scenario_count, sim_scenario_name,
    SIM_RUNTIME_PROGRESS, SIM_RUNTIME_ARTIFACT,
)
from .core import *  # noqa: F401,F403  (enum constants VK_GPU, RES_UNITS, LK_NVLINK, ...)

Error = _core.Error
InvalidArgumentError = _core.InvalidArgumentError
NoMemoryError = _core.NoMemoryError
ParseError = _core.ParseError
InfeasibleError = _core.InfeasibleError
UnboundedError = _core.UnboundedError
OverflowError = _core.OverflowError  # noqa: A001  (also a builtins.OverflowError)
NotFoundError = _core.NotFoundError
IOError = _core.IOError  # noqa: A001  (also a builtins.OSError)
VerifyError = _core.VerifyError
StateError = _core.StateError
LimitError = _core.LimitError
InternalError = _core.InternalError


def solvers():
    """Names of the min-cost-flow solvers, built-in first."""
    return [solver_name(i) for i in range(solver_count())]


def policies():
    """Names of the placement policies, built-in first."""
    return [policy_name(i) for i in range(policy_count())]


def builtin_topologies():
    """Names accepted by Topology.builtin()."""
    return [topology_builtin_name(i) for i in range(topology_builtin_count())]


class FlowResult:
    """A solved flow: a snapshot taken when FlowNetwork.solve() returned, so
    it stays valid whatever happens to the network afterwards."""

    def __init__(self, cost, flows, potentials, solver):
        self.cost = cost
        self.flows = flows
        self.potentials = potentials
        self.solver = solver

    def flow(self, arc):
        """Flow on arc `arc`."""
        return self.flows[arc]

    def potential(self, node):
        """Potential (dual value) of `node`."""
        return self.potentials[node]

    def flows_array(self):
        """The flows as a numpy int64 array (needs python3-numpy)."""
        import numpy as np
        return np.array(self.flows, dtype=np.int64)

    def potentials_array(self):
        """The potentials as a numpy int64 array (needs python3-numpy)."""
        import numpy as np
        return np.array(self.potentials, dtype=np.int64)

    def __repr__(self):
        return "<placement.FlowResult cost=%d solver=%s>" % (self.cost, self.solver)


class Decision:
    """What a policy decided for one job."""

    __slots__ = ("job", "kind", "gpus", "machine", "utility", "comm_cost", "slowdown", "reason")

    def __init__(self, job, kind, gpus, machine, utility, comm_cost, slowdown, reason):
        self.job = job              # the job's name
        self.kind = kind            # "placed", "postponed", "waiting" or "rejected"
        self.gpus = gpus            # GPU vertex of each task (empty unless placed)
        self.machine = machine      # machine vertex, -1 if none or several
        self.utility = utility
        self.comm_cost = comm_cost
        self.slowdown = slowdown
        self.reason = reason        # why not placed ("" when placed)

    @property
    def placed(self):
        return self.kind == "placed"

    def __repr__(self):
        if self.placed:
            return "<Decision %s: placed on %s (utility %.3f)>" % (self.job, self.gpus, self.utility)
        return "<Decision %s: %s (%s)>" % (self.job, self.kind, self.reason)


class Placement(list):
    """The decisions of one Policy.place() call, one per job in queue order.
    apply() allocates the placed jobs on a topology; the object keeps the
    C decisions and the queue it needs for that alive itself."""

    def __init__(self, decisions, jobs, profiles):
        self._decisions = decisions
        self._jobs = jobs
        self._profiles = profiles
        names = [j.name() for j in jobs]
        super().__init__(
            Decision(names[i], decision_kind_name(decisions.kind(i)), decisions.gpus(i),
                     decisions.machine(i), decisions.utility(i), decisions.comm_cost(i),
                     decisions.slowdown(i), decisions.reason(i) or "")
            for i in range(decisions.count()))

    def placed(self):
        return [d for d in self if d.placed]

    def apply(self, topology):
        """Allocate every placed job's resources on `topology` (all or nothing)."""
        self._decisions.apply(topology, self._jobs, self._profiles)


class Policy:
    """A placement policy by name ("topo-aware", "fcfs", "bf", "pack",
    "spread", "random", "drmaestro", ...; see policies())."""

    def __init__(self, name="topo-aware", profiles=None, seed=1, max_placed=0, network_load=0.0):
        self.name = name
        self.profiles = profiles
        self.seed = seed
        self.max_placed = max_placed
        self.network_load = network_load

    def place(self, topology, jobs, apply=False):
        """Decide where each job of `jobs` (a JobSet or Jobs, in priority
        order) goes on `topology`; returns a Placement. The topology is only
        changed with apply=True (or Placement.apply())."""
        if not isinstance(jobs, JobSet):
            jobs = JobSet.of(jobs)
        d = _place(self.name, topology, jobs, self.profiles, self.seed, self.max_placed,
                   self.network_load)
        result = Placement(d, jobs, self.profiles)
        if apply:
            result.apply(topology)
        return result

    def __repr__(self):
        return "Policy(%r)" % self.name


def scenario_names():
    """Names accepted by scenario()."""
    return [sim_scenario_name(i) for i in range(sim_scenario_count())]


def scenario(name, machines=0, jobs=0, seed=1):
    """A built-in simulator scenario as (Topology, JobSet): "sc17-proto"
    (6 jobs on one Minsky), "sc17-s1" (100 jobs on 5 Minsky machines),
    "sc17-s2" (generated, 10,000 jobs on 1,000 machines; jobs and seed apply
    to it only). machines=0 keeps the scenario's own size. Raises
    NotFoundError for an unknown name."""
    sc = _Scenario(name, machines, jobs, seed)
    return sc.take_topology(), sc.take_jobs()


SimSummary = collections.namedtuple("SimSummary", [
    "jobs", "done", "rejected", "unfinished", "makespan", "mean_wait", "max_wait",
    "mean_turnaround", "mean_slowdown", "max_slowdown", "slower_than_ideal",
    "below_min_utility", "slo_violations", "rounds", "decision_mean", "decision_p50",
    "decision_p90", "decision_p99", "decision_max", "wall_time"])
SimSummary.__doc__ = """Aggregates of a run (doc/simulator.md): times in seconds;
makespan = last finish - first arrival; decision_* and wall_time are wall-clock
measurements (the only fields that differ between two runs of the same inputs)."""

SimJobRecord = collections.namedtuple("SimJobRecord", [
    "job", "name", "state", "ngpus", "arrival", "start", "finish", "wait", "run_time",
    "ideal_time", "slowdown", "utility", "min_utility", "below_min_utility", "cross_socket",
    "machine"])
SimJobRecord.__doc__ = """What happened to one job: state is "done", "rejected" or
"unfinished"; start/finish are -1 when it did not run; machine is the machine
ordinal, -1 if several or not run."""

_RUNTIMES = {"progress": SIM_RUNTIME_PROGRESS, "artifact": SIM_RUNTIME_ARTIFACT}


class SimulationResult:
    """One run of a Simulator: .summary (SimSummary), .jobs (SimJobRecord per
    job, workload order), to_csv(). Valid on its own: it keeps the C result
    and the simulator's copy of the jobs alive, nothing else."""

    def __init__(self, result, policy):
        self._result = result
        self.policy = policy
        s = result.summary()
        self.summary = SimSummary(*(getattr(s, f) for f in SimSummary._fields))
        self.jobs = [self._record(result.record(i)) for i in range(result.count())]

    @staticmethod
    def _record(r):
        return SimJobRecord(*(getattr(r, f) for f in SimJobRecord._fields))

    def to_csv(self, path=None):
        """The per-job records as CSV (byte-identical for identical inputs):
        written to path, or returned as a string when path is None."""
        if path is None:
            return self._result.csv()
        self._result.write_csv(str(path))
        return None

    def __repr__(self):
        return "<placement.SimulationResult %s: %d jobs, makespan %.1f s>" % (
            self.policy, len(self.jobs), self.summary.makespan)


class Simulator:
    """Trace-driven simulator (doc/simulator.md): replays `jobs` (a JobSet
    or Jobs, with arrival times) on `topology` under a named policy. Both
    are copied at construction; `profiles` (a ProfileSet, default the
    builtin SC17 profiles) is kept alive by the simulator. runtime is
    "progress" (default) or "artifact" (the SC17 artifact's model)."""

    def __init__(self, topology, jobs, policy="topo-aware-p", seed=1, interval=1.0,
                 runtime="progress", profiles=None, max_placed=0, network_load=0.0):
        if not isinstance(jobs, JobSet):
            jobs = JobSet.of(jobs)
        if runtime not in _RUNTIMES:
            raise InvalidArgumentError("unknown runtime model %r (expected one of %s)"
                                       % (runtime, ", ".join(_RUNTIMES)))
        self.policy = policy
        self._profiles = profiles
        self._sim = _Sim(topology, jobs, policy, seed, interval, _RUNTIMES[runtime], profiles,
                         max_placed, network_load)

    def run(self):
        """Simulate from an idle state (each call starts over); returns a
        SimulationResult. Raises NotFoundError for an unknown policy."""
        return SimulationResult(self._sim.run(), self.policy)

    def __repr__(self):
        return "Simulator(policy=%r, %d jobs)" % (self.policy, self._sim.job_count())

"""gpu-qos's usage-pattern predictor from Python (doc/policies.md sec. 4e,
doc/simulator.md sec. 3c): the policy options model ("profiles" | "usage"),
usage_traces and share_factor, on the example of examples/sim (40 jobs,
two machines of four 2-unit GPUs). The expected numbers are the CLI's,
which gives gpu-qos these options under --gpu-share-model usage:
`placement simulate --trace examples/sim/shared-gpus-trace.csv --cluster
examples/sim/cluster-with-shared-gpus.json --policy gpu-qos
--gpu-share-model usage --usage-traces F` (and tests/sim/test_sim_usage.c)."""
import pathlib

import pytest

import placement

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "sim"
USAGE_CSV = str(EXAMPLES / "usage-traces.csv")
# The CLI's fallback factor for workloads without a pattern (PL_SIM_GPU_SHARE_FACTOR).
F = 1.2737


@pytest.fixture(scope="module")
def example():
    return (placement.Topology.from_json(str(EXAMPLES / "cluster-with-shared-gpus.json")),
            placement.Trace.load(str(EXAMPLES / "shared-gpus-trace.csv")))


@pytest.fixture
def busy_csv(tmp_path):
    """bvlc_alexnet as one 1 s kernel and no CPU time: two of them on a GPU
    slow each other by 1.999, so no pair of the example meets the QoS."""
    path = tmp_path / "busy.csv"
    path.write_text("workload,kind,gap_s,duration_s\nbvlc_alexnet,kernel,0,1\n")
    return str(path)


def simulate(example, traces, policy_options):
    topology, trace = example
    kw = {"usage_traces": traces} if traces is not None else {}
    return placement.Simulator(topology, trace, policy="gpu-qos", gpu_share_model="usage",
                               policy_options=policy_options, **kw).run().summary


def columns(s):
    """The CLI's makespan_s, turnaround, mean_wait, max_wait, mean_slow and
    qos_viol columns, plus the jobs that shared a GPU."""
    return (round(s.makespan, 1), round(s.mean_turnaround, 1), round(s.mean_wait, 1),
            round(s.max_wait, 1), round(s.mean_slowdown, 3), s.qos_violations, s.shared_jobs)


def test_example_csv_reproduces_the_cli(example):
    """The example's patterns: `... --usage-traces examples/sim/usage-traces.csv`
    prints 2933.3 453.9 51.9 433.0 1.030 ... 11."""
    s = simulate(example, USAGE_CSV, {"model": "usage", "usage_traces": USAGE_CSV, "share_factor": F})
    assert columns(s) == (2933.3, 453.9, 51.9, 433.0, 1.030, 11, 28)
    # a pathlib.Path is a path too
    p = simulate(example, USAGE_CSV, {"model": "usage", "usage_traces": pathlib.Path(USAGE_CSV),
                                      "share_factor": F})
    assert columns(p) == columns(s)


def test_busy_pattern_refuses_every_pair(example, busy_csv):
    """tests/sim/test_sim_usage.c's busy variant: gpu-qos sees every pair
    miss the QoS and shares nothing (the CLI: 3847.3 s, 600.3 s turnaround,
    9 QoS violations), where the profiles predictor at its default factor 1
    pairs 30 jobs and misses 30 (3791.0 s)."""
    usage = simulate(example, busy_csv, {"model": "usage", "usage_traces": busy_csv, "share_factor": F})
    assert columns(usage) == (3847.3, 600.3, 201.5, 1276.0, 1.025, 9, 0)
    profiles = simulate(example, busy_csv, None)
    assert (round(profiles.makespan, 1), profiles.shared_jobs, profiles.qos_violations) == (3791.0, 30, 30)
    # model "profiles" is that default; the CSV is then ignored
    explicit = simulate(example, busy_csv, {"model": "profiles", "usage_traces": busy_csv})
    assert columns(explicit) == columns(profiles)


def test_without_csv_pairs_fall_back_to_share_factor(example):
    """Without a CSV the SC17 types have no pattern: gpu-qos prices their
    pairs at share_factor, F = 1.2737 as the simulator does, and refuses
    them all (the CLI's `--gpu-share-model usage`: 3847.3 s); at the
    default factor 1 it pairs as the profiles alone do (3794.4 s, 29)."""
    s = simulate(example, None, {"model": "usage", "share_factor": F})
    assert columns(s)[:2] == (3847.3, 600.3) and s.shared_jobs == 0
    s1 = simulate(example, None, {"model": "usage"})
    assert (round(s1.makespan, 1), s1.shared_jobs, s1.qos_violations) == (3794.4, 29, 28)


def test_one_shot_policy_place(example, busy_csv):
    """Policy.place() reads the CSV per call: with the busy pattern no two
    jobs share a GPU, with the profiles they do."""
    topology, trace = example
    jobs = trace.jobs()

    def shared(**options):
        t = placement.Topology.from_json(str(EXAMPLES / "cluster-with-shared-gpus.json"))
        placed = placement.Policy("gpu-qos", **options).place(t, jobs).placed()
        gpus = [g for d in placed for g in d.gpus]
        return len(gpus) - len(set(gpus))

    assert shared() > 0
    assert shared(model="usage", usage_traces=busy_csv, share_factor=F) == 0


def test_errors(example, tmp_path):
    topology, trace = example
    with pytest.raises(placement.InvalidArgumentError, match="gpu-qos: model 'slicing'.*profiles or usage") as e:
        placement.Policy("gpu-qos", model="slicing")
    assert isinstance(e.value, ValueError)
    with pytest.raises(placement.InvalidArgumentError, match="profiles or usage"):
        placement.policy_options("gpu-qos", qos=0.2).set_model(None)
    # sa-placement keeps its own model names; the other gpu-qos keys are gpu-qos's
    with pytest.raises(placement.InvalidArgumentError, match="'usage'.*lookup or tree"):
        placement.Policy("sa-placement", model="usage")
    for key, value in (("share_factor", 2.0), ("usage_traces", USAGE_CSV)):
        with pytest.raises(placement.InvalidArgumentError, match="no option '%s'" % key):
            placement.policy_options("sa-placement", **{key: value})
    missing = str(tmp_path / "none.csv")
    with pytest.raises(placement.IOError, match="none.csv") as e:
        placement.Simulator(topology, trace, policy="gpu-qos",
                            policy_options={"model": "usage", "usage_traces": missing}).run()
    assert isinstance(e.value, OSError)
    with pytest.raises(placement.IOError):
        placement.Policy("gpu-qos", model="usage", usage_traces=missing).place(topology, trace.jobs())
    bad = tmp_path / "bad.csv"
    bad.write_text("workload,kind,gap_s,duration_s\nx,launch,0,1\n")
    with pytest.raises(placement.ParseError, match="bad.csv:2: column 'kind'"):
        placement.Policy("gpu-qos", model="usage", usage_traces=str(bad)).place(topology, trace.jobs())
    with pytest.raises(placement.InvalidArgumentError, match="share_factor 0.5"):
        placement.Policy("gpu-qos", share_factor=0.5).place(topology, trace.jobs())


def test_options_outlive_their_object(example, busy_csv):
    """The simulator keeps a copy of the options, the CSV path included:
    setting it again, or dropping the PolicyOptions, changes nothing (without
    the example's patterns gpu-qos would share nothing: 3847.3 s)."""
    topology, trace = example
    o = placement.policy_options("gpu-qos", model="usage", usage_traces=USAGE_CSV, share_factor=F)
    sim = placement.Sim(topology, trace.jobs(), "gpu-qos", 1, 1.0, placement.SIM_RUNTIME_PROGRESS,
                        None, 0, 0.0, o, _usage_sim_options(USAGE_CSV))
    o.set_usage_traces(busy_csv)
    o.set_usage_traces(None)
    del o
    assert round(sim.run().summary().makespan, 1) == 2933.3


def _usage_sim_options(path):
    o = placement.SimOptions()
    o.set_gpu_share_model("usage")
    o.set_usage_traces(path)
    return o

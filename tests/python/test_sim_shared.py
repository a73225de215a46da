"""Shared GPUs from Python (doc/simulator.md sec. 3c): the GPU share model
("constant" with gpu_share_factor, or "usage" with a usage-pattern CSV) as
Simulator keyword arguments, on the example of examples/sim (40 jobs, two
machines of four 2-unit GPUs). The expected numbers are sec. 3c's table,
also given by `placement simulate --trace examples/sim/shared-gpus-trace.csv
--cluster examples/sim/cluster-with-shared-gpus.json --policy gpu-qos,fcfs
[--gpu-share-model usage --usage-traces examples/sim/usage-traces.csv |
--gpu-share-factor 2]` (3794.4 / 3046.5, 2933.3 / 2571.9, 3791.0 / 4438.0 s)."""
import pathlib

import pytest

import placement

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "sim"
USAGE_CSV = str(EXAMPLES / "usage-traces.csv")


@pytest.fixture(scope="module")
def example():
    return (placement.Topology.from_json(str(EXAMPLES / "cluster-with-shared-gpus.json")),
            placement.Trace.load(str(EXAMPLES / "shared-gpus-trace.csv")))


def shared_stats(result):
    """(makespan, jobs that shared a GPU, their mean and largest slowdown,
    QoS violations), the columns of sec. 3c's table."""
    s = [j.slowdown for j in result.jobs if j.state == "done" and j.shared_gpu]
    assert result.summary.shared_jobs == len(s)
    return result.summary.makespan, len(s), sum(s) / len(s), max(s), result.summary.qos_violations


# model, policy -> makespan, jobs that shared, mean and max slowdown of those, QoS violations
TABLE = [
    ({}, "gpu-qos", (3794.4, 29, 1.225, 1.386, 28)),
    ({}, "fcfs", (3046.5, 40, 1.267, 1.386, 39)),
    ({"gpu_share_model": "usage", "usage_traces": USAGE_CSV}, "gpu-qos", (2933.3, 28, 1.032, 1.088, 11)),
    ({"gpu_share_model": "usage", "usage_traces": USAGE_CSV}, "fcfs", (2571.9, 38, 1.095, 2.021, 23)),
    # pure time slicing: sec. 3c's last sentence (makespans); the largest slowdown is
    # 2 x the worst profile slowdown, 1.0882 (= 1.386 / 1.2737 in the rows above)
    ({"gpu_share_factor": 2}, "gpu-qos", (3791.0, 30, 1.751, 2.1765, 30)),
    ({"gpu_share_factor": 2.0, "gpu_share_model": "constant"}, "fcfs", (4438.0, 40, 1.980, 2.1765, 40)),
]


@pytest.mark.parametrize("options, policy, want", TABLE)
def test_share_models_on_the_example(example, options, policy, want):
    topology, trace = example
    got = shared_stats(placement.Simulator(topology, trace, policy=policy, **options).run())
    assert got[0] == pytest.approx(want[0], abs=0.05)
    assert got[1] == want[1]
    assert got[2] == pytest.approx(want[2], abs=5e-4)
    assert got[3] == pytest.approx(want[3], abs=5e-4)
    assert got[4] == want[4]


def test_usage_model_differs_from_every_constant(example):
    """The usage model is not a constant F in disguise: gpu-qos ends within
    0.1 s of F = 1 (sec. 3c), but fcfs, which pairs an AlexNet with a
    GoogLeNet (f = 2.06), does not (404.7 s turnaround at F = 1, 418.5 s);
    without the CSV the SC17 types have no pattern, so every pair keeps F."""
    topology, trace = example
    f1 = placement.Simulator(topology, trace, policy="fcfs", gpu_share_factor=1).run().summary
    usage = placement.Simulator(topology, trace, policy="fcfs", gpu_share_model="usage",
                                usage_traces=pathlib.Path(USAGE_CSV)).run().summary
    assert f1.mean_turnaround == pytest.approx(404.7, abs=0.05)
    assert usage.mean_turnaround == pytest.approx(418.5, abs=0.05)
    bare = placement.Simulator(topology, trace, policy="fcfs", gpu_share_model="usage").run()
    default = placement.Simulator(topology, trace, policy="fcfs").run()
    assert bare.to_csv() == default.to_csv()


def test_share_option_errors(example, tmp_path):
    topology, trace = example
    with pytest.raises(placement.InvalidArgumentError, match="'slicing'.*constant or usage") as e:
        placement.Simulator(topology, trace, gpu_share_model="slicing")
    assert isinstance(e.value, ValueError)
    with pytest.raises(placement.InvalidArgumentError, match="gpu_share_factor"):
        placement.Simulator(topology, trace, gpu_share_factor=0.5)
    with pytest.raises(placement.InvalidArgumentError, match="needs gpu_share_model usage"):
        placement.Simulator(topology, trace, usage_traces=USAGE_CSV)
    with pytest.raises(placement.IOError):
        placement.Simulator(topology, trace, gpu_share_model="usage", usage_traces=str(tmp_path / "none.csv"))
    bad = tmp_path / "bad.csv"
    bad.write_text("workload,kind,gap_s,duration_s\nx,launch,0,1\n")
    with pytest.raises(placement.ParseError, match="bad.csv:2: column 'kind'"):
        placement.Simulator(topology, trace, gpu_share_model="usage", usage_traces=str(bad))
    with pytest.raises(placement.InvalidArgumentError, match="constant or usage"):
        placement.SimOptions().set_gpu_share_model("slicing")


def test_share_options_low_level(example):
    """The SimOptions setters behind the keywords, through the low-level Sim."""
    topology, trace = example
    o = placement.SimOptions()
    o.set_gpu_share_model("usage")
    o.set_usage_traces(USAGE_CSV)
    o.set_usage_traces(None)  # back to the built-in patterns: the SC17 types have none
    o.set_gpu_share_factor(2.0)
    sim = placement.Sim(topology, trace.jobs(), "fcfs", 1, 1.0, placement.SIM_RUNTIME_PROGRESS,
                        None, 0, 0.0, None, o)
    assert sim.run().summary().makespan == pytest.approx(4438.0, abs=0.05)

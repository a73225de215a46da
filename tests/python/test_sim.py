"""The trace-driven simulator from Python: the SC17 prototype's numbers as
`placement demo` prints them, records, determinism, errors and lifetime."""
import gc

import pytest

import placement


def rss_kib():
    import resource
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() // 1024


def proto(policy):
    t, j = placement.scenario("sc17-proto")
    return placement.Simulator(t, j, policy=policy).run()


def test_scenario_names():
    assert placement.scenario_names() == ["sc17-proto", "sc17-table1", "sc17-s1", "sc17-s2", "drmaestro"]
    t, j = placement.scenario("sc17-s1")
    # workloads-100.json on 5 Minsky machines of 4 GPUs each.
    assert len(j) == 100 and len(t.gpus()) == 20


def test_proto_topo_aware_p():
    r = proto("topo-aware-p")
    s = r.summary
    assert s.makespan == pytest.approx(392.9, abs=0.1)
    assert s.mean_wait == pytest.approx(74.6, abs=0.1)
    assert s.mean_turnaround == pytest.approx(190.9, abs=0.1)
    assert (s.jobs, s.done, s.rejected, s.unfinished) == (6, 6, 0, 0)
    # Postponing instead of accepting a poor placement: nobody is slowed down.
    assert s.slower_than_ideal == 0 and s.below_min_utility == 0
    assert s.mean_slowdown == pytest.approx(1.0, abs=1e-9)
    assert s._asdict()["makespan"] == s.makespan


def test_proto_fcfs():
    s = proto("fcfs").summary
    assert s.makespan == pytest.approx(481.7, abs=0.1)
    assert s.mean_slowdown == pytest.approx(1.276, abs=0.001)
    assert s.slower_than_ideal == 5 and s.below_min_utility == 3


def test_records():
    r = proto("topo-aware-p")
    assert len(r.jobs) == 6
    first = r.jobs[0]
    assert first.job == 0 and first.name == "job0" and first.state == "done"
    # Arrives at 0.513 s and is placed at the first 1 s round, alone, so it
    # runs its solo time.
    assert first.arrival == pytest.approx(0.513, abs=1e-3)
    assert first.start == 1.0
    assert first.wait == pytest.approx(1.0 - first.arrival)
    assert first.run_time == pytest.approx(first.ideal_time) and first.slowdown == pytest.approx(1.0)
    assert first.machine == 0 and first.ngpus == 1 and not first.cross_socket
    assert max(rec.finish for rec in r.jobs) - min(rec.arrival for rec in r.jobs) == \
        pytest.approx(r.summary.makespan)


def test_deterministic(tmp_path):
    t, j = placement.scenario("sc17-s1")
    sim = placement.Simulator(t, j, policy="topo-aware")
    a, b = sim.run(), placement.Simulator(t, j, policy="topo-aware").run()
    assert a.jobs == b.jobs
    assert a.summary.makespan == b.summary.makespan == pytest.approx(1397.7, abs=0.1)
    assert a.to_csv() == b.to_csv()
    path = tmp_path / "s1.csv"
    a.to_csv(path)
    text = path.read_text()
    assert text == a.to_csv()
    assert text.splitlines()[0].startswith("job,name,state,gpus,arrival,start,finish")
    assert len(text.splitlines()) == 101


def test_unknown_scenario():
    with pytest.raises(placement.NotFoundError) as e:
        placement.scenario("sc17-s9")
    assert "sc17-proto" in str(e.value)


def test_unknown_policy_and_bad_options():
    t, j = placement.scenario("sc17-proto")
    with pytest.raises(placement.NotFoundError):
        placement.Simulator(t, j, policy="no-such-policy").run()
    with pytest.raises(placement.InvalidArgumentError):
        placement.Simulator(t, j, interval=-1)
    # Issue 25: times beyond 1e10 s would lose the run's seconds
    with pytest.raises(placement.InvalidArgumentError, match=r"\[0, 1e\+10\], got 1e\+17"):
        placement.Simulator(t, j, interval=1e17)
    with pytest.raises(placement.InvalidArgumentError, match=r"\[0, 1e\+10\]"):
        placement.Simulator(t, j, startup_delay=1e18)
    with pytest.raises(placement.InvalidArgumentError):
        placement.Simulator(t, j, runtime="fast")


def test_csv_unwritable(tmp_path):
    with pytest.raises(placement.IOError):
        proto("fcfs").to_csv(tmp_path / "no" / "such" / "dir.csv")


def test_result_outlives_simulator_and_inputs():
    t, j = placement.scenario("sc17-proto")
    sim = placement.Simulator(t, j, policy="fcfs")
    r = sim.run()
    del sim, t, j
    gc.collect()
    # The CSV names every job from the simulator's own copy of the set.
    lines = r.to_csv().splitlines()
    assert [line.split(",")[1] for line in lines[1:]] == ["job%d" % i for i in range(6)]


def test_simulator_copies_its_jobs():
    t = placement.Topology.builtin("minsky")
    job = placement.Job.data_parallel("solo", 2)
    job.set_duration(50)
    job.set_arrival(2.5)
    jobs = placement.JobSet.of([job])
    sim = placement.Simulator(t, jobs, policy="fcfs")
    jobs.add(job)  # not seen by the simulator
    r = sim.run()
    assert len(r.jobs) == 1
    # Placed at the 3 s round, no profile: its duration.
    assert r.jobs[0].start == 3.0 and r.jobs[0].finish == pytest.approx(53.0)
    assert r.summary.makespan == pytest.approx(50.5)


S1 = None


def cycle():
    global S1
    t, j = placement.scenario("sc17-proto")
    r = placement.Simulator(t, j, policy="topo-aware-p").run()
    assert len(r.jobs) == 6 and r.to_csv()
    # A 100-job result too: a leaked one is large enough to show in the RSS.
    if S1 is None:
        S1 = placement.Simulator(*placement.scenario("sc17-s1"))
    assert len(S1.run().jobs) == 100
    try:
        placement.scenario("nope")
    except placement.NotFoundError:
        pass


def test_no_leak_over_1000_runs():
    for _ in range(100):  # warm up allocator arenas
        cycle()
    gc.collect()
    before = rss_kib()
    for _ in range(1000):
        cycle()
    gc.collect()
    grown = rss_kib() - before
    # Measured: about 0.3 MiB, not growing with the number of cycles; leaking
    # the simulator's job set adds 9 MiB, leaking the results 14 MiB.
    assert grown < 2048, "RSS grew by %d KiB" % grown


def test_example_simulate_sc17():
    import os
    import pathlib
    import subprocess
    import sys
    example = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "simulate_sc17.py"
    out = subprocess.run([sys.executable, str(example)], check=True, capture_output=True, text=True,
                         env=dict(os.environ)).stdout.splitlines()
    rows = {line.split()[0]: line.split()[1] for line in out[2:]}
    # The makespans `placement demo` prints for sc17-s1.
    assert rows == {"topo-aware": "1397.7", "topo-aware-p": "1397.7", "fcfs": "1461.7", "bf": "1384.7"}


def test_cli_machine_readable_output():
    """Issue 21: `placement simulate --format json` is one JSON document,
    csv one header and one line per policy, with the table's columns."""
    import json
    import os
    import subprocess
    exe = os.environ.get("PL_PLACEMENT_BIN")
    if not exe:
        pytest.skip("PL_PLACEMENT_BIN not set (run through meson test)")
    out = subprocess.run([exe, "simulate", "--scenario", "sc17-s1", "--format", "json", "--quiet"],
                         capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)
    assert doc["workload"] == "sc17-s1" and doc["jobs"] == 100 and doc["machines"] == 5
    assert [p["policy"] for p in doc["policies"]] == ["topo-aware", "topo-aware-p", "fcfs", "bf"]
    assert all(p["makespan_s"] > 0 and p["unfin"] == 0 for p in doc["policies"])
    csv = subprocess.run([exe, "simulate", "--scenario", "sc17-proto", "--format", "csv", "--quiet",
                          "--policy", "fcfs,bf"], capture_output=True, text=True, check=True).stdout
    lines = csv.strip().split("\n")
    assert lines[0].startswith("policy,makespan_s,turnaround,")
    assert [line.split(",")[0] for line in lines[1:]] == ["fcfs", "bf"]
    bad = subprocess.run([exe, "simulate", "--scenario", "sc17-proto", "--format", "xml"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--format wants table, csv or json" in bad.stderr


def test_place_cli_json_and_csv(data):
    """`placement place --format json|csv`: every job decided, paths and ids."""
    import json
    import os
    import subprocess
    exe = os.environ.get("PL_PLACEMENT_BIN")
    if not exe:
        pytest.skip("PL_PLACEMENT_BIN not set (run through meson test)")
    jobs = data("bad-input/traffic-1e307.json")
    out = subprocess.run([exe, "place", "--builtin", "minsky", "--machines", "2", "--jobs", jobs,
                          "--format", "json"], capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)
    assert doc["policy"] == "topo-aware"
    assert [d["decision"] for d in doc["decisions"]] == ["placed", "placed", "placed"]
    first = doc["decisions"][0]
    assert len(first["gpus"]) == 2 == len(first["gpu_ids"])
    assert all(p.startswith(first["machine"] + "/") for p in first["gpus"])
    csv = subprocess.run([exe, "place", "--builtin", "minsky", "--jobs", jobs, "--format", "csv"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert csv[0] == "job,decision,machine,gpus,utility,comm,slowdown,reason"
    assert csv[1].startswith('job0,placed,machine,"machine/package0/gpu0,machine/package0/gpu1",')
    assert csv[2].startswith("job1,waiting,")
    bad = subprocess.run([exe, "place", "--builtin", "minsky", "--jobs", jobs, "--dot", "--format", "json"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "exclude each other" in bad.stderr

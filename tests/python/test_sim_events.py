"""Simulator features after the first release, from Python: startup
delays, priorities, device failures, traces, the utilisation time series,
the progress callback, policy options and the drmaestro scenario. Expected
values are worked by hand in the comments (doc/simulator.md)."""
import pytest

import placement


def minsky(machines=1):
    return placement.Topology.cluster(placement.Topology.builtin("minsky"), machines)


def job(name, gpus, cores, arrival, duration):
    """gpus one-GPU tasks of `cores` cores each, no profile: runs `duration` s."""
    j = placement.Job(name)
    for _ in range(gpus):
        j.add_task(gpus=1, cores=cores)
    if gpus > 1:
        j.add_all_to_all(1)
    j.set_arrival(arrival)
    j.set_duration(duration)
    return j


# One Minsky (4 GPUs, 2 x 10 cores), fcfs, startup delay 2 s: A (1 GPU, 2
# cores) arrives at 0, is placed at 0 and runs [2, 12); B (2 GPUs, 2 cores
# each) arrives at 5, placed at 5, runs [7, 27). The time series holds the
# resources from placement: GPUs 1 [0,5), 3 [5,12), 2 [12,27), 0 after.
def ab_run(**kw):
    return placement.Simulator(minsky(), [job("a", 1, 2, 0, 10), job("b", 2, 2, 5, 20)],
                               policy="fcfs", startup_delay=2, **kw).run()


def test_timeline_by_hand():
    r = ab_run()
    tl = r.timeline()
    assert [p.time for p in tl] == [0, 5, 12, 27]
    assert [p.gpus_used for p in tl] == [1, 3, 2, 0]
    assert [p.running for p in tl] == [1, 2, 1, 0]
    assert [p.gpu_util for p in tl] == pytest.approx([0.25, 0.75, 0.5, 0.0])
    assert [p.core_util for p in tl] == pytest.approx([0.1, 0.3, 0.2, 0.0])
    assert all(p.nvme_util == -1 and p.fragmentation == 0 and p.queued == 0 for p in tl)
    s = r.summary
    # Time-weighted over [0, 27]: (0.25 x 5 + 0.75 x 7 + 0.5 x 15) / 27 = 14/27.
    assert s.mean_gpu_util == pytest.approx(14 / 27)
    assert s.mean_core_util == pytest.approx((0.1 * 5 + 0.3 * 7 + 0.2 * 15) / 27)
    assert s.makespan == 27 and s.mean_wait == 2
    a, b = r.jobs
    assert (a.placed, a.start, a.finish, a.wait) == (0, 2, 12, 2)
    assert (b.placed, b.start, b.finish, b.wait) == (5, 7, 27, 2)
    csv = r.timeline_csv().splitlines()
    assert csv[0] == "time,running,queued,gpus_used,gpus_failed,gpu_util,core_util,nvme_util,fragmentation,remote_gpus"
    assert csv[2] == "5.000000,2,0,3,0,0.750000,0.300000,-1.000000,0.000000,0"
    assert len(csv) == 5


def test_timeline_csv_file(tmp_path):
    r = ab_run()
    r.timeline_csv(tmp_path / "tl.csv")
    assert (tmp_path / "tl.csv").read_text() == r.timeline_csv()
    with pytest.raises(placement.IOError):
        r.timeline_csv(tmp_path / "no" / "dir.csv")


def test_per_job_startup_delays():
    # A waits 4 s, B none: A [4, 14), B [5, 25).
    r = placement.Simulator(minsky(), [job("a", 1, 0, 0, 10), job("b", 2, 0, 5, 20)], policy="fcfs",
                            startup_delays=[4, 0]).run()
    assert [(j.start, j.finish) for j in r.jobs] == [(4, 14), (5, 25)]
    with pytest.raises(placement.InvalidArgumentError, match="2 jobs"):
        placement.Simulator(minsky(), [job("a", 1, 0, 0, 10), job("b", 2, 0, 5, 20)], startup_delays=[1])
    with pytest.raises(placement.InvalidArgumentError):
        placement.Simulator(minsky(), [job("a", 1, 0, 0, 10)], startup_delay=-1)


def test_priorities():
    # Three 4-GPU jobs of 10 s at 0, 1, 2: the first runs [0, 10); at 10 the
    # higher priority of the third puts it before the second.
    jobs = [job("a", 4, 0, 0, 10), job("b", 4, 0, 1, 10), job("c", 4, 0, 2, 10)]
    plain = placement.Simulator(minsky(), jobs, policy="fcfs").run()
    assert [j.start for j in plain.jobs] == [0, 10, 20]
    r = placement.Simulator(minsky(), jobs, policy="fcfs", priorities=[0, 0, 5]).run()
    assert [j.start for j in r.jobs] == [0, 20, 10]
    assert [j.priority for j in r.jobs] == [0, 0, 5]
    assert r.timeline()[1].queued == 1  # at 1 s: b waits


def test_failure_kills_and_requeues():
    # A 1-GPU job of 100 s on gpu0 from 0; gpu0 fails at 30 and is never
    # repaired: the job restarts from scratch at the 30 s round on another
    # GPU and ends at 130; 30 GPU-seconds lost.
    t = minsky()
    r = placement.Simulator(t, [job("x", 1, 0, 0, 100)], policy="fcfs",
                            failures=[(30, "cluster/rack0/node0/package0/gpu0")]).run()
    x = r.jobs[0]
    assert (x.state, x.restarts, x.placed, x.start, x.finish) == ("done", 1, 30, 30, 130)
    s = r.summary
    assert (s.failures, s.jobs_killed, s.lost_gpu_seconds) == (1, 1, 30)
    assert [(p.time, p.gpus_used, p.gpus_failed) for p in r.timeline()] == [(0, 1, 0), (30, 1, 1), (130, 0, 1)]


def test_failure_with_repair_and_loader(tmp_path):
    # A 4-GPU job from 0 for 50 s; gpu2 fails at 10 and is back at 30: the
    # job waits for the repair and runs [30, 80).
    t = minsky()
    (tmp_path / "f.csv").write_text("# one failure\ngpu,time,repair\ncluster/rack0/node0/package1/gpu2,10,20\n")
    failures = placement.load_failures(tmp_path / "f.csv", t)
    gpu2 = t.find("cluster/rack0/node0/package1/gpu2")
    assert failures == [placement.SimFailure(10, gpu2, 20)]
    r = placement.Simulator(t, [job("big", 4, 0, 0, 50)], policy="fcfs", failures=failures).run()
    assert (r.jobs[0].start, r.jobs[0].finish, r.jobs[0].restarts) == (30, 80, 1)
    assert r.summary.lost_gpu_seconds == 40  # 10 s x 4 GPUs
    (tmp_path / "bad.csv").write_text("time,gpu\n5,machine/nowhere\n")
    with pytest.raises(placement.ParseError, match="bad.csv:2"):
        placement.load_failures(tmp_path / "bad.csv", t)
    with pytest.raises(placement.InvalidArgumentError):  # not a GPU
        placement.Simulator(t, [job("x", 1, 0, 0, 1)], failures=[(1, 0)])


TRACE = """name,arrival,gpus,duration,priority,startup
a,0,4,10,0,
b,1,4,10,0,1
c,2,4,10,5,
"""


def test_trace_csv():
    tr = placement.Trace.from_string(TRACE, "t.csv")
    assert (tr.format(), len(tr)) == ("csv", 3)
    assert tr.priorities() == [0, 0, 5] and tr.startup_delays() == [0, 1, 0]
    assert [j.name() for j in tr.jobs()] == ["a", "b", "c"]
    # c (priority 5) goes at 10 before b, which then starts 1 s after its
    # placement at 20.
    r = placement.Simulator(minsky(), tr, policy="fcfs").run()
    assert [(j.placed, j.start) for j in r.jobs] == [(0, 0), (20, 21), (10, 10)]
    # A common delay replaces the trace's.
    r = placement.Simulator(minsky(), tr, policy="fcfs", startup_delay=2).run()
    assert [(j.placed, j.start) for j in r.jobs] == [(0, 2), (24, 26), (12, 14)]


def test_trace_json_file_and_errors(tmp_path):
    p = tmp_path / "t.json"
    p.write_text('{"jobs": [{"name": "j", "arrival": 3, "gpus": 2, "duration": 7}]}')
    tr = placement.Trace.load(str(p))
    assert tr.format() == "json" and [j.name() for j in tr.jobs()] == ["j"]
    r = placement.Simulator(minsky(), tr, policy="fcfs").run()
    assert (r.jobs[0].start, r.jobs[0].finish) == (3, 10)
    with pytest.raises(placement.ParseError, match="t.csv:3: column 'gpus'"):
        placement.Trace.from_string("arrival,gpus\n0,1\n1,x\n", "t.csv")
    with pytest.raises(placement.IOError):
        placement.Trace.load(str(tmp_path / "none.csv"))


def test_progress_callback():
    calls = []
    ab_run(progress=lambda settled, total, t: calls.append((settled, total, t)))
    # a settles at 12, b at 27, then the final call.
    assert calls == [(1, 2, 12.0), (2, 2, 27.0), (2, 2, 27.0)]


def test_progress_exception_is_raised_after_the_run():
    seen = []

    def boom(settled, total, t):
        seen.append(settled)
        raise KeyError("stop at %d" % settled)
    sim = placement.Simulator(minsky(), [job("a", 1, 2, 0, 10), job("b", 2, 2, 5, 20)], policy="fcfs",
                              progress=boom)
    with pytest.raises(KeyError, match="stop at 1"):
        sim.run()
    assert seen == [1]  # no call after the exception
    with pytest.raises(KeyError):  # each run starts over
        sim.run()
    with pytest.raises(TypeError):
        placement.Simulator(minsky(), [job("a", 1, 2, 0, 10)], progress=42)


def test_progress_cannot_reenter():
    errors = []
    holder = {}

    def reenter(settled, total, t):
        try:
            holder["sim"]._sim.run()
        except placement.StateError as e:
            errors.append(str(e))
    holder["sim"] = placement.Simulator(minsky(), [job("a", 1, 2, 0, 10)], policy="fcfs", progress=reenter)
    r = holder["sim"].run()
    assert r.jobs[0].finish == 10 and len(errors) == 2 and "running" in errors[0]


def test_policy_options_in_the_simulator():
    t, jobs = placement.scenario("sc17-proto")
    a = placement.Simulator(t, jobs, policy="sa-placement", seed=5,
                            policy_options={"iterations": 200, "mode": "online"}).run()
    b = placement.Simulator(t, jobs, policy="sa-placement", seed=5,
                            policy_options={"iterations": 200, "mode": "online"}).run()
    assert a.jobs == b.jobs and a.summary.done == 6
    sim = placement.Simulator(t, jobs, policy="sa-placement", policy_options={"iterations": -5})
    with pytest.raises(placement.InvalidArgumentError, match="iterations"):
        sim.run()


def test_drmaestro_scenario():
    t, jobs = placement.scenario("drmaestro", machines=4, jobs=24, seed=3)
    assert len(t.machines()) == 4
    assert len(jobs) > 24  # the CPU-only warm-up jobs come with them
    gpu_jobs = sum(1 for j in jobs if j.total_gpus() > 0)
    assert gpu_jobs == 24
    r = placement.Simulator(t, jobs, policy="drmaestro").run()
    s = r.summary
    assert s.done + s.rejected + s.unfinished == len(jobs) and s.done > 0
    # DRMaestro lends GPUs across machines while the warm-up jobs hold the
    # cores; the records, the summary and the time series agree on it.
    assert s.remote_jobs > 0
    assert s.remote_jobs == sum(1 for j in r.jobs if j.state == "done" and j.remote_gpus > 0)
    assert max(p.remote_gpus for p in r.timeline()) > 0
    assert 0 < s.mean_gpu_util <= 1 and 0 <= s.mean_fragmentation <= 1
    # A one-machine policy never does.
    f = placement.Simulator(t, jobs, policy="fcfs").run()
    assert f.summary.remote_jobs == 0 and max(p.remote_gpus for p in f.timeline()) == 0

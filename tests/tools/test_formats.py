"""`--format table|csv|json` of `placement topo` and `placement solve
--solver all`: the machine-readable forms parse (json.load, csv with its
header) and carry the numbers the table shows."""
import csv
import io
import json
import os
import pathlib
import subprocess

import pytest

BIN = os.environ.get("PL_PLACEMENT_BIN", "placement")
DATA = pathlib.Path(os.environ.get("PL_TEST_DATA", pathlib.Path(__file__).parent.parent / "data"))
SMALL = str(DATA / "flow" / "small_graph.in")


def run(*args, rc=0):
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    assert p.returncode == rc, (args, p.returncode, p.stderr)
    return p.stdout, p.stderr


def solvers():
    return [line.split()[0] for line in run("solvers")[0].splitlines()]


def test_topo_json_minsky_cluster():
    out, _ = run("topo", "--builtin", "minsky", "--machines", "2", "--format", "json")
    d = json.loads(out)
    v = {x["path"]: x for x in d["vertices"]}
    gpu = v["cluster/rack0/node1/package1/gpu3"]
    assert (gpu["kind"], gpu["name"], gpu["os_index"], gpu["capacity"]["units"]) == ("gpu", "gpu3", 3, 1)
    assert gpu["allocated"] == {}
    assert v["cluster/rack0/node0/package0"]["capacity"]["cores"] == 10
    assert [x["id"] for x in d["vertices"]] == list(range(len(d["vertices"])))
    nvlink = [l for l in d["links"] if l["kind"] == "nvlink"]
    assert nvlink and all(l["bw_bytes_per_s"] > 0 for l in nvlink)
    # each machine's GPU distances: 1 over an NVLink pair, 1 + 20 + 1 across the X-Bus
    assert len(d["machines"]) == 2
    assert d["machines"][1]["distance"] == [[0, 1, 22, 22], [1, 0, 22, 22], [22, 22, 0, 1], [22, 22, 1, 0]]
    assert [d["vertices"][g]["name"] for g in d["machines"][1]["gpus"]] == ["gpu0", "gpu1", "gpu2", "gpu3"]


def test_topo_csv_has_the_header_and_a_row_per_vertex():
    out, _ = run("topo", "--builtin", "minsky", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert out.splitlines()[0].startswith("id,kind,name,path,parent,os_index,units,units_allocated,cores,")
    assert len(rows) == json.loads(run("topo", "--builtin", "minsky", "--format", "json")[0])["vertices"].__len__()
    gpus = [r for r in rows if r["kind"] == "gpu"]
    assert [r["path"] for r in gpus] == ["machine/package0/gpu0", "machine/package0/gpu1",
                                         "machine/package1/gpu2", "machine/package1/gpu3"]
    assert all(r["units"] == "1" and r["units_allocated"] == "0" and r["gpu-milli"] == "1000" for r in gpus)


def test_topo_table_is_the_default_and_dot_excludes_a_format():
    assert run("topo", "--builtin", "minsky", "--format", "table")[0] == run("topo", "--builtin", "minsky")[0]
    _, err = run("topo", "--builtin", "minsky", "--dot", "--format", "json", rc=2)
    assert "--dot and --format csv|json exclude each other" in err
    _, err = run("topo", "--builtin", "minsky", "--format", "yaml", rc=2)
    assert "--format wants table, csv or json, got 'yaml'" in err


def test_solve_all_json_and_csv():
    names = solvers()
    d = json.loads(run("solve", "--solver", "all", "--verify", "--format", "json", SMALL)[0])
    assert d["file"] == SMALL
    assert [r["solver"] for r in d["solvers"]] == names
    # small_graph's optimum (tests/data/flow/EXPECTED.txt)
    assert all((r["status"], r["cost"], r["checks"], r["error"]) == ("PL_OK", 38, "certificate ok", None)
               for r in d["solvers"])
    assert all(r["seconds"] >= 0 and r["iterations"] >= 0 for r in d["solvers"])
    out, _ = run("solve", "--solver", "all", "--format", "csv", SMALL)
    assert out.splitlines()[0] == "solver,status,cost,seconds,iterations,checks,error"
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["solver"], r["status"], r["cost"], r["error"]) for r in rows] == [(n, "PL_OK", "38", "") for n in names]


def test_solve_all_infeasible_rows(tmp_path):
    """Supply 5 and demand 5 over an arc of capacity 3: every solver reports
    PL_EINFEASIBLE, with null cost in JSON and the message in its error."""
    f = tmp_path / "infeasible.min"
    f.write_text("p min 2 1\nn 1 5\nn 2 -5\na 1 2 0 3 1\n")
    d = json.loads(run("solve", "--solver", "all", "--format", "json", str(f), rc=1)[0])
    assert {r["status"] for r in d["solvers"]} == {"PL_EINFEASIBLE"}
    assert all(r["cost"] is None and r["iterations"] is None and r["error"] for r in d["solvers"])
    rows = list(csv.DictReader(io.StringIO(run("solve", "--solver", "all", "--format", "csv", str(f), rc=1)[0])))
    assert {(r["status"], r["cost"]) for r in rows} == {("PL_EINFEASIBLE", "")}


def test_solve_format_needs_all():
    _, err = run("solve", "--format", "json", SMALL, rc=2)
    assert "--format csv|json needs --solver all" in err
    # table with one solver stays the DIMACS line
    assert run("solve", "--format", "table", "-q", SMALL)[0] == "s 38\n"

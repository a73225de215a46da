#!/usr/bin/env python3
"""Checks of tests/slurm/run.sh against Slurm's own records.

  check.py W

W/jobs.tsv: one line per submitted job: "ID<TAB>KIND" (KIND: gpu, comm,
cpu, typed, held). W/snapshots: `scontrol show job -d -o` taken every half
second while the jobs ran, each after a "=== <epoch>" line. W/final: the same
once every job ended. W/etc/gres.conf: the Links= of each GPU.

Prints one "ok NAME" or "FAIL NAME: why" line per check.
"""
import re
import sys
from collections import defaultdict

W = sys.argv[1]


def records(text):
    """scontrol -o lines -> {job id: {field: value, 'alloc': [(node, [idx])]}}."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"JobId=(\d+) ", line)
        if not m:
            continue
        rec = {"line": line}
        for key in ("JobState", "NodeList", "Priority", "Reason", "StartTime", "EndTime"):
            f = re.search(r"\b%s=(\S*)" % key, line)
            rec[key] = f.group(1) if f else ""
        f = re.search(r"AdminComment=(.*?)(?= [A-Z][A-Za-z_:/]*=|$)", line)
        rec["AdminComment"] = f.group(1) if f else ""
        f = re.search(r"TresPerNode=(\S*)", line)
        rec["TresPerNode"] = f.group(1) if f else ""
        rec["alloc"] = []
        for node, gres in re.findall(r" Nodes=(\S+) CPU_IDs=\S+ Mem=\S+ GRES=(\S*)", line):
            idx = []
            for lst in re.findall(r"IDX:([\d,\-]*)\)", gres):
                for part in filter(None, lst.split(",")):
                    a, _, b = part.partition("-")
                    idx.extend(range(int(a), int(b or a) + 1))
            rec["alloc"].append((node, sorted(idx)))
        out[m.group(1)] = rec
    return out


def snapshots(text):
    snaps = []
    for chunk in text.split("=== ")[1:]:
        stamp, _, body = chunk.partition("\n")
        snaps.append((float(stamp), records(body)))
    return snaps


def nvlinks():
    """{(node, a, b)} of GPU pairs with a non-zero Links= value."""
    pairs = set()
    per_node = defaultdict(int)
    for line in open(W + "/etc/gres.conf"):
        m = re.match(r"NodeName=(\S+) .*Links=(\S+)", line)
        if not m:
            continue
        node, links = m.group(1), [int(x) for x in m.group(2).split(",")]
        a = per_node[node]
        per_node[node] += 1
        for b, v in enumerate(links):
            if v > 0:
                pairs.add((node, a, b))
    return pairs


def chosen(rec):
    m = re.match(r"placement: node=(\S+) gpus=([\d,]+)", rec["AdminComment"])
    if not m:
        return None
    return m.group(1), sorted(int(x) for x in m.group(2).split(","))


results = []


def check(name, ok, why=""):
    results.append(ok)
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + why))


jobs = [line.split("\t") for line in open(W + "/jobs.tsv").read().split("\n") if line]
final = records(open(W + "/final").read())
snaps = snapshots(open(W + "/snapshots").read())
links = nvlinks()

# What each job held while Slurm said it was running.
seen = defaultdict(set)
for _, recs in snaps:
    for jid, rec in recs.items():
        if rec["JobState"] == "RUNNING":
            for node, idx in rec["alloc"]:
                seen[jid].add((node, tuple(idx)))

for jid, kind in jobs:
    rec = final.get(jid)
    if rec is None:
        check(f"job {jid} ({kind}) in Slurm's records", False, "not in scontrol show job")
        continue
    done = rec["JobState"] == "COMPLETED"
    if kind in ("gpu", "comm", "held"):
        want = chosen(rec)
        got = seen.get(jid, set())
        ok = done and want is not None and got == {(want[0], tuple(want[1]))}
        check(f"job {jid} ({kind}) ran on the node and GPUs the library chose", ok,
              f"state {rec['JobState']}, chose {want}, Slurm gave {sorted(got)}, {rec['AdminComment']!r}")
        if kind in ("comm", "held") and want:
            node, idx = want
            ok = len(idx) == 2 and (node, idx[0], idx[1]) in links
            check(f"job {jid} ({kind}) got an NVLink-connected pair", ok, f"{node} GPUs {idx}")
    elif kind == "cpu":
        ok = done and not rec["AdminComment"] and not rec["TresPerNode"] and \
            all(not idx for _, idx in rec["alloc"])
        check(f"job {jid} (CPU only) passed through untouched and ran", ok, rec["line"][:300])
    elif kind == "typed":
        want = chosen(rec)
        ok = done and "set by the user" in rec["AdminComment"] and \
            rec["TresPerNode"] == "gres:gpu:idx0:1,gres:gpu:idx2:1" and \
            seen.get(jid) == {(want[0], (0, 2))}
        check(f"job {jid} (names its GPUs) kept its request, recorded, ran on them", ok, rec["line"][:300])

# No GPU held by two running jobs in any snapshot.
clash = []
for stamp, recs in snaps:
    owner = {}
    for jid, rec in recs.items():
        if rec["JobState"] != "RUNNING":
            continue
        for node, idx in rec["alloc"]:
            for i in idx:
                if (node, i) in owner:
                    clash.append((stamp, node, i, owner[(node, i)], jid))
                owner[(node, i)] = jid
check(f"no GPU given to two running jobs in {len(snaps)} snapshots", not clash and len(snaps) > 10,
      str(clash[:5]))

# The same from the final records' start and end times (whole seconds: a job
# starting in the second another ended is not an overlap).
spans = []
for jid, _ in jobs:
    rec = final.get(jid)
    if rec and jid in seen:
        for node, idx in seen[jid]:
            for i in idx:
                spans.append((node, i, rec["StartTime"], rec["EndTime"], jid))
overlap = [(a, b) for a in spans for b in spans
           if a[4] < b[4] and a[:2] == b[:2] and a[2] < b[3] and b[2] < a[3]]
check("no GPU given to two jobs over overlapping start-end times", not overlap, str(overlap[:3]))

print(f"check.py: {sum(results)} passed, {len(results) - sum(results)} failed")

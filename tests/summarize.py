#!/usr/bin/env python3
"""Sum test results of every suite into the final 'N passed, N failed' line.

Inputs (any number of each):
  --meson LABEL:TESTLOG.json   a meson testlog (one JSON object per line).
                               Each test counts individually: a cmocka suite's
                               counts come from its [  PASSED  ] / [  FAILED  ]
                               lines; the Python and Lua suites print a last
                               line "pytest: N passed, N failed" /
                               "lua: N passed, N failed" (one per pytest test,
                               one per Lua check block). A suite that failed
                               without printing its counts (a crash) counts as
                               one failure.
  --counts LABEL:FILE          a file whose last 'N passed, N failed' line is used
                               (for the Python and Lua suites).
"""
import json
import re
import sys

PASSED = re.compile(r"\[  PASSED  \] (\d+) test")
FAILED = re.compile(r"\[  FAILED  \] (\d+) test")
PLAIN = re.compile(r"^(?:\w+: )?(\d+) passed, (\d+) failed", re.M)


def meson_counts(path):
    passed = failed = 0
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            out = (t.get("stdout") or "") + (t.get("stderr") or "")
            cm_p, cm_q = PASSED.findall(out), FAILED.findall(out)
            p = sum(int(x) for x in cm_p)
            q = sum(int(x) for x in cm_q)
            plain = PLAIN.findall(out)
            if not cm_p and not cm_q and plain:
                p, q = int(plain[-1][0]), int(plain[-1][1])
                print(f"  suite {t.get('name')}: {p} passed, {q} failed")
            if t.get("result") == "SKIP":
                print(f"  suite {t.get('name')}: skipped (a tool it needs is missing)")
                continue
            if t.get("result") != "OK" and q == 0:
                q = 1  # crashed or timed out before reporting its counts
                print(f"  suite {t.get('name')}: {t.get('result')} without a test summary")
            passed += p
            failed += q
    return passed, failed


def plain_counts(path):
    with open(path) as f:
        found = PLAIN.findall(f.read())
    if not found:
        return 0, 1
    p, q = found[-1]
    return int(p), int(q)


def main(argv):
    total_p = total_f = 0
    for kind, spec in zip(argv[::2], argv[1::2]):
        label, path = spec.split(":", 1)
        try:
            p, q = meson_counts(path) if kind == "--meson" else plain_counts(path)
        except OSError as e:
            print(f"  {label}: no results ({e.strerror})")
            p, q = 0, 1
        print(f"  {label}: {p} passed, {q} failed")
        total_p += p
        total_f += q
    print(f"{total_p} passed, {total_f} failed")
    return 1 if total_f else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

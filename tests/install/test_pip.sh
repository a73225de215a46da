#!/bin/sh
# `pip install .` as doc/bindings.md tells a Debian 12 user to run it: in a
# virtual environment made with --system-site-packages (so meson-python and
# networkx come from Debian), with --no-build-isolation, from a copy of the
# source tree; then `import placement` from another directory with no
# PYTHONPATH or LD_LIBRARY_PATH. Builds the whole library once (slow).
# Usage: test_pip.sh SOURCE_DIR PYTHON. Exit 77 (skipped) when PYTHON lacks
# venv or meson-python, or patchelf is missing (tools/setup.sh installs
# python3-venv, python3-mesonpy and patchelf).
set -eu
src=$1
python=$2
"$python" -c 'import venv, ensurepip' 2>/dev/null || { echo "SKIP: $python has no venv/ensurepip (python3-venv)"; exit 77; }
"$python" -c 'import mesonpy' 2>/dev/null || { echo "SKIP: $python has no meson-python (python3-mesonpy)"; exit 77; }
command -v patchelf >/dev/null 2>&1 || { echo "SKIP: patchelf not found"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pl-pip.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The tree as a user has it: no build directories, no earlier pip leftovers.
mkdir "$tmp/src" "$tmp/elsewhere"
tar -C "$src" --exclude='./build*' --exclude=./.git --exclude='./.mesonpy-*' --exclude='./placement-demo' \
    -cf - . | tar -C "$tmp/src" -xf -

"$python" -m venv --system-site-packages "$tmp/venv"
# --no-index: everything needed is on the machine; never reach for PyPI.
if ! "$tmp/venv/bin/pip" install --no-build-isolation --no-index --no-deps "$tmp/src" >"$tmp/pip.log" 2>&1; then
  tail -60 "$tmp/pip.log"; echo "FAIL: pip install"; exit 1
fi
grep -i 'warning' "$tmp/pip.log" | grep -v 'pip version' || true

want=$(sed -n "s/^  version : '\([^']*\)'.*/\1/p" "$src/meson.build")
cd "$tmp/elsewhere"
out=$(env -u PYTHONPATH -u LD_LIBRARY_PATH "$tmp/venv/bin/python" -c '
import os, sys
import placement
print(placement.__version__)
pkg = os.path.dirname(placement.__file__)
assert pkg.startswith(sys.prefix), (pkg, sys.prefix)
for f in ("py.typed", "__init__.pyi", "k8s.py"):
    assert os.path.exists(os.path.join(pkg, f)), f
s = placement.Sched(placement.Topology.builtin("minsky"))
d = s.place(placement.JobSet.of([placement.Job.data_parallel("pair", 2)]), policy="topo-aware")
print(placement.decision_kind_name(d.kind(0)), len(d.gpus(0)))
') || { echo "$out"; echo "FAIL: import placement from the venv"; exit 1; }
echo "$out"
[ "$(echo "$out" | head -n 1)" = "$want" ] || { echo "FAIL: __version__ is not $want"; exit 1; }
[ "$(echo "$out" | tail -n 1)" = "placed 2" ] || { echo "FAIL: placing a 2-GPU job"; exit 1; }

# The extension holds the library (linked statically): nothing to find at
# run time, whatever the loader's path.
core=$(find "$tmp/venv" -name '_core*.so' | head -n 1)
if readelf -d "$core" | grep -q 'NEEDED.*libplacement'; then
  echo "FAIL: $core needs libplacement.so"; exit 1
fi
env -u PYTHONPATH "$tmp/venv/bin/python" -m placement.k8s --help | grep -q -- '--cluster' ||
  { echo "FAIL: python -m placement.k8s --help"; exit 1; }
"$tmp/venv/bin/placement" solvers | grep -q network-simplex || { echo "FAIL: the placement program in the venv"; exit 1; }
echo "PASS"

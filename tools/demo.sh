#!/usr/bin/env bash
# The main job: install what is needed, build, and run the placement demo.
# For now the demo solves real Firmament scheduling networks with every
# solver side by side, each answer certified and checked against GLPK.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/setup.sh >/dev/null
if [ -f build/build.ninja ]; then meson setup --reconfigure build >/dev/null; else meson setup build >/dev/null; fi
ninja -C build >/dev/null

for f in graph_4m_2crs_10j.in graph_100m_16j_100t_10p.in; do
  echo "== $f ($(head -c 200 tests/data/flow/$f | grep -m1 '^p' || true))"
  ./build/tools/placement solve --solver all --verify --lp-check "tests/data/flow/$f"
  echo
done

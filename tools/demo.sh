#!/usr/bin/env bash
# The main job: install what is needed, build, and run `placement demo`: the
# SC17 paper's prototype and scenario 1 replayed by the trace-driven simulator
# under topo-aware, topo-aware-p, fcfs and bf, our numbers beside the paper's
# and the artifact's (doc/simulator.md, doc/results.md).
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/setup.sh >/dev/null
if [ -f build/build.ninja ]; then meson setup --reconfigure build >/dev/null; else meson setup build >/dev/null; fi
ninja -C build >/dev/null

./build/tools/placement demo --out build/demo

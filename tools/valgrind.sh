#!/usr/bin/env bash
# Run a representative subset of the C suites under valgrind memcheck
# (leaks and invalid accesses fail a suite) from the normal build directory.
# tools/test.sh runs it on the subset (memcheck is slow). Prints one line per
# suite and then 'N passed, N failed'; exit status 0 when all passed.
#   tools/valgrind.sh [--all] [BUILD_DIR]   --all: every C suite, not the subset
# Known third-party leaks are suppressed by tools/valgrind.supp.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
all=0
if [ "${1:-}" = --all ]; then all=1; shift; fi
dir=${1:-build}
suites=(flow_ssp flow_network_simplex flow_cost_scaling topology_core topology_json
        jobgraph_basic policy_topo_aware sim_core)

if ! command -v valgrind >/dev/null; then
  echo "valgrind not found"
  echo "0 passed, ${#suites[@]} failed"
  exit 1
fi
if [ ! -f "$dir/build.ninja" ]; then
  meson setup "$dir" -Dwerror=true >/dev/null || { echo "0 passed, ${#suites[@]} failed"; exit 1; }
fi
ninja -C "$dir" -j"${JOBS:-2}" >/dev/null || { echo "build failed"; echo "0 passed, ${#suites[@]} failed"; exit 1; }
if [ "$all" = 1 ]; then
  # Every registered test but the install script, which is not a C program.
  mapfile -t suites < <(meson test -C "$dir" --no-rebuild --list 2>/dev/null | sed 's/.* \/ //' | grep -vx install)
fi

wrapper="valgrind --leak-check=full --error-exitcode=1 --track-origins=yes --keep-debuginfo=yes --quiet --suppressions=$PWD/tools/valgrind.supp"
passed=0 failed=0
for s in "${suites[@]}"; do
  log="$dir/meson-logs/valgrind-$s.txt"
  if meson test -C "$dir" --no-rebuild --print-errorlogs --timeout-multiplier 10 --wrapper "$wrapper" "$s" >"$log" 2>&1; then
    echo "PASS $s"
    passed=$((passed + 1))
  else
    echo "FAIL $s (log: $log)"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

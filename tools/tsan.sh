#!/usr/bin/env bash
# Build the library and the thread-safety suite (tests/threads) with
# ThreadSanitizer in build-tsan and run that suite (tools/test.sh calls it).
# Exit status 0 when the suite passes with no race reported (TSan makes a reported race fail it).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-tsan}
if [ -f "$dir/build.ninja" ]; then
  meson setup --reconfigure "$dir" -Dwerror=true -Db_sanitize=thread -Db_lundef=false >/dev/null
else
  meson setup "$dir" -Dwerror=true -Db_sanitize=thread -Db_lundef=false >/dev/null
fi
ninja -C "$dir" -j"${JOBS:-2}" tests/test_threads tools/placement
# halt_on_error: the first race fails the run; second_deadlock_stack: full
# reports for lock-order problems.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
meson test -C "$dir" --no-rebuild --print-errorlogs threads

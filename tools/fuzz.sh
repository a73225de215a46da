#!/usr/bin/env bash
# Build the libFuzzer harnesses of fuzz/ with clang in build-fuzz and run each
# for a bounded time. Not part of tools/test.sh (a separate clang build).
#
#   tools/fuzz.sh [SECONDS [TARGET...]]     default: 60 s, every target
#
# Each target starts from a copy of its seed corpus fuzz/corpus/<target>/
# (the copy in build-fuzz/corpus/<target>/ grows; the seeds stay small).
# A crash, leak, sanitizer report, timeout or out-of-memory leaves its input
# as build-fuzz/artifacts/<target>/crash-* (or leak-, timeout-, oom-).
# fuzz_hwloc_xml runs twice, once per hwloc XML importer (HWLOC_LIBXML_IMPORT=0:
# hwloc's own parser; =1: libxml2, from libhwloc-plugins), each for SECONDS.
# Exit status: 0 when no target failed, 1 when any did.
set -uo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh --fuzz || exit 1
secs=${1:-60}
shift || true
all=(fuzz_dimacs fuzz_topology_json fuzz_jobs_json fuzz_profiles fuzz_hwloc_xml fuzz_sim_trace)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
dir=${FUZZ_BUILD:-build-fuzz}

# The library objects get coverage instrumentation (fuzzer-no-link) and the
# same sanitizers as the harnesses; the bindings and cmocka suites are off.
opts=(-Dfuzz=true -Dtests=false -Dpython=disabled -Dlua=disabled -Dwerror=true
      -Db_sanitize=address,undefined -Db_lundef=false
      -Dc_args=-fsanitize=fuzzer-no-link)
if [ -f "$dir/build.ninja" ]; then
  meson setup --reconfigure "$dir" "${opts[@]}" >/dev/null || exit 1
else
  CC=clang meson setup "$dir" "${opts[@]}" >/dev/null || exit 1
fi
ninja -C "$dir" -j"${JOBS:-2}" $(printf 'fuzz/%s ' "${targets[@]}") || exit 1

export UBSAN_OPTIONS="halt_on_error=1 print_stacktrace=1 ${UBSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=1 ${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp print_suppressions=0 ${LSAN_OPTIONS:-}"
failed=0
# run_one TARGET LABEL: one bounded run of TARGET; LABEL names its log.
run_one() {
  local t=$1 label=$2
  local corpus="$dir/corpus/$t" art="$dir/artifacts/$label"
  mkdir -p "$corpus" "$art"
  cp -n fuzz/corpus/"$t"/* "$corpus"/ 2>/dev/null || true
  echo "== $label: ${secs}s"
  # -rss_limit_mb and -timeout turn runaway allocations and slow inputs into
  # reported failures; -max_len lets the hwloc seeds (up to ~20 kB) mutate.
  if ! "$dir/fuzz/$t" "$corpus" -max_total_time="$secs" -timeout=10 \
      -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$art/" >"$dir/$label.log" 2>&1; then
    echo "   FAILED (see $dir/$label.log and $art/)"
    grep -E "ERROR|SUMMARY|runtime error" "$dir/$label.log" | head -5
    failed=1
  else
    grep -E "stat::number_of_executed_units|cov:" "$dir/$label.log" | tail -2
  fi
}
for t in "${targets[@]}"; do
  if [ "$t" = fuzz_hwloc_xml ]; then
    HWLOC_LIBXML_IMPORT=0 run_one "$t" "$t-nolibxml"
    HWLOC_LIBXML_IMPORT=1 run_one "$t" "$t-libxml"
  else
    run_one "$t" "$t"
  fi
done
exit $failed

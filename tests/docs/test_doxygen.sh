#!/bin/sh
# Run Doxygen over the public headers with the project's Doxyfile (given as
# $1) and fail on any warning, e.g. an undocumented public symbol. Also checks
# that the configuration really fails on one: a header with an undocumented
# function added to the input must make doxygen fail. Exit 77 (skipped) when
# doxygen is not installed.
doxyfile=$1
command -v doxygen >/dev/null 2>&1 || { echo "doxygen not installed: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

if { cat "$doxyfile"; echo "OUTPUT_DIRECTORY = $tmp/api"; } | doxygen - >"$tmp/out" 2>&1 \
    && ! grep -q . "$tmp/out"; then
  passed=$((passed + 1))
else
  echo "FAIL: doxygen reported problems in include/placement/*.h:"; cat "$tmp/out"
  failed=$((failed + 1))
fi

cat >"$tmp/undocumented.h" <<'H'
/** \file undocumented.h \brief A header with one undocumented function. */
int pl_undocumented_probe(int x);
H
if { cat "$doxyfile"; echo "OUTPUT_DIRECTORY = $tmp/api2"; echo "INPUT += $tmp/undocumented.h"; } \
    | doxygen - >"$tmp/out2" 2>&1; then
  echo "FAIL: doxygen accepted an undocumented public function"; cat "$tmp/out2"
  failed=$((failed + 1))
elif grep -q "pl_undocumented_probe" "$tmp/out2"; then
  passed=$((passed + 1))
else
  echo "FAIL: doxygen failed without naming the undocumented function:"; cat "$tmp/out2"
  failed=$((failed + 1))
fi

echo "doxygen: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

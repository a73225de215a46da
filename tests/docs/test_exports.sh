#!/bin/sh
# The shared library's API is the installed headers' and no more (issue 19):
# every exported function is declared in include/placement/*.h (where the
# doxygen test checks it is documented), and there are at most 250 of them.
# $1: the shared library, $2 ...: the public header folders (source and built).
lib=$1; shift
command -v nm >/dev/null 2>&1 || { echo "nm not installed: skipped"; exit 77; }
passed=0 failed=0
dirs="$*"
cat_headers() { for d in $dirs; do cat "$d"/*.h; done; }
syms=$(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort)
n=$(echo "$syms" | grep -c .)
if [ "$n" -le 250 ]; then passed=$((passed + 1)); else
  echo "FAIL: $n exported functions (at most 250)"; failed=$((failed + 1)); fi
missing=$(for f in $syms; do cat_headers | grep -qw "$f" || echo "$f"; done)
if [ -z "$missing" ]; then passed=$((passed + 1)); else
  echo "FAIL: exported but in no public header:"; echo "$missing"; failed=$((failed + 1)); fi
# Every function a public header declares is exported (none hidden by mistake).
declared=$(cat_headers | grep -v '^static inline' | grep -o '^[a-z][a-z0-9_ ]*[ *]\(pl_[a-z0-9_]*\)(' | sed 's/($//; s/.*[ *]//' | sort -u)
unexported=$(for f in $declared; do echo "$syms" | grep -qx "$f" || echo "$f"; done)
if [ -z "$unexported" ]; then passed=$((passed + 1)); else
  echo "FAIL: declared in a public header but not exported:"; echo "$unexported"; failed=$((failed + 1)); fi
echo "exports: $n functions; $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# Install the build into a temporary directory (meson install --destdir),
# check the installed placement.pc, then build examples/c/minimal_scheduler.c
# the way a user would, with `cc $(pkg-config --cflags --libs placement)`,
# and run it against the installed library only.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR [SANITIZERS]. SANITIZERS is
# the build's b_sanitize ("address,undefined", "none"): the examples are
# built with the same runtime as the library. Exit 77 (skipped) when meson,
# pkg-config or a C compiler is missing.
set -eu
build=$1
src=$2
sanitize=${3:-none}
CC=${CC:-cc}
extra=
[ "$sanitize" = none ] || extra="-fsanitize=$sanitize"
for tool in meson pkg-config "$CC"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pl-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/root
meson install -C "$build" --no-rebuild --quiet --destdir "$dest" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; echo "FAIL: meson install"; exit 1; }

pc=$(find "$dest" -name placement.pc | head -n 1)
[ -n "$pc" ] || { echo "FAIL: no placement.pc installed"; exit 1; }
echo "installed $pc"
# The sysroot variable maps the .pc's prefix into the destdir.
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR="$dest"

# What a static link needs beyond libplacement itself.
static=$(pkg-config --static --libs placement)
for need in -lplacement -lglpk -lm -lnuma -lhwloc -ljansson; do
  case " $static " in
    *" $need "*) ;;
    *) echo "FAIL: pkg-config --static --libs lacks $need: $static"; exit 1 ;;
  esac
done
if ! grep -q '^Requires.private: .*hwloc' "$pc" || ! grep -q '^Requires.private: .*jansson' "$pc"; then
  echo "FAIL: hwloc and jansson must be private requirements"; cat "$pc"; exit 1
fi
# A shared link needs nothing but libplacement.
flags=$(pkg-config --cflags --libs placement)
echo "pkg-config --cflags --libs placement: $flags"

for f in include/placement/placement.h include/placement/version.h share/man/man1/placement.1; do
  find "$dest" -path "*/$f" | grep -q . || { echo "FAIL: $f not installed"; exit 1; }
done

# shellcheck disable=SC2086 # the flags are meant to be split
"$CC" -std=c11 -Wall -Wextra -Werror $extra -o "$tmp/minimal_scheduler" \
  "$src/examples/c/minimal_scheduler.c" $flags ||
  { echo "FAIL: the example does not build against the installed library"; exit 1; }

# The .pc file sits in LIBDIR/pkgconfig.
libdir=$(dirname "$(dirname "$pc")")
rc=0
out=$(LD_LIBRARY_PATH="$libdir" "$tmp/minimal_scheduler" "$src/tests/data/sc17/workloads-5.json" topo-aware 2) || rc=$?
echo "$out"
[ "$rc" -eq 0 ] || { echo "FAIL: the example exited with $rc"; exit 1; }
# It must have used the installed library, not the build tree's.
LD_LIBRARY_PATH="$libdir" ldd "$tmp/minimal_scheduler" | grep -q "$dest.*libplacement" ||
  { echo "FAIL: the example did not load the installed libplacement"; exit 1; }

# workloads-5.json: 6 jobs of 1, 1, 1, 2, 2 and 2 GPUs (9 in all) on two
# 4-GPU Minsky machines: the first round holds at most 8 of those GPUs, so
# one 2-GPU job waits for the second.
echo "$out" | grep -qx "round 1: 6 queued" || { echo "FAIL: first round"; exit 1; }
echo "$out" | grep -qx "round 2: 1 queued" || { echo "FAIL: second round"; exit 1; }
echo "$out" | grep -qx "placed 6 of 6 jobs with topo-aware" || { echo "FAIL: not all placed"; exit 1; }
[ "$(echo "$out" | grep -c ' -> cluster/rack0/node')" -eq 6 ] || { echo "FAIL: placements"; exit 1; }

# The extension example of doc/guide.md: a registered solver and policy.
# shellcheck disable=SC2086
"$CC" -std=c11 -Wall -Wextra -Werror $extra -o "$tmp/extend" "$src/examples/c/extend.c" $flags ||
  { echo "FAIL: examples/c/extend.c does not build"; exit 1; }
out=$(LD_LIBRARY_PATH="$libdir" "$tmp/extend") || { echo "$out"; echo "FAIL: extend"; exit 1; }
echo "$out"
# Two units 0 -> 2: one over 0-1-2 (cost 1 + 1), one direct (cost 5).
# A Minsky has 4 GPUs: the 3-task job takes the first three, the two 2-task
# jobs find only one left.
expected='counting-simplex: cost 7 after 1 solve(s)
first-free: job0 placed on gpu0 gpu1 gpu2
first-free: job1 waits, no machine has enough free GPUs
first-free: job2 waits, no machine has enough free GPUs'
[ "$out" = "$expected" ] || { echo "FAIL: extend printed something else"; exit 1; }

# The allocation lifecycle's walk-through (issue 19): installed headers only.
# shellcheck disable=SC2086
"$CC" -std=c11 -Wall -Wextra -Werror $extra -o "$tmp/scheduler_loop" "$src/examples/c/scheduler_loop.c" $flags ||
  { echo "FAIL: examples/c/scheduler_loop.c does not build"; exit 1; }
out=$(LD_LIBRARY_PATH="$libdir" "$tmp/scheduler_loop" "$src/examples/sim/cluster-with-shared-gpus.json" \
      "$src/examples/sim/shared-gpus-trace.csv" --policy topo-aware) || { echo "$out"; echo "FAIL: scheduler_loop"; exit 1; }
[ "$(echo "$out" | tail -n 1)" = "placed 40 released 40 double-booked 0 leaked 0" ] ||
  { echo "$out"; echo "FAIL: scheduler_loop's last line"; exit 1; }

# Installed modules carry an RUNPATH to the installed library, so they run
# without LD_LIBRARY_PATH (issue 21). The placement program carries the
# library in itself (it also runs the internal NVMe simulator, which the
# shared library does not export): it needs no libplacement.so at all.
prefix=$(meson introspect "$build" --buildoptions | python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
if readelf -d "$dest$prefix/bin/placement" | grep -q 'NEEDED.*libplacement'; then
  echo "FAIL: the placement program needs libplacement.so"; exit 1
fi
for f in $(find "$dest" -name '_core*.so' -o -path '*/lua/*/placement.so'); do
  readelf -d "$f" | grep -q "RUNPATH.*$prefix" || { echo "FAIL: $f has no RUNPATH to $prefix"; readelf -d "$f" | grep -i path; exit 1; }
done
# The Python package lands where /usr/bin/python3 looks for that prefix
# (when it looks there at all: /usr/local on Debian).
init=$(find "$dest" -path '*/placement/__init__.py' | head -n 1)
if [ -n "$init" ] && [ -x /usr/bin/python3 ]; then
  site=$(dirname "$(dirname "${init#"$dest"}")")
  searched=$(/usr/bin/python3 -c 'import sys; print("\n".join(sys.path))' | grep "^$prefix/lib/python" | head -n 1)
  if [ -n "$searched" ] && [ "$site" != "$searched" ]; then
    echo "FAIL: the package went to $site, python3 searches $searched"; exit 1
  fi
  echo "python package in $site"
fi

# The man page documents every command and every long option of each.
man=$(sed 's/\\-/-/g' "$src/doc/placement.1")
bin=${PL_PLACEMENT_BIN:-placement}
cmds=$("$bin" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 {print $1}')
[ -n "$cmds" ] || { echo "FAIL: no commands in placement --help"; exit 1; }
for cmd in $cmds; do
  echo "$man" | grep -q "^\.SS \"placement $cmd" || { echo "FAIL: man page lacks '$cmd'"; exit 1; }
  for opt in $("$bin" "$cmd" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    [ "$opt" = --help ] && continue
    echo "$man" | grep -q -- "$opt" || { echo "FAIL: man page lacks $cmd $opt"; exit 1; }
  done
done
echo "PASS"

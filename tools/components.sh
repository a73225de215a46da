#!/usr/bin/env bash
# Print, one per line, which optional components this machine has, so that
# a test run on one machine can be compared line by line with a run on
# another (tools/test.sh prints it before the suites). Reads only; changes
# nothing. A line is "component: NAME: what was found" or "... absent (why
# it matters)".
set -uo pipefail

say() { printf 'component: %-22s %s\n' "$1:" "$2"; }

# The version of an installed Debian package, or nothing.
pkgver() { dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null | sed -n 's/^install ok installed //p'; }

hw=$(pkg-config --modversion hwloc 2>/dev/null || echo "?")
hwdir=$(pkg-config --variable=libdir hwloc 2>/dev/null)/hwloc
if [ -f "$hwdir/hwloc_xml_libxml.so" ]; then
  say "hwloc" "$hw; XML importers: hwloc's own + libxml2 (libhwloc-plugins $(pkgver libhwloc-plugins))"
else
  say "hwloc" "$hw; XML importers: hwloc's own only (libhwloc-plugins absent: HWLOC_LIBXML_IMPORT=1 falls back to it)"
fi
plugins=$(ls "$hwdir" 2>/dev/null | sed -n 's/^hwloc_\(.*\)\.so$/\1/p' | tr '\n' ' ')
say "hwloc plugins" "${plugins:-none}"

v=$(pkg-config --modversion lemon 2>/dev/null) && say "LEMON" "$v (bench-solvers compares against it)" \
  || say "LEMON" "absent (bench-solvers runs without the LEMON columns)"
v=$(pkgver libscotch-dev)
[ -n "$v" ] && say "Scotch" "$v (bench-scotch is built)" || say "Scotch" "absent (bench-scotch is not built)"
v=$(pkgver slurmctld)
[ -n "$v" ] && say "Slurm" "slurmctld $v" || say "Slurm" "absent"
v=$(pkgver munge)
[ -n "$v" ] && say "munge" "$v" || say "munge" "absent"
tsan=$(gcc -print-file-name=libtsan.so 2>/dev/null)
if [ -n "$tsan" ] && [ "$tsan" != libtsan.so ] && [ -e "$tsan" ]; then
  say "TSan runtime" "$tsan (libtsan2 $(pkgver libtsan2))"
else
  say "TSan runtime" "absent (the threads suite cannot run under ThreadSanitizer)"
fi
v=$(pkgver valgrind)
[ -n "$v" ] && say "valgrind" "$v" || say "valgrind" "absent"
if command -v clang >/dev/null 2>&1; then
  say "clang (tools/fuzz.sh)" "$(clang --version | head -1), libclang-rt-14-dev $(pkgver libclang-rt-14-dev)"
else
  say "clang (tools/fuzz.sh)" "absent (tools/fuzz.sh installs it)"
fi
for lua in lua5.4 lua5.1; do
  v=$(pkgver "lib${lua}-dev")
  [ -z "$v" ] && v=$(pkgver "lib${lua}-0-dev")
  [ -n "$v" ] && say "Lua ${lua#lua} headers" "$v" || say "Lua ${lua#lua} headers" "absent"
done
say "python3 (bindings)" "$(/usr/bin/python3 --version 2>&1 | cut -d' ' -f2) at /usr/bin/python3; first on PATH: $(command -v python3)"
say "swig" "$(swig -version 2>/dev/null | sed -n 's/^SWIG Version //p')"
say "kernel" "$(uname -r), vm.mmap_rnd_bits=$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo '?')"

#!/usr/bin/env bash
# Installs every Debian package libplacement needs to build, test and run.
# Idempotent and non-interactive; run as root (or through sudo) on Debian 12+.
#
#   tools/setup.sh           what tools/test.sh and tools/demo.sh need
#   tools/setup.sh --fuzz    that, plus clang and its libFuzzer runtime (tools/fuzz.sh)
#   tools/setup.sh --slurm   that, plus Slurm 22.05 and munge (tests/slurm/run.sh)
#
# Packages are installed with --no-install-recommends, so every Recommends
# that a code path under test relies on is listed here by name. Decided:
#   libhwloc-plugins (Recommends of libhwloc15): listed. It is hwloc's libxml2
#     XML importer (and its PCI, OpenCL and GL discovery); the hwloc suites run
#     under both importers and must see both (doc/topology-hwloc.md).
#   python3-scipy, -matplotlib, -pydot, -pygraphviz, -yaml, -gdal (Recommends
#     of python3-networkx): not listed. The tests use networkx's min-cost flow
#     and graph classes only, which are pure Python; python3-numpy is listed
#     because the tests import it themselves.
#   dpkg-dev (meson), python3-pygments (pytest), libtool-bin (liblua5.4-dev),
#     gdb and valgrind-dbg (valgrind), cmocka-doc: not listed, nothing runs them.
#   lua5.1 and liblua5.1-0-dev: listed. Debian 12's Slurm 22.05 embeds Lua
#     5.1 (job_submit/lua), so the Lua module is also built and tested for it.
#   python3-venv, python3-mesonpy, patchelf: listed. `pip install .`
#     (pyproject.toml, doc/bindings.md) builds through Debian's meson-python
#     in a venv made by python3 -m venv --system-site-packages; meson-python
#     rewrites the RPATHs of the wheel's binaries with patchelf. The meson
#     test pip_install (tests/install/test_pip.sh) runs that route.
#   slurmctld, slurmd, slurm-client, munge (--slurm only): tests/slurm/run.sh
#     runs a real controller and four slurmd on localhost. slurm-wlm-basic-plugins
#     (job_submit/lua, select/cons_tres) comes as their Depends.
# A later issue that adds a daemon or a package adds it here, with its reason.
set -euo pipefail

PACKAGES=(
  build-essential pkg-config meson ninja-build
  libhwloc-dev libhwloc-plugins libnuma-dev libglpk-dev libjansson-dev
  libcmocka-dev
  swig python3 python3-dev python3-pytest python3-networkx python3-numpy
  python3-venv python3-mesonpy patchelf
  lua5.4 liblua5.4-dev lua5.1 liblua5.1-0-dev
  valgrind doxygen
)
for arg in "$@"; do
  case $arg in
    --fuzz) PACKAGES+=(clang libclang-rt-14-dev) ;;
    --slurm) PACKAGES+=(slurmctld slurmd slurm-client munge) ;;
    *) echo "setup: unknown argument '$arg' (known: --fuzz, --slurm)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup: run as root (missing: ${missing[*]})" >&2; exit 1; }
  SUDO="sudo"
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"

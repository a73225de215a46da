#!/usr/bin/env bash
# Installs every Debian package libplacement needs to build, test and run.
# Idempotent and non-interactive; run as root (or through sudo) on Debian 12+.
set -euo pipefail

PACKAGES=(
  build-essential pkg-config meson ninja-build
  libhwloc-dev libnuma-dev libglpk-dev libjansson-dev
  libcmocka-dev
  swig python3 python3-dev python3-pytest python3-networkx python3-numpy
  lua5.4 liblua5.4-dev
  valgrind doxygen
)

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

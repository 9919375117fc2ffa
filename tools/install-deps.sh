#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build, run and test irscope.
# Safe to run repeatedly: it does nothing when every package is already present.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config ccache
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev
  libqt6sql6-sqlite libqscintilla2-qt6-dev libgl-dev
  libgraphviz-dev graphviz
  libsqlite3-dev libeigen3-dev libzstd-dev zlib1g-dev libssl-dev libdtl-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev libjemalloc-dev
  libprotobuf-dev protobuf-compiler
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
  xvfb xauth fonts-dejavu-core
  clang libclang-rt-14-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

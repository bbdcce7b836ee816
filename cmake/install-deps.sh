#!/usr/bin/env bash
# Installs the Debian 12 packages the build and tests need; idempotent, skips what is present.
set -euo pipefail

# One package a line; keep in step with the dependency table of docs/architecture.md
# (the test docs.dependencies holds the two to the same packages).
packages=(
  cmake ninja-build g++ make pkg-config git
  libboost-dev libyaml-cpp-dev libzip-dev libeigen3-dev catch2 nlohmann-json3-dev libcli11-dev
  libseccomp-dev libpugixml-dev python3 python3-jsonschema python3-yaml python3-numpy
  python3-dev pybind11-dev python3-pybind11 python3-pytest
  libbenchmark-dev
  libopenblas-dev libssl-dev
  qt6-base-dev qt6-svg-dev libgl-dev fonts-dejavu-core xvfb xauth
  poppler-utils
  chromium
  clang-format
  slurm-wlm munge
  dpkg-dev file unzip debootstrap
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-deps: missing packages and neither root nor sudo: ${missing[*]}" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# munge and Slurm start their daemons as they install (munged with a freshly generated key).
# The Slurm test runs daemons of its own (its own configuration, key, socket and ports) and
# wants none of the system's: a policy-rc.d that refuses every start keeps the packages from
# starting anything. A machine that has its own policy-rc.d keeps it; ours goes after apt-get.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  trap '"${sudo[@]}" rm -f "$policy"' EXIT
  printf '#!/bin/sh\n# install-deps: no daemon starts while packages install\nexit 101\n' |
    "${sudo[@]}" tee "$policy" >/dev/null
  "${sudo[@]}" chmod 755 "$policy"
fi
"${sudo[@]}" apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# setup.sh: Gradescope runs this once, as root, when it builds the autograder's image (the
# bundle unpacked in /autograder/source): installs awb from the bundled package, with the
# Debian/Ubuntu packages it depends on (its libraries) and recommends (the compiler, CMake and
# Eigen a source submission is built with), from the distribution's archive.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --install-recommends ./awb.deb
awb --version

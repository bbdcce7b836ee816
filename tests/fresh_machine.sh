#!/usr/bin/env bash
# fresh_machine.sh: the README's promise on a bare machine. A clean clone of this checkout's HEAD
# in a fresh minimal Debian 12 root (debootstrap minbase, then only git, make and sudo, as a
# user's new machine has them) runs `make test` there: cmake/install-deps.sh must install
# everything the build and every test use, and every test must pass (or be skipped with its
# reason). Slow (the packages, a whole build and every test: 20-30 minutes on 2 cores), so it is
# `make fresh-machine-test`, not part of `make test`. The root and its cache:
# tests/support/fresh_root.bash.
#
# usage: fresh_machine.sh SOURCE_DIR WORK_DIR [PRESET]
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 SOURCE_DIR WORK_DIR [PRESET]" >&2; exit 2; }
src=$(cd "$1" && pwd) work=$2 preset=${3:-dev}
rm -rf "$work"
mkdir -p "$work"
# shellcheck source=support/fresh_root.bash
source "$(dirname "$0")/support/fresh_root.bash"

echo "== git, make and sudo, as on a new machine"
in_root bash -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends git make sudo ca-certificates' \
  >"$work/base-packages.log" 2>&1 || { tail -20 "$work/base-packages.log"; fail "apt-get"; }
echo "== a clean clone of $(git -C "$src" rev-parse --short HEAD)"
git clone -q --no-local "$src" "$root/src/awb"
echo "== make test PRESET=$preset (the log: $work/make-test.log)"
status=0
in_root bash -c "cd /src/awb && make test PRESET=$preset JOBS=\$(nproc)" \
  >"$work/make-test.log" 2>&1 || status=$?
grep -E "^install-deps:|tests passed|tests failed|Not Run|\(Skipped\)|\*\*\*Failed" \
  "$work/make-test.log" | tail -40
if [[ $status -ne 0 ]]; then
  # What each failed test printed, before the root goes: the log of a run that cannot be redone
  # cheaply.
  in_root bash -c "cd /src/awb && ctest --preset $preset --rerun-failed --output-on-failure" \
    >"$work/failed-tests.log" 2>&1 || true
  tail -40 "$work/make-test.log"
  fail "make test exited $status (each failed test's output: $work/failed-tests.log)"
fi
echo PASS

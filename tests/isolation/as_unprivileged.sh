#!/bin/sh
# Runs a command as an unprivileged user: as it is when we are not root, else as nobody. Where
# the machine does not allow it (no runuser, or nobody cannot reach the build), exits 77, which
# ctest reports as skipped, with the reason.
if [ "$(id -u)" != 0 ]; then exec "$@"; fi
if ! command -v runuser >/dev/null 2>&1; then
  echo "cannot run as an unprivileged user here: runuser is missing"
  exit 77
fi
if ! runuser -u nobody -- test -x "$1"; then
  echo "cannot run as an unprivileged user here: nobody cannot reach $1"
  exit 77
fi
exec runuser -u nobody -- "$@"

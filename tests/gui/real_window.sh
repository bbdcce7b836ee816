#!/usr/bin/env bash
# real_window.sh AWB_GUI OUT_PNG: the workbench in a real X window (an Xvfb server of its own,
# 1920x1080), as `make run` opens it on a display: screenshot what the screen shows, then run
# the layout check on that window. Exit 0 only when no text is cut off.
set -euo pipefail
gui=$1
out=$2
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "real_window: xvfb-run is missing (cmake/install-deps.sh installs xvfb)" >&2
  exit 1
fi
unset QT_QPA_PLATFORM WAYLAND_DISPLAY
mkdir -p "$(dirname "$out")"
rm -f "$out"
xvfb-run -a -s "-screen 0 1920x1080x24" \
  "$gui" --exercise journey --variant parameter-free --size 1600x900 \
  --screenshot "$out" --check-layout
test -s "$out"

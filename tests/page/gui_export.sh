#!/usr/bin/env bash
# gui_export.sh AWB AWB_GUI OUT_DIR: the GUI's File → Export interactive page… (run headless with
# --export-page) writes the same bytes as `awb page` for the same exercise and variants.
set -euo pipefail
awb=$1 gui=$2 out=$3
mkdir -p "$out"
for case in "journey parameter-free" "river-bank qkv" "multi-head multi-head"; do
  set -- $case
  "$awb" page --exercise "$1" --variant "$2" --out "$out/$1.cli.html" >/dev/null 2>&1
  QT_QPA_PLATFORM=offscreen "$gui" --exercise "$1" --variant "$2" --export-page "$out/$1.gui.html" \
    >/dev/null 2>&1
  if cmp -s "$out/$1.cli.html" "$out/$1.gui.html"; then
    echo "same: $1 with $2 ($(stat -c %s "$out/$1.cli.html") bytes)"
  else
    echo "DIFFERENT: $1 with $2: awb page and the GUI's export differ" >&2
    exit 1
  fi
done
echo PASS

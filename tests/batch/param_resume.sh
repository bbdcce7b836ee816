#!/usr/bin/env bash
# param_resume.sh: a batch graded under `--param window=4` and resumed. Under the same parameter
# the resume takes the result from the journal; under `--param window=2` it grades it again (a
# result graded under one parameter once stood for another).
#
# usage: param_resume.sh AWB PLUGIN_DIR EXERCISE_DIR WORK_DIR
set -euo pipefail
if [[ $# -ne 4 ]]; then
  echo "usage: $0 AWB PLUGIN_DIR EXERCISE_DIR WORK_DIR" >&2
  exit 2
fi
awb=$1 plugins=$2 exercises=$3 work=$4
rm -rf "$work"
mkdir -p "$work/class/s1"
cp "$plugins/awb_sliding_window.so" "$work/class/s1/"

grade() {  # grade PARAM [--resume]: the batch's summary line
  timeout 120 "$awb" grade --batch "$work/class" --exercises "$exercises" \
    --exercise sliding-window --out "$work/results" --param "$@" 2>&1 | tail -n 1
}
expect() {  # expect LINE TEXT
  [[ $1 == *"$2"* ]] || { echo "FAIL: expected '$2' in: $1" >&2; exit 1; }
  echo "ok: $1"
}
expect "$(grade window=4)" "1 result(s) graded, 0 taken from the journal"
expect "$(grade window=4 --resume)" "0 result(s) graded, 1 taken from the journal"
expect "$(grade window=2 --resume)" "1 result(s) graded, 0 taken from the journal"
expect "$(grade window=2 --resume)" "0 result(s) graded, 1 taken from the journal"

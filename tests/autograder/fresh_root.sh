#!/usr/bin/env bash
# fresh_root.sh: an autograder bundle run as the platforms run it, on a fresh Debian 12 root.
# Gradescope: the zip of the bundled parameter-free assignment unpacked into /autograder/source,
# run_autograder once before setup.sh (awb is not there yet: its fallback results.json), setup.sh
# (installs the awb package and what it depends on and recommends from the Debian archive), then
# run_autograder on submissions correct and broken: a built plugin, a source submission (the
# project `awb new-plugin` writes, built in the fresh root), the same with a compile error, a
# file that is no plugin. PrairieLearn: the folder in /grade/serverFilesCourse/awb, grade.sh on the two source
# submissions. Every results.json is validated against its schema in tests/schema, and printed.
#
# usage: fresh_root.sh AWB DEB_DIR PLUGIN_DIR SOURCE_DIR WORK_DIR
#
# The root and its cache: tests/support/fresh_root.bash (`make fresh-root-test` makes the cache).
# Needs root (chroot, mounts) and the Debian archive (setup.sh runs apt-get).
set -euo pipefail
[[ $# -eq 5 ]] || { echo "usage: $0 AWB DEB_DIR PLUGIN_DIR SOURCE_DIR WORK_DIR" >&2; exit 2; }
awb=$1 deb_dir=$2 plugins=$3 src=$4 work=$5
rm -rf "$work"
mkdir -p "$work/gradescope" "$work/prairielearn"
# shellcheck source=../support/fresh_root.bash
source "$(dirname "$0")/../support/fresh_root.bash"

subs=$work/submissions
mkdir -p "$subs/plugin" "$subs/broken-plugin"
cp "$plugins/awb_parameter_free.so" "$subs/plugin/attention.so"
echo "not a shared library" >"$subs/broken-plugin/attention.so"
"$awb" new-plugin "$subs/source" --kind parameter-free >/dev/null
cp -r "$subs/source" "$subs/broken-source"
echo 'int this_does_not_compile = ;' >>"$subs/broken-source/src/student_attention.cpp"

echo "== Gradescope: the bundle in /autograder/source"
"$awb" autograder gradescope --assignment parameter-free --package "$(ls "$deb_dir"/awb_*.deb)" \
  --out "$work/autograder.zip"
unzip -t "$work/autograder.zip" | tail -1
mkdir -p "$root/autograder/source"
unzip -q "$work/autograder.zip" -d "$root/autograder/source"
cp "$root/autograder/source/run_autograder" "$root/autograder/run_autograder"
# gradescope NAME SUBMISSION: run_autograder on it, results.json kept as NAME.json
gradescope() {
  rm -rf "$root/autograder/submission" "$root/autograder/results"
  mkdir -p "$root/autograder/submission" "$root/autograder/results"
  cp -a "$2/." "$root/autograder/submission/"
  local status=0
  in_root /autograder/run_autograder >"$work/gradescope/$1.log" 2>&1 || status=$?
  echo "run_autograder on $1: exit $status"
  cp "$root/autograder/results/results.json" "$work/gradescope/$1.json" ||
    { cat "$work/gradescope/$1.log"; fail "$1: no results.json"; }
}
gradescope before-setup "$subs/plugin"
echo "== Gradescope: setup.sh"
in_root bash -c 'cd /autograder/source && bash ./setup.sh' >"$work/setup.log" 2>&1 ||
  { tail -30 "$work/setup.log"; fail "setup.sh"; }
tail -1 "$work/setup.log"
for name in plugin source broken-source broken-plugin; do gradescope "$name" "$subs/$name"; done

echo "== PrairieLearn: the folder in /grade/serverFilesCourse/awb"
"$awb" autograder prairielearn --assignment parameter-free --out "$root/grade/serverFilesCourse/awb"
# prairielearn NAME SUBMISSION: grade.sh on it, results.json kept as NAME.json
prairielearn() {
  rm -rf "$root/grade/student" "$root/grade/results"
  mkdir -p "$root/grade/student"
  cp -a "$2/." "$root/grade/student/"
  local status=0
  in_root /grade/serverFilesCourse/awb/grade.sh >"$work/prairielearn/$1.log" 2>&1 || status=$?
  echo "grade.sh on $1: exit $status"
  cp "$root/grade/results/results.json" "$work/prairielearn/$1.json" ||
    { cat "$work/prairielearn/$1.log"; fail "$1: no results.json"; }
}
prairielearn source "$subs/source"
prairielearn broken-source "$subs/broken-source"

for f in "$work"/gradescope/*.json "$work"/prairielearn/*.json; do
  echo "== ${f#"$work"/}"
  cat "$f"
done
check() { python3 "$src/tests/schema/check_gradescope.py" "$src/tests/schema/$1_results.schema.json" "$work/$1"; }
check gradescope
check prairielearn
python3 - "$work" <<'PY'
import json, pathlib, sys
work = pathlib.Path(sys.argv[1])
def load(name): return json.loads((work / name).read_text())
def fail(why): sys.exit(f"FAIL: {why}")
r = load("gradescope/before-setup.json")
if r["score"] != 0 or "awb is not installed" not in r["output"]: fail("before setup")
def points(r): return sum(t["score"] for t in r["tests"]), sum(t["max_score"] for t in r["tests"])
score, top = points(load("gradescope/plugin.json"))
if score != top or top <= 0: fail(f"gradescope plugin: {score}/{top}")
r = load("gradescope/source.json")
if any("not_gradable" in t["tags"] for t in r["tests"]) or not 0 < points(r)[0] <= top:
    fail(f"gradescope source: {points(r)}")
for t in load("gradescope/broken-source.json")["tests"]:
    if "build failed" not in t["output"] or "src/student_attention.cpp:" not in t["output"]:
        fail(f"gradescope broken-source: {t['output']}")
r = load("gradescope/broken-plugin.json")
if points(r)[0] != 0 or "not gradable" not in r["output"]: fail("gradescope broken-plugin")
r = load("prairielearn/source.json")
if not r["gradable"] or not 0 < r["score"] <= 1: fail(f"prairielearn source: {r['score']}")
r = load("prairielearn/broken-source.json")
if r["gradable"] or not r["format_errors"][0].startswith("build failed"):
    fail("prairielearn broken-source")
print("results read back as expected")
PY
echo PASS

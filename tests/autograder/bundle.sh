#!/usr/bin/env bash
# bundle.sh: `awb autograder` end to end on this machine. The Gradescope zip passes `unzip -t`,
# holds exactly the bundle's files with their modes, comes out byte-identical twice, and bad
# inputs are refused; the PrairieLearn folder likewise. Then the bundles' grade_submission.sh
# grades submissions as the platforms would run it (awb from this build through $AWB): a
# correct plugin (also wrapped in a folder of its own), a broken one, a source submission (the
# project `awb new-plugin --kind qkv` writes) and its starter with a compile error, and the fallbacks
# when awb is missing or fails; every results.json is validated against its schema in tests/schema.
#
# usage: bundle.sh AWB DEB_DIR PLUGIN_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
[[ $# -eq 5 ]] || { echo "usage: $0 AWB DEB_DIR PLUGIN_DIR SOURCE_DIR WORK_DIR" >&2; exit 2; }
awb=$1 deb=$(ls "$2"/awb_*.deb) plugins=$3 src=$4 work=$5
fixtures=$src/tests/fixtures/autograder
check() { python3 "$src/tests/schema/check_gradescope.py" "$src/tests/schema/$1_results.schema.json" "${@:2}"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/out"

# refused COMMAND...: exits 2 naming autograder.usage (or CLI11's complaint).
refused() {
  local status=0
  "$@" >"$work/refused.log" 2>&1 || status=$?
  [[ $status -eq 2 ]] || { cat "$work/refused.log"; fail "exit $status, not 2: $*"; }
}

echo "== the Gradescope zip"
"$awb" autograder gradescope --assignment "$fixtures/course.yaml" --package "$deb" \
  --out "$work/autograder.zip"
unzip -t "$work/autograder.zip" | tee "$work/unzip-t.log" | tail -1
grep -q '^No errors detected' "$work/unzip-t.log" || fail "unzip -t"
listing=$(zipinfo "$work/autograder.zip" | awk '$1 ~ /^[-d]/ { print $1, $NF }' | sort -k2)
expected="-rw-r--r-- assignment/assignment.yaml
-rw-r--r-- assignment/extra/seeded-qkv.yaml
-rw-r--r-- awb.deb
-rw-r--r-- exercises/why-qkv.yaml
-rwxr-xr-x grade_submission.sh
-rwxr-xr-x run_autograder
-rwxr-xr-x setup.sh"
[[ $listing == "$expected" ]] || { echo "$listing"; fail "the zip's files"; }
"$awb" autograder gradescope --assignment "$fixtures/course.yaml" --package "$deb" \
  --out "$work/again.zip" 2>/dev/null
cmp "$work/autograder.zip" "$work/again.zip" || fail "two bundles of the same files differ"
# A bundled assignment by name: its exercises, each by id.
"$awb" autograder gradescope --assignment qkv --package "$deb" --out "$work/qkv.zip" 2>/dev/null
[[ $(zipinfo -1 "$work/qkv.zip" | grep -c '^exercises/') -eq 8 ]] || fail "qkv's 8 exercises"
refused "$awb" autograder gradescope --assignment "$fixtures/outside.yaml" --package "$deb" \
  --out "$work/x.zip"
grep -q 'autograder.usage.*outside the assignment' "$work/refused.log" || fail "outside.yaml"
refused "$awb" autograder gradescope --assignment qkv --package "$src/README.md" --out "$work/x.zip"
grep -q 'is not a Debian package' "$work/refused.log" || fail "a package that is not one"
refused "$awb" autograder gradescope --assignment qkv --out "$work/x.zip"
refused "$awb" autograder gradescope --assignment no-such --package "$deb" --out "$work/x.zip"
[[ ! -e $work/x.zip ]] || fail "a refused bundle was written"

echo "== the PrairieLearn folder"
"$awb" autograder prairielearn --assignment "$fixtures/course.yaml" --out "$work/pl"
[[ -x $work/pl/grade.sh && -x $work/pl/grade_submission.sh ]] || fail "scripts not executable"
cmp "$work/pl/assignment/extra/seeded-qkv.yaml" "$fixtures/extra/seeded-qkv.yaml"
refused "$awb" autograder prairielearn --assignment qkv --out "$work/pl"

echo "== grading as the platforms do"
mkdir -p "$work/gs"
(cd "$work/gs" && unzip -q "$work/autograder.zip")
subs=$work/submissions
mkdir -p "$subs/correct" "$subs/wrapped/my-attention" "$subs/broken"
cp "$plugins/awb_qkv.so" "$subs/correct/attention.so"
cp "$plugins/awb_qkv.so" "$subs/wrapped/my-attention/attention.so"
echo "not a shared library" >"$subs/broken/attention.so"
"$awb" new-plugin "$subs/source" --kind qkv >/dev/null
# The broken one from the starter: a compiler spends as long on the solution's templates after
# an error as without it, and one error is what this needs.
"$awb" new-plugin "$subs/source-broken" --kind qkv --starter >/dev/null
echo 'int this_does_not_compile = ;' >>"$subs/source-broken/src/student_attention.cpp"

# grade FORMAT BUNDLE NAME SUBMISSION EXPECTED_STATUS [options...]: grade_submission.sh's results
grade() {
  local format=$1 bundle=$2 name=$3 sub=$4 want=$5 status=0
  shift 5
  AWB=${AWB_OVERRIDE:-$awb} "$bundle/grade_submission.sh" "$format" "$sub" \
    "$work/out/$format/$name.json" "$@" >"$work/out/$format-$name.log" 2>&1 || status=$?
  [[ $status -eq $want ]] || { cat "$work/out/$format-$name.log"; fail "$format $name: exit $status"; }
}
grade gradescope "$work/gs" correct "$subs/correct" 0
grade gradescope "$work/gs" wrapped "$subs/wrapped" 0
grade gradescope "$work/gs" broken "$subs/broken" 0
grade gradescope "$work/gs" source "$subs/source" 0
grade gradescope "$work/gs" source-broken "$subs/source-broken" 0
AWB_OVERRIDE=/nonexistent/awb grade gradescope "$work/gs" no-awb "$subs/correct" 1
AWB_OVERRIDE=false grade gradescope "$work/gs" awb-fails "$subs/correct" 1
grade gradescope "$work/gs" no-submission "$work/nothing-here" 1
grade prairielearn "$work/pl" correct "$subs/correct" 0 --view student
grade prairielearn "$work/pl" broken "$subs/broken" 0 --view student
grade prairielearn "$work/pl" source-broken "$subs/source-broken" 0 --view student
AWB_OVERRIDE=/nonexistent/awb grade prairielearn "$work/pl" no-awb "$subs/correct" 1
check gradescope "$work/out/gradescope"
check prairielearn "$work/out/prairielearn"

# What each file says, read as the platform reads it.
python3 - "$work/out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
def load(name): return json.loads((out / name).read_text())
def fail(why): sys.exit(f"FAIL: {why}")

for name in ("correct", "wrapped"):
    r = load(f"gradescope/{name}.json")
    score = sum(t["score"] for t in r["tests"]); top = sum(t["max_score"] for t in r["tests"])
    if not r["tests"] or score != top or top <= 0: fail(f"gradescope {name}: {score}/{top}")
    if any(t["status"] != "passed" for t in r["tests"]): fail(f"gradescope {name}: a failed test")
    if not any(t["visibility"] == "hidden" for t in r["tests"]): fail(f"{name}: the hidden check")
if load("gradescope/wrapped.json")["tests"] != load("gradescope/correct.json")["tests"]:
    fail("a submission wrapped in a folder grades differently")
broken = load("gradescope/broken.json")
if sum(t["score"] for t in broken["tests"]) != 0: fail("gradescope broken: points")
if not all("not_gradable" in t["tags"] for t in broken["tests"]): fail("broken: not gradable")
# A project that builds (awb new-plugin's Q/K/V solution) is graded like the built plugin: the
# same tests and maximum, every one passed.
source = load("gradescope/source.json")
def maxima(r): return [(t["name"], t["max_score"]) for t in r["tests"]]
if maxima(source) != maxima(load("gradescope/correct.json")): fail("another maximum")
if any(t["status"] != "passed" for t in source["tests"]): fail("the source project lost points")
# One that does not build is not gradable, with the compiler's error as a path in the project.
for t in load("gradescope/source-broken.json")["tests"]:
    if "not_gradable" not in t["tags"] or "build failed" not in t["output"]: fail(f"{t}")
    if "src/student_attention.cpp:" not in t["output"] or "error:" not in t["output"]:
        fail(f"no compiler error in {t['output']}")
for name, why in (("no-awb", "awb is not installed"), ("awb-fails", "exit status 1"),
                  ("no-submission", "no submission folder")):
    r = load(f"gradescope/{name}.json")
    if r["score"] != 0 or r["tests"] or why not in r["output"]: fail(f"gradescope {name}: {r}")

pl = load("prairielearn/correct.json")
if not pl["gradable"] or pl["score"] != 1.0: fail(f"prairielearn correct: {pl['score']}")
if any(t["name"] == "seeded-qkv: rows-sum-to-one" for t in pl["tests"]):
    fail("a hidden check shown to the student")
pl = load("prairielearn/broken.json")
if pl["gradable"] or not pl["format_errors"]: fail("prairielearn broken: gradable")
pl = load("prairielearn/source-broken.json")
if pl["gradable"] or not pl["format_errors"][0].startswith("build failed"): fail("pl build")
pl = load("prairielearn/no-awb.json")
if pl["gradable"] or "awb is not installed" not in pl["format_errors"][0]: fail("pl no-awb")
print("results read back as expected")
PY
echo PASS

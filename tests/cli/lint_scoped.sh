#!/usr/bin/env bash
# lint_scoped.sh AWB EXERCISES: `awb lint` scoped to what is graded. A folder holding one Q/K/V
# exercise (in a subfolder) and an assignment naming it lints clean: the matrix covers the qkv
# kind alone, the assignment is linted as an assignment. A mistake caught only by hidden checks
# (or only by after_due_date ones) is reported apart, in what a student sees.
set -u
awb=$1
exercises=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; cat "$tmp/out"; exit 1; }

mkdir -p "$tmp/extra/lessons"
cp "$exercises/qkv-stability.yaml" "$tmp/extra/lessons/"
cat >"$tmp/extra/extra.yaml" <<'YAML'
awb-assignment: 1
id: extra
title: "One Q/K/V exercise"
variant:
  capabilities: [qkv]
exercises:
  - {id: qkv-stability, points: 10}
due: 2026-12-15
YAML

"$awb" lint "$tmp/extra" >"$tmp/out" 2>&1 || fail "lint of the folder exited $?"
grep -q "^Kinds linted: qkv (those the exercises are of)" "$tmp/out" || fail "kinds linted"
grep -q "0 applicable (mutant, kind) pair(s) escaping the set$" "$tmp/out" || fail "an escape"
grep -q "^ok    assignment extra (.*extra.yaml): 1 exercise(s), 10 points" "$tmp/out" ||
  fail "the assignment is not linted as one"
grep -q "1 exercise file(s), 1 exercise(s) loaded, 1 assignment(s), 0 problem(s)" "$tmp/out" ||
  fail "summary"

"$awb" lint --assignment "$tmp/extra/extra.yaml" "$tmp/extra" >"$tmp/out" 2>&1 ||
  fail "lint --assignment exited $?"
grep -q "^Kinds linted: qkv (the narrowest the assignment grades)" "$tmp/out" || fail "kinds"
grep -q "^Caught only by checks a student does not see: none" "$tmp/out" || fail "unseen: none"

# no-scale is caught only by the two reference checks: hidden, a student never sees it fail.
sed -i 's/^    kind: reference$/    kind: reference\n    visibility: hidden/' \
  "$tmp/extra/lessons/qkv-stability.yaml"
"$awb" lint --assignment "$tmp/extra/extra.yaml" "$tmp/extra" >"$tmp/out" 2>&1 ||
  fail "lint --assignment (hidden) exited $?"
grep -A1 "^  no-scale (qkv), only by hidden checks: qkv-stability/matches-reference, qkv-stability/matches-reference-in-f32$" "$tmp/out" |
  grep -q "sees full marks in the student view, and never a check it fails$" ||
  fail "no-scale caught only by hidden checks is not reported"
grep -q "^  no-scale  *0 \*\*" "$tmp/out" || fail "the matrix does not mark the hidden-only catch"
# ... and after_due_date ones: full marks until after the due date.
sed -i 's/visibility: hidden/visibility: after_due_date/' "$tmp/extra/lessons/qkv-stability.yaml"
"$awb" lint --assignment "$tmp/extra/extra.yaml" "$tmp/extra" >"$tmp/out" 2>&1 ||
  fail "lint --assignment (after due) exited $?"
grep -A1 "^  no-scale (qkv), only by after_due_date checks: " "$tmp/out" |
  grep -q "sees full marks in the student view until after the due date (2026-12-15T23:59:59Z)$" ||
  fail "no-scale caught only after the due date is not reported"

# An assignment graded on a variant that cannot run its checks (causal-only, unmasked checks)
# leaves no kind to lint: a failure, not a pass.
sed 's/^  capabilities: \[qkv\]$/  id: causal/' "$tmp/extra/extra.yaml" >"$tmp/causal.yaml"
"$awb" lint --assignment "$tmp/causal.yaml" "$tmp/extra" >"$tmp/out" 2>&1
[[ $? == 1 ]] || fail "an assignment with no kind to lint did not exit 1"
grep -q "^Mutants: no kind to lint: no variant kind of the mutants can run every check" \
  "$tmp/out" || fail "no kind to lint: not said"

# A folder of assignments alone looks their ids up among the bundled exercises.
mkdir "$tmp/only"
cp "$tmp/extra/extra.yaml" "$tmp/only/"
"$awb" lint "$tmp/only" >"$tmp/out" 2>&1 || fail "a folder of assignments exited $?"
grep -q "ids among the bundled exercises" "$tmp/out" || fail "ids looked up elsewhere"
# awb exercises (and grade --exercises) leave an assignment in a folder alone.
"$awb" exercises "$tmp/extra/lessons" "$tmp/only" >"$tmp/out" 2>&1 ||
  fail "awb exercises read the assignment as an exercise"

# The bundled qkv assignment lints clean.
"$awb" lint --assignment qkv >"$tmp/out" 2>&1 || fail "lint --assignment qkv exited $?"
grep -q "^assignment qkv: 0 exercise(s) the reference cannot pass, 0 applicable" "$tmp/out" ||
  fail "qkv summary"
echo PASS

#!/usr/bin/env bash
# export_student.sh AWB EXERCISES: `awb exercises export --student` end to end. Every bundled
# exercise gets a copy that awb loads, without hidden checks or their expected values; with
# --after-due the after_due_date checks come along, the hidden ones still do not.
set -u
awb=$1
exercises=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$awb" exercises export "$exercises" --student "$tmp/plain" >"$tmp/out" || fail "export exited $?"
for f in "$exercises"/*.yaml; do
  name=$(basename "$f")
  [[ -f "$tmp/plain/$name" ]] || fail "no student copy of $name"
  grep -q "wrote $tmp/plain/$name" "$tmp/out" || fail "export did not report $name"
done
"$awb" exercises "$tmp/plain" >/dev/null || fail "the student copies do not load"
grep -l "visibility: hidden" "$tmp/plain"/*.yaml && fail "a hidden check reached a student copy"
# journey's hidden context-of-journey check: its id and its expected context vector.
grep -q "context-of-journey\|0\.4419" "$tmp/plain/journey.yaml" && fail "journey: hidden answer"
grep -q "^# Student copy: 2 check(s) not visible" "$tmp/plain/journey.yaml" ||
  fail "journey: no note of what was left out"

# An after_due_date check: left out by default, kept with --after-due.
sed '0,/visibility: hidden/s//visibility: after_due_date/' "$exercises/journey.yaml" \
  >"$tmp/journey.yaml"
"$awb" exercises export "$tmp/journey.yaml" --student "$tmp/before" >/dev/null || fail "export"
"$awb" exercises export "$tmp/journey.yaml" --student "$tmp/after" --after-due >/dev/null ||
  fail "export --after-due"
grep -q "0\.4419" "$tmp/before/journey.yaml" && fail "after_due_date check before the due date"
grep -q "0\.4419" "$tmp/after/journey.yaml" || fail "--after-due left the after_due_date check out"
grep -q "permutation-equivariant" "$tmp/after/journey.yaml" && fail "--after-due kept a hidden check"
"$awb" exercises "$tmp/after" >/dev/null || fail "the --after-due copy does not load"

# --student is required.
"$awb" exercises export "$exercises" >/dev/null 2>&1 && fail "export without --student succeeded"
echo PASS

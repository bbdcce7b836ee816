#!/usr/bin/env bash
# source_batch.sh AWB PLUGIN_DIR WORK: a batch of source and built submissions. A
# project that builds is graded like a built plugin; one that does not compile is not gradable
# with the compiler's first error (as a path inside the submission) in its feedback, and the
# gradebooks (roster.csv, grades.csv) stay numbers with one maximum and one-line comments; a
# resume builds nothing again and grades nothing again. The projects are `awb new-plugin`'s starter,
# which builds in a tenth of the solution's time (a solution built from source earns full marks
# in tests/autograder/bundle.sh and tests/sdk_consumer).
set -u
awb=$1 plugins=$2 work=$3
rm -rf "$work"
mkdir -p "$work/class"
"$awb" new-plugin "$work/class/alice" --kind parameter-free --starter > /dev/null || exit 1
cp -r "$work/class/alice" "$work/class/bob"
echo 'int this_does_not_compile = ;' >> "$work/class/bob/src/student_attention.cpp"
mkdir "$work/class/carol" && cp "$plugins/awb_parameter_free.so" "$work/class/carol/"
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

"$awb" grade --batch "$work/class" --assignment parameter-free --out "$work/results" \
  > "$work/first.out" 2>&1 || fail "the batch exited $?: $(tail -3 "$work/first.out")"
roster="$work/results/roster.csv"
cat "$roster"
# The roster counts every check (42), not only those the default student view shows (35).
grep -q '^alice,0,0,0,0,0,42,0,0,graded,' "$roster" || fail "alice's starter was not graded (0/42)"
grep -q 'TODO left in the starter: write the scores S' "$work/results/gradescope/alice.json" ||
  fail "alice's feedback does not name the step to write"
grep -q '^carol,.*,graded,' "$roster" || fail "carol's plugin was not graded"
grep -q '^bob,0,0,0,0,0,42,0,0,not gradable,"\?not gradable: build failed: the build step failed' \
  "$roster" || fail "bob is not 'not gradable: build failed'"
grep -q 'src/student_attention.cpp:[0-9]*:[0-9]*: error:' "$work/results/gradescope/bob.json" ||
  fail "bob's feedback lacks the compiler's error"
# The gradebooks: bob's compiler errors on one line of each, numbers in the score columns.
python3 "$(dirname "$0")/gradebook_check.py" "$work/results" bob ||
  fail "the gradebooks of a batch with a broken project are not numbers, one maximum, one line"
if grep -q "awb-build-" "$work/results/gradescope/bob.json"; then
  fail "bob's feedback names the sandbox's folder"
fi
entries=$(find "$work/results/builds" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | wc -l)
[ "$entries" -eq 2 ] || fail "$entries build cache entries, expected 2"
# Nanosecond times: a rebuild rewrites the outcome, however soon after the first run.
before=$(stat -c %.9Y "$work"/results/builds/*/outcome | sort | tr '\n' ' ')

"$awb" grade --batch "$work/class" --assignment parameter-free --out "$work/results" --resume \
  > "$work/resume.out" 2>&1 || fail "the resume exited $?"
tail -1 "$work/resume.out"
grep -q ' 0 result(s) graded, 12 taken from the journal' "$work/resume.out" ||
  fail "the resume graded again: $(tail -1 "$work/resume.out")"
after=$(stat -c %.9Y "$work"/results/builds/*/outcome | sort | tr '\n' ' ')
[ "$before" = "$after" ] || fail "the resume built again"

if [ "$failures" -eq 0 ]; then echo PASS; else echo "$failures failure(s)"; exit 1; fi

#!/usr/bin/env bash
# sandbox_fault.sh AWB WORK: a build sandbox that cannot start is the grader's fault, never the
# student's: the batch ends with exit 1 naming it, nothing of the submission is journaled, and a
# --resume once the sandbox works builds and grades it. The sandbox is kept from starting by a
# temporary folder that does not exist (TMPDIR), where its build folder would be made.
set -u
awb=$1 work=$2
rm -rf "$work"
mkdir -p "$work/subs"
"$awb" new-plugin "$work/subs/alice" --kind parameter-free --starter > /dev/null || exit 1
fail() { echo "FAIL: $*"; exit 1; }
options=(--assignment parameter-free)
TMPDIR="$work/no-such-folder" "$awb" grade --batch "$work/subs" --out "$work/results" \
  "${options[@]}" > "$work/first.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "the batch exited $rc, expected 1: $(tail -5 "$work/first.out")"
grep -q "alice was not graded: mend the build sandbox and run again with --resume" \
  "$work/first.out" || fail "the fault is not named: $(tail -5 "$work/first.out")"
if grep -qs '"alice"' "$work/results/journal.jsonl"; then fail "alice was journaled"; fi
echo "sandbox down: exit 1, $(grep -o 'build.sandbox_failed[^;]*' "$work/first.out" | head -1)"
"$awb" grade --batch "$work/subs" --out "$work/results" "${options[@]}" --resume \
  > "$work/resume.out" 2>&1 || fail "the resume exited $?: $(tail -5 "$work/resume.out")"
grep -q '^alice,.*,graded,' "$work/results/roster.csv" ||
  fail "alice was not graded on resume: $(cat "$work/results/roster.csv")"
echo "resumed: alice graded"
echo PASS

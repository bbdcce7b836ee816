#!/bin/sh
# A batch over good, buggy and hostile submissions completes, gives a reason for every row that
# was not graded, and leaves no runner behind.
# usage: batch_mixed.sh AWB HOSTILE_DIR NEUTRAL_DIR EXERCISES WORK
set -eu
awb=$1 hostile=$2 neutral=$3 exercises=$4 work=$5
rm -rf "$work" && mkdir -p "$work/subs"
for c in good null_deref sleep fork_bomb static_ctor_crash forged_frame stdout_flood \
         huge_allocation read_passwd; do
  mkdir "$work/subs/$c" && cp "$hostile/hostile_$c.so" "$work/subs/$c/"
done
mkdir "$work/subs/buggy" && cp "$neutral/submission_1.so" "$work/subs/buggy/"
mkdir "$work/subs/nothing"
# The instructor view (grades.csv, a gradebook, counts the hidden checks whatever the view).
"$awb" grade --batch "$work/subs" --exercises "$exercises" --exercise journey \
  --out "$work/results" -j 2 --wall-limit 2 --view instructor
fail() { echo "FAIL: $*"; exit 1; }
csv="$work/results/grades.csv" junit="$work/results/junit.xml"
for row in good null_deref sleep fork_bomb static_ctor_crash forged_frame stdout_flood \
           huge_allocation read_passwd buggy nothing; do
  grep -q "^$row" "$csv" || fail "no row for $row in grades.csv"
done
grep -q '^good,13,13,13' "$csv" || fail "the good submission did not get full marks"
grep -q '^nothing,0,0,13,not gradable,"\?not gradable: discover: no plugin file' "$csv" ||
  fail "no reason for 'nothing'"
grep -q '^static_ctor_crash,0,0,13,not gradable,"\?not gradable: .*crashed: SIGSEGV' "$csv" ||
  fail "no reason for the crash on load"
for reason in 'crashed: SIGSEGV' 'wall-clock limit of 2 s exceeded' 'forbidden system call: clone' \
              'forged frame' 'printed more than' 'ran out of memory' 'Permission denied'; do
  grep -q "$reason" "$junit" || fail "junit.xml names no '$reason'"
done
# Runners of this batch name its submissions folder on their command line.
if pgrep -af "awb-runner.*$work/subs"; then fail "a runner was left behind"; fi
echo "batch over good, buggy and hostile submissions: every row has a reason, no runner left"

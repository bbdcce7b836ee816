#!/usr/bin/env bash
# soak.sh: batch grading under abuse. Grades a generated class once without interruption, then
# again while SIGKILLing awb at random moments (--kills times, resuming after each) and filling
# the disk once while it publishes (AWB_TEST_FAULT, host/core/grading/batch_fault.hpp); after every kill
# RESULTS must read as one whole set or none (only a finished run publishes), and the final
# reports must be byte-identical to the uninterrupted run's.
#
# Then the class is graded in 2 shards and merged (--merges rounds): two merges into one folder at
# once, one of them SIGKILLed at a random moment; after each round the folder holds one whole set
# (the class's) or none, and the final merge's reports are the uninterrupted run's, byte for byte.
#
# --sources N of the submissions are source projects (the new-plugin starter under N names), built
# in the build sandbox by every run, killed builds included: the reports stay byte-identical only
# because builds are reproducible.
#
# usage: soak.sh AWB [--submissions N] [--kills K] [--merges M] [--sources N] [--seed S]
#                    [--work DIR] [--plugin-dir DIR] [--mutant-dir DIR] [--jobs J]
# (defaults: 500 submissions, 50 kills, 10 merges, 2 sources, plugins and mutants beside AWB's
# build tree)
set -euo pipefail
[[ $# -ge 1 ]] || { sed -n '2,10p' "$0" >&2; exit 2; }
awb=$(realpath "$1"); shift
build=$(dirname "$(dirname "$awb")")
subs_n=500 kills=50 merges=10 sources=2 seed=$$ work=${TMPDIR:-/tmp}/awb-soak jobs=2
plugin_dir=$build/plugins mutant_dir=$build/mutants
while [[ $# -gt 0 ]]; do
  case $1 in
    --submissions) subs_n=$2 ;; --kills) kills=$2 ;; --merges) merges=$2 ;; --seed) seed=$2 ;;
    --sources) sources=$2 ;;
    --work) work=$2 ;;
    --plugin-dir) plugin_dir=$2 ;; --mutant-dir) mutant_dir=$2 ;; --jobs) jobs=$2 ;;
    *) echo "soak.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
here=$(cd "$(dirname "$0")" && pwd)
source "$here/report_set_check.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
RANDOM=$seed
echo "soak: $subs_n submissions ($sources source projects), $kills kills, $merges merge rounds," \
  "seed $seed, work $work"

rm -rf "$work"
mkdir -p "$work/files" "$work/subs"
# The plugins without debug info (hashing stays cheap), shared by hard link where possible.
for f in "$plugin_dir"/*.so "$mutant_dir"/*.so; do
  objcopy --strip-debug "$f" "$work/files/$(basename "$f")" 2>/dev/null || cp "$f" "$work/files/"
done
files=("$work"/files/*.so)
for i in $(seq 1 "$subs_n"); do
  printf -v sub '%s/subs/%04d' "$work" "$i"
  mkdir "$sub"
  # One in 25 hands in nothing (not gradable); the rest a plugin or a mutant, in turn.
  (( i % 25 == 0 )) && continue
  f=${files[$((i % ${#files[@]}))]}
  ln "$f" "$sub/plugin.so" 2>/dev/null || cp "$f" "$sub/plugin.so"
done
for i in $(seq 1 "$sources"); do
  "$awb" new-plugin "$work/subs/source-$i" --kind parameter-free --starter --name "soak-$i" \
    > /dev/null || fail "new-plugin"
done

grade() {  # grade OUT [args...]: started directly, so that SIGKILL hits awb itself
  local out=$1; shift
  exec "$awb" grade --batch "$work/subs" --exercise journey --exercise animal-road \
    --out "$out" -j "$jobs" "$@"
}
ms() { date +%s%3N; }

t0=$(ms)
(grade "$work/ref") 2> "$work/ref.log" || fail "the uninterrupted run: $(tail -2 "$work/ref.log")"
t_ref=$(($(ms) - t0))
echo "uninterrupted: $t_ref ms, $(wc -l < "$work/ref/journal.jsonl") results"

# Each kill lands at a random moment of a window: a fair share of the uninterrupted run at
# first; once a run finishes before its kill, that run's length (later runs only publish).
window=$((2 * t_ref / kills + 50))
landed=0 attempts=0 completed=0 out=$work/out
first=(); [[ -d $out ]] || first=()
while (( landed < kills && attempts < 4 * kills )); do
  attempts=$((attempts + 1))
  resume=(--resume); (( attempts == 1 )) && resume=()
  start=$(ms)
  (grade "$out" "${resume[@]}") 2>> "$work/soak.log" 3>&- &
  pid=$!
  delay=$((RANDOM * 32768 + RANDOM))
  delay=$((delay % window))
  sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  kill -KILL "$pid" 2>/dev/null || true
  set +e; wait "$pid"; rc=$?; set -e
  if (( rc == 137 )); then
    landed=$((landed + 1))
    lines=$( (wc -l < "$out/journal.jsonl") 2>/dev/null || echo 0)
    echo "kill $landed: after $delay ms, the journal at $lines results"
  elif (( rc == 0 )); then
    completed=$((completed + 1))
    window=$(($(ms) - start + 10))
  else
    fail "run $attempts exited $rc: $(tail -2 "$work/soak.log")"
  fi
  whole_set "$out" || fail "after run $attempts (exit $rc)"
  state=$(set_state "$out" none "$work/ref")
  [[ $state == none || $state == new ]] || fail "after run $attempts: a set that is not the class's"
done
(( landed == kills )) || fail "only $landed of $attempts kills landed"

# The disk fills once, at a random step of publishing the reports.
step=$((RANDOM % 8 + 1))
set +e
AWB_TEST_FAULT=enospc-at-report:$step "$awb" grade --batch "$work/subs" --exercise journey \
  --exercise animal-road --out "$out" -j "$jobs" --resume 2> "$work/full.log"
rc=$?
set -e
(( rc == 1 )) || fail "the full disk at step $step: exit $rc, expected 1"
grep -q -- '--resume' "$work/full.log" || fail "the full disk: --resume not said"
whole_set "$out" || fail "after the full disk"

(grade "$out" --resume) 2> "$work/final.log" || fail "the final resume: $(tail -2 "$work/final.log")"
whole_set "$out" && no_strays "$out" || fail "after the final resume"
cmp "$out/grades.csv" "$work/ref/grades.csv"
cmp "$out/junit.xml" "$work/ref/junit.xml"
diff -r "$out/gradescope/" "$work/ref/gradescope/" || fail "gradescope/ differs"
n=$(ls "$out/gradescope" | wc -l)
(( n == subs_n + sources )) || fail "$n Gradescope files for $((subs_n + sources)) submissions"
dups=$(sed -e 's/"plugin_file":.*//' "$out/journal.jsonl" | sort | uniq -d | wc -l)
(( dups == 0 )) || fail "$dups duplicate journal keys"
echo "soak: $landed kills landed in $attempts runs ($completed finished before their kill)," \
     "a full disk at report step $step; final reports byte-identical to the uninterrupted" \
     "run's ($n Gradescope files), no duplicate journal keys, nothing left behind"

# Merges: two at once into one folder, one killed at a random moment of its run. Each is
# refused while the other holds the folder (exit 1, batch.results_locked) or publishes the class.
for i in 0 1; do
  (grade "$work/shard-$i" --shard "$i/2") 2>> "$work/shards.log" ||
    fail "shard $i/2: $(tail -2 "$work/shards.log")"
done
merge() { exec "$awb" grade merge "$work/shard-0" "$work/shard-1" --out "$work/merged"; }
t0=$(ms)
(merge) 2> "$work/merge.log" || fail "the first merge: $(tail -2 "$work/merge.log")"
window=$(($(ms) - t0 + 20))
published=0 refused=0 killed=0
for round in $(seq 1 "$merges"); do
  (merge) 2>> "$work/merge.log" 3>&- &
  a=$!
  (merge) 2>> "$work/merge.log" 3>&- &
  b=$!
  delay=$(((RANDOM * 32768 + RANDOM) % window))
  sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  kill -KILL "$a" 2>/dev/null || true
  for p in "$a" "$b"; do
    set +e; wait "$p"; rc=$?; set -e
    case $rc in
      0) published=$((published + 1)) ;;
      1) refused=$((refused + 1)) ;;
      137) killed=$((killed + 1)) ;;
      *) fail "merge round $round: exit $rc: $(tail -2 "$work/merge.log")" ;;
    esac
  done
  whole_set "$work/merged" || fail "after merge round $round"
  state=$(set_state "$work/merged" none "$work/ref")
  [[ $state == none || $state == new ]] || fail "after merge round $round: a set that is not the class's"
done
grep -v 'batch.results_locked\|^merge: ' "$work/merge.log" | grep . &&
  fail "a merge failed otherwise than refused for the lock"
(merge) 2>> "$work/merge.log" || fail "the final merge: $(tail -2 "$work/merge.log")"
whole_set "$work/merged" && no_strays "$work/merged" || fail "after the final merge"
same_reports "$work/merged" "$work/ref" > /dev/null || fail "the merged reports differ from the run's"
echo "soak: $merges merge rounds: $published published, $refused refused while the other held" \
     "the folder, $killed killed; the folder held one whole set after each; the final merge" \
     "byte-identical to the uninterrupted run"
echo PASS

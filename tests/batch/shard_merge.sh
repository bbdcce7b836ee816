#!/usr/bin/env bash
# shard_merge.sh: a class graded in 4 shards (awb grade --batch ... --shard I/4, one after the
# other) and merged (awb grade merge) gives the bytes of one unsharded run: grades.csv,
# junit.xml, roster.csv (its identical-file comments crossing shards) and every
# gradescope/*.json. On one machine, one shard after the other: no cluster needed.
#
# usage: shard_merge.sh AWB COURSE_DIR MUTANT_DIR PLUGIN_DIR WORK_DIR
set -euo pipefail
if [[ $# -ne 5 ]]; then
  echo "usage: $0 AWB COURSE_DIR MUTANT_DIR PLUGIN_DIR WORK_DIR" >&2
  exit 2
fi
awb=$1 course=$2 mutants=$3 plugins=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
source "$here/report_set_check.sh"
options=(--assignment qkv --view instructor)
limit=300  # seconds, per awb run: a hang fails the test instead of stalling ctest

fail() { echo "FAIL: $*" >&2; exit 1; }
ms() { echo $((($(date +%s%N) - $1) / 1000000)); }

rm -rf "$work"
mkdir -p "$work"
n=$(python3 "$here/make_class.py" "$course" "$mutants" "$plugins" "$work/subs" --mutants 5)
echo "class: $n submissions"

start=$(date +%s%N)
timeout "$limit" "$awb" grade --batch "$work/subs" --out "$work/whole" -j 2 "${options[@]}" \
  2>"$work/whole.log" || fail "the unsharded run exited $? ($(tail -3 "$work/whole.log"))"
echo "unsharded: $(tail -1 "$work/whole.log") [$(ms "$start") ms]"

start=$(date +%s%N)
for i in 0 1 2 3; do
  timeout "$limit" "$awb" grade --batch "$work/subs" --out "$work/sharded/shard-$i" -j 2 \
    --shard "$i/4" "${options[@]}" 2>"$work/shard-$i.log" ||
    fail "shard $i/4 exited $? ($(tail -3 "$work/shard-$i.log"))"
  echo "  $(tail -1 "$work/shard-$i.log")"
done
"$awb" grade merge "$work"/sharded/shard-* --out "$work/sharded" "${options[@]}" \
  2>"$work/merge.log" || fail "merge exited $? ($(cat "$work/merge.log"))"
echo "4 shards + $(cat "$work/merge.log") [$(ms "$start") ms]"

whole_set "$work/sharded" || fail "the merged reports are not one whole set"
same_reports "$work/whole" "$work/sharded" || fail "the merged reports differ from the unsharded run's"
grep -q '^01-correct,.*identical to the file graded for 07-two-files' "$work/sharded/roster.csv" ||
  fail "the roster does not flag 01-correct and 07-two-files (shards 0 and 3) as identical"

# A shard left out is named, with its error id and exit code.
set +e
"$awb" grade merge "$work"/sharded/shard-{0,1,3} --out "$work/partial" "${options[@]}" 2>"$work/partial.log"
rc=$?
set -e
cat "$work/partial.log"
[[ $rc -eq 2 ]] && grep -q 'batch.shard_missing.*shard(s) 2 of 4' "$work/partial.log" ||
  fail "merging without shard 2 exited $rc"
echo "PASS"

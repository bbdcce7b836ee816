#!/usr/bin/env bash
# results_guard.sh: a results folder never costs a user's data. One case per run:
#   owner    a batch or a merge into a folder awb did not create is refused, every file kept;
#            a file the user put into awb's own folder survives the next publish
#   lock     two merges and a batch at once into one folder, round after round: the published
#            set stays whole; a folder held by another process is refused naming its pid
#   enospc   a full disk while a source build is stored: exit 1, the submission not graded; the
#            resume builds and grades it (never "not gradable")
#   notes    a file added to, then removed from, a submission between runs: the resume's
#            comment follows the tree, in a batch and in a merge
#   journal  a FIFO, a link to /dev/zero and a 2 GiB (sparse) file as journal.jsonl: refused at
#            once (batch, resume and merge), never a hang or a read of gigabytes
#   options  shards graded with different --cpu-limit: the merge is refused, naming the option;
#            a not-gradable result's provenance says its sha256 is the folder digest
#
# usage: results_guard.sh AWB PLUGIN_DIR BROKEN_DIR WORK_DIR CASE
set -uo pipefail
if [[ $# -ne 5 ]]; then
  echo "usage: $0 AWB PLUGIN_DIR BROKEN_DIR WORK_DIR CASE" >&2
  exit 2
fi
awb=$1 plugins=$2 broken=$3 work=$4 case=$5
here=$(cd "$(dirname "$0")" && pwd)
source "$here/report_set_check.sh"
limit=120  # seconds, per awb run: a hang fails the test instead of stalling ctest
options=(--assignment parameter-free)

fail() { echo "FAIL: $*" >&2; exit 1; }
# run NAME ARGS...: awb ARGS with its exit code in $rc and its stderr in $work/NAME.log
run() {
  local name=$1
  shift
  timeout "$limit" "$awb" "$@" >"$work/$name.log" 2>&1
  rc=$?
  ((rc != 124)) || fail "$name: awb hung (killed after $limit s)"
}
expect() {  # expect NAME RC PATTERN: the run NAME exited RC and said PATTERN
  [[ $rc -eq $2 ]] || fail "$1: exit $rc, expected $2 ($(tail -3 "$work/$1.log"))"
  grep -q -- "$3" "$work/$1.log" || fail "$1: no '$3' in: $(tail -3 "$work/$1.log")"
  echo "ok: $1: exit $rc, $(grep -m1 -o -- "$3.*" "$work/$1.log" | cut -c1-150)"
}
tree_sums() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

rm -rf "$work"
mkdir -p "$work/class"
for s in ada bob cyd dee eve fay; do
  mkdir "$work/class/$s"
  cp "$plugins/awb_parameter_free.so" "$work/class/$s/"
done

shards() {  # shards [OPTIONS OF SHARD 1]: the class in 2 shards, $work/shard-0 and -1
  run shard0 grade --batch "$work/class" --out "$work/shard-0" --shard 0/2 "${options[@]}"
  [[ $rc -eq 0 ]] || fail "shard 0/2 exited $rc ($(tail -3 "$work/shard0.log"))"
  run shard1 grade --batch "$work/class" --out "$work/shard-1" --shard 1/2 "${options[@]}" "$@"
  [[ $rc -eq 0 ]] || fail "shard 1/2 exited $rc ($(tail -3 "$work/shard1.log"))"
}

case $case in
owner)
  # A folder of the user's: reports of their own, a gradescope/ folder, a generation-like name.
  user=$work/mine
  mkdir -p "$user/gradescope" "$user/reports.5"
  echo "name,score" >"$user/grades.csv"
  echo "student" >"$user/roster.csv"
  echo '{}' >"$user/gradescope/ada.json"
  echo "keep" >"$user/reports.5/notes.txt"
  before=$(tree_sums "$user")
  run batch_into_user grade --batch "$work/class" --out "$user" "${options[@]}"
  expect batch_into_user 2 'batch.out_not_awb.*--out names an existing folder that awb did not create'
  shards
  run merge_into_user grade merge "$work/shard-0" "$work/shard-1" --out "$user" "${options[@]}"
  expect merge_into_user 2 'batch.out_not_awb'
  [[ "$(tree_sums "$user")" == "$before" ]] || fail "the user's folder changed"
  [[ ! -e $user/.awb-results ]] || fail "a refused run marked the user's folder"
  echo "ok: the user's folder is byte for byte as it was, unmarked"

  # awb's own folder: a file the user adds to a generation and a generation-like folder of
  # theirs survive the next publish (awb removes only what a set's MANIFEST.sha256 lists).
  run first grade --batch "$work/class" --out "$work/results" "${options[@]}"
  [[ $rc -eq 0 ]] || fail "the batch exited $rc"
  gen=$(readlink "$work/results/current")
  echo "mine" >"$work/results/$gen/my-notes.txt"
  mkdir "$work/results/reports.99" && echo "mine" >"$work/results/reports.99/keep.txt"
  run resume grade --batch "$work/class" --out "$work/results" --resume "${options[@]}"
  [[ $rc -eq 0 ]] || fail "the resume exited $rc ($(tail -3 "$work/resume.log"))"
  [[ $(readlink "$work/results/current") != "$gen" ]] || fail "the resume published no new set"
  [[ -f $work/results/$gen/my-notes.txt ]] || fail "the user's file in $gen was removed"
  [[ ! -e $work/results/$gen/grades.csv ]] || fail "the old set's grades.csv was not removed"
  [[ -f $work/results/reports.99/keep.txt ]] || fail "the user's reports.99 was removed"
  whole_set "$work/results" || fail "the published set is not whole"
  echo "ok: in awb's folder, $gen/my-notes.txt and reports.99/keep.txt stay; $gen's own files went"

  # A file of the user's where awb keeps a familiar link: refused, kept, the set untouched.
  rm "$work/results/junit.xml" && echo "mine" >"$work/results/junit.xml"
  run in_the_way grade --batch "$work/class" --out "$work/results" --resume "${options[@]}"
  expect in_the_way 2 'batch.out_not_awb.*junit.xml: awb did not write this'
  [[ $(cat "$work/results/junit.xml") == mine ]] || fail "the user's junit.xml was replaced"
  rm "$work/results/junit.xml"
  run moved grade --batch "$work/class" --out "$work/results" --resume "${options[@]}"
  [[ $rc -eq 0 ]] || fail "the resume after the file was moved exited $rc"
  whole_set "$work/results" || fail "the published set is not whole"
  ;;

lock)
  shards
  run merge0 grade merge "$work/shard-0" "$work/shard-1" --out "$work/merged" "${options[@]}"
  [[ $rc -eq 0 ]] || fail "the first merge exited $rc ($(tail -3 "$work/merge0.log"))"
  merges=0 refused=0
  for round in 1 2 3 4 5 6 7 8 9; do
    pids=()
    for m in a b; do
      timeout "$limit" "$awb" grade merge "$work/shard-0" "$work/shard-1" --out "$work/merged" \
        "${options[@]}" >"$work/merge-$round$m.log" 2>&1 &
      pids+=($!)
    done
    timeout "$limit" "$awb" grade --batch "$work/class" --out "$work/merged" --resume \
      "${options[@]}" >"$work/batch-$round.log" 2>&1 &
    pids+=($!)
    codes=()
    for p in "${pids[@]}"; do
      wait "$p"
      codes+=($?)
    done
    for i in 0 1; do
      case ${codes[$i]} in
      0) merges=$((merges + 1)) ;;
      1)
        log=$work/merge-$round$([[ $i == 0 ]] && echo a || echo b).log
        grep -q 'batch.results_locked.*in use by' "$log" ||
          fail "round $round: a merge exited 1 without naming the lock's holder: $(tail -2 "$log")"
        refused=$((refused + 1))
        ;;
      *) fail "round $round: a merge exited ${codes[$i]}" ;;
      esac
    done
    [[ ${codes[2]} -eq 1 || ${codes[2]} -eq 2 ]] ||
      fail "round $round: the batch into the merge's folder exited ${codes[2]}"
    grep -q 'batch.results_locked\|batch.usage' "$work/batch-$round.log" ||
      fail "round $round: the batch was not refused: $(tail -2 "$work/batch-$round.log")"
    whole_set "$work/merged" || fail "round $round: the published set is not whole"
    (cd "$work/merged/current" && sha256sum --quiet -c MANIFEST.sha256) ||
      fail "round $round: sha256sum -c MANIFEST.sha256 fails"
    no_strays "$work/merged" || fail "round $round: leftovers"
  done
  echo "ok: 9 rounds of two merges and a batch: $merges merge(s) published, $refused refused" \
    "while another ran, every batch refused; the set whole after each round"
  ((merges >= 1)) || fail "no merge published in 9 rounds"

  # A folder another process holds: refused, naming its pid; free again once it is gone.
  python3 -c 'import fcntl, sys, time
f = open(sys.argv[1])
fcntl.flock(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(60)' "$work/merged/.awb-results" "$work/held" &
  holder=$!
  for _ in $(seq 100); do [[ -e $work/held ]] && break; sleep 0.1; done
  run held grade merge "$work/shard-0" "$work/shard-1" --out "$work/merged" "${options[@]}"
  expect held 1 "batch.results_locked.*in use by pid $holder"
  kill -9 "$holder"
  wait "$holder" 2>/dev/null
  run after_kill grade merge "$work/shard-0" "$work/shard-1" --out "$work/merged" "${options[@]}"
  [[ $rc -eq 0 ]] || fail "the merge after the holder was killed exited $rc"
  echo "ok: a killed holder's lock is free at once"
  ;;

enospc)
  mkdir -p "$work/src"
  "$awb" new-plugin "$work/src/gus" --kind parameter-free --starter >/dev/null || fail "new-plugin"
  mv "$work/src/gus" "$work/class/gus"
  AWB_TEST_FAULT=enospc-at-build-store:1 run full grade --batch "$work/class" \
    --out "$work/results" "${options[@]}"
  expect full 1 'io.write.*cannot store the build in the cache: No space left on device.*gus was not graded.*--resume'
  [[ ! -e $work/results/current ]] || fail "reports were published after the full disk"
  if grep -q '"gus"' "$work/results/journal.jsonl" 2>/dev/null &&
    grep '"submission":"gus"' "$work/results/journal.jsonl" | grep -q 'not gradable\|sandbox'; then
    fail "gus was journaled as not gradable"
  fi
  run resume grade --batch "$work/class" --out "$work/results" --resume "${options[@]}"
  [[ $rc -eq 0 ]] || fail "the resume exited $rc ($(tail -3 "$work/resume.log"))"
  grep '^gus,' "$work/results/roster.csv"
  grep -q '^gus,.*,graded,' "$work/results/roster.csv" ||
    fail "gus is not graded after the resume: $(grep '^gus,' "$work/results/roster.csv")"
  echo "ok: the full disk failed the batch (exit 1); the resume built and graded gus"
  ;;

notes)
  run first grade --batch "$work/class" --out "$work/results" "${options[@]}"
  [[ $rc -eq 0 ]] || fail "the batch exited $rc"
  # (Every student handed in the same file: the comments say so, and only so.)
  ! grep '^ada,' "$work/results/roster.csv" | grep -q 'not graded\|did not load' ||
    fail "ada's comment names other files at first"
  # Extra files: a plugin of another kind (not graded) and a file that does not load.
  cp "$plugins/awb_causal.so" "$work/class/ada/zz_causal.so"
  cp "$broken/not_a_library.so" "$work/class/ada/zz_broken.so"
  run added grade --batch "$work/class" --out "$work/results" --resume "${options[@]}"
  [[ $rc -eq 0 ]] || fail "the resume exited $rc"
  row=$(grep '^ada,' "$work/results/roster.csv")
  echo "after adding: $row"
  [[ $row == *"not graded: org.awb.causal"* ]] || fail "the comment does not name the added plugin"
  [[ $row == *"did not load: zz_broken.so"* ]] || fail "the comment does not name the broken file"
  rm "$work/class/ada/zz_causal.so" "$work/class/ada/zz_broken.so"
  run removed grade --batch "$work/class" --out "$work/results" --resume "${options[@]}"
  [[ $rc -eq 0 ]] || fail "the resume exited $rc"
  row=$(grep '^ada,' "$work/results/roster.csv")
  echo "after removing: $row"
  [[ $row != *"not graded"* && $row != *"did not load"* ]] ||
    fail "a stale comment stays after the files were removed"

  # The same through shards and a merge: the merge's comment is the shard's tree's.
  shards
  cp "$plugins/awb_causal.so" "$work/class/ada/zz_causal.so"
  for i in 0 1; do
    run reshard$i grade --batch "$work/class" --out "$work/shard-$i" --shard $i/2 --resume \
      "${options[@]}"
    [[ $rc -eq 0 ]] || fail "the shard's resume exited $rc"
  done
  run merge grade merge "$work/shard-0" "$work/shard-1" --out "$work/merged" "${options[@]}"
  [[ $rc -eq 0 ]] || fail "the merge exited $rc ($(tail -3 "$work/merge.log"))"
  grep -q '^ada,.*not graded: org.awb.causal' "$work/merged/roster.csv" ||
    fail "the merged roster lacks the added plugin: $(grep '^ada,' "$work/merged/roster.csv")"
  echo "ok: the comment follows the tree on resume, and through a merge"
  ;;

journal)
  run first grade --batch "$work/class" --out "$work/results" "${options[@]}"
  [[ $rc -eq 0 ]] || fail "the batch exited $rc"
  shards
  cp "$work/results/journal.jsonl" "$work/journal.kept"
  for kind in fifo zero sparse; do
    for folder in "$work/results" "$work/shard-1"; do
      rm -f "$folder/journal.jsonl"
      case $kind in
      fifo) mkfifo "$folder/journal.jsonl" ;;
      zero) ln -s /dev/zero "$folder/journal.jsonl" ;;
      sparse) truncate -s 2G "$folder/journal.jsonl" ;;
      esac
    done
    want=io.not_regular code=2
    [[ $kind == sparse ]] && want=io.too_large code=1
    run "batch_$kind" grade --batch "$work/class" --out "$work/results" "${options[@]}"
    expect "batch_$kind" "$code" "$want"
    run "resume_$kind" grade --batch "$work/class" --out "$work/results" --resume "${options[@]}"
    expect "resume_$kind" "$code" "$want"
    run "merge_$kind" grade merge "$work/shard-0" "$work/shard-1" --out "$work/merged-$kind" \
      "${options[@]}"
    expect "merge_$kind" "$code" "$want"
  done
  # A FIFO as the digest cache is no cache: the resume hashes the files and finishes.
  rm -f "$work/results/journal.jsonl" "$work/results/digests.tsv"
  cp "$work/journal.kept" "$work/results/journal.jsonl"
  mkfifo "$work/results/digests.tsv"
  run digests_fifo grade --batch "$work/class" --out "$work/results" --resume "${options[@]}"
  [[ $rc -eq 0 ]] || fail "a FIFO digests.tsv: exit $rc ($(tail -3 "$work/digests_fifo.log"))"
  echo "ok: a FIFO digests.tsv is skipped"
  ;;

options)
  mkdir "$work/class/zed"  # hands in nothing: not gradable
  shards --cpu-limit 7
  run merge grade merge "$work/shard-0" "$work/shard-1" --out "$work/merged" "${options[@]}"
  expect merge 2 'batch.shard_mismatch.*another --cpu-limit (7, unset in the other'
  [[ ! -e $work/merged ]] || fail "the refused merge made its --out"
  # A not-gradable result's provenance says what its sha256 is of: no plugin file, the folder.
  junit=$(cat "$work"/shard-*/junit.xml)
  grep -A6 '<testsuite name="zed/' <<<"$junit" | grep -q 'name="plugin_sha256_of" value="folder digest"' ||
    fail "zed's JUnit provenance does not say 'folder digest'"
  ! grep -A6 '<testsuite name="ada/' <<<"$junit" | grep -q 'plugin_sha256_of' ||
    fail "a graded file's provenance is marked as a folder digest"
  echo "ok: a not-gradable result's plugin_sha256 is said to be the folder digest"
  ;;

*) fail "unknown case '$case'" ;;
esac
echo "PASS"

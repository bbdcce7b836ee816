#!/usr/bin/env bash
# report_faults.sh: report sets are published whole. With the test hook AWB_TEST_FAULT (see
# host/core/grading/batch_fault.hpp) awb is killed (SIGKILL) after each report step in turn, N = 1, 2,
# ... until a run completes, and a full disk (ENOSPC) is injected at each step that needs space.
# After every fault RESULTS must read as one whole set (manifest verifies and lists every file,
# the familiar paths lead into it) equal to the previous set or the new one, and a failed run
# must say on stderr what is left and that --resume completes it; the next --resume must leave
# the new set, byte-identical to an uninterrupted run's, and nothing else behind.
# Scenarios: the class changed (a submission removed, one renamed, one added) over an old set;
# a first run with no set yet; results in the layout of earlier versions (flat files, a stale
# temp file in gradescope/).
#
# usage: report_faults.sh AWB PLUGIN_DIR MUTANT_DIR WORK_DIR
set -euo pipefail
[[ $# -eq 4 ]] || { echo "usage: $0 AWB PLUGIN_DIR MUTANT_DIR WORK_DIR" >&2; exit 2; }
awb=$1 plugin_dir=$2 mutant_dir=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
source "$here/report_set_check.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
# A small class; debug info stripped, so that hashing the files stays cheap.
plugin() { mkdir -p "$2"; objcopy --strip-debug "$1" "$2/plugin.so" 2>/dev/null || cp "$1" "$2/plugin.so"; }
good=$(ls "$plugin_dir"/*.so | head -1)
bug=$(ls "$mutant_dir"/*.so | head -1)
old=$work/subs-old new=$work/subs-new
plugin "$good" "$old/01-good"
plugin "$bug" "$old/02-buggy"
plugin "$good" "$old/03-gone"
mkdir -p "$old/04-empty"
mkdir -p "$new"
cp -a "$old/01-good" "$old/04-empty" "$new/"
cp -a "$old/02-buggy" "$new/05-renamed"     # 02-buggy renamed
plugin "$bug" "$new/06-new"                 # 03-gone removed, 06-new added

grade() {  # grade SUBS OUT [args...]
  local subs=$1 out=$2; shift 2
  timeout 60 "$awb" grade --batch "$subs" --exercise journey --exercise animal-road \
    --out "$out" "$@"
}
grade "$old" "$work/ref-old" 2>/dev/null || fail "the old class does not grade"
grade "$new" "$work/ref-new" 2>/dev/null || fail "the new class does not grade"
# base: a journal with every result of both classes, the old class's set current.
cp -a "$work/ref-old" "$work/base"
grade "$new" "$work/base" --resume 2>/dev/null || fail "base: resume on the new class"
grade "$old" "$work/base" --resume 2>/dev/null || fail "base: resume on the old class"
[[ $(set_state "$work/base" "$work/ref-old" none) == old ]] || fail "base is not the old set"
whole_set "$work/base" || fail "base"
no_strays "$work/base" || fail "base"

prepare() {  # prepare SCENARIO TRIAL
  rm -rf "$2"
  case $1 in
    over-old) cp -a "$work/base" "$2" ;;
    first) mkdir -p "$2"; cp "$work/base/journal.jsonl" "$2/" ;;
    flat)  # as earlier versions left it, killed while writing a Gradescope file
      mkdir -p "$2/gradescope"
      cp "$work/base/journal.jsonl" "$2/"
      cp -L "$work/ref-old/grades.csv" "$work/ref-old/junit.xml" "$2/"
      cp -L "$work/ref-old"/gradescope/*.json "$2/gradescope/"
      echo '{"partial' > "$2/gradescope/.03-gone.json.pNhgFR"
      echo 'x' > "$2/.grades.csv.Ab12Cd" ;;
  esac
}
previous_of() { case $1 in over-old) echo "$work/ref-old" ;; *) echo none ;; esac; }

faults=0 kills=0 full=0
for scenario in over-old first flat; do
  for mode in kill-after-report enospc-at-report; do
    for n in $(seq 1 100); do
      trial=$work/trial
      prepare "$scenario" "$trial"
      set +e
      AWB_TEST_FAULT=$mode:$n grade "$new" "$trial" --resume 2> "$work/fault.log"
      rc=$?
      set -e
      what="$scenario, $mode:$n (exit $rc)"
      if [[ $rc -eq 0 ]]; then  # past the last step: the run completed
        [[ $(set_state "$trial" none "$work/ref-new") == new ]] || fail "$what: not the new set"
        no_strays "$trial" || fail "$what"
        echo "$scenario, $mode: $((n - 1)) fault(s), each left a whole set"
        break
      fi
      faults=$((faults + 1))
      if [[ $mode == kill-after-report ]]; then
        [[ $rc -eq 137 ]] || fail "$what: expected SIGKILL ($(tail -2 "$work/fault.log"))"
        kills=$((kills + 1))
      else
        [[ $rc -eq 1 ]] || fail "$what: expected exit 1 ($(tail -2 "$work/fault.log"))"
        grep -q 'No space left on device' "$work/fault.log" || fail "$what: no ENOSPC said"
        grep -q -- '--resume' "$work/fault.log" || fail "$what: --resume not said"
        grep -q -e 'previous reports (reports\.[0-9]*), intact' -e 'holds none yet' \
          -e 'new reports are current' "$work/fault.log" || fail "$what: what is left not said"
        full=$((full + 1))
      fi
      if [[ $scenario == flat ]]; then
        # The flat files are not a generation: check only that they were not mixed with one.
        state=flat
        [[ ! -L "$trial/current" ]] || state=$(set_state "$trial" none "$work/ref-new")
      else
        whole_set "$trial" || fail "$what: $(cat "$work/fault.log" | tail -1)"
        state=$(set_state "$trial" "$(previous_of "$scenario")" "$work/ref-new")
      fi
      [[ $state != mixed ]] || fail "$what: neither the previous set nor the new one"
      grade "$new" "$trial" --resume 2> "$work/resume.log" ||
        fail "$what: the resume after it failed: $(tail -2 "$work/resume.log")"
      grep -q ' 0 result(s) graded' "$work/resume.log" || fail "$what: the resume graded again"
      whole_set "$trial" || fail "$what: after the resume"
      [[ $(set_state "$trial" none "$work/ref-new") == new ]] || fail "$what: resume: not new"
      no_strays "$trial" || fail "$what: after the resume"
      for f in grades.csv junit.xml; do cmp "$trial/$f" "$work/ref-new/$f"; done
      diff -r "$trial/gradescope/" "$work/ref-new/gradescope/" || fail "$what: gradescope/"
      [[ ! -e "$trial/gradescope/03-gone.json" ]] || fail "$what: a removed submission's file"
    done
  done
done
echo "$faults faults ($kills kills, $full full disks): after each, one whole set (previous or" \
     "new); each resume published the new set byte-identical to an uninterrupted run's"
echo PASS

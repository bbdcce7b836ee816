#!/usr/bin/env bash
# grade_submission.sh: grades one submission with awb on an autograding platform and always
# leaves the platform's results.json: awb's own, or a fallback that gives the reason awb could
# not grade.
#
# usage: grade_submission.sh FORMAT SUBMISSION RESULTS [awb grade options...]
#   FORMAT      gradescope | prairielearn: the report awb writes, and the shape of the fallback
#   SUBMISSION  the student's folder: a built plugin (*.so), or a CMake project to build
#   RESULTS     the results.json the platform reads
# The bundle is this script's folder (host/core/grading/autograder.hpp): the submission is
# graded as a batch of one, `awb grade --batch`, under the bundle's assignment/assignment.yaml
# with ids looked up in its exercises/, plus the options given; the batch's FORMAT report is
# the results.json. A submission that is one folder and nothing else (a zip of the project's
# folder) is graded as that folder. awb is `awb` on the PATH, or $AWB.
#
# Exits 0 when awb graded the submission, 1 when the fallback was written: for Gradescope a
# score of 0 with the reason, for PrairieLearn "not gradable" with the reason (awb's failure is
# not the student's, and costs no attempt); 2 on bad usage.
set -uo pipefail

usage="usage: $0 gradescope|prairielearn SUBMISSION RESULTS [awb grade options...]"
[[ $# -ge 3 ]] || { echo "$usage" >&2; exit 2; }
format=$1 submission=$2 results=$3
shift 3
case $format in
  gradescope | prairielearn) ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
bundle=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
awb=${AWB:-awb}
started=$SECONDS
written=no
work=
awb_pid=
why="grading stopped before awb's results were in"

# stdin as a JSON string: valid UTF-8 only (iconv drops what is not), every control character
# but tab and newline dropped, backslash and quote escaped, tab and newline spelled \t and \n.
json_string() {
  iconv -c -f UTF-8 -t UTF-8 | LC_ALL=C tr -d '\000-\010\013-\037\177' |
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' |
    awk 'BEGIN { printf "\"" } NR > 1 { printf "\\n" } { printf "%s", $0 } END { printf "\"" }'
}

# Puts a file in place of RESULTS in one step, so the platform never reads half of one.
install_results() {
  mkdir -p "$(dirname "$results")" && cp "$1" "$results.tmp.$$" && mv -f "$results.tmp.$$" "$results"
}

# The platform's results.json for a submission awb could not grade, giving `why`.
write_fallback() {
  local reason tmp
  reason=$(printf '%s' "$why" | json_string)
  tmp=$(mktemp) || return 1
  case $format in
    gradescope)
      printf '{\n  "score": 0,\n  "execution_time": %d,\n  "output": %s,\n' \
        $((SECONDS - started)) "$reason"
      printf '  "output_format": "text",\n  "visibility": "visible",\n'
      printf '  "stdout_visibility": "hidden",\n  "tests": []\n}\n' ;;
    prairielearn)
      printf '{\n  "gradable": false,\n  "score": 0,\n  "message": %s,\n  "output": %s,\n' \
        "$(printf 'Not gradable: %s' "$why" | json_string)" "$reason"
      printf '  "format_errors": [%s],\n  "tests": []\n}\n' "$reason" ;;
  esac >"$tmp"
  install_results "$tmp"
  rm -f "$tmp"
  echo "grade_submission.sh: $why" >&2
}

# Whatever ends the script, the platform finds a results.json, and nothing is left running.
finish() {
  [[ -z $awb_pid ]] || kill "$awb_pid" 2>/dev/null
  [[ $written == yes ]] || write_fallback
  [[ -z $work ]] || rm -rf "$work"
}
trap finish EXIT
fail() { why=$1; exit 1; }
trap 'fail "grading was stopped (SIGTERM: the platform'"'"'s time limit?)"' TERM
trap 'fail "grading was stopped (SIGINT)"' INT

command -v "$awb" >/dev/null || fail "awb is not installed here (did the autograder's setup fail?)"
[[ -d $submission ]] || fail "there is no submission folder at $submission"

# A submission is graded from a copy, in a batch folder of its own.
shopt -s nullglob dotglob
entries=("$submission"/*)
shopt -u nullglob dotglob
source_dir=$submission
if [[ ${#entries[@]} -eq 1 && -d ${entries[0]} && ! -L ${entries[0]} ]]; then
  source_dir=${entries[0]}
fi
work=$(mktemp -d) || fail "cannot make a working folder"
# Readable by the unprivileged user awb's sandbox runs the student's code as.
chmod 755 "$work"
mkdir "$work/submissions"
cp -a "$source_dir" "$work/submissions/submission" || fail "cannot copy the submission"

args=(grade --batch "$work/submissions" --out "$work/results"
      --assignment "$bundle/assignment/assignment.yaml")
[[ -d $bundle/exercises ]] && args+=(--exercises "$bundle/exercises")
# In the background, so that a signal reaches the trap at once rather than after awb.
"$awb" "${args[@]}" "$@" >"$work/log" 2>&1 &
awb_pid=$!
wait "$awb_pid"
status=$?
awb_pid=
cat "$work/log"  # for the platform's log (Gradescope keeps stdout from the student)
report=$work/results/$format/submission.json
if [[ $status -ne 0 ]]; then
  said=$(tail -c 1500 "$work/log")
  fail "awb could not grade the submission (exit status $status)${said:+: $said}"
fi
[[ -s $report ]] || fail "awb graded the submission but wrote no $format report"
install_results "$report" || fail "cannot write $results"
written=yes

# report_set_check.sh: sourced by the batch tests: does RESULTS read as one whole report set?
# Functions only; each prints why and returns 1 when the answer is no.

# whole_set, set_state and no_strays are report_set.py's (one implementation, also used in-process
# by report_faults.py); see there for what each checks.
report_set_py="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/report_set.py"

# whole_set RESULTS: `current` names a generation, its MANIFEST.sha256 verifies and lists every
# file in it, and the familiar paths lead into it; without `current`, none of them resolves.
whole_set() { python3 "$report_set_py" whole-set "$1"; }

# set_state RESULTS OLD NEW: prints "none", "old" or "new": which reference set RESULTS holds
# (OLD, NEW: RESULTS folders of uninterrupted runs, or "none"); "mixed" when it is neither.
set_state() { python3 "$report_set_py" state "$1" "$2" "$3"; }

# no_strays RESULTS: only the marker, the journal, the digest cache, one generation, `current`
# and the familiar links remain, and nothing hidden inside the generation.
no_strays() { python3 "$report_set_py" no-strays "$1"; }

# same_reports A B: A's and B's reports hold the same bytes: grades.csv, junit.xml, roster.csv
# (where either has one) and the same gradescope/*.json files. Prints what it compared.
same_reports() {
  local a=$1 b=$2 f n=0
  for f in grades.csv junit.xml roster.csv; do
    [[ -e "$a/$f" || -e "$b/$f" ]] || continue
    cmp "$a/$f" "$b/$f" || return 1
    echo "cmp $f: identical ($(wc -l <"$a/$f") lines)"
  done
  diff <(cd "$a/gradescope" && ls) <(cd "$b/gradescope" && ls) ||
    { echo "$a and $b hold different gradescope files"; return 1; }
  for f in "$a"/gradescope/*.json; do
    cmp "$f" "$b/gradescope/${f##*/}" || return 1
    n=$((n + 1))
  done
  echo "cmp gradescope/*.json: $n files, identical"
}

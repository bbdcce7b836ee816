# report_set_check.sh: sourced by the batch tests: does RESULTS read as one whole report set?
# Functions only; each prints why and returns 1 when the answer is no.

# whole_set RESULTS: `current` names a generation, its MANIFEST.sha256 verifies and lists every
# file in it, and the familiar paths (grades.csv, junit.xml, gradescope, prairielearn, roster.csv)
# lead into it. Without `current`: no familiar path resolves (a first run that published nothing).
whole_set() {
  local r=$1
  if [[ ! -L "$r/current" ]]; then
    local f
    for f in grades.csv junit.xml gradescope prairielearn roster.csv; do
      [[ ! -e "$r/$f" ]] || { echo "no current set, yet $r/$f exists"; return 1; }
    done
    return 0
  fi
  local gen
  gen=$(readlink "$r/current")
  [[ $gen =~ ^reports\.[0-9]+$ && -d "$r/$gen" ]] || { echo "current -> '$gen'"; return 1; }
  (cd "$r/current" && sha256sum -c --quiet --strict MANIFEST.sha256) ||
    { echo "$r/$gen: the manifest does not verify"; return 1; }
  local listed present
  listed=$(cd "$r/current" && sed -e 's/^[0-9a-f]*  //' MANIFEST.sha256 | sort)
  present=$(cd "$r/current" && find . -type f ! -name MANIFEST.sha256 | sed 's|^\./||' | sort)
  [[ "$listed" == "$present" ]] ||
    { echo "$r/$gen: files and manifest differ:"; diff <(echo "$listed") <(echo "$present"); return 1; }
  local top
  for top in $(cd "$r/current" && ls -A | grep -v '^MANIFEST.sha256$'); do
    [[ -L "$r/$top" && $(readlink "$r/$top") == "current/$top" ]] ||
      { echo "$r/$top is not the link current/$top"; return 1; }
  done
  for top in grades.csv junit.xml gradescope prairielearn roster.csv; do
    [[ ! -e "$r/$top" || -e "$r/current/$top" ]] || { echo "$r/$top is not of the set"; return 1; }
  done
}

# set_state RESULTS OLD NEW: prints "none", "old" or "new": which reference set RESULTS holds
# (OLD, NEW: RESULTS folders of uninterrupted runs, or "none"); "mixed" when it is neither.
set_state() {
  local r=$1 old=$2 new=$3
  if [[ ! -L "$r/current" ]]; then echo none; return; fi
  if [[ $new != none ]] && diff -r "$r/current/" "$new/current/" >/dev/null; then echo new; return; fi
  if [[ $old != none ]] && diff -r "$r/current/" "$old/current/" >/dev/null; then echo old; return; fi
  echo mixed
}

# no_strays RESULTS: only the journal, the digest cache, one generation, `current` and the
# familiar links remain.
no_strays() {
  local r=$1 gen extra
  gen=$(readlink "$r/current")
  extra=$(cd "$r" && ls -A | grep -v -x -e journal.jsonl -e digests.tsv -e current -e "$gen" -e grades.csv \
            -e junit.xml -e gradescope -e prairielearn -e roster.csv || true)
  [[ -z "$extra" ]] || { echo "left behind in $r: $extra"; return 1; }
  # Nothing hidden inside the set either (a temp file of a write).
  extra=$(cd "$r/$gen" && find . -name '.*' ! -name . || true)
  [[ -z "$extra" ]] || { echo "left behind in $r/$gen: $extra"; return 1; }
}

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

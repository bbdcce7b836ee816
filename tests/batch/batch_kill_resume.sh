#!/usr/bin/env bash
# batch_kill_resume.sh: `awb grade --batch` survives SIGKILL. Grades a generated class of
# submissions (good, buggy, unloadable, mixed) once without interruption into A, then again
# into B, killed midway with SIGKILL and resumed; the reports of A and B must be byte-identical,
# B's journal must hold every result exactly once, and every not-gradable row must say why.
#
# usage: batch_kill_resume.sh AWB PLUGIN_DIR MUTANT_DIR BROKEN_DIR EXERCISES_DIR WORK_DIR
set -euo pipefail

if [[ $# -ne 6 ]]; then
  echo "usage: $0 AWB PLUGIN_DIR MUTANT_DIR BROKEN_DIR EXERCISES_DIR WORK_DIR" >&2
  exit 2
fi
awb=$1 plugin_dir=$2 mutant_dir=$3 broken_dir=$4 exercises=$5 work=$6
# seconds, per awb run: a hang fails the test instead of stalling ctest (sanitized builds: more)
limit=$((60 * ${AWB_TEST_SLOWDOWN:-1}))

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

rm -rf "$work"
mkdir -p "$work/subs"
subs=$work/subs

# ---- the class --------------------------------------------------------------------------
step "generating submissions"
shopt -s nullglob
good=("$plugin_dir"/*.so)
bugs=("$mutant_dir"/*.so)
shopt -u nullglob
[[ ${#good[@]} -ge 1 ]] || fail "no bundled plugins in $plugin_dir"
[[ ${#bugs[@]} -ge 1 ]] || fail "no mutants in $mutant_dir"

n=0
new_sub() { n=$((n + 1)); printf -v sub '%s-%02d' "$1" "$n"; mkdir -p "$subs/$sub"; }
for i in $(seq 0 15); do  # good: copies of the bundled plugins under a neutral name
  new_sub good; cp "${good[$((i % ${#good[@]}))]}" "$subs/$sub/plugin.so"
done
for i in $(seq 0 21); do  # buggy: the mutants, renamed so the name gives nothing away
  new_sub buggy; cp "${bugs[$((i % ${#bugs[@]}))]}" "$subs/$sub/plugin.so"
done
unloadable=()
for i in 1 2; do  # a text file posing as a plugin
  new_sub text; echo "I forgot to build it" > "$subs/$sub/plugin.so"; unloadable+=("$sub")
done
for i in 1 2; do  # nothing handed in
  new_sub empty; unloadable+=("$sub")
done
for f in wrong_abi_major missing_entry_symbol inconsistent_caps not_a_library \
         unresolved_dependency; do  # the broken fixtures
  [[ -f "$broken_dir/$f.so" ]] || fail "missing broken fixture $broken_dir/$f.so"
  new_sub broken; cp "$broken_dir/$f.so" "$subs/$sub/plugin.so"; unloadable+=("$sub")
done
for i in $(seq 0 4); do  # mixed: a good and a buggy plugin side by side
  new_sub mixed
  cp "${good[$((i % ${#good[@]}))]}" "$subs/$sub/good.so"
  cp "${bugs[$(((i * 3) % ${#bugs[@]}))]}" "$subs/$sub/attempt.so"
done
total_subs=$(find "$subs" -mindepth 1 -maxdepth 1 -type d | wc -l)
echo "$total_subs submissions: 16 good, 22 buggy, ${#unloadable[@]} unloadable, 5 mixed"
[[ $total_subs -ge 50 ]] || fail "only $total_subs submissions"

grade() {  # grade OUT [extra args...]
  local out=$1; shift
  timeout "$limit" "$awb" grade --batch "$subs" --exercises "$exercises" --out "$out" -j 2 "$@"
}

# ---- A: uninterrupted -------------------------------------------------------------------
step "A: uninterrupted run"
start=$(date +%s%N)
grade "$work/A" 2> "$work/A.log" || fail "run A exited $? (log: $(tail -5 "$work/A.log"))"
echo "A took $((($(date +%s%N) - start) / 1000000)) ms"
tail -n 3 "$work/A.log"
total_lines=$(wc -l < "$work/A/journal.jsonl")
echo "A journal: $total_lines results"

# ---- B: killed, then resumed ------------------------------------------------------------
step "B: run, SIGKILL once the journal holds >= 30% of the results"
threshold=$(((total_lines * 3 + 9) / 10))
# Started directly (no wrapper process), so that SIGKILL hits awb itself.
"$awb" grade --batch "$subs" --exercises "$exercises" --out "$work/B" -j 2 2> "$work/B1.log" &
pid=$!
lines=0
deadline=$((SECONDS + limit))
while kill -0 "$pid" 2>/dev/null; do
  lines=$( (wc -l < "$work/B/journal.jsonl") 2>/dev/null || echo 0)
  if [[ $lines -ge $threshold || $SECONDS -ge $deadline ]]; then
    kill -KILL "$pid" 2>/dev/null || true
    break
  fi
  sleep 0.02
done
set +e
wait "$pid"
rc=$?
set -e
[[ $rc -eq 137 ]] || fail "run B was not killed midway (exit $rc, $lines lines seen)"
killed_at=$(wc -l < "$work/B/journal.jsonl")
echo "killed with SIGKILL (exit $rc) at $killed_at/$total_lines journal lines"
[[ $killed_at -lt $total_lines ]] || fail "run B had already finished"
[[ ! -e "$work/B/grades.csv" ]] || fail "a killed run left reports behind"

# A kill can also land inside a write: simulate the torn line it would leave.
head -n 1 "$work/B/journal.jsonl" | head -c 100 >> "$work/B/journal.jsonl"

step "B: a second run without --resume is refused"
set +e
grade "$work/B" 2> "$work/B2.log"
rc=$?
set -e
cat "$work/B2.log"
[[ $rc -eq 2 ]] || fail "run without --resume over a journal exited $rc, expected 2"
grep -q -- "--resume" "$work/B2.log" || fail "the refusal does not mention --resume"

step "B: --resume"
grade "$work/B" --resume 2> "$work/B3.log" || fail "resume exited $? ($(tail -5 "$work/B3.log"))"
grep '^journal: ' "$work/B3.log" || fail "the torn line was not reported"
tail -n 1 "$work/B3.log"

# ---- the checks -------------------------------------------------------------------------
step "comparing A and B"
cmp "$work/A/grades.csv" "$work/B/grades.csv"
cmp "$work/A/junit.xml" "$work/B/junit.xml"
a_files=$(cd "$work/A/gradescope" && ls)
b_files=$(cd "$work/B/gradescope" && ls)
[[ "$a_files" == "$b_files" ]] || fail "different Gradescope files in A and B"
count=0
for f in "$work"/A/gradescope/*.json; do
  cmp "$f" "$work/B/gradescope/$(basename "$f")"
  count=$((count + 1))
done
[[ $count -eq $total_subs ]] || fail "$count Gradescope files for $total_subs submissions"
echo "grades.csv, junit.xml and $count gradescope/*.json are byte-identical"

step "checking the journal and the gradebook"
python3 - "$work/A/journal.jsonl" "$work/B/journal.jsonl" "$work/B/grades.csv" \
          "$total_subs" "${unloadable[@]}" <<'EOF'
import csv, json, sys

a_path, b_path, csv_path, total_subs = sys.argv[1:5]
unloadable = set(sys.argv[5:])

def keys(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            assert line.endswith("\n"), f"{path}:{n}: torn line left behind"
            out.append(json.dumps(json.loads(line)["key"], sort_keys=True))
    return out

a, b = keys(a_path), keys(b_path)
dup = len(b) - len(set(b))
assert dup == 0, f"B's journal has {dup} duplicate key(s)"
assert len(set(a)) == len(a), "A's journal has duplicate keys"
assert set(a) == set(b), "A and B journaled different results"
print(f"journal: {len(b)} records, no duplicate keys, same keys as A")

subjects = {}
for k in map(json.loads, b):
    subjects.setdefault(k["submission"], set()).add(k["subject"])
assert len(subjects) == int(total_subs), f"{len(subjects)} submissions journaled"

with open(csv_path, newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f))
header, body = rows[0], rows[1:]
assert header[0] == "subject" and header[-4:] == ["total", "max", "status", "comment"], header
n_subjects = sum(len(s) for s in subjects.values())
assert len(body) == n_subjects, f"{len(body)} rows for {n_subjects} subjects"
by_subject = {r[0]: r for r in body}
for sub, subs in subjects.items():
    if len(subs) == 1:
        assert sub in by_subject, f"no row for {sub}"
    for s in subs:
        assert s in by_subject, f"no row for {s}"
not_gradable = 0
for r in body:
    cells, status, comment = r[1:-4], r[-2], r[-1]
    # Numbers only in the score columns; the reason stands in the comment, on one line.
    assert all(c == "" or float(c) >= 0 for c in cells), f"{r[0]}: text in a score column"
    assert "\n" not in comment and "\r" not in comment, f"{r[0]}: a comment on several lines"
    if status == "not gradable":
        not_gradable += 1
        assert all(c in ("", "0") for c in cells), f"{r[0]}: points while not gradable"
        reason = comment[len("not gradable:"):].strip()
        assert comment.startswith("not gradable: ") and reason, f"{r[0]}: no reason"
    else:
        assert status == "graded" and not comment, f"{r[0]}: partly not gradable: {comment}"
for sub in unloadable:
    status, comment = by_subject[sub][-2:]
    assert status == "not gradable" and comment.startswith("not gradable: ") and \
        len(comment) > 20, sub
assert not_gradable == len(unloadable), f"{not_gradable} not-gradable rows"
print(f"grades.csv: header + {len(body)} rows ({len(subjects)} submissions, one row per "
      f"subject), {not_gradable} not gradable, each with a reason, e.g.:")
for sub in sorted(unloadable)[:9]:
    print("  " + sub + ": " + by_subject[sub][-1][:110])
EOF
echo "PASS"

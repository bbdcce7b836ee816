#!/bin/sh
# bundled_links.sh AWB BUNDLED_DIR EXERCISES: a submission that is a link to awb's bundled
# plugins, or a folder holding one, is not gradable as such, singly (`awb grade --variant
# s/attention.so`, the file a link to a bundled plugin) and in a batch (a student folder that is
# a link to the bundled folder). Both were graded in awb's own process as the trusted plugin,
# with full marks.
set -u
awb=$1 bundled=$2 exercises=$3
if [ ! -x "$awb" ] || [ ! -r "$bundled/awb_qkv.so" ]; then
  echo "cannot run here as uid $(id -u): awb or the bundled plugins are out of reach"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/awb-bundled-links-XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
expected="not gradable: the submission is (a link to) awb's bundled plugins"
mkdir "$work/s" "$work/subs"
ln -s "$bundled/awb_qkv.so" "$work/s/attention.so"
for spec in "$work/s/attention.so" "$work/s"; do
  out=$("$awb" grade --variant "$spec" --exercises "$exercises" --exercise journey 2>&1)
  rc=$?
  [ "$rc" -ne 0 ] || fail "grade --variant $spec: exit 0: $out"
  case $out in
    *"$expected"*) ;;
    *) fail "grade --variant $spec: $out" ;;
  esac
done
ln -s "$bundled" "$work/subs/linked"
"$awb" grade --batch "$work/subs" --exercises "$exercises" --exercise journey \
  --out "$work/results" > "$work/batch.out" 2>&1
grep -q "^linked,0,0,[0-9]*,not gradable,$expected" "$work/results/grades.csv" ||
  fail "batch: $(cat "$work/results/grades.csv" "$work/batch.out")"
echo "PASS (uid $(id -u)): a link to the bundled plugins is not gradable, singly and in a batch"

#!/usr/bin/env bash
# reproducible_build.sh AWB WORK: the same sources build to the same plugin bytes in any folder.
# One starter project is built twice by `awb build`, into two caches (each build runs in a fresh
# awb-build-* folder of a random name); the plugins' sha256 must match: the build folder's name is
# not compiled in (it was, in the line tables and __FILE__, so shards built apart did not merge to
# the unsharded plugin hashes). Then a class of two source submissions is graded whole and in two
# shards, each with a build cache of its own, and the merge must give the unsharded run's reports
# byte for byte (the plugins' sha256 are in them).
set -u
awb=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
"$awb" new-plugin "$work/alice" --kind parameter-free --starter > /dev/null || exit 1
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }
for n in 1 2; do
  "$awb" build "$work/alice" --build-cache "$work/cache$n" > "$work/build$n.out" 2>&1 ||
    fail "build $n exited $?: $(tail -3 "$work/build$n.out")"
done
one=$(find "$work/cache1" -name '*.so' -type f | sort)
two=$(find "$work/cache2" -name '*.so' -type f | sort)
[ -n "$one" ] && [ "$(echo "$one" | wc -l)" -eq "$(echo "$two" | wc -l)" ] ||
  fail "the builds made different plugins: [$one] [$two]"
sum1=$(cat $one | sha256sum) sum2=$(cat $two | sha256sum)
echo "cache1: $sum1"
echo "cache2: $sum2"
if [ "$sum1" != "$sum2" ]; then
  fail "the two builds' plugins differ"
  for f in $one; do strings -a "$f" | grep -m 3 'awb-build-' | sed 's/^/    names /'; done
fi
if grep -qa 'awb-build-' $one; then fail "a plugin names its build folder"; fi

# A class of source submissions, sharded without a shared build cache.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/report_set_check.sh"
mkdir -p "$work/subs"
cp -r "$work/alice" "$work/subs/alice"
rm -f "$work/subs/alice/.awb-generated-by-test"
"$awb" new-plugin "$work/subs/bob" --kind parameter-free --starter --name bobs-attention \
  > /dev/null || exit 1
options=(--assignment parameter-free --view instructor)
"$awb" grade --batch "$work/subs" --out "$work/whole" "${options[@]}" 2> "$work/whole.log" ||
  fail "the unsharded run exited $?: $(tail -3 "$work/whole.log")"
for i in 0 1; do
  "$awb" grade --batch "$work/subs" --out "$work/shard-$i" --shard "$i/2" "${options[@]}" \
    2> "$work/shard-$i.log" || fail "shard $i/2 exited $?: $(tail -3 "$work/shard-$i.log")"
done
"$awb" grade merge "$work/shard-0" "$work/shard-1" --out "$work/merged" "${options[@]}" \
  2> "$work/merge.log" || fail "the merge exited $?: $(cat "$work/merge.log")"
whole_set "$work/merged" || fail "the merged reports are not one whole set"
if same_reports "$work/whole" "$work/merged"; then
  echo "shards with caches of their own merge to the unsharded reports"
else
  fail "the merged reports differ from the unsharded run's"
fi

if [ "$failures" -eq 0 ]; then echo PASS; else echo "$failures failure(s)"; exit 1; fi

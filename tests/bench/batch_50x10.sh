#!/bin/sh
# The batch benchmark of the isolation issue: 50 submissions (each a copy of the bundled
# multi-head plugin, so every check of every exercise runs) graded on the bundled exercises
# through one fresh runner per submission, with -j 2. Prints the wall time.
# usage: batch_50x10.sh BUILD_DIR [JOBS]
set -eu
build=$1 jobs=${2:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq -w 1 50); do
  mkdir -p "$work/subs/student$i"
  cp "$build/plugins/awb_multi_head.so" "$work/subs/student$i/attention.so"
done
exercises=$(dirname "$0")/../../exercises
n=$(ls "$exercises"/*.yaml | wc -l)
start=$(date +%s.%N)
"$build/bin/awb" grade --batch "$work/subs" --exercises "$exercises" --out "$work/results" \
  -j "$jobs" 2>/dev/null
end=$(date +%s.%N)
echo "batch: 50 submissions x $n exercises, -j $jobs: $(awk "BEGIN { print $end - $start }") s"
grep -c '' "$work/results/grades.csv" | xargs -I{} echo "grades.csv rows (with header): {}"

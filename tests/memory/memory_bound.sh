#!/bin/bash
# memory_bound.sh AWB [--no-address-limit]: loads the worst files under `ulimit -v` of FORMAT.md's
# documented bound (1.25 GiB of address space for one file), so the bound is a tested fact, not a
# hope. --no-address-limit (a sanitized build, whose ASan runtime reserves terabytes of shadow
# address space before main and cannot start under any such limit): the same files and messages,
# without the limit.
set -u
awb=$1
address_limit=1310720  # KiB
if [ "${2:-}" = --no-address-limit ]; then
  address_limit=unlimited
  echo "address-space limit: off (sanitized build)"
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/make_inputs.py" "$work" || exit 1
fail=0
expect() {  # FILE PATTERN: awb exercises FILE under the bound prints PATTERN
  local out
  out=$(ulimit -v "$address_limit"; "$awb" exercises "$work/$1" 2>&1)
  if ! grep -qE "$2" <<<"$out"; then
    echo "FAIL $1: expected /$2/, got:"; echo "$out" | cut -c1-300; fail=1
  else
    echo "ok   $1: $(grep -E "$2" <<<"$out" | head -1 | cut -c1-160)"
  fi
}
expect worst-values.yaml '^worst-values +parameter-free'          # the largest accepted file
expect worst-nodes.yaml '\[exercise\.limit\] .*more than 2097152 values'  # the largest tree
expect hostile-scalars.yaml '\[exercise\.limit\] .*:7:[0-9]+: a line holds more than 65536'
expect hostile-tokens.yaml '\[exercise\.limit\] .*:5:[0-9]+: a line holds more than 65536'
# A FIFO with no writer: refused at once (a loader that opened it blocking would hang here).
mkfifo "$work/pipe.yaml"
out=$(timeout 20 "$awb" lint "$work/pipe.yaml" 2>&1)
if [ $? -eq 124 ] || ! grep -q 'exercise.not_a_file' <<<"$out"; then
  echo "FAIL pipe.yaml: $out"; fail=1
else
  echo "ok   pipe.yaml: $(grep not_a_file <<<"$out")"
fi
exit $fail

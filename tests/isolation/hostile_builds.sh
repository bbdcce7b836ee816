#!/usr/bin/env bash
# hostile_builds.sh AWB FIXTURES WORK: every hostile build of the corpus (tests/fixtures/
# hostile_builds) is built by `awb build` in the build sandbox, under small limits, and is
# contained: it ends "build failed" or "build stopped" with the reason expected, nothing outside
# its folder is written or removed, no process of it is left, and the network stays closed.
set -u
awb=$1 fixtures=$2 work=$3
rm -rf "$work"
mkdir -p "$work/home" "$work/subs" "$work/results" "$work/outside" "$work/cache" "$work/tmp"
# The builds' work folders in a temporary folder of this test's own, so that the count of those
# left behind is not thrown by another test's builds running meanwhile.
chmod 755 "$work/tmp"
export TMPDIR="$work/tmp"
for canary in home subs results outside; do echo keep > "$work/$canary/canary"; done
rm -f /tmp/awb-hostile-escaped
failures=0
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }

# build CASE EXPECTED [awb build options...]: builds the case and checks the reason printed.
build() {
  local name=$1 expected=$2
  shift 2
  local sub="$work/subs/$name"
  mkdir -p "$sub"
  sed -e "s|@HOST_HOME@|$work/home|g" -e "s|@SUBMISSIONS@|$work/subs|g" \
      -e "s|@RESULTS@|$work/results|g" -e "s|@OUTSIDE@|$work/outside|g" \
      "$fixtures/$name/CMakeLists.txt" > "$sub/CMakeLists.txt"
  local start=$SECONDS
  HOME="$work/home" "$awb" build "$sub" --build-cache "$work/cache" "$@" > "$work/$name.out" 2>&1
  local rc=$?
  local took=$((SECONDS - start))
  local reason
  reason=$(grep -m1 -E '^build (failed|stopped|refused)' "$work/$name.out")
  echo "$name: exit $rc in ${took}s: $reason"
  [ "$rc" -eq 1 ] || fail "$name" "exit $rc, expected 1"
  grep -q -- "$expected" "$work/$name.out" || fail "$name" "expected '$expected' in: $(cat "$work/$name.out")"
  if grep -q ESCAPED "$work/$name.out" "$work"/cache/*/build.log 2>/dev/null; then
    fail "$name" "the build escaped"
  fi
}

build download "the network stayed closed" --build-wall-limit 60
build rm_home "tried to remove every home" --build-wall-limit 60
build write_outside "every write outside its folder was tried" --build-wall-limit 60
build fork_bomb "wall-clock limit of 3 s" --build-wall-limit 3
build loop "the configure step failed" --build-cpu-limit 1 --build-wall-limit 120
build fill_disk "its folder grew past 32 MiB" --build-disk-limit 32 --build-wall-limit 120
build print_forever "it printed more than 64 KiB" --build-output-limit 64 --build-wall-limit 60

# Nothing outside the build's own folder was written or removed.
for canary in home subs results outside; do
  [ "$(cat "$work/$canary/canary" 2>/dev/null)" = keep ] || fail containment "$work/$canary/canary is gone"
done
for escaped in /tmp/awb-hostile-escaped "$work/subs/escaped" "$work/outside/escaped-sh" \
               "$work/outside/escaped-cmake"; do
  [ ! -e "$escaped" ] || fail containment "$escaped was written"
done
# No process of any build is left (the fork bomb and the loop name theirs).
# Whatever the builds started is gone, or goes within a second of their end.
for _ in 1 2 3 4 5 6 7 8 9 10; do
  pgrep -f 'awb-hostile-(fork|loop)' > /dev/null || break
  sleep 0.1
done
if pgrep -f 'awb-hostile-(fork|loop)' > /dev/null; then
  fail containment "processes left: $(pgrep -af 'awb-hostile-(fork|loop)' | head -3)"
fi
# The work folders of the builds are gone; the cache holds one entry per case, logs capped.
left=$(find "$TMPDIR" -maxdepth 1 -name 'awb-build-*' | wc -l)
[ "$left" -eq 0 ] || fail cleanup "$left work folder(s) left in $TMPDIR"
entries=$(find "$work/cache" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | wc -l)
[ "$entries" -eq 7 ] || fail cache "$entries cache entries, expected 7"

if [ "$failures" -eq 0 ]; then echo PASS; else echo "$failures failure(s)"; exit 1; fi

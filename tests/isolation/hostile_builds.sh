#!/usr/bin/env bash
# hostile_builds.sh AWB FIXTURES WORK [CASE...]: every hostile build of the corpus (tests/
# fixtures/hostile_builds), or only the cases named, is built by `awb build` in the build
# sandbox, under small limits, and is contained: it ends "build failed" or "build stopped" with
# the reason expected (the set-ID and digest cases build, and are checked otherwise), nothing
# outside its folder is written or removed, no process of it is left, and the network stays
# closed. WORK "-" is a new temporary folder, removed afterwards (for a run as another user).
set -u
awb=$1 fixtures=$2 work=$3
shift 3
only=" $* "
wanted() { [ "$only" = "  " ] || case $only in *" $1 "*) true ;; *) false ;; esac; }
if [ "$work" = - ]; then
  if [ ! -x "$awb" ]; then
    echo "cannot run here as uid $(id -u): $awb is out of reach"
    exit 77
  fi
  work=$(mktemp -d "${TMPDIR:-/tmp}/awb-hostile-builds-XXXXXX") || exit 1
  trap 'rm -rf "$work"' EXIT
fi
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

entries_expected=0  # cache entries: one per build of a tree not seen before

# build CASE EXPECTED [awb build options...]: builds the case and checks the reason printed.
# With BUILD_RC set, the exit status expected is that (1 otherwise); with BUILD_AS, the folder
# built is that one under subs/ (made by the caller), else the case's CMakeLists.txt is copied.
build() {
  local name=$1 expected=$2
  shift 2
  wanted "$name" || wanted "${BUILD_CASE:-$name}" || return 0
  local sub="$work/subs/${BUILD_AS:-$name}"
  if [ -z "${BUILD_AS:-}" ]; then
    mkdir -p "$sub"
    sed -e "s|@HOST_HOME@|$work/home|g" -e "s|@SUBMISSIONS@|$work/subs|g" \
        -e "s|@RESULTS@|$work/results|g" -e "s|@OUTSIDE@|$work/outside|g" \
        "$fixtures/$name/CMakeLists.txt" > "$sub/CMakeLists.txt"
  fi
  local start=$SECONDS
  HOME="$work/home" "$awb" build "$sub" --build-cache "$work/cache" "$@" > "$work/$name.out" 2>&1
  local rc=$?
  local took=$((SECONDS - start))
  local reason
  reason=$(grep -m1 -E '^(build (failed|stopped|refused)|built)' "$work/$name.out")
  echo "$name: exit $rc in ${took}s: $reason"
  entries_expected=$((entries_expected + 1))
  [ "$rc" -eq "${BUILD_RC:-1}" ] || fail "$name" "exit $rc, expected ${BUILD_RC:-1}"
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
build compiler_oom "the compiler ran out of memory (the build's memory limit is 256 MB)" \
  --build-memory-limit 256 --build-wall-limit 120
# kill -9 -1 reaches every process of the build's uid: as root a uid of the build's own, else the
# grader's, which only a PID namespace keeps from reaching this test and awb.
if [ "$(id -u)" = 0 ]; then
  # Which process the kill reaches first (cmake, or the step's own) varies with the machine; what
  # must hold is that the verdict names a process of the build, not a limit.
  build kill_all "killed by signal 9 (SIGKILL) sent by a process of the build" \
    --build-wall-limit 60
fi

# Set-ID outputs: the build makes its "plugins" set-user-ID and set-group-ID copies of /bin/sh;
# the cache keeps them with the modes awb chooses (0755, no set-ID bit), folders 0755, files 0644.
BUILD_RC=0 build setuid "built" --build-wall-limit 60
setuid_entry=$(sed -n 's|^  \(.*\)/plugins/setuid.so$|\1|p' "$work/setuid.out" 2>/dev/null)
if ! wanted setuid; then
  :
elif [ -z "$setuid_entry" ]; then
  fail setuid "no plugins/setuid.so in: $(cat "$work/setuid.out")"
else
  setid=$(find "$work/cache" -perm /6000)
  [ -z "$setid" ] || fail setuid "set-ID files in the cache: $(ls -l $setid)"
  for f in plugins/setuid.so plugins/setgid.so plugins . build.log outcome; do
    case $f in *.so | plugins | .) want=755 ;; *) want=644 ;; esac
    got=$(stat -c %a "$setuid_entry/$f")
    [ "$got" = "$want" ] || fail setuid "$f has mode $got, expected $want"
  done
fi

# The digest: a crafted file name once gave a tree another tree's key. The crafted tree is built
# first and fails; the honest one must then build, not be "build failed" from the cache.
export BUILD_CASE=digest
mkdir -p "$work/subs/digest_crafted" "$work/subs/digest_honest"
cp "$fixtures/digest/CMakeLists.txt" "$work/subs/digest_crafted/"
cp "$fixtures/digest/CMakeLists.txt" "$work/subs/digest_honest/"
printf 1 > "$work/subs/digest_honest/ok"
printf Z > "$work/subs/digest_honest/zz"
ok_sha=$(printf 1 | sha256sum | cut -d' ' -f1)
printf Z > "$work/subs/digest_crafted/$(printf 'ok\t%s\nfile\tzz' "$ok_sha")"
BUILD_AS=digest_crafted build digest_crafted "no file 'ok': the crafted tree fails" --build-wall-limit 60
BUILD_AS=digest_honest BUILD_RC=0 build digest_honest "built in" --build-wall-limit 60
unset BUILD_CASE

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
[ "$entries" -eq "$entries_expected" ] || fail cache "$entries cache entries, expected $entries_expected"

if [ "$failures" -eq 0 ]; then echo PASS; else echo "$failures failure(s)"; exit 1; fi

# fresh_root.bash: a fresh Debian 12 root to run commands in, for the tests that try the project
# as a bare machine has it (tests/autograder/fresh_root.sh, tests/fresh_machine.sh). Sourced; it
# defines skip and fail.
#
# The root is a debootstrap (minbase) of Debian 12, made once into the cache folder
# $AWB_FRESH_ROOT_CACHE (default ~/.cache/awb/fresh-root) and never changed there: each run works
# in an overlay of it (a copy where the kernel has no overlayfs), with the cache's apt lists and
# archives mounted so that packages are downloaded once. Without the cache the caller is skipped
# (exit 77) unless AWB_FRESH_ROOT_CREATE=1 lets it make the cache. Needs root (chroot, mounts).
# Sets `root` (the run's root) and defines in_root; everything is unmounted and removed on exit.
cache=${AWB_FRESH_ROOT_CACHE:-${HOME:-/root}/.cache/awb/fresh-root}
base=$cache/bookworm
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || skip "needs root (chroot and mounts)"

if [[ ! -e $base/.complete ]]; then
  [[ ${AWB_FRESH_ROOT_CREATE:-0} == 1 ]] ||
    skip "no fresh root in $cache: 'make fresh-root-test' or 'make fresh-machine-test' makes it (debootstrap, about 200 MB)"
  command -v debootstrap >/dev/null ||
    fail "debootstrap is missing (cmake/install-deps.sh installs it)"
  echo "== making the fresh root in $base"
  mkdir -p "$cache"
  rm -rf "$base.partial"
  debootstrap --variant=minbase bookworm "$base.partial" \
    "${AWB_DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$cache/debootstrap.log" 2>&1 ||
    { tail -20 "$cache/debootstrap.log"; fail "debootstrap"; }
  rm -f "$base.partial"/var/cache/apt/archives/*.deb
  touch "$base.partial/.complete"
  mv "$base.partial" "$base"
fi

mkdir -p "$cache/apt/archives/partial" "$cache/apt/lists/partial"
run=$(mktemp -d "$cache/run.XXXXXX")
root=$run/root
mounted=()
mnt() { mount "$@" && mounted+=("${*: -1}"); }
# Unmounts in reverse order, then removes the run's copy, but only once nothing is mounted under
# it any more (a removal through a mount of /dev would reach the machine's own devices).
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -R "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null || true
  done
  if awk -v r="$run" '$2 == r || index($2, r "/") == 1 { found = 1 } END { exit !found }' \
    /proc/self/mounts; then
    echo "fresh_root.sh: mounts remain under $run; it is left in place" >&2
  else
    rm -rf "$run"
  fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

mkdir -p "$root" "$run/upper" "$run/overlay-work"
if ! mnt -t overlay overlay \
  -o "lowerdir=$base,upperdir=$run/upper,workdir=$run/overlay-work" "$root" 2>/dev/null; then
  cp -a "$base/." "$root/"
fi
mnt -t proc proc "$root/proc"
mnt -t sysfs sysfs "$root/sys"
# The cgroup hierarchy, as a booted machine has it mounted, with its sub-mounts (slurmd will not
# start without it: a hybrid layout's /sys/fs/cgroup/systemd must be the cgroup it is).
if [[ -d /sys/fs/cgroup && -d $root/sys/fs/cgroup ]]; then
  mnt --rbind /sys/fs/cgroup "$root/sys/fs/cgroup"
fi
mnt --bind /dev "$root/dev"
mnt --bind /dev/pts "$root/dev/pts"
mnt --bind "$cache/apt/archives" "$root/var/cache/apt/archives"
mnt --bind "$cache/apt/lists" "$root/var/lib/apt/lists"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"

# in_root COMMAND...: as the platform runs it: root, a plain environment.
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}


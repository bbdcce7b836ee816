#!/usr/bin/env bash
# package.sh: the Debian packages CPack makes of a build (cmake/AwbPackaging.cmake). `awb` holds
# the command line, the runner, the plugins, the SDK, the exercises and the autograder scripts and
# nothing of the GUI; its Depends name the libraries its binaries link (dpkg-shlibdeps), its
# Recommends what a source submission is built with; `awb-gui` depends on that very awb and on
# Qt. Leaves the packages in OUT_DIR for the autograder tests.
#
# usage: package.sh BUILD_DIR OUT_DIR
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 BUILD_DIR OUT_DIR" >&2; exit 2; }
build=$1 out=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v dpkg-shlibdeps >/dev/null ||
  { echo "SKIP: dpkg-shlibdeps is missing (dpkg-dev; cmake/install-deps.sh installs it)"; exit 77; }

rm -rf "$out"
mkdir -p "$out"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$out" >"$out/cpack.log" 2>&1 ||
  { cat "$out/cpack.log"; fail "cpack"; }
rm -rf "$out/_CPack_Packages"  # the staged install trees
awb_deb=$(ls "$out"/awb_*.deb)
version=$(dpkg-deb -f "$awb_deb" Version)
echo "$(basename "$awb_deb"): $(du -h "$awb_deb" | cut -f1)"

depends=$(dpkg-deb -f "$awb_deb" Depends)
echo "Depends: $depends"
for lib in libc6 libstdc++6 libgcc-s1 libyaml-cpp0.7 libzip4 libseccomp2; do
  [[ ", $depends," == *", $lib "* ]] || fail "awb's Depends lack $lib"
done
[[ $depends != *libqt6* ]] || fail "awb depends on Qt"
recommends=$(dpkg-deb -f "$awb_deb" Recommends)
echo "Recommends: $recommends"
for pkg in cmake ninja-build g++ libeigen3-dev; do
  [[ ", $recommends," == *", $pkg"[\ ,]* ]] || fail "awb's Recommends lack $pkg"
done

# What the autograder needs of it, under /usr; the mode where it matters.
contents=$(dpkg-deb -c "$awb_deb")
has() {  # has MODE PATH
  grep -Eq "^$1 [^ ]+ +[0-9]+ [^ ]+ [^ ]+ \./usr/$2\$" <<<"$contents" || fail "awb lacks $1 /usr/$2"
}
has -rwxr-xr-x bin/awb
has -rwxr-xr-x bin/awb-runner
has -rwxr-xr-x bin/awb-builder
has -rw-r--r-- lib/awb/plugins/awb_qkv.so
has -rw-r--r-- lib/awb/mutants/mutant_divide_by_sum.so
has -rw-r--r-- include/awb/awb_plugin.h
has -rw-r--r-- lib/cmake/AwbSdk/AwbSdkConfig.cmake
has -rw-r--r-- share/awb/exercises/assignments/qkv.yaml
has -rwxr-xr-x share/awb/contrib/gradescope/run_autograder
has -rwxr-xr-x share/awb/contrib/autograder/grade_submission.sh
! grep -q 'awb-gui' <<<"$contents" || fail "awb holds the GUI"
! grep -q 'awb-figure' <<<"$contents" || fail "awb holds awb-figure (it links Qt)"
# Stripped: debug information stays in the build.
dpkg-deb --fsys-tarfile "$awb_deb" | tar -xO ./usr/bin/awb >"$out/awb.bin"
! readelf -S "$out/awb.bin" | grep -q debug_info || fail "/usr/bin/awb is not stripped"
rm -f "$out/awb.bin"

if [[ -x $build/bin/awb-gui ]]; then
  gui_deb=$(ls "$out"/awb-gui_*.deb)
  gui_depends=$(dpkg-deb -f "$gui_deb" Depends)
  echo "awb-gui Depends: $gui_depends"
  [[ ", $gui_depends," == *", awb (= $version),"* ]] || fail "awb-gui does not depend on awb $version"
  [[ $gui_depends == *libqt6widgets6* ]] || fail "awb-gui does not depend on Qt Widgets"
  # The listing read whole first: grep -q stops at its first match, and under pipefail the
  # listing's broken pipe would fail the check.
  gui_contents=$(dpkg-deb -c "$gui_deb")
  grep -q ' \./usr/bin/awb-gui$' <<<"$gui_contents" || fail "awb-gui lacks /usr/bin/awb-gui"
  grep -q ' \./usr/bin/awb-figure$' <<<"$gui_contents" || fail "awb-gui lacks /usr/bin/awb-figure"
fi
echo PASS

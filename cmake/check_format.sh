#!/usr/bin/env bash
# check_format.sh [ROOT]: the project's C and C++ sources against .clang-format (ctest
# style.clang_format). Exits 0 when every file is formatted, 1 naming those that are not, and 77
# (a skip) when no clang-format 14 is at hand: other versions format differently, so their
# verdict would not be the one CI gives. AWB_CLANG_FORMAT names another binary.
set -u
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
cf=${AWB_CLANG_FORMAT:-clang-format}

if ! command -v "$cf" >/dev/null 2>&1; then
  echo "SKIP: $cf not found (cmake/install-deps.sh installs the clang-format package)"
  exit 77
fi
version=$("$cf" --version | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p')
if [ "$version" != 14 ]; then
  echo "SKIP: $cf is version ${version:-unknown}; the tree is formatted with clang-format 14"
  exit 77
fi

# The build trees (build/, build-*) are not sources.
mapfile -d '' files < <(
  find "$root" \( -name .git -o -name 'build' -o -name 'build-*' \) -prune -o -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \) -print0 | sort -z)
if [ ${#files[@]} -eq 0 ]; then
  echo "FAIL: no C or C++ sources under $root"
  exit 1
fi

# One run over every file; each misformatted line is a "FILE:LINE:COL: error:" diagnostic.
out=$("$cf" --style=file --dry-run --Werror "${files[@]}" 2>&1)
rc=$?
mapfile -t bad < <(printf '%s\n' "$out" |
  sed -n 's|^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*|\1|p' | uniq |
  sed "s|^$root/||")
if [ $rc -ne 0 ] && [ ${#bad[@]} -eq 0 ]; then
  printf '%s\n' "$out" | head -20
  echo "FAIL: $cf exited with status $rc"
  exit 1
fi
if [ ${#bad[@]} -ne 0 ]; then
  printf '%s\n' "${bad[@]}"
  echo "FAIL: ${#bad[@]} of ${#files[@]} files are not formatted (clang-format -i FILE fixes one)"
  exit 1
fi
echo "PASS: ${#files[@]} files formatted"

#!/usr/bin/env bash
# check_test_names.sh [ROOT]: every Catch2 test name under tests/ can be a ctest name (ctest
# style.test_names). catch_discover_tests passes the names through a CMake list, so a ';' in a
# name splits one test into two that both fail to match, and CI reports two failures for a test
# that passes. Exits 0 when no name holds a ';', 1 naming the ones that do.
set -u
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
bad=$(grep -rnE --include='*.cpp' '(TEST_CASE|SCENARIO)[[:space:]]*\("[^"]*;' "$root/tests" |
      sed "s|^$root/||")
if [ -n "$bad" ]; then
  echo "$bad"
  echo "FAIL: a test name holds ';', which splits it in ctest (use ',' or 'and')"
  exit 1
fi
echo "PASS: no test name holds ';'"

#!/usr/bin/env bash
# bad_options.sh AWB: runs the bad-command-line corpus (bad_options.txt beside this script) and
# checks that each line ends in time with its documented exit code, says what is wrong on
# stderr with an error id ([cli.invalid_value] ...) and the line's expected text, where it gives
# one, and neither crashes nor reports an internal error.
set -u
awb=$1
here=$(cd "$(dirname "$0")" && pwd)
ex=$(cd "$here/../../exercises" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/subs/alice"
printf 'not an ELF file' >"$tmp/not-a-plugin.so"
mkdir -p "$tmp/handout"
echo "a file of the user's" >"$tmp/handout/journey.yaml"
printf 'tokens: [a, b]\nx: [[1, 2], [3]]\n' >"$tmp/bad-problem.yaml"
mkfifo "$tmp/fifo"                      # read by nothing: opening it blocking waits forever
truncate -s 65M "$tmp/huge.json"        # over the cap of a saved bench run
mkdir "$tmp/fifo-export" && mkfifo "$tmp/fifo-export/journey.yaml"  # in place of a student copy

cases=0 failed=0
while IFS=$'\t' read -r want args expect; do
  [[ -z "$want" || "$want" == \#* ]] && continue
  args=${args//@EX/$ex}
  args=${args//@TMP/$tmp}
  args=${args//@SUBS/$tmp/subs}
  # '' is an empty argument.
  args=${args//\'\'/@EMPTY}
  read -r -a argv <<<"$args"
  for i in "${!argv[@]}"; do [[ ${argv[i]} == @EMPTY ]] && argv[i]=""; done
  cases=$((cases + 1))
  timeout 60 "$awb" "${argv[@]}" </dev/null >"$tmp/out" 2>"$tmp/err"
  got=$?
  why=""
  if [[ $got -eq 124 ]]; then why="hung (no exit within 60 s)"
  elif [[ $got -ge 128 ]]; then why="died of signal $((got - 128))"
  elif [[ $got -ne $want ]]; then why="exit $got, expected $want"
  elif grep -q "internal error" "$tmp/err" "$tmp/out"; then why="internal error"
  elif [[ ! -s "$tmp/err" ]]; then why="nothing on stderr"
  elif ! grep -qE '\[[a-z_]+\.[a-z_]+\]' "$tmp/err"; then why="no [id] on stderr"
  elif [[ -n "${expect:-}" ]] && ! grep -qF -- "$expect" "$tmp/err"; then
    why="stderr lacks: $expect"
  fi
  if [[ -n "$why" ]]; then
    failed=$((failed + 1))
    echo "FAIL awb $args: $why"
    head -n 3 "$tmp/err" | sed 's/^/    /'
  fi
done <"$here/bad_options.txt"
echo "bad-option corpus: $cases command lines, $((cases - failed)) passed, $failed failed"
[[ $failed -eq 0 ]]

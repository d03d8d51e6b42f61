# SPDX-License-Identifier: GPL-3.0-or-later
# Shared helpers of the command-line tests: each check prints "ok" or "FAIL" with
# the reason, and the script exits 1 when anything failed.
cli=${NANDSCOPE_CLI:?NANDSCOPE_CLI must name the nandscope-cli binary}
fails=0
checks=0

ok() { checks=$((checks + 1)); echo "ok - $*"; }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL - $*"; }

# expect_fail EXIT PATTERN ARGS…: the CLI exits with EXIT and one line on stderr matching PATTERN.
expect_fail() {
  local want=$1 pattern=$2 out rc lines
  shift 2
  out=$("$cli" "$@" 2>&1 >/dev/null)
  rc=$?
  lines=$(printf '%s\n' "$out" | grep -c .)
  if [ "$rc" -ne "$want" ]; then
    bad "$* exited $rc, expected $want: $out"
  elif ! printf '%s' "$out" | grep -qiE -- "$pattern"; then
    bad "$*: message “$out” does not say /$pattern/"
  elif [ "$lines" -ne 1 ]; then
    bad "$*: expected one line of error, got $lines: $out"
  else
    ok "$* → $rc: $out"
  fi
}

# json_get FILE PYTHON-EXPRESSION-ON-r
json_get() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

empty_dir() { [ -z "$(ls -A "$1")" ]; }

finish() {
  echo "$((checks - fails)) passed, $fails failed"
  [ "$fails" -eq 0 ]
  exit $?
}

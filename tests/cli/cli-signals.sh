#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SIGKILL leaves no test file; SIGINT and SIGTERM stop at once and keep the
# partial result.
set -u
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-signals-XXXXXX")
trap 'rm -rf "$work"' EXIT

# Starts a sequential read and waits until it is past its preparation (the test file
# written whole) and measuring: the first bytes read.
start_run() {
  local dir=$1
  shift
  "$cli" run --target "$dir" --size 64m --runs 1 --time 60s --rw read "$@" >"$work/out.txt" 2>"$work/err.txt" &
  pid=$!
  wait_until $pid 60 io_past $pid read $((4 << 20)) || bad "the run never started reading ($waited_why)"
}

for mode in tmpfile unlinked; do
  dir=$(mktemp -d "$work/kill-XXXXXX")
  extra=()
  [ $mode = unlinked ] && extra=(--no-tmpfile)
  start_run "$dir" "${extra[@]}"
  if ! kill -0 $pid 2>/dev/null; then
    bad "$mode: the run ended early: $(cat "$work/err.txt")"
    continue
  fi
  empty_dir "$dir" && ok "$mode: the test file is invisible while running" \
                   || bad "$mode: visible while running: $(ls -A "$dir")"
  kill -KILL $pid
  wait $pid 2>/dev/null
  empty_dir "$dir" && ok "$mode: nothing left after SIGKILL" \
                   || bad "$mode: left after SIGKILL: $(ls -A "$dir")"
  rmdir "$dir"
done

for sig in INT TERM; do
  dir=$(mktemp -d "$work/sig-XXXXXX")
  start_run "$dir" --json "$work/partial.json"
  t0=$(date +%s%N)
  kill -$sig $pid
  wait $pid
  rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  [ $rc -eq 130 ] && ok "SIG$sig: exit 130 after $ms ms" || bad "SIG$sig: exit $rc: $(cat "$work/err.txt")"
  [ $ms -lt 3000 ] && ok "SIG$sig: stopped in $ms ms" || bad "SIG$sig: took $ms ms"
  grep -qi "cancelled" "$work/err.txt" && ok "SIG$sig: says it was cancelled" \
                                       || bad "SIG$sig: stderr: $(cat "$work/err.txt")"
  if [ -f "$work/partial.json" ] && [ "$(json_get "$work/partial.json" 'r["cancelled"]')" = True ]; then
    ok "SIG$sig: partial result saved, marked cancelled"
  else
    bad "SIG$sig: no partial result"
  fi
  empty_dir "$dir" && ok "SIG$sig: nothing left" || bad "SIG$sig: left: $(ls -A "$dir")"
  rm -f "$work/partial.json"
  rmdir "$dir"
done

finish

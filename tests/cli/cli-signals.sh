#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SIGKILL leaves no test file; SIGINT and SIGTERM stop at once and keep the
# partial result.
set -u
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-signals-XXXXXX")
trap 'rm -rf "$work"' EXIT

# measuring PID DIR: the run holds its test file in DIR open and has read from it.
measuring() { opened_in "$1" "$2" && io_past "$1" read $((4 << 20)); }

# Starts a sequential read and waits until it is past its preparation (the test file
# written whole) and measuring: the first bytes read.
start_run() {
  local dir=$1
  shift
  "$cli" run --target "$dir" --size 64m --runs 1 --time 60s --rw read "$@" >"$work/out.txt" 2>"$work/err.txt" &
  pid=$!
  wait_until $pid 60 measuring $pid "$dir" || bad "the run never started reading ($waited_why)"
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
  if saved_cancelled "$work/partial.json"; then
    ok "SIG$sig: partial result saved, marked cancelled"
  else
    bad "SIG$sig: no partial result"
  fi
  empty_dir "$dir" && ok "SIG$sig: nothing left" || bad "SIG$sig: left: $(ls -A "$dir")"
  rm -f "$work/partial.json"
  rmdir "$dir"
done

# A signal as soon as the command catches it (SigCgt in /proc/PID/status, watched
# without a pause between looks), while the target is still being looked at and no
# test file is open: an orderly cancel all the same, exit 130, a result that says
# cancelled, and nothing left.
dir=$(mktemp -d "$work/early-XXXXXX")
rm -f "$work/partial.json"
early=$(python3 - "$cli" "$dir" "$work/partial.json" <<'PY'
import os, signal, subprocess, sys, time
cli, d, out = sys.argv[1:4]
p = subprocess.Popen([cli, "run", "--target", d, "--size", "64m", "--runs", "1", "--time", "60s",
                      "--rw", "read", "--json", out],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def catches():
    try:
        for line in open("/proc/%d/status" % p.pid):
            if line.startswith("SigCgt:"):
                return int(line.split()[1], 16) & (1 << (signal.SIGTERM - 1))
    except OSError:
        pass
    return False
def opened():
    for fd in os.listdir("/proc/%d/fd" % p.pid):
        try:
            if os.readlink("/proc/%d/fd/%s" % (p.pid, fd)).startswith(d + "/"):
                return True
        except OSError:
            pass
    return False
end = time.monotonic() + 30
while not catches() and p.poll() is None and time.monotonic() < end:
    pass
if p.poll() is not None or time.monotonic() >= end:
    p.kill()
    print("never", p.wait())
else:
    state = "open" if opened() else "closed"
    p.send_signal(signal.SIGTERM)
    print(state, p.wait())
PY
)
case $early in
  never*) bad "SIGTERM at once: the command never caught SIGTERM (exit ${early#never })" ;;
  *) state=${early% *}; rc=${early#* }
     [ "$rc" = 130 ] && ok "SIGTERM at once (test file $state): exit 130" \
                     || bad "SIGTERM at once (test file $state): exit $rc" ;;
esac
if saved_cancelled "$work/partial.json"; then
  ok "SIGTERM at once: the result says cancelled"
else
  bad "SIGTERM at once: no result marked cancelled"
fi
empty_dir "$dir" && ok "SIGTERM at once: nothing left" || bad "SIGTERM at once: left: $(ls -A "$dir")"
rm -f "$work/partial.json"
rmdir "$dir"

finish

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A timed test's queue empties after its time is up. That drain is not the drive
# slowing down: the speed-over-time series folds it into its last sample (weighted by
# its length) instead of ending on a sample of its own near zero. A loop device whose
# reads the kernel's I/O throttle holds to 4 MiB/s, read in 1 MiB blocks at queue depth 8:
# after the 2 s the queue takes up to 2 s more to empty.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-devices.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
  echo "SKIP: needs root and losetup"
  exit 77
fi

devices_snapshot
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-drain-XXXXXX")
cg=
loop=
cleanup() {
  [ -d "$cg" ] && rmdir "$cg" 2>/dev/null
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  rm -rf "$work"
  devices_check
}
trap cleanup EXIT

truncate -s 64M "$work/disk.img"
loop=$(losetup -f --show --direct-io=on "$work/disk.img") || { bad "losetup failed"; finish; }
cg=$(throttle_group "nsc-drain-$$" "$loop" read 4194304)
if [ -z "$cg" ]; then
  echo "SKIP: this machine offers no I/O throttle (cgroup v1's blkio or v2's io)"
  exit 77
fi

if in_group "$cg" "$cli" run --target "$loop" --rw read --bs 1m --qd 8 --time 2s --runs 1 --quiet \
     --json "$work/r.json" >/dev/null 2>"$work/err"; then
  verdict=$(python3 - "$work/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["steps"][0]
time_ns = s["job"]["time_ns"]
drain = s["runs"][0]["drain_ns"]
t, d = s["series"]["t_ns"], s["series"]["duration_ns"]
last_start = t[-1] - d[-1]
if drain < 200e6:
    print("no long drain to judge (%.0f ms): the throttle did not hold the queue" % (drain / 1e6))
elif last_start >= time_ns:
    print("a sample of its own starts after the time was up (%.2f s, %.0f ms long)" % (last_start / 1e9, d[-1] / 1e6))
else:
    print("ok %.0f ms of drain folded into the last sample (%.2f–%.2f s)" % (drain / 1e6, last_start / 1e9, t[-1] / 1e9))
PY
)
  case $verdict in
    ok*) ok "${verdict#ok }" ;;
    *) bad "$verdict" ;;
  esac
else
  bad "the throttled run failed: $(cat "$work/err")"
fi
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A drive as the app's target, without root:
#   test-gui-device.sh path/to/nandscope
# With no system bus (so no UDisks2), a read-only preset on a block device must fail
# with the message that says so and the way out, and exit status 1; a write test on a
# mounted drive must be refused before anything is opened. Runs as nobody under Xvfb.
# Exit 77 (meson: skipped) when Xvfb, dbus-run-session or a block device is missing.

set -u

exe=${1:?usage: test-gui-device.sh NANDSCOPE}

loopdev=
gui_cleanup_more () {
  [ -n "$loopdev" ] && losetup -d "$loopdev" 2>/dev/null
}
gui_tools="Xvfb dbus-run-session"
. "$(dirname "$0")/test-gui-lib.sh"
gui_setup device 80

# A drive nobody uses: our own loop device as root, else any whole disk there is
# (nothing is opened: the test is about what happens before).
device=
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
  truncate -s 64M "$tmp/disk.img"
  loopdev=$(losetup --find --show "$tmp/disk.img" 2>/dev/null) && device=$loopdev
fi
if [ -z "$device" ]; then
  for b in /sys/block/*; do
    n=$(basename "$b")
    if [ -b "/dev/$n" ] && [ "$(cat "$b/size" 2>/dev/null || echo 0)" -gt 0 ]; then
      device=/dev/$n
      break
    fi
  done
fi
[ -n "$device" ] || { echo "SKIP: no block device to point the app at"; exit 77; }

failed=0

# run_app LOG ARGS...: the app as a user, with the system bus pointing nowhere.
run_app () {
  local log=$1
  shift
  timeout 60 "${as_user[@]}" dbus-run-session -- env "${gui_env[@]}" XDG_DATA_HOME="$home/data" \
    DBUS_SYSTEM_BUS_ADDRESS="unix:path=$tmp/no-system-bus" \
    "$exe" "$@" --run --quit-when-done >"$log" 2>&1
}

check () {
  local name=$1 want_status=$2 want_text=$3 status=$4 log=$5
  if [ "$status" -ne "$want_status" ]; then
    echo "FAIL: $name: exit status $status, expected $want_status"
    failed=1
  elif ! grep -q -- "$want_text" "$log"; then
    echo "FAIL: $name: the output does not say \"$want_text\""
    failed=1
  else
    echo "ok: $name: $(grep -- "$want_text" "$log" | head -1)"
    return
  fi
  echo "--- nandscope output"
  cat "$log"
}

# 1. A read-only preset on the drive: UDisks2 is out of reach.
run_app "$tmp/read.log" --target "$device" --preset surface --time 200ms
check "read-only preset without UDisks2" 1 \
  "UDisks2 is not available (no system bus" $? "$tmp/read.log"
grep -q "run nandscope-cli as root, or test a folder on the drive" "$tmp/read.log" \
  || { echo "FAIL: the message does not say the way out"; failed=1; }

# 2. A preset that writes, on a drive that hosts a mounted filesystem: refused with
# the reason, before any dialog and before UDisks2.
root_src=$(findmnt -n -o SOURCE / 2>/dev/null)
root_disk=
if [ -n "$root_src" ] && [ -b "$root_src" ]; then
  pk=$(lsblk -n -d -o PKNAME "$root_src" 2>/dev/null | head -1)
  if [ -n "$pk" ]; then root_disk=/dev/$pk; else root_disk=$root_src; fi
fi
if [ -n "$root_disk" ] && [ -b "$root_disk" ]; then
  run_app "$tmp/write.log" --target "$root_disk" --preset quick --time 200ms
  check "write preset on the system drive" 1 "writes to the drive, so it cannot run on" $? \
    "$tmp/write.log"
else
  echo "skip: / is not on a block device here (a container); no refusal to check"
fi

[ "$failed" -eq 0 ] || exit 1
echo "PASS"

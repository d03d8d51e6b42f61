# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the tests that make loop devices, mounts, swap or zram devices: they
# must leave the machine as they found it. devices_snapshot records the machine's
# loop devices, block-device and temporary mounts, swap areas and sized zram devices
# when the script starts; devices_check, called last in the script's EXIT trap
# (after its own clean-up), compares them and, when anything was left behind or
# taken away, prints a FAIL line naming each and exits 1 (otherwise the script's own
# exit status stands).
#
#   . "$(dirname "$0")/lib-devices.sh"     (tests/cli/) — then
#   devices_snapshot                       at the start
#   cleanup() { …; devices_check; }        the EXIT trap
#
# The device tests run under `flock /tmp/nsc-devices.lock` (see tests/README.md):
# nobody else changes these tables while one runs.

devices_state() {
  local z
  # "/dev/loop3: [2049]:1234 (/path/img)": device and backing file.
  losetup -a 2>/dev/null | sed 's/^/loop /' | sort
  awk '$1 ~ /^\/dev\/(loop|zram|nvme|md|dm-)/ || $2 ~ /^\/(tmp|var\/tmp|mnt|dev\/shm)\// {print "mount", $1, $2}' \
    /proc/mounts | sort
  tail -n +2 /proc/swaps | awk '{print "swap", $1}' | sort
  for z in /sys/block/zram*; do
    [ -r "$z/disksize" ] && [ "$(cat "$z/disksize")" != 0 ] && echo "zram ${z##*/} sized $(cat "$z/disksize")"
  done
  return 0
}

devices_snapshot() {
  devices_before=$(devices_state)
}

devices_check() {
  local after left gone i
  [ -n "${devices_before+x}" ] || return 0
  # A loop device detached while something still had it open goes only when that
  # closes (autoclear): give killed holders a moment.
  for i in $(seq 20); do
    after=$(devices_state)
    [ "$after" = "$devices_before" ] && break
    udevadm settle 2>/dev/null
    sleep 0.1
  done
  left=$(comm -13 <(printf '%s\n' "$devices_before") <(printf '%s\n' "$after") | grep .)
  gone=$(comm -23 <(printf '%s\n' "$devices_before") <(printf '%s\n' "$after") | grep .)
  if [ -n "$left" ] || [ -n "$gone" ]; then
    [ -n "$left" ] && printf 'FAIL - left behind: %s\n' "$left"
    [ -n "$gone" ] && printf 'FAIL - there before, gone after: %s\n' "$gone"
    exit 1
  fi
  echo "ok - no loop device, mount, swap area or zram device left behind"
}

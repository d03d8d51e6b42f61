# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the tests that make loop devices, mounts, swap or zram devices: they
# must leave the machine as they found it. devices_snapshot records the machine's
# loop devices, block-device and temporary mounts, swap areas, sized zram devices and
# the I/O throttle's cgroups when the script starts; devices_check, called last in the
# script's EXIT trap (after its own clean-up), compares them and, when anything was
# left behind, prints a FAIL line naming each and exits 1 (otherwise the script's own
# exit status stands). Ours: a loop device over an image in the script's $work folder,
# a mount or swap area there or on such a loop device, a sized zram device, a cgroup
# named after the script's process ("nsc-NAME-PID"). Other changes
# (other users' devices) are only noted.
#
#   . "$(dirname "$0")/lib-devices.sh"     (tests/cli/) — then
#   devices_snapshot                       at the start
#   cleanup() { …; devices_check; }        the EXIT trap
#
# The device tests run under `flock /tmp/nsc-devices.lock` (see tests/README.md):
# nobody else changes these tables while one runs.

devices_state() {
  local z
  # Each kind's lines sorted, the kinds in the order of their names (comm reads it).
  # The I/O throttle's cgroups the tests make (throttle_group in lib.sh): "nsc-NAME-PID".
  ls -d /sys/fs/cgroup/blkio/nsc-* /sys/fs/cgroup/nsc-* 2>/dev/null | sort | sed 's/^/cgroup /'
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
  local after left gone others i
  [ -n "${devices_before+x}" ] || return 0
  # A loop device detached while something still had it open goes only when that
  # closes (autoclear): give killed holders a moment.
  for i in $(seq 20); do
    after=$(devices_state)
    left=$(comm -13 <(printf '%s\n' "$devices_before") <(printf '%s\n' "$after") | grep .)
    [ -z "$left" ] && break
    udevadm settle 2>/dev/null
    sleep 0.1
  done
  # Others' runs on this machine make devices too: what appeared that is not over
  # or under this test's folder ($work) is noted; a zram device counts as ours, and
  # so does a cgroup named after this script's process.
  if [ -n "${work:-}" ]; then
    others=$(printf '%s\n' "$left" | grep -vF -e "$work" | grep -v -e '^zram' -e "^cgroup .*-$$\$" | grep .)
    left=$(printf '%s\n' "$left" | grep -F -e "$work" -e zram; printf '%s\n' "$left" | grep "^cgroup .*-$$\$")
    [ -n "$others" ] && printf '# appeared meanwhile, not from this test: %s\n' "$others"
  fi
  gone=$(comm -23 <(printf '%s\n' "$devices_before") <(printf '%s\n' "$after") | grep .)
  # Gone: another user's device went away meanwhile (noted, not ours to judge).
  [ -n "$gone" ] && printf '# there before, gone after: %s\n' "$gone"
  if [ -n "$left" ]; then
    printf 'FAIL - left behind: %s\n' "$left"
    exit 1
  fi
  echo "ok - no loop device, mount, swap area or zram device left behind"
}

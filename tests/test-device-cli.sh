#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `nandscope-cli devices --json` on real devices made for the occasion: a zram device
# (4 KiB logical blocks) and a loop device of a known size, each found with the
# right capacity, block size and transport; a mounted loop device reported as such.
set -u
. "$(dirname "$0")/cli/lib.sh"
. "$(dirname "$0")/cli/lib-devices.sh"

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: creating zram and loop devices needs root"
  exit 77
fi

devices_snapshot
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/test-device-cli-XXXXXX")
zram_id=
loop=
cleanup() {
  mountpoint -q "$work/mnt" 2>/dev/null && umount "$work/mnt"
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  if [ -n "$zram_id" ]; then
    echo 1 > /sys/block/zram$zram_id/reset
    echo "$zram_id" > /sys/class/zram-control/hot_remove 2>/dev/null
  fi
  rm -rf "$work"
  devices_check
}
trap cleanup EXIT

# field JSON NAME EXPR: EXPR evaluated on the device object d named NAME.
field() {
  python3 -c 'import json,sys
devs=[x for x in json.load(open(sys.argv[1])) if x["name"]==sys.argv[2]]
if not devs:
    print("MISSING")
else:
    d=devs[0]
    print(eval(sys.argv[3]))' "$1" "$2" "$3" 2>&1
}
check() {  # check JSON NAME EXPR EXPECTED WHAT
  local got
  got=$(field "$1" "$2" "$3")
  [ "$got" = "$4" ] && ok "$5: $got" || bad "$5: got $got, expected $4"
}

[ -d /sys/class/zram-control ] || modprobe zram 2>/dev/null
if [ -w /sys/class/zram-control/hot_add ]; then
  zram_id=$(cat /sys/class/zram-control/hot_add)
  echo 256M > /sys/block/zram$zram_id/disksize
fi

truncate -s 96M "$work/disk.img"
loop=$(losetup -f --show "$work/disk.img") || bad "losetup failed"
lname=${loop#/dev/}

if ! "$cli" devices --json > "$work/d.json" 2> "$work/err"; then
  bad "devices --json failed: $(cat "$work/err")"
  finish
fi
python3 -c 'import json,sys; assert isinstance(json.load(open(sys.argv[1])), list)' "$work/d.json" \
  && ok "devices --json prints a JSON array" || bad "devices --json is not a JSON array"

if [ -n "$zram_id" ]; then
  z=zram$zram_id
  check "$work/d.json" "$z" 'd["capacity"]' 268435456 "$z capacity"
  check "$work/d.json" "$z" 'd["logical_block_size"]' 4096 "$z logical block size"
  check "$work/d.json" "$z" 'd["transport"]' zram "$z transport"
  check "$work/d.json" "$z" 'd["state"]' free "$z state"
else
  echo "# zram is not available here: its checks are skipped"
fi

check "$work/d.json" "$lname" 'd["capacity"]' 100663296 "$lname capacity"
check "$work/d.json" "$lname" 'd["logical_block_size"]' 512 "$lname logical block size"
check "$work/d.json" "$lname" 'd["transport"]' loop "$lname transport"
check "$work/d.json" "$lname" 'd["backing_file"]' "$work/disk.img" "$lname backing file"
check "$work/d.json" "$lname" 'd["free"]' True "$lname free"

# Mounted: the list says where, and the table names it too.
mkfs.ext4 -q "$loop" && mkdir "$work/mnt" && mount "$loop" "$work/mnt"
"$cli" devices --json > "$work/m.json"
check "$work/m.json" "$lname" 'd["mounts"][0]["mountpoint"]' "$work/mnt" "mounted $lname mountpoint"
check "$work/m.json" "$lname" 'd["mounts"][0]["fstype"]' ext4 "mounted $lname fstype"
check "$work/m.json" "$lname" 'd["free"]' False "mounted $lname not free"
if "$cli" devices > "$work/table.txt" 2>&1 && grep -E "^$loop +" "$work/table.txt" | grep -q "mounted at $work/mnt"; then
  ok "table names the mount of $loop"
else
  bad "table: $(cat "$work/table.txt")"
fi
umount "$work/mnt"

# The root filesystem's disk, when / is on one, is never "free".
rootfree=$(python3 -c 'import json,sys
print(any(d["hosts_root"] and d["free"] for d in json.load(open(sys.argv[1]))))' "$work/d.json")
[ "$rootfree" = False ] && ok "no device hosting / is called free" || bad "a device hosting / is called free"

expect_fail 2 "Unknown option" devices --bogus
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The drive picker says, row by row, why a drive cannot be used before anyone picks it:
# without UDisks2 (no system bus here) no drive can be opened, and such rows cannot be
# chosen; a drive in use is for read tests, with the in-use check's reason. Choosing a
# drive the selected preset cannot run on says which preset is chosen instead.
#   test-gui-walk-drives.sh path/to/nandscope
# Nothing is opened: the real drives are only listed, the second part is the captured
# laptop tree (NANDSCOPE_SYSFS_ROOT).

exe=${1:?usage: test-gui-walk-drives.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" drives
sysfs=$(cd "$(dirname "$0")/../../tests/data" && pwd)/sysfs-laptop

drives=0
for b in /sys/block/*; do
  [ "$(cat "$b/size" 2>/dev/null || echo 0)" -gt 0 ] && drives=$((drives + 1))
done
if [ "$drives" -gt 0 ]; then
  walk "$tmp/real.log" "
popup target_button
wait 500
dump picker
shot-popover target_button $shots/picker-no-udisks.png
activate-row drive_list 0
dump after-pick
" --target "$target"
  expect "$tmp/real.log" picker 'AdwActionRow.*unavailable-drive' "drive rows are marked unavailable without UDisks2"
  expect "$tmp/real.log" picker 'UDisks2 is not available \(no system bus\): the app cannot open drives here' \
    "and say why"
  expect_not "$tmp/real.log" picker 'can run on it.*UDisks2 is not available' "no row that cannot be opened claims tests can run"
  expect_not "$tmp/real.log" picker 'GDBus|org\.freedesktop\.DBus\.Error' "in words, not D-Bus errors"
  expect_line "$tmp/real.log" "script: row 0 of drive_list cannot be chosen" \
    "picking such a drive does nothing"
  expect "$tmp/real.log" after-pick 'target_label.*"target"' "the folder stays the target"
else
  echo "skip: no block device here to list"
fi

cp -r "$sysfs" "$sysfs.mountinfo" "$sysfs.swaps" "$tmp/"
chmod -R a+rX "$tmp/sysfs-laptop"
walk_env=(NANDSCOPE_SYSFS_ROOT="$tmp/sysfs-laptop")
walk "$tmp/fake.log" "
preset quick
popup target_button
wait 300
dump picker
target /dev/sda
dump switched
shot $shots/preset-switched.png
preset quick
target /dev/sdb
dump blank
shot $shots/blank-drive.png
preset quick
activate check_button
dump chose-probe
activate check_button
dump chose-check
shot $shots/blank-drive-probe.png
" --target "$target"
expect "$tmp/fake.log" picker 'In use \(mounted at /data.*\): read tests only' "a mounted drive says it is for read tests"
expect "$tmp/fake.log" switched 'Quick cannot run on [^;]*; [^"]* is chosen instead' \
  "the preset that replaces Quick on a mounted drive is named"
# A blank drive (no table, no filesystem) is offered the quick probe first, then the
# capacity check, each with what it writes and how long it takes; with the probe
# chosen, the check that settles what a probe cannot.
expect "$tmp/fake.log" blank 'New drive: check first that it stores what it says\. The quick probe finds most fakes writing about [0-9.]+ [GMT]iB \(about [0-9]+ (seconds?|minutes?)\); the capacity check writes all of it \([0-9.]+ [GMT]iB\), reads it back and verifies every block: about [0-9]+ (minutes?|hours?)' \
  "a blank drive is offered the quick probe and the capacity check, their bytes and their time"
expect "$tmp/fake.log" blank 'GtkButton#check_button.*action=win.select-preset' "with its button"
expect "$tmp/fake.log" blank '"Probe for a Fake First"' "which chooses the probe"
expect "$tmp/fake.log" chose-probe 'New drive: a probe cannot prove a drive good\. The capacity check settles it: it writes all of it \([0-9.]+ [GMT]iB\)' \
  "with the probe chosen, the full check is offered with its bytes"
expect "$tmp/fake.log" chose-probe '"Check Capacity Fully"' "with its button"
expect "$tmp/fake.log" chose-probe 'subtitle_label.*"Is it fake\? Quick check · about' "the button chose the probe"
expect "$tmp/fake.log" chose-check 'subtitle_label.*"Capacity and integrity · about' "and then the full check"
walk_done

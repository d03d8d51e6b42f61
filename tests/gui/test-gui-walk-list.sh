#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The preset list is grouped under headings (CrystalDiskMark sets, SLC cache, sweeps,
# endurance; the drive's own for drives) and the current preset has a check mark.
#   test-gui-walk-list.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-list.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" list

walk "$tmp/walk.log" "
preset write-fill
activate preset_dropdown
wait 500
dump top
shot-popover preset_dropdown $shots/preset-list.png
scroll-end
wait 500
dump bottom
shot-popover preset_dropdown $shots/preset-list-end.png
" --target "$target"

expect "$tmp/walk.log" top 'preset-category.*"CrystalDiskMark sets"' "the list starts with the CrystalDiskMark sets"
expect "$tmp/walk.log" top 'preset-category.*"SLC cache"' "then the SLC cache tests"
expect "$tmp/walk.log" bottom 'preset-category.*"Endurance"' "and ends with endurance"
section "$tmp/walk.log" top | python3 -c '
import re, sys
title, checked = None, []
for line in sys.stdin:
    m = re.search(r"GtkLabel @[^\"]*\"([^\"]*)\"$", line)
    if m and "preset-category" not in line and not m.group(1).startswith("About "):
        title = m.group(1)
    if "preset-check" in line:
        checked.append(title)
if checked != ["Write-fill (SLC cache)"]:
    sys.exit(f"FAIL: the check marks are on {checked}, not on Write-fill (SLC cache) alone")
print("ok: the current preset, and only it, has a check mark")
' || failed=1
# After the target changes to a drive (the captured tree's free sdb), the drive's own
# presets come back under their heading.
sysfs=$(cd "$(dirname "$0")/../../tests/data" && pwd)/sysfs-laptop
cp -r "$sysfs" "$sysfs.mountinfo" "$sysfs.swaps" "$tmp/"
chmod -R a+rX "$tmp/sysfs-laptop"
walk_env=(NANDSCOPE_SYSFS_ROOT="$tmp/sysfs-laptop")
walk "$tmp/drive.log" "
activate preset_dropdown
wait 300
activate preset_dropdown
target /dev/sdb
activate preset_dropdown
wait 500
scroll-end
wait 500
dump drive
" --target "$target"
expect "$tmp/drive.log" drive 'preset-category.*"The drive itself"' "a drive's list ends with the drive's own presets"
expect "$tmp/drive.log" drive '"Erase the drive"' "erase among them"
walk_done

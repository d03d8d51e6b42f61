#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Presets that are about the drive itself (erase, surface scans) are not offered for a
# folder: asking for one gives the reason and the way out; on a drive they are. No
# preset text speaks of command-line flags.
#   test-gui-walk-presets.sh path/to/nandscope
# The drive is the captured laptop tree (NANDSCOPE_SYSFS_ROOT): shown, never opened.

exe=${1:?usage: test-gui-walk-presets.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" presets
sysfs=$(cd "$(dirname "$0")/../../tests/data" && pwd)/sysfs-laptop

walk "$tmp/folder.log" "
preset erase
preset surface
activate preset_dropdown
dump list
shot-popover preset_dropdown $shots/folder-presets.png
" --target "$target"

expect_line "$tmp/folder.log" "preset refused: Erase the drive needs a drive: choose one under Drives" \
  "Erase the drive is refused for a folder, with the way out"
expect_line "$tmp/folder.log" "preset refused: Surface scan needs a drive" \
  "Surface scan is refused for a folder"
expect "$tmp/folder.log" list '"Quick"' "the preset list is shown"
# Every row says how long its preset takes, on the list's first opening.
expect "$tmp/folder.log" list 'caption.*"About [0-9]+ [a-z]+"' "the rows have their durations"
expect_not "$tmp/folder.log" list 'dim-label.caption.* ""$' "no row is blank under its title"
expect_not "$tmp/folder.log" list '"(Erase the drive|Surface scan|Surface scan, write and read)"' \
  "no drive-only preset is offered for a folder"

# On a drive nothing uses (the captured tree's sdb), they are there.
cp -r "$sysfs" "$sysfs.mountinfo" "$sysfs.swaps" "$tmp/"
chmod -R a+rX "$tmp/sysfs-laptop"
walk_env=(NANDSCOPE_SYSFS_ROOT="$tmp/sysfs-laptop")
walk "$tmp/drive.log" "
target /dev/sdb
preset erase
dump erase
activate preset_dropdown
dump list
" --target "$target"
grep -q "preset refused" "$tmp/drive.log" && { echo "FAIL: a preset was refused on a free drive:"; grep "preset refused" "$tmp/drive.log"; failed=1; }
expect "$tmp/drive.log" list '"Erase the drive"' "Erase the drive is offered for a drive"
expect_not "$tmp/drive.log" erase 'Nothing else in the folder' "the drive's page says nothing of a folder"
expect_not "$tmp/drive.log" erase ' --[a-z]' "the erase text names no command-line flag"
for p in degradation response-time review cache-recovery; do
  if grep -q '"description": "[^"]* --[a-z]' "$(dirname "$0")/../../data/presets/$p.json"; then
    echo "FAIL: the $p preset's text names a command-line flag"
    failed=1
  fi
done

# The erase confirmation, answered as a person would: a dialog that does not name the
# drive is not answered; Cancel writes nothing; Erase on a captured tree is refused.
walk "$tmp/confirm.log" "
target /dev/sdb
preset erase
run
respond erase nvme9n9
respond cancel sdb
wait-run
dump cancelled
run
respond erase sdb
wait-run
dump erased
" --target "$target"
expect_line "$tmp/confirm.log" 'script: the dialog does not name nvme9n9; not answered' \
  "a confirmation that does not name the drive is not answered"
expect_line "$tmp/confirm.log" 'script: dialog heading="Erase .*(sdb)?"' \
  "the confirmation names the drive"
expect "$tmp/confirm.log" cancelled '"Not confirmed; nothing was written"' "Cancel writes nothing"
expect_not "$tmp/confirm.log" cancelled '^window AdwMessageDialog' "the answered confirmation is closed"
expect "$tmp/confirm.log" erased '"The drive list comes from NANDSCOPE_SYSFS_ROOT' \
  "Erase on a captured tree is refused after the confirmation"
walk_done

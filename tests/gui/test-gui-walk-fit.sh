#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A folder too small for the preset's test file: the start page says so before Run,
# with a size that fits and a button that takes it, for that preset only; nothing is
# written to find out. The folder is a 1500 MiB tmpfs of the test's own (root), where
# Quick's 2 GiB cannot fit and 1 GiB can.
#   test-gui-walk-fit.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-fit.sh NANDSCOPE}
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: needs root to mount a small filesystem"
  exit 77
fi
. "$(dirname "$0")/test-gui-lib.sh"
. "$(dirname "$0")/../cli/lib-devices.sh"
devices_snapshot

small=
gui_cleanup_more () {
  [ -n "$small" ] && umount "$small" 2>/dev/null
  devices_check
}
walk_setup "$exe" fit
work=$tmp
small=$tmp/small
mkdir -p "$small"
mount -t tmpfs -o size=1500m,mode=0777 nsc-walk-fit "$small" || { echo "FAIL: cannot mount a tmpfs"; exit 1; }

walk "$tmp/walk.log" "
preset quick
dump offered
shot $shots/offered.png
action win.use-fitting-size
dump taken
preset compressibility
dump other
preset quick
dump back
" --target "$small"

expect "$tmp/walk.log" offered 'description_label.*The 2 GiB test file does not fit in this folder: 1.46 GiB are free' \
  "the start page says the test file does not fit, and what is free"
expect "$tmp/walk.log" offered 'GtkButton#fit_button.*action=win.use-fitting-size' "with a button to take a size that fits"
expect "$tmp/walk.log" offered '"Use a 1 GiB Test File"' "which names the size"
expect_not "$tmp/walk.log" taken 'does not fit' "taken, the warning is gone"
expect "$tmp/walk.log" taken 'preset_label.*Writes at most [0-9.]+ GiB' "the promise is the new plan's"
expect_not "$tmp/walk.log" taken 'GtkButton#fit_button' "and the button with it"
expect "$tmp/walk.log" other 'description_label.*The 8 GiB test file does not fit' \
  "another preset keeps its own size (compressibility: 8 GiB), and is told the same"
expect_not "$tmp/walk.log" back 'does not fit' "back on Quick, the size taken still holds"
[ -z "$(ls -A "$small")" ] && echo "ok: nothing was written to find out" \
  || { echo "FAIL: the folder holds $(ls -A "$small")"; failed=1; }
walk_done

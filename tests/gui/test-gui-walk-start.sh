#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The start page says truthfully, before Start, what a preset writes, how long it takes
# and what it leaves: a write-fill in a folder fills its free space (never a size made of
# the "all free space" sentinel), and after a real run on the drive its time comes from
# the speed that run measured. Quick's test file and its description agree.
#   test-gui-walk-start.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-start.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" start

walk "$tmp/first.log" "
dump quick
shot $shots/quick.png
preset write-fill
dump fill
shot $shots/write-fill.png
" --target "$target"

expect "$tmp/first.log" quick 'description_label.*"Writes a hidden test file of 2 GiB in ' \
  "Quick states its 2 GiB test file"
expect "$tmp/first.log" quick 'preset_label.*2 GiB test area of two 1 GiB halves' \
  "Quick's description agrees with its 2 GiB file"
expect "$tmp/first.log" quick 'preset_label.*Afterwards the folder is as it was' \
  "Quick says what it leaves"
expect_not "$tmp/first.log" fill '[0-9] PiB' "no size made of the free-space sentinel"
expect "$tmp/first.log" fill 'description_label.*"Fills the free space of [^:]*: about [0-9.]+ [GMT]i?B' \
  "write-fill says it fills the free space, and how much"
expect "$tmp/first.log" fill 'preset_label.*Takes about [0-9]+ (minutes?|hours?|seconds?) if the drive writes [0-9.]+ [GMT]iB at 500 MiB/s' \
  "with no earlier result the time is given at a stated speed"
expect "$tmp/first.log" fill 'subtitle_label.*Write-fill \(SLC cache\) · about' \
  "the header gives the same estimate"

# A short real write-fill on the same drive; then the estimate uses its speed.
timeout 120 "${as_user[@]}" dbus-run-session -- env "${gui_base_env[@]}" LANG=C.UTF-8 \
  "$exe" --target "$target" --preset write-fill --size 64m --max-idle 1s --run --quit-when-done \
  >"$tmp/run.log" 2>&1 || { echo "FAIL: the write-fill run failed:"; cat "$tmp/run.log"; failed=1; }

fill_result=$(ls "$data"/nandscope/results/*-write-fill.json 2>/dev/null | head -1)
walk "$tmp/second.log" "
preset write-fill
dump fill
shot $shots/write-fill-known-speed.png
open $fill_result
wait 1000
dump fill-result
" --target "$target"
expect "$tmp/second.log" fill 'preset_label.*Takes about [0-9]+ (minutes?|hours?|seconds?) at the speed this drive showed last time \([0-9.]+ MiB/s\)' \
  "after a run the time comes from the drive's measured speed"
# Write-fill only writes: its result has a Write column and no empty Read column.
expect "$tmp/second.log" fill-result 'column-title.*"Write"' "the write-fill result has its Write column"
expect_not "$tmp/second.log" fill-result 'column-title.*"Read"' "and no Read column that nothing could fill"

walk_done

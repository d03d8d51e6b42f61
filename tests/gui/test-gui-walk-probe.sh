#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A quick probe's result in the app: the command line probes a 256 MiB loop device
# (root; skipped without), and the app opens the saved result. Its summary starts with
# the verdict in one sentence and says what a probe cannot prove and what the full check
# costs; the chart list offers the probe's map, which shows the places; History lists
# it with its verdict.
#   test-gui-walk-probe.sh path/to/nandscope path/to/nandscope-cli

exe=${1:?usage: test-gui-walk-probe.sh NANDSCOPE NANDSCOPE-CLI}
cli=${2:?usage: test-gui-walk-probe.sh NANDSCOPE NANDSCOPE-CLI}
. "$(dirname "$0")/test-gui-lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for a loop device"; exit 77; }
walk_setup "$exe" probe

truncate -s 256m "$tmp/drive.img"
loop=$(losetup -f --show "$tmp/drive.img") || { echo "FAIL: losetup failed"; exit 1; }
"$cli" run --target "$loop" --destroy-data="$loop" --preset probe --quiet --json "$tmp/probe.json" \
  >"$tmp/probe.out" 2>&1
status=$?
losetup -d "$loop"
rm -f "$tmp/drive.img"
[ $status -eq 0 ] || { echo "FAIL: the probe failed: $(cat "$tmp/probe.out")"; exit 1; }
chmod a+r "$tmp/probe.json"
# Saved where the app keeps its results: History lists it.
mkdir -p "$results"
cp "$tmp/probe.json" "$results/probe.json"
[ "$(id -u)" -eq 0 ] && chown -R nobody "$data"

walk "$tmp/walk.log" "
action win.history
wait 1000
dump history
close-top
open $tmp/probe.json
wait 500
dump opened
shot $shots/probe-result.png
"

expect "$tmp/walk.log" opened 'summary_label.*The [0-9]+ places the probe wrote across the drive kept their data: good as far as a quick probe can tell' \
  "the verdict comes first, in one sentence"
expect "$tmp/walk.log" opened 'A probe cannot prove a drive good' "with what a probe cannot prove"
expect "$tmp/walk.log" opened 'The capacity check settles it: it writes 320 MiB and reads 256 MiB back' \
  "and what the full check writes and reads"
expect "$tmp/walk.log" history 'Is it fake\? Quick check' "History lists the probe"
expect "$tmp/walk.log" history 'good as far as a quick probe can tell' "with its verdict"
expect "$tmp/walk.log" opened "Probe's map" "the chart list offers the probe's map"
expect "$tmp/walk.log" opened "What the probe's places held" "and shows it"
walk_done

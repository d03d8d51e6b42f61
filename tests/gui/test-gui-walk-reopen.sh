#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A reopened result states its status (cancelled), its conditions (strict or not, runs,
# median or best) and its date as the history writes it, and starts at its top even
# when the one before was scrolled down.
#   test-gui-walk-reopen.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-reopen.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" reopen

app_run () {
  timeout 120 "${as_user[@]}" dbus-run-session -- env "${gui_base_env[@]}" LANG=C.UTF-8 \
    "$exe" --target "$target" --preset compressibility --runs 2 --size 32m --time 500ms "$@" \
    --run --quit-when-done >>"$tmp/runs.log" 2>&1
}
app_run || { echo "FAIL: the run failed"; cat "$tmp/runs.log"; exit 1; }
sleep 1.1
app_run --cancel-after-steps 1 || { echo "FAIL: the cancelled run failed"; cat "$tmp/runs.log"; exit 1; }
complete=$(ls "$data"/nandscope/results/*.json | head -1)
cancelled=$(ls "$data"/nandscope/results/*.json | sed -n 2p)
[ -n "$cancelled" ] || { echo "FAIL: the cancelled run saved nothing"; cat "$tmp/runs.log"; exit 1; }

walk "$tmp/walk.log" "
action win.history
wait 1000
dump history
close-top
open $cancelled
resize 900 500
wait 500
scroll-end
wait 300
dump scrolled
open $complete
wait 300
dump reopened
shot $shots/reopened.png
"

expect "$tmp/walk.log" scrolled 'results_scroller.* scroll=[1-9]' "the first result was scrolled down"
expect "$tmp/walk.log" scrolled 'summary_label.*\\nCancelled after [0-9]+ [a-z]+ · normal conditions · 2 runs per test, the median shown' \
  "a reopened cancelled result says so, after how long, with its conditions"
expect "$tmp/walk.log" reopened 'results_scroller.* scroll=0/' "the next result starts at its top"
expect "$tmp/walk.log" reopened 'summary_label.*\\nFinished in [0-9]+ [a-z]+ · normal conditions · 2 runs per test, the median shown' \
  "a complete one says so"
expect "$tmp/walk.log" reopened 'summary_label.*\\n32 MiB test file on [a-z0-9]+ · (io_uring|psync)' \
  "with its test file and the backends its tests ran on"
expect "$tmp/walk.log" reopened '"Mount Options"' "the test bench shows the mount options"
# The title bar names the result shown, not the preset the picker holds (Quick here).
expect "$tmp/walk.log" reopened 'subtitle_label.*"Compressible data · [0-9]+ [A-Z][a-z]+ [0-9]{4}, [0-9:]+"' \
  "the title bar names the result shown and its date"
expect_not "$tmp/walk.log" reopened 'subtitle_label.*"Quick' "not the picker's preset"
expect_not "$tmp/walk.log" reopened 'subtitle.*"([^",]*,)*([^",]+),([^",]*,)*\2(,[^"]*)?"' \
  "no option in a list said twice (the mount's and the filesystem's rw)"
expect_not "$tmp/walk.log" history '·  ' "the history's dates are not padded (\"Quick ·   2 Dec\")"
# The history's date of the newest row, on the result's page as it is in the list.
date=$(section "$tmp/walk.log" history | grep -o '"Compressible data · [^"]*"' | head -2 | tail -1 \
       | sed 's/^"Compressible data · //; s/"$//')
if [ -n "$date" ] && section "$tmp/walk.log" reopened | grep 'summary_label' | grep -qF "· $date\\n"; then
  echo "ok: the date reads as in the history ($date)"
else
  echo "FAIL: the result's date is not the history's \"$date\":"
  section "$tmp/walk.log" reopened | grep summary_label
  failed=1
fi

# A test stopped before its end is greyed, and its tooltip says why (a copy of the
# complete result whose first test is marked unfinished, as a cancel leaves it).
partial=$tmp/partial.json
python3 - "$complete" "$partial" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["cancelled"] = True
r["steps"][0]["completed"] = False
json.dump(r, open(sys.argv[2], "w"))
PY
chmod a+r "$partial"
walk "$tmp/partial.log" "
open $partial
wait 500
dump partial
"
expect "$tmp/partial.log" partial 'result-cell.*partial.*tooltip="[0-9.]+ MiB/s[^"]*\\nStopped before the end: a partial measurement"' \
  "a greyed partial value says why, beside its numbers"

# Just run, then reopened: the page says the same of the same result (but where it
# was saved, or opened from).
walk "$tmp/run.log" "
run
wait-run
dump just-run
" --target "$target" --preset compressibility --runs 2 --size 32m --time 500ms
newest=$(ls -t "$data"/nandscope/results/*.json | head -1)
walk "$tmp/open.log" "
open $newest
wait 500
dump opened
"
summary_head () {
  section "$1" "$2" | grep -o 'summary_label[^"]*"[^"]*"' | head -1 | sed 's/^[^"]*"//; s/"$//' \
    | sed 's/\\nSaved to .*//; s/\\nOpened from .*//'
}
run_head=$(summary_head "$tmp/run.log" just-run)
open_head=$(summary_head "$tmp/open.log" opened)
if [ -n "$run_head" ] && [ "$run_head" = "$open_head" ]; then
  echo "ok: just run and reopened, the same header: $run_head"
else
  echo "FAIL: the header just run and reopened differ:"
  echo "  run:    $run_head"
  echo "  opened: $open_head"
  failed=1
fi
walk_done

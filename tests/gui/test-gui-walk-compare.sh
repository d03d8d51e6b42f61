#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Compare shows every test's numbers side by side with the differences, a picker of
# the test the chart shows, and marks a cancelled result and one run under strict
# conditions.
#   test-gui-walk-compare.sh path/to/nandscope
# Two real runs of the compressible-data preset (one cancelled; it starts measuring at
# once, so the cancel finds data to keep); the strict one is a copy of the first with
# its conditions marked strict (the app cannot set strict without its GSettings
# schema installed), so only the mark is read from it.

exe=${1:?usage: test-gui-walk-compare.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" compare

app_run () {
  timeout 120 "${as_user[@]}" dbus-run-session -- env "${gui_base_env[@]}" LANG=C.UTF-8 \
    "$exe" --target "$target" --preset compressibility --runs 1 --size 32m "$@" --run --quit-when-done \
    >>"$tmp/runs.log" 2>&1
}
app_run --time 1s || { echo "FAIL: the first run failed"; cat "$tmp/runs.log"; exit 1; }
sleep 1.1
app_run --time 1s --cancel-after-steps 1 || { echo "FAIL: the cancelled run failed"; cat "$tmp/runs.log"; exit 1; }
results=$data/nandscope/results
first=$(ls "$results"/*.json | head -1)
second=$(ls "$results"/*.json | sed -n 2p)
[ -n "$second" ] || { echo "FAIL: the cancelled run saved nothing"; cat "$tmp/runs.log"; exit 1; }
strict=$results/20000101T000000Z-compressibility.json
python3 - "$first" "$strict" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["conditions"]["strict"] = True
r["started"] = "2000-01-01T00:00:00Z"
json.dump(r, open(sys.argv[2], "w"))
PY
chmod a+r "$strict"
[ "$(id -u)" -eq 0 ] && chown nobody "$strict"

walk "$tmp/walk.log" "
wait 1000
dump compare
shot-top $shots/compare.png
" --compare "$first" --compare "$second" --compare "$strict"

expect "$tmp/walk.log" compare 'GtkGrid.*compare-table' "the comparison has a table"
expect "$tmp/walk.log" compare 'GtkLabel.*test-name.*"SEQ1M Q8T1 random write"' "with every test"
expect "$tmp/walk.log" compare 'GtkLabel.*test-name.*"SEQ1M Q8T1 zeros write"' "down to the last one"
expect "$tmp/walk.log" compare 'GtkLabel.*"[0-9.]+ \([+−][0-9]+ %\)"' "the differences from the first result"
expect "$tmp/walk.log" compare 'marked-result.*\(cancelled\)' "the cancelled result is marked"
expect "$tmp/walk.log" compare 'marked-result.*\(strict\)' "the strict result is marked"
# Dates as the history says them ("1 Jan 2000, 00:00", local time), not ISO, no padding.
expect "$tmp/walk.log" compare 'marked-result.*· [1-9][0-9]? [A-Z][a-z]{2} [0-9]{4}, [0-9]{2}:[0-9]{2} \(strict\)' \
  "each result's date as the history says it"
expect_not "$tmp/walk.log" compare 'marked-result.*([0-9]{4}-[0-9]{2}-[0-9]{2}|·  )' "no ISO date, no padded day"
expect "$tmp/walk.log" compare 'GtkDropDown.*tooltip="Which test to show"' "the chart has a test picker"
walk_done

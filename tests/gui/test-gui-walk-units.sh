#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The Units preference reaches every chart: the result's, and a comparison already
# open (its chart and its table) when the preference changes.
#   test-gui-walk-units.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-units.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" units

for n in 1 2; do
  timeout 120 "${as_user[@]}" dbus-run-session -- env "${gui_base_env[@]}" LANG=C.UTF-8 \
    "$exe" --target "$target" --preset compressibility --runs 1 --size 32m --time 500ms \
    --run --quit-when-done >>"$tmp/run.log" 2>&1 || { echo "FAIL: run $n failed"; cat "$tmp/run.log"; exit 1; }
  sleep 1.1
done
first=$(ls "$data"/nandscope/results/*.json | head -1)
second=$(ls "$data"/nandscope/results/*.json | sed -n 2p)

walk "$tmp/walk.log" "
open $first
wait 1000
dump mib
action win.preferences
wait 500
dump prefs-off
toggle same_settings_row
wait 300
dump prefs-on
toggle same_settings_row
select units 1
wait 300
close-top
wait 500
dump mb
shot-top $shots/compare-mb.png
" --compare "$first" --compare "$second"

expect "$tmp/walk.log" mib 'NscChartView.*texts=.*Speed, MiB/s' "charts start in MiB/s"
# Preferences → Same Settings for Every Preset: its subtitle says what the switch does now.
expect "$tmp/walk.log" prefs-off '"Off: each preset uses its own"' "Same Settings off says so"
expect "$tmp/walk.log" prefs-on '"On: every preset uses these settings"' "Same Settings on says so"
expect_not "$tmp/walk.log" prefs-on '"Off: each preset uses its own"' "and no longer says Off"
# The comparison is the newest window: its chart and its table.
compare_part () { section "$tmp/walk.log" "$1" | sed -n '/^window AdwWindow .*title="Compare"/,/^window /p'; }
if compare_part mb | grep -q 'NscChartView.*texts=.*Speed, MB/s'; then
  echo "ok: the open comparison's chart follows the preference to MB/s"
else
  echo "FAIL: the open comparison's chart did not follow the Units preference:"
  compare_part mb | grep -o 'texts=.*' | cut -c1-200
  failed=1
fi
if compare_part mb | grep -q 'compare-table' && compare_part mb | grep -q 'GtkLabel.*"MB/s"'; then
  echo "ok: and its table"
else
  echo "FAIL: the comparison's table is not in MB/s"
  failed=1
fi
expect "$tmp/walk.log" mb 'NscChartView.*texts=.*Speed, MB/s' "the result's chart too"
walk_done

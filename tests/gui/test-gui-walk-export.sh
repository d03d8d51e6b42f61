#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Export works with the user: the save dialog opens in ~/Pictures (XDG), not in the
# folder the app was started from, and next time in the folder saved in last; the
# toast says where the file went and offers Open and Show in Folder. Changing the
# chart kind keeps the test picked.
#   test-gui-walk-export.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-export.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" export

mkdir -p "$home/Pictures" "$home/.config" "$tmp/out/elsewhere"
printf 'XDG_PICTURES_DIR="$HOME/Pictures"\n' >"$home/.config/user-dirs.dirs"
[ "$(id -u)" -eq 0 ] && chown -R nobody "$home" "$tmp/out"

timeout 120 "${as_user[@]}" dbus-run-session -- env "${gui_base_env[@]}" LANG=C.UTF-8 \
  "$exe" --target "$target" --preset compressibility --runs 1 --size 32m --time 1s \
  --run --quit-when-done >"$tmp/run.log" 2>&1 || { echo "FAIL: the run failed"; cat "$tmp/run.log"; exit 1; }
result=$(ls "$data"/nandscope/results/*.json | head -1)

# Started from the target folder, as a launcher in a terminal would.
cd "$target" || exit 1
walk "$tmp/walk.log" "
open $result
select chart-test 2
dump picked
select chart-kind 1
select chart-kind 0
dump kind-changed
widget-action chart_panel chart.export-png
wait 500
dump first-dialog
chooser $tmp/out/elsewhere chart.png
wait 500
dump toast
shot $shots/saved-toast.png
widget-action chart_panel chart.export-svg
wait 500
dump second-dialog
close-top
"
cd - >/dev/null

expect "$tmp/walk.log" first-dialog "folder=$home/Pictures " "the first save opens in ~/Pictures"
expect "$tmp/walk.log" second-dialog "folder=$tmp/out/elsewhere " "the next one where the last went"
[ -s "$tmp/out/elsewhere/chart.png" ] && echo "ok: the chart was saved" \
  || { echo "FAIL: no chart in $tmp/out/elsewhere"; failed=1; }
expect "$tmp/walk.log" toast "saved-where.*\"Saved to $tmp/out/elsewhere/chart.png\"" \
  "the toast says where the file went"
expect "$tmp/walk.log" toast 'GtkLabel.*"Open"' "and offers Open"
expect "$tmp/walk.log" toast 'GtkLabel.*"Show in Folder"' "and Show in Folder"
expect "$tmp/walk.log" picked 'selected=2 tooltip="Which test to show"' "a test is picked"
expect "$tmp/walk.log" kind-changed 'selected=2 tooltip="Which test to show"' \
  "after changing the chart kind and back the same test is shown"
walk_done

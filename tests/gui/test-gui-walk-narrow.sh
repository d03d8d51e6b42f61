#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window adapts and never resizes itself: 800 px wide before a run, 800 during and
# after it; at 360 px (a phone) the start page, a live run and a result fit without a
# clipped label, the results grid above the chart, and the target and preset pickers
# keep their names (in a bar at the bottom).
#   test-gui-walk-narrow.sh path/to/nandscope
# GNOME's own title bar buttons (close only: gtk-decoration-layout=appmenu:close).

exe=${1:?usage: test-gui-walk-narrow.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" narrow
mkdir -p "$home/.config/gtk-4.0"
printf '[Settings]\ngtk-decoration-layout=appmenu:close\n' >"$home/.config/gtk-4.0/settings.ini"
[ "$(id -u)" -eq 0 ] && chown -R nobody "$home/.config"

walk "$tmp/wide.log" "
resize 800 700
wait 300
dump before
preset quick
run
wait-sample
dump running
shot $shots/running-800.png
wait-run
dump done
shot $shots/done-800.png
" --target "$target" --runs 1 --time 300ms --size 32m --span 32m --max-idle 1s

# window_width LOG TAG: the main window's width in that dump.
window_width () {
  section "$1" "$2" | sed -n 's/^window NscWindow main \([0-9]*\)x.*/\1/p'
}

# fits_360 LOG TAG WHO: at 360 px the window stays within 360 px and clips no label.
fits_360 () {
  local w
  w=$(window_width "$1" "$2")
  if [ -n "$w" ] && [ "$w" -le 360 ]; then
    echo "ok: ${3}at 360 px ($2) the window is $w px wide"
  else
    echo "FAIL: ${3}at 360 px ($2) the window is ${w:-?} px wide"
    failed=1
  fi
  expect_not "$1" "$2" ' clipped ' "${3}no label is clipped at 360 px ($2)"
}
# pickers_named LOG TAG WHO: the target and preset pickers' labels have room for their
# names (about 7 px a character, up to 12 of them), not shrunk to "…" (at 360 px they
# are in the bar at the bottom).
pickers_named () {
  section "$1" "$2" | python3 -c '
import re, sys
tag, who = sys.argv[1], sys.argv[2]
seen, inside = {}, None
for line in sys.stdin:
    depth = len(line) - len(line.lstrip())
    if inside is not None and depth <= inside[1]:
        inside = None
    if "NscPresetChooser#preset_chooser" in line:
        inside = ("preset", depth)
    m = re.search(r"GtkLabel(#target_label)?\S* @-?\d+,-?\d+ (\d+)x\d+ min=\d+[^\"]* \"(.*)\"", line)
    if m and (m.group(1) or inside):
        name = "target" if m.group(1) else inside[0]
        seen.setdefault(name, (int(m.group(2)), m.group(3)))
short = {k: v for k, v in seen.items() if v[0] < 7 * min(len(v[1]), 12)}
if len(seen) == 2 and not short:
    print(f"ok: {who}the pickers show their names ({tag}: {seen})")
else:
    sys.exit(f"FAIL: {who}a picker has no room for its name ({tag}: {seen})")
' "$2" "$3" || failed=1
}
for tag in before running done; do
  w=$(window_width "$tmp/wide.log" "$tag")
  if [ -n "$w" ] && [ "$w" -le 800 ]; then
    echo "ok: $tag the run the window is $w px wide"
  else
    echo "FAIL: $tag the run the window is ${w:-?} px wide, not 800 as set"
    failed=1
  fi
done

result=$(ls "$data"/nandscope/results/*-quick.json 2>/dev/null | head -1)
[ -n "$result" ] || { echo "FAIL: the run saved no result"; failed=1; }

# The same result with five-digit speeds in both columns, 12345 MiB/s (a PCIe 5
# drive's), wherever it measured one.
fast=$tmp/fast-quick.json
python3 - "$result" "$fast" <<'PY'
import json, sys
def fast(o):
    if isinstance(o, dict):
        return {k: (12345 * 1048576 if k == "bw_bps" and isinstance(v, (int, float)) and v > 0
                    else fast(v)) for k, v in o.items()}
    if isinstance(o, list):
        return [fast(x) for x in o]
    return o
json.dump(fast(json.load(open(sys.argv[1]))), open(sys.argv[2], "w"))
PY
chmod 0644 "$fast"

walk "$tmp/narrow.log" "
resize 360 720
wait 500
dump start
shot $shots/start-360.png
open $result
dump result
shot $shots/result-360.png
open $fast
dump fast
shot $shots/fast-360.png
preset quick
run
wait-sample
dump running
shot $shots/running-360.png
wait-run
" --target "$target" --runs 1 --time 300ms --size 32m --span 32m --max-idle 1s

for tag in start result fast running; do
  fits_360 "$tmp/narrow.log" "$tag" ""
  pickers_named "$tmp/narrow.log" "$tag" ""
done
expect "$tmp/narrow.log" start 'GtkBox#pickers_bar' "at 360 px the pickers are in the bar at the bottom"
pickers_named "$tmp/wide.log" before "at 800 px: "
expect_not "$tmp/wide.log" before 'GtkBox#pickers_bar' "at 800 px the pickers stay in the header"
# The grid above the chart: the chart starts below the grid's last row.
section "$tmp/narrow.log" result | python3 -c '
import re, sys
pos = {}
for line in sys.stdin:
    m = re.search(r"(NscResultsGrid#results_grid|NscChartPanel#chart_panel) @(-?\d+),(-?\d+) (\d+)x(\d+)", line)
    if m:
        pos[m.group(1).split("#")[1]] = tuple(int(v) for v in m.group(2, 3, 4, 5))
g, c = pos.get("results_grid"), pos.get("chart_panel")
if not g or not c:
    sys.exit(f"FAIL: the grid or the chart is not shown: {pos}")
if c[1] < g[1] + g[3]:
    sys.exit(f"FAIL: at 360 px the chart {c} is not below the grid {g}")
print(f"ok: at 360 px the chart {c} is below the grid {g}")
' || failed=1

# Three title-bar buttons (minimize, maximize, close: Ubuntu's, and others'): still
# 360 px on the start page and with a result (whose header has Run, an icon there),
# nothing clipped.
printf '[Settings]\ngtk-decoration-layout=appmenu:minimize,maximize,close\n' >"$home/.config/gtk-4.0/settings.ini"
walk "$tmp/three.log" "
resize 360 720
wait 500
dump start
shot $shots/start-360-three-buttons.png
open $result
dump result
shot $shots/result-360-three-buttons.png
" --target "$target"
for tag in start result; do
  fits_360 "$tmp/three.log" "$tag" "three buttons: "
  pickers_named "$tmp/three.log" "$tag" "three buttons: "
done
walk_done

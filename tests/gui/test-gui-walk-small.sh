#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The small things: one Run on each page (the start page's own, the header's Run
# elsewhere); a Keyboard Shortcuts window (Ctrl+?); About with the website, the issue
# link and the app's icon, also when the app runs from the build folder.
#   test-gui-walk-small.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-small.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" small

walk "$tmp/walk.log" "
dump start
target $tmp/no-such-folder
run
wait-run
dump failed
accels win.show-help-overlay
action win.show-help-overlay
wait 500
dump shortcuts
shot-top $shots/shortcuts.png
close-top
action app.about
wait 500
dump about
shot-top $shots/about.png
close-top
" --target "$target"

n=$(section "$tmp/walk.log" start | grep -c 'action=win.run')
[ "$n" -eq 1 ] && echo "ok: the start page has one Run" \
  || { echo "FAIL: the start page shows $n buttons that run"; failed=1; }
expect "$tmp/walk.log" start 'pill.*action=win.run' "and it is the page's own button"
# One verb for one action: the page's button says what the header's does.
if section "$tmp/walk.log" start | grep -A1 'pill.*action=win.run' | grep -q 'GtkLabel.*"Run"$'; then
  echo "ok: the start page's button says Run, as the header's does"
else
  echo "FAIL: the start page's button: $(section "$tmp/walk.log" start | grep -A1 'pill.*action=win.run' | tail -1)"
  failed=1
fi
expect "$tmp/walk.log" failed 'run_button.*action=win.run' "the results page has the header's Run"
expect "$tmp/walk.log" shortcuts '^window GtkShortcutsWindow' "Keyboard Shortcuts opens"
expect "$tmp/walk.log" shortcuts '"Run the test"' "and lists Run"
expect_line "$tmp/walk.log" '^script: accels win.show-help-overlay: <Control>question' "on Ctrl+?"
expect "$tmp/walk.log" about '^window AdwAboutWindow.* website=https://' "About has the website"
expect "$tmp/walk.log" about 'issue_row.*tooltip="https://[^"]*/issues"' "and the issue link"
expect "$tmp/walk.log" about 'app_icon_image.*icon=io\.github\.nandscope\.Nandscope' "and the app's icon"
expect_not "$tmp/walk.log" about 'app_icon_image.*missing-icon' "which the icon theme finds from the build folder"
walk_done

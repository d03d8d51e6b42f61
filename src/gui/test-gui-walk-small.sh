#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The small things: one Run on each page (the start page's Start, the header's Run
# elsewhere).
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
" --target "$target"

n=$(section "$tmp/walk.log" start | grep -c 'action=win.run')
[ "$n" -eq 1 ] && echo "ok: the start page has one Run (Start)" \
  || { echo "FAIL: the start page shows $n buttons that run"; failed=1; }
expect "$tmp/walk.log" start 'pill.*action=win.run' "and it is the Start button"
expect "$tmp/walk.log" failed 'run_button.*action=win.run' "the results page has the header's Run"
walk_done

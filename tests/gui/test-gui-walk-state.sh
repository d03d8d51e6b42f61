#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Changing the target or the preset returns to a fresh start page: after a start that
# failed (the error gone with it), and after a finished run (its result is of another
# preset).
#   test-gui-walk-state.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-state.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" state

walk "$tmp/walk.log" "
target $tmp/no-such-folder
preset quick
run
wait-run
dump failed
shot $shots/failed.png
preset quick-random
dump preset-changed
shot $shots/preset-changed.png
run
wait-run
dump failed-again
target $target
dump target-changed
preset quick
run
wait-run
dump finished
preset quick-random
dump after-result
shot $shots/after-result.png
" --runs 1 --time 100ms --size 16m --span 16m --max-idle 1s

expect "$tmp/walk.log" failed 'GtkStack#stack.* page=results' "a failed start shows the results page"
expect "$tmp/walk.log" failed 'error_label' "with its error"
expect "$tmp/walk.log" preset-changed 'GtkStack#stack.* page=idle' "a new preset returns to the start page"
expect_not "$tmp/walk.log" preset-changed 'error_label' "the old error is gone"
expect "$tmp/walk.log" failed-again 'error_label' "a second failed start shows its error"
expect "$tmp/walk.log" target-changed 'GtkStack#stack.* page=idle' "a new target returns to the start page"
expect_not "$tmp/walk.log" target-changed 'error_label' "the old error is gone"
expect "$tmp/walk.log" finished 'GtkStack#stack.* page=results' "a finished run shows its result"
expect "$tmp/walk.log" after-result 'GtkStack#stack.* page=idle' "another preset returns to the start page"
expect "$tmp/walk.log" after-result 'preset_label.*"Quick random:' "which speaks of the new preset"
walk_done

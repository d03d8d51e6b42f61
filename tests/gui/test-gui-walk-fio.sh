#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# fio's output opened in the app like a result of its own (tests/data/fio: outputs fio
# 3.33 wrote): the summary says fio ran it and it was imported, the grid lists fio's
# jobs as tests; a --client run of two servers shows the first, says how many machines
# there were, and its button opens them all in Compare, each named by its machine. (Damaged output: test-fio-import
# and cli-import; a refused open ends a walk.) Export Run as fio Job File writes the run
# Run would start, a file fio accepts, the same as the command line's export.
#   test-gui-walk-fio.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-fio.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" fio

src=$(cd "$(dirname "$0")/../data/fio" && pwd)
mkdir -p "$tmp/fio"
cp "$src"/* "$tmp/fio/"
chmod -R a+rX "$tmp/fio"
mkdir -p "$tmp/t"
chmod 0777 "$tmp/t"

walk "$tmp/walk.log" "
open $tmp/fio/multi.json
wait 300
dump multi
shot $shots/multi.png
open $tmp/fio/client.json
wait 300
dump client
shot $shots/client.png
action win.compare-hosts
wait 1000
dump hosts
shot-top $shots/hosts.png
target $tmp/t
preset seq-qd
export-fio $tmp/t/app.fio
activate primary_menu_button
wait 300
dump menu
shot-popover primary_menu_button $shots/menu.png
"

expect "$tmp/walk.log" multi 'summary_label.*"Run by fio-3\.33, imported' "the summary says fio ran it, imported"
expect "$tmp/walk.log" multi '"seq-write"' "fio's jobs are the tests"
expect "$tmp/walk.log" multi '"mixed #2"' "a job's second clone a test of its own"
expect "$tmp/walk.log" client 'summary_label.*"Run by fio-3\.33 on localhost:8771, imported' \
  "a client run: the first machine's result"
expect "$tmp/walk.log" client 'fio ran on 2 machines; showing localhost:8771' "and how many machines there were"
expect "$tmp/walk.log" client 'GtkLabel.*"Compare All"' "with a button that compares them all"
expect "$tmp/walk.log" hosts 'window AdwWindow.*title="Compare"' "which opens Compare"
expect "$tmp/walk.log" hosts 'marked-result.*"localhost:8771: [^"]*\(imported\)' "with the first machine"
expect "$tmp/walk.log" hosts 'marked-result.*"localhost:8772: [^"]*\(imported\)' "and the second, each named"
expect "$tmp/walk.log" menu 'Export Run as fio Job File' "the menu offers the export"
if ! command -v fio >/dev/null; then
  echo "ok: (fio is missing: its parse of the job file skipped)"
elif [ -s "$tmp/t/app.fio" ] && fio --parse-only "$tmp/t/app.fio" >/dev/null 2>"$tmp/parse.err"; then
  echo "ok: the app's fio job file, which fio accepts"
else
  echo "FAIL: the app's fio job file: $(head -3 "$tmp/parse.err" 2>/dev/null)"; failed=1
fi
# The run the app would start: its 12 tests, one run each by the app's defaults, each
# naming its place in the preset for an import.
[ "$(grep -c '^description=nandscope preset=seq-qd ' "$tmp/t/app.fio")" -eq 12 ] \
  && echo "ok: its 12 tests name their place in the preset" \
  || { echo "FAIL: $(grep -c '^description=' "$tmp/t/app.fio") described jobs"; failed=1; }
walk_done

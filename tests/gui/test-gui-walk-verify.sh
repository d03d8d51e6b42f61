#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Preferences → Check What Write Tests Wrote: the start page of a write-fill then
# promises the read-back (the bytes it reads, the time, a sentence that says why), Quick
# promises what it did, and Run runs what was promised: the write-fill of a 64 MiB test
# file, read back and checked, ends with the capacity verdict first in the summary and
# in the saved result.
#   test-gui-walk-verify.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-verify.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" verify

walk "$tmp/walk.log" "
preset write-fill
dump fill-off
preset quick
dump quick-off
action win.preferences
wait 500
dump prefs
toggle verify_writes
wait 300
close-top
wait 300
dump quick-on
preset write-fill
dump fill-on
shot $shots/write-fill-checked.png
run
wait-run
dump done
shot $shots/write-fill-verified.png
" --target "$target" --size 64m --max-idle 1s

checked='What the write tests wrote is read back and every block checked'
expect "$tmp/walk.log" prefs '"Check What Write Tests Wrote"' "Preferences has the switch"
expect "$tmp/walk.log" prefs 'read back what they wrote and check every block' "and says what it does"
expect_not "$tmp/walk.log" fill-off "$checked" "off, the write-fill promises no read-back"
expect_not "$tmp/walk.log" fill-off 'preset_label.* and reads [0-9]' "nor its bytes"
expect "$tmp/walk.log" fill-on "preset_label.*$checked" "on, the write-fill's promise says it is read back and checked"
expect "$tmp/walk.log" fill-on 'preset_label.*if the drive writes 64 MiB and reads 64 MiB at' \
  "and its time counts the 64 MiB read back"
# Quick has no write-fill: its promise is the same with the switch on (its words; the
# label's place is the layout's).
label () { section "$tmp/walk.log" "$1" | grep 'preset_label' | sed 's/^[^"]*//'; }
if [ -n "$(label quick-off)" ] && [ "$(label quick-off)" = "$(label quick-on)" ]; then
  echo "ok: Quick's promise is unchanged"
else
  echo "FAIL: Quick's promise changed:"
  label quick-off
  label quick-on
  failed=1
fi
expect "$tmp/walk.log" done 'summary_label.*"All 64 MiB read back as written: every block was checked\.' \
  "the run ends with the capacity verdict first in the summary"

python3 - "$results" <<'PY' || failed=1
import json, os, sys

folder = sys.argv[1]
files = sorted(f for f in os.listdir(folder) if f.endswith(".json")) if os.path.isdir(folder) else []
if len(files) != 1:
    sys.exit(f"FAIL: expected one result in {folder}, found {files}")
with open(os.path.join(folder, files[0])) as f:
    r = json.load(f)
steps = [s.get("analysis") for s in r["steps"]]
verdict = r.get("analysis", {}).get("capacity", {}).get("verdict")
if steps.count("write-fill") != 1 or steps.count("verify") != 1 or verdict != "verified":
    sys.exit(f"FAIL: the saved run: steps {steps}, verdict {verdict}")
print(f"ok: the saved run wrote, read back and checked: steps {steps}, verdict {verdict}")
PY
[ -z "$(ls -A "$target")" ] && echo "ok: nothing left in the folder" \
  || { echo "FAIL: the folder holds $(ls -A "$target")"; failed=1; }
walk_done

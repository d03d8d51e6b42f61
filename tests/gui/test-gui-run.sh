#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs the Quick preset from the desktop app under Xvfb, the way a script would:
#   test-gui-run.sh path/to/nandscope
# and checks the exit status, the saved result and that no test file is left.
# Exit 77 (meson: skipped) when Xvfb, dbus-run-session or python3 is missing.

set -u

exe=${1:?usage: test-gui-run.sh NANDSCOPE}

. "$(dirname "$0")/test-gui-lib.sh"
gui_setup run

# The app refuses to run as root; as root, the test runs it as nobody ($as_user).
if [ "$(id -u)" -eq 0 ]; then
  if ! refusal=$("$exe" --target "$target" 2>&1) && printf '%s' "$refusal" | grep -q "does not run as root"; then
    echo "ok: as root it refuses: $refusal"
  else
    echo "FAIL: as root it did not refuse: $refusal"
    exit 1
  fi
fi

# fail (test-gui-lib.sh) shows the app's output.
log=$tmp/app.log

timeout 100 "${as_user[@]}" dbus-run-session -- env "${gui_env[@]}" \
  "$exe" --target "$target" --preset quick --runs 1 --time 200ms --size 64m \
         --run --quit-when-done >"$tmp/app.log" 2>&1
status=$?

[ "$status" -eq 0 ] || fail "nandscope exited with status $status"

leftover=$(ls -A "$target")
[ -z "$leftover" ] || fail "files left in the target folder: $leftover"

python3 - "$data/nandscope/results" <<'PY' || fail "the saved result is wrong"
import json, os, sys

folder = sys.argv[1]
files = sorted(f for f in os.listdir(folder) if f.endswith(".json")) if os.path.isdir(folder) else []
if len(files) != 1:
    sys.exit(f"expected one result in {folder}, found {files}")
name = files[0]
if not name.endswith("-quick.json"):
    sys.exit(f"unexpected file name {name}")
with open(os.path.join(folder, name)) as f:
    result = json.load(f)

steps = result["steps"]
# CrystalDiskMark's eight, then the two reads of settled data.
if len(steps) != 10:
    sys.exit(f"expected 10 steps, found {len(steps)}")
if result.get("cancelled"):
    sys.exit("the run says it was cancelled")
if not result.get("device", {}).get("devnode", "").startswith("/dev/"):
    sys.exit(f"no facts about the drive behind the folder: {result.get('device')}")
for i, step in enumerate(steps):
    rw = step["job"]["rw"]
    direction = "read" if "read" in rw else "write"
    bw = step[direction]["bw_bps"]
    if not step["completed"] or bw <= 0:
        sys.exit(f"step {i} ({step['label']}, {rw}): completed={step['completed']} {direction} bw={bw}")
    print(f"  {step['label']:12} {direction:5} {bw / 1048576:9.1f} MiB/s")
print(f"result {name}: {len(steps)} steps measured")
PY

echo "PASS"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Cancel mid-run (Issue 5, Tests): the app runs the Quick preset under Xvfb and
# --cancel-after presses the Cancel button's own action (win.cancel) 1.5 s in, then
# reports the milliseconds from the cancel to the idle window. Checks: under 500 ms,
# exit status 0, nothing left in the target folder, a partial result marked
# cancelled, no GTK criticals or warnings.
#   test-gui-cancel.sh path/to/nandscope
# Exit 77 (meson: skipped) when Xvfb, dbus-run-session or python3 is missing.

set -u

exe=${1:?usage: test-gui-cancel.sh NANDSCOPE}

. "$(dirname "$0")/test-gui-lib.sh"
gui_setup cancel

# fail (test-gui-lib.sh) shows the app's output.
log=$tmp/app.log

limit_ms=${NSC_CANCEL_LIMIT_MS:-500}

# A session bus of its own with no services to start: GTK then finds neither a
# session manager nor a desktop portal to inhibit suspend through, and says
# nothing. (A portal without Inhibit, as a bare dbus-run-session starts one,
# makes GTK itself print "Gtk-WARNING: Calling org.freedesktop.portal.Inhibit…".)
cat >"$tmp/bus.conf" <<'XML'
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
XML
chmod 0644 "$tmp/bus.conf"

timeout 100 "${as_user[@]}" dbus-run-session --config-file="$tmp/bus.conf" -- env "${gui_env[@]}" \
  "$exe" --target "$target" --preset quick --runs 1 --time 5s --size 64m \
         --run --cancel-after 1.5s --quit-when-done >"$tmp/app.log" 2>&1
status=$?

[ "$status" -eq 0 ] || fail "nandscope exited with status $status"

ms=$(sed -n 's/^nandscope: cancel-to-idle-ms: \([0-9]*\)$/\1/p' "$tmp/app.log")
[ -n "$ms" ] || fail "no cancel-to-idle report on stderr"
[ "$ms" -lt "$limit_ms" ] || fail "idle $ms ms after Cancel (limit $limit_ms ms)"
echo "ok: idle $ms ms after Cancel"

leftover=$(ls -A "$target")
[ -z "$leftover" ] || fail "files left in the target folder: $leftover"
echo "ok: the target folder is empty"

# GTK, GLib and libadwaita complaints: "Gtk-WARNING **", "GLib-GObject-CRITICAL **"…
if grep -E -e '-(WARNING|CRITICAL) \*\*' -e '(Gtk|Gdk|GLib|Adwaita)-(WARNING|CRITICAL)' "$tmp/app.log"; then
  fail "GTK warnings or criticals in the output"
fi
echo "ok: no GTK warnings or criticals"

python3 - "$data/nandscope/results" <<'PY' || fail "the partial result is wrong"
import json, os, sys

folder = sys.argv[1]
files = sorted(f for f in os.listdir(folder) if f.endswith(".json")) if os.path.isdir(folder) else []
if not files:
    # Cancelled before anything was measured: nothing to save, and that is right.
    print("no partial result (cancelled before a step finished)")
    sys.exit(0)
with open(os.path.join(folder, files[-1])) as f:
    result = json.load(f)
if not result.get("cancelled"):
    sys.exit("the saved result does not say it was cancelled")
print(f"partial result {files[-1]}: cancelled, {len(result['steps'])} steps")
PY

echo "PASS"

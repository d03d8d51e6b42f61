#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The same preset on the same folder, once through the command line and once through
# the desktop app (under Xvfb, as the same ordinary user), must give the same
# warnings, the same facts (drive, test bench, target, conditions of the run) and the
# same chart caption: both front ends prepare a run and put a result into words
# through one library.
#   test-gui-same-as-cli.sh path/to/nandscope path/to/nandscope-cli
# Exit 77 (meson: skipped) when Xvfb, dbus-run-session or python3 is missing.

set -u

exe=${1:?usage: test-gui-same-as-cli.sh NANDSCOPE NANDSCOPE-CLI}
cli=${2:?usage: test-gui-same-as-cli.sh NANDSCOPE NANDSCOPE-CLI}

# The command line runs as the same user as the app ($as_user), so that both see the
# drive with the same rights (NVMe Identify and SMART need root).
. "$(dirname "$0")/test-gui-lib.sh"
gui_setup same 70

# The same scaled-down Quick for both.
run_options=(--target "$target" --preset quick --runs 1 --time 200ms --size 64m --span 64m --max-idle 1s)

# as_cli LOG ARGS…
as_cli () {
  log=$1
  shift
  timeout 100 "${as_user[@]}" env HOME="$home" XDG_DATA_HOME="$data" "$cli" "$@" >"$log" 2>&1
  status=$?
}

# app LOG ARGS…
app () {
  log=$1
  shift
  timeout 100 "${as_user[@]}" dbus-run-session -- env "${gui_env[@]}" ADW_DISABLE_PORTAL=1 \
    GSETTINGS_SCHEMA_DIR="${GSETTINGS_SCHEMA_DIR:-$tmp/no-schemas}" "$exe" "$@" >"$log" 2>&1
  status=$?
}

# 1. The command line: its result next to the history, so that neither run finds the
#    other's in the drive's saved results.
as_cli "$tmp/cli.log" run "${run_options[@]}" --quiet --json "$out/cli.json"
[ "$status" -eq 0 ] || fail "the command line's run exited with status $status"
as_cli "$tmp/cli-chart.log" chart "$out/cli.json" --kind latency --out "$out/cli.svg"
[ "$status" -eq 0 ] || fail "the command line's chart exited with status $status"
echo "ok: the command line ran Quick and exported its latency chart"

# 2. The app, scripted: the run saves into the results folder; the export goes
#    through the export menu's code.
app "$tmp/app.log" "${run_options[@]}" --run --quit-when-done
[ "$status" -eq 0 ] || fail "the app's run exited with status $status"
saved=$(ls "$results"/*.json 2>/dev/null)
[ -n "$saved" ] && [ "$(echo "$saved" | wc -l)" -eq 1 ] || fail "expected one result saved by the app, found: $saved"
app "$tmp/app-chart.log" --open "$saved" --chart latency --export-chart "$out/app.svg" --quit-when-done
[ "$status" -eq 0 ] || fail "the app's chart export exited with status $status"
echo "ok: the app ran Quick, saved $(basename "$saved") and exported its latency chart"

# 3. The two results side by side.
python3 - "$out/cli.json" "$saved" "$out/cli.svg" "$out/app.svg" <<'PY' || fail "the command line and the app disagree"
import json, sys
import xml.dom.minidom as minidom

cli_path, app_path, cli_svg, app_svg = sys.argv[1:5]
cli, app = (json.load(open(p)) for p in (cli_path, app_path))
problems = []

def same(what, a, b):
    if a != b:
        problems.append(f"{what}:\n  command line: {json.dumps(a, sort_keys=True)[:1500]}\n"
                        f"  app:          {json.dumps(b, sort_keys=True)[:1500]}")
    return a == b

# Verdicts on the measured speeds, which two runs of one drive may reach differently;
# every other warning follows from the target, the drive, the bench and the options.
MEASURED = {"read-inflation", "read-inflation-not-verified", "cache-exhausted-during-test",
            "thermal-throttling", "compressing-controller"}

def warnings(result, run_level):
    return sorted((w["code"], w.get("step"), w.get("position"))
                  for w in result.get("warnings", [])
                  if (w.get("step") is None) == run_level and w["code"] not in MEASURED)

for r, who in ((cli, "command line"), (app, "app")):
    if len(r.get("steps", [])) != 10 or r.get("cancelled"):
        problems.append(f"the {who}'s run is not a whole Quick: {len(r.get('steps', []))} steps")

same("warnings about the whole run", warnings(cli, True), warnings(app, True))
same("warnings about steps", warnings(cli, False), warnings(app, False))

# Facts: a reading of the drive's temperature is a measurement, not a fact.
def device(r):
    d = dict(r.get("device") or {})
    for volatile in ("temperature_c", "temperature_source"):
        d.pop(volatile, None)
    return d

if not device(cli).get("devnode", "").startswith("/dev/"):
    problems.append(f"no drive behind the folder: {cli.get('device')}")
same("drive facts", device(cli), device(app))
same("test bench", cli.get("bench"), app.get("bench"))
same("target", cli.get("target"), app.get("target"))
same("conditions", cli.get("conditions"), app.get("conditions"))
same("preset", cli.get("preset"), app.get("preset"))
same("system", cli.get("system"), app.get("system"))
same("step labels", [s["label"] for s in cli["steps"]], [s["label"] for s in app["steps"]])

def caption(path):
    doc = minidom.parse(path)
    text = "".join(n.data for e in doc.getElementsByTagName("desc") for n in e.childNodes)
    return text.split("\n", 1)[0]

cc, ac = caption(cli_svg), caption(app_svg)
if "Nandscope" not in cc:
    problems.append(f"the command line's chart has no caption: {cc!r}")
same("chart captions", cc, ac)

if problems:
    sys.exit("\n".join(problems))
for r, who in ((cli, "command line"), (app, "app")):
    codes = ", ".join(sorted({w["code"] for w in r.get("warnings", [])})) or "none"
    print(f"  {who}: {len(r.get('warnings', []))} warnings ({codes}), "
          f"{len(warnings(r, True))} about the whole run")
print(f"  drive: {device(cli).get('name')} ({device(cli).get('transport')}), "
      f"bench: {len(cli.get('bench') or {})} facts")
print(f"  caption: {cc}")
PY
echo "ok: the same warnings, facts and caption from the command line and the app"
echo "PASS"

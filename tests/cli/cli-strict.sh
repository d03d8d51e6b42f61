#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every preset under --strict on a loop device, scaled down (--time-scale, --max-idle,
# --span), checked from the conditions its result records: strict's TRIM and idle come
# where a preset starts and never inside one ("no TRIM" steps had none, cache-recovery's
# idles are its own), steps with a length of their own keep it against strict's 40 s,
# the drive was preconditioned, and every read step's data is as old as its preset says
# (settled, or a warning on the step).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-devices.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
  echo "1..0 # SKIP needs root and losetup"
  exit 77
fi

devices_snapshot
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-strict-XXXXXX")
loop=
cleanup() {
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  rm -rf "$work"
  devices_check
}
trap cleanup EXIT

scale=0.002
truncate -s 512M "$work/loop.img"
loop=$(losetup -f --show "$work/loop.img") || { bad "no loop device"; finish; }

check() {
  python3 - "$1" "$2" "$scale" <<'PY'
import json, sys
p, path, scale = sys.argv[1], sys.argv[2], float(sys.argv[3])
r = json.load(open(path))
c = r["conditions"]
problems = []
MS = 10**6
if r.get("error") or r["cancelled"]: problems.append("run error: %s" % r.get("error"))
if not c["strict"]: problems.append("not strict")
sc = c.get("strict_conditions", {})
req, app = sc.get("requested", {}), sc.get("applied", {})
if req.get("time_ns") != 40 * 10**9 or req.get("idle_ns") != 15 * 60 * 10**9 or req.get("span") != 32 << 30:
    problems.append("requested %s" % req)
if app.get("idle_ns") != c["max_idle_ns"]: problems.append("applied idle %s" % app)
if app.get("precondition") != "device": problems.append("precondition %s" % app.get("precondition"))
steps = r["steps"]
warned = {(w["code"], w["step"]) for w in r["warnings"]}
prev_group_start = None
for i, s in enumerate(steps):
    if not s["completed"]: problems.append("step %d %s: %s" % (i, s["label"], s.get("error")))
    cond = s.get("conditions")
    if cond is None: continue
    # Strict's TRIM and idle only where a preset starts: the first step of this one.
    if i > 0 and (cond["strict_applied"] or cond["strict_trimmed_bytes"] or cond["strict_idle_ns"]):
        if p != "review": problems.append("strict inside the preset at step %d %s" % (i, s["label"]))
    if s["kind"] == "job" and "time_source" in cond and not s.get("skipped"):
        t, own, src = s["job"]["time_ns"], cond["own_time_ns"], cond["time_source"]
        if own and (src != "own" or cond["planned_time_ns"] != own):
            problems.append("%s lost its own time %d: %s %d" % (s["label"], own, src, cond["planned_time_ns"]))
        if not own and (src != "strict" or cond["planned_time_ns"] != 40 * 10**9):
            problems.append("%s: %s %d, not strict's 40 s" % (s["label"], src, cond["planned_time_ns"]))
        if abs(t - max(cond["planned_time_ns"] * scale, MS)) > MS:
            problems.append("%s ran %d ns, planned %d" % (s["label"], t, cond["planned_time_ns"]))
    # Reads: settled as the preset says, or a warning on the step.
    if cond.get("data_expected") == "settled":
        if cond["settled_by"] is None and ("fresh-reads", i) not in warned:
            problems.append("%s reads fresh data without a warning" % s["label"])
        if cond["settled_by"] == "idle" and not cond["idle_since_data_ns"] > 0:
            problems.append("%s: settled by no idle" % s["label"])
    if "no TRIM" in s["label"] and (cond["trimmed_before_bytes"] or cond["strict_trimmed_bytes"]):
        problems.append("%s was trimmed before" % s["label"])
labels = [s["label"] for s in steps]
# What each preset promises.
if p == "recovery-no-trim":
    s = steps[labels.index("After idle, no TRIM")]
    if s["conditions"]["idle_before_ns"] != c["max_idle_ns"]: problems.append("no-TRIM idle %s" % s["conditions"])
if p == "fill-state":
    for s in steps:
        if s["kind"] == "job" and "after TRIM" not in s["label"] and s["conditions"]["trimmed_before_bytes"]:
            problems.append("%s trimmed before" % s["label"])
if p == "cache-recovery":
    want = [min(t * 10**9, c["max_idle_ns"]) for t in (5, 10, 15, 25, 50)]
    got = [s["conditions"]["idle_before_ns"] for s in steps if s.get("analysis") == "cache-recovery"]
    if got != want: problems.append("recovery idles %s, want %s" % (got, want))
if p in ("write-fill-twice", "hardcore"):
    s = steps[-1]
    if s["conditions"]["trimmed_before_bytes"] or s["conditions"]["strict_trimmed_bytes"]:
        problems.append("second pass trimmed")
if p == "degradation":
    s = steps[0]
    if s["conditions"]["planned_time_ns"] != 30 * 60 * 10**9: problems.append("degradation length %s" % s["conditions"])
if p in ("thermal", "thermal-qd4"):
    if any(s["conditions"]["planned_time_ns"] != 600 * 10**9 for s in steps if s["kind"] == "job"):
        problems.append("thermal lengths")
if p in ("seq-qd", "seq-qd-64k", "rnd-qd", "bs-sweep", "bs-sweep-classic", "quick-random", "workers",
         "response-time", "trim-latency"):
    fresh = [s["label"] for i, s in enumerate(steps) if ("fresh-reads", i) in warned]
    if fresh: problems.append("fresh reads where the preset promises settled ones: %s" % fresh)
if p.startswith("quick") and p != "quick-random":
    for s in steps:
        if s.get("analysis") == "settled-read":
            if s["conditions"]["settled_by"] not in ("idle", "written-after") or s["conditions"].get("flush_source") != "default":
                problems.append("settled control %s" % s["conditions"])
        if s.get("analysis") == "fresh-read" and s["conditions"]["idle_since_data_ns"] != 0:
            problems.append("fresh read %s had an idle" % s["label"])
if p == "review":
    names = {w for w in ("Reads during TRIM", "SEQ1M Q32T1 write", "After idle, no TRIM") if w not in labels}
    if names: problems.append("review lacks %s" % names)
    q = [s for s in steps if s["label"] == "SEQ1M Q8T1" and s["job"]["rw"] == "read"][0]
    if q["conditions"]["planned_time_ns"] != 40 * 10**9: problems.append("Quick in review %s" % q["conditions"])
    if len(q["runs"]) != 3: problems.append("Quick in review ran %d runs, not its 3" % len(q["runs"]))
print("; ".join(problems) if problems else "ok")
PY
}

presets=$("$cli" list-presets | tail -n +2 | awk '{print $1}')
for p in $presets; do
  [ "$p" = copy ] && continue   # needs a folder; its settling idle is checked below
  if [ "$p" = probe ]; then
    # The quick probe measures no speed: strict's conditions are refused with it.
    expect_fail 2 "measures no speed: --strict, --cdm and --state do not apply" \
      run --preset probe --target "$loop" --destroy-data="$loop" --strict
    continue
  fi
  if "$cli" run --preset "$p" --target "$loop" --destroy-data="$loop" --strict --time-scale $scale \
       --max-idle 30ms --span 64m --quiet --json "$work/$p.json" >"$work/out" 2>"$work/err"; then
    v=$(check "$p" "$work/$p.json")
    if [ "$p" = review ]; then
      # Rows are keyed by step: Quick's RND4K Q1T1 and the queue-depth sweep's do not
      # overwrite each other, and results a warning concerns carry a mark.
      n=$(grep -c '^RND4K Q1T1 ' "$work/out")
      [ "$n" -ge 2 ] && ok "review's table keeps both RND4K Q1T1 rows" || bad "review table: $(cat "$work/out")"
      grep -q '^\* a warning below concerns this result' "$work/out" && grep -q '[0-9]\*' "$work/out" \
        && ok "marked cells are explained" || bad "no marks in $(cat "$work/out")"
    fi
    secs=$(json_get "$work/$p.json" 'round(r["duration_ns"] / 1e9, 1)')
    [ "$v" = ok ] && ok "$p under --strict (${secs} s)" || bad "$p under --strict: $v"
  else
    bad "$p under --strict failed: $(cat "$work/err")"
  fi
done

# The copy leaves its source idle before copying it.
dir=$(mktemp -d "$work/files-XXXXXX")
if "$cli" run --preset copy --target "$dir" --span 64m --max-idle 30ms --quiet \
     --json "$work/copy.json" >/dev/null 2>"$work/err"; then
  v=$(json_get "$work/copy.json" 'all(s["conditions"]["idle_before_ns"] == 30 * 10**6 for s in r["steps"])')
  [ "$v" = True ] && ok "copy: the source settles before the copy" || bad "copy idles: $v"
else
  bad "copy failed: $(cat "$work/err")"
fi

# CrystalDiskMark's way: 5 runs, 5 s apart (cut by --max-idle here), the best shown in MB/s.
if "$cli" run --preset quick --target "$dir" --cdm --time 100ms --max-idle 10ms --span 64m \
     --json "$work/cdm.json" >"$work/out" 2>"$work/err"; then
  v=$(json_get "$work/cdm.json" '"ok" if r["conditions"]["headline"] == "best" and r["conditions"]["cdm_compatible"] and all(len(s["runs"]) == 5 and max(range(5), key=lambda k: s["runs"][k]["read"]["bw_bps"] + s["runs"][k]["write"]["bw_bps"]) == s["headline_run"] and s["conditions"]["idle_before_ns"] >= 0 for s in r["steps"]) else [(s["headline_run"], len(s["runs"])) for s in r["steps"]]')
  [ "$v" = ok ] && ok "--cdm: 5 runs, the best is the headline" || bad "--cdm: $v"
  grep -q 'Read MB/s' "$work/out" && grep -q 'the best shown' "$work/out" \
    && ok "--cdm table in MB/s, says the best is shown" || bad "--cdm table: $(cat "$work/out")"
else
  bad "--cdm failed: $(cat "$work/err")"
fi

losetup -d "$loop" && loop=
losetup -a | grep -q "$work" && bad "loop device left behind" || ok "no loop device left"
finish

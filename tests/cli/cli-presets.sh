#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every preset runs end to end, scaled down: on a test file, and (as root) on zram,
# a 4Kn device, with consent. Each result is checked for what its preset promises.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-devices.sh"

devices_snapshot
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-presets-XXXXXX")
zram_id=
loop=
cleanup() {
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  if [ -n "$zram_id" ]; then
    # A run killed with the script may hold the device a moment longer.
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      echo 1 > /sys/block/zram$zram_id/reset 2>/dev/null && break
      sleep 0.5
    done
    echo "$zram_id" > /sys/class/zram-control/hot_remove 2>/dev/null
  fi
  rm -rf "$work"
  devices_check
}
trap cleanup EXIT

presets=$("$cli" list-presets | tail -n +2 | awk '{print $1}')
[ "$(echo "$presets" | wc -l)" -ge 27 ] && ok "list-presets lists $(echo "$presets" | wc -l) presets" \
                                       || bad "list-presets: $presets"
# NSC_PRESET_COVER=1 (the sanitizer stage of .ci/run): only the fewest presets whose
# steps take every path the whole set takes (preset-cover.py).
if [ -n "${NSC_PRESET_COVER:-}" ]; then
  cover=$(python3 "$(dirname "$0")/preset-cover.py" "$(dirname "$0")/../../data/presets") \
    || { bad "preset-cover.py failed"; cover=$presets; }
  for p in $cover; do
    grep -qx "$p" <<<"$presets" || bad "preset-cover.py chose $p, which list-presets does not list"
  done
  echo "# the presets that cover every path: $(echo $cover)"
  presets=$cover
fi

# check_result PRESET JSON: what every result and each preset's own must hold.
check_result() {
  local p=$1 json=$2 verdict
  verdict=$(python3 - "$p" "$json" <<'PY'
import json, re, sys
p, path = sys.argv[1], sys.argv[2]
r = json.load(open(path))
problems = []
if r["schema"] != 1: problems.append("schema")
if r["cancelled"] or r.get("error"): problems.append("run error: %s" % r.get("error"))
steps = r["steps"]
if not steps: problems.append("no steps")
for s in steps:
    if not s["completed"]: problems.append("step %s not completed: %s" % (s["label"], s.get("error")))
    if s["kind"] == "job" and not s.get("skipped"):
        bw = s["read"]["bw_bps"] + s["write"]["bw_bps"]
        if not bw > 0: problems.append("step %s measured nothing" % s["label"])
a = r["analysis"]
codes = {w["code"] for w in r["warnings"]}
if p.startswith("quick") and p != "quick-random":
    if len(a.get("read_inflation", [])) != 2: problems.append("no fresh/settled comparison")
    if not codes & {"read-inflation", "read-inflation-not-verified"}: problems.append("no inflation verdict")
if p == "copy":
    cs = [s for s in steps if s["kind"] == "copy"]
    if len(cs) != 3 or cs[2]["files"] < 2 or "summary" not in a.get("copy", {}):
        problems.append("copy: %s, analysis %s" % ([(s["label"], s.get("files")) for s in cs],
                                                   a.get("copy", {}).get("error") or a.get("copy")))
if p == "erase" and steps[0].get("erase_method") not in ("punch hole", "BLKDISCARD"):
    problems.append("erase method %s" % steps[0].get("erase_method"))
if p == "compressibility" and set(a.get("compressibility", {})) != {"random_bps", "compressible_bps", "zeros_bps"}:
    problems.append("no compressibility analysis")
# A fill's analysis: its summary, or, where the fill really gave fewer samples than
# the analysis needs (a scaled-down fill on zram while the machine is busy elsewhere
# ends within a few sampling intervals), the analysis saying exactly that.
def fill_analysed(key):
    o = a.get(key, {})
    if "summary" in o:
        return True
    m = re.match(r"Only (\d+) samples", str(o.get("error", "")))
    step = o.get("step")
    if m is None or not isinstance(step, int) or not 0 <= step < len(steps):
        return False
    series = steps[step].get("series", {}).get("t_ns", [])
    return int(m.group(1)) <= len(series) < 10
if p in ("write-fill", "write-fill-twice", "cache-recovery", "review", "hardcore"):
    if not fill_analysed("slc"):
        problems.append("no SLC analysis: %s; samples %s" % (a.get("slc"),
            [len(s["series"]["t_ns"]) for s in steps if s["kind"] == "job" and "series" in s]))
if p in ("write-fill-twice", "hardcore") and not fill_analysed("slc_second_pass"):
    problems.append("no second pass: %s" % a.get("slc_second_pass"))
if p == "cache-recovery" and len(a.get("cache_recovery", {}).get("points", [])) not in (0, 5):
    problems.append("recovery points")
if p == "mixed":
    m = a.get("mixed", {})
    if len(m.get("sequential", {}).get("points", [])) != 6 or len(m.get("random", {}).get("points", [])) != 6:
        problems.append("mixed points")
if p == "trim-latency":
    if "worst_latency_ns" not in a.get("trim_latency", {}): problems.append("no TRIM latency")
    if not any(s["kind"] == "trim" and s["trimmed_bytes"] > 0 for s in steps): problems.append("nothing trimmed")
if p == "degradation" and "degradation" not in a: problems.append("no degradation analysis")
def places_problem(surf):
    """100 places, or on a target too small for them as many as fit, one block each;
    in order from the start, none overlapping the next."""
    runs = surf["runs"]
    offs = [x["region_offset"] for x in runs]
    lens = [max(x["read"]["bytes"], x["write"]["bytes"]) for x in runs]
    if not (len(runs) == 100 or (0 < len(runs) < 100 and set(lens) == {1 << 20})):
        return "surface points: %d of %s" % (len(runs), sorted(set(lens)))
    if offs[0] != 0 or any(offs[i] + lens[i] > offs[i + 1] for i in range(len(offs) - 1)):
        return "surface offsets overlap or are out of order"
    return None
if p == "probe":
    cap = a.get("capacity") or {}
    probe = [s for s in steps if s["kind"] == "probe"][0].get("probe") or {}
    # An honest device: every place kept its data; it wrote no more than its bound.
    if cap.get("verdict") != "probe-passed" or cap.get("coverage") != "probe":
        problems.append("probe verdict %s" % cap)
    if probe.get("usable_bytes") != r["target"]["size"] or not probe.get("places"):
        problems.append("probe: usable %s of %s, %d places" % (probe.get("usable_bytes"), r["target"]["size"],
                                                               len(probe.get("places") or [])))
if p == "surface":
    surf = [s for s in steps if s["kind"] == "surface"][0]
    if places_problem(surf): problems.append(places_problem(surf))
if p == "surface-write":
    surf = [s for s in steps if s["kind"] == "surface"]
    if len(surf) != 2 or len(surf[0]["runs"]) != len(surf[1]["runs"]): problems.append("surface-write points")
    elif places_problem(surf[0]): problems.append(places_problem(surf[0]))
    elif not (surf[0]["runs"][0]["write"]["bytes"] > 0 and surf[1]["runs"][0]["read"]["bytes"] > 0):
        problems.append("surface-write: no write scan beside the read scan")
print("; ".join(problems) if problems else "ok")
PY
)
  [ "$verdict" = ok ] && ok "$p on $3" || bad "$p on $3: $verdict"
}

# check_plan PRESET PLAN RESULT WHERE: the run wrote no more than the plan's bound
# (the writes bounded by time aside: their bytes are the drive's speed), and each
# timed step ran as long and as often as the plan said.
check_plan() {
  local verdict
  verdict=$(python3 - "$2" "$3" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))["states"][0]
r = json.load(open(sys.argv[2]))
steps = r["steps"]
problems = []
timed = {it["step"]: it for it in plan["items"] if it["timed"]}
timed_bytes = 0
for i, it in timed.items():
    s = steps[i]
    ran = sum(x["write"]["bytes"] for x in s.get("runs", []))
    timed_bytes += ran
    # A step the drive cannot run (blocks below its sector size) is skipped, and said.
    if s.get("skipped"):
        continue
    length = s["job"]["time_ns"] * len(s.get("runs", []))
    if length != it["time_ns"]:
        problems.append("step %d %s ran %d ns, the plan said %d" % (i, s.get("label"), length, it["time_ns"]))
bounded = r["bytes_written"] - timed_bytes
if bounded > plan["total_bytes"]:
    problems.append("wrote %d B outside timed steps, the plan said at most %d B" % (bounded, plan["total_bytes"]))
# "writes" is what consent is asked for: a run the plan says does not write must not.
if not plan["writes"] and (r["bytes_written"] > 0 or any(s["kind"] in ("trim", "erase") for s in steps)):
    problems.append("the plan says it writes nothing, the run wrote %d B" % r["bytes_written"])
print("; ".join(problems) if problems else "ok %d of %d B" % (bounded, plan["total_bytes"]))
PY
)
  case $verdict in
    ok*) ok "$1 on $4 kept to its plan (${verdict#ok })" ;;
    *) bad "$1 on $4 broke its plan: $verdict" ;;
  esac
}

# run_all TARGET WHERE [RUN OPTIONS…]: every preset but those in $skip; only those in
# $only when it is set.
skip=
only=
run_all() {
  local target=$1 where=$2
  shift 2
  for p in $presets; do
    if [[ " $skip " == *" $p "* ]] || { [ -n "$only" ] && [[ " $only " != *" $p "* ]]; }; then
      continue
    fi
    if [ -b "$target" ] && [ "$p" = copy ]; then
      out=$("$cli" run --preset copy --target "$target" "$@" --quiet 2>&1 >/dev/null)
      printf '%s' "$out" | grep -q "needs a folder" && ok "copy on $where is refused: $out" \
                                                   || bad "copy on $where: $out"
      continue
    fi
    # The quick probe judges a whole drive: a folder is refused before anything is
    # made there.
    if [ ! -b "$target" ] && [ "$p" = probe ]; then
      out=$("$cli" run --preset probe --target "$target" "$@" --quiet 2>&1 >/dev/null)
      printf '%s' "$out" | grep -q "checks a whole drive" && ok "probe on $where is refused: $out" \
                                                        || bad "probe on $where: $out"
      continue
    fi
    size=96m
    case $p in write-fill*|cache-recovery|review|hardcore|recovery-no-trim) size=1g ;; esac
    # A copy's curve needs ten samples or more (a sample a 1/256 of the copy, at most
    # one every 10 ms): 96 MiB copied in 80 ms on a busy machine gave 8, and no
    # analysis. 384 MiB takes long enough however the sampler is scheduled.
    [ "$p" = copy ] && size=384m
    # The plan first (--dry-run --json), with the same options: the run must write no
    # more than it and time its steps as it said.
    if ! "$cli" run --preset "$p" --target "$target" --size $size --span $size --time 150ms \
         --max-idle 20ms --runs 1 --dry-run --json "$work/$p.plan.json" "$@" >/dev/null 2>"$work/err"; then
      bad "$p on $where: no plan: $(cat "$work/err")"
    fi
    if "$cli" run --preset "$p" --target "$target" --size $size --span $size --time 150ms \
         --max-idle 20ms --runs 1 --quiet --json "$work/$p.json" "$@" >"$work/out" 2>"$work/err"; then
      check_result "$p" "$work/$p.json" "$where"
      check_plan "$p" "$work/$p.plan.json" "$work/$p.json" "$where"
    else
      bad "$p on $where failed: $(cat "$work/err")"
    fi
  done
}

# NSC_PRESET_TARGETS: which of the three targets to run every preset on (all by
# default); the sanitizer stage of .ci/run leaves out the loop device, whose runs
# take the same code paths as zram's but for the sector size.
targets=${NSC_PRESET_TARGETS:-file zram loop}
# What the loop device leaves out: the presets that mostly write many GiB at large
# blocks; zram runs them.
loop_skip="review surface-write bs-sweep-classic hardcore write-fill-twice cache-recovery"
on() { [[ " $targets " == *" $1 "* ]]; }

if on file; then
  dir=$(mktemp -d "$work/files-XXXXXX")
  run_all "$dir" "a test file"
  empty_dir "$dir" && ok "no test file left" || bad "left behind: $(ls -A "$dir")"
fi

if ! on zram; then
  echo "# zram runs left out (NSC_PRESET_TARGETS=$targets)"
elif [ "$(id -u)" -eq 0 ] && [ -w /sys/class/zram-control/hot_add ]; then
  zram_id=$(cat /sys/class/zram-control/hot_add)
  z=/dev/zram$zram_id
  echo 512M > /sys/block/zram$zram_id/disksize
  [ -b "$z" ] || mknod "$z" b $(tr ':' ' ' < /sys/block/zram$zram_id/dev)
  # The loop device below runs the other presets on a device; zram runs those it
  # leaves out, and those whose blocks follow the sector size (4 KiB here, 512 B there).
  if on loop && command -v losetup >/dev/null; then
    only="$loop_skip bs-sweep response-time"
    echo "# on zram: $only (the loop device runs the rest)"
  fi
  run_all "$z" "zram" --destroy-data="$z"
  only=
  codes=$(json_get "$work/bs-sweep.json" '",".join(sorted({w["code"] for w in r["warnings"]}))')
  case ",$codes," in
    *,block-size-unsupported,*) ok "bs-sweep on a 4Kn device skips 512 B to 2 KiB and says so" ;;
    *) bad "bs-sweep on zram: $codes" ;;
  esac
  bs=$(json_get "$work/response-time.json" 'r["steps"][0]["job"]["block_size"]')
  [ "$bs" = 4096 ] && ok "response-time uses 4 KiB on a 4Kn device" || bad "response-time block size $bs"
  # zram compresses, and stores zero pages as nothing: the compressibility preset must
  # see zeros written faster than random data there.
  if "$cli" run --preset compressibility --target "$z" --destroy-data="$z" --span 128m --time 1s \
       --quiet --json "$work/zc.json" >/dev/null 2>"$work/err"; then
    got=$(json_get "$work/zc.json" '"faster" if r["analysis"]["compressibility"]["zeros_bps"] > 1.3 * r["analysis"]["compressibility"]["random_bps"] and "compressing-controller" in {w["code"] for w in r["warnings"]} else r["analysis"]["compressibility"]')
    [ "$got" = faster ] && ok "zram writes zeros faster, and the warning says why" || bad "compressibility on zram: $got"
  else
    bad "compressibility on zram failed: $(cat "$work/err")"
  fi
  # The nearly-full state on zram: only the last 64 MiB are used.
  if "$cli" run --preset seq-qd --target "$z" --destroy-data="$z" --state free:64m --time 100ms \
       --quiet --json "$work/zs.json" >/dev/null 2>"$work/err"; then
    got=$(json_get "$work/zs.json" 'all(s["job"]["region_offset"] >= (512 - 64) << 20 for s in r["steps"])')
    [ "$got" = True ] && ok "zram filled to leave 64 MiB: every step runs in them" || bad "zram state: $got"
  else
    bad "state on zram failed: $(cat "$work/err")"
  fi

  # The reviews' conditions: the preset starts from a TRIM of the span (and nothing
  # inside it is trimmed again), reads data written after it that settled, with the
  # idle time between tests recorded.
  if "$cli" run --preset seq-qd --target "$z" --destroy-data="$z" --strict --time 150ms --max-idle 10ms \
       --idle 10ms --span 64m --quiet --json "$work/strict.json" >/dev/null 2>"$work/err"; then
    verdict=$(json_get "$work/strict.json" '"ok" if r["conditions"]["strict"] and r["steps"][0]["conditions"]["strict_trimmed_bytes"] == 64 << 20 and r["steps"][0]["conditions"]["prefilled_bytes"] >= 64 << 20 and not any(s["conditions"]["strict_trimmed_bytes"] for s in r["steps"][1:]) and all(s["conditions"]["settled_by"] == "idle" for s in r["steps"] if s["job"]["rw"] == "read") and r["steps"][1]["conditions"]["idle_before_ns"] == 10**7 else [s["conditions"] for s in r["steps"][:2]]')
    [ "$verdict" = ok ] && ok "--strict: TRIM where the preset starts, settled reads, idle recorded" \
                        || bad "--strict conditions: $verdict"
  else
    bad "--strict run failed: $(cat "$work/err")"
  fi
else
  echo "# not root or no zram: zram runs skipped"
fi

# A loop device: 512-byte sectors, TRIM passed down as punched holes in its file. The
# presets that mostly write many GiB at large blocks take zram's paths here but for
# the sector size, and run on the test file and zram only (CI's time).
if ! on loop; then
  echo "# loop device runs left out (NSC_PRESET_TARGETS=$targets)"
elif [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
  truncate -s 1536M "$work/loop.img"
  if loop=$(losetup -f --show "$work/loop.img"); then
    skip=$loop_skip
    echo "# on the loop device, all but: $skip"
    run_all "$loop" "a loop device" --destroy-data="$loop"
    skip=
    bs=$(json_get "$work/response-time.json" 'r["steps"][0]["job"]["block_size"]')
    [ "$bs" = 512 ] && ok "response-time uses 512 B on a 512 B device" || bad "response-time block size $bs"
  fi
fi

finish

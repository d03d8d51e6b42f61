#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What a run writes: --dry-run states it and writes nothing (a folder, a loop
# device); a step that stops when it knows honours its cap on a loop device (which
# has no speed drop: the drop itself is proven in the vm suite), says why it stopped,
# and the run writes no more than the budget said.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-devices.sh"

devices_snapshot
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-budget-XXXXXX")
loop=
fsloop=
cleanup() {
  mountpoint -q "$work/mnt" 2>/dev/null && umount "$work/mnt"
  mountpoint -q "$work/small" 2>/dev/null && umount "$work/small"
  [ -n "$fsloop" ] && losetup -d "$fsloop" 2>/dev/null
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  rm -rf "$work"
  devices_check
}
trap cleanup EXIT

# A folder: the budget per step and in total, exit 0, nothing left in the folder.
mkdir "$work/dir"
for p in quick cache-recovery write-fill-twice copy; do
  if out=$("$cli" run --target "$work/dir" --preset $p --dry-run 2>&1); then
    if printf '%s\n' "$out" | grep -q '^  total ' && printf '%s\n' "$out" | grep -q '^  step '; then
      ok "dry-run $p on a folder: $(printf '%s\n' "$out" | grep '^  total' | tr -s ' ')"
    else
      bad "dry-run $p: no per-step lines or total: $out"
    fi
  else
    bad "dry-run $p on a folder exited $?: $out"
  fi
  empty_dir "$work/dir" && ok "dry-run $p left the folder empty" || bad "dry-run $p wrote into the folder"
done
out=$("$cli" run --target "$work/dir" --preset cache-recovery --dry-run)
n=$(printf '%s\n' "$out" | grep -c 'stops once its speed drop has held')
# One recovery step per idle of METHODOLOGY.md's SNIA schedule (5, 10, 15, 25, 50 s),
# each with a stop rule in the preset.
want=$(python3 -c 'import json,sys
print(sum(1 for s in json.load(open(sys.argv[1]))["steps"] if "stop" in s))' \
  "$G_TEST_SRCDIR/../data/presets/cache-recovery.json")
[ "$want" -eq 5 ] && [ "$n" -eq "$want" ] \
  && ok "cache-recovery: its $n recovery steps stop once their drop has held" \
  || bad "cache-recovery: $n of $want steps said to stop early: $out"
expect_fail 1 "does not exist" run --target "$work/nowhere/x" --preset quick --dry-run

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
  echo "# not root or no losetup: loop device checks skipped"
  finish
fi

# A loop device: the budget from its capacity, read-only, without consent.
truncate -s 1536M "$work/loop.img"
head -c 1048576 /dev/urandom | dd of="$work/loop.img" conv=notrunc status=none
sum_before=$(head -c 1048576 "$work/loop.img" | md5sum)
loop=$(losetup -f --show "$work/loop.img") || { bad "losetup"; finish; }
if out=$("$cli" run --target "$loop" --preset write-fill-twice --dry-run 2>&1); then
  total=$(printf '%s\n' "$out" | awk '/^  total/ {print $2, $3}')
  [ "$total" = "3 GiB" ] && ok "dry-run write-fill-twice on a 1.5 GiB loop device: at most $total" \
                         || bad "dry-run total “$total”: $out"
else
  bad "dry-run on $loop without --destroy-data exited $?: $out"
fi
[ "$(head -c 1048576 "$work/loop.img" | md5sum)" = "$sum_before" ] \
  && ok "dry-run left the device's data as it was" || bad "dry-run changed the device"

# The second pass has a stop rule; a loop device has no drop, so it runs to its cap
# (or to its end, when the cap is the whole device).
if "$cli" run --target "$loop" --destroy-data="$loop" --preset write-fill-twice --max-idle 1s \
     --quiet --json "$work/wft.json" > "$work/out" 2> "$work/err"; then
  verdict=$(python3 - "$work/wft.json" "$loop" "$work/loop.img" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
jobs = [s for s in r["steps"] if s["kind"] == "job"]
first, second = jobs
size = r["target"]["size"]
out = []
w1, w2 = first["write"]["bytes"], second["write"]["bytes"]
print("# first pass %d B (%s), second pass %d B (%s), cap %d B, drop at %s"
      % (w1, first.get("stop_reason"), w2, second.get("stop_reason"),
         second["stop"]["cap_bytes"], second["stop"]["drop_position"]), file=sys.stderr)
if first.get("stop_reason") != "full" or w1 != size:
    out.append("first pass: %s, %d of %d B" % (first.get("stop_reason"), w1, size))
slc = r["analysis"].get("slc") or {}
# The second pass's cap comes from the fast start the first pass saw, whoever's it is
# (on a loop device, this machine's memory).
cache = slc.get("cache_bytes", 0) if slc.get("has_cache") or slc.get("drop_cause") == "system-cache" else 0
# A loop device over a file without direct I/O: the writes went through this machine's
# memory, which the target, the analysis and a warning say.
loop = sys.argv[2].rsplit("/", 1)[-1]
want = {"certainty": "memory", "kind": "loop", "device": loop, "detail": sys.argv[3]}
if r["target"].get("system_cache") != want:
    out.append("target.system_cache %s, wanted %s" % (r["target"].get("system_cache"), want))
if slc.get("system_cache") != want:
    out.append("analysis.slc.system_cache %s, wanted %s" % (slc.get("system_cache"), want))
if slc.get("has_cache") or slc.get("verdict") not in ("system-cache", "not-verified"):
    out.append("an SLC verdict through memory: has_cache %s, verdict %s" % (slc.get("has_cache"), slc.get("verdict")))
print("# %s" % slc.get("summary"), file=sys.stderr)
if "this machine's memory" not in (slc.get("summary") or ""):
    out.append("the summary does not name this machine's memory: %s" % slc.get("summary"))
codes = [w["code"] for w in r.get("warnings", [])]
if "system-cache-memory" not in codes:
    out.append("no system-cache-memory warning: %s" % codes)
MIB = 1 << 20
expect = min(size, max(int(1.25 * cache + 1024 * MIB), 512 * MIB)) // MIB * MIB
cap = second["stop"]["cap_bytes"]
if cap != expect:
    out.append("cap %d B, expected %d B from a cache of %d B" % (cap, expect, cache))
# A cap as large as the device (a cache seen on it) is reached as the end of the device.
full_is_cap = cap >= size and w2 == size
if second.get("stop_reason") not in ("cap", "drop-held") and not (second.get("stop_reason") == "full" and full_is_cap):
    out.append("second pass stopped by %s" % second.get("stop_reason"))
if w2 > cap:
    out.append("second pass wrote %d B past its cap %d B" % (w2, cap))
if second.get("stop_reason") == "cap" and w2 != cap:
    out.append("stopped by its cap after %d B, not %d B" % (w2, cap))
if r["bytes_written"] != w1 + w2:
    out.append("bytes_written %d, the steps wrote %d" % (r["bytes_written"], w1 + w2))
if r["bytes_written"] > 3 * 1024 * MIB:
    out.append("wrote %d B, more than the budget of 3 GiB" % r["bytes_written"])
print("; ".join(out) if out else "ok")
PY
)
  if [ "$verdict" = ok ]; then
    ok "write-fill-twice on a loop device: the second pass stopped within its cap, and said why; the fast start is named as this machine's memory"
  else
    bad "write-fill-twice: $verdict"
  fi
else
  bad "write-fill-twice on $loop failed: $(cat "$work/err")"
fi

# The issue's case: a write-fill on a folder of a filesystem on a loop device over a
# file. The folder's device is the loop: its writes too went through memory.
truncate -s 1G "$work/fs.img"
if fsloop=$(losetup -f --show "$work/fs.img") && mkfs.ext4 -q "$fsloop" && mkdir -p "$work/mnt" \
   && mount "$fsloop" "$work/mnt"; then
  mkdir "$work/mnt/bench"
  # 768 MiB: at the pace the loop device's page cache takes writes (0.5-6 GB/s here),
  # enough samples for the analysis to judge; 256 MiB at 580 MB/s gave it only 8.
  if "$cli" run --target "$work/mnt/bench" --preset write-fill --size 768m --max-idle 200ms \
       --quiet --json "$work/fold.json" > "$work/out" 2> "$work/err"; then
    got=$(python3 - "$work/fold.json" "${fsloop##*/}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
slc = r["analysis"].get("slc") or {}
sc = slc.get("system_cache") or {}
codes = [w["code"] for w in r.get("warnings", [])]
print("ok" if sc.get("certainty") == "memory" and sc.get("device") == sys.argv[2]
      and not slc.get("has_cache") and "system-cache-memory" in codes
      else "system_cache %s, has_cache %s, warnings %s: %s" % (sc, slc.get("has_cache"), codes, slc.get("summary")))
PY
)
    [ "$got" = ok ] && ok "write-fill on a folder on ${fsloop##*/}: the fast start is named as this machine's memory" \
                    || bad "write-fill on a folder on a loop device: $got"
  else
    bad "write-fill on a folder on $fsloop failed: $(cat "$work/err")"
  fi
  umount "$work/mnt"
else
  bad "could not make a filesystem on a loop device"
fi
[ -n "$fsloop" ] && losetup -d "$fsloop" && fsloop=

# A folder too small for the test file: the plan says so before anything is written,
# with a size that fits and the option for it; that size then fits.
if [ "$(id -u)" -eq 0 ]; then
  mkdir -p "$work/small"
  mount -t tmpfs -o size=1500m nsc-budget-small "$work/small"
  out=$("$cli" run --preset quick --target "$work/small" --dry-run 2>&1)
  if grep -q "The 2 GiB test file does not fit in this folder: 1.46 GiB are free.* A 1 GiB one would: --size 1g" <<<"$out"; then
    ok "dry run on a 1.46 GiB folder: Quick's 2 GiB does not fit, 1 GiB would"
  else
    bad "dry run on a small folder: $out"
  fi
  out=$("$cli" run --preset quick --target "$work/small" --size 1g --dry-run 2>&1)
  grep -q "does not fit" <<<"$out" && bad "--size 1g still said not to fit: $out" \
                                   || ok "with --size 1g the plan fits"
  [ -z "$(ls -A "$work/small")" ] && ok "nothing written to the small folder" || bad "left: $(ls -A "$work/small")"
  umount "$work/small"
fi

finish

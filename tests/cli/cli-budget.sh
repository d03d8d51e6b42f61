#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What a run writes: --dry-run states it and writes nothing (a folder, a loop
# device); a step that stops when it knows honours its cap on a loop device (which
# has no speed drop: the drop itself is proven in the vm suite), says why it stopped,
# and the run writes no more than the budget said.
set -u
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-budget-XXXXXX")
loop=
cleanup() {
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  rm -rf "$work"
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
  verdict=$(python3 - "$work/wft.json" <<'PY'
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
cache = slc.get("cache_bytes", 0) if slc.get("has_cache") else 0
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
    ok "write-fill-twice on a loop device: the second pass stopped within its cap, and said why"
  else
    bad "write-fill-twice: $verdict"
  fi
else
  bad "write-fill-twice on $loop failed: $(cat "$work/err")"
fi

finish

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The quick probe (--preset probe) on the host's real parts: a loop device that stores
# what it reports gets "probe-passed", its usable size the device's, the places it
# read, no more written than the plan's bound, and the report says what a probe cannot
# prove and what the capacity check costs. Bad input is refused before anything is
# written, with one clear line: a folder, a regular file, no consent, --strict, a
# drive too small to probe, a mounted drive. The fakes, the drive's own cache, cancel and kill
# are the vm suite's (vm-probe). Root (exit 77 without).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-devices.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for a loop device"; exit 77; }
devices_snapshot
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-probe-XXXXXX")
loop=
small=
cleanup() {
  mountpoint -q "$work/mnt" 2>/dev/null && umount "$work/mnt"
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  [ -n "$small" ] && losetup -d "$small" 2>/dev/null
  rm -rf "$work"
  devices_check
}
trap cleanup EXIT

truncate -s 512m "$work/disk.img"
loop=$(losetup -f --show "$work/disk.img") || { bad "losetup failed"; finish; }

# The plan, then the run: the bytes it wrote within the plan's bound.
"$cli" run --target "$loop" --preset probe --destroy-data="$loop" --dry-run --json "$work/plan.json" \
  > "$work/plan.txt" 2>&1 || bad "no plan: $(cat "$work/plan.txt")"
grep -q "a good drive about" "$work/plan.txt" && ok "the plan says what a good drive costs: $(grep -m1 Probe "$work/plan.txt")" \
                                             || bad "the plan: $(cat "$work/plan.txt")"
"$cli" run --target "$loop" --preset probe --destroy-data="$loop" --json "$work/r.json" > "$work/out.txt" 2> "$work/err.txt"
rc=$?
[ $rc -eq 0 ] && ok "the probe ran to the end" || bad "exit $rc: $(tail -3 "$work/err.txt")"
verdict=$(python3 - "$work/r.json" "$work/plan.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
plan = json.load(open(sys.argv[2]))["states"][0]
cap = r["analysis"]["capacity"]
step = r["steps"][0]
p = step["probe"]
problems = []
if cap["verdict"] != "probe-passed" or cap["coverage"] != "probe":
    problems.append("verdict %s, coverage %s" % (cap["verdict"], cap["coverage"]))
if p["usable_bytes"] != r["target"]["size"] or cap["usable_bytes"] != r["target"]["size"]:
    problems.append("usable %d of %d" % (p["usable_bytes"], r["target"]["size"]))
# The first level's 64 places and the end run's 128 blocks, each read past the cache.
if len(p["places"]) < 192 or any(k != "ok" for _, k in p["places"]):
    problems.append("places %d, kinds %s" % (len(p["places"]), sorted(set(k for _, k in p["places"]))))
offs = [o for o, _ in p["places"]]
if offs != sorted(offs) or offs[-1] != r["target"]["size"] - 4096:
    problems.append("places not in order or not to the last block (%d)" % offs[-1])
# Looked past a cache of a quarter of the drive: the end still held.
if not p["cache_beyond"] or p["cache_max"] != r["target"]["size"] // 4:
    problems.append("cache_beyond %s, cache_max %d" % (p["cache_beyond"], p["cache_max"]))
if not (step["bytes_written"] == p["bytes_written"] == r["bytes_written"] <= plan["total_bytes"]):
    problems.append("wrote %d (step %d, result %d), the plan's bound %d"
                    % (p["bytes_written"], step["bytes_written"], r["bytes_written"], plan["total_bytes"]))
print("; ".join(problems) if problems else
      "ok: %d places, wrote %d of at most %d B" % (len(p["places"]), r["bytes_written"], plan["total_bytes"]))
PY
)
case $verdict in ok*) ok "probe-passed on the honest device (${verdict#ok: })" ;; *) bad "$verdict" ;; esac
grep -q "good as far as a quick probe can tell" "$work/out.txt" && grep -q "cannot prove a drive good" "$work/out.txt" \
  && grep -q "The capacity check settles it: it writes 640 MiB and reads 512 MiB back" "$work/out.txt" \
  && ok "the report says what a probe cannot prove, and the full check's cost" \
  || bad "the report: $(cat "$work/out.txt")"

# Bad input, each refused with one line and nothing written.
mkdir "$work/folder"
expect_fail 1 "checks a whole drive.*capacity check" run --target "$work/folder" --preset probe
empty_dir "$work/folder" && ok "nothing made in the folder" || bad "left in the folder: $(ls -A "$work/folder")"
head -c 1m /dev/zero > "$work/file"
expect_fail 1 "checks a whole drive" run --target "$work/file" --preset probe
expect_fail 2 "destroys everything on it.*--destroy-data=$loop" run --target "$loop" --preset probe
expect_fail 2 "measures no speed: --strict, --cdm and --state do not apply" \
  run --target "$loop" --preset probe --destroy-data="$loop" --strict
truncate -s 32m "$work/small.img"
small=$(losetup -f --show "$work/small.img") || bad "losetup failed"
[ -n "$small" ] && expect_fail 1 "too small for the quick probe.*capacity check" \
  run --target "$small" --preset probe --destroy-data="$small"
mkfs.ext4 -q "$loop" && mkdir "$work/mnt" && mount "$loop" "$work/mnt" || bad "mkfs or mount failed"
mountpoint -q "$work/mnt" && expect_fail 1 "mounted" run --target "$loop" --preset probe --destroy-data="$loop"
finish

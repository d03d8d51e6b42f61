#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The capacity and integrity check on a folder: a loop device with ext4 holding the
# user's files. The free space is filled with checked data, read back and verified; the
# user's files keep their bytes (checksummed before and after) and nothing is left
# behind after a completed run, a cancelled one (SIGINT: exit 130, a partial result
# that says "not-verified") and a killed one (SIGKILL), both held to 24 MiB/s by the
# kernel's I/O throttle so that they are caught writing. A write-fill with --verify is
# checked the same way; a preset with no whole-drive write refuses --verify. A surface
# scan with --verify on a 64 MiB loop device gets a sample's verdict. Root (exit 77
# without).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-devices.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for a loop device"; exit 77; }
devices_snapshot
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-verify-XXXXXX")
loop=
cg=
cleanup() {
  [ -n "$cg" ] && rmdir "$cg" 2>/dev/null
  mountpoint -q "$work/mnt" 2>/dev/null && umount "$work/mnt"
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  rm -rf "$work"
  devices_check
}
trap cleanup EXIT

truncate -s 768m "$work/disk.img"
loop=$(losetup -f --show "$work/disk.img") || { bad "losetup failed"; finish; }
mkfs.ext4 -q "$loop" && mkdir "$work/mnt" && mount "$loop" "$work/mnt" || { bad "mkfs or mount failed"; finish; }
dir=$work/mnt/check
mkdir "$dir" "$work/mnt/photos"
head -c 24m /dev/urandom > "$work/mnt/photos/big.raw"
for i in 1 2 3; do head -c $((i * 4097)) /dev/urandom > "$dir/user-$i.txt"; done
sums() { (cd "$work/mnt" && find photos check -type f | sort | xargs sha256sum); }
sums > "$work/before.sha"
listing() { ls -A "$dir" | sort | tr '\n' ' '; }
before_list=$(listing)
free_before=$(df -B1 --output=avail "$work/mnt" | tail -1)

# A complete check of the free space.
"$cli" run --target "$dir" --preset verify --json "$work/r.json" > "$work/out.txt" 2> "$work/err.txt"
rc=$?
[ $rc -eq 0 ] && ok "the check ran to the end" || bad "exit $rc: $(tail -3 "$work/err.txt")"
verdict=$(json_get "$work/r.json" 'r["analysis"]["capacity"]["verdict"]')
checked=$(json_get "$work/r.json" 'r["analysis"]["capacity"]["checked_bytes"]')
[ "$verdict" = verified ] && ok "verdict: verified ($checked B)" || bad "verdict: $verdict"
# The free space less the reserve a filesystem's fill leaves: most of it.
if [ -n "$checked" ] && [ "$checked" -gt $((free_before / 2)) ] && [ "$checked" -le "$free_before" ]; then
  ok "checked $checked B of the $free_before B free"
else
  bad "checked ${checked:-?} B of the $free_before B free"
fi
sed -n '/·/,$p' "$work/out.txt" | grep -m1 -q "read back as written" \
  && ok "the report says it: $(grep -m1 'read back as written' "$work/out.txt")" \
  || bad "the report has no verdict: $(head -5 "$work/out.txt")"
sums | cmp -s - "$work/before.sha" && ok "the user's files are unchanged" || bad "the user's files changed"
[ "$(listing)" = "$before_list" ] && ok "nothing left in the folder" || bad "left: $(listing)"

# The cancelled and killed runs write through a throttle: the loop device sits on the
# page cache, where a whole check can end in a fraction of a second, before a poll
# sees it writing. At 24 MiB/s it lasts about 20 s, and is stopped after 16 MiB.
cg=$(throttle_group "nsc-verify-$$" "$loop" write $((24 << 20)))
# (Run in the background: the subshell becomes the CLI, so $! is the CLI.)
throttled() { if [ -n "$cg" ]; then in_group "$cg" "$@"; else exec "$@"; fi; }
[ -n "$cg" ] || echo "# no I/O throttle on this machine: the cancelled and killed runs go at full speed"

# Cancelled while writing: a partial result, not a verdict. A signal that lands after
# the check has finished (a busy machine polls late) cancels nothing the verdict rests
# on, and is tried again: up to three times, for a run that it did cut short.
verifying() { opened_in "$1" "$dir" && io_past "$1" write $((16 << 20)); }
cut=0
for attempt in 1 2 3; do
  rm -f "$work/c.json"
  throttled "$cli" run --target "$dir" --preset verify --json "$work/c.json" > /dev/null 2> "$work/err.txt" &
  pid=$!
  if ! wait_until $pid 60 verifying $pid; then
    bad "the cancelled run never wrote ($waited_why): $(tail -2 "$work/err.txt")"
    kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
    break
  fi
  kill -INT $pid
  wait $pid
  rc=$?
  # Cut short: a step or run of it cancelled or not completed.
  partial=$(json_get "$work/c.json" 'any(not s.get("completed", True) or s.get("cancelled") or any(x.get("cancelled") for x in s.get("runs", [])) for s in r["steps"])')
  v=$(json_get "$work/c.json" 'r["analysis"].get("capacity", {}).get("verdict", "none")')
  if [ "$partial" != True ]; then
    echo "# attempt $attempt: the check had finished before the signal (exit $rc, verdict $v); again"
    continue
  fi
  cut=1
  [ $rc -eq 130 ] && ok "SIGINT: exit 130" || bad "SIGINT: exit $rc"
  case $v in
    not-verified|none) ok "cancelled: no verdict claimed ($v)" ;;
    *) bad "cancelled, yet the verdict is $v" ;;
  esac
  break
done
[ $cut -eq 1 ] || bad "no SIGINT landed inside a check in three tries"
[ "$(listing)" = "$before_list" ] && ok "SIGINT: nothing left" || bad "SIGINT: left: $(listing)"

# Killed: the test file was never visible, so nothing is left.
throttled "$cli" run --target "$dir" --preset verify > /dev/null 2> "$work/err.txt" &
pid=$!
if wait_until $pid 60 verifying $pid; then
  kill -KILL $pid
  wait $pid 2>/dev/null
else
  bad "the killed run never wrote ($waited_why): $(tail -2 "$work/err.txt")"
  kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
fi
[ "$(listing)" = "$before_list" ] && ok "SIGKILL: nothing left" || bad "SIGKILL: left: $(listing)"
# A killed process's file is freed once the kernel has finished the writes it had in
# flight (held by the throttle here): its space comes back then, not at the kill.
free_back() { [ "$(df -B1 --output=avail "$work/mnt" | tail -1)" -ge $((free_before - (1 << 20))) ]; }
t0=$(date +%s%N)
if wait_until $$ 60 free_back; then
  ok "SIGKILL: the free space is back after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
else
  bad "SIGKILL: the free space is not back ($waited_why): $(df -B1 --output=avail "$work/mnt" | tail -1) B"
fi
if [ -n "$cg" ]; then
  wait_until $$ 30 rmdir "$cg" 2>/dev/null && cg= || bad "the throttle's cgroup $cg stays busy"
fi
sums | cmp -s - "$work/before.sha" && ok "the user's files are unchanged after all three" \
  || bad "the user's files changed"
# --verify: a write-fill of the free space, read back and checked.
"$cli" run --target "$dir" --preset write-fill --verify --max-idle 1s --json "$work/w.json" \
  > "$work/out.txt" 2> "$work/err.txt"
rc=$?
v=$(json_get "$work/w.json" 'r["analysis"]["capacity"]["verdict"]')
n=$(json_get "$work/w.json" 'len([s for s in r["steps"] if s.get("analysis") == "verify"])')
[ $rc -eq 0 ] && [ "$v" = verified ] && [ "$n" = 1 ] \
  && ok "write-fill --verify: the fill read back and verified" \
  || bad "write-fill --verify: exit $rc, verdict $v, $n read-back steps: $(tail -2 "$work/err.txt")"
"$cli" run --target "$dir" --preset quick --verify > /dev/null 2> "$work/err.txt"
rc=$?
[ $rc -eq 2 ] && grep -q -- '--preset verify' "$work/err.txt" \
  && ok "quick --verify refused: $(cat "$work/err.txt")" || bad "quick --verify: exit $rc: $(cat "$work/err.txt")"
[ "$(listing)" = "$before_list" ] && ok "--verify: nothing left" || bad "--verify: left: $(listing)"

free_after=$(df -B1 --output=avail "$work/mnt" | tail -1)
[ "$free_after" -ge $((free_before - (1 << 20))) ] && ok "the free space is back ($free_after B)" \
  || bad "free space $free_after B, was $free_before B"

# --verify on a surface scan: a device's places written, read back and checked (a
# sample's verdict), on a second loop device, released afterwards; 64 MiB holds 64 of
# the 100 places of 1 MiB blocks.
umount "$work/mnt"
losetup -d "$loop"
truncate -s 64m "$work/raw.img"
loop=$(losetup -f --show --direct-io=on "$work/raw.img") || { bad "losetup failed"; finish; }
"$cli" run --target "$loop" --destroy-data="$loop" --preset surface-write --verify --max-idle 1s \
  --json "$work/s.json" > "$work/out.txt" 2> "$work/err.txt"
rc=$?
v=$(json_get "$work/s.json" 'r["analysis"]["capacity"]["verdict"] + " " + r["analysis"]["capacity"]["coverage"] + " " + str(r["analysis"]["capacity"]["places"]) + " " + str(r["analysis"]["capacity"]["checked_bytes"])')
[ $rc -eq 0 ] && [ "$v" = "sample-verified places 64 $((64 << 20))" ] \
  && grep -q "read back as written: a sample" "$work/out.txt" \
  && ok "surface-write --verify: 64 places of 1 MiB (as many as fit) checked, a sample's verdict ($v)" \
  || bad "surface-write --verify: exit $rc, $v: $(tail -2 "$work/err.txt")"
finish

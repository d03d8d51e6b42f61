#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Faults on real parts (root: loop devices, mounts): a full filesystem, a filesystem
# filled from outside during a run, SIGTERM in each phase of a run, and a block device
# whose I/O starts failing mid-run (a loop device over a sparse file on a full tmpfs).
# See tests/README.md for what the user sees in each case.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-devices.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop devices, mounts)"; exit 77; }
command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null \
  || { echo "SKIP: needs losetup and mkfs.ext4"; exit 77; }

devices_snapshot
work=$(mktemp -d /var/tmp/cli-faults-XXXXXX)
mnt=$work/mnt
tmpfs=$work/tmpfs
loops=()
cleanup() {
  [ -n "${bg:-}" ] && kill "$bg" 2>/dev/null
  for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
  umount "$mnt" 2>/dev/null
  umount "$tmpfs" 2>/dev/null
  rm -rf "$work"
  devices_check
}
trap cleanup EXIT

# A 96 MiB ext4 on a loop device, mounted.
truncate -s 96M "$work/fs.img"
mkfs.ext4 -q -F "$work/fs.img" || { bad "mkfs.ext4"; finish; }
mkdir -p "$mnt" "$tmpfs"
mount -o loop "$work/fs.img" "$mnt" || { bad "mount the loop ext4"; finish; }
rmdir "$mnt/lost+found" 2>/dev/null
only_ours() { [ -z "$(ls -A "$mnt" | grep -v '^outside$')" ]; }

# 1. A test that cannot fit is refused before anything is written.
expect_fail 1 "space|free|fit" run --target "$mnt" --size 1g --runs 1 --time 1s --quiet
only_ours && ok "full: nothing left after the refusal" || bad "full: left: $(ls -A "$mnt")"

# 2. A write-fill through the free space completes and deletes its file.
if timeout 300 "$cli" run --target "$mnt" --preset write-fill --runs 1 --max-idle 10ms --quiet \
     --json "$work/fill.json" >"$work/out.txt" 2>"$work/err.txt"; then
  ok "write-fill on a 96 MiB filesystem completed"
else
  bad "write-fill exited $?: $(tail -3 "$work/err.txt")"
fi
only_ours && ok "write-fill: its file is gone" || bad "write-fill: left: $(ls -A "$mnt")"
[ -f "$work/fill.json" ] && [ "$(json_get "$work/fill.json" 'len(r["steps"][-1]["series"]["t_ns"]) > 0')" = True ] \
  && ok "write-fill: samples kept" || bad "write-fill: no samples in the result"

# 3. Filled from outside during a run: the test file was allocated up front, so the
# other writer meets ENOSPC and the run goes on.
"$cli" run --target "$mnt" --size 48m --runs 1 --time 4s --rw randwrite --bs 4k --qd 8 \
  --quiet --json "$work/outside.json" >"$work/out.txt" 2>"$work/err.txt" &
bg=$!
# Once it has written more than its file, the file is allocated and the test writes.
wait_until $bg 60 io_past $bg write $((49 * 1048576)) || bad "the random write never started ($waited_why)"
dd if=/dev/zero of="$mnt/outside" bs=1M count=200 status=none 2>"$work/dd.txt"
dd_rc=$?
wait $bg
rc=$?
bg=
[ $dd_rc -ne 0 ] && grep -qi "space" "$work/dd.txt" && ok "outside writer met ENOSPC" \
  || bad "outside writer: rc $dd_rc $(cat "$work/dd.txt")"
[ $rc -eq 0 ] && ok "run filled from outside: exit 0, stayed alive" \
  || bad "run filled from outside: exit $rc: $(tail -3 "$work/err.txt")"
[ -f "$work/outside.json" ] && [ "$(json_get "$work/outside.json" 'len(r["steps"][0]["series"]["t_ns"]) > 0')" = True ] \
  && ok "run filled from outside: samples kept" || bad "run filled from outside: no samples"
rm -f "$mnt/outside"
only_ours && ok "run filled from outside: its file is gone" || bad "left: $(ls -A "$mnt")"

# 4. SIGTERM in each phase: exit 130 within 3 s, a partial result marked cancelled,
# nothing left in the folder. The signal comes once the run is in that phase (the
# event, not a delay): preparing, the test file open, its first bytes written and
# nothing read yet; measuring, the first bytes read; idle, the first test's line printed.
preparing() { opened_in "$1" "$2" && io_past "$1" write 0 && ! io_past "$1" read $((4 << 20)); }
measuring() { opened_in "$1" "$2" && io_past "$1" read $((4 << 20)); }
first_test_done() { grep -qE ' (read|write): ' "$work/err.txt"; }
sigterm_at() {
  local what=$1 phase=$2 dir t0 ms rc
  shift 2
  dir=$(mktemp -d "$work/sig-XXXXXX")
  rm -f "$work/partial.json"
  "$cli" run --target "$dir" --runs 1 "$@" --json "$work/partial.json" >"$work/out.txt" 2>"$work/err.txt" &
  bg=$!
  if ! wait_until $bg 120 "$phase" $bg "$dir"; then
    bad "SIGTERM $what: the run never reached that phase ($waited_why): $(tail -2 "$work/err.txt")"
    kill -KILL $bg 2>/dev/null; wait $bg 2>/dev/null
    bg=; rm -rf "$dir"; return
  fi
  t0=$(date +%s%N)
  kill -TERM $bg
  wait $bg
  rc=$?
  bg=
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  [ $rc -eq 130 ] && ok "SIGTERM $what: exit 130 in $ms ms" || bad "SIGTERM $what: exit $rc: $(tail -2 "$work/err.txt")"
  [ $ms -lt 3000 ] || bad "SIGTERM $what: took $ms ms"
  if saved_cancelled "$work/partial.json"; then
    ok "SIGTERM $what: partial result saved, marked cancelled"
  else
    bad "SIGTERM $what: no partial result"
  fi
  empty_dir "$dir" && ok "SIGTERM $what: nothing left" || bad "SIGTERM $what: left: $(ls -A "$dir")"
  rm -rf "$dir"
}
sigterm_at "while preparing the file" preparing --size 3g --preset quick --time 1s --quiet
sigterm_at "during a job" measuring --size 32m --rw randrw --time 60s --quiet
# Not quiet: the line of the first test, printed as it ends, is the sign that the
# idle before the second has begun. A preset without a settle before its first test
# (Quick rests 30 s and writes its settled half first: past 120 s beside CI's other
# stages), so that the idle is reached within seconds on a busy machine too.
sigterm_at "during an idle step" first_test_done --size 16m --preset compressibility --time 1s --idle 60s
# The TRIM of a file (a hole punched) takes milliseconds; the fill before it is where
# the TRIM preset spends its time.
sigterm_at "during the TRIM preset's fill" preparing --size 3g --preset trim-latency --time 2s --quiet

# 5. A device whose writes start failing mid-run: a loop device over a 256 MiB sparse
# file on a 24 MiB tmpfs. Once the tmpfs is full the loop driver fails the writes (EIO),
# as a thin-provisioned or dying device would.
mount -t tmpfs -o size=24m tmpfs "$tmpfs" || { bad "mount tmpfs"; finish; }
truncate -s 256M "$tmpfs/backing"
loop=$(losetup -f --show "$tmpfs/backing") || { bad "losetup"; finish; }
loops+=("$loop")
t0=$(date +%s)
timeout 120 "$cli" run --target "$loop" --destroy-data="$loop" --rw write --bs 1m --qd 4 \
  --time 30s --quiet --json "$work/eio.json" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
secs=$(( $(date +%s) - t0 ))
[ $rc -eq 1 ] && ok "failing device: exit 1 after $secs s: $(tail -1 "$work/err.txt")" \
  || bad "failing device: exit $rc after $secs s: $(tail -3 "$work/err.txt")"
grep -qiE "error|errno|offset" "$work/err.txt" && ok "failing device: the error is named" \
  || bad "failing device: stderr: $(cat "$work/err.txt")"
if [ -f "$work/eio.json" ]; then
  ok "failing device: partial result saved: $(json_get "$work/eio.json" '[(x.get("error_errno"), x.get("error_offset")) for s in r["steps"] for x in s.get("runs", [])]')"
else
  bad "failing device: no result saved"
fi

# zram cannot be reset under a running test (EBUSY), so it cannot vanish that way.
finish

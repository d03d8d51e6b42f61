#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Steps that stop when they know, on a drive whose speed drops at a known byte count:
# QEMU's emulated NVMe (2 GiB) whose write throttle qmp-throttle.py switches from
# FAST (120 MB/s) to SLOW (40 MB/s) once CACHE bytes were written since the drive last sat idle for
# 2 s, and back to FAST after such an idle (a cache that recovers whole). The
# guest runs
#
#   nandscope-cli run --preset cache-recovery   (a write-fill, then five recovery
#                                                steps after an idle each)
#   nandscope-cli run --preset write-fill-twice (a second pass with no idle: slow
#                                                from its first byte)
#
# and the host checks, against the byte counts at which QEMU switched: every
# recovery step stopped because its drop held, found the drop within 64 MiB of the
# truth, stopped no more than its margin past it (256 MiB, 8 samples and 3 s, plus
# 64 MiB) and below its cap; the recovery analysis still measures the cache; the
# second pass stopped soon after its start; the drive's SMART count matches the run's
# own; --dry-run's budget bounds what was written. Prints the bytes per step.
# QEMU 7.2's throttled NVMe namespace now and then stops completing writes on a
# loaded host (seen here at load 3 to 11 on 2 cores, with and without QMP): the
# guest then gets 8 MiB through per NVMe timeout and reset, every ~60 s, and the
# test fails by its timeout rather than pass; qmp-throttle.py's log, kept beside the
# console, shows where.
# Exit 77 (skip) when QEMU, the kernel or busybox-static are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
vm_timeout_default=400
. "$here/vm-lib.sh"
lba=4096
# Rates QEMU 7.2 under TCG keeps up with here: asked 300 MB/s, it wrote 150-200 MB/s
# for hundreds of MiB before its switch, a drive other than the model.
size=$((2 * 1024 * 1024 * 1024))
cache=$((768 * 1024 * 1024))
fast=120000000
slow=40000000
serial=NSCRECOV1

vm_prepare vm-cache-recovery
vm_init_script "$(cat <<INIT
dev=\$(ns_of $serial)
section dry-run nandscope-cli run --preset cache-recovery --target \$dev --dry-run
section run-recovery nandscope-cli run --preset cache-recovery --target \$dev --destroy-data=\$dev \
  --max-idle 3s --json /tmp/recovery.json --quiet
section result-recovery cat /tmp/recovery.json
section run-twice nandscope-cli run --preset write-fill-twice --target \$dev --destroy-data=\$dev \
  --max-idle 3s --json /tmp/twice.json --quiet
section result-twice cat /tmp/twice.json
INIT
)"

img=$(vm_disk drive.img "$size") || exit 1
# A stall is QEMU's, not the drive model's: its namespace stops completing writes,
# the guest gets a few MiB through per NVMe timeout and reset, and it does not finish
# (a healthy run takes about 130 s of the 400 s). The guest is then booted once more;
# a second stall fails the test.
# Likewise when the guest finished but the rig did not write at its fast rate before
# QEMU's switch (the check exits 75): the drive was not the model.
for attempt in 1 2; do
  python3 "$here/qmp-throttle.py" "$work/qmp.sock" --device d0 --fast "$fast" --slow "$slow" \
    --cache "$cache" --idle 2.0 --log "$work/throttle.log" &
  driver=$!
  if vm_boot "file=$img,id=d0,if=none,format=raw,cache=$vm_cache,aio=threads,discard=unmap,throttling.bps-write=$fast" \
       "nvme,serial=$serial,drive=d0,logical_block_size=$lba,physical_block_size=$lba" \
       -qmp "unix:$work/qmp.sock,server=on,wait=off"; then
    wait "$driver"
    python3 "$here/vm-cache-recovery-check.py" "$work/console.log" "$work/throttle.log" \
      --cache "$cache" --fast "$fast" --slow "$slow" --size "$size"
    rc=$?
    [ $rc -eq 75 ] || break
    why="the rig fell short of its fast rate"
  else
    kill "$driver" 2>/dev/null; wait "$driver"
    rc=1
    why="the guest did not finish: QEMU's throttled namespace stalled"
  fi
  cp "$work/throttle.log" "${G_TEST_BUILDDIR:-/tmp}/vm-cache-recovery-throttle.log"
  echo "# QEMU's switches are in ${G_TEST_BUILDDIR:-/tmp}/vm-cache-recovery-throttle.log"
  if [ "$attempt" -eq 1 ]; then
    echo "# $why; booting once more"
    rm -f "$img"
    img=$(vm_disk drive.img "$size") || exit 1
    continue
  fi
  echo "FAIL - $why, twice"
  rc=1
done

if [ $rc -ne 0 ]; then
  vm_keep_console
  cp "$work/throttle.log" "${G_TEST_BUILDDIR:-/tmp}/vm-cache-recovery-throttle.log"
fi
exit $rc

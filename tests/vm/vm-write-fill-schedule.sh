#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SLC cache detection against drives whose speed changes at byte counts: three
# emulated NVMe namespaces, each throttled flat from the start, whose write limit a
# host-side QMP driver (vm-write-fill-qmp.py) changes with block_set_io_throttle
# when query-blockstats counts the schedule's bytes written:
#
#   short     a cache of 240 MB at 160 MB/s (1.5 s: under the old 2 s rule), then 30 MB/s
#   sawtooth  a cache of 400 MB at 150 MB/s, then 35 MB/s with two bursts: 150 MB at
#             130 MB/s and 300 MB at 145 MB/s (2.1 s, near the cache's speed)
#   step      a cache of 300 MB at 180 MB/s, 90 MB/s until 650 MB, then 30 MB/s
#
# (QEMU's burst bucket is no use for short or changing stretches: see TESTING.md.)
# The truth is where QEMU switched: the driver logs each drive's wr_bytes just before
# and after every command. Each switch zeroes QEMU's buckets, which lets the new
# limit's tenth of a second through at the guest's speed (at most 14.5 MB here), and
# the requests QEMU had already admitted (a queue, 8 MiB) complete after it: a
# stretch's speed is checked against the range from its limit to the limit with that
# allowance, and a change may show up to ~20 MB after the logged switch. QEMU 7.2
# now and then leaves a throttled queue stuck after a switch; the driver restarts it
# and logs that (none happened in the runs that set these tolerances).
# The write-fill preset runs on each namespace in turn; vm-write-fill-schedule-check.py
# checks analysis.slc (cache, speeds, bursts, phases) against the switches, and, as
# its premise, that the raw series followed the schedule (a host that starves the
# TCG guest shows there, and the check says so).
# Exit 77 (skip) when QEMU, the kernel or busybox-static are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
vm_timeout_default=300
. "$here/vm-lib.sh"
lba=4096
# DRIVE=FIRST_BPS@BYTES:BPS@… (decimal units, as QEMU takes them). Other shapes of the
# same kinds: NSC_VM_SHORT, NSC_VM_SAWTOOTH, NSC_VM_STEP (BPS@BYTES:BPS…, without the
# drive; a sawtooth's bursts are its stretches faster than the speed after the cache,
# a step is two drops).
short="s0=${NSC_VM_SHORT:-160000000@240000000:30000000}"
sawtooth="s1=${NSC_VM_SAWTOOTH:-150000000@400000000:35000000@650000000:130000000@800000000:35000000@1050000000:145000000@1350000000:35000000}"
step="s2=${NSC_VM_STEP:-180000000@300000000:90000000@650000000:30000000}"
short_size=$((768 * 1024 * 1024))
saw_size=$((1536 * 1024 * 1024))
step_size=$((1024 * 1024 * 1024))

vm_prepare vm-write-fill-schedule
vm_init_script "$(cat <<INIT
i=0
while [ ! -b /dev/nvme2n1 ] && [ \$i -lt 200 ]; do sleep 0.1; i=\$((i + 1)); done
for kind in short sawtooth step; do
  case \$kind in short) serial=NSCSHORT1 ;; sawtooth) serial=NSCSAW001 ;; step) serial=NSCSTEP01 ;; esac
  ns=\$(ns_of \$serial)
  echo "# \$kind namespace \$ns"
  section run-\$kind nandscope-cli run --preset write-fill --target \$ns --destroy-data=\$ns \
    --max-idle 1s --json /tmp/\$kind.json --quiet
  section result-\$kind cat /tmp/\$kind.json
done
INIT
)"

drive_opts="if=none,format=raw,cache=$vm_cache,aio=threads,discard=unmap"
first() { local s=${1#*=}; echo "${s%%@*}"; }

# A stall is QEMU's, not the drive model's: now and then a throttled namespace stops
# completing writes and the guest gets a few MiB through per NVMe timeout and reset
# (a healthy run takes about 80 s of the 300 s). Likewise a busy host can make a switch
# show in the data later than QEMU logged it (the check exits 75). The guest is then
# booted once more on fresh disks; a second time fails the test.
for attempt in 1 2; do
  short_img=$(vm_disk short.img "$short_size") || exit 1
  saw_img=$(vm_disk sawtooth.img "$saw_size") || exit 1
  step_img=$(vm_disk step.img "$step_size") || exit 1
  python3 "$here/vm-write-fill-qmp.py" "$work/qmp.sock" "$work/qmp.log" "$short" "$sawtooth" "$step" &
  driver=$!
  vm_boot "file=$short_img,id=s0,$drive_opts,throttling.bps-write=$(first "$short")" \
    "nvme,serial=NSCSHORT1,drive=s0,logical_block_size=$lba,physical_block_size=$lba" \
    -drive "file=$saw_img,id=s1,$drive_opts,throttling.bps-write=$(first "$sawtooth")" \
    -device "nvme,serial=NSCSAW001,drive=s1,logical_block_size=$lba,physical_block_size=$lba" \
    -drive "file=$step_img,id=s2,$drive_opts,throttling.bps-write=$(first "$step")" \
    -device "nvme,serial=NSCSTEP01,drive=s2,logical_block_size=$lba,physical_block_size=$lba" \
    -qmp "unix:$work/qmp.sock,server=on,wait=off"
  boot_rc=$?
  wait "$driver"
  echo "# QMP driver exited $?; its log:"
  sed 's/^/#   /' "$work/qmp.log"
  if [ $boot_rc -eq 0 ]; then
    python3 "$here/vm-write-fill-schedule-check.py" "$work/console.log" "$work/qmp.log" \
      --case "short:NSCSHORT1:$short_size:$short" \
      --case "sawtooth:NSCSAW001:$saw_size:$sawtooth" \
      --case "step:NSCSTEP01:$step_size:$step"
    rc=$?
    [ $rc -eq 75 ] || break
    why="the rig did not follow its schedule (a switch showed late in the data)"
  else
    rc=1
    why="the guest did not finish: QEMU's throttled namespace stalled"
  fi
  rm -f "$short_img" "$saw_img" "$step_img" "$work/qmp.sock"
  if [ "$attempt" -eq 2 ]; then
    echo "FAIL - $why, twice"
    rc=1
    break
  fi
  echo "# $why; booting once more"
done
[ $rc -eq 0 ] || vm_keep_console
exit $rc

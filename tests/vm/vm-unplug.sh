#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The vm suite's test of a drive that vanishes mid-run (issue 6): three emulated NVMe
# controllers, each behind a PCIe root port of a q35 machine, which the host unplugs
# through QEMU's monitor (device_del) while nandscope-cli writes to one, reads from
# another and reads back the third in its capacity check (--preset verify), in the
# guest: a check whose drive goes away is not verified, and does not count the rest
# of the drive unreadable. QEMU 7.2 signals the unplug through ACPI (its q35
# default; pciehp, also built into Debian's kernel, would add a 5 s attention-button
# wait); the guest removes the controller and the nvme driver fails what is queued.
# Each run must end by itself with a clear error that says the drive went away, and
# exit 1 (no hang: busybox timeout would kill it after 90 s, exit 143; no crash),
# with its partial result saved. The host sends device_del when the guest says both
# runs are measuring and the check reads back.
# Exit 77 (skip) when QEMU, the kernel or busybox-static are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
vm_timeout_default=180
. "$here/vm-lib.sh"
wserial=NSCUNPLUGW
rserial=NSCUNPLUGR
vserial=NSCUNPLUGV
disk_size=$((1024 * 1024 * 1024))
# The check's drive: written whole at full speed, read back at the rate below.
vdisk_size=$((256 * 1024 * 1024))
lba=4096
# Slow enough that the write is still going when the controller goes away.
rate=50000000

vm_prepare vm-unplug
vm_init_script "$(cat <<INIT
i=0
while [ ! -b /dev/nvme2n1 ] && [ \$i -lt 200 ]; do sleep 0.1; i=\$((i + 1)); done
w=\$(ns_of $wserial)
r=\$(ns_of $rserial)
v=\$(ns_of $vserial)
echo "# write namespace \$w, read namespace \$r, check namespace \$v"
up() { cut -d' ' -f1 /proc/uptime; }
# The capacity check in the background too: its read-back is slow (throttled reads).
(
  timeout 90 nandscope-cli run --target \$v --destroy-data=\$v --preset verify \
    --json /tmp/unplug-verify.json --quiet > /tmp/verify.out 2> /tmp/verify.err
  echo \$? > /tmp/verify.rc
  echo "@@NSC-UNPLUG-ENDED verify \$(up)@@"
) &
checker=\$!
# The read run in the background (its prefill writes its 64 MiB span first).
(
  timeout 90 nandscope-cli run --target \$r --destroy-data=\$r --rw read --bs 1m --qd 8 --span 64m \
    --time 60s --json /tmp/unplug-read.json --quiet > /tmp/read.out 2> /tmp/read.err
  echo \$? > /tmp/read.rc
  echo "@@NSC-UNPLUG-ENDED read \$(up)@@"
) &
reader=\$!
# The unplug comes once both runs measure (the event, not a delay): the read run has
# read 16 MiB (past its prefill, and more than any probe of the device reads), the
# write run has written 16 MiB, and the check has read back 16 MiB (counted from the
# end of its writes). Each is told by its command line.
measuring() {
  rd=; wr=; ck=
  for p in \$(pidof nandscope-cli); do
    rb=\$(awk '\$1 == "read_bytes:" {print \$2}' /proc/\$p/io 2>/dev/null)
    wb=\$(awk '\$1 == "write_bytes:" {print \$2}' /proc/\$p/io 2>/dev/null)
    case "\$(tr '\\0' ' ' < /proc/\$p/cmdline 2>/dev/null)" in
      *"--preset verify "*)
        # Before it writes, the check reads to choose its I/O path: the read-back
        # begins once the whole drive is written, and counts from there.
        if [ ! -e /tmp/ck0 ] && [ "\${wb:-0}" -ge $vdisk_size ]; then echo "\${rb:-0}" > /tmp/ck0; fi
        [ -e /tmp/ck0 ] && [ "\${rb:-0}" -gt \$((\$(cat /tmp/ck0) + 16777216)) ] && ck=\$p ;;
      *"--rw read "*) [ "\${rb:-0}" -gt 16777216 ] && rd=\$p ;;
      *"--rw write "*) [ "\${wb:-0}" -gt 16777216 ] && wr=\$p ;;
    esac
  done
  [ -n "\$rd" ] && [ -n "\$wr" ] && [ -n "\$ck" ]
}
(
  i=0
  until measuring || [ \$i -ge 300 ]; do sleep 0.1; i=\$((i + 1)); done
  measuring || echo "@@NSC-ERROR the runs were not all measuring after 300 looks@@"
  echo "@@NSC-UNPLUG-NOW \$(up)@@"
) &
section run-write timeout 90 nandscope-cli run --target \$w --destroy-data=\$w --rw write \
  --bs 1m --qd 8 --time 60s --json /tmp/unplug-write.json --quiet
echo "@@NSC-UNPLUG-ENDED write \$(up)@@"
wait \$reader
wait \$checker
section run-read sh -c 'cat /tmp/read.out; cat /tmp/read.err >&2; exit \$(cat /tmp/read.rc)'
section run-verify sh -c 'cat /tmp/verify.out; cat /tmp/verify.err >&2; exit \$(cat /tmp/verify.rc)'
section result-verify cat /tmp/unplug-verify.json
section result-write cat /tmp/unplug-write.json
section result-read cat /tmp/unplug-read.json
# The runs can end (their I/O failed) before the kernel has finished removing the
# controllers: give the removal up to 10 s before listing what is left.
i=0
while ls /sys/class/nvme/nvme* > /dev/null 2>&1 && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
echo "# controllers gone after \$i tenths of a second"
section after ls /sys/class/nvme /sys/block
INIT
)"

wdisk=$(vm_disk write.img "$disk_size") || exit 1
rdisk=$(vm_disk read.img "$disk_size") || exit 1
vdisk=$(vm_disk verify.img "$vdisk_size") || exit 1
# The host's side: device_del through the monitor once the guest asks for it.
(
  for _ in $(seq 900); do
    grep -q '@@NSC-UNPLUG-NOW' "$work/console.log" 2>/dev/null && break
    sleep 0.2
  done
  python3 - "$work/mon.sock" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.settimeout(2)
time.sleep(0.2)
s.sendall(b'device_del nvmew\ndevice_del nvmer\ndevice_del nvmev\n')
time.sleep(1)
try:
    print(s.recv(65536).decode(errors='replace'))
except OSError:
    pass
PY
) > "$work/monitor.log" 2>&1 &
watcher=$!
drive_opts="if=none,format=raw,cache=$vm_cache,aio=threads"
nvme_opts="logical_block_size=$lba,physical_block_size=$lba"
vm_boot "file=$wdisk,id=dw,$drive_opts,throttling.bps-write=$rate" \
  pcie-root-port,id=rp0,chassis=1 \
  -device "nvme,bus=rp0,id=nvmew,serial=$wserial,drive=dw,$nvme_opts" \
  -device pcie-root-port,id=rp1,chassis=2 \
  -drive "file=$rdisk,id=dr,$drive_opts" \
  -device "nvme,bus=rp1,id=nvmer,serial=$rserial,drive=dr,$nvme_opts" \
  -device pcie-root-port,id=rp2,chassis=3 \
  -drive "file=$vdisk,id=dv,$drive_opts,throttling.bps-read=$rate" \
  -device "nvme,bus=rp2,id=nvmev,serial=$vserial,drive=dv,$nvme_opts" \
  -machine q35 -monitor "unix:$work/mon.sock,server=on,wait=off" \
  || { kill $watcher 2>/dev/null; exit 1; }
kill $watcher 2>/dev/null
wait $watcher 2>/dev/null

python3 "$here/vm-unplug-check.py" "$work/console.log" --write-serial "$wserial" --read-serial "$rserial" \
  --verify-serial "$vserial"
rc=$?
[ $rc -eq 0 ] || vm_keep_console
exit $rc

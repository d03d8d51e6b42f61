#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The safety matrix on QEMU's emulated NVMe: one controller in an NVMe subsystem
# (nvme-subsys) with two namespaces (nvme-ns, nsid 1 and 2), random data on both,
# namespace 1 partitioned. Inside the guest every case is a run with consent that
# must be refused, with O_DIRECT checksums of both namespaces before and after:
#
#   Format and Sanitize of a partition; Sanitize of a namespace of a controller
#   with two; a Format or a write of a namespace whose partition is mounted or is
#   swap, or of a partition whose sibling is mounted; a namespace under a
#   device-mapper device (a holder), backing a loop device, or held open by another
#   process.
#
# A Format of one namespace of two (namespace 2 while a partition of namespace 1 is
# mounted; namespace 1, all else unused) is refused when the controller says a
# Format applies to all namespaces (FNA bit 0); else it goes ahead and the other
# namespace is unchanged (QEMU 7.2 reports FNA 0). A write with consent on an unused
# namespace changes it (the checksums can see a change).
# Exit 77 (skip) when QEMU, the kernel or busybox-static are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm-lib.sh"
serial=NSCSAFE1
mib1=64
mib2=32

vm_prepare vm-safety
# ext4 (a mounted partition), device-mapper (a holder), loop (a backing device).
vm_add_modules crc16 mbcache jbd2 crc32c_generic ext4 dm-mod loop
# coreutils' CRC-32 of each namespace before and after every case: busybox's sha256sum
# took 2.4 s a namespace under TCG, this 0.6 s (random data: any write changes it).
copy_with_libs "$(command -v cksum)" crc32sum
have_dmsetup=0
if command -v dmsetup >/dev/null; then
  copy_with_libs "$(command -v dmsetup)"
  have_dmsetup=1
fi

vm_init_script "$(cat <<INIT
for m in crc16 mbcache jbd2 crc32c_generic ext4 dm-mod loop; do
  insmod /lib/modules/\$m.ko 2>/dev/null || echo "# insmod \$m failed"
done
n1=/dev/nvme0n1
n2=/dev/nvme0n2
i=0
while { [ ! -b \$n2 ] || [ ! -b \${n1}p2 ]; } && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
[ -b \$n2 ] || echo "@@NSC-ERROR \$n2 did not appear@@"
[ -b \${n1}p2 ] || echo "@@NSC-ERROR the partitions of \$n1 did not appear@@"
section namespaces sh -c "for d in \$n1 \$n2; do echo \\\$d \\\$(cat /sys/block/\\\${d#/dev/}/nsid 2>/dev/null) \\\$(cat /sys/block/\\\${d#/dev/}/size); done"
section id-ctrl nvme id-ctrl /dev/nvme0 -o json
# From here the kernel's warnings reach the console: an NVMe command that times out
# (QEMU's stall, below) says so there. Every case prints one line.
echo 5 > /proc/sys/kernel/printk

sums() {
  for d in \$n1 \$n2; do
    dd if=\$d bs=1M iflag=direct 2>/dev/null | crc32sum | cut -d' ' -f1
  done | tr '\n' ' '
}
# try NAME ARGS…: a run, with both namespaces' checksums before and after.
try() {
  name=\$1; shift
  before=\$(sums)
  nandscope-cli run "\$@" --runs 1 --time 300ms --quiet > /tmp/out 2> /tmp/err
  rc=\$?
  after=\$(sums)
  echo "@@NSC-CASE \$name rc=\$rc before=[\$before] after=[\$after]@@"
  sed "s/^/@@NSC-CASE-ERR \$name@@ /" /tmp/err | head -3
}
erase() { try "\$1" --preset erase --erase "\$2" --target "\$3" --destroy-data="\$3"; }
write() { try "\$1" --rw write --span 8m --target "\$2" --destroy-data="\$2"; }

# Erase scope.
erase format-partition format \${n1}p1
erase sanitize-partition sanitize \${n1}p1
erase sanitize-two-namespaces sanitize \$n1
erase sanitize-second-namespace sanitize \$n2

# A partition in use.
mke2fs -q \${n1}p1 > /dev/null 2>&1
mkdir -p /mnt
if mount -t ext4 \${n1}p1 /mnt; then
  # Frozen: still mounted, but the kernel writes nothing of its own there meanwhile
  # (writeback of what the mount dirtied came 30 s later, inside a case).
  sync
  fsfreeze --freeze /mnt || echo "@@NSC-ERROR fsfreeze /mnt failed@@"
  erase format-mounted-partition-disk format \$n1
  erase trim-mounted-partition-disk trim \$n1
  write write-mounted-partition-disk \$n1
  write write-mounted-partition \${n1}p1
  write write-sibling-of-mounted \${n1}p2
  erase format-sibling-of-mounted format \${n1}p2
  erase format-other-namespace-while-mounted format \$n2
  fsfreeze --unfreeze /mnt
  umount /mnt
else
  echo "@@NSC-ERROR mounting ext2 on \${n1}p1 failed@@"
fi
if mkswap \${n1}p2 > /dev/null && swapon \${n1}p2; then
  erase format-swap-partition-disk format \$n1
  write write-swap-partition \${n1}p2
  swapoff \${n1}p2
else
  echo "@@NSC-ERROR swapon \${n1}p2 failed@@"
fi

# Namespace 2 in use: a holder, a loop device's backing, another process's descriptor.
if [ $have_dmsetup = 1 ] && dmsetup create nsc-lin --noudevsync \
     --table "0 \$(cat /sys/block/nvme0n2/size) linear \$n2 0" 2>/dev/null; then
  section holders ls /sys/block/nvme0n2/holders
  erase format-holder format \$n2
  write write-holder \$n2
  dmsetup remove --noudevsync nsc-lin
else
  echo "# device-mapper: no holder case (dmsetup or dm-mod missing)"
fi
if loop=\$(losetup -f) && losetup \$loop \$n2; then
  erase format-loop-backing format \$n2
  write write-loop-backing \$n2
  losetup -d \$loop
else
  echo "@@NSC-ERROR losetup over \$n2 failed@@"
fi
( exec 3<>\$n2; exec sleep 600 ) &
holder=\$!
# The cases need the holder holding: wait for its descriptor, not a fixed delay.
i=0
while [ "\$(readlink /proc/\$holder/fd/3)" != \$n2 ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done
[ "\$(readlink /proc/\$holder/fd/3)" = \$n2 ] || echo "@@NSC-ERROR the holder never opened \$n2@@"
erase format-held-open format \$n2
write write-held-open \$n2
kill \$holder
wait \$holder 2>/dev/null

# Format of an unused namespace of two: the controller's FNA decides.
try format-namespace-of-two --preset erase --erase format --target \$n1 --destroy-data=\$n1 --json /tmp/format.json
section format-zeros sh -c "dd if=\$n1 bs=1M count=1 iflag=direct 2>/dev/null | tr -d '\\\\000' | wc -c"
# Positive control: a write that is allowed changes what the checksums see.
try control-write --rw write --span 8m --target \$n2 --destroy-data=\$n2
INIT
)"

# Random data on both namespaces; namespace 1 gets a partition table (p1 16 MiB, p2
# the rest), written from here.
make_disks() {
  d1=$(vm_disk ns1.img ${mib1}M) || exit 1
  d2=$(vm_disk ns2.img ${mib2}M) || exit 1
  head -c ${mib1}M /dev/urandom | dd of="$d1" conv=notrunc status=none
  head -c ${mib2}M /dev/urandom | dd of="$d2" conv=notrunc status=none
  printf 'label: dos\n,16M\n,\n' | sfdisk -q "$d1" >/dev/null 2>&1 || skip "sfdisk could not partition the image"
}

# QEMU 7.2's emulated namespace under TCG now and then stops completing I/O for good
# (vm-desktop.sh, vm-cache-recovery.sh); the guest then does not finish. Booted once
# more on fresh disks, with what its kernel said the first time; a second stall fails.
opts="if=none,format=raw,cache=$vm_cache,aio=threads,discard=unmap"
for attempt in 1 2; do
  make_disks
  if vm_boot "file=$d1,id=d1,$opts" "nvme-subsys,id=subsys0,nqn=nqn.2026-11.io.github.nandscope:safety" \
       -device "nvme,serial=$serial,subsys=subsys0" \
       -drive "file=$d2,id=d2,$opts" \
       -device "nvme-ns,drive=d1,nsid=1" \
       -device "nvme-ns,drive=d2,nsid=2"; then
    break
  fi
  [ "$attempt" -eq 2 ] && exit 1
  echo "# the guest did not finish; its kernel said: $(grep -E '^\[ *[0-9]+\.[0-9]+\]' "$work/console.log" \
    | tail -8 | tr '\n' '|')"
  echo "# booting once more on fresh disks"
done

python3 "$here/vm-safety-check.py" "$work/console.log"
rc=$?
[ $rc -eq 0 ] || vm_keep_console
exit $rc

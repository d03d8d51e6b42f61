#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The desktop path on a desktop stack: Debian 12 (vm-desktop-image.sh, cached) booted
# under TCG with udevd, the system bus, polkitd and udisksd started by hand
# (vm-desktop-guest.sh), two QEMU NVMe drives (one blank, one whose ext4 partition is
# mounted), as an ordinary user, plain and inside bwrap as Flatpak builds the sandbox
# for the manifest's finish-args. The app's window (NANDSCOPE, under Xvfb, driven by
# --script): its drive picker against UDisks2's drives, Quick on the raw drive after
# its confirmation with polkit denying (then Quick on a folder) and allowing, the
# mounted drive refused, a cancel while polkit answers. desktop-probe: UDisks2's drive
# list and its own answers (denied, busy past the app's check), the descriptors left
# after a cancel. vm-desktop-check.py judges the console.
#   vm-desktop.sh DESKTOP-PROBE [NANDSCOPE]
# Exit 77 (skip) when QEMU, the kernel, busybox-static or mmdebstrap are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
probe=${1:?usage: vm-desktop.sh DESKTOP-PROBE [NANDSCOPE]}
gui=${2:-}
vm_timeout_default=900
. "$here/vm-lib.sh"
start_s=$(date +%s)

image=$("$here/vm-desktop-image.sh")
rc=$?
[ $rc -eq 0 ] || exit $rc
echo "# guest image $image (ready after $(( $(date +%s) - start_s )) s)"

vm_prepare vm-desktop
# The root filesystem on virtio, ext4: the modules in the order modprobe gives.
vm_add_modules virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci \
  virtio_blk crc32c_generic jbd2 mbcache crc16 ext4
copy_with_libs "$probe" desktop-probe
[ -n "$gui" ] && copy_with_libs "$gui" nandscope
# The libraries the binaries need, copied into the guest's root where it lacks them
# (a sanitizer's runtime, a library of the build tree).
for b in "$cli" "$probe" $gui; do
  ldd "$b" | awk '$2 == "=>" && $3 ~ /^\// {print $3}'
done | sort -u > "$root/nsc-libs"
mkdir -p "$root/nsc"
cp "$here/vm-desktop-guest.sh" "$root/nsc/guest.sh"

cat > "$root/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
echo 1 > /proc/sys/kernel/printk
for m in $vm_modules virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci \
         virtio_blk crc32c_generic jbd2 mbcache crc16 ext4; do
  insmod /lib/modules/\$m.ko || echo "@@NSC-ERROR insmod \$m failed@@"
done
i=0
while [ ! -b /dev/vda ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done
mkdir -p /newroot
mount -t ext4 /dev/vda /newroot || { echo "@@NSC-ERROR the guest's root did not mount@@"; poweroff -f; }
mkdir -p /newroot/opt/nsc/bin
cp /bin/nandscope-cli /bin/desktop-probe /newroot/opt/nsc/bin/
[ -e /bin/nandscope ] && cp /bin/nandscope /newroot/opt/nsc/bin/
cp /nsc/guest.sh /newroot/opt/nsc/guest.sh
while read -r lib; do
  [ -e "/newroot\$lib" ] || { mkdir -p "/newroot\$(dirname "\$lib")"; cp "\$lib" "/newroot\$lib"; }
done < /nsc-libs
mount --move /dev /newroot/dev
mount --move /proc /newroot/proc
mount --move /sys /newroot/sys
exec switch_root /newroot /opt/nsc/guest.sh
INIT
chmod +x "$root/init"

size=$((256 * 1024 * 1024))
# The second drive: a GPT with one partition, ext4 on it (made here, offset into the
# image: no loop device).
make_disks() {
  blank=$(vm_disk blank.img "$size") || return 1
  used=$(vm_disk used.img "$size") || return 1
  printf 'label: gpt\nstart=2048, size=409600, type=linux\n' | sfdisk -q "$used" || return 1
  mke2fs -q -t ext4 -F -E offset=$((2048 * 512)) "$used" 200M
}
make_disks || exit 1
vm_aio=${NSC_VM_AIO:-threads}

# QEMU 7.2's emulated namespace under TCG now and then stops completing I/O (seen
# in vm-nvme and vm-cache-recovery on a loaded host; here at the start of Quick, its
# 32 I/Os in flight and never fetched, on about half the boots of a one-CPU guest:
# tests/README.md). Two CPUs (two I/O queues); the guest says so and stops when it
# happens, and is booted again on fresh disks, three boots at most.
attempts=${NSC_VM_ATTEMPTS:-3}
for attempt in $(seq "$attempts"); do
  vm_boot "file=$blank,if=none,id=d0,format=raw,cache=$vm_cache,aio=$vm_aio" \
    "nvme,serial=NSCBLANK1,drive=d0" \
    -drive "file=$used,if=none,id=d1,format=raw,cache=$vm_cache,aio=$vm_aio" \
    -device "nvme,serial=NSCMOUNT2,drive=d1" \
    -drive "file=$image,if=none,id=root,format=raw,snapshot=on" \
    -device "virtio-blk-pci,drive=root" -smp "${NSC_VM_SMP:-2}"
  booted=$?
  # A stall the engine saw, or one that held the guest past its time (a process in
  # uninterruptible I/O waits): boot again on fresh disks.
  if [ "$attempt" -lt "$attempts" ] && { [ $booted -ne 0 ] || grep -q '@@NSC-STALL' "$work/console.log"; }; then
    echo "# QEMU's namespace stopped completing I/O; booting once more on fresh disks"
    vm_keep_console
    rm -f "$blank" "$used"
    make_disks || exit 1
    continue
  fi
  [ $booted -eq 0 ] || exit 1
  break
done
if grep -q '@@NSC-STALL' "$work/console.log"; then
  # QEMU's bug, not the path under test: what was judged before it is shown, and the
  # test is skipped, not passed.
  python3 "$here/vm-desktop-check.py" "$work/console.log" --size "$size" --gui "$([ -n "$gui" ] && echo 1 || echo 0)" \
    | sed 's/^/# before the stall: /'
  vm_keep_console
  echo "SKIP: QEMU's emulated namespace stopped completing I/O on all $attempts boots" \
    "($(grep -o '@@NSC-STALL [^@]*' "$work/console.log" | cut -c13-)); the desktop path was not judged"
  exit 77
fi

# Nothing of this test may stay behind: no QEMU, no mount or loop device over its files.
left=$( { pgrep -af "$work" ; grep -F -e "$work" -e "$imgdir" /proc/mounts; losetup -a | grep -F -e "$work" -e "$imgdir"; } | grep -v "^$$ ")
if [ -n "$left" ]; then
  echo "FAIL: left behind: $left"
  exit 1
fi

python3 "$here/vm-desktop-check.py" "$work/console.log" --size "$size" --gui "$([ -n "$gui" ] && echo 1 || echo 0)"
rc=$?
[ $rc -eq 0 ] || vm_keep_console
echo "# vm-desktop took $(( $(date +%s) - start_s )) s"
exit $rc

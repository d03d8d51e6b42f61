#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The vm suite: boots Debian's kernel under QEMU (TCG) with an emulated NVMe
# controller and an initramfs of busybox, nandscope-cli and nvme-cli, then checks
# what nandscope-cli reports inside the guest against what QEMU was told and what
# nvme-cli reads from the same controller: model, serial, firmware (= QEMU's
# version), capacity, LBA size, temperature (QEMU reports 323 K); and that a write
# test and a read test on the namespace complete.
# Exit 77 (skip) when QEMU, the kernel or busybox-static are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cli=${NANDSCOPE_CLI:?NANDSCOPE_CLI must name the nandscope-cli binary}
serial=NSCTEST123
disk_size=$((2 * 1024 * 1024 * 1024))
lba=4096
timeout_s=${NSC_VM_TIMEOUT:-300}

skip() { echo "SKIP: $*"; exit 77; }
qemu=$(command -v qemu-system-x86_64) || skip "qemu-system-x86_64 is missing (apt install qemu-system-x86)"
kernel=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -1)
[ -n "$kernel" ] || skip "no /boot/vmlinuz-* (apt install linux-image-amd64)"
kver=${kernel#/boot/vmlinuz-}
moddir=/lib/modules/$kver
[ -d "$moddir" ] || skip "no $moddir for $kernel"
busybox=$(command -v busybox) || skip "busybox is missing (apt install busybox-static)"
ldd "$busybox" 2>&1 | grep -q "not a dynamic" || skip "$busybox is not static (apt install busybox-static)"
command -v cpio >/dev/null || skip "cpio is missing"

work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/vm-nvme-XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp,lib/modules}

# copy_with_libs BINARY [NAME]: the binary into /bin and every shared library it needs
# (ldd's answer) at the same path, the dynamic loader included.
copy_with_libs() {
  cp "$1" "$root/bin/${2:-$(basename "$1")}"
  ldd "$1" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' | while read -r lib; do
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
}
cp "$busybox" "$root/bin/busybox"
copy_with_libs "$cli"
# setpriv runs the CLI as an ordinary user: what does it still learn without root?
have_setpriv=0
if command -v setpriv >/dev/null; then
  # Renamed: busybox --install would put its own, smaller setpriv in its place.
  copy_with_libs "$(command -v setpriv)" ul-setpriv
  have_setpriv=1
fi
have_nvme_cli=0
if command -v nvme >/dev/null; then
  copy_with_libs "$(command -v nvme)"
  have_nvme_cli=1
fi

# The nvme driver is a module; TESTING.md gives the order that satisfies its dependencies.
modules="crct10dif_common crc64 crc-t10dif crc64-rocksoft t10-pi nvme-core nvme"
for m in $modules; do
  ko=$(find "$moddir/kernel/crypto" "$moddir/kernel/lib" "$moddir/kernel/block" \
            "$moddir/kernel/drivers/nvme/host" -name "$m.ko*" 2>/dev/null | head -1)
  [ -n "$ko" ] || skip "module $m is missing under $moddir"
  case $ko in
    *.xz) xz -dc "$ko" > "$root/lib/modules/$m.ko" ;;
    *.zst) zstd -dcq "$ko" > "$root/lib/modules/$m.ko" ;;
    *) cp "$ko" "$root/lib/modules/$m.ko" ;;
  esac
done

cat > "$root/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
# Kernel messages on the console would land inside the JSON printed below.
echo 1 > /proc/sys/kernel/printk
for m in $modules; do insmod /lib/modules/\$m.ko || echo "@@NSC-ERROR insmod \$m failed@@"; done
i=0
while [ ! -b /dev/nvme0n1 ] && [ \$i -lt 200 ]; do sleep 0.1; i=\$((i + 1)); done
[ -b /dev/nvme0n1 ] || echo "@@NSC-ERROR /dev/nvme0n1 did not appear@@"

section() {
  name=\$1; shift
  "\$@" > /tmp/out 2> /tmp/err
  rc=\$?
  echo "@@NSC-BEGIN \$name@@"
  cat /tmp/out
  echo "@@NSC-END \$name@@"
  echo "@@NSC-RC \$name \$rc@@"
  sed "s/^/@@NSC-STDERR \$name@@ /" /tmp/err
}
section devices-json nandscope-cli devices --json
section devices nandscope-cli devices
if [ $have_setpriv = 1 ]; then
  section devices-user ul-setpriv --reuid 65534 --regid 65534 --clear-groups nandscope-cli devices --json
fi
if [ $have_nvme_cli = 1 ]; then
  section id-ctrl nvme id-ctrl /dev/nvme0 -o json
  section id-ns nvme id-ns /dev/nvme0n1 -o json
  section smart-log nvme smart-log /dev/nvme0 -o json
fi
section run-write nandscope-cli run --target /dev/nvme0n1 --rw write --bs 1m --qd 4 --time 2s \
  --destroy-data=/dev/nvme0n1 --json /tmp/w.json --quiet
section result-write cat /tmp/w.json
# With consent the engine writes the region before timing reads of it: 64 MiB keeps
# the fill short under TCG.
section run-randread nandscope-cli run --target /dev/nvme0n1 --rw randread --bs 4k --qd 8 --time 2s \
  --span 64m --destroy-data=/dev/nvme0n1 --json /tmp/r.json --quiet
section result-randread cat /tmp/r.json
# Health counters after the writes: the SMART log must have counted them.
section devices-after nandscope-cli devices --json
echo "@@NSC-DONE@@"
poweroff -f
INIT
chmod +x "$root/init"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz" || { echo "FAIL: cpio"; exit 1; }
truncate -s "$disk_size" "$work/disk.img"

echo "# booting $kernel with $(du -h "$work/initrd.gz" | cut -f1) initramfs"
start=$(date +%s)
timeout "$timeout_s" "$qemu" -accel tcg -m 1G -nographic -no-reboot \
  -kernel "$kernel" -initrd "$work/initrd.gz" \
  -append 'console=ttyS0 panic=-1 quiet' \
  -drive file="$work/disk.img",if=none,id=d0,format=raw,cache=none,aio=threads,discard=unmap \
  -device nvme,serial=$serial,drive=d0,logical_block_size=$lba,physical_block_size=$lba \
  < /dev/null > "$work/console.log" 2>&1
rc=$?
echo "# QEMU exited $rc after $(( $(date +%s) - start )) s"
if [ $rc -eq 124 ]; then
  echo "FAIL: the guest did not finish within $timeout_s s; its console:"
  tail -40 "$work/console.log"
  cp "$work/console.log" "${G_TEST_BUILDDIR:-/tmp}/vm-nvme-console.log"
  exit 1
fi

qemu_version=$("$qemu" --version | sed -n 's/^QEMU emulator version \([^ ]*\).*/\1/p')
python3 "$here/vm-check.py" "$work/console.log" \
  --serial "$serial" --size "$disk_size" --lba "$lba" --qemu-version "$qemu_version" \
  --nvme-cli "$have_nvme_cli" --setpriv "$have_setpriv"
rc=$?
if [ $rc -ne 0 ]; then
  # The work folder goes away; keep the guest's console for whoever reads the failure.
  cp "$work/console.log" "${G_TEST_BUILDDIR:-/tmp}/vm-nvme-console.log"
  echo "# the guest's console is in ${G_TEST_BUILDDIR:-/tmp}/vm-nvme-console.log"
fi
exit $rc

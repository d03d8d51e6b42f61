# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the vm suite's scripts (sourced, not run): finds QEMU, Debian's kernel
# and busybox-static (exit 77 when one is missing), builds an initramfs holding
# busybox, nandscope-cli (and nvme-cli, setpriv when present) and the nvme modules,
# and boots it under TCG with one emulated NVMe controller.
#
#   vm_prepare NAME          checks the tools (skips with 77), makes $work, $root
#   vm_init_script BODY      writes /init: prologue (mounts, modules, /dev/nvme0n1,
#                            section(), ns_of SERIAL), BODY, then "@@NSC-DONE@@" and poweroff
#   vm_disk NAME SIZE        a sparse disk image: in /dev/shm when it has room (the
#                            host's disk is shared and stalls the guest's writes
#                            under other jobs' I/O), else in $work; prints its path
#                            ($vm_cache is QEMU's cache= for the images)
#   vm_boot DRIVE_OPTS DEVICE_OPTS [QEMU ARGS…]
#                            packs the initramfs and runs QEMU; the console goes to
#                            $work/console.log; returns 1 (with the console's tail)
#                            when the guest did not finish within $timeout_s
#   vm_keep_console          copies the console next to the build for a failed check
#
# Inside the guest, `section NAME CMD…` prints CMD's stdout between
# "@@NSC-BEGIN NAME@@" and "@@NSC-END NAME@@", then "@@NSC-RC NAME N@@" and its stderr
# lines as "@@NSC-STDERR NAME@@ …"; vm-common.py reads them back.

cli=${NANDSCOPE_CLI:?NANDSCOPE_CLI must name the nandscope-cli binary}
timeout_s=${NSC_VM_TIMEOUT:-${vm_timeout_default:-300}}
vm_modules="crct10dif_common crc64 crc-t10dif crc64-rocksoft t10-pi nvme-core nvme"

skip() { echo "SKIP: $*"; exit 77; }

# copy_with_libs BINARY [NAME]: the binary into /bin and every shared library it needs
# (ldd's answer) at the same path, the dynamic loader included.
copy_with_libs() {
  cp "$1" "$root/bin/${2:-$(basename "$1")}"
  ldd "$1" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' | while read -r lib; do
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
}

# The guest's timing is what the tests check: QEMU, and the drive models that serve its
# requests, ahead of other work on the machine when allowed (root), as a TCG guest
# stalls when starved of CPU, and so does a model that answers it.
vm_nice=
nice -n -10 true 2>/dev/null && vm_nice="nice -n -10"

vm_prepare() {
  vm_name=$1
  qemu=$(command -v qemu-system-x86_64) || skip "qemu-system-x86_64 is missing (apt install qemu-system-x86)"
  kernel=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -1)
  [ -n "$kernel" ] || skip "no /boot/vmlinuz-* (apt install linux-image-amd64)"
  kver=${kernel#/boot/vmlinuz-}
  moddir=/lib/modules/$kver
  [ -d "$moddir" ] || skip "no $moddir for $kernel"
  busybox=$(command -v busybox) || skip "busybox is missing (apt install busybox-static)"
  ldd "$busybox" 2>&1 | grep -q "not a dynamic" || skip "$busybox is not static (apt install busybox-static)"
  command -v cpio >/dev/null || skip "cpio is missing"
  qemu_version=$("$qemu" --version | sed -n 's/^QEMU emulator version \([^ ]*\).*/\1/p')

  work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/$vm_name-XXXXXX")
  imgdir=$work
  # Disk images in RAM when there is room for them (sparse, but written in full by
  # the fills) and 4 GiB to spare: the guest's timing then does not depend on other
  # jobs' I/O on the host's disk. NSC_VM_IMAGES=disk keeps them on disk.
  local shm_free
  shm_free=$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)
  if [ "${NSC_VM_IMAGES:-ram}" = ram ] && [ "${shm_free:-0}" -gt $((8 * 1024 * 1024)) ]; then
    imgdir=$(mktemp -d "/dev/shm/$vm_name-XXXXXX")
  fi
  # tmpfs may refuse O_DIRECT (cache=none); its page cache is the RAM it lives in.
  vm_cache=none
  [ "$imgdir" = "$work" ] || vm_cache=writeback
  trap 'rm -rf "$work" "$imgdir"' EXIT
  root=$work/root
  mkdir -p "$root"/{bin,dev,proc,sys,tmp,lib/modules}

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
  local m ko
  for m in $vm_modules; do
    ko=$(find "$moddir/kernel/crypto" "$moddir/kernel/lib" "$moddir/kernel/block" \
              "$moddir/kernel/drivers/nvme/host" -name "$m.ko*" 2>/dev/null | head -1)
    [ -n "$ko" ] || skip "module $m is missing under $moddir"
    case $ko in
      *.xz) xz -dc "$ko" > "$root/lib/modules/$m.ko" ;;
      *.zst) zstd -dcq "$ko" > "$root/lib/modules/$m.ko" ;;
      *) cp "$ko" "$root/lib/modules/$m.ko" ;;
    esac
  done
}

vm_disk() {
  truncate -s "$2" "$imgdir/$1" && echo "$imgdir/$1"
}

vm_init_script() {
  {
    cat <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
# Kernel messages on the console would land inside the JSON printed below.
echo 1 > /proc/sys/kernel/printk
for m in $vm_modules; do insmod /lib/modules/\$m.ko || echo "@@NSC-ERROR insmod \$m failed@@"; done
i=0
while [ ! -b /dev/nvme0n1 ] && [ \$i -lt 200 ]; do sleep 0.1; i=\$((i + 1)); done
[ -b /dev/nvme0n1 ] || echo "@@NSC-ERROR /dev/nvme0n1 did not appear@@"

# ns_of SERIAL: the namespace of the controller with that serial (probe order varies).
ns_of() {
  for c in /sys/class/nvme/nvme*; do
    if grep -q "^\$1 *\\\$" "\$c/serial"; then echo "/dev/\$(basename "\$c")n1"; return; fi
  done
  echo "@@NSC-ERROR no controller with serial \$1@@" >&2
}

section() {
  name=\$1; shift
  t0=\$(cut -d' ' -f1 /proc/uptime)
  "\$@" > /tmp/out 2> /tmp/err
  rc=\$?
  echo "@@NSC-TIME \$name \$t0 \$(cut -d' ' -f1 /proc/uptime)@@"
  echo "@@NSC-BEGIN \$name@@"
  cat /tmp/out
  echo "@@NSC-END \$name@@"
  echo "@@NSC-RC \$name \$rc@@"
  sed "s/^/@@NSC-STDERR \$name@@ /" /tmp/err
}
INIT
    printf '%s\n' "$1"
    echo 'echo "@@NSC-DONE@@"'
    echo 'poweroff -f'
  } > "$root/init"
  chmod +x "$root/init"
}

vm_boot() {
  local drive=$1 device=$2 rc start
  shift 2
  (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz" || { echo "FAIL: cpio"; return 1; }
  echo "# booting $kernel with $(du -h "$work/initrd.gz" | cut -f1) initramfs"
  echo "# -drive $drive"
  start=$(date +%s%N)
  # Two vCPUs: with one, QEMU 7.2's emulated NVMe now and then stops completing a
  # queue's commands for good (the guest's kernel logs "I/O … timeout, aborting", then
  # resets the controller minutes later); with two it has not been seen here.
  timeout "$timeout_s" $vm_nice "$qemu" -accel tcg -smp 2 -m 1G -nographic -no-reboot \
    -kernel "$kernel" -initrd "$work/initrd.gz" \
    -append 'console=ttyS0 panic=-1 quiet' \
    -drive "$drive" -device "$device" "$@" \
    < /dev/null > "$work/console.log" 2>&1
  rc=$?
  vm_seconds=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
  echo "# QEMU exited $rc after $vm_seconds s"
  # Where the guest's time went, section by section (tests/README.md's CI account).
  awk '/@@NSC-TIME [^ ]+ [0-9.]+ [0-9.]+@@/ { sub(/@@.*/, "", $4); t[++n] = sprintf("%s %.0f", $2, $4 - $3) }
       END { if (n) { printf "# sections (s):"; for (i = 1; i <= n; i++) printf " %s", t[i]; print "" } }' \
    "$work/console.log"
  if [ $rc -eq 124 ]; then
    echo "FAIL: the guest did not finish within $timeout_s s; its console:"
    tail -40 "$work/console.log"
    vm_keep_console
    return 1
  fi
  return 0
}

vm_keep_console() {
  # The work folder goes away; keep the guest's console for whoever reads the failure.
  cp "$work/console.log" "${G_TEST_BUILDDIR:-/tmp}/$vm_name-console.log"
  echo "# the guest's console is in ${G_TEST_BUILDDIR:-/tmp}/$vm_name-console.log"
}

# Fake drives (fake-drive.py, an nbdkit plugin that stores what is written), each behind
# an emulated NVMe controller of 4 KiB blocks:
#   vm_need_fake_drives                 skips (77) without nbdkit's Python plugin
#   vm_fake_drive NAME SERIAL PARAMS…   starts the model (its log $work/NAME.log) and
#                                       adds its QEMU arguments to fake_args
#   vm_fake_drives_ready NAME           waits until the last one's socket is there
#   vm_fake_drives_stop                 stops them all
#   vm_keep_fake_logs                   copies the models' logs and $work/drives.txt
#                                       next to the build, for a failed check
fake_args=()
fake_pids=()
# vm_need_fake_drives: exit 77 (skip) without nbdkit's Python plugin.
vm_need_fake_drives() {
  command -v nbdkit >/dev/null || skip "nbdkit is missing (apt install nbdkit nbdkit-plugin-python)"
  nbdkit python --version >/dev/null 2>&1 || skip "nbdkit's Python plugin is missing (apt install nbdkit-plugin-python)"
}
vm_fake_drive() {
  local name=$1 serial=$2 n=${#fake_pids[@]}
  shift 2
  $vm_nice nbdkit --foreground --exit-with-parent --unix "$work/$name.sock" python "$here/fake-drive.py" \
    "$@" log="$work/$name.log" &
  fake_pids+=($!)
  fake_args+=(-drive "driver=nbd,server.type=unix,server.path=$work/$name.sock,id=f$n,if=none,cache.direct=on,discard=unmap"
              -device "nvme,serial=$serial,drive=f$n,logical_block_size=4096,physical_block_size=4096")
}
vm_fake_drives_ready() {
  local i=0
  until [ -S "$work/$1.sock" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
}
vm_fake_drives_stop() {
  local p
  for p in "${fake_pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  fake_pids=()
}
vm_keep_fake_logs() {
  local dir=${G_TEST_BUILDDIR:-/tmp}/$vm_name-logs
  mkdir -p "$dir"
  cp "$work"/*.log "$work/drives.txt" "$dir/" 2>/dev/null
  echo "# the fake drives' logs are in $dir"
}
# vm_fake_boot_and_check CHECK.py: the guest (its script from vm_init_script) booted
# with the fake drives, the models stopped, then CHECK.py check on the console and the
# models' logs; the console and logs kept when it fails. Returns the check's status.
vm_fake_boot_and_check() {
  local rc
  vm_fake_drives_ready "$(awk 'END {print $1}' "$work/drives.txt")"
  vm_boot "${fake_args[1]}" "${fake_args[3]}" "${fake_args[@]:4}" || { vm_keep_console; return 1; }
  vm_fake_drives_stop
  python3 "$1" check "$work/console.log" --drives "$work/drives.txt" --logs "$work"
  rc=$?
  if [ $rc -ne 0 ]; then
    vm_keep_console
    vm_keep_fake_logs
  fi
  return $rc
}

# vm_add_modules NAME…: more kernel modules in the initramfs (/lib/modules/NAME.ko),
# for the guest's script to insmod in the order given; exit 77 when one is missing.
vm_add_modules() {
  local m ko
  for m in "$@"; do
    ko=$(find "$moddir/kernel" -name "$m.ko*" 2>/dev/null | head -1)
    [ -n "$ko" ] || skip "module $m is missing under $moddir"
    case $ko in
      *.xz) xz -dc "$ko" > "$root/lib/modules/$m.ko" ;;
      *.zst) zstd -dcq "$ko" > "$root/lib/modules/$m.ko" ;;
      *) cp "$ko" "$root/lib/modules/$m.ko" ;;
    esac
  done
}

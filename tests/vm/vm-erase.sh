#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The vm suite's test of erase steps through the controller's own commands: QEMU's
# emulated NVMe controller, a namespace written with random data in the guest, then
#
#   nandscope-cli run --preset erase --erase format     (NVMe Format, user data erase)
#
# must report an erase step with erase_method "format" and leave the namespace
# reading back as zeros (dd with O_DIRECT, past the page cache, md5sum against as
# many zero bytes; od shows the first lines); and
#
#   nandscope-cli run --preset erase --erase sanitize
#
# on a controller without Sanitize (QEMU 7.2 reports SANICAP 0) must fail with a
# clear "does not support" and exit 1, the data left as it was.
# Exit 77 (skip) when QEMU, the kernel or busybox-static are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm-lib.sh"
serial=NSCERASE1
disk_size=$((32 * 1024 * 1024))
mib=$((disk_size / 1048576))
lba=4096

vm_prepare vm-erase
vm_init_script "$(cat <<INIT
dev=/dev/nvme0n1
sum() { dd if=\$dev bs=1M count=$mib iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1; }
section sum-zero sh -c "dd if=/dev/zero bs=1M count=$mib 2>/dev/null | md5sum | cut -d' ' -f1"
section fill-random dd if=/dev/urandom of=\$dev bs=1M count=$mib oflag=direct
section sum-random sum
section run-format nandscope-cli run --preset erase --target \$dev --destroy-data=\$dev \
  --erase format --json /tmp/format.json
section result-format cat /tmp/format.json
section sum-format sum
section od-format sh -c "dd if=\$dev bs=1M count=$mib iflag=direct 2>/dev/null | od -Ax -tx1 | head -4"
# Random data again, so that a sanitize that wrongly went ahead would show.
section refill-random dd if=/dev/urandom of=\$dev bs=1M count=$mib oflag=direct
section sum-refill sum
section run-sanitize nandscope-cli run --preset erase --target \$dev --destroy-data=\$dev \
  --erase sanitize --json /tmp/sanitize.json
section result-sanitize cat /tmp/sanitize.json
section sum-sanitize sum
INIT
)"

disk=$(vm_disk disk.img "$disk_size") || exit 1
vm_boot "file=$disk,if=none,id=d0,format=raw,cache=$vm_cache,aio=threads,discard=unmap" \
  "nvme,serial=$serial,drive=d0,logical_block_size=$lba,physical_block_size=$lba" || exit 1

python3 "$here/vm-erase-check.py" "$work/console.log" --serial "$serial"
rc=$?
[ $rc -eq 0 ] || vm_keep_console
exit $rc

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The vm suite's test of I/O errors from the drive (issue 6): QEMU's blkdebug driver
# sits under the emulated NVMe namespace and fails, every time (once = "off"), with
# errno 5 (EIO):
#   - reads that touch sector READ_SECTOR (512-byte sectors of the image),
#   - writes that touch sector WRITE_SECTOR.
# QEMU's controller answers the guest with a media error status (Unrecovered Read
# Error, Write Fault), which Linux hands to the program as ENODATA (61).
# In the guest:
#   - a sequential read job over a span that crosses READ_SECTOR (its prefill writes
#     the span: writes there do not fail),
#   - a sequential write job over a span that crosses WRITE_SECTOR,
#   - a write job over a clean span, as a control: the same device still works.
# Each failing run must exit 1 with a one-line reason naming the offset, save its
# partial result (--json) with steps[i].runs[j].error_errno 61 and error_offset the
# start of the request holding the bad sector, and end by itself (no signal, no hang).
# Exit 77 (skip) when QEMU, the kernel or busybox-static are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm-lib.sh"
serial=NSCBLKDBG1
disk_size=$((256 * 1024 * 1024))
lba=4096
bs=$((1024 * 1024))
# 40 MiB + 12 KiB and 160 MiB + 512 KiB: inside a 1 MiB request, not at its start.
read_sector=$(((40 * 1024 * 1024 + 12288) / 512))
write_sector=$(((160 * 1024 * 1024 + 524288) / 512))

vm_prepare vm-io-errors
vm_init_script "$(cat <<INIT
dev=/dev/nvme0n1
# Reads of the first 64 MiB (prefilled first: with consent the engine writes the span).
section run-read nandscope-cli run --target \$dev --destroy-data=\$dev --rw read --bs 1m --qd 4 \
  --span 64m --time 10s --json /tmp/read.json --quiet
section result-read cat /tmp/read.json
# Writes of 128..192 MiB.
section run-write nandscope-cli run --target \$dev --destroy-data=\$dev --rw write --bs 1m --qd 4 \
  --offset 128m --span 64m --time 10s --json /tmp/write.json --quiet
section result-write cat /tmp/write.json
# The control: writes of 64..128 MiB, where nothing fails.
section run-clean nandscope-cli run --target \$dev --destroy-data=\$dev --rw write --bs 1m --qd 4 \
  --offset 64m --span 64m --time 2s --json /tmp/clean.json --quiet
section result-clean cat /tmp/clean.json
INIT
)"

disk=$(vm_disk disk.img "$disk_size") || exit 1
cat > "$work/blkdebug.conf" <<CONF
[inject-error]
event = "none"
iotype = "read"
errno = "5"
sector = "$read_sector"
once = "off"

[inject-error]
event = "none"
iotype = "write"
errno = "5"
sector = "$write_sector"
once = "off"
CONF
vm_boot "driver=blkdebug,config=$work/blkdebug.conf,image.driver=file,image.filename=$disk,if=none,id=d0,cache=$vm_cache,aio=threads" \
  "nvme,serial=$serial,drive=d0,logical_block_size=$lba,physical_block_size=$lba" || exit 1

python3 "$here/vm-io-errors-check.py" "$work/console.log" --serial "$serial" --bs "$bs" \
  --read-offset $((read_sector * 512)) --write-offset $((write_sector * 512))
rc=$?
[ $rc -eq 0 ] || vm_keep_console
exit $rc

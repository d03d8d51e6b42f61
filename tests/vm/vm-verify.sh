#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The capacity and integrity check (`--preset verify`) on drives that lie or fail as
# the test chose: QEMU's emulated NVMe controllers, each over a fake drive
# (fake-drive.py, an nbdkit plugin that stores what is written) drawn from a seed: an
# honest one, one that wraps past its real size, one that drops writes past it, one
# that maps flash as written until it runs out, one that flips bits in a few blocks,
# one whose reads fail in a range, one whose reads are slow in a range; about half
# with a cache of their own. Each is checked by a full run of the preset in the
# guest, and the verdict against the model's parameters and its log
# (vm-verify-check.py says what is checked); the wrapping and dropping drives then by a
# surface scan whose places are checked (surface-write --verify).
#
# NSC_VM_SEED picks the drives (printed; a failure names it), NSC_VM_DRIVES how many
# (7: one of each kind; more are drawn).
# Exit 77 (skip) when QEMU, the kernel, busybox-static or nbdkit's Python plugin is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
vm_timeout_default=900
. "$here/vm-lib.sh"
vm_need_fake_drives

seed=${NSC_VM_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
count=${NSC_VM_DRIVES:-7}
echo "# seed $seed (NSC_VM_SEED=$seed repeats these drives)"

vm_prepare vm-verify
python3 "$here/vm-verify-check.py" draw --seed "$seed" --count "$count" > "$work/drives.txt" || exit 1
cat "$work/drives.txt"

trap 'vm_fake_drives_stop; rm -rf "$work" "$imgdir"' EXIT

body='i=0
while [ ! -b /dev/nvme'$((count - 1))'n1 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done'
n=0
while read -r name kind params; do
  serial=NSCFAKE$n
  # shellcheck disable=SC2086
  vm_fake_drive "$name" "$serial" $params
  body+="
ns=\$(ns_of $serial)
section verify-$name nandscope-cli run --target \$ns --destroy-data=\$ns --preset verify --quiet --json /tmp/$name.json
section result-$name cat /tmp/$name.json"
  # A surface scan's places checked (--verify) on the drives that lie about their size
  # (the honest drive's sample is cli-verify's): a sample's verdict.
  case $kind in
    wrap|drop) body+="
section surface-$name nandscope-cli run --target \$ns --destroy-data=\$ns --preset surface-write --verify --max-idle 1s --quiet --json /tmp/s$name.json
section sresult-$name cat /tmp/s$name.json" ;;
  esac
  n=$((n + 1))
done < "$work/drives.txt"
vm_init_script "$body"
vm_fake_boot_and_check "$here/vm-verify-check.py"

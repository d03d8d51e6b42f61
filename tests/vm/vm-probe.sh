#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The quick probe (`--preset probe`) on drives that lie as the test chose: QEMU's
# emulated NVMe controllers, each over a fake drive (fake-drive.py) drawn from a seed:
# an honest one, a wrapping fake and one that drops writes past its real size (each
# without a cache of its own, then each behind one of 16–512 MiB), and one that maps
# flash as it is written. Each reports 4 GiB. The verdict, the usable size to the block,
# the cache found and the bytes written are checked against what the model was told
# (vm-probe-check.py says what is checked), and the table of them printed.
# Then, on the honest drive: a probe cancelled (SIGINT) and one killed (SIGKILL) while
# they write, after each of which the drive is free again (a write run opens it
# exclusively); and on the wrapping drive, once partitioned, its partition refused.
#
# NSC_VM_SEED picks the drives (printed; a failure names it).
# Exit 77 (skip) when QEMU, the kernel, busybox-static or nbdkit's Python plugin is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
vm_timeout_default=900
. "$here/vm-lib.sh"
vm_need_fake_drives

seed=${NSC_VM_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "# seed $seed (NSC_VM_SEED=$seed repeats these drives)"

vm_prepare vm-probe
python3 "$here/vm-probe-check.py" draw --seed "$seed" > "$work/drives.txt" || exit 1
cat "$work/drives.txt"
count=$(wc -l < "$work/drives.txt")

trap 'vm_fake_drives_stop; rm -rf "$work" "$imgdir"' EXIT

body='i=0
while [ ! -b /dev/nvme'$((count - 1))'n1 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
up() { cut -d" " -f1 /proc/uptime; }
written() { while read -r k v; do [ "$k" = write_bytes: ] && echo "$v"; done < /proc/$1/io 2>/dev/null; }
# stop_when_writing SIGNAL NAME: a probe of the honest drive in the background, sent
# SIGNAL once it has written 32 MiB (the event, not a delay), its exit status kept.
stop_when_writing() {
  nandscope-cli run --target $honest --destroy-data=$honest --preset probe --quiet --json /tmp/$2.json \
    > /tmp/$2.out 2> /tmp/$2.err &
  p=$!
  i=0
  until [ "$(written $p)" -gt 33554432 ] 2>/dev/null || [ $i -ge 600 ]; do sleep 0.05; i=$((i + 1)); done
  [ $i -ge 600 ] && echo "@@NSC-ERROR the $2 probe did not write 32 MiB within 30 s@@"
  kill -$1 $p
  wait $p
  echo $? > /tmp/$2.rc
}'
n=0
while read -r name kind params; do
  serial=NSCPROBE$n
  # shellcheck disable=SC2086
  vm_fake_drive "$name" "$serial" $params
  body+="
ns=\$(ns_of $serial)
section probe-$name nandscope-cli run --target \$ns --destroy-data=\$ns --preset probe --json /tmp/$name.json
section result-$name cat /tmp/$name.json"
  case $kind in
    honest) body+="
honest=\$ns
section plan sh -c 'nandscope-cli run --target \$0 --destroy-data=\$0 --preset probe --dry-run --json /tmp/plan.json > /dev/null && cat /tmp/plan.json' \$ns" ;;
    wrap) [ -z "${wrapped:-}" ] && wrapped=1 && body+="
# A partition on it: the probe judges whole drives.
printf 'o\\nn\\np\\n1\\n\\n+64M\\nw\\n' | fdisk \$ns > /dev/null 2>&1
i=0
while [ ! -b \${ns}p1 ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i + 1)); done
section partition nandscope-cli run --target \${ns}p1 --destroy-data=\${ns}p1 --preset probe --quiet" ;;
  esac
  n=$((n + 1))
done < "$work/drives.txt"
body+='
stop_when_writing INT cancel
section cancel sh -c "cat /tmp/cancel.err >&2; exit \$(cat /tmp/cancel.rc)"
section result-cancel cat /tmp/cancel.json
section released-cancel nandscope-cli run --target $honest --destroy-data=$honest --rw write --bs 1m --qd 1 --span 1m --time 1s --quiet
stop_when_writing KILL kill
section kill sh -c "exit \$(cat /tmp/kill.rc)"
section left-kill sh -c "ls /tmp/kill.json 2>/dev/null; pidof nandscope-cli; true"
section released-kill nandscope-cli run --target $honest --destroy-data=$honest --rw write --bs 1m --qd 1 --span 1m --time 1s --quiet'
vm_init_script "$body"
vm_fake_boot_and_check "$here/vm-probe-check.py"

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Verdicts against drives whose behaviour the test draws from a seed and knows: QEMU's
# emulated NVMe controllers, each over a drive model (drive-model.py, an nbdkit
# plugin) with an SLC cache, static or dynamic (it shrinks as the drive fills), that
# folds while writing, only while idle, or both, at speeds drawn at random, and reads
# from the cache faster than from TLC or alike. On each drive, as a user would:
#   write-fill --state empty      its cache goes to the drive's history, as a user's
#                                 first run would leave it
#   quick --state empty           CrystalDiskMark's reads against a settled control,
#                                 on 512 MiB of the drive (the halves of the last
#                                 version of this test), after its --dry-run: the
#                                 promise it makes with the cache from the drive's
#                                 history, which the run must keep
#   write-fill --state free:512m  the drive a third full: a dynamic cache is smaller
#   cache-recovery                five recovery steps after idles of 3 s
# Before each run the guest reads 12 KiB at a marker offset, which the model's log
# shows, so the check knows which run each request belonged to.
#
# The check (vm-drive-family-check.py) reads the model's own log: what the drive did.
# - Each write-fill's cache against the bytes the model took at its cache's speed
#   from the fill's first write (within 10 %; "no cache" where it took almost none).
# - Each recovery step's fast bytes against what the model took fast after that
#   idle.
# - Quick's SEQ1M Q8T1 verdict against the speed ratio the model served fresh and
#   settled reads at (where each read was served from, cache or TLC): where the
#   drive served fresh data clearly faster, measured faster and "not verified" for
#   the host (these are emulated drives: the host may cache what was just written);
#   "not verified" where it served settled data faster or both alike; never
#   "inflated" or "not inflated".
#
# NSC_VM_SEED picks the drives (printed; a failure names it), NSC_VM_DRIVES how many
# (6: static and dynamic caches, each folding while writing, only while idle and both;
# more are drawn).
# Exit 77 (skip) when QEMU, the kernel, busybox-static or nbdkit's Python plugin is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
vm_timeout_default=2000
. "$here/vm-lib.sh"
command -v nbdkit >/dev/null || skip "nbdkit is missing (apt install nbdkit nbdkit-plugin-python)"
nbdkit python --version >/dev/null 2>&1 || skip "nbdkit's Python plugin is missing (apt install nbdkit-plugin-python)"

seed=${NSC_VM_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
count=${NSC_VM_DRIVES:-6}
echo "# seed $seed (NSC_VM_SEED=$seed repeats these drives)"

vm_prepare vm-drive-family
python3 "$here/vm-drive-family-check.py" draw --seed "$seed" --count "$count" > "$work/drives.txt" || exit 1
cat "$work/drives.txt"

pids=()
stop_models() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; pids=(); }
trap 'stop_models; rm -rf "$work" "$imgdir"' EXIT

body='export XDG_DATA_HOME=/tmp/data
mkdir -p /tmp/data/nandscope/results
i=0
while [ ! -b /dev/nvme'$((count - 1))'n1 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
# mark DEVICE N: a 12 KiB read at N × 12 KiB, which no run makes (1 MiB and 4 KiB).
mark() { dd if=$1 of=/dev/null bs=12288 count=1 skip=$2 iflag=direct 2>/dev/null || echo "@@NSC-ERROR marker $2 on $1 failed@@"; }'
args=()
n=0
while read -r name params; do
  serial=NSCMODEL$n
  sock=$work/$name.sock
  # shellcheck disable=SC2086
  $vm_nice nbdkit --foreground --exit-with-parent --unix "$sock" python "$here/drive-model.py" \
    $params log="$work/$name.log" &
  pids+=($!)
  args+=(-drive "driver=nbd,server.type=unix,server.path=$sock,id=m$n,if=none,cache.direct=on,discard=unmap"
         -device "nvme,serial=$serial,drive=m$n,logical_block_size=4096,physical_block_size=4096")
  run="nandscope-cli run --target \$ns --destroy-data=\$ns --quiet"
  body+="
ns=\$(ns_of $serial)
mark \$ns 0
section fill-empty-$name $run --preset write-fill --state empty --max-idle 1s --json /tmp/fill-empty-$name.json
cp /tmp/fill-empty-$name.json /tmp/data/nandscope/results/fill-$name.json
quick=\"--preset quick --state empty --span 512m --time 1s --runs 1 --max-idle 6s\"
section plan-quick-$name $run \$quick --dry-run --json /tmp/plan-quick-$name.json
mark \$ns 1
section quick-$name $run \$quick --json /tmp/quick-$name.json
mark \$ns 2
section fill-free-$name $run --preset write-fill --state free:512m --max-idle 6s --json /tmp/fill-free-$name.json
mark \$ns 3
section recovery-$name $run --preset cache-recovery --max-idle 3s --json /tmp/recovery-$name.json
for r in fill-empty plan-quick quick fill-free recovery; do section result-\$r-$name cat /tmp/\$r-$name.json; done"
  n=$((n + 1))
done < "$work/drives.txt"
i=0
until [ -S "$work/$(awk 'END {print $1}' "$work/drives.txt").sock" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done

vm_init_script "$body"
vm_boot "${args[1]}" "${args[3]}" "${args[@]:4}" || { vm_keep_console; exit 1; }
stop_models

python3 "$here/vm-drive-family-check.py" check "$work/console.log" --drives "$work/drives.txt" \
  --logs "$work" --seed "$seed"
rc=$?
if [ $rc -ne 0 ]; then
  vm_keep_console
  mkdir -p "${G_TEST_BUILDDIR:-/tmp}/vm-drive-family-logs"
  cp "$work"/*.log "$work/drives.txt" "${G_TEST_BUILDDIR:-/tmp}/vm-drive-family-logs/" 2>/dev/null
  echo "# the drive models' logs are in ${G_TEST_BUILDDIR:-/tmp}/vm-drive-family-logs"
fi
exit $rc

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Quick's fresh-against-settled reads on drives whose behaviour the test draws from a
# seed and knows: QEMU's emulated NVMe controllers, each over a drive model
# (drive-model.py, an nbdkit plugin) with an SLC cache that folds while writing, only
# while idle, or both, at speeds drawn at random, and reads from the cache faster than
# from TLC or alike. On each: write-fill (its cache goes to the drive's history, as a
# user's first run would leave it), then Quick, which writes past that cache after its
# settled data.
#
# The check (vm-quick-premise-check.py) reads the model's own log: where each read of
# Quick's SEQ1M Q8T1 pair was served from (cache or TLC), hence the speed ratio the
# drive really gave fresh against settled data, and holds the verdict to it:
# inflated where the drive served fresh data clearly faster, not verified where it
# served settled data faster or both alike (these are emulated drives: alike reads
# may be the host's), never "not inflated". The write-fill's cache against the model's.
#
# NSC_VM_SEED picks the drives (printed; a failure names it), NSC_VM_DRIVES how many (4: the first three
# fold while writing, only while idle, and both; the fourth is drawn).
# Exit 77 (skip) when QEMU, the kernel, busybox-static or nbdkit's Python plugin is missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
vm_timeout_default=900
. "$here/vm-lib.sh"
command -v nbdkit >/dev/null || skip "nbdkit is missing (apt install nbdkit nbdkit-plugin-python)"
nbdkit python --version >/dev/null 2>&1 || skip "nbdkit's Python plugin is missing (apt install nbdkit-plugin-python)"

seed=${NSC_VM_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
count=${NSC_VM_DRIVES:-4}
echo "# seed $seed (NSC_VM_SEED=$seed repeats these drives)"

vm_prepare vm-quick-premise
python3 "$here/vm-quick-premise-check.py" draw --seed "$seed" --count "$count" > "$work/drives.txt" || exit 1
cat "$work/drives.txt"

pids=()
stop_models() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; pids=(); }
trap 'stop_models; rm -rf "$work" "$imgdir"' EXIT

body='export XDG_DATA_HOME=/tmp/data
mkdir -p /tmp/data/nandscope/results
i=0
while [ ! -b /dev/nvme'$((count - 1))'n1 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done'
args=()
n=0
while read -r name params; do
  serial=NSCMODEL$n
  sock=$work/$name.sock
  # shellcheck disable=SC2086
  nbdkit --foreground --exit-with-parent --unix "$sock" python "$here/drive-model.py" \
    $params log="$work/$name.log" &
  pids+=($!)
  args+=(-drive "driver=nbd,server.type=unix,server.path=$sock,id=m$n,if=none,cache.direct=on,discard=unmap"
         -device "nvme,serial=$serial,drive=m$n,logical_block_size=4096,physical_block_size=4096")
  body+="
ns=\$(ns_of $serial)
section fill-$name nandscope-cli run --preset write-fill --target \$ns --destroy-data=\$ns --max-idle 1s --json /tmp/fill-$name.json --quiet
cp /tmp/fill-$name.json /tmp/data/nandscope/results/fill-$name.json
section quick-$name nandscope-cli run --preset quick --target \$ns --destroy-data=\$ns --time 1s --runs 1 --max-idle 6s --json /tmp/quick-$name.json --quiet
section result-fill-$name cat /tmp/fill-$name.json
section result-quick-$name cat /tmp/quick-$name.json"
  n=$((n + 1))
done < "$work/drives.txt"
i=0
until [ -S "$work/$(awk 'END {print $1}' "$work/drives.txt").sock" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done

vm_init_script "$body"
vm_boot "${args[1]}" "${args[3]}" "${args[@]:4}" || { vm_keep_console; exit 1; }
stop_models

python3 "$here/vm-quick-premise-check.py" check "$work/console.log" --drives "$work/drives.txt" \
  --logs "$work" --seed "$seed"
rc=$?
if [ $rc -ne 0 ]; then
  vm_keep_console
  mkdir -p "${G_TEST_BUILDDIR:-/tmp}/vm-quick-premise-logs"
  cp "$work"/*.log "$work/drives.txt" "${G_TEST_BUILDDIR:-/tmp}/vm-quick-premise-logs/" 2>/dev/null
  echo "# the drive models' logs are in ${G_TEST_BUILDDIR:-/tmp}/vm-quick-premise-logs"
fi
exit $rc

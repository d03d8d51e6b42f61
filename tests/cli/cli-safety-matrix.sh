#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The safety matrix: every run that writes, trims or erases a block device — each
# preset that list-presets says touches a device, ad hoc writes, and --state and
# --erase on the read-only presets — tried against every way a device can be in use
# and every consent mistake, on loop devices over random data. Each case must be
# refused, and not one byte of any device involved may change: the block layer's
# counts of write and discard requests must not move, or else an O_DIRECT read of the
# device, compared byte for byte with one taken before, must show no difference; after
# each situation's last run that comparison is made anyway. Positive controls show
# that both see a write that is allowed, and that a read-only run still works on a
# device in use. Root, else exit 77.
#
# Output: "ok"/"FAIL" per situation, then
#   safety matrix: N cases tried, N refused, 0 bytes changed
# tests/README.md lists the situations and what cannot be staged here.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-devices.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop devices, mounts, swap)"; exit 77; }
for tool in losetup sfdisk partx mkfs.ext4 mkswap swapon unshare nsenter python3; do
  command -v "$tool" >/dev/null || { echo "SKIP: needs $tool"; exit 77; }
done

src=${G_TEST_SRCDIR:-$(dirname "$0")/..}
size_mib=128
call_timeout=${NSC_SAFETY_TIMEOUT:-30}

devices_snapshot
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-safety-XXXXXX")
loops=()
bg_pids=()
cleanup() {
  local p l m img
  for p in "${bg_pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  for m in $(awk -v w="$work" 'index($2, w) == 1 {print $2}' /proc/mounts | sort -r); do
    umount "$m" 2>/dev/null || umount -l "$m"
  done
  for l in "${loops[@]}"; do swapoff "$l" 2>/dev/null; swapoff "${l}p2" 2>/dev/null; done
  for ((i = ${#loops[@]} - 1; i >= 0; i--)); do losetup -d "${loops[i]}" 2>/dev/null; done
  for img in "$work"/*.img; do
    for l in $(losetup -nO NAME -j "$img" 2>/dev/null); do losetup -d "$l"; done
  done
  rm -rf "$work"
  devices_check
}
trap cleanup EXIT

# attach FILE-OR-DEVICE [losetup options…]: a new loop device in $loop_dev, attached in
# this shell so that the clean-up knows it.
attach() {
  local what=$1
  shift
  loop_dev=$(losetup -f --show "$@" "$what") || { bad "losetup $* $what"; finish; }
  loops+=("$loop_dev")
}
detach() {
  local l=$1 keep=() x
  losetup -d "$l"
  for x in "${loops[@]}"; do [ "$x" = "$l" ] || keep+=("$x"); done
  loops=("${keep[@]}")
}

# ---- what to run ---------------------------------------------------------------
# Every preset whose "On a device" column is not "nothing" writes, trims or erases;
# the data/presets files must all be listed, so that a new preset is covered.
"$cli" list-presets > "$work/presets.txt" || { bad "list-presets failed"; finish; }
column() { awk -v want="$1" 'NR == 1 { at = index($0, "On a device") } NR > 1 { c = substr($0, at, 14); sub(/ +$/, "", c)
  if (c == want || (want == "?" && c != "nothing" && c != "device data" && c != "whole device")) print $1 }' "$work/presets.txt"; }
writing=$(column "device data"; column "whole device")
readonly_presets=$(column nothing)
[ -z "$(column "?")" ] || bad "list-presets: unknown \"On a device\" column for $(column "?")"
listed=$(awk 'NR > 1 {print $1}' "$work/presets.txt" | sort)
files=$(python3 -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    print(json.load(open(f))["name"])' "$src/../data/presets" | sort)
if [ -n "$files" ] && [ -z "$(comm -13 <(echo "$listed") <(echo "$files"))" ]; then
  ok "all $(echo "$files" | wc -l) presets of data/presets are listed: $(echo "$writing" | wc -w) touch a device, read-only: $(echo $readonly_presets)"
else
  bad "presets in data/presets missing from list-presets: $(comm -13 <(echo "$listed") <(echo "$files"))"
fi
[ "$(echo "$writing" | wc -w)" -ge 20 ] || bad "list-presets names only $(echo "$writing" | wc -w) writing presets"

# One run per line. "consent:" marks runs that write only because consent was given
# (a read-only preset reads written data then): left out when no consent is given.
# "readonly:" marks runs that have nothing to erase without consent (--erase names
# how erase steps erase, and a read-only preset has none): without consent they may
# run, reading only — and must change nothing.
runs=()
for p in $writing; do runs+=("--preset $p"); done
runs+=("--preset erase --erase format" "--preset erase --erase sanitize")
for p in $readonly_presets; do
  runs+=("consent:--preset $p" "--preset $p --state empty" "--preset $p --state free:16m"
         "readonly:--preset $p --erase trim" "readonly:--preset $p --erase format"
         "readonly:--preset $p --erase sanitize")
done
runs+=("--rw write" "--rw randwrite" "--rw randrw" "consent:--rw randread")
common=(--runs 1 --time 300ms --max-idle 10ms --span 16m --quiet)

# ---- the devices -----------------------------------------------------------------
truncate -s ${size_mib}M "$work/disk.img" "$work/other.img"
head -c ${size_mib}M /dev/urandom > "$work/random.img"
attach "$work/disk.img" -P; D=$loop_dev
attach "$work/other.img" -P; O=$loop_dev

# fresh DEVICE: random data over all of it, no partition table.
fresh() {
  dd if="$work/random.img" of="$1" bs=1M oflag=direct status=none
  partx -d "$1" 2>/dev/null
  blockdev --rereadpt "$1" 2>/dev/null
}
partition() {  # partition DEVICE: p1 32 MiB, p2 the rest
  printf 'label: dos\n,32M\n,\n' | sfdisk -q "$1" >/dev/null 2>&1
  partx -u "$1" 2>/dev/null || partx -a "$1" 2>/dev/null
  local i
  for i in $(seq 50); do [ -b "${1}p2" ] && break; sleep 0.1; done
  [ -b "${1}p2" ] || { bad "partitions of $1 did not appear"; return 1; }
}
ext4() { mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$@" >/dev/null 2>&1; }

# image DEVICE…: the O_DIRECT contents of each device, kept as the "before".
snap() {
  local d
  sync
  for d in "${check_devs[@]}"; do
    dd if="$d" of="$work/before-${d##*/}" bs=1M iflag=direct status=none
  done
}
# The parts of DEVICE to compare, "START LENGTH" a line: all of it, but the page
# slots of an active swap area ($masks: "DEVICE OFFSET LENGTH"), which belong to the
# kernel (it swaps there under memory pressure from anything on the machine). The
# swap areas are kept to 10 pages at the start of their device or partition; their
# header is compared.
masks=()
segments() {
  local d=$1 start=0 size m dev off len
  size=$(blockdev --getsize64 "$d")
  for m in "${masks[@]}"; do
    read -r dev off len <<< "$m"
    [ "$dev" = "$d" ] || continue
    echo "$start $((off - start))"
    start=$((off + len))
  done
  echo "$start $((size - start))"
}
# counters: the block layer's own count, for each device, of the sectors written and
# the discard requests and sectors it has completed (/sys/block/DEV/stat fields 7, 12
# and 14; write-zeroes requests count as writes, and a partition's requests count on
# its disk too), after its page cache was flushed (fsync) so that a buffered write
# counts now. Its contents cannot change while these stay as they were. (Not the
# count of write requests: the fsync's own flush is an empty write, counted there.)
counters() {
  local d
  for d in "${check_devs[@]}"; do
    sync "$d"
    awk -v d="$d" '{print d, $7, $12, $14}' "/sys/class/block/${d#/dev/}/stat"
  done
}
# changed: bytes that differ now from the "before" of each device (0: identical).
changed() {
  local d n total=0 start len now was
  for d in "${check_devs[@]}"; do
    n=0
    while read -r start len; do
      now=(dd if="$d" bs=1M iflag=direct,skip_bytes,count_bytes skip="$start" count="$len" status=none)
      was=(dd if="$work/before-${d##*/}" bs=1M iflag=skip_bytes,count_bytes skip="$start" count="$len" status=none)
      if ! cmp -s <("${now[@]}") <("${was[@]}"); then
        n=$((n + $(cmp -l <("${now[@]}") <("${was[@]}") 2>/dev/null | wc -l)))
      fi
    done < <(segments "$d")
    if [ "$n" -ne 0 ]; then
      total=$((total + n))
      # Further runs are measured against the new contents.
      dd if="$d" of="$work/before-${d##*/}" bs=1M iflag=direct status=none
    fi
  done
  echo "$total"
}

tried=0 refused=0 read_only=0 bytes_changed=0 unmoved=0
# NSC_SAFETY_SITUATIONS=REGEX tries only the situations whose name matches, and
# NSC_SAFETY_RUNS=REGEX only the runs whose options match (a partial matrix, for a
# quick look; the suite runs all of it).
only=${NSC_SAFETY_SITUATIONS:-}
only_runs=${NSC_SAFETY_RUNS:-}

# try SITUATION TARGET CONSENT(- for none): every run against the situation set up.
try_all() {
  local name=$1 target=$2 consent=$3 r args rc n msg cons ro tried_here=0 refused_here=0 bad_here=0
  [ -z "$only" ] || [[ $name =~ $only ]] || return 0
  : > "$work/messages"
  snap
  for r in "${runs[@]}"; do
    args=${r#consent:}
    ro=0
    if [ "$consent" = - ]; then
      [ "$r" != "$args" ] && continue
      [ "${r#readonly:}" != "$r" ] && ro=1
      cons=()
    else
      cons=("--destroy-data=$consent")
    fi
    args=${args#readonly:}
    [ -z "$only_runs" ] || [[ $args =~ $only_runs ]] || continue
    counted=$(counters)
    # shellcheck disable=SC2086
    timeout -k 5 "$call_timeout" "${runner[@]}" "$cli" run --target "$target" $args "${common[@]}" "${cons[@]}" \
      >/dev/null 2>"$work/err"
    rc=$?
    # Compared byte for byte when the block layer saw a write or discard request
    # (from the run, or from the kernel: a mounted filesystem, swap); else unchanged.
    if [ "$(counters)" = "$counted" ]; then
      n=0; unmoved=$((unmoved + 1))
    else
      n=$(changed)
    fi
    msg=$(grep . "$work/err" | head -1)
    tried=$((tried + 1)); tried_here=$((tried_here + 1))
    bytes_changed=$((bytes_changed + n))
    # Refused: stopped with a message before changing anything.
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] && [ -n "$msg" ] && [ "$n" -eq 0 ]; then
      refused=$((refused + 1)); refused_here=$((refused_here + 1))
      echo "$msg" | sed "s#$work#WORK#g; s#/dev/loop[0-9]*#/dev/loopN#g" >> "$work/messages"
    fi
    if [ "$rc" -eq 0 ] && [ "$ro" = 1 ] && [ "$n" -eq 0 ]; then
      read_only=$((read_only + 1)); refused_here=$((refused_here + 1))
      echo "(ran reading only)" >> "$work/messages"
    elif [ "$n" -ne 0 ] || [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] || [ -z "$msg" ]; then
      bad_here=$((bad_here + 1))
      bad "$name: run --target $target $args ${cons[*]} exited $rc, $n bytes changed: ${msg:-no message}"
    fi
  done
  # And once more byte for byte after them all, whatever the counters said.
  n=$(changed)
  if [ "$n" -ne 0 ]; then
    bytes_changed=$((bytes_changed + n)); bad_here=$((bad_here + 1))
    bad "$name: $n bytes changed over its runs, with no write the block layer counted"
  fi
  if [ "$bad_here" -eq 0 ]; then
    ok "$name: $tried_here runs, all refused (or reading only), 0 bytes changed"
  fi
  sort "$work/messages" | uniq -c | sort -rn | head -4 | sed 's/^/#   /'
}

# read_only_control NAME TARGET: a read-only run of a device in use still works and
# changes nothing (the refusals above are not a device that cannot be opened at all).
read_only_control() {
  local rc n
  [ -z "$only" ] || [[ $1 =~ $only ]] || return 0
  timeout -k 5 "$call_timeout" "${runner[@]}" "$cli" run --target "$2" --preset surface \
    --runs 1 --time 200ms --quiet >/dev/null 2>"$work/err"
  rc=$?
  n=$(changed)
  [ "$rc" -eq 0 ] && [ "$n" -eq 0 ] && ok "$1: a read-only surface scan still runs, 0 bytes changed" \
    || bad "$1: read-only surface scan exited $rc, $n bytes changed: $(head -1 "$work/err")"
}

runner=()
check_devs=("$D")

# ---- positive controls: consent on an unused device ------------------------------
# Both the byte comparison and the block layer's counters see each of them.
fresh "$D"
snap
counted=$(counters)
timeout -k 5 "$call_timeout" "$cli" run --target "$D" --rw write "${common[@]}" --destroy-data="$D" \
  >/dev/null 2>"$work/err"
rc=$?
moved=$([ "$(counters)" != "$counted" ] && echo moved || echo "did not move")
n=$(changed)
[ "$rc" -eq 0 ] && [ "$n" -gt 0 ] && [ "$moved" = moved ] \
  && ok "control: an allowed write on an unused device changes $n bytes; the write counts moved" \
  || bad "control: allowed write exited $rc, $n bytes changed, the counts $moved: $(head -1 "$work/err")"
fresh "$D"
snap
counted=$(counters)
timeout -k 5 "$call_timeout" "$cli" run --target "$D" --preset erase --destroy-data="$D" --quiet \
  >/dev/null 2>"$work/err"
rc=$?
moved=$([ "$(counters)" != "$counted" ] && echo moved || echo "did not move")
n=$(changed)
[ "$rc" -eq 0 ] && [ "$n" -gt 0 ] && [ "$moved" = moved ] \
  && ok "control: an allowed erase (TRIM) of an unused device changes $n bytes; the discard counts moved" \
  || bad "control: allowed erase exited $rc, $n bytes changed, the counts $moved: $(head -1 "$work/err")"

# ---- consent mistakes, on an unused partitioned device -----------------------------
fresh "$D"; fresh "$O"
if partition "$D"; then
  check_devs=("$D" "$O")
  try_all "no consent" "$D" -
  try_all "consent names another device" "$D" "$O"
  try_all "consent names a partition, the target is its disk" "$D" "${D}p1"
  try_all "consent names the disk, the target is its partition" "${D}p1" "$D"
  check_devs=("$D")
fi

# ---- in use ------------------------------------------------------------------------
mnt=$work/mnt
mkdir -p "$mnt" "$work/mnt2"

fresh "$D"; ext4 "$D"; mount "$D" "$mnt"
try_all "mounted filesystem" "$D" "$D"
read_only_control "mounted filesystem" "$D"
umount "$mnt"
mount -o ro "$D" "$mnt"
try_all "filesystem mounted read-only" "$D" "$D"
umount "$mnt"

fresh "$D"
if partition "$D"; then
  ext4 "${D}p1"; mount "${D}p1" "$mnt"
  try_all "mounted partition" "${D}p1" "${D}p1"
  try_all "disk whose partition is mounted" "$D" "$D"
  try_all "partition of a disk whose other partition is mounted" "${D}p2" "${D}p2"
  umount "$mnt"
  # 40 KiB: a header page and 9 slots.
  mkswap "${D}p2" 40 >/dev/null 2>&1 && swapon "${D}p2" && {
    masks=("$D $(( $(cat "/sys/class/block/${D#/dev/}p2/start") * 512 + 4096 )) 36864")
    try_all "disk whose partition is swap" "$D" "$D"
    swapoff "${D}p2"
    masks=()
  }
fi

fresh "$D"
mkswap "$D" 40 >/dev/null 2>&1 && swapon "$D" && {
  masks=("$D 4096 36864")
  try_all "swap" "$D" "$D"
  swapoff "$D"
  masks=()
}

# The device is the backing file of another loop device: mounted, then only attached.
fresh "$D"; ext4 "$D"
attach "$D"; E=$loop_dev
mount "$E" "$mnt"
try_all "backing a loop device that is mounted" "$D" "$D"
umount "$mnt"
try_all "backing a loop device (attached, not mounted)" "$D" "$D"
detach "$E"
# mount -o loop,offset=: the loop device is made by mount itself.
fresh "$D"
if partition "$D"; then
  ext4 "${D}p2"
  off=$(( $(cat "/sys/class/block/${D#/dev/}p2/start") * 512 ))
  mount -o loop,offset=$off "$D" "$mnt"
  try_all "backing a loop mount at an offset (mount -o loop,offset=)" "$D" "$D"
  umount "$mnt"
fi

# Another process has it open (read-write; then an exclusive claim, as a
# filesystem or RAID member takes it).
fresh "$D"
( exec 3<>"$D"; exec sleep 600 ) &
holder=$!; bg_pids+=("$holder")
wait_until "$holder" 30 holds "$holder" 3 "$D" || bad "the holder never opened $D ($waited_why)"
try_all "held open by another process" "$D" "$D"
kill "$holder"; wait "$holder" 2>/dev/null
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("claimed", flush=True)
time.sleep(600)' "$D" > "$work/claim" &
holder=$!; bg_pids+=("$holder")
wait_until "$holder" 30 grep -q claimed "$work/claim" || bad "the O_EXCL claim of $D never came ($waited_why)"
try_all "claimed exclusively (O_EXCL) by another process" "$D" "$D"
kill "$holder"; wait "$holder" 2>/dev/null

fresh "$D"
if partition "$D"; then
  ( exec 3<>"${D}p1"; exec sleep 600 ) &
  holder=$!; bg_pids+=("$holder")
  wait_until "$holder" 30 holds "$holder" 3 "${D}p1" || bad "the holder never opened ${D}p1 ($waited_why)"
  try_all "disk whose partition is held open by another process" "$D" "$D"
  kill "$holder"; wait "$holder" 2>/dev/null
fi

# A btrfs filesystem over two devices, mounted through one: /proc/mounts names only
# that one, the other is in use all the same.
if command -v mkfs.btrfs >/dev/null; then
  fresh "$D"; fresh "$O"
  if mkfs.btrfs -q -f -d raid1 -m raid1 --nodiscard "$D" "$O" >/dev/null 2>&1; then
    btrfs device scan "$D" "$O" >/dev/null 2>&1
    if mount "$D" "$mnt"; then
      check_devs=("$D" "$O")
      try_all "second device of a mounted two-device btrfs" "$O" "$O"
      try_all "first device of a mounted two-device btrfs" "$D" "$D"
      check_devs=("$D")
      umount "$mnt"
    else
      bad "could not mount the two-device btrfs"
    fi
    btrfs device scan --forget "$D" "$O" >/dev/null 2>&1
  else
    bad "mkfs.btrfs over $D and $O failed"
  fi
else
  echo "# mkfs.btrfs is missing (apt install btrfs-progs): the two-device btrfs case is skipped"
fi

# Hosting /: in a mount namespace of its own, the device's ext4 becomes the root of
# a chroot (with /usr, /dev, /proc, /sys and the build bound in) and the command runs
# there; for it /proc/self/mountinfo shows the device mounted at /.
fresh "$D"; ext4 "$D"
unshare -m --propagation private sleep 600 &
ns_pid=$!; bg_pids+=("$ns_pid")
# nsenter must enter the new namespace, never this one: wait until it exists.
own_ns() { [ "$(readlink "/proc/$1/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ]; }
wait_until "$ns_pid" 30 own_ns "$ns_pid" || { bad "unshare made no mount namespace ($waited_why)"; finish; }
newroot=$work/newroot
mkdir -p "$newroot"
clidir=$(cd "$(dirname "$cli")" && pwd)
if nsenter -t "$ns_pid" -m sh -ec '
     mount "$1" "$2"
     cd "$2"
     mkdir -p usr dev proc sys tmp etc "./$3"
     for l in bin sbin lib lib64; do [ -L "/$l" ] && ln -s "$(readlink "/$l")" "$l"; done
     mount --bind /usr usr
     mount --bind /etc etc
     mount --rbind /dev dev
     mount -t proc proc proc
     mount --rbind /sys sys
     mount --bind "$3" "./$3"
     for l in lib lib64; do [ -d "/$l" ] && [ ! -L "/$l" ] && mkdir -p "$l" && mount --bind "/$l" "$l"; done
     true' sh "$D" "$newroot" "$clidir"; then
  runner=(nsenter -t "$ns_pid" -m chroot "$newroot")
  root_dev=$("${runner[@]}" cat /proc/mounts | awk '$2 == "/" {print $1}')
  if [ "$root_dev" = "$D" ]; then
    try_all "hosting / (a chroot in a mount namespace)" "$D" "$D"
    read_only_control "hosting /" "$D"
  else
    bad "hosting /: inside the chroot / is $root_dev, not $D"
  fi
  runner=()
else
  bad "hosting /: could not stage the chroot"
fi
kill "$ns_pid"; wait "$ns_pid" 2>/dev/null
for i in $(seq 50); do [ -z "$(grep -l "$D" /proc/*/mountinfo 2>/dev/null | head -1)" ] && break; sleep 0.1; done

summary="$tried cases tried, $refused refused, $read_only ran reading only (no consent, nothing to erase), $bytes_changed bytes changed; $unmoved runs left the block layer's write and discard counts as they were, the others were compared byte for byte"
[ "$tried" -gt 0 ] && [ $((refused + read_only)) -eq "$tried" ] && [ "$bytes_changed" -eq 0 ] \
  && ok "safety matrix: $summary" || bad "safety matrix: $summary"
finish

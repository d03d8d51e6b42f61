#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Raw block devices: zram (a 4Kn device) and loop devices. Writes need
# --destroy-data naming the device, and are refused on anything mounted, swapped
# or partitioned-and-mounted, leaving its data intact.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-devices.sh"

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: raw-device tests need root"
  exit 77
fi

devices_snapshot
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-devices-XXXXXX")
zram_id=
loops=()
cleanup() {
  for m in "$work"/mnt*; do mountpoint -q "$m" 2>/dev/null && umount "$m"; done
  for l in "${loops[@]}"; do swapoff "$l" 2>/dev/null; losetup -d "$l" 2>/dev/null; done
  # Any loop device still over an image of ours, however it was attached.
  for img in "$work"/*.img; do
    for l in $(losetup -nO NAME -j "$img" 2>/dev/null); do losetup -d "$l"; done
  done
  if [ -n "$zram_id" ]; then
    echo 1 > /sys/block/zram$zram_id/reset
    echo "$zram_id" > /sys/class/zram-control/hot_remove 2>/dev/null
  fi
  rm -rf "$work"
  devices_check
}
trap cleanup EXIT

# ---- zram --------------------------------------------------------------------
[ -d /sys/class/zram-control ] || modprobe zram 2>/dev/null
if [ -w /sys/class/zram-control/hot_add ]; then
  zram_id=$(cat /sys/class/zram-control/hot_add)
  z=/dev/zram$zram_id
  echo 256M > /sys/block/zram$zram_id/disksize
  [ -b "$z" ] || mknod "$z" b $(tr ':' ' ' < /sys/block/zram$zram_id/dev)

  expect_fail 2 "destroy-data=$z" run --target "$z" --rw write --time 300ms
  other=$(losetup -f)
  expect_fail 1 "destroys everything" run --target "$z" --rw write --time 300ms --destroy-data=/dev/null
  expect_fail 1 "4Kn" run --target "$z" --rw randread --bs 512 --time 300ms

  if "$cli" run --target "$z" --rw write --bs 1m --qd 8 --time 500ms --destroy-data="$z" \
       --json "$work/zw.json" --quiet >/dev/null 2>"$work/err"; then
    bw=$(json_get "$work/zw.json" 'r["steps"][0]["write"]["bw_bps"]')
    kind=$(json_get "$work/zw.json" 'r["target"]["kind"]')
    [ "$kind" = device ] && ok "zram write with --destroy-data: $bw B/s" || bad "zram target kind $kind"
    # A disk in memory has no flash and no SLC cache: the write says memory instead.
    codes=$(json_get "$work/zw.json" '",".join(w["code"] for w in r["warnings"])')
    case ",$codes," in
      *,inside-slc-cache,*|*,cache-exhausted-during-test,*) bad "a disk in memory given an SLC cache's words: $codes" ;;
      *,system-cache-memory,*) ok "the zram write says it went to memory, not an SLC cache" ;;
      *) bad "the zram write does not say it went to memory: $codes" ;;
    esac
  else
    bad "zram write with --destroy-data failed: $(cat "$work/err")"
  fi

  # Reads on a device opened read-only are labelled: nobody knows what the blocks hold.
  if "$cli" run --target "$z" --rw randread --bs 4k --qd 32 --time 500ms \
       --json "$work/zr.json" --quiet >/dev/null 2>"$work/err"; then
    codes=$(json_get "$work/zr.json" '",".join(w["code"] for w in r["warnings"])')
    case ",$codes," in
      *,unverified-contents,*) ok "read-only zram read is labelled unverified-contents" ;;
      *) bad "read-only zram read not labelled: $codes" ;;
    esac
  else
    bad "zram read failed: $(cat "$work/err")"
  fi

  # With consent the engine writes what it reads first, and says so.
  if "$cli" run --target "$z" --rw randread --bs 4k --qd 32 --time 500ms --span 64m \
       --destroy-data="$z" --json "$work/zf.json" --quiet >/dev/null 2>"$work/err"; then
    pre=$(json_get "$work/zf.json" 'r["steps"][0]["conditions"]["prefilled_bytes"]')
    ver=$(json_get "$work/zf.json" 'r["steps"][0]["conditions"]["contents_verified"]')
    [ "$pre" = 67108864 ] && [ "$ver" = True ] && ok "zram read after fill: $pre bytes written first" \
      || bad "zram fill before read: prefilled=$pre verified=$ver"
  else
    bad "zram read with consent failed: $(cat "$work/err")"
  fi

  if "$cli" run --target "$z" --preset quick --runs 1 --time 200ms --max-idle 10ms --destroy-data="$z" \
       --quiet >"$work/q.txt" 2>"$work/err"; then
    rows=$(grep -cE '^(SEQ1M|RND4K)' "$work/q.txt")
    [ "$rows" -eq 6 ] && ok "quick preset on zram: 4 rows and 2 settled reads" \
                      || bad "quick on zram: $(cat "$work/q.txt")"
  else
    bad "quick preset on zram failed: $(cat "$work/err")"
  fi
else
  echo "# zram is not available here: its checks are skipped"
fi

# ---- loop devices ---------------------------------------------------------------
# new_loop NAME SIZE: a loop device over a new sparse image, in $loop_dev. Attached in
# this shell (not inside $(…)) so that the clean-up's list knows it.
new_loop() {
  local img=$work/$1.img
  loop_dev=
  truncate -s "$2" "$img"
  loop_dev=$(losetup -f --show -P "$img") || return 1
  loops+=("$loop_dev")
}

if new_loop plain 64M; then
  l1=$loop_dev
  mkfs.ext4 -q "$l1"
  mkdir "$work/mnt1" && mount "$l1" "$work/mnt1"
  head -c 4M /dev/urandom > "$work/mnt1/data"
  sum=$(md5sum < "$work/mnt1/data")
  expect_fail 1 "mounted at" run --target "$l1" --rw write --time 300ms --destroy-data="$l1"
  sync; echo 3 > /proc/sys/vm/drop_caches
  [ "$(md5sum < "$work/mnt1/data")" = "$sum" ] && ok "mounted loop: its file is unchanged" \
                                               || bad "mounted loop: data changed"
  umount "$work/mnt1"

  expect_fail 2 "destroy-data=$l1" run --target "$l1" --rw write --time 300ms
  if "$cli" run --target "$l1" --rw write --bs 128k --qd 4 --time 300ms --destroy-data="$l1" \
       --quiet >/dev/null 2>"$work/err"; then
    ok "unused loop device: write allowed with --destroy-data"
  else
    bad "unused loop device write failed: $(cat "$work/err")"
  fi

  # Erase: TRIM of the whole device; Format and Sanitize are for NVMe drives only.
  head -c 1M /dev/urandom | dd of="$l1" bs=1M oflag=direct status=none
  if "$cli" run --preset erase --target "$l1" --destroy-data="$l1" --quiet \
       --json "$work/erase.json" >/dev/null 2>"$work/err"; then
    got=$(json_get "$work/erase.json" '(r["steps"][0]["erase_method"], r["steps"][0]["erased_bytes"])')
    zeros=$(head -c 1M "$l1" | tr -d '\0' | wc -c)
    [ "$got" = "('BLKDISCARD', 67108864)" ] && [ "$zeros" -eq 0 ] \
      && ok "erase by TRIM: $got, the data reads back as zeros" || bad "erase: $got, $zeros non-zero bytes left"
  else
    bad "erase preset failed: $(cat "$work/err")"
  fi
  expect_fail 1 "not an NVMe namespace" run --preset erase --target "$l1" --destroy-data="$l1" --erase format
  expect_fail 2 "trim, format or sanitize" run --preset erase --target "$l1" --destroy-data="$l1" --erase shred

  mkswap "$l1" >/dev/null 2>&1 && swapon "$l1" && {
    expect_fail 1 "swap" run --target "$l1" --rw write --time 300ms --destroy-data="$l1"
    swapoff "$l1"
  }
fi

# A file's TRIM reaches the drive only through a filesystem mounted with discard.
if new_loop fs 128M; then
  l3=$loop_dev
  mkfs.ext4 -q "$l3"
  mkdir "$work/mnt3"
  for opt in nodiscard discard; do
    mount -o "$opt" "$l3" "$work/mnt3"
    if "$cli" run --preset trim-latency --target "$work/mnt3" --size 32m --time 200ms --max-idle 10ms --quiet \
         --json "$work/t-$opt.json" >/dev/null 2>"$work/err"; then
      got=$(json_get "$work/t-$opt.json" '[s["discard_reaches_drive"] for s in r["steps"] if s["kind"] == "trim"][0], "trim-not-passed-down" in {w["code"] for w in r["warnings"]}')
      want="(False, True)"
      [ $opt = discard ] && want="(True, False)"
      [ "$got" = "$want" ] && ok "TRIM on ext4 mounted $opt: reaches the drive and warning = $got" \
                           || bad "TRIM on ext4 mounted $opt: got $got, expected $want"
    else
      bad "trim-latency on ext4 ($opt) failed: $(cat "$work/err")"
    fi
    umount "$work/mnt3"
  done
fi

# Drive states: a folder filled to leave 128 MiB free (a hidden filler file, gone at
# the end; less is refused on this 512 MiB ext4, whose floor is a quarter of it), and
# a device erased first or filled to its last 64 MiB.
if new_loop state 512M; then
  l4=$loop_dev
  mkfs.ext4 -q "$l4"
  mkdir "$work/mnt4" && mount "$l4" "$work/mnt4"
  expect_fail 1 "nearly full" run --preset seq-qd --target "$work/mnt4" --state free:96m \
    --size 32m --time 100ms
  sync -f "$work/mnt4"
  before=$(df --output=avail -B1 "$work/mnt4" | tail -1)
  if "$cli" run --preset seq-qd --target "$work/mnt4" --state free:128m --size 32m --time 100ms --max-idle 10ms \
       --quiet --json "$work/state.json" >/dev/null 2>"$work/err"; then
    got=$(json_get "$work/state.json" 'r["conditions"]["state"]["left_free"]')
    # ext4 returns a deleted file's blocks when its journal commits: wait for that.
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      sync -f "$work/mnt4"
      after=$(df --output=avail -B1 "$work/mnt4" | tail -1)
      [ $(( before - after )) -lt 4194304 ] && break
      sleep 0.5
    done
    [ "$got" = 134217728 ] && [ -z "$(ls -A "$work/mnt4" | grep -v lost+found)" ] \
      && [ $(( before - after )) -lt 4194304 ] \
      && ok "a folder filled to leave 128 MiB free; the filler is gone afterwards" \
      || bad "folder state: left_free=$got, files: $(ls -A "$work/mnt4"), free $before → $after"
  else
    bad "folder state run failed: $(cat "$work/err")"
  fi
  # A real copy within a loop-mounted ext4: a large file, zeros, a folder of files.
  if "$cli" run --preset copy --target "$work/mnt4" --span 128m --max-idle 10ms --quiet --json "$work/copy.json" \
       >/dev/null 2>"$work/err"; then
    got=$(json_get "$work/copy.json" '[(s["kind"], s["write"]["bytes"] > 0, s.get("files", 0) > 1) for s in r["steps"]]')
    [ "$got" = "[('copy', True, False), ('copy', True, False), ('copy', True, True)]" ] \
      && [ -z "$(ls -A "$work/mnt4" | grep -v lost+found)" ] \
      && ok "copies within ext4 on a loop device; nothing left" || bad "copy on ext4: $got; $(ls -A "$work/mnt4")"
  else
    bad "copy on ext4 failed: $(cat "$work/err")"
  fi
  umount "$work/mnt4"
  if "$cli" run --preset write-fill --target "$l4" --destroy-data="$l4" --state empty,free:64m \
       --max-idle 10ms --quiet --json "$work/st.json" >"$work/out" 2>"$work/err"; then
    e=$(json_get "$work/st-empty.json" 'r["conditions"]["state"]["erased_first"]')
    f=$(json_get "$work/st-free-64m.json" '[(s["job"]["region_offset"], s["job"]["region_length"]) for s in r["steps"] if s["kind"] == "job"][0]')
    [ "$e" = True ] && [ "$f" = "(469762048, 67108864)" ] && grep -q "^Side by side" "$work/out" \
      && ok "device states: erased first; filled, the write-fill in the last 64 MiB" \
      || bad "device states: erased=$e region=$f"
  else
    bad "device states run failed: $(cat "$work/err")"
  fi
  expect_fail 2 "not a drive state" run --preset quick --target "$l4" --destroy-data="$l4" --state half
fi

if command -v sfdisk >/dev/null && new_loop parts 64M; then
  l2=$loop_dev
  printf 'label: dos\n,16M\n,\n' | sfdisk -q "$l2" >/dev/null
  partx -u "$l2" 2>/dev/null
  udevadm settle 2>/dev/null
  if [ -b "${l2}p1" ]; then
    mkfs.ext4 -q "${l2}p1"
    mkdir "$work/mnt2" && mount "${l2}p1" "$work/mnt2"
    expect_fail 1 "${l2#/dev/}p1 is mounted" run --target "$l2" --rw write --time 300ms --destroy-data="$l2"
    umount "$work/mnt2"
  else
    echo "# partitions of $l2 did not appear: partition check skipped"
  fi
fi

finish

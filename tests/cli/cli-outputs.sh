#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Where results, job files, charts and sheets go: a device given as the output is
# refused and left as it was (a loop device, by a node of the test's own and through
# links named .png and .pdf); the null device and a pipe are written into, not
# replaced by a file (a run's --json /dev/null once put a regular file where the null
# device was); a link to a file keeps being a link, its target replaced whole. Root
# (mknod, losetup); skips (77) without it. Nothing is left behind.
set -u
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (mknod, losetup)"; exit 77; }
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-outputs-XXXXXX")
loop=""
cleanup() {
  [ -n "$loop" ] && losetup -d "$loop"
  rm -rf "$work"
}
trap cleanup EXIT
data=$(dirname "$0")/../data/review-loop.json

# A loop device over 1 MiB of known bytes.
head -c 1m /dev/urandom > "$work/disk.img"
sum_before=$(sha256sum < "$work/disk.img")
loop=$(losetup -f --show "$work/disk.img") || { bad "losetup failed"; finish; }
# A node of our own for it: were the output ever replaced, /dev would keep its own.
dev=$work/disk
mknod "$dev" b $(lsblk -dno MAJ:MIN "$loop" | tr ':' ' ')
head -c 1 "$dev" > /dev/null 2>&1 || { echo "SKIP: device nodes do not open in $work (nodev)"; exit 77; }
ln -s "$dev" "$work/chart.png"
ln -s "$dev" "$work/sheet.pdf"
expect_fail 1 'is not a file' export-fio --preset quick --target "$work" --out "$dev"
expect_fail 1 'is not a file' import "$(dirname "$0")/../data/fio/multi.json" --json "$dev"
expect_fail 1 'is not a file' chart "$data" --out "$work/chart.png"
expect_fail 1 'is not a file' sheet "$data" --out "$work/sheet.pdf"
# Before the run, not after it: nothing is measured for a result that cannot be saved.
expect_fail 2 'is not a file' run --target "$work" --size 16m --rw randread --qd 1 --time 1s --quiet --json "$dev"
sync
[ -b "$dev" ] && [ "$(sha256sum < "$dev")" = "$sum_before" ] && [ -L "$work/chart.png" ] \
  && ok "the loop device's bytes are as they were, the links still links" \
  || bad "the loop device changed or a link was replaced"
losetup -d "$loop"; loop=""

# The null device (a node of our own) and a pipe: written into.
mknod "$work/null" c 1 3
"$cli" export-fio --preset quick --target "$work" --out "$work/null" > /dev/null 2>&1 \
  && "$cli" run --target "$work" --size 16m --rw randread --qd 1 --time 1s --quiet --json "$work/null" > /dev/null 2>&1 \
  && [ -c "$work/null" ] && ok "export-fio and run --json into the null device: it stays the null device" \
  || bad "the null device: $(ls -l "$work/null")"
mkfifo "$work/pipe"
cat "$work/pipe" > "$work/from-pipe.fio" &
reader=$!
"$cli" export-fio --preset quick --target "$work" --out "$work/pipe" > /dev/null 2>&1
rc=$?
wait $reader
[ $rc -eq 0 ] && [ -p "$work/pipe" ] && grep -q '^\[global\]' "$work/from-pipe.fio" \
  && ok "export-fio into a pipe: the job file came through it" \
  || bad "export-fio into a pipe: exit $rc, $(head -c 200 "$work/from-pipe.fio")"

# A link to a file: the file is replaced, the link stays.
echo old > "$work/target.json"
ln -s target.json "$work/link.json"
"$cli" import "$(dirname "$0")/../data/fio/multi.json" --json "$work/link.json" > /dev/null 2>&1 \
  && [ -L "$work/link.json" ] && grep -q '"schema"' "$work/target.json" \
  && ok "import --json through a link: the link stays, its file holds the result" \
  || bad "through a link: $(ls -l "$work") $(head -c 100 "$work/target.json")"
finish

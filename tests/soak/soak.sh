#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Soak benchmark (not a CI test): one long degradation-style random-write job with fine
# sampling (100 ms), to show that resident memory stays flat. The sample series is
# bounded (neighbours merge pairwise when full), and nothing else grows with time, so
# the RSS at the end should equal the RSS a minute in.
#
# Usage: tests/soak/soak.sh [DURATION] [zram|null|DIR]
#   DURATION  the job's length, nandscope-cli's syntax (default 1h)
#   zram      a 2 GiB zram device, written raw (root; the default when root)
#   null      the engine's null backend on a small file: no system calls, only the
#             engine's own cost, so the longest stretch of samples per second
#   DIR       a folder: a 1 GiB test file there, io_uring
# Environment: NANDSCOPE_CLI (default build/src/cli/nandscope-cli), SOAK_EVERY
# (seconds between RSS readings, default 60), SOAK_JSON (where to keep the result).
#
# Prints one line per reading (elapsed s, VmRSS and VmHWM in KiB), then
# "RSS start X KiB, end Y KiB, growth Z KiB" and exits 1 when the growth after the first
# reading passes 2 MiB, or when the run failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cli=${NANDSCOPE_CLI:-$here/../../build/src/cli/nandscope-cli}
duration=${1:-1h}
mode=${2:-}
every=${SOAK_EVERY:-60}
[ -n "$mode" ] || { [ "$(id -u)" -eq 0 ] && mode=zram || mode=null; }

work=$(mktemp -d /var/tmp/nsc-soak-XXXXXX)
json=${SOAK_JSON:-$work/soak.json}
zram_dev=
cleanup() {
  [ -n "${pid:-}" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  if [ -n "$zram_dev" ]; then
    echo 1 > "/sys/block/$(basename "$zram_dev")/reset" 2>/dev/null
    [ -n "${zram_id:-}" ] && echo "$zram_id" > /sys/class/zram-control/hot_remove 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

job=(--rw randwrite --bs 4k --qd 32 --time "$duration" --interval 100ms --quiet --json "$json")
case $mode in
  zram)
    # A zram device of our own (hot_add), so that no other user's zram is touched.
    modprobe zram 2>/dev/null
    if [ -e /sys/class/zram-control/hot_add ]; then
      zram_id=$(cat /sys/class/zram-control/hot_add)
      zram_dev=/dev/zram$zram_id
    else
      zram_dev=/dev/zram0
    fi
    name=$(basename "$zram_dev")
    echo 2G > "/sys/block/$name/disksize" || exit 1
    if [ ! -b "$zram_dev" ]; then
      IFS=: read -r maj min < "/sys/block/$name/dev"
      mknod "$zram_dev" b "$maj" "$min"
    fi
    args=(--target "$zram_dev" --destroy-data="$zram_dev" --span 1g)
    ;;
  null) args=(--target "$work" --size 64m --backend null) ;;
  *)    args=(--target "$mode" --size 1g) ;;
esac

echo "soak: $cli run ${args[*]} ${job[*]}"
"$cli" run "${args[@]}" "${job[@]}" > "$work/out.txt" 2> "$work/err.txt" &
pid=$!
t0=$(date +%s)

rss() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$pid/status" 2>/dev/null; }

start=
last=
# The first reading after 10 s (preparation done, buffers and rings allocated), then
# every SOAK_EVERY seconds until the process ends.
sleep 10
next=10
while kill -0 "$pid" 2>/dev/null; do
  now=$(( $(date +%s) - t0 ))
  if [ "$now" -ge "$next" ]; then
    r=$(rss VmRSS); h=$(rss VmHWM)
    if [ -n "$r" ]; then
      printf 'soak: t=%5d s  VmRSS %7d KiB  VmHWM %7d KiB\n' "$now" "$r" "$h"
      [ -n "$start" ] || start=$r
      last=$r
    fi
    next=$(( (now / every + 1) * every ))
  fi
  sleep 1
done
wait "$pid"
rc=$?
pid=
elapsed=$(( $(date +%s) - t0 ))

cat "$work/err.txt" >&2
if [ "$rc" -ne 0 ]; then
  echo "soak: the run failed (exit $rc) after $elapsed s"
  exit 1
fi
samples=$(python3 -c 'import json,sys
r=json.load(open(sys.argv[1])); s=r["steps"][-1]["series"]
print(len(s["t_ns"]), s["interval_ns"]/1e6)' "$json" 2>/dev/null)
echo "soak: ran $elapsed s; the result's series holds ${samples% *} samples of ${samples#* } ms"
growth=$(( last - start ))
echo "soak: RSS start $start KiB, end $last KiB, growth $growth KiB"
[ "$growth" -le 2048 ] || { echo "soak: FAIL: resident memory grew by $growth KiB"; exit 1; }
echo "soak: ok, resident memory stayed flat"

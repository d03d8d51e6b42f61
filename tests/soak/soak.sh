#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Soak benchmark (not a CI test): one long degradation-style random-write job with fine
# sampling (100 ms), to show that resident memory stays flat. The sample series is
# bounded (neighbours merge pairwise when full), and nothing else grows with time, so
# the RSS at the end should equal the RSS a minute in.
#
# Usage: tests/soak/soak.sh [DURATION] [zram|null|app|DIR]
#   DURATION  the job's length, nandscope-cli's syntax: 600s, 10m, 2h (default 1h)
#   zram      a 2 GiB zram device of its own (hot_add), written raw (root; the default
#             when root); auto runs psync threads there (zram refuses NOWAIT)
#   null      the engine's null backend on a small file: no system calls, only the
#             engine's own cost, so the longest stretch of samples per second
#   app       the desktop app, scripted (--preset quick --runs 1 --time DURATION/10
#             --run --quit-when-done: ten tests back to back) under Xvfb, its live chart
#             fed every sample, on a 1 GiB file in a folder of its own; run as nobody
#             when root (the app refuses root)
#   DIR       a folder: a 1 GiB test file there, io_uring
# Environment: NANDSCOPE_CLI (default build/src/cli/nandscope-cli), NANDSCOPE_APP
# (default build/src/gui/nandscope), SOAK_EVERY (seconds between RSS readings, default
# 60), SOAK_JSON (where to keep the result). Run it at low priority on a shared
# machine: nice -n 19 tests/soak/soak.sh 10m zram
#
# Prints one line per reading (elapsed s, VmRSS and VmHWM in KiB), then
# "RSS start X KiB, end Y KiB, growth Z KiB" and exits 1 when the growth after the first
# reading passes 2 MiB, or when the run failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cli=${NANDSCOPE_CLI:-$here/../../build/src/cli/nandscope-cli}
app=${NANDSCOPE_APP:-$here/../../build/src/gui/nandscope}
duration=${1:-1h}
mode=${2:-}
every=${SOAK_EVERY:-60}
[ -n "$mode" ] || { [ "$(id -u)" -eq 0 ] && mode=zram || mode=null; }

# DURATION in seconds (the app mode stops the app itself).
case $duration in
  *h) dur_s=$(( ${duration%h} * 3600 )) ;;
  *m) dur_s=$(( ${duration%m} * 60 )) ;;
  *s) dur_s=${duration%s} ;;
  *)  dur_s=$duration ;;
esac
case $dur_s in ''|*[!0-9]*) echo "soak: cannot read the duration $duration; use 600s, 10m or 2h"; exit 2 ;; esac

work=$(mktemp -d /var/tmp/nsc-soak-XXXXXX)
json=${SOAK_JSON:-$work/soak.json}
zram_dev=
xvfb_pid=
cleanup() {
  [ -n "${rss_pid:-}" ] && [ "${rss_pid:-}" != "${pid:-}" ] && kill -TERM "$rss_pid" 2>/dev/null
  [ -n "${pid:-}" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
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
  app)
    for tool in Xvfb dbus-run-session python3; do
      command -v "$tool" >/dev/null || { echo "soak: the app mode needs $tool"; exit 1; }
    done
    [ -x "$app" ] || { echo "soak: no desktop app at $app (NANDSCOPE_APP)"; exit 1; }
    ;;
  *)    args=(--target "$mode" --size 1g) ;;
esac

# The process whose memory is read: the CLI, or the app under dbus-run-session.
rss_pid=
t0=$(date +%s)
if [ "$mode" = app ]; then
  mkdir -p "$work/target" "$work/home" "$work/data"
  as_user=()
  if [ "$(id -u)" -eq 0 ]; then
    chmod 0755 "$work"
    chown nobody "$work/target" "$work/home" "$work/data"
    as_user=(runuser -u nobody --)
  fi
  for n in $(seq 80 89); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=$n; break; fi
  done
  [ -n "${display:-}" ] || { echo "soak: no free X display in :80..:89"; exit 1; }
  Xvfb ":$display" -screen 0 1280x800x24 -nolisten tcp > "$work/xvfb.log" 2>&1 &
  xvfb_pid=$!
  for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done
  step_s=$(( dur_s / 10 ))
  [ "$step_s" -ge 1 ] || step_s=1
  echo "soak: $app --target $work/target --preset quick --runs 1 --time ${step_s}s --size 1g --run --quit-when-done (Xvfb :$display)"
  "${as_user[@]}" dbus-run-session -- env HOME="$work/home" DISPLAY=":$display" GDK_BACKEND=x11 \
    GSK_RENDERER=cairo NO_AT_BRIDGE=1 GTK_A11Y=none GSETTINGS_BACKEND=memory \
    XDG_DATA_HOME="$work/data" G_MESSAGES_DEBUG=all \
    "$app" --target "$work/target" --preset quick --runs 1 --time "${step_s}s" --size 1g \
    --run --quit-when-done > "$work/out.txt" 2> "$work/err.txt" &
  pid=$!
  # The app is a descendant of runuser and dbus-run-session: find it by its parent chain.
  for _ in $(seq 100); do
    rss_pid=$(descendant=$pid; for p in $(seq 4); do
      c=$(ps -o pid= --ppid "$descendant" 2>/dev/null | tail -n 1 | tr -d ' ')
      [ -n "$c" ] || break; descendant=$c
      [ "$(cat "/proc/$c/comm" 2>/dev/null)" = nandscope ] && { echo "$c"; break; }
    done)
    [ -n "$rss_pid" ] && break
    sleep 0.1
  done
  [ -n "$rss_pid" ] || { echo "soak: the app did not start"; cat "$work/err.txt"; exit 1; }
else
  echo "soak: $cli run ${args[*]} ${job[*]}"
  "$cli" run "${args[@]}" "${job[@]}" > "$work/out.txt" 2> "$work/err.txt" &
  pid=$!
  rss_pid=$pid
fi

rss() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$rss_pid/status" 2>/dev/null; }

start=
last=
readings=()
# The first reading after 10 s (60 s for the app) (preparation done, buffers and rings allocated), then
# every SOAK_EVERY seconds until the process ends.
first=10
[ "$mode" = app ] && first=60   # the app: after its 1 GiB file is written and the job runs
sleep "$first"
next=$first
stopped=0
while kill -0 "$pid" 2>/dev/null; do
  now=$(( $(date +%s) - t0 ))
  if [ "$mode" = app ] && [ "$now" -ge $(( dur_s * 2 + 600 )) ] && [ "$stopped" = 0 ]; then
    # Far past its time: stop it, and fail below.
    echo "soak: the app is still running after $now s; stopping it"
    kill -TERM "$rss_pid" 2>/dev/null
    stopped=1
  fi
  [ "$stopped" = 1 ] && { sleep 1; continue; }
  if [ "$now" -ge "$next" ]; then
    r=$(rss VmRSS); h=$(rss VmHWM)
    if [ -n "$r" ]; then
      printf 'soak: t=%5d s  VmRSS %7d KiB  VmHWM %7d KiB\n' "$now" "$r" "$h"
      [ -n "$start" ] || start=$r
      last=$r
      readings+=("$r")
    fi
    next=$(( (now / every + 1) * every ))
  fi
  sleep 1
done
wait "$pid"
rc=$?
pid=
elapsed=$(( $(date +%s) - t0 ))

if [ "$mode" = app ]; then
  grep -v -e '^(nandscope:[0-9]*): [A-Za-z-]*-DEBUG' "$work/err.txt" | grep -v -e '^$' | tail -n 5 >&2
  chart=$(cat "$work/out.txt" "$work/err.txt" | grep -o 'Live chart: .*' | tail -n 1)
  echo "soak: the app ran $elapsed s, exit $rc; ${chart:-no live chart line}"
  [ "$rc" -eq 0 ] || { echo "soak: FAIL: the app's run failed"; exit 1; }
  [ -n "$chart" ] || { echo "soak: FAIL: the live chart was not fed"; exit 1; }
  [ "${#readings[@]}" -ge 2 ] || { echo "soak: FAIL: fewer than two memory readings"; exit 1; }
  # The app's tests differ (a 1 MiB QD8 test holds 8 MiB of buffers a 4 KiB QD1 test
  # does not), so compare the lowest reading of each half: a leak lifts both.
  half=$(( ${#readings[@]} / 2 ))
  low1=$(printf '%s\n' "${readings[@]:0:$half}" | sort -n | head -n 1)
  low2=$(printf '%s\n' "${readings[@]:$half}" | sort -n | head -n 1)
  growth=$(( low2 - low1 ))
  echo "soak: RSS start $start KiB, end $last KiB; lowest of the first half $low1 KiB, of the second $low2 KiB, growth $growth KiB"
  [ "$growth" -le 2048 ] || { echo "soak: FAIL: resident memory grew by $growth KiB"; exit 1; }
  echo "soak: ok, resident memory stayed flat"
  exit 0
fi
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

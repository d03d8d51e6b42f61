#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# When io_uring is refused the engine falls back to psync by itself and says so;
# asked for io_uring explicitly, it fails plainly. An ordinary user's 8 MiB
# memlock limit makes registered buffers fail: I/O still runs, unregistered.
set -u
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || [ ! -w /proc/sys/kernel/io_uring_disabled ]; then
  echo "SKIP: needs root and kernel.io_uring_disabled (Linux 6.6+)"
  exit 77
fi

work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-fallback-XXXXXX")
chmod 0777 "$work"
saved=$(cat /proc/sys/kernel/io_uring_disabled)
trap 'echo "$saved" > /proc/sys/kernel/io_uring_disabled; rm -rf "$work"' EXIT

job=(run --target "$work" --rw randread --bs 4k --qd 8 --time 300ms --size 16m --quiet)

echo 2 > /proc/sys/kernel/io_uring_disabled
if "$cli" "${job[@]}" --json "$work/auto.json" >/dev/null 2>"$work/err"; then
  backend=$(json_get "$work/auto.json" 'r["steps"][0]["backend"]')
  codes=$(json_get "$work/auto.json" '",".join(w["code"] for w in r["warnings"])')
  [ "$backend" = psync ] && ok "io_uring disabled: psync ran" || bad "io_uring disabled: backend $backend"
  case ",$codes," in
    *,backend-fallback,*) ok "the fallback is reported" ;;
    *) bad "no backend-fallback warning: $codes" ;;
  esac
else
  bad "auto backend with io_uring disabled failed: $(cat "$work/err")"
fi
expect_fail 1 "io_uring is not available" "${job[@]}" --backend io_uring
echo "$saved" > /proc/sys/kernel/io_uring_disabled

# As an ordinary user: 8 × 1 MiB buffers exceed nothing, 32 × 1 MiB exceed 8 MiB.
big=(run --target "$work" --rw read --bs 1m --qd 32 --time 300ms --size 64m --quiet)
small=(run --target "$work" --rw read --bs 4k --qd 4 --time 300ms --size 16m --quiet)
if command -v runuser >/dev/null; then
  for case in big small; do
    declare -n args=$case
    if runuser -u nobody -- "$cli" "${args[@]}" --json "$work/$case.json" >/dev/null 2>"$work/err"; then
      reg=$(json_get "$work/$case.json" 'r["steps"][0]["runs"][0]["registered_buffers"]')
      bw=$(json_get "$work/$case.json" 'r["steps"][0]["read"]["bw_bps"]')
      want=True
      [ $case = big ] && want=False
      [ "$reg" = $want ] && ok "as nobody, $case buffers: registered=$reg, $bw B/s" \
                         || bad "as nobody, $case buffers: registered=$reg, expected $want"
    else
      bad "as nobody, $case buffers failed: $(cat "$work/err")"
    fi
  done
fi

finish

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

# As an ordinary user with an 8 MiB memlock limit: 4 × 4 KiB buffers fit, 32 × 1 MiB
# do not. The limit is counted per user across every process, and a ring's pages
# are released after its process exits; so each run is a user id of its own that
# nothing else on the machine uses, with the limit set here, not taken from PAM.
# io_uring is asked for by name: where the folder's file completes reads inside the
# submitting call, auto would choose psync threads, which register nothing.
big=(run --target "$work" --rw read --bs 1m --qd 32 --time 300ms --size 64m --quiet --backend io_uring)
small=(run --target "$work" --rw read --bs 4k --qd 4 --time 300ms --size 16m --quiet --backend io_uring)
fresh_uid() {
  local uid
  while :; do
    uid=$((200000 + RANDOM * 32 + RANDOM % 32))
    getent passwd "$uid" >/dev/null && continue
    ps -e -o uid= | grep -qx " *$uid" && continue
    echo "$uid"
    return
  done
}
if command -v setpriv >/dev/null; then
  for case in small big; do
    declare -n args=$case
    uid=$(fresh_uid)
    if (ulimit -l 8192 && setpriv --reuid="$uid" --regid="$uid" --clear-groups --           "$cli" "${args[@]}" --json "$work/$case.json") >/dev/null 2>"$work/err"; then
      reg=$(json_get "$work/$case.json" 'r["steps"][0]["runs"][0]["registered_buffers"]')
      bw=$(json_get "$work/$case.json" 'r["steps"][0]["read"]["bw_bps"]')
      how=$(json_get "$work/$case.json" 'r["steps"][0]["backend"] + " " + ",".join(w["code"] for w in r["warnings"])')
      want=True
      [ $case = big ] && want=False
      [ "$reg" = $want ] && [ "${how%% *}" = io_uring ] && ok "as user $uid, $case buffers: registered=$reg, $bw B/s" \
                         || bad "as user $uid, $case buffers: registered=$reg, expected $want ($how)"
    else
      bad "as user $uid, $case buffers failed: $(cat "$work/err")"
    fi
  done
fi

finish

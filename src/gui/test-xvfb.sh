# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the gui tests: start_xvfb LOG [FIRST] starts Xvfb on a display nobody uses
# (:FIRST to :FIRST+9, FIRST 90 by default), waits for its socket, and sets $display and $xvfb_pid (the caller's
# cleanup kills it). Exits 99 (meson: hard error) when it cannot.
start_xvfb () {
  local log=$1 first=${2:-90} n
  display=
  for n in $(seq "$first" $((first + 9))); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then
      display=$n
      break
    fi
  done
  [ -n "$display" ] || { echo "ERROR: no free X display in :$first..:$((first + 9))"; exit 99; }

  Xvfb ":$display" -screen 0 1280x800x24 -nolisten tcp >"$log" 2>&1 &
  xvfb_pid=$!
  for _ in $(seq 100); do
    [ -e "/tmp/.X11-unix/X$display" ] && break
    kill -0 "$xvfb_pid" 2>/dev/null || { cat "$log"; echo "ERROR: Xvfb did not start"; exit 99; }
    sleep 0.1
  done
  [ -e "/tmp/.X11-unix/X$display" ] || { echo "ERROR: Xvfb did not open :$display"; exit 99; }
}

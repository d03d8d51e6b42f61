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

# need_tools TOOL…: exits 77 (meson: skipped) when one is not installed.
need_tools () {
  local tool
  for tool in "$@"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "SKIP: $tool is not installed"
      exit 77
    fi
  done
}

# as_nobody_when_root TMP DIR…: the app refuses root, so as root the test runs as
# nobody: TMP becomes traversable, the DIRs nobody's, and $as_user the prefix of a
# command (empty when not root). Exits 77 without runuser.
as_nobody_when_root () {
  local tmp=$1
  shift
  as_user=()
  if [ "$(id -u)" -eq 0 ]; then
    command -v runuser >/dev/null || { echo "SKIP: runuser is needed to test as a user"; exit 77; }
    chmod 0755 "$tmp"
    chown nobody "$@"
    as_user=(runuser -u nobody --)
  fi
}

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs a GTK test program (TAP) on an Xvfb display of its own, with a session bus and
# an empty home, and passes its exit status on.
#   test-widgets.sh PROGRAM [ARGS…]

set -u
for tool in Xvfb dbus-run-session; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP $tool is not installed"
    exit 0
  fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nsc-gui-widgets.XXXXXX")
xvfb_pid=
cleanup () {
  if [ -n "$xvfb_pid" ]; then
    kill "$xvfb_pid" 2>/dev/null
    wait "$xvfb_pid" 2>/dev/null
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/test-xvfb.sh"
start_xvfb "$tmp/xvfb.log" 70
mkdir -p "$tmp/home" "$tmp/data" "$tmp/config" "$tmp/cache"

env HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" \
  XDG_CACHE_HOME="$tmp/cache" DISPLAY=":$display" GDK_BACKEND=x11 GSK_RENDERER=cairo \
  NO_AT_BRIDGE=1 GTK_A11Y=none GSETTINGS_SCHEMA_DIR="$tmp/no-schemas" LANG=C.UTF-8 \
  dbus-run-session -- "$@"

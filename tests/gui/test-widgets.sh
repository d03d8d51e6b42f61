#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs a GTK test program (TAP) on an Xvfb display of its own, with a session bus and
# an empty home (test-gui-lib.sh's gui_setup), and passes its exit status on.
#   test-widgets.sh PROGRAM [ARGS…]

set -u
for tool in Xvfb dbus-run-session python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP $tool is not installed"
    exit 0
  fi
done

. "$(dirname "$0")/test-gui-lib.sh"
gui_setup widgets 70
env "${gui_base_env[@]}" GSETTINGS_SCHEMA_DIR="$tmp/no-schemas" LANG=C.UTF-8 \
  dbus-run-session -- "$@"

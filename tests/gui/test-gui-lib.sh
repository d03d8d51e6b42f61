# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the gui suite's scripts. For every test of the whole app:
#   gui_setup NAME [FIRST]  skips (77) without Xvfb, dbus-run-session or python3 (or the
#                         tools in $gui_tools); a temporary folder $tmp with $target,
#                         $data, $home and $out ($results: where the app saves), nobody's
#                         when we are root ($as_user runs a command as nobody); Xvfb on a
#                         free display from :FIRST (test-xvfb.sh); $gui_env the app's
#                         environment for env(1) ($gui_base_env without
#                         G_DEBUG=fatal-criticals, as the walks run it); all removed at exit (gui_cleanup, which
#                         calls gui_cleanup_more first when the script defines it)
# For the scripted walks (test-gui-walk-*.sh):
#   fail MESSAGE…         says FAIL and what the app said in $log (its own lines, not
#                         the bus's), and exits 1; a script may define its own
#   walk_setup EXE NAME   gui_setup, and $shots for the walk's screenshots
#   walk LOG SCRIPT ARGS… the app with --script (nandscope-test; see tests/gui/nsc-script.c), as a user would
#   section LOG TAG       the lines of the "dump TAG" in LOG
#   expect / expect_not LOG TAG REGEX WHAT   an assertion on a dump, counted in $failed
#   expect_line LOG PATTERN WHAT              a line of the whole LOG matches (grep BRE)
# Screenshots and the walks' logs go to $NSC_GUI_SHOTS/NAME (default: the build
# folder's gui-shots/).

set -u

. "$(dirname "${BASH_SOURCE[0]}")/test-xvfb.sh"

# The folders and the user, without Xvfb (gui_setup and walk_setup start it).
gui_folders () {
  # shellcheck disable=SC2086
  need_tools ${gui_tools:-Xvfb dbus-run-session python3}
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/nsc-gui-$1.XXXXXX")
  target=$tmp/target
  data=$tmp/data
  home=$tmp/home
  out=$tmp/out
  results=$data/nandscope/results
  mkdir -p "$target" "$data" "$home" "$out"
  xvfb_pid=
  as_nobody_when_root "$tmp" "$target" "$data" "$home" "$out"
}

gui_setup () {
  gui_folders "$1"
  trap gui_cleanup EXIT
  start_xvfb "$tmp/xvfb.log" "${2:-90}"
  gui_environment
}

# $gui_base_env and $gui_env, once Xvfb has its display.
gui_environment () {
  gui_base_env=(HOME="$home" DISPLAY=":$display" GDK_BACKEND=x11 GSK_RENDERER=cairo NO_AT_BRIDGE=1
                GTK_A11Y=none GSETTINGS_BACKEND=memory XDG_DATA_HOME="$data")
  gui_env=("${gui_base_env[@]}" G_DEBUG=fatal-criticals)
}

log=
fail () {
  echo "FAIL: $*"
  if [ -n "$log" ] && [ -s "$log" ]; then
    echo "--- output"
    grep -v -e '^dbus-daemon' -e 'dconf' -e 'portal' -e 'pw.conf' -e '^$' "$log" | head -40
  fi
  exit 1
}

gui_cleanup () {
  if declare -F gui_cleanup_more >/dev/null; then
    gui_cleanup_more
  fi
  if [ -n "$xvfb_pid" ]; then
    kill "$xvfb_pid" 2>/dev/null
    wait "$xvfb_pid" 2>/dev/null
  fi
  rm -rf "$tmp"
}

walk_setup () {
  exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  walk_name=$2
  gui_folders "$walk_name"
  shots=${NSC_GUI_SHOTS:-$(dirname "$(dirname "$(dirname "$exe")")")/gui-shots}/$walk_name
  mkdir -p "$shots"
  shots=$(cd "$shots" && pwd)
  [ "$(id -u)" -ne 0 ] || chmod 0777 "$shots"
  failed=0
  walk_env=()
  trap walk_cleanup EXIT
  start_xvfb "$tmp/xvfb.log" 60
  gui_environment
}

walk_cleanup () {
  gui_cleanup
}

# walk LOG SCRIPT ARGS...: SCRIPT is text; LANG=C.UTF-8 unless $walk_lang is set;
# $walk_env holds more VAR=value for the app.
walk () {
  local log=$1 script=$2
  shift 2
  printf '%s\n' "$script" >"$tmp/script.txt"
  chmod 0644 "$tmp/script.txt"
  timeout 280 "${as_user[@]}" dbus-run-session -- env "${gui_base_env[@]}" LANG="${walk_lang:-C.UTF-8}" \
    DBUS_SYSTEM_BUS_ADDRESS="unix:path=$tmp/no-system-bus" ${walk_env[@]+"${walk_env[@]}"} \
    "$exe" --script "$tmp/script.txt" "$@" >"$log" 2>&1
  local status=$?
  cp "$log" "$shots/" 2>/dev/null
  if [ "$status" -ne 0 ] || grep -q "script: error" "$log"; then
    echo "FAIL: the walk did not go through (status $status):"
    grep -E "script: error|CRITICAL|WARNING" "$log" | head -20
    failed=1
  fi
  return 0
}

section () {
  awk -v tag="== dump $2" '$0 == tag { on = 1; next } on && /^== end$/ { exit } on' "$1"
}

expect () {
  local log=$1 tag=$2 regex=$3 what=$4
  if section "$log" "$tag" | grep -Eq -- "$regex"; then
    echo "ok: $what"
  else
    echo "FAIL: $what (no /$regex/ in the dump $tag)"
    failed=1
  fi
}

expect_not () {
  local log=$1 tag=$2 regex=$3 what=$4 hit
  hit=$(section "$log" "$tag" | grep -E -m1 -- "$regex")
  if [ -z "$hit" ]; then
    echo "ok: $what"
  else
    echo "FAIL: $what: $hit"
    failed=1
  fi
}

# expect_line LOG PATTERN WHAT: a line anywhere in LOG matches PATTERN (grep's basic
# regular expression), counted in $failed like expect.
expect_line () {
  local log=$1 pattern=$2 what=$3
  if grep -q -- "$pattern" "$log"; then
    echo "ok: $what"
  else
    echo "FAIL: $what (no /$pattern/ in $(basename "$log"))"
    failed=1
  fi
}

walk_done () {
  [ "$failed" -eq 0 ] || exit 1
  echo "PASS"
}

# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the scripted walks of the gui suite (test-gui-walk-*.sh):
#   walk_setup EXE NAME   a temporary folder ($tmp, $target, $data, $home, $shots), the app
#                         run as nobody when we are root, Xvfb; skips (77) without the tools
#   walk LOG SCRIPT ARGS… the app with --script (see src/gui/nsc-script.c), as a user would
#   section LOG TAG       the lines of the "dump TAG" in LOG
#   expect / expect_not LOG TAG REGEX WHAT   an assertion on a dump, counted in $failed
# Screenshots and the walks' logs go to $NSC_GUI_SHOTS/NAME (default: the build
# folder's gui-shots/).

set -u

walk_setup () {
  exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  walk_name=$2
  for tool in Xvfb dbus-run-session python3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "SKIP: $tool is not installed"
      exit 77
    fi
  done
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/nsc-gui-$walk_name.XXXXXX")
  target=$tmp/target
  data=$tmp/data
  home=$tmp/home
  shots=${NSC_GUI_SHOTS:-$(dirname "$(dirname "$(dirname "$exe")")")/gui-shots}/$walk_name
  mkdir -p "$target" "$data" "$home" "$shots" "$tmp/out"
  shots=$(cd "$shots" && pwd)
  xvfb_pid=
  failed=0
  walk_env=()
  as_user=()
  if [ "$(id -u)" -eq 0 ]; then
    command -v runuser >/dev/null || { echo "SKIP: runuser is needed to test as a user"; exit 77; }
    chmod 0755 "$tmp"
    chown nobody "$target" "$data" "$home" "$tmp/out"
    chmod 0777 "$shots"
    as_user=(runuser -u nobody --)
  fi
  trap walk_cleanup EXIT
  . "$(dirname "$0")/test-xvfb.sh"
  start_xvfb "$tmp/xvfb.log" 60
}

walk_cleanup () {
  if [ -n "$xvfb_pid" ]; then
    kill "$xvfb_pid" 2>/dev/null
    wait "$xvfb_pid" 2>/dev/null
  fi
  rm -rf "$tmp"
}

# walk LOG SCRIPT ARGS...: SCRIPT is text; LANG=C.UTF-8 unless $walk_lang is set;
# $walk_env holds more VAR=value for the app.
walk () {
  local log=$1 script=$2
  shift 2
  printf '%s\n' "$script" >"$tmp/script.txt"
  chmod 0644 "$tmp/script.txt"
  timeout 280 "${as_user[@]}" dbus-run-session -- env \
    HOME="$home" DISPLAY=":$display" GDK_BACKEND=x11 GSK_RENDERER=cairo NO_AT_BRIDGE=1 \
    GTK_A11Y=none GSETTINGS_BACKEND=memory XDG_DATA_HOME="$data" LANG="${walk_lang:-C.UTF-8}" \
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

walk_done () {
  [ "$failed" -eq 0 ] || exit 1
  echo "PASS"
}

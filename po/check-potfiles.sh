#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# po/POTFILES.in must list every file with strings to translate, and only files
# that exist:
#   check-potfiles.sh SOURCE_ROOT [--without PATH]
# Files with strings: src/*/*.[ch] (every library, the command line and the app) and
# po/preset-strings.c (the presets' titles and descriptions) with
# _( N_( C_( NC_( ngettext or g_dngettext; ui/*.ui
# with translatable="yes"; data/*.in and data/*.xml with the same markers, or
# translated whole by their ITS rules (desktop entries, AppStream metadata, GSettings
# schemas with a summary or description). --without drops PATH from the list first,
# to show that the check fails when a file is missing. Exit 1 with the files named.

set -u

root=${1:?usage: check-potfiles.sh SOURCE_ROOT [--without PATH]}
shift
without=
if [ "${1:-}" = "--without" ]; then
  without=${2:?--without needs a path}
fi

potfiles=$root/po/POTFILES.in
[ -r "$potfiles" ] || { echo "FAIL: cannot read $potfiles"; exit 1; }

listed=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$potfiles" | grep -vxF -e "${without:-/nonexistent/}" | sort -u)

cd "$root" || exit 1
code_markers='(^|[^A-Za-z0-9_])(N?C?_|g_dn?gettext|g_dpgettext2?|ngettext)[[:space:]]*\('
needed=$(
  {
    for f in src/*/*.c src/*/*.h po/*.c; do
      [ -e "$f" ] && grep -Eq "$code_markers" "$f" && echo "$f"
    done
    for f in ui/*.ui; do
      [ -e "$f" ] && grep -q 'translatable="yes"' "$f" && echo "$f"
    done
    for f in data/*.in data/*.xml; do
      [ -e "$f" ] || continue
      case $f in
        *.desktop.in) grep -Eq '^(Name|GenericName|Comment|Keywords)=' "$f" && echo "$f" ;;
        *.metainfo.xml.in|*.appdata.xml.in) grep -Eq '<(name|summary|description|caption|p)[ >]' "$f" && echo "$f" ;;
        *.gschema.xml) grep -Eq '<(summary|description)[ >]' "$f" && echo "$f" ;;
        *) grep -Eq -e "$code_markers" -e 'translatable="yes"' "$f" && echo "$f" ;;
      esac
    done
  } | sort -u
)

status=0
missing=$(comm -23 <(printf '%s\n' "$needed") <(printf '%s\n' "$listed") | sed '/^$/d')
if [ -n "$missing" ]; then
  echo "FAIL: files with translatable strings missing from po/POTFILES.in:"
  printf '  %s\n' $missing
  status=1
fi
for f in $listed; do
  if [ ! -e "$f" ]; then
    echo "FAIL: po/POTFILES.in lists $f, which does not exist"
    status=1
  fi
done
if [ "$status" -eq 0 ]; then
  echo "ok: po/POTFILES.in lists all $(printf '%s\n' "$needed" | wc -l) files with strings"
fi
exit $status

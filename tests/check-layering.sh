#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The arrows of src/DESIGN.md: engine ← device ← session ← cli, gui; engine ← words ←
# chart, session (the user's language between the engine and its users); chart under
# cli and gui. No library includes GTK or libadwaita, and none includes a header of a
# front end or of a library above it.
#   check-layering.sh SRCDIR
src=${1:?usage: check-layering.sh SRCDIR}
status=0

# forbid DIR PATTERN WHAT
forbid () {
  hits=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($2)" "$src/$1" 2>/dev/null)
  if [ -n "$hits" ]; then
    echo "FAIL: src/$1 includes $3:"
    echo "$hits"
    status=1
  fi
}

front_ends=$(cd "$src" && ls cli/*.h gui/*.h 2>/dev/null | xargs -n1 basename | paste -sd'|')
session=$(cd "$src" && ls session/*.h | xargs -n1 basename | paste -sd'|')
device=$(cd "$src" && ls device/*.h | xargs -n1 basename | paste -sd'|')
chart=$(cd "$src" && ls chart/*.h | xargs -n1 basename | paste -sd'|')
words=$(cd "$src" && ls words/*.h | xargs -n1 basename | paste -sd'|')

for lib in engine words device chart session; do
  forbid "$lib" "gtk/|adwaita\.h|gdk/" "GTK"
  forbid "$lib" "$front_ends" "a front end's header"
done
forbid engine "$words|$device|$chart|$session" "a library above the engine"
forbid words "$device|$chart|$session" "a library beside or above the words library"
forbid device "$words|$chart|$session" "a library beside or above the device library"
forbid chart "$device|$session" "a library beside or above the chart"

# The user's words live in src/words, above the engine: the engine speaks in codes,
# numbers and the result's English, and holds no file of words of its own.
hits=$(cd "$src" && ls engine 2>/dev/null | grep -i 'words')
if [ -n "$hits" ]; then
  echo "FAIL: src/engine holds words, which belong in src/words:"
  echo "$hits"
  status=1
fi

# Every kind of warning the registry declares (nsc-warning.h) is raised somewhere in
# the product (outside src/words, which describes them all): a kind nothing produces is
# a sentence no user can ever see.
kinds=$(sed -n 's/^ *X (\([A-Z_]*\), "[a-z-]*", [A-Z]*).*/\1/p' "$src/engine/nsc-warning.h")
[ -n "$kinds" ] || { echo "FAIL: no warning kinds found in engine/nsc-warning.h"; status=1; }
for k in $kinds; do
  if ! grep -rlw "NSC_WARNING_$k" "$src" --include=*.c | grep -v -e '/words/' -e '/test-' >/dev/null; then
    echo "FAIL: the warning NSC_WARNING_$k is declared but never raised"
    status=1
  fi
done

# The window's private half (nsc-window-private.h, _nsc_window_*) is the window's own:
# another widget that reached into it would make the include circle this rule broke.
hits=$(grep -lE '_nsc_window_[a-z_]+ \(|nsc-window-private\.h' "$src"/gui/*.c "$src"/gui/*.h 2>/dev/null \
       | grep -vE '/nsc-window(-[a-z]+)?\.[ch]$')
if [ -n "$hits" ]; then
  echo "FAIL: outside the window, these reach into its private half:"
  echo "$hits"
  status=1
fi

# The engine speaks to every front end, so none of its strings names a flag or a
# command of one ("--destroy-data", "nandscope-cli"): the front end adds its remedy.
hits=$(grep -rnE '"[^"]*(--[a-z][a-z-]*|nandscope-cli)' "$src/engine" --include=*.c --include=*.h \
       | grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)')
if [ -n "$hits" ]; then
  echo "FAIL: src/engine names a front end's flags or commands in a string:"
  echo "$hits"
  status=1
fi

# The engine speaks in codes and numbers: it calls no gettext (N_ may mark data that the
# words translate), and it raises its errors as problems with fields (nsc_error_set),
# never as sentences: the words library says each problem.
hits=$(grep -rnE '(^|[^A-Za-z0-9_])(_|gettext|ngettext|g_dgettext|g_dngettext|dcgettext) *\(' \
         "$src/engine" --include=*.c --include=*.h \
       | grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)')
if [ -n "$hits" ]; then
  echo "FAIL: src/engine translates text itself; the words library does:"
  echo "$hits"
  status=1
fi
hits=$(grep -rnE '(g_set_error(_literal)?|g_error_new(_literal)?) *\([^,]*,? *NSC_ERROR|nsc_set_error_from_errno *\(' \
         "$src/engine" --include=*.c | grep -v '/nsc-error\.c:')
if [ -n "$hits" ]; then
  echo "FAIL: src/engine raises an error as a sentence, not as a problem (nsc_error_set):"
  echo "$hits"
  status=1
fi
problems=$(sed -n 's/^ *X (\([A-Z0-9_]*\), *[A-Z_]*).*/\1/p' "$src/engine/nsc-error.h")
[ -n "$problems" ] || { echo "FAIL: no problems found in engine/nsc-error.h"; status=1; }
for p in $problems; do
  if ! grep -rlw "NSC_PROBLEM_$p" "$src/engine" --include=*.c | grep -v '/nsc-error\.c$' >/dev/null; then
    echo "FAIL: the problem NSC_PROBLEM_$p is declared but the engine never raises it"
    status=1
  fi
done

[ "$status" -eq 0 ] && echo "ok: engine ← device ← session ← cli, gui; engine ← words ← chart, session; chart ← cli, gui; no GTK below the app; every warning raised; the window's private half its own; no front end's flags in the engine; the engine's errors are problems the words say"
exit "$status"

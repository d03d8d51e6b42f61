#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What the progress line says through a run, sampled each time it changes: every
# pause says why; a write bounded by bytes (the test file, Quick's flush past the
# cache, a write-fill) says how far it is and never "0 s left" before its end; the
# bar never goes back; Quick's flush is drawn under its own name, not the next test's.
#   test-gui-walk-progress.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-progress.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" progress

# Quick writes its settled half, then past the cache (here the span: 512 MiB, several
# samples however fast the folder), pauses, and writes its fresh half.
walk "$tmp/quick.log" "
target $target
preset quick
run
watch-run
dump quick-done
" --runs 1 --time 200ms --size 128m --span 512m --max-idle 2s

walk "$tmp/fill.log" "
target $target
preset write-fill
run
watch-run
dump fill-done
" --size 512m --max-idle 2s

# check LOG WHAT: the progress lines of LOG hold their promises.
check () {
  local verdict
  verdict=$(python3 - "$1" <<'PY'
import re, sys
lines = [l.rstrip("\n")[len("progress: "):].split(" | ") for l in open(sys.argv[1]) if l.startswith("progress: ")]
problems = []
last = 0.0
for fraction, status, left, chart in lines:
    f = float(fraction)
    if f + 1e-9 < last:
        problems.append("the bar went back from %.2f to %.2f (%s)" % (last, f, status))
    last = max(last, f)
    if status.startswith("Pause") or status.startswith("Idle"):
        if not re.search(r"so that|measures how much|as asked", status):
            problems.append("a pause without its reason: %s" % status)
    m = re.search(r"([\d.]+) (\w+) of ([\d.]+) (\w+)$", status)
    if m and (m.group(1), m.group(2)) != (m.group(3), m.group(4)) and re.match(r"0 s left", left):
        problems.append("0 s left with bytes still to write: %s | %s" % (status, left))
    if status.startswith("Writing past the drive's cache") and chart and "past the drive's cache" not in chart:
        problems.append("the flush drawn as %s" % chart)
# "0 s left" is the end: nothing else may start after it.
zero = next((i for i, l in enumerate(lines) if l[2] == "0 s left"), None)
if zero is not None:
    later = [l[1] for l in lines[zero + 1:] if l[1] != lines[zero][1]]
    if later:
        problems.append("0 s left at %r, then %r" % (lines[zero][1], later[0]))
print("; ".join(problems) if problems else "ok %d lines" % len(lines))
PY
)
  case $verdict in
    ok*) echo "ok: $2 ($verdict)" ;;
    *) echo "FAIL: $2: $verdict"; failed=1 ;;
  esac
}

check "$tmp/quick.log" "Quick's progress line keeps its promises"
check "$tmp/fill.log" "write-fill's progress line keeps its promises"
grep -q "^progress: .* | Writing past the drive's cache.* of .* | .* | Writing past the drive's cache" "$tmp/quick.log" \
  && echo "ok: Quick's flush is named, counted and drawn as what it is" \
  || { echo "FAIL: Quick's flush was not shown as itself:"; grep "^progress:" "$tmp/quick.log" | head -30; failed=1; }
grep -q "^progress: .* | Pause: .*so that the drive finishes the TRIM" "$tmp/fill.log" \
  && echo "ok: write-fill's pause after the TRIM says why" \
  || { echo "FAIL: write-fill's pause:"; grep "^progress:" "$tmp/fill.log" | head -20; failed=1; }
grep -q "^progress: .* | Write-fill · writing · .* of .* | [0-9].* left" "$tmp/fill.log" \
  && echo "ok: the write-fill says how far it is and what is left" \
  || { echo "FAIL: the write-fill's line:"; grep "^progress:" "$tmp/fill.log" | tail -20; failed=1; }
walk_done

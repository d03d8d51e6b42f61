#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# nandscope-cli chart on real results: PNGs of the asked size for each kind the
# results have, SVG with the caption, comparisons, and one-line errors.
set -u
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-chart-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/target"

if "$cli" chart --help 2>&1 | grep -qi "unknown command"; then
  echo "SKIP: this nandscope-cli has no chart command yet"
  exit 77
fi

# png_size FILE → "W H" from the IHDR chunk
png_size() {
  python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n"; print(*struct.unpack(">II", d[16:24]))' "$1"
}

run() { # NAME ARGS…: a short real run into $work/NAME.json
  local name=$1
  shift
  if "$cli" run --target "$work/target" --quiet --json "$work/$name.json" "$@" >"$work/$name.log" 2>&1; then
    ok "run $name"
  else
    bad "run $name failed: $(tail -3 "$work/$name.log")"
  fi
}
run wf --preset write-fill --size 256m --max-idle 200ms
run qd --preset seq-qd --size 32m --time 200ms --max-idle 200ms
run deg --preset degradation --size 32m --time 2s --max-idle 200ms
run verify --preset verify --size 256m

chart_ok() { # OUT W H ARGS…
  local out=$1 w=$2 h=$3 size
  shift 3
  if ! err=$("$cli" chart "$@" --out "$out" --width "$w" --height "$h" 2>&1); then
    bad "chart $* failed: $err"
    return
  fi
  size=$(png_size "$out" 2>/dev/null)
  [ "$size" = "$w $h" ] && ok "chart $* → $w×$h PNG" || bad "chart $*: size '$size', wanted '$w $h'"
}

[ -f "$work/wf.json" ] && chart_ok "$work/wf.png" 1200 700 "$work/wf.json" --kind write-fill
[ -f "$work/wf.json" ] && chart_ok "$work/wf-dark.png" 800 450 "$work/wf.json" --dark --units mb
[ -f "$work/qd.json" ] && chart_ok "$work/qd.png" 640 400 "$work/qd.json" --kind qd
[ -f "$work/qd.json" ] && chart_ok "$work/qd-hc.png" 640 400 "$work/qd.json" --kind qd --theme high-contrast
[ -f "$work/qd.json" ] && chart_ok "$work/lat.png" 640 400 "$work/qd.json" --kind latency --step 0
[ -f "$work/deg.json" ] && chart_ok "$work/deg.png" 1000 600 "$work/deg.json" --kind time
[ -f "$work/qd.json" ] && chart_ok "$work/cmp.png" 900 500 "$work/qd.json" --kind qd --compare "$work/qd.json"
[ -f "$work/verify.json" ] && chart_ok "$work/pos.png" 1000 600 "$work/verify.json" --kind position
[ -f "$work/verify.json" ] && chart_ok "$work/pos-cmp.png" 900 500 "$work/verify.json" --kind position \
  --compare "$work/verify.json"

# The capacity check's read-back, against the place on the drive (the SVG's
# description holds the caption, the axis titles and the legend).
if [ -f "$work/verify.json" ] && "$cli" chart "$work/verify.json" --kind position --out "$work/pos.svg" 2>"$work/pos.err"; then
  if python3 -c 'import sys,xml.dom.minidom as m; d=m.parse(sys.argv[1]); t="".join(n.data for e in d.getElementsByTagName("desc") for n in e.childNodes); sys.exit(0 if all(w in t for w in ("Capacity and integrity", "Place on the drive, MiB", "Speed, MiB/s")) else 1)' "$work/pos.svg"; then
    ok "position chart of the read-back: caption and axes"
  else
    bad "position chart without its caption or axes: $(head -c 400 "$work/pos.svg")"
  fi
else
  bad "position chart failed: $(cat "$work/pos.err" 2>/dev/null)"
fi

if [ -f "$work/wf.json" ] && "$cli" chart "$work/wf.json" --out "$work/wf.svg" 2>"$work/svg.err"; then
  if python3 -c 'import sys,xml.dom.minidom as m; d=m.parse(sys.argv[1]); t="".join(n.data for e in d.getElementsByTagName("desc") for n in e.childNodes); sys.exit(0 if "Nandscope" in t and "Write-fill" in t else 1)' "$work/wf.svg"; then
    ok "SVG is valid XML with the caption"
  else
    bad "SVG invalid or without the caption: $(head -c 400 "$work/wf.svg")"
  fi
else
  bad "SVG export failed: $(cat "$work/svg.err")"
fi

echo '{"schema": 1, "steps": [' > "$work/broken.json"
expect_fail 1 "broken.json" chart "$work/broken.json" --out "$work/x.png"
echo '{"schema": 7}' > "$work/future.json"
expect_fail 1 "schema" chart "$work/future.json" --out "$work/x.png"
expect_fail 1 "does not exist" chart "$work/nothing.json" --out "$work/x.png"
# Hostile files: nesting that crashed json-glib, a FIFO that blocked the reader, a
# sparse file too large to be a result.
python3 -c 'import sys; open(sys.argv[1], "w").write("[" * 100000)' "$work/deep.json"
mkfifo "$work/fifo.json"
truncate -s 300M "$work/huge.json"
expect_fail 1 "nests deeper than 64" chart "$work/deep.json" --out "$work/x.png"
expect_fail 1 "fifo.json: not a regular file" chart "$work/fifo.json" --out "$work/x.png"
expect_fail 1 "huge.json: 300 MiB, more than any" chart "$work/huge.json" --out "$work/x.png"
[ -f "$work/qd.json" ] && expect_fail 1 "no data for a write-fill chart.*qd" chart "$work/qd.json" --kind write-fill --out "$work/x.png"
[ -f "$work/verify.json" ] && expect_fail 1 "no data for a position chart.*steps that have: 2" chart "$work/verify.json" --kind position --step 0 --out "$work/x.png"
[ -f "$work/qd.json" ] && expect_fail 1 "no data for a position chart" chart "$work/qd.json" --kind position --out "$work/x.png"
[ -f "$work/qd.json" ] && expect_fail 1 "step 99" chart "$work/qd.json" --kind latency --step 99 --out "$work/x.png"
expect_fail 2 "pixels" chart "$work/wf.json" --out "$work/x.png" --width 12
expect_fail 2 "pixels" chart "$work/wf.json" --out "$work/x.png" --height big
expect_fail 2 "not a chart" chart "$work/wf.json" --out "$work/x.png" --kind pie
expect_fail 2 "high-contrast" chart "$work/wf.json" --out "$work/x.png" --theme sepia
expect_fail 2 "png or .svg" chart "$work/wf.json" --out "$work/x.jpg"
expect_fail 2 "--out" chart "$work/wf.json"
expect_fail 2 "needs a value" chart "$work/wf.json" --out
[ ! -e "$work/x.png" ] && ok "no file written on errors" || bad "a file was written despite an error"

finish

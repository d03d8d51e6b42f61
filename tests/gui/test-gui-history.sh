#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# After a scripted run from the desktop app (under Xvfb, as an ordinary user):
#   - the run's chart is exported at the asked size and is not blank;
#   - the saved result reopens from the history (--open-recent goes through the
#     history's own list) and its charts export as PNG and SVG with the caption,
#     even with a damaged file beside it in the history;
#   - a damaged result gives a clear message and exit status 1, no crash.
#   test-gui-history.sh path/to/nandscope
# Exit 77 (meson: skipped) when Xvfb, dbus-run-session or python3 is missing.

set -u

exe=${1:?usage: test-gui-history.sh NANDSCOPE}

. "$(dirname "$0")/test-gui-lib.sh"
gui_setup history 80

# app LOG ARGS…: runs the app, its output in LOG; sets $status.
app () {
  log=$1
  shift
  timeout 100 "${as_user[@]}" dbus-run-session -- env "${gui_env[@]}" ADW_DISABLE_PORTAL=1 \
    GSETTINGS_SCHEMA_DIR="${GSETTINGS_SCHEMA_DIR:-$tmp/no-schemas}" G_MESSAGES_DEBUG=all \
    "$exe" "$@" >"$log" 2>&1
  status=$?
  # Criticals abort (fatal-criticals); warnings of our own are bugs too. The
  # portal's, in a bare session, are not ours.
  if grep -E '\(nandscope:[0-9]+\): [A-Za-z-]+-(CRITICAL|WARNING)' "$log" | grep -v -i portal; then
    fail "GTK or GLib complained"
  fi
}

# PATH WIDTH HEIGHT: a PNG of that size with a drawing on it (not one flat colour).
check_png () {
  python3 - "$@" <<'PY'
import struct, sys, zlib

path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit(f"{path}: not a PNG")
pos, idat, w = 8, b"", 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        w, h, depth, color = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
if (w, h) != (want_w, want_h):
    sys.exit(f"{path}: {w}x{h}, asked for {want_w}x{want_h}")
if depth != 8 or color not in (2, 6):
    sys.exit(f"{path}: unexpected PNG format depth={depth} color={color}")
bpp = 3 if color == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
colours = {}
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        for x in range(0, stride, bpp * 2):
            px = bytes(line[x:x + 3])
            colours[px] = colours.get(px, 0) + 1
    prev = line
total = sum(colours.values())
background = max(colours.values())
ink = 1 - background / total
if len(colours) < 8 or ink < 0.01:
    sys.exit(f"{path}: looks blank ({len(colours)} colours, {ink:.1%} not background)")
print(f"  {path.rsplit('/', 1)[-1]}: {w}x{h}, {len(colours)} colours, {ink:.1%} drawn")
PY
}

# 1. A scripted run, its chart exported through the export menu's code.
app "$tmp/run.log" --target "$target" --preset quick --runs 1 --time 200ms --size 64m --span 64m --max-idle 1s \
    --run --quit-when-done --export-chart "$out/run.png" --export-size 800x450
[ "$status" -eq 0 ] || fail "the run exited with status $status"
check_png "$out/run.png" 800 450 || fail "the run's chart"
# Quick has eight timed tests and two settled reads, each with a live chart.
live=$(grep -o 'Live chart: [0-9]* samples in [0-9]* steps' "$tmp/run.log")
read -r samples steps < <(echo "$live" | awk '{print $3, $6}')
[ "${steps:-0}" -ge 10 ] && [ "${samples:-0}" -ge 20 ] || fail "the live chart was not fed: '$live'"
echo "ok: ${live,}"
saved=$(ls "$results"/*.json 2>/dev/null)
[ "$(echo "$saved" | wc -l)" -eq 1 ] || fail "expected one saved result, found: $saved"
echo "ok: run saved $(basename "$saved") and exported its chart"

# 2. A damaged file in the history, newer than the result: listed, skipped, no crash.
printf '{"schema": 1, "steps": [' >"$results/zz-damaged.json"
chmod a+r "$results/zz-damaged.json"
touch -d '+1 minute' "$results/zz-damaged.json"

app "$tmp/reopen.log" --open-recent --export-chart "$out/reopen.png" --export-size 1280x720 \
    --quit-when-done
[ "$status" -eq 0 ] || fail "reopening from the history exited with status $status"
check_png "$out/reopen.png" 1280 720 || fail "the reopened result's chart"
grep -q "zz-damaged.json" "$tmp/reopen.log" || fail "the damaged file was not reported"
echo "ok: the saved result reopens from the history beside a damaged file"

# Hostile files in the history: nested 100 000 deep (json-glib's recursion would
# overflow the stack), a FIFO (a read would block forever), a sparse 300 MiB file.
# The history window reads them in a worker thread and lists each as damaged.
python3 -c 'import sys; open(sys.argv[1], "w").write("[" * 100000)' "$results/zz-deep.json"
mkfifo "$results/zz-fifo.json"
truncate -s 300M "$results/zz-huge.json"
chmod a+r "$results"/zz-*.json
app "$tmp/history.log" --history --quit-when-done
[ "$status" -eq 0 ] || fail "the history window with hostile files exited with status $status"
for want in "zz-deep.json cannot be read: .*nests deeper than" \
            "zz-fifo.json cannot be read: .*not a regular file" \
            "zz-huge.json cannot be read: .*300 MiB, more than any" \
            "zz-damaged.json cannot be read: .*damaged" \
            "History: 1 results listed, 4 cannot be read"; do
  grep -q "$want" "$tmp/history.log" || fail "the history did not say /$want/"
done
echo "ok: the history lists the deep, FIFO, huge and cut-short files as damaged:"
grep -o "History: .*" "$tmp/history.log" | sed 's/^/    /'
rm -f "$results"/zz-deep.json "$results"/zz-fifo.json "$results"/zz-huge.json

app "$tmp/svg.log" --open "$saved" --chart latency --export-chart "$out/latency.svg" --dark \
    --quit-when-done
[ "$status" -eq 0 ] || fail "exporting the latency chart as SVG exited with status $status"
grep -q "<svg" "$out/latency.svg" || fail "latency.svg is not an SVG"
# The caption: drive, date, app and version.
grep -q "Nandscope" "$out/latency.svg" || fail "latency.svg has no caption"
echo "ok: latency chart as SVG with its caption"

# Export → Review Sheet, through the code behind the menu: a PDF poppler renders.
app "$tmp/sheet.log" --open "$saved" --export-sheet "$out/sheet.pdf" --quit-when-done
[ "$status" -eq 0 ] || fail "exporting the review sheet exited with status $status: $(tail -2 "$tmp/sheet.log")"
head -c 5 "$out/sheet.pdf" | grep -q "%PDF-" || fail "sheet.pdf is not a PDF"
if command -v pdftoppm >/dev/null; then
  pdftoppm -r 20 -png "$out/sheet.pdf" "$out/sheet-page" && [ -s "$out/sheet-page-1.png" ] \
    || fail "pdftoppm cannot render the review sheet"
  pdftotext "$out/sheet.pdf" - | grep -q "Test bench and conditions" \
    || fail "the review sheet has no test bench"
fi
echo "ok: Export → Review Sheet writes a PDF that renders"

app "$tmp/nochart.log" --open "$saved" --chart write-fill --export-chart "$out/wf.png" --quit-when-done
[ "$status" -eq 1 ] || fail "a chart the result lacks: status $status, expected 1"
grep -q "has no write-fill chart" "$tmp/nochart.log" || fail "no clear message for a missing chart"
echo "ok: a chart the result lacks is refused with a message"

app "$tmp/text.log" --open "$saved" --print-text --quit-when-done
[ "$status" -eq 0 ] || fail "--print-text exited with status $status"
for want in "Nandscope " "[Read]" "[Write]" "SEQ1M Q8T1" "RND4K Q1T1" "MiB/s" "IOPS" "Drive: " "Date: "; do
  grep -qF -- "$want" "$tmp/text.log" || fail "the text block lacks \"$want\""
done
echo "ok: copy as text:"
grep -F -A2 "[Read]" "$tmp/text.log" | sed 's/^/    /'

# The same with the GSettings schema installed (the runs above had none, and
# fell back to the defaults in memory).
if command -v glib-compile-schemas >/dev/null 2>&1; then
  schemas=$tmp/schemas
  mkdir -p "$schemas"
  cp "$(dirname "$0")/../../data/io.github.nandscope.Nandscope.gschema.xml" "$schemas/"
  glib-compile-schemas --strict "$schemas" || fail "the schema does not compile"
  chmod -R a+rX "$schemas"
  GSETTINGS_SCHEMA_DIR=$schemas app "$tmp/schema.log" --open "$saved" --print-text --quit-when-done
  [ "$status" -eq 0 ] || fail "with the schema installed: status $status"
  grep -qF "[Read]" "$tmp/schema.log" || fail "with the schema installed: no result shown"
  echo "ok: with the GSettings schema installed"
fi

# 3. A damaged result opened directly: a clear message, exit status 1.
app "$tmp/damaged.log" --open "$results/zz-damaged.json" --export-chart "$out/x.png" --quit-when-done
[ "$status" -eq 1 ] || fail "a damaged result: status $status, expected 1"
grep -q "nandscope: Cannot open the result zz-damaged.json: .*damaged" "$tmp/damaged.log" \
  || fail "no clear message for a damaged result"
[ ! -e "$out/x.png" ] || fail "a chart was written for a damaged result"
echo "ok: $(grep -o 'Cannot open the result.*' "$tmp/damaged.log" | head -1)"

printf '{"schema": 99}' >"$out/future.json"
chmod a+r "$out/future.json"
app "$tmp/future.log" --open "$out/future.json" --quit-when-done
[ "$status" -eq 1 ] || fail "a result of another schema: status $status, expected 1"
echo "ok: $(grep -o 'Cannot open the result.*' "$tmp/future.log" | head -1)"

echo "PASS"

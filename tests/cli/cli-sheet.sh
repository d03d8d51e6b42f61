#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# nandscope-cli sheet on real runs: the review suite scaled down on a loop device
# (root; a test file otherwise) and a review run cancelled half-way. Each sheet is
# written as PDF (poppler renders it and reads its words), SVG, PNG at 1× and 2×,
# A4 and 16:9, light and dark; test-sheet then checks on these results that every
# element is on the page and no text overlaps another. Run it under the devices
# lock (tests/README.md).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-devices.sh"

work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-sheet-XXXXXX")
corpus="$(dirname "$0")/../fuzz/corpus/fuzz-result-file"
test_sheet="${G_TEST_BUILDDIR:-}/test-sheet"
loop=
cleanup() {
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  rm -rf "$work"
  devices_check
}
trap cleanup EXIT
devices_snapshot

png_size() {
  python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n"; print(*struct.unpack(">II", d[16:24]))' "$1"
}

# Usage errors: one line, what to do.
expect_fail 2 "needs a result file" sheet --out "$work/x.pdf"
expect_fail 2 "needs --out" sheet "$corpus/quick.json"
expect_fail 2 "must end in .pdf, .svg or .png" sheet "$corpus/quick.json" --out "$work/x.jpg"
expect_fail 2 "scale.*png" sheet "$corpus/quick.json" --out "$work/x.pdf" --scale 2
expect_fail 2 "say 1 or 2" sheet "$corpus/quick.json" --out "$work/x.png" --scale 3
expect_fail 2 "a4.*16:9" sheet "$corpus/quick.json" --out "$work/x.pdf" --layout letter
expect_fail 1 "does not exist" sheet "$work/none.json" --out "$work/x.pdf"
expect_fail 1 "one preset" sheet "$corpus/quick.json" "$corpus/surface.json" --out "$work/x.pdf"
expect_fail 1 "cannot be written" sheet "$corpus/quick.json" --out "$work/no/such/dir/x.pdf"

# The target: a loop device as root (the review suite erases it), else a folder.
target="$work/target"
consent=()
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
  truncate -s 1536M "$work/loop.img"
  loop=$(losetup -f --show "$work/loop.img") && target=$loop && consent=(--destroy-data="$loop")
fi
[ -b "$target" ] || mkdir -p "$target"
echo "# target: $target"

# Long steps (thermal, degradation) at 2 % keep enough samples to be charted.
if "$cli" run --preset review --target "$target" "${consent[@]}" --size 1g --span 1g \
     --time-scale 0.02 --max-idle 20ms --runs 1 --quiet --json "$work/review.json" \
     >"$work/review.log" 2>&1; then
  ok "review run on $target"
else
  bad "review run failed: $(tail -3 "$work/review.log")"
fi

# A run cancelled part-way, once its first test has ended (its line in the log): its
# sheet says so in its title.
"$cli" run --preset review --target "$target" "${consent[@]}" --size 1g --span 1g \
  --time 1s --max-idle 20ms --runs 1 --json "$work/cancelled.json" \
  >"$work/cancelled.log" 2>&1 &
pid=$!
wait_until $pid 300 grep -qE ' (read|write): ' "$work/cancelled.log" \
  || bad "the review run to cancel finished no test ($waited_why)"
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
[ "$rc" -eq 130 ] && ok "review cancelled with SIGINT" || bad "cancelled run exited $rc: $(tail -3 "$work/cancelled.log")"

for name in review cancelled; do
  json="$work/$name.json"
  [ -f "$json" ] || { bad "$name: no result"; continue; }
  for layout in a4 16:9; do
    base="$work/$name-${layout/:/x}"
    if "$cli" sheet "$json" --out "$base.pdf" --layout "$layout" 2>"$work/err" \
       && "$cli" sheet "$json" --out "$base.svg" --layout "$layout" --dark 2>>"$work/err" \
       && "$cli" sheet "$json" --out "$base.png" --layout "$layout" 2>>"$work/err" \
       && "$cli" sheet "$json" --out "$base@2.png" --layout "$layout" --scale 2 --theme dark 2>>"$work/err"; then
      ok "$name $layout: PDF, SVG, PNG 1× and 2×"
    else
      bad "$name $layout: $(cat "$work/err")"
      continue
    fi
    one=$(png_size "$base.png")
    two=$(png_size "$base@2.png")
    read -r w h <<<"$one"
    [ "$two" = "$((2 * w)) $((2 * h))" ] && ok "$name $layout: 2× is $two, twice $one" \
                                         || bad "$name $layout: 2× is $two, 1× $one"
    if command -v pdftoppm >/dev/null; then
      if pdftoppm -r 40 -png "$base.pdf" "$base-page" 2>"$work/err" && [ -s "$base-page-1.png" ]; then
        ok "$name $layout: pdftoppm renders the PDF ($(png_size "$base-page-1.png"))"
      else
        bad "$name $layout: pdftoppm cannot render the PDF: $(cat "$work/err")"
      fi
      words=$(pdftotext "$base.pdf" - 2>/dev/null | tr '\n' ' ')
      for want in "Firmware" "Test bench and conditions" "Measured with Nandscope"; do
        case $words in
          *"$want"*) ok "$name $layout: the PDF's text has “$want”" ;;
          *) bad "$name $layout: the PDF's text lacks “$want”" ;;
        esac
      done
    else
      bad "pdftoppm is missing: install poppler-utils (tools/install-deps)"
    fi
    title=$(sed -n 's:.*<title>\(.*\)</title>.*:\1:p' "$base.svg" | head -1)
    if [ "$name" = cancelled ]; then
      case $title in *cancelled*) ok "cancelled $layout: the title says so: $title" ;;
                     *) bad "cancelled $layout: the title does not say so: $title" ;; esac
    else
      case $title in *cancelled*) bad "review $layout: a finished run titled $title" ;;
                     "Review suite on "*) ok "review $layout: $title" ;;
                     *) bad "review $layout: title $title" ;; esac
    fi
  done
done

# Every element present and no text overlapping, on these real results.
if [ -x "$test_sheet" ] && [ -f "$work/review.json" ] && [ -f "$work/cancelled.json" ]; then
  if NSC_SHEET_RESULTS="$work/review.json:$work/cancelled.json" \
       "$test_sheet" -p /nsc/sheet/results >"$work/test.log" 2>&1; then
    ok "test-sheet: the real runs' sheets show every element, no text on another"
  else
    bad "test-sheet on the real runs: $(grep -m3 -E 'ERROR|not ok' "$work/test.log")"
  fi
  charts=$(NSC_SHEET_RESULTS= python3 -c '
import json,sys
r=json.load(open(sys.argv[1]))
print(sum(1 for s in r["steps"] if s.get("analysis") in ("degradation","thermal") and len((s.get("series") or {}).get("t_ns",[]))>=2))' "$work/review.json")
  [ "$charts" -ge 2 ] && ok "review: degradation and thermal have samples to chart ($charts steps)" \
                      || bad "review: only $charts degradation/thermal steps with samples"
else
  bad "test-sheet ($test_sheet) or the results are missing"
fi

finish

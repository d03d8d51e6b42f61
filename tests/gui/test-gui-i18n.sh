#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The app in Russian, run from the build folder, under Xvfb:
#   test-gui-i18n.sh path/to/nandscope SCREENSHOT.png
# A Quick run under LANG=ru_RU.UTF-8, then its result reopened: every text the
# results page shows (--print-page: the grid, the warnings with what their
# expanders hold, the test bench) must hold no English sentence, the warnings must
# be the app's Russian sentences and not the result's English messages, and the
# chart exported from the app must have Russian axis titles and legends. The same
# check on the English page must find English sentences (so that it can fail). The
# Russian results page is saved as SCREENSHOT.png.
# Exit 77 (meson: skipped) when Xvfb, dbus-run-session, python3 or import is
# missing; 99 (error) when the ru_RU.UTF-8 locale is not installed
# (tools/install-deps installs it).

set -u

exe=${1:?usage: test-gui-i18n.sh NANDSCOPE SCREENSHOT.png}
shot=${2:?usage: test-gui-i18n.sh NANDSCOPE SCREENSHOT.png}

shown_pid=
gui_cleanup_more () {
  if [ -n "$shown_pid" ]; then
    wait "$shown_pid" 2>/dev/null
  fi
}
gui_tools="Xvfb dbus-run-session python3 import"
. "$(dirname "$0")/test-gui-lib.sh"
gui_setup i18n 60
if ! locale -a 2>/dev/null | grep -qix 'ru_RU\.utf-\?8'; then
  echo "ERROR: the ru_RU.UTF-8 locale is not installed; run tools/install-deps"
  exit 99
fi

fail () {
  echo "FAIL: $*"
  for log in "$tmp"/*.log; do
    [ -s "$log" ] || continue
    echo "--- $(basename "$log")"
    cat "$log"
  done
  exit 1
}

app_env () {
  local lang=$1
  echo env "${gui_env[@]}" ADW_DISABLE_PORTAL=1 LANG="$lang" LANGUAGE= LC_ALL=
}

# app LANG OUT ARGS…: runs the app in LANG, its standard output in OUT.
app () {
  local lang=$1 out=$2
  shift 2
  # shellcheck disable=SC2046
  timeout 100 "${as_user[@]}" dbus-run-session -- $(app_env "$lang") "$exe" "$@" \
    >"$out" 2>"$out.err.log"
}

# 1. A run in Russian, saved.
app ru_RU.UTF-8 "$tmp/run.out" --target "$target" --preset quick --runs 1 --time 200ms --max-idle 1s \
    --size 64m --span 64m --run --quit-when-done || fail "the run in Russian exited with status $?"
result=$(ls "$data"/nandscope/results/*.json 2>/dev/null | head -1)
[ -n "$result" ] || fail "the run saved no result"

# 2. Its results page, as text, in Russian and in English.
app ru_RU.UTF-8 "$tmp/ru.txt" --open "$result" --print-page --quit-when-done \
  || fail "--print-page in Russian exited with status $?"
app C.UTF-8 "$tmp/en.txt" --open "$result" --print-page --quit-when-done \
  || fail "--print-page in English exited with status $?"

python3 - "$tmp/ru.txt" "$tmp/en.txt" "$result" "$(dirname "$0")" <<'PY' || fail "the results page is not in Russian"
import json, re, sys

ru_path, en_path, result_path = sys.argv[1:4]
ru = open(ru_path, encoding="utf-8").read().splitlines()
en = open(en_path, encoding="utf-8").read().splitlines()
result = json.load(open(result_path, encoding="utf-8"))

sys.path.insert(0, sys.argv[4])
from english_words import english, label_words

bad = english(ru) + label_words(ru)
if bad:
    print("English sentences on the Russian results page:")
    for line in bad:
        print("  " + line)
    sys.exit(1)
if not english(en):
    sys.exit("the check found no English sentence on the English page either: it cannot fail")
if not label_words(en):
    sys.exit("the check found no English test name on the English page: it cannot fail")

warnings = result.get("warnings") or []
if not warnings:
    sys.exit("the run raised no warning to check (a Quick run on a test file raises some)")
if "Предупреждения" not in ru:
    sys.exit("no heading “Предупреждения” above the warnings")
for w in warnings:
    if w["message"] in ru or w["message"] in en:
        sys.exit(f"a warning is shown as its English message: {w['message']}")
cyrillic = [l for l in ru if re.search("[А-Яа-яЁё]{4,}", l)]
print(f"ok: {len(ru)} texts on the Russian page, {len(cyrillic)} in Cyrillic, "
      f"{len(warnings)} warnings in the app's words, no English sentence")
PY

# 2b. Every preset's start page for a folder, in Russian: no English sentence, no
# English unit ("2 GiB" beside "11 ГиБ"). The drive-only presets are refused for a
# folder (exit 1) and skipped. The English start page of Quick proves the check can fail.
presets_dir=$(cd "$(dirname "$0")/../../data/presets" && pwd)
started=0
for json in "$presets_dir"/*.json; do
  p=$(basename "$json" .json)
  if app ru_RU.UTF-8 "$tmp/start-$p.txt" --target "$target" --preset "$p" --print-page --quit-when-done; then
    started=$((started + 1))
  else
    rm -f "$tmp/start-$p.txt"
  fi
done
app C.UTF-8 "$tmp/start-en.txt" --target "$target" --preset quick --print-page --quit-when-done \
  || fail "the English start page exited with status $?"
python3 - "$(dirname "$0")" "$tmp/start-en.txt" "$tmp"/start-*.txt <<'PY' || fail "a start page is not in Russian"
import os, sys
sys.path.insert(0, sys.argv[1])
from english_words import english

en = open(sys.argv[2], encoding="utf-8").read().splitlines()
if not english(en):
    sys.exit("the check found no English on the English start page: it cannot fail")
bad = 0
pages = [p for p in sys.argv[3:] if not p.endswith("start-en.txt")]
for path in pages:
    found = english(open(path, encoding="utf-8").read().splitlines())
    for line in found:
        print(f"{os.path.basename(path)}: {line}")
    bad += len(found)
if bad or len(pages) < 20:
    sys.exit(f"{bad} English lines on {len(pages)} Russian start pages")
print(f"ok: {len(pages)} presets' start pages in Russian, no English sentence or unit")
PY

# 3. The chart exported from the app in Russian.
app ru_RU.UTF-8 "$tmp/svg.out" --open "$result" --chart time --export-chart "$home/ru.svg" \
    --export-size 800x450 --quit-when-done || fail "exporting the chart exited with status $?"
python3 - "$home/ru.svg" <<'PY' || fail "the exported chart is not in Russian"
import re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"<desc>(.*?)</desc>", svg, re.S)
if not m:
    sys.exit("no <desc> with the chart's words in the SVG")
desc = m.group(1)
for want in ("Скорость, МиБ/с", "Время, с"):
    if want not in desc:
        sys.exit(f"“{want}” is not among the chart's words: {desc!r}")
# The legend names the line: reads or writes, whichever test the chart shows.
if "Чтение" not in desc and "Запись" not in desc:
    sys.exit(f"no Russian legend among the chart's words: {desc!r}")
if re.search(r"\bSpeed\b|\bTime\b|\bRead\b|\bWrite\b", desc):
    sys.exit(f"English axis titles or legends in the chart: {desc!r}")
print("ok: the chart's axis titles and legend are Russian")
PY

# 4. A screenshot of the Russian results page. The app ends itself (timeout), so that
# its bus ends with it.
# shellcheck disable=SC2046
"${as_user[@]}" dbus-run-session -- $(app_env ru_RU.UTF-8) timeout 8 "$exe" --open "$result" \
  >"$tmp/shown.log" 2>&1 &
shown_pid=$!
sleep 4
DISPLAY=":$display" import -window root "$shot" || fail "no screenshot"
wait "$shown_pid"
shown_pid=
echo "ok: screenshot of the Russian results page in $shot"

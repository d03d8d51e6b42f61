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

python3 - "$tmp/ru.txt" "$tmp/en.txt" "$result" <<'PY' || fail "the results page is not in Russian"
import json, re, sys

ru_path, en_path, result_path = sys.argv[1:4]
ru = open(ru_path, encoding="utf-8").read().splitlines()
en = open(en_path, encoding="utf-8").read().splitlines()
result = json.load(open(result_path, encoding="utf-8"))

# An English sentence: three Latin words or more in a row, one of them a word no
# name, code or unit is ("the", "of", "is"…). Test labels (SEQ1M Q8T1), units,
# device and file names pass; "may be the drive's fast cache" does not.
STOP = {"a", "an", "the", "of", "is", "are", "was", "be", "to", "in", "on", "and", "or",
        "for", "with", "from", "by", "at", "this", "that", "it", "its", "not", "may",
        "no", "than", "as", "has", "have", "after", "before", "test", "drive", "speed"}
WORD = r"[A-Za-z][A-Za-z'’]+"
RUN = re.compile(WORD + r"(?:[ ,;:]+" + WORD + r"){2,}")

def english(lines):
    found = []
    for line in lines:
        # The kernel's names of CPU mitigations, after the app's own (translated) word.
        if line.startswith(("Защита: ", "Уязвим: ")):
            continue
        for m in RUN.finditer(line):
            if any(w.lower().strip("'’") in STOP for w in re.findall(WORD, m.group(0))):
                found.append(line)
                break
    return found

# The tests' names in the grid: their codes stay, their words do not ("SEQ1M Q8T1
# settled").
def label_words(lines):
    return [l for l in lines
            if re.match(r"(?:SEQ|RND)\d+[KM]? Q\d+T\d+\b", l)
            and re.search(r"\b[a-z]{3,}\b", re.sub(r"^\S+ \S+", "", l))]

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

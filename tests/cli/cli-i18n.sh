#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The command line in Russian, run from the build folder (its catalogue is the one
# compiled there): --help, usage errors and the engine's errors, a run's warnings,
# and a chart exported with Russian axis titles and legends. Each check is also made
# in English, so that it can fail. Needs the ru_RU.UTF-8 locale (tools/install-deps).
set -u
. "$(dirname "$0")/lib.sh"

if ! locale -a 2>/dev/null | grep -qix 'ru_RU\.utf-\?8'; then
  echo "ERROR: the ru_RU.UTF-8 locale is not installed; run tools/install-deps"
  exit 99
fi

work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-i18n-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/target"

ru() { LANG=ru_RU.UTF-8 LANGUAGE= LC_ALL= "$cli" "$@"; }
en() { LANG=C.UTF-8 LANGUAGE= LC_ALL= "$cli" "$@"; }

# latin FILE…: the Latin-script words of the Russian output that are not codes, units,
# product names, paths or commands: each is a word the user reads in English.
latin() {
  python3 - "$@" <<'PY'
import re, sys
KEEP = re.compile(r"""^(?:(?:SEQ|RND)\d+[KM]?|Q\d+T\d+|R\d+%?|T\d+|IOPS|io_uring|psync|pread|pwrite
  |NOWAIT|TRIM|SLC|NVMe|SMART|Nandscope|CrystalDiskMark|ext4|xfs|btrfs|tmpfs|virtio|zram|loop|nvme
  |PCIe|SATA|USB|NBD|O_DIRECT|O_TMPFILE|iXBT|3DNews|AIDA64|HD|Tune|GNOME|Transcend|Crucial|P1|SNIA
  |PTS|Windows|dry-run|fio|sata|usb|mmc|dm|md|x\d+|GT|lvm)$""", re.X | re.I)
for path in sys.argv[1:]:
    for line in open(path, encoding="utf-8"):
        line = re.sub(r"/\S+", " ", line)                        # paths
        line = re.sub(r"\((?:[a-z0-9]+-)+[a-z0-9]+\)", " ", line)  # warning codes
        line = re.sub(r"nandscope-cli run --preset \S+", " ", line)  # a command to run
        if path.endswith(".presets"):      # the name, duration and "On a device" columns
            line = re.sub(r"^\S+", " ", line[:44])
        elif path.endswith(".devices"):    # all but the drive's model, its own name
            line = line[:14] + line[42:]
        line = re.sub(r"\b(?:[sv]d[a-z]+|nvme\d+n\d+|zram\d+|loop\d+|mmcblk\d+)(?:p?\d+)?\b", " ", line)  # drives
        for w in re.findall(r"[A-Za-z][A-Za-z0-9_'’]*(?:-[A-Za-z0-9_]+)*", line):
            if not KEEP.match(w) and not re.fullmatch(r"\d*[KMGT]?i?B", w):
                print(w)
PY
}
# no_latin WHAT FILE…: none in Russian (listed when some are), some in English.
no_latin() {
  local what=$1 words
  shift
  words=$(latin "$@" | sort -u | tr '\n' ' ')
  [ -z "$words" ] && ok "$what: no English word in Russian" || bad "$what: English words in Russian: $words"
}

# --help
ru --help >"$work/help.ru" 2>&1
en --help >"$work/help.en" 2>&1
if grep -q '^Использование:' "$work/help.ru" && grep -q '^Параметры запуска:' "$work/help.ru" \
   && grep -q 'глубина очереди' "$work/help.ru"; then
  ok "--help is in Russian"
else
  bad "--help is not in Russian: $(head -3 "$work/help.ru")"
fi
if grep -q 'runs of every test' "$work/help.ru" || ! grep -q 'runs of every test' "$work/help.en"; then
  bad "--help: English in Russian, or the English text changed under the check"
else
  ok "--help has none of its English descriptions in Russian"
fi
ru chart --help >"$work/chart-help.ru" 2>&1
grep -q '^Использование: nandscope-cli chart' "$work/chart-help.ru" \
  && ok "chart --help is in Russian" || bad "chart --help: $(head -1 "$work/chart-help.ru")"

# ru_err PATTERN-RU PATTERN-EN ARGS…: the same error in both languages, with the
# same exit status: Russian words in Russian, English in English.
ru_err() {
  local want_ru=$1 want_en=$2 out_ru out_en rc_ru rc_en
  shift 2
  out_ru=$(ru "$@" 2>&1 >/dev/null); rc_ru=$?
  out_en=$(en "$@" 2>&1 >/dev/null); rc_en=$?
  if [ "$rc_ru" -ne "$rc_en" ] || [ "$rc_ru" -eq 0 ]; then
    bad "$*: exit status $rc_ru in Russian, $rc_en in English"
  elif ! printf '%s' "$out_ru" | grep -qE -- "$want_ru"; then
    bad "$*: not Russian: $out_ru"
  elif ! printf '%s' "$out_en" | grep -qE -- "$want_en"; then
    bad "$*: the English message changed: $out_en"
  else
    ok "$* → $rc_ru: $out_ru"
  fi
}
ru_err 'Неизвестная команда «frob»' 'Unknown command' frob
ru_err 'Неизвестный параметр --frob' 'Unknown option --frob' run --frob --target "$work/target"
ru_err '«12q» — не размер' 'is not a size' run --target "$work/target" --size 12q
ru_err 'Папки .* нет' 'does not exist' run --target "$work/nowhere/new" --time 100ms
ru_err 'Набора тестов «nope» нет' 'There is no preset' run --target "$work/target" --preset nope
ru_err 'chart нужен --out' 'chart needs --out' chart "$work/none.json"

# A run in Russian: its warnings in the app's words, not the result's English.
if ru run --target "$work/target" --preset quick --runs 1 --time 200ms --max-idle 20ms --size 64m --span 64m --quiet \
     --json "$work/quick.json" >"$work/run.ru" 2>&1; then
  ok "a Quick run in Russian"
else
  bad "the run in Russian failed: $(tail -3 "$work/run.ru")"
fi
if grep -qE '^Тест +Чтение МиБ/с +Запись МиБ/с' "$work/run.ru" && grep -q 'Быстрый' "$work/run.ru" \
   && grep -q '1 прогон по ' "$work/run.ru"; then
  ok "the results table and its heading in Russian"
else
  bad "the results table is not in Russian: $(head -5 "$work/run.ru")"
fi
if grep -q '^Предупреждение (' "$work/run.ru"; then
  ok "warnings in Russian: $(grep -m1 '^Предупреждение (' "$work/run.ru")"
else
  bad "no Russian warning in the run's output: $(tail -5 "$work/run.ru")"
fi
# Every word of the run's report: the table's headings and tests ("settled"), the
# backends' notes, the sizes; and the same check finds English words in English.
en run --target "$work/target" --preset quick --runs 1 --time 200ms --max-idle 20ms --size 64m --span 64m --quiet \
  >"$work/run.en" 2>&1
no_latin "the run's report" "$work/run.ru"
[ -n "$(latin "$work/run.en")" ] && ok "the check finds the English report's words" \
  || bad "no English word found in the English report: the check cannot fail"
grep -q '^Механизм psync: глубина очереди 1: ' "$work/run.ru" \
  && ok "the backends' notes in Russian" || bad "no Russian note on psync: $(grep -i backend "$work/run.ru")"
grep -qE '^SEQ1M Q8T1, отлежавшиеся +[0-9]' "$work/run.ru" \
  && ok "the tests' labels in Russian" || bad "no Russian “settled” label in the table"

# The dry run, the presets and the devices lists.
ru run --target "$work/target" --preset quick --size 64m --dry-run >"$work/dry.ru" 2>&1
en run --target "$work/target" --preset quick --size 64m --dry-run >"$work/dry.en" 2>&1
no_latin "the dry run" "$work/dry.ru"
grep -q '^  всего ' "$work/dry.ru" && ok "the dry run's total in Russian" \
  || bad "the dry run: $(cat "$work/dry.ru")"
ru list-presets >"$work/list.presets" 2>&1
en list-presets >"$work/list-en.presets" 2>&1
no_latin "list-presets" "$work/list.presets"
ru devices >"$work/list.devices" 2>&1
en devices >"$work/list-en.devices" 2>&1
no_latin "devices" "$work/list.devices"
for f in dry.en list-en.presets list-en.devices; do
  [ -n "$(latin "$work/$f")" ] && ok "the check finds English words in $f" \
    || bad "no English word found in $f: the check cannot fail"
done

english=$(python3 - "$work/quick.json" "$work/run.ru" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
out = open(sys.argv[2], encoding="utf-8").read()
for w in result.get("warnings", []):
    if w["message"] in out:
        print(w["message"])
PY
)
[ -z "$english" ] && ok "no warning printed as its English message" \
                  || bad "English warnings in the Russian output: $english"

# A chart exported in Russian: its words (the SVG's <desc>) are Russian.
desc() { python3 -c 'import re,sys; print(re.search(r"<desc>(.*?)</desc>", open(sys.argv[1], encoding="utf-8").read(), re.S).group(1))' "$1"; }
if ru chart "$work/quick.json" --kind time --out "$work/ru.svg" >/dev/null 2>&1 \
   && en chart "$work/quick.json" --kind time --out "$work/en.svg" >/dev/null 2>&1; then
  d_ru=$(desc "$work/ru.svg"); d_en=$(desc "$work/en.svg")
  if printf '%s' "$d_ru" | grep -q 'Скорость, МиБ/с' && printf '%s' "$d_ru" | grep -q 'Время, с' \
     && printf '%s' "$d_ru" | grep -qE 'Чтение|Запись' && ! printf '%s' "$d_ru" | grep -qE '\bSpeed\b|\bRead\b'; then
    ok "the chart's axis titles and legend are Russian"
  else
    bad "the Russian chart's words: $d_ru"
  fi
  printf '%s' "$d_en" | grep -q 'Speed, MiB/s' && ok "and English in English" \
    || bad "the English chart's words: $d_en"
else
  bad "chart export failed"
fi
if ru chart "$work/quick.json" --kind time --units mb --out "$work/mb.svg" >/dev/null 2>&1 \
   && desc "$work/mb.svg" | grep -q 'Скорость, МБ/с'; then
  ok "--units mb: МБ/с"
else
  bad "--units mb in Russian: $(desc "$work/mb.svg" 2>&1 | head -3)"
fi

finish

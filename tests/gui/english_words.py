# SPDX-License-Identifier: GPL-3.0-or-later
# English left on a page that should be in another language: the translation tests
# (test-gui-i18n.sh) read the page's texts, one per line, through these.
import re

# An English sentence: three Latin words or more in a row, one of them a word no
# name, code or unit is ("the", "of", "is"…). Test labels (SEQ1M Q8T1), units,
# device and file names pass; "may be the drive's fast cache" does not.
STOP = {"a", "an", "the", "of", "is", "are", "was", "be", "to", "in", "on", "and", "or",
        "for", "with", "from", "by", "at", "this", "that", "it", "its", "not", "may",
        "no", "than", "as", "has", "have", "after", "before", "test", "drive", "speed"}
WORD = r"[A-Za-z][A-Za-z'’]+"
RUN = re.compile(WORD + r"(?:[ ,;:]+" + WORD + r"){2,}")
# Units and size words that have a translation: "2 GiB" beside "11 ГиБ".
UNITS = re.compile(r"\b\d+(?:[.,]\d+)? (?:KiB|MiB|GiB|TiB|KB|MB|GB|TB|seconds?|minutes?|hours?)\b")


def english(lines):
    found = []
    for line in lines:
        # The kernel's names of CPU mitigations, after the app's own (translated) word.
        if line.startswith(("Защита: ", "Уязвим: ")):
            continue
        if UNITS.search(line):
            found.append(line)
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

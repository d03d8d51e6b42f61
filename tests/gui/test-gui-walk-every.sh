#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Every preset from its start page to its result, on a folder, as a user clicks through
# them: no size on either page is absurd (more than the folder's filesystem holds, or in
# PiB), the result's header names the test file the run made, and a run writes no more
# than its start page promised (where the promise has no timed part).
#   test-gui-walk-every.sh path/to/nandscope

exe=${1:?usage: test-gui-walk-every.sh NANDSCOPE}
. "$(dirname "$0")/test-gui-lib.sh"
walk_setup "$exe" every

presets_dir=$(cd "$(dirname "$0")/../../data/presets" && pwd)
script=
for json in "$presets_dir"/*.json; do
  p=$(basename "$json" .json)
  script+="preset $p
dump start-$p
run
wait-run
dump result-$p
"
done
walk "$tmp/walk.log" "
target $target
$script" --runs 1 --time 100ms --size 64m --span 64m --max-idle 20ms

verdict=$(python3 - "$tmp/walk.log" "$results" "$target" "$presets_dir" <<'PY'
import glob, json, os, re, sys

log, results, target, presets_dir = sys.argv[1:5]
text = open(log, encoding="utf-8").read()
vfs = os.statvfs(target)
fs_bytes = vfs.f_blocks * vfs.f_frsize
units = {"B": 1, "bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
         "PiB": 1 << 50, "EiB": 1 << 60, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15}
size_re = re.compile(r"(\d+(?:[.,]\d+)?)\s(KiB|MiB|GiB|TiB|PiB|EiB|kB|MB|GB|TB|PB)\b(?!/s)")

def section(tag):
    m = re.search(r"^== dump %s\n(.*?)(?=^== |\Z)" % re.escape(tag), text, re.S | re.M)
    return m.group(1) if m else None

def labels(dump):
    return re.findall(r'^\s*GtkLabel\S* @\S+ \S+ min=\d+(?: clipped)? "(.*)"', dump, re.M)

results_by_preset = {}
for path in glob.glob(os.path.join(results, "*.json")):
    r = json.load(open(path))
    results_by_preset.setdefault(r["preset"]["name"], []).append(r)

problems, ran, headers, promises = [], 0, 0, 0
for json_path in sorted(glob.glob(os.path.join(presets_dir, "*.json"))):
    p = os.path.basename(json_path)[:-5]
    start, result = section("start-" + p), section("result-" + p)
    if start is None or result is None:
        problems.append("%s: no dump" % p)
        continue
    for where, dump in (("start page", start), ("result", result)):
        for line in labels(dump):
            for number, unit in size_re.findall(line):
                n = float(number.replace(",", ".")) * units[unit]
                if unit in ("PiB", "EiB", "PB") or n > 1.05 * fs_bytes:
                    problems.append("%s, %s: %s %s in %r" % (p, where, number, unit, line[:120]))
    runs = results_by_preset.get(p, [])
    if not runs:
        continue                       # refused on a folder (it needs a device), and said so
    ran += 1
    r = runs[-1]
    summary = re.findall(r'^\s*GtkLabel#summary_label\S* @\S+ \S+ min=\d+(?: clipped)? "(.*)"', result, re.M)
    size = r["target"].get("size") or 0
    if r["target"]["kind"] == "file" and size:
        said = [u for u in size_re.findall(summary[0] if summary else "")]
        want = [(n, u) for n, u in said if abs(float(n.replace(",", ".")) * units[u] - size) <= 0.06 * size]
        headers += 1
        if not summary or not want:
            problems.append("%s: the header %r does not name the %d B test file" %
                            (p, summary[0] if summary else None, size))
    promise = [l for l in labels(start) if "Writes at most" in l]
    if promise and "plus writes for" not in promise[0] and "plus the timed" not in promise[0]:
        m = re.search(r"Writes at most (\d+(?:[.,]\d+)?) (KiB|MiB|GiB|TiB)", promise[0])
        if m:
            promises += 1
            bound = float(m.group(1).replace(",", ".")) * units[m.group(2)]
            # The page rounds to three figures.
            if r["bytes_written"] > bound * 1.01 + (1 << 20):
                problems.append("%s: wrote %d B, the start page promised at most %s %s" %
                                (p, r["bytes_written"], m.group(1), m.group(2)))
if ran < 15:
    problems.append("only %d presets ran on a folder" % ran)
if promises < 5:
    problems.append("only %d promises without a timed part to check" % promises)
print("; ".join(problems) if problems else
      "ok %d presets ran, %d headers named their test file, %d kept their promise" % (ran, headers, promises))
PY
)
case $verdict in
  ok*) echo "ok: every preset's start page and result ($verdict)" ;;
  *) echo "FAIL: $verdict"; failed=1 ;;
esac
walk_done

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The fewest presets whose steps, together, take every path the whole set takes: each
# step kind, direction, analysis and data pattern, each key a step or a preset sets
# (suites' "include" aside: cli-sheet runs the review suite). Greedy, cheapest steps
# first. The sanitizer stage runs these instead of all of them.
#   preset-cover.py PRESETS-DIR
import glob
import json
import os
import sys

presets = {}
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    p = json.load(open(path))
    presets[p["name"]] = p

IGNORED = ("steps", "name", "title", "description", "category", "include")


def features(p):
    fs = set()
    for k, v in p.items():
        if k not in IGNORED:
            fs.add("preset.%s=%s" % (k, v) if isinstance(v, bool) else "preset." + k)
    for s in p.get("steps", []):
        kind = s.get("kind", "job")
        fs.add("kind=" + kind)
        for k, v in s.items():
            if k == "label":
                continue
            if k in ("rw", "analysis", "data"):
                fs.add("%s:%s=%s" % (kind, k, v))
            else:
                fs.add("%s:%s" % (kind, k))
    return fs


def steps(p):
    if "include" in p:
        return sum(steps(presets[i]) for i in p["include"])
    return max(1, len(p.get("steps", [])))


feat = {n: features(p) for n, p in presets.items()}
left = set().union(*feat.values())
chosen = []
while left:
    best = max(sorted(feat), key=lambda n: (len(feat[n] & left) / steps(presets[n]), -steps(presets[n])))
    if not feat[best] & left:
        break
    chosen.append(best)
    left -= feat[best]
print("\n".join(sorted(chosen)))

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# import: fio's results as Nandscope's. A round trip on a test file: a preset exported
# (export-fio), run by fio, imported, beside Nandscope's own run of the same preset on
# the same folder: the same tests in the same order (block size, queue depth, direction),
# each with fio's figures and its bandwidth log as its series, each speed within 2 % of
# the bytes over the time fio's own JSON gives for that job (a unit read wrong would be
# 8, 1000 or 1024 times off) and within a factor of twenty of Nandscope's run (a job
# exported wrong; beside CI's other stages this disk has spread the two tools by seven:
# bench/ measures the tools against each other); a step's three runs folded back into
# one step. fio's --client
# output of two servers (tests/data/fio) gives a result per host; the results chart and
# sheet. Bad input refused with a message. Nothing is left behind. Skips (77) without fio.
set -u
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null || { echo "SKIP: fio is missing (apt install fio)"; exit 77; }
data=$(cd "$(dirname "$0")/../data/fio" && pwd)
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-import-XXXXXX")
trap 'rm -rf "$work"' EXIT

# The preset exported, run by fio in its own folder, and imported.
mkdir -p "$work/fio" "$work/own"
opts=(--preset seq-qd --size 32m --time 1s --runs 1 --max-idle 1s)
"$cli" export-fio --out "$work/fio/job.fio" --target "$work/fio" "${opts[@]}" > "$work/out.txt" 2>&1 \
  || bad "export: $(cat "$work/out.txt")"
(cd "$work/fio" && timeout 300 fio --output-format=json --output=fio.json job.fio > /dev/null 2> fio.err) \
  || bad "fio on the exported file: $(tail -3 "$work/fio/fio.err")"
rm -f "$work/fio/nandscope-fio.test"
if "$cli" import "$work/fio/fio.json" --json "$work/imported.json" > "$work/out.txt" 2>&1; then
  ok "imported: $(cat "$work/out.txt")"
else
  bad "import: $(cat "$work/out.txt")"
fi
"$cli" run --target "$work/own" "${opts[@]}" --quiet --json "$work/own.json" > "$work/out.txt" 2>&1 \
  || bad "Nandscope's own run: $(tail -3 "$work/out.txt")"

got=$(python3 - "$work/imported.json" "$work/own.json" "$work/fio/fio.json" <<'PY' 2>&1
import json, sys
imp, own = (json.load(open(p)) for p in sys.argv[1:3])
text = open(sys.argv[3]).read()
raw = json.loads(text[text.index('{'):])  # after the notes fio may print first
problems = []
# fio's jobs that are tests (not the idle between them), in the order of the steps.
fio_jobs = [j for j in raw['jobs'] if not j['jobname'].endswith('-idle')]
src = imp.get('source') or {}
if src.get('tool') != 'fio' or not src.get('version', '').startswith('fio-'):
    problems.append('source %r' % src)
ours = [s for s in own['steps'] if s['kind'] == 'job']
theirs = [s for s in imp['steps'] if s['kind'] == 'job']
if len(ours) != len(theirs):
    problems.append('%d tests imported, %d run' % (len(theirs), len(ours)))
if imp['preset']['name'] != own['preset']['name']:
    problems.append('preset %r, Nandscope ran %r' % (imp['preset']['name'], own['preset']['name']))
if len(fio_jobs) != len(theirs):
    problems.append('%d tests imported from %d fio jobs' % (len(theirs), len(fio_jobs)))
ratios = []
for a, b, j in zip(ours, theirs, fio_jobs):
    if a['label'] != b['label']:
        problems.append('test %r imported as %r' % (a['label'], b['label']))
    for k in ('rw', 'block_size', 'queue_depth'):
        if a['job'][k] != b['job'][k]:
            problems.append('%s: %s %r, fio %r' % (a['label'], k, a['job'][k], b['job'][k]))
    d = 'read' if a['job']['rw'].endswith('read') else 'write'
    mine, fio = a[d]['bw_bps'], b[d]['bw_bps']
    if fio <= 0 or not b[d]['lat_ns'].get('percentiles'):
        problems.append('%s: fio moved nothing or gave no percentiles' % b['label'])
        continue
    if len(b['series']['t_ns']) < 1:
        problems.append('%s: no series from its log' % b['label'])
    raw_bps = j[d]['io_bytes'] / (j[d]['runtime'] / 1000) if j[d]['runtime'] > 0 else 0
    if not raw_bps or abs(fio / raw_bps - 1) > 0.02:
        problems.append('%s: imported %.0f B/s, fio\'s bytes over its time %.0f B/s'
                        % (b['label'], fio, raw_bps))
    ratios.append(mine / fio)
    if not 0.05 <= mine / fio <= 20:
        problems.append('%s: %.0f MiB/s, fio %.0f MiB/s' % (a['label'], mine / 2**20, fio / 2**20))
print('; '.join(problems) if problems else 'ok %d tests, Nandscope/fio %.2f-%.2f' % (len(ratios), min(ratios), max(ratios)))
PY
)
case $got in
  ok*) ok "round trip: the preset and its tests as Nandscope's run, each speed fio's bytes over its time (${got#ok })" ;;
  *) bad "round trip: $got" ;;
esac

# A step's runs, fio's jobs -r1, -r2, -r3, are one step again, its headline the median.
mkdir -p "$work/runs"
"$cli" export-fio --out "$work/runs/job.fio" --target "$work/runs" --size 16m --rw read --bs 128k --qd 4 \
  --runs 3 --time 1s > "$work/out.txt" 2>&1 || bad "export of three runs: $(cat "$work/out.txt")"
(cd "$work/runs" && timeout 120 fio --output-format=json --output=fio.json job.fio > /dev/null 2> fio.err) \
  || bad "fio, three runs: $(tail -3 "$work/runs/fio.err")"
rm -f "$work/runs/nandscope-fio.test"
"$cli" import "$work/runs/fio.json" --json "$work/runs.json" > "$work/out.txt" 2>&1 || bad "import: $(cat "$work/out.txt")"
got=$(python3 - "$work/runs.json" "$work/runs/fio.json" <<'PY' 2>&1
import json, sys, statistics
r, fio = (json.load(open(p)) for p in sys.argv[1:3])
steps = [s for s in r['steps'] if s['kind'] == 'job']
bws = sorted(j['read']['bw_bytes'] for j in fio['jobs'] if j['read']['io_bytes'] > 0)
if len(steps) != 1 or len(steps[0]['runs']) != 3:
    print('%d steps, runs %s' % (len(steps), [len(s['runs']) for s in steps]))
elif steps[0]['read']['bw_bps'] != statistics.median(bws):
    print('headline %s, fio runs %s' % (steps[0]['read']['bw_bps'], bws))
elif [x['read']['lat_ns']['max'] for x in steps[0]['runs']] != [j['read']['clat_ns']['max'] for j in fio['jobs'] if j['read']['io_bytes'] > 0]:
    print('the runs do not carry their own latencies')
else:
    print('ok')
PY
)
[ "$got" = ok ] && ok "three runs of one test: one step of three runs, the median its headline, each run its latencies" \
  || bad "three runs: $got"

# The imported result charts and makes a sheet beside Nandscope's own.
"$cli" chart "$work/imported.json" --out "$work/c.svg" > "$work/out.txt" 2>&1 \
  && "$cli" sheet "$work/own.json" "$work/imported.json" --out "$work/s.svg" >> "$work/out.txt" 2>&1 \
  && grep -q 'imported' "$work/s.svg" \
  && ok "the imported result charts, and the sheet says it was imported" \
  || bad "chart or sheet of the imported result: $(tail -3 "$work/out.txt")"

# fio --client with two servers: a result per host.
if "$cli" import "$data/client.json" --logs "$data" --json "$work/c.json" > "$work/out.txt" 2>&1 \
   && [ -f "$work/c-localhost-8771.json" ] && [ -f "$work/c-localhost-8772.json" ] && [ ! -f "$work/c.json" ]; then
  ok "a client run of two servers: $(tr '\n' ' ' < "$work/out.txt")"
else
  bad "client run: $(cat "$work/out.txt"); $(ls "$work")"
fi

# Bad input.
printf 'not json' > "$work/bad.json"
printf '{"jobs": []}' > "$work/notfio.json"
expect_fail 2 'needs fio' import "$work/bad.json"
expect_fail 2 'unknown option' import "$work/bad.json" --json "$work/x.json" --frobnicate
expect_fail 2 'not a folder' import "$data/client.json" --json "$work/x.json" --logs "$data/client.json"
expect_fail 1 'damaged' import "$work/bad.json" --json "$work/x.json"
expect_fail 1 'no “fio version”' import "$work/notfio.json" --json "$work/x.json"
expect_fail 1 'Cannot read' import "$work/missing.json" --json "$work/x.json"
expect_fail 1 'not a regular file' import /dev/zero --json "$work/x.json"
expect_fail 1 'Cannot save' import "$data/multi.json" --json "$work/no/such/x.json"
[ ! -e "$work/x.json" ] && ok "nothing written for bad input" || bad "a result was written for bad input"
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# export-fio: every preset as a fio job file that fio 3.33 accepts (--parse-only), for
# a folder; the jobs are the plan's steps and runs, one after the other, with their
# regions, lengths and idles; a short Quick exported and run by fio on a 64 MiB test
# file: every step a job with no error, and its bandwidth log written; the clones'
# layouts (psync's threads, workers, by time, once, by bytes) run by fio over a file
# of zeros, inside their region; the data fio writes from the file as Nandscope's
# (random, compressible, zeros); on loop devices of 4096- and 512-byte blocks (root),
# the steps the run skips for a block the device cannot do are not exported, nor in
# the plan's time, and the response test's smallest block is the device's, and fio
# runs the 4096-byte file without an error; bad input refused. Nothing is left behind.
# Skips (77) without fio.
set -u
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null || { echo "SKIP: fio is missing (apt install fio)"; exit 77; }
work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-export-fio-XXXXXX")
loops=()
trap 'for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done; rm -rf "$work"' EXIT

# Every preset, parsed by fio.
n=0
for p in $("$cli" list-presets | awk 'NR > 1 && $1 != "" {print $1}'); do
  if ! "$cli" export-fio --out "$work/$p.fio" --target "$work" --preset "$p" > /dev/null 2> "$work/err.txt"; then
    bad "$p: export failed: $(cat "$work/err.txt")"
    continue
  fi
  if fio --parse-only "$work/$p.fio" > /dev/null 2> "$work/err.txt"; then
    n=$((n + 1))
  else
    bad "$p: fio refuses the job file: $(head -2 "$work/err.txt")"
  fi
done
[ "$n" -ge 29 ] && ok "$n presets exported, every file accepted by fio --parse-only" \
  || bad "only $n presets exported and accepted"

# The plan's steps and runs: Quick's 10 tests, 3 runs each by default, one after the other.
f=$work/quick.fio
jobs=$(grep -c '^\[s[0-9]*-r[0-9]-' "$f")
walls=$(grep -c '^stonewall' "$f")
[ "$jobs" -eq 30 ] && ok "Quick: 10 tests × 3 runs = $jobs jobs" || bad "Quick: $jobs jobs, expected 30"
[ "$walls" -eq $(grep -c '^\[s' "$f") ] && ok "every job waits for the one before (stonewall)" \
  || bad "$walls stonewalls for $(grep -c '^\[s' "$f") jobs"
# Every job bounds its region by size= (a filesize= would make each job's region the
# whole file).
grep -q '^runtime=5000ms' "$f" && grep -q '^filename=.*nandscope-fio.test$' "$f" && ! grep -q '^filesize=' "$f" \
  && [ "$(grep -c '^size=' "$f")" -eq 30 ] && grep -q '^write_bw_log=s01-r1' "$f" \
  && ok "Quick's 5 s tests, its test file, each job's region and the bandwidth logs are in the file" \
  || bad "Quick's file lacks runtime, the test file, a job's size or the logs, or has filesize=: $(head -30 "$f")"
# A write-fill: once over the whole file, not by time; where a preset stops its fill
# once the speed dropped (write-fill-twice), a comment says fio cannot.
sed -n '/Step [0-9]*: .*analysis write-fill)/,/^log_avg/p' "$work/write-fill.fio" > "$work/wf.txt"
grep -q '^size=' "$work/wf.txt" && ! grep -q '^time_based' "$work/wf.txt" \
  && grep -q '^; Nandscope stops this write' "$work/write-fill-twice.fio" \
  && ok "write-fill: once over its region; write-fill-twice's stop rule in a comment" \
  || bad "write-fill's job: $(cat "$work/wf.txt")"

# A short Quick run by fio itself.
"$cli" export-fio --out "$work/short.fio" --target "$work" --preset quick --size 64m --time 1s \
  --runs 1 --max-idle 1s > "$work/out.txt" 2>&1 || bad "short export: $(cat "$work/out.txt")"
(cd "$work" && timeout 300 fio --output-format=json --output=short.json short.fio > /dev/null 2> fio.err)
rc=$?
got=$(python3 - "$work/short.json" <<'PY' 2>&1
import json, sys
r = json.load(open(sys.argv[1]))
jobs = [j for j in r['jobs'] if '-r' in j['jobname']]
bad = [j['jobname'] for j in jobs if j['error'] or (j['read']['io_bytes'] + j['write']['io_bytes']) == 0]
print(len(jobs), len(bad))
PY
)
# Every bandwidth log holds lines: fio writes an empty one for a log_avg_msec it misreads.
[ $rc -eq 0 ] && [ "$got" = "10 0" ] && ls "$work"/s01-r1_bw*.log > /dev/null 2>&1 \
  && ! find "$work" -name 's*-r*_bw.*.log' -empty | grep -q . \
  && ok "fio ran the short Quick: 10 jobs, each moved data, no error, logs written and not empty" \
  || bad "fio on the short Quick: exit $rc, jobs/bad: $got: $(tail -3 "$work/fio.err")"
rm -f "$work/nandscope-fio.test"

# The clones' layout, run by fio over a 16 MiB file of zeros: a job that moves its 8 MiB
# region once (or 4 MiB of it by --bytes) moves exactly that, writes every block of it
# at most once (psync's threads at one stream take turns: every block), and nothing
# past it. Before, psync's clones at queue depth 4 all began at the region's start
# and each moved all of it (4 ×); with two workers they began past it (to 3.5 ×).
layout() { # NAME BYTES ALL-BLOCKS ARGS...
  local name=$1 bytes=$2 all=$3 rw=$5
  shift 3
  rm -f "$work/nandscope-fio.test"
  head -c 16m /dev/zero > "$work/nandscope-fio.test"
  if ! "$cli" export-fio --out "$work/l.fio" --target "$work" --size 16m --span 8m --bs 64k "$@"        > "$work/out.txt" 2>&1; then
    bad "$name: export: $(cat "$work/out.txt")"
    return
  fi
  (cd "$work" && timeout 120 fio --output-format=json --output=l.json l.fio > /dev/null 2> fio.err)
  got=$(python3 - "$work/l.json" "$work/nandscope-fio.test" <<'PY' 2>&1
import json, sys
r = json.load(open(sys.argv[1]))
moved = sum(j['write']['io_bytes'] for j in r['jobs'] if '-r' in j['jobname'])
data = open(sys.argv[2], 'rb').read()
blocks = [data[i:i + 65536] for i in range(0, len(data), 65536)]
written = sum(1 for b in blocks[:128] if b.count(0) != len(b))
past = sum(1 for b in blocks[128:] if b.count(0) != len(b))
print(moved, len(data), written, past)
PY
)
  # Imported: the step's direction (fio's "write:SKIP" is a write) and its region.
  if "$cli" import "$work/l.json" --json "$work/l-imp.json" > /dev/null 2>&1; then
    got="$got $(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["steps"][0]["job"]
print(j["rw"], j["region_length"])' "$work/l-imp.json" 2>&1)"
  fi
  set -- $got
  if [ $# -eq 6 ] && [ "$5" = "$rw" ] && [ "$6" = 8388608 ] && { [ "$1" = "$bytes" ] || { [ "$bytes" = any ] && [ "$1" -gt 0 ]; }; } \
     && [ "$2" = 16777216 ] && [ "$4" = 0 ] \
     && { [ "$all" = 0 ] || [ "$3" = $(( ${bytes/any/8388608} / 65536)) ]; }; then
    ok "$name: fio moved $1 bytes, wrote $3 of the region's 128 blocks, none past it; imported as $5 over $6 bytes"
  else
    bad "$name: fio moved/file size/blocks written/past/imported rw/region: $got (wanted $bytes bytes): $(grep -v '^;' "$work/l.fio" | tail -22 | tr '\n' ' ')"
  fi
}
layout "psync at QD4, one stream" 8388608 1 --rw write --qd 4 --backend psync --once
layout "psync at QD4, two workers" 8388608 1 --rw write --qd 4 --threads 2 --backend psync --once
layout "psync at QD4, 4 MiB of it" 4194304 1 --rw write --qd 4 --backend psync --bytes 4m
layout "psync at QD4, random" 8388608 0 --rw randwrite --qd 4 --backend psync --once
layout "io_uring at QD8, two workers" 8388608 1 --rw write --qd 8 --threads 2 --backend io_uring --once
layout "psync at QD1, two workers" 8388608 1 --rw write --qd 1 --threads 2 --backend psync --once
# By time: as many bytes as fio moves, inside the region (with filesize= in the file,
# fio ran every job over the whole file).
layout "psync at QD4, one stream, 1 s" any 1 --rw write --qd 4 --backend psync --time 1s
layout "io_uring at QD8, random, 1 s" any 0 --rw randwrite --qd 8 --backend io_uring --time 1s
rm -f "$work/nandscope-fio.test" "$work"/*.log

# The data fio writes from the file, as Nandscope's own: random (no two 4 KiB blocks
# alike, nothing to compress: fio's default scramble left 8 % of each 4 KiB to zlib;
# with refill_buffers a few of fio's buffers still give zlib 1-3 % of their blocks,
# 0.9954-0.9975 of the whole over six runs here, so the line is at 0.98), compressible
# (about half of it compresses away) and zeros.
data_kind() { # DATA
  rm -f "$work/nandscope-fio.test"
  head -c 16m /dev/zero > "$work/nandscope-fio.test"
  if ! "$cli" export-fio --out "$work/d.fio" --target "$work" --size 16m --span 8m --bs 64k \
       --rw write --qd 1 --backend psync --once --data "$1" > "$work/out.txt" 2>&1; then
    echo "export: $(cat "$work/out.txt")"
    return
  fi
  (cd "$work" && timeout 120 fio --output-format=json --output=d.json d.fio > /dev/null 2> fio.err) \
    || { echo "fio: $(tail -3 "$work/fio.err")"; return; }
  python3 - "$work/nandscope-fio.test" <<'PY' 2>&1
import sys, zlib
data = open(sys.argv[1], 'rb').read(8 << 20)
blocks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
zeros = sum(1 for b in blocks if b.count(0) == len(b))
# As a compressing controller sees it: each 4 KiB on its own.
packed = sum(min(len(zlib.compress(b, 6)), len(b)) for b in blocks)
print(len(set(blocks)), len(blocks), zeros, round(packed / len(data), 4))
PY
}
set -- $(data_kind random)
[ $# -eq 4 ] && [ "$1" = "$2" ] && [ "$3" = 0 ] && awk "BEGIN {exit !($4 > 0.98)}" \
  && ok "random data: fio wrote $1 distinct 4 KiB blocks of $2, compressed to $4" \
  || bad "random data: distinct/blocks/zero blocks/compressed: $*"
set -- $(data_kind compressible)
[ $# -eq 4 ] && [ "$1" = "$2" ] && [ "$3" = 0 ] && awk "BEGIN {exit !($4 > 0.4 && $4 < 0.7)}" \
  && ok "compressible data: $1 distinct 4 KiB blocks of $2, compressed to $4" \
  || bad "compressible data: distinct/blocks/zero blocks/compressed: $*"
set -- $(data_kind zeros)
[ $# -eq 4 ] && [ "$3" = "$2" ] \
  && ok "zeros: all $2 blocks of zeros" || bad "zeros: distinct/blocks/zero blocks/compressed: $*"
rm -f "$work/nandscope-fio.test" "$work"/*.log

# A device's own unit: bs-sweep's 512 B to 2 KiB steps are skipped on a 4096-byte
# device by the run; the file says so and has no job of them, the plan has no time
# for them (six 1 s tests), and Response time runs in the device's smallest block.
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
  declare -A plan_ns
  for sector in 4096 512; do
    truncate -s 32M "$work/lb$sector.img"
    if ! l=$(losetup -f --show -b "$sector" "$work/lb$sector.img"); then
      bad "losetup -b $sector"
      continue
    fi
    loops+=("$l")
    "$cli" export-fio --out "$work/bs$sector.fio" --target "$l" --preset bs-sweep --time 100ms --runs 1 --max-idle 100ms \
      > /dev/null 2>&1 || bad "$sector: bs-sweep's export failed"
    "$cli" export-fio --out "$work/rt$sector.fio" --target "$l" --preset response-time --time 100ms --runs 1 \
      > /dev/null 2>&1 || bad "$sector: response-time's export failed"
    "$cli" run --target "$l" --preset bs-sweep --time 1s --runs 1 --dry-run --json "$work/plan$sector.json" \
      > /dev/null 2>&1 || bad "$sector: bs-sweep's plan failed"
    plan_ns[$sector]=$(json_get "$work/plan$sector.json" 'r["states"][0]["timed_ns"]')
    small=$(grep -cE '^bs=(512|1024|2048)$' "$work/bs$sector.fio")
    skipped=$(grep -c 'skipped as Nandscope skips it' "$work/bs$sector.fio")
    rt=$(grep '^bs=' "$work/rt$sector.fio" | sort -u | tr '\n' ' ')
    if [ "$sector" = 4096 ]; then
      [ "$small" = 0 ] && [ "$skipped" = 6 ] \
        && ok "4096-byte device: bs-sweep's 6 steps below 4 KiB skipped in the file, said so" \
        || bad "4096-byte device: $small jobs below 4 KiB, $skipped said skipped (6 expected)"
      [ "$rt" = "bs=4096 " ] && ok "4096-byte device: Response time in 4 KiB blocks" \
        || bad "4096-byte device: Response time's blocks: $rt"
      (cd "$work" && fio --output-format=json --output="$work/bs.json" "$work/bs$sector.fio" \
        > /dev/null 2> "$work/err.txt") && ok "4096-byte device: fio ran bs-sweep's file without an error" \
        || bad "4096-byte device: fio failed: $(grep -m2 error "$work/err.txt")"
      rm -f "$work"/*.log "$work/bs.json"
    else
      [ "$small" = 6 ] && [ "$skipped" = 0 ] \
        && ok "512-byte device: bs-sweep's 6 steps below 4 KiB exported" \
        || bad "512-byte device: $small jobs below 4 KiB, $skipped said skipped (0 expected)"
      [ "$rt" = "bs=512 " ] && ok "512-byte device: Response time in 512 B blocks, as the run" \
        || bad "512-byte device: Response time's blocks: $rt"
    fi
  done
  d=$(( ${plan_ns[512]:-0} - ${plan_ns[4096]:-0} ))
  [ "$d" = 6000000000 ] && ok "the plan's time on the 4096-byte device: 6 s less, the skipped tests'" \
    || bad "the plans' times: ${plan_ns[512]:-?} and ${plan_ns[4096]:-?} ns (6 s apart expected)"
  for l in "${loops[@]}"; do losetup -d "$l"; done
  loops=()
  rm -f "$work"/lb*.img
else
  echo "# not root or no losetup: the device checks skipped"
fi

# Bad input.
expect_fail 2 'needs --out' export-fio --target "$work" --preset quick
expect_fail 2 'drive states' export-fio --out "$work/x.fio" --target "$work" --state empty
expect_fail 2 'no preset' export-fio --out "$work/x.fio" --target "$work" --preset nonsense
expect_fail 1 'does not exist' export-fio --out "$work/x.fio" --target "$work/no/such/dir/"
expect_fail 1 'Cannot write the job file' export-fio --out "$work/no/such/x.fio" --target "$work"
finish

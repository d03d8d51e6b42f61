#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the write-fill runs of vm-write-fill-schedule.sh against the switches QEMU
made (the QMP driver's log): for each drive, the truth (where QEMU switched and the
speeds it was given), what the raw series shows (the premise: did the guest follow
the schedule, or did a busy host starve it?) and what analysis.slc found."""
import argparse
import json
import os
import statistics
import sys

from vmcommon import Console

TOLERANCE = 0.10
# How late a switch may show in the data: QEMU's tenth of a second at the guest's
# speed (up to 18 MB at 180 MB/s) and the queue it had admitted (8 MiB). Measured on
# a quiet host, 4 runs: at most +18.7 MB (the step drive's first switch), the others
# within ±6 MB; a busy one showed +32.5 MB.
LAG_BYTES = 24e6
# The premise failed: the rig, not the analysis (the script boots once more).
RIG_SHORT = 75
rig_short = False

p = argparse.ArgumentParser()
p.add_argument('console')
p.add_argument('qmp_log')
p.add_argument('--case', action='append', required=True,
               help='KIND:SERIAL:SIZE:DRIVE=BPS@BYTES:BPS…')
a = p.parse_args()

con = Console(a.console)
check = con.check
con.check_guest()

log = [json.loads(line) for line in open(a.qmp_log, encoding='utf-8') if line.strip()]
for e in log:
    if 'error' in e:
        check(False, f'QMP driver: {e["error"]}')
final = next((e['final_wr_bytes'] for e in log if 'final_wr_bytes' in e), {})


def mb(x):
    return f'{x / 1e6:.1f} MB' if x is not None else 'None'


def mbs(x):
    return f'{x / 1e6:.1f} MB/s' if x is not None else 'None'


def rel(got, want):
    return f'{(got - want) / want * 100:+.1f} %' if got is not None and want else 'n/a'


def within(got, want, tol=TOLERANCE):
    return got is not None and want > 0 and abs(got - want) <= tol * want


def effective(v, length):
    """The mean speed QEMU gives a stretch of @length bytes limited to @v: each switch
    (and the start) zeroes its bucket, which admits v / 10 bytes at once."""
    return length / ((length - v / 10) / v) if length > v / 10 else v


def speed_ok(got, v, length, tol=TOLERANCE):
    """Within @tol of the limit, or of the limit with QEMU's tenth of a second."""
    return got is not None and (1 - tol) * v <= got <= (1 + tol) * effective(v, length)


def fill_step(r):
    steps = [s for s in r.get('steps') or [] if s.get('analysis') == 'write-fill']
    return steps[0] if steps else None


def raw_series(step):
    """(start, end, speed) of every sample that wrote bytes."""
    s = step.get('series') or {}
    out, prev = [], 0
    for pos, b, d in zip(s.get('position') or [], s.get('write_bytes') or [],
                         s.get('duration_ns') or []):
        if b > 0 and d > 0:
            out.append((prev, pos, b * 1e9 / d))
        prev = pos
    return out


def stretch_speed(samples, lo, hi):
    """Median speed of the samples wholly inside [lo, hi), and bytes over time there."""
    inside = [(s, e, v) for s, e, v in samples if s >= lo and e <= hi]
    if not inside:
        return None, None, 0
    speeds = [v for _, _, v in inside]
    secs = sum((e - s) / v for s, e, v in inside)
    return statistics.median(speeds), sum(e - s for s, e, _ in inside) / secs, len(inside)


def change_in_data(samples, at, before, after):
    """Where the guest's data changed from @before to @after near QEMU's switch at @at:
    the first sample past it on the new side of their geometric mean, and inside the
    sample that straddles the change, the byte where its speed says the change was
    (its time is the fast part's and the slow part's: B/v = b/va + (B - b)/vb, with va
    the speed just before, as the guest saw it)."""
    mid = (before * after) ** 0.5
    new_side = (lambda v: v < mid) if after < before else (lambda v: v > mid)
    k = next((i for i, (s, e, v) in enumerate(samples) if e > at and new_side(v)), None)
    if k is None:
        return None
    prior = [v for s, e, v in samples[max(0, k - 4):k - 1]] or [before]
    va, vb = statistics.median(prior), after
    for s, e, v in (samples[k - 1], samples[k]) if k > 0 else (samples[k],):
        if abs(1 / va - 1 / vb) < 1e-15:
            break
        share = (1 / v - 1 / vb) / (1 / va - 1 / vb)
        if share < 0.95:
            return s + max(0.0, min(1.0, share)) * (e - s)
    return samples[k][0]


def after_avg(samples, at):
    """Bytes over time of the series after byte @at (the straddling sample in part)."""
    bytes_, secs = 0.0, 0.0
    for s, e, v in samples:
        if e <= at:
            continue
        lo = max(s, at)
        bytes_ += e - lo
        secs += (e - lo) / v
    return bytes_ / secs if secs else None


for spec in a.case:
    kind, serial, size, sched = spec.split(':', 3)
    size = int(size)
    drive, _, rest = sched.partition('=')
    parts = rest.split('@')
    speeds = [int(parts[0])] + [int(x.partition(':')[2]) for x in parts[1:]]
    asked = [int(x.partition(':')[0]) for x in parts[1:]]
    switches = [e for e in log if e.get('drive') == drive and 'asked_bytes' in e]
    # Where QEMU left the drive's queue stuck and the driver restarted it (the stall
    # shows in the raw series: the premise check below judges it).
    stuck = [e for e in log if e.get('drive') == drive and 'kick' in e and e['wr_bytes'] < size]
    print(f'# --- {kind} ({drive}, {serial}, {size / 2**20:g} MiB) ---')
    print(f'# schedule: {mbs(speeds[0])}' +
          ''.join(f', {mbs(v)} from {mb(at)}' for at, v in zip(asked, speeds[1:])))
    if not check(len(switches) == len(asked),
                 f'{kind}: QEMU made all {len(asked)} switches ({len(switches)} logged)'):
        continue
    truth = [(e['wr_bytes_before'] + e['wr_bytes_after']) / 2 for e in switches]
    for e, t in zip(switches, truth):
        print(f'#   switch to {mbs(e["bps"])} at {mb(t)} (wr_bytes {e["wr_bytes_before"]}'
              f'..{e["wr_bytes_after"]}, asked {mb(e["asked_bytes"])}, {e["t_s"]} s)')
    for e in stuck:
        print(f'#   QEMU left the queue stuck at {mb(e["wr_bytes"])} ({e["t_s"]} s): restarted')
    # Nothing but the fill wrote to the drive: QEMU's count is the fill's.
    check(final.get(drive) == size,
          f'{kind}: QEMU counted {final.get(drive)} bytes written, the namespace is {size}')

    check(con.rcs.get('run-' + kind) == 0, con.rc_text('run-' + kind))
    r = con.section_json('result-' + kind)
    step = fill_step(r) if r else None
    if not (r and check(step is not None, f'{kind}: the result has its fill step')):
        continue
    slc = (r.get('analysis') or {}).get('slc') or {}
    samples = raw_series(step)
    sample_bytes = (step.get('series') or {}).get('sample_bytes') or 16 << 20
    print(f'# {kind} detected: {slc.get("summary") or slc.get("error")}')
    for ph in slc.get('phases') or []:
        print(f'#   phase from {mb(ph.get("start_bytes"))} to {mb(ph.get("end_bytes"))} '
              f'at {mbs(ph.get("bps"))}')
    if os.environ.get('NSC_VM_RESULTS'):
        with open(os.path.join(os.environ['NSC_VM_RESULTS'], kind + '.json'), 'w',
                  encoding='utf-8') as f:
            json.dump(r, f)

    # The premise: between switches the guest wrote at the speed QEMU was given. A
    # stretch whose median is off is a host that starved the guest, not the analysis.
    bounds = [0] + truth + [size]
    ok = True
    for k, v in enumerate(speeds):
        lo, hi = bounds[k], bounds[k + 1]
        # Leave out the first 16 MB of a stretch: the buckets QEMU zeroes at a switch
        # (and the very start) let a tenth of a second through at the guest's speed.
        med, avg, count = stretch_speed(samples, lo + 16e6, hi)
        good = count > 0 and within(med, v)
        ok = ok and good
        print(f'#   stretch {mb(lo)}..{mb(hi)}: given {mbs(v)}, raw median {mbs(med)} '
              f'over {count} samples {"" if good else "  <-- off"}')
    # And each change showed in the data where QEMU made it: at most LAG_BYTES later
    # (the buckets' tenth of a second and the admitted queue). Later, and the drive the
    # guest wrote to was not the schedule: the analysis cannot be judged against it.
    for k, t in enumerate(truth):
        before, after = speeds[k], speeds[k + 1]
        edge = change_in_data(samples, t, before, after)
        lag = None if edge is None else edge - t
        good = lag is not None and lag <= LAG_BYTES
        ok = ok and good
        print(f'#   change to {mbs(after)} logged at {mb(t)}: in the data from '
              f'{mb(edge)} ({"+" if lag and lag > 0 else ""}{mb(lag)}) {"" if good else "  <-- late"}')
    if not check(ok, f'{kind} premise: the raw series followed the schedule within {TOLERANCE:.0%}, '
                     f'each change within {mb(LAG_BYTES)} of QEMU\'s switch (if not, the host '
                     'starved the TCG guest: a premise failure, not the analysis)'):
        rig_short = True

    cache = slc.get('cache_bytes')
    bursts = slc.get('bursts') or []
    phases = slc.get('phases') or []
    print(f'#   {"":18} {"truth":>12} {"found":>12}')
    print(f'#   {"cache":18} {mb(truth[0]):>12} {mb(cache):>12}   {rel(cache, truth[0])}')
    print(f'#   {"in-cache":18} {mbs(speeds[0]):>12} {mbs(slc.get("in_cache_bps")):>12}'
          f'   {rel(slc.get("in_cache_bps"), speeds[0])}'
          f'   (with QEMU\'s tenth of a second: {mbs(effective(speeds[0], truth[0]))})')
    check(slc.get('has_cache') is True and slc.get('drop_cause') == 'cache-end',
          f'{kind}: has_cache {slc.get("has_cache")}, drop_cause {slc.get("drop_cause")!r}')
    check(within(cache, truth[0]),
          f'{kind}: cache_bytes {mb(cache)} within {TOLERANCE:.0%} of {mb(truth[0])} ({rel(cache, truth[0])})')
    check(speed_ok(slc.get('in_cache_bps'), speeds[0], truth[0]),
          f'{kind}: in_cache_bps {mbs(slc.get("in_cache_bps"))} within {TOLERANCE:.0%} of '
          f'{mbs(speeds[0])}..{mbs(effective(speeds[0], truth[0]))}')

    if kind == 'short':
        print(f'#   {"post-cache":18} {mbs(speeds[1]):>12} {mbs(slc.get("post_cache_bps")):>12}')
        check(within(slc.get('post_cache_bps'), speeds[1]),
              f'short: post_cache_bps {mbs(slc.get("post_cache_bps"))} within {TOLERANCE:.0%} of {mbs(speeds[1])}')
        check(bursts == [], f'short: no bursts ({len(bursts)})')
    elif kind == 'sawtooth':
        slow = speeds[1]
        truth_bursts = [(truth[k], truth[k + 1] - truth[k], speeds[k + 1])
                        for k in range(len(speeds) - 1) if speeds[k + 1] > slow]
        own_avg = after_avg(samples, truth[0])
        print(f'#   {"post-cache":18} {mbs(slow):>12} {mbs(slc.get("post_cache_bps")):>12}')
        print(f'#   {"post-cache avg":18} {mbs(own_avg):>12} {mbs(slc.get("post_cache_avg_bps")):>12}'
              '   (truth: the run\'s own bytes over time after the switch)')
        check(within(slc.get('post_cache_bps'), slow),
              f'sawtooth: post_cache_bps {mbs(slc.get("post_cache_bps"))} within {TOLERANCE:.0%} of {mbs(slow)}')
        check(within(slc.get('post_cache_avg_bps'), own_avg or 0, 0.05),
              f'sawtooth: post_cache_avg_bps {mbs(slc.get("post_cache_avg_bps"))} within 5 % of '
              f'the series\' {mbs(own_avg)}')
        for (at, length, v), b in zip(truth_bursts, bursts + [None] * len(truth_bursts)):
            got = (b or {})
            print(f'#   {"burst":18} {mb(at):>12} {mb(got.get("start_bytes")):>12}   start')
            print(f'#   {"":18} {mb(length):>12} {mb(got.get("bytes")):>12}   bytes')
            print(f'#   {"":18} {mbs(v):>12} {mbs(got.get("bps")):>12}   speed'
                  f'   (with QEMU\'s tenth of a second: {mbs(effective(v, length))})')
        if check(len(bursts) == len(truth_bursts),
                 f'sawtooth: {len(bursts)} bursts found, {len(truth_bursts)} given'):
            for (at, length, v), b in zip(truth_bursts, bursts):
                # Where a burst starts and ends: within a sample and a tenth of it.
                slack = 0.1 * length + sample_bytes
                check(abs(b['start_bytes'] - at) <= slack and abs(b['bytes'] - length) <= slack
                      and speed_ok(b['bps'], v, length),
                      f'sawtooth: burst at {mb(b["start_bytes"])} of {mb(b["bytes"])} at '
                      f'{mbs(b["bps"])}; given {mb(at)} of {mb(length)} at {mbs(v)}..'
                      f'{mbs(effective(v, length))} (slack {mb(slack)}, speed {TOLERANCE:.0%})')
    elif kind == 'step':
        if check(len(phases) == 3, f'step: {len(phases)} phases (cache and two steps)'):
            for k in (1, 2):
                print(f'#   {"phase " + str(k):18} {mb(truth[k - 1]):>12} {mb(phases[k]["start_bytes"]):>12}'
                      f'   start')
                print(f'#   {"":18} {mbs(speeds[k]):>12} {mbs(phases[k]["bps"]):>12}   speed')
                length = (truth + [size])[k] - truth[k - 1]
                check(within(phases[k]['start_bytes'], truth[k - 1]) and speed_ok(phases[k]['bps'], speeds[k], length),
                      f'step: phase {k} from {mb(phases[k]["start_bytes"])} at {mbs(phases[k]["bps"])}; '
                      f'given {mb(truth[k - 1])} at {mbs(speeds[k])}')
        check(bursts == [], f'step: no bursts ({len(bursts)})')
    con.check_result_device(kind, r, serial)

if rig_short:
    con.tally(': the rig did not follow its schedule, so the analysis was not judged')
    sys.exit(RIG_SHORT)
con.finish()

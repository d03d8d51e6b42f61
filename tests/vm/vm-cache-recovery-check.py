#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks vm-cache-recovery.sh's guest console against qmp-throttle.py's log: the
recovery steps and the second write-fill pass stop within their margin after the
drop QEMU made, at a byte count the log gives."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vmcommon import Console  # noqa: E402

MIB = 1 << 20
GIB = 1 << 30
# A detected drop is at most two samples (16 MiB each on a 3 GiB drive) and a queue
# (8 × 1 MiB) of QEMU's switch, plus what the poll (30 ms, 9 MB at 300 MB/s) lets through.
TOLERANCE = 64 * MIB
# Exit status when the rig did not write at the fast rate it was told before QEMU
# switched to slow: the drive model was not what the guest met, so the run says
# nothing of the analysis, and the script boots the guest once more.
RIG_SHORT = 75


def rig_shortfall(fill, fast, until):
    """The longest stretch before byte @until that the guest wrote below 2/3 of the
    fast rate, as (bytes, seconds): QEMU 7.2 under TCG sometimes cannot keep up."""
    series = fill.get('series') or (fill.get('runs') or [{}])[0].get('series') or {}
    run_b = run_s = worst_b = worst_s = 0
    prev = 0
    for pos, dur, wb in zip(series.get('position', []), series.get('duration_ns', []),
                            series.get('write_bytes', [])):
        if prev >= until:
            break
        if dur > 0 and wb / (dur / 1e9) < fast * 2 / 3:
            run_b += pos - prev
            run_s += dur / 1e9
            worst_b, worst_s = max(worst_b, run_b), max(worst_s, run_s)
        else:
            run_b = run_s = 0
        prev = pos
    return worst_b, worst_s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('console')
    ap.add_argument('throttle_log')
    ap.add_argument('--cache', type=int, required=True)
    ap.add_argument('--fast', type=int, required=True)
    ap.add_argument('--slow', type=int, required=True)
    ap.add_argument('--size', type=int, required=True)
    a = ap.parse_args()

    c = Console(a.console)
    c.check_guest()
    events = [json.loads(line) for line in open(a.throttle_log) if line.strip()]
    slows = [e for e in events if e['event'] == 'slow']
    kicks = [e for e in events if e['event'] == 'kick']
    print(f'# {len(kicks)} kicks of a stuck throttle queue (QEMU 7.2), idles included')
    print(f'# QEMU switched to slow at {[(e["wr_bytes"] - e["since"]) // MIB for e in slows]} MiB '
          f'after each recovery (cache {a.cache // MIB} MiB)')
    truth = [e['wr_bytes'] - e['since'] for e in slows]

    dry = c.sections.get('dry-run', '')
    c.check(c.rcs.get('dry-run') == 0 and '  total ' in dry, c.rc_text('dry-run') + ': a budget with a total')
    for line in dry.splitlines():
        print('# dry-run: ' + line)

    rec = c.section_json('result-recovery')
    if rec is None:
        c.finish()
    steps = [s for s in rec['steps'] if s['kind'] == 'job']
    fill, recovery = steps[0], steps[1:]
    # One recovery step per SNIA idle (5, 10, 15, 25, 50 s), each a switch to slow.
    c.check(len(recovery) == 5 and len(truth) >= 6,
            f'{len(recovery)} recovery steps, {len(truth)} switches to slow seen by QEMU')
    c.check(fill.get('stop_reason') == 'full' and fill['write']['bytes'] == a.size,
            f'the write-fill wrote the drive once: {fill["write"]["bytes"] // MIB} MiB, '
            f'stop_reason {fill.get("stop_reason")}')
    # The rig first: a sustained stretch (2 s, or 3 % of the fill) below 2/3 of the
    # fast rate before QEMU's switch is a drive other than the model.
    short_b, short_s = rig_shortfall(fill, a.fast, truth[0])
    if short_s >= 2 or short_b >= 0.03 * a.size:
        print(f'# the rig wrote {short_b // MIB} MiB ({short_s:.1f} s) below 2/3 of its fast rate '
              f'before QEMU switched at {truth[0] // MIB} MiB: not the drive it was told to be')
        sys.exit(RIG_SHORT)
    slc = rec['analysis'].get('slc') or {}
    cache = slc.get('cache_bytes') or 0
    c.check(slc.get('has_cache') and abs(cache - truth[0]) <= TOLERANCE,
            f'the write-fill found a cache of {cache // MIB} MiB (QEMU: {truth[0] // MIB} MiB)')
    points = (rec['analysis'].get('cache_recovery') or {}).get('points', [])
    fast_bytes = [p.get('fast_bytes') for p in points]

    total = fill['write']['bytes']
    for k, s in enumerate(recovery):
        if k + 1 >= len(truth):
            break
        true_drop = truth[k + 1]
        stop = s.get('stop') or {}
        written = s['write']['bytes']
        drop = stop.get('drop_position')
        cap = stop.get('cap_bytes') or 0
        past = written - true_drop
        total += written
        want_cap = min(a.size, max(int(1.25 * cache + GIB), 512 * MIB)) // MIB * MIB
        print(f'# {s["label"]}: wrote {written // MIB} MiB, stop_reason {s.get("stop_reason")}, '
              f'drop found at {None if drop is None else drop // MIB} MiB (QEMU: {true_drop // MIB} MiB), '
              f'{past // MIB} MiB past it, cap {cap // MIB} MiB')
        c.check(s.get('stop_reason') == 'drop-held', f'{s["label"]}: stopped because its drop held '
                f'({s.get("stop_reason")})')
        c.check(drop is not None and abs(drop - true_drop) <= TOLERANCE,
                f'{s["label"]}: drop at {None if drop is None else drop // MIB} MiB, '
                f'QEMU switched at {true_drop // MIB} MiB (±{TOLERANCE // MIB} MiB)')
        hold = stop.get('past_bytes', 0)
        c.check(drop is not None and written - drop >= hold and past <= hold + TOLERANCE,
                f'{s["label"]}: stopped {past // MIB} MiB past the drop (margin {hold // MIB} MiB, '
                f'at most {(hold + TOLERANCE) // MIB} MiB)')
        c.check(cap == want_cap and written <= cap,
                f'{s["label"]}: {written // MIB} MiB within its cap of {cap // MIB} MiB '
                f'(1.25 × {cache // MIB} MiB + 1 GiB = {want_cap // MIB} MiB)')
        if k < len(fast_bytes):
            fb = fast_bytes[k]
            c.check(fb is not None and abs(fb - true_drop) <= TOLERANCE,
                    f'{s["label"]}: the analysis still measures {None if fb is None else fb // MIB} MiB '
                    f'fast again (QEMU: {true_drop // MIB} MiB)')
            # QEMU switches once per step and never back: no speed that came back to
            # doubt. The guest sees a disk a virtual machine emulates, whose host may
            # take writes into memory while idle as a cache does: not verified for that.
            c.check(points[k].get('verdict') == 'not-verified' and points[k].get('reason') == 'system-cache',
                    f'{s["label"]}: not doubted for a speed that came back, not verified through an '
                    f'emulated disk (verdict {points[k].get("verdict")}, {points[k].get("reason")}, '
                    f'the speed back at {points[k].get("back_at_bytes")})')
    print(f'# cache-recovery wrote {total / GIB:.2f} GiB in all (result: {rec.get("bytes_written", 0) / GIB:.2f} GiB)')
    c.check(rec.get('bytes_written') == total, f'bytes_written {rec.get("bytes_written")} = the steps\' {total}')

    # The drive's own count: QEMU's SMART data units, 512 000 bytes each, rounded up.
    before, after = rec.get('smart_before') or {}, rec.get('smart_after') or {}
    if c.check('bytes_written' in before and 'bytes_written' in after,
               'the result has the SMART data units written before and after'):
        diff = after['bytes_written'] - before['bytes_written']
        c.check(abs(diff - total) <= total / 100 + 512000,
                f'SMART counted {diff / GIB:.3f} GiB written, the run {total / GIB:.3f} GiB')
    out = c.sections.get('run-recovery', '')
    c.check('by the drive\'s' in out, 'the CLI printed the drive\'s count beside the run\'s: '
            + next((l for l in out.splitlines() if 'by the drive' in l), '(none)'))

    twice = c.section_json('result-twice')
    if twice is not None:
        jobs = [s for s in twice['steps'] if s['kind'] == 'job']
        second = jobs[1]
        stop = second.get('stop') or {}
        written = second['write']['bytes']
        print(f'# write-fill-twice: first pass {jobs[0]["write"]["bytes"] // MIB} MiB, second pass '
              f'{written // MIB} MiB ({second.get("stop_reason")}, drop at '
              f'{None if stop.get("drop_position") is None else stop["drop_position"] // MIB} MiB)')
        c.check(second.get('stop_reason') == 'drop-held' and (stop.get('drop_position') or 0) <= TOLERANCE
                and written <= stop.get('past_bytes', 0) + TOLERANCE,
                f'the second pass, slow from its start, stopped after {written // MIB} MiB '
                f'({second.get("stop_reason")})')
    c.finish()


if __name__ == '__main__':
    main()

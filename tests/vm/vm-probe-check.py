#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The quick probe (`--preset probe`) against fake drives whose behaviour the test draws
and knows (fake-drive.py).

  draw --seed N                 the drives, one line each: NAME KIND PARAMS…
  check CONSOLE --drives FILE --logs DIR

Every drive reports 4 GiB; real sizes are drawn from a tenth of that to nearly all of
it, to the 4 KiB block, and caches of the drive's own from 16 to 512 MiB. Checked:
  honest  "probe-passed", usable = the size reported, the end held past the cache it
          looked for (1 GiB);
  wrap    "wraps", usable = the period = the real size, to the byte; at most 2 MiB
          written, with a cache or without (the wrap is found before the cache matters);
  drop    "loses-writes", usable = the real size, to the byte; without a cache at most
          2 MiB written; with one of C bytes, the cache found at least C and at most a
          MiB and the end run (512 KiB) over it, two levels of places (the grid written
          while it sought the cache leaves one more), and at most 2 MiB + 2.15 x the
          cache found + twice the grid written (on these drives 1024 places, 4 MiB);
  mapped  flash mapped as it is written: a probe cannot tell it from an honest drive;
          "probe-passed" is allowed only with the report saying what a probe cannot
          prove and offering the capacity check.
Each run wrote no more than the plan (--dry-run) promised, and the step's bytes are the
result's. Then a probe cancelled while it writes (exit 130, a result that
says not-verified), one killed (exit 137, no result file, no process left), the drive
free again after each, and a partition refused."""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vmcommon import Console  # noqa: E402

MIB = 1 << 20
BLOCK = 4096
SIZE = 4 << 30
CACHE_MAX = 1 << 30
KINDS = [('honest', None), ('wrap', 0), ('drop', 0), ('wrap', 1), ('drop', 1), ('mapped', None)]


def draw(seed):
    rng = random.Random(seed)
    drives = []
    for n, (kind, cached) in enumerate(KINDS):
        p = dict(size=SIZE, seed=rng.randint(1, 1 << 30))
        if cached is None:
            cached = rng.random() < 0.5
        if cached:
            p['cache'] = rng.randint(16 * MIB, 512 * MIB) // BLOCK * BLOCK
        if kind != 'honest':
            p['real'] = int(SIZE * rng.uniform(0.1, 0.97)) // BLOCK * BLOCK
            p['mode'] = kind
            if kind != 'wrap':
                p['fill'] = rng.choice([0, 255])
        drives.append((f'p{n}', kind, p))
    return drives


def model_lost(path):
    """Blocks whose writes the model lost (drop past real, or no flash left)."""
    lost = 0
    with open(path) as f:
        for line in f:
            p = line.split()
            if p and p[0] == 'W':
                for r in p[4:]:
                    if r.startswith(('drop:', 'lost:')):
                        lost += int(r.split('+')[1]) // BLOCK
    return lost


def check(args):
    con = Console(args.console)
    con.check_guest()
    drives = []
    with open(args.drives) as f:
        for line in f:
            name, kind, *params = line.split()
            drives.append((name, kind, dict(kv.split('=', 1) for kv in params)))
    # What the plan promised before any run (every drive reports the same size).
    plan = con.section_json('plan')
    bound = plan['states'][0]['total_bytes'] if plan else 0
    con.check(bound > CACHE_MAX, f'the plan: at most {bound} B')
    table = []
    for name, kind, p in drives:
        r = con.section_json(f'result-{name}')
        if r is None:
            continue
        con.check(con.rcs.get(f'probe-{name}') == 0, con.rc_text(f'probe-{name}'))
        cap = (r.get('analysis') or {}).get('capacity') or {}
        steps = [s for s in r.get('steps', []) if s.get('kind') == 'probe']
        probe = steps[0].get('probe', {}) if steps else {}
        if not con.check(cap.get('coverage') == 'probe' and probe,
                         f'{name}: the result has the probe and its analysis.capacity'):
            continue
        real = int(p.get('real', SIZE))
        cache = int(p.get('cache', 0))
        verdict, usable, written = cap['verdict'], cap['usable_bytes'], probe['bytes_written']
        secs = con.seconds.get(f'probe-{name}', 0)
        lost = model_lost(os.path.join(args.logs, f'{name}.log'))
        table.append((name, kind, real, cache, verdict, usable, probe['cache_bytes'],
                      probe['cache_beyond'], written, secs, lost))
        label = f'{name} ({kind}, real {real}, cache {cache})'
        con.check(written == steps[0].get('bytes_written') == r.get('bytes_written') and written <= bound,
                  f'{name}: wrote {written} B, within the plan\'s {bound} B')
        if kind == 'honest':
            con.check(verdict == 'probe-passed' and usable == SIZE and probe['cache_beyond'],
                      f'{label}: {verdict}, usable {usable}, the end held past {probe["cache_max"]} B')
        elif kind == 'wrap':
            con.check(verdict == 'wraps' and usable == real and probe.get('alias_period') == real,
                      f'{label}: {verdict}, usable {usable} (real {real})')
            con.check(written <= 2 * MIB, f'{name}: wrote {written} B (at most 2 MiB)')
        elif kind == 'drop':
            con.check(verdict == 'loses-writes' and usable == real,
                      f'{label}: {verdict}, usable {usable} (real {real})')
            if cache == 0:
                con.check(written <= 2 * MIB, f'{name}: wrote {written} B (at most 2 MiB)')
            else:
                con.check(cache <= probe['cache_bytes'] <= cache + MIB + 128 * BLOCK,
                          f'{name}: found a cache of {probe["cache_bytes"]} B (the model: {cache})')
                ratio = (written - 2 * MIB) / cache
                grid = int(probe.get('grid', 0)) * BLOCK
                most = 2 * MIB + 2.15 * probe['cache_bytes'] + 2 * grid
                print(f'# {name}: wrote 2 MiB + {ratio:.2f} x its cache (the goal: 2 x), '
                      f'a grid of {grid} B, {probe.get("levels")} levels')
                con.check(probe.get('levels') == 2 and written <= most,
                          f'{name}: wrote {written} B in {probe.get("levels")} levels, at most '
                          f'{int(most)} B in 2 (2 MiB + 2.15 x the cache found + twice the grid; '
                          f'{ratio:.2f} x the cache)')
        else:
            out = con.sections.get(f'probe-{name}', '')
            con.check(verdict in ('probe-passed', 'loses-writes'),
                      f'{label}: {verdict}, usable {usable}; the model lost {lost} blocks of writes')
            if verdict == 'probe-passed':
                con.check('cannot prove a drive good' in out and 'The capacity check settles it' in out,
                          f'{name}: passed, and the report says what a probe cannot prove and offers '
                          f'the capacity check')
    print('# drive kind    real (bytes)  cache (MiB)  verdict        usable (bytes)  cache found  written     seconds  lost by the model')
    for name, kind, real, cache, verdict, usable, found, beyond, written, secs, lost in table:
        print(f'# {name:5} {kind:7} {real:12} {cache / MIB:9.1f}  {verdict:13} {usable:14} '
              f'{("past " if beyond else "") + str(found // 1024) + " KiB":>12} {written:11} {secs:7.1f}  {lost}')

    # Cancelled: exit 130, a result that claims nothing; then the drive is free.
    con.check(con.rcs.get('cancel') == 130, con.rc_text('cancel'))
    c = con.section_json('result-cancel')
    if c is not None:
        cap = (c.get('analysis') or {}).get('capacity') or {}
        con.check(c.get('cancelled') is True and cap.get('verdict') == 'not-verified',
                  f'cancelled: the result says so and claims nothing ({cap.get("verdict")}, '
                  f'{cap.get("bytes_written")} B written)')
    con.check(con.rcs.get('released-cancel') == 0, 'after the cancel, ' + con.rc_text('released-cancel'))
    # Killed: no result, no process; the drive is free.
    con.check(con.rcs.get('kill') == 137, con.rc_text('kill'))
    con.check(con.sections.get('left-kill', '').strip() == '',
              f'killed: no result file, no process left ({con.sections.get("left-kill", "").strip()!r})')
    con.check(con.rcs.get('released-kill') == 0, 'after the kill, ' + con.rc_text('released-kill'))
    # A partition of a drive: refused, with why.
    err = ' '.join(con.stderr.get('partition', []))
    con.check(con.rcs.get('partition') not in (None, 0) and 'is a partition' in err,
              f'a partition refused: {err}')
    con.finish()


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    d = sub.add_parser('draw')
    d.add_argument('--seed', type=int, required=True)
    c = sub.add_parser('check')
    c.add_argument('console')
    c.add_argument('--drives', required=True)
    c.add_argument('--logs', required=True)
    a = ap.parse_args()
    if a.cmd == 'draw':
        for name, kind, p in draw(a.seed):
            print(name, kind, ' '.join(f'{k}={v}' for k, v in p.items()))
    else:
        check(a)


if __name__ == '__main__':
    main()

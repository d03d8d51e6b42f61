#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The capacity and integrity check (`--preset verify`) against fake and faulty drives
whose behaviour the test draws and knows (fake-drive.py).

  draw --seed N [--count N]    the drives, one line each: NAME KIND PARAMS…
  check CONSOLE --drives FILE --logs DIR

Each verdict is checked against what the model was told and against its own log of
what it did:
  honest  "verified", usable = the size reported;
  wrap    "wraps", usable = the real size, to the byte (the shortest distance between a
          block and the offset whose data it returned);
  drop, mapped  "loses-writes", usable = the first block the model's log says it lost
          (the real size, to the byte, for drop), and the bad bytes exactly those it
          lost, as zeros or as `other` (fill 0xff);
  flip    "damaged" with exactly the blocks the model served flipped during the read
          pass as `corrupt`, the first of them first; "verified" if it served none;
  eio     "damaged" with the failed reads' blocks unreadable: every 4 KiB of the bad
          range inside them, none outside the 1 MiB reads that touch it;
  slow    an honest drive whose reads in a range take 1.5–3 s longer: "verified", and,
          where the delay is at least 1.2 × the slow limit (ten times the usual read in
          the guest), slow reads found there: the first slow read is the 1 MiB read
          that met the range (or one queued just before it), the slowest within the
          reads queued with it, and at least the range's reads counted slow.
Then the surface scan's places (surface-write --verify, 100 places of 2 MiB here) on
the wrapping and dropping drives: wrap "wraps", at most a multiple of the real size,
where a place past the real size lands on another place's blocks (the model's
geometry says whether one does), else "sample-verified" (a sample saw nothing); drop "loses-writes", or "damaged" when the drive's cache still served the
last places right, with the first bad block at or past the real size and within a
place's stride of it; "sample-verified" where every block past the real size was among
the last `cache` bytes written, which the drive's cache still served when read.
Every run ends by itself with exit 0 (a drive that lies is a result, not an error)."""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vmcommon import Console  # noqa: E402

MIB = 1 << 20
BLOCK = 4096
SIZE = 256 * MIB
READ_BS = MIB
KINDS = ['honest', 'wrap', 'drop', 'mapped', 'flip', 'eio', 'slow']
QUEUE = 8 * MIB   # the check's reads in flight: 1 MiB at queue depth 8


def draw(seed, count):
    rng = random.Random(seed)
    drives = []
    for n in range(count):
        kind = KINDS[n] if n < len(KINDS) else rng.choice(KINDS)
        p = dict(size=SIZE, seed=rng.randint(1, 1 << 30))
        # A cache of the drive's own, at most the quarter the check writes again.
        if rng.random() < 0.5:
            p['cache'] = rng.randint(4, 60) * MIB // BLOCK * BLOCK
        if kind in ('wrap', 'drop', 'mapped'):
            # Not always MiB-aligned: the check must find it to the 4 KiB block.
            # More than the quarter the check writes again (its cache would hold that).
            p['real'] = rng.randint(int(0.3 * SIZE), int(0.8 * SIZE)) // BLOCK * BLOCK
            p['mode'] = kind
            if kind != 'wrap':
                p['fill'] = rng.choice([0, 255])
        elif kind == 'flip':
            p['flip_count'] = rng.randint(1, 4)
        elif kind == 'eio':
            start = rng.randint(16 * MIB, SIZE - 8 * MIB) // BLOCK * BLOCK
            p['eio'] = '%d-%d' % (start, start + rng.randint(1, 1024) * BLOCK)
        elif kind == 'slow':
            # Past the quarter the check writes again: the drive's cache holds none of it.
            start = rng.randint(SIZE // 4 + 16 * MIB, SIZE - 8 * MIB) // BLOCK * BLOCK
            p['slow'] = '%d-%d:%.2f' % (start, start + rng.randint(1, 256) * BLOCK,
                                        rng.uniform(1.5, 3.0))
        drives.append((f'v{n}', kind, p))
    return drives


def read_log(path):
    """The model's header values and the requests after its last write: [(kind, off,
    len, runs)]."""
    head, reqs = {}, []
    with open(path) as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            if p[0] == '#':
                if len(p) > 1 and p[1] == 'fake-drive':
                    head.update(kv.split('=', 1) for kv in p[2:] if '=' in kv)
                continue
            kind, off, length = p[0], int(p[1]), int(p[2])
            if kind == 'W':
                reqs = []
            reqs.append((kind, off, length, p[4:]))
    return head, reqs


def all_writes(path):
    """Every write request the model logged: [(kind, off, len, runs)]."""
    with open(path) as f:
        return [(p[0], int(p[1]), int(p[2]), p[4:]) for p in (line.split() for line in f)
                if p and p[0] == 'W']


def runs_of(reqs, what, rw='R'):
    """The 4 KiB blocks the model's runs WHAT:OFF+LEN name, among the reads (or
    writes)."""
    blocks = set()
    for kind, _, _, runs in reqs:
        if kind != rw:
            continue
        for r in runs:
            name, _, span = r.partition(':')
            if name != what:
                continue
            off, _, length = span.partition('+')
            length = length.split('>')[0]
            for b in range(int(off) // BLOCK, (int(off) + int(length)) // BLOCK):
                blocks.add(b * BLOCK)
    return blocks


def check(args):
    con = Console(args.console)
    con.check_guest()
    drives = {}
    with open(args.drives) as f:
        for line in f:
            name, kind, *params = line.split()
            drives[name] = (kind, dict(kv.split('=', 1) for kv in params))
    print('# drive  kind    verdict       usable (bytes)  expected        bad bytes  slow bytes')
    for name, (kind, p) in drives.items():
        r = con.section_json(f'result-{name}')
        if r is None:
            continue
        con.check(con.rcs.get(f'verify-{name}') == 0, con.rc_text(f'verify-{name}'))
        cap = (r.get('analysis') or {}).get('capacity')
        if not con.check(cap is not None, f'{name}: the result has analysis.capacity'):
            continue
        _, reqs = read_log(os.path.join(args.logs, f'{name}.log'))
        size, real = int(p['size']), int(p.get('real', p['size']))
        verdict, usable, bad = cap['verdict'], cap['usable_bytes'], cap['bad_bytes']
        expect = size if kind in ('honest', 'flip', 'eio', 'slow') else real  # mapped: about
        print(f'# {name:6} {kind:7} {verdict:13} {usable:15} {expect:15} {bad:<10} {cap.get("slow_bytes")}')
        con.check(cap['complete'] and cap['reported_bytes'] == size and cap['checked_bytes'] == size,
                  f'{name}: the whole {size} B was written and checked ({cap["checked_bytes"]})')
        if kind == 'honest':
            con.check(verdict == 'verified' and usable == size and bad == 0,
                      f'{name} (honest{", cache " + p["cache"] if "cache" in p else ""}): verified, {usable} B')
        elif kind == 'wrap':
            con.check(verdict == 'wraps' and usable == real and cap.get('alias_period') == real,
                      f'{name} (wraps at {real}): verdict {verdict}, stores {usable} B')
        elif kind in ('drop', 'mapped'):
            # What the model lost, from its log: writes past `real` (drop), or to blocks
            # that found no flash left (mapped: in the order the writes came, which
            # requests in flight together may change near the end of the flash).
            writes = all_writes(os.path.join(args.logs, f'{name}.log'))
            lost = runs_of(writes, 'drop' if kind == 'drop' else 'lost', rw='W')
            first = min(lost) if lost else size
            kind_bad = 'zeros_bytes' if int(p.get('fill', 0)) == 0 else 'other_bytes'
            con.check(lost and abs(first - real) <= 8 * MIB,
                      f'{name}: the model lost writes from {first}, near its real size {real}')
            con.check(verdict == 'loses-writes' and usable == first,
                      f'{name} ({kind} past {real}, first lost {first}): verdict {verdict}, stores {usable} B')
            con.check(cap.get('first_bad_offset') == first and cap[kind_bad] == len(lost) * BLOCK == bad,
                      f'{name}: the {len(lost) * BLOCK} B it lost read as {kind_bad[:-6]} '
                      f'({cap.get(kind_bad)} of {bad} bad from {cap.get("first_bad_offset")})')
        elif kind == 'flip':
            flipped = runs_of(reqs, 'flip')
            if flipped:
                con.check(verdict == 'damaged' and cap['corrupt_bytes'] == len(flipped) * BLOCK == bad
                          and cap.get('first_bad_offset') == min(flipped),
                          f'{name}: the {len(flipped)} blocks the model served flipped are the '
                          f'damaged ones ({cap["corrupt_bytes"]} B, first at {cap.get("first_bad_offset")})')
            else:
                con.check(verdict == 'verified', f'{name}: no block was served flipped, and it is verified')
        elif kind == 'eio':
            lo, hi = (int(x) for x in p['eio'].split('-'))
            env_lo, env_hi = lo // READ_BS * READ_BS, -(-hi // READ_BS) * READ_BS
            u = cap['unreadable_bytes']
            con.check(verdict == 'damaged' and u == bad and hi - lo <= u <= env_hi - env_lo
                      and env_lo <= cap.get('first_bad_offset', -1) <= lo,
                      f'{name}: reads failing in [{lo}, {hi}) counted unreadable: {u} B from '
                      f'{cap.get("first_bad_offset")} (the 1 MiB reads around it: {env_hi - env_lo} B)')
        elif kind == 'slow':
            span, _, delay = p['slow'].partition(':')
            lo, hi = (int(x) for x in span.split('-'))
            env_lo = lo // READ_BS * READ_BS
            served = runs_of(reqs, 'slow')
            first, worst = cap.get('first_slow_offset', -1), cap.get('slowest_offset', -1)
            print(f'#   slow [{lo}, {hi}) +{delay} s: usual read {cap.get("read_median_ns")} ns, '
                  f'slow from {cap.get("slow_threshold_ns")} ns, {cap.get("slow_bytes")} B slow '
                  f'from {first}, slowest {cap.get("slowest_read_ns")} ns at {worst}')
            con.check(verdict == 'verified' and usable == size and bad == 0,
                      f'{name}: slow but whole: verified, {usable} B')
            con.check(served, f'{name}: the model served reads of [{lo}, {hi}) slowly')
            # Slow means ten times the drive's usual read: where the guest's usual read
            # is so slow that the delay is not, the range is not slow by that measure.
            limit = (cap.get('slow_threshold_ns') or 0) / 1e9
            if float(delay) < 1.2 * limit:
                print(f'#   the delay ({delay} s) is under 1.2 × the slow limit ({limit:.2f} s): '
                      f'not required to be found')
                continue
            con.check(env_lo - QUEUE <= first <= lo,
                      f'{name}: the first slow read at {first} is the one that met {lo} '
                      f'(or queued just before it: from {env_lo - QUEUE})')
            con.check(env_lo - QUEUE <= worst < hi + QUEUE,
                      f'{name}: the slowest read at {worst} is among those queued with [{lo}, {hi})')
            con.check(cap.get('slow_bytes', 0) >= -(-hi // READ_BS) * READ_BS - env_lo,
                      f'{name}: {cap.get("slow_bytes")} B counted slow, at least the '
                      f'{-(-hi // READ_BS) * READ_BS - env_lo} B of reads touching the range')
        if kind in ('wrap', 'drop'):
            check_surface(con, name, kind, p)
    con.finish()


def check_surface(con, name, kind, p):
    r = con.section_json(f'sresult-{name}')
    if r is None:
        return
    con.check(con.rcs.get(f'surface-{name}') == 0, con.rc_text(f'surface-{name}'))
    cap = (r.get('analysis') or {}).get('capacity')
    if not con.check(cap is not None and cap.get('coverage') == 'places',
                     f'{name}: the surface scan\'s places were checked (coverage "places")'):
        return
    size, real = int(p['size']), int(p.get('real', p['size']))
    verdict, usable, first = cap['verdict'], cap['usable_bytes'], cap.get('first_bad_offset')
    stride = 4 * MIB   # the places start every ~2.57 MiB, each at a whole MiB
    print(f'# {name} surface: {verdict}, {cap["places"]} places, {cap["checked_bytes"]} B checked, '
          f'usable {usable}, first bad {first}, bad {cap["bad_bytes"]}')
    con.check(cap['complete'] and cap['places'] == 100 and cap['checked_bytes'] == 100 * 2 * MIB,
              f'{name}: 100 places of 2 MiB written and read back whole')
    if kind == 'wrap':
        # Evidence there is when a place's blocks past `real` land (modulo real) on
        # another place's blocks, which were written before and read back after. Then
        # the sample must say it wraps, at most a multiple of the real size; else it
        # saw nothing, and must not claim more than a sample.
        steps = [st for st in r['steps'] if st.get('kind') == 'surface']
        spans = [(x['region_offset'], x['region_offset'] + max(x['write']['bytes'], x['read']['bytes']))
                 for x in steps[0]['runs']] if steps else []
        hit = any(lo <= b % real < hi
                  for i, (a, e) in enumerate(spans)
                  for b in range(max(a, real), e, BLOCK)
                  for j, (lo, hi) in enumerate(spans) if j != i)
        if hit:
            con.check(verdict == 'wraps' and usable % real == 0 and usable >= real,
                      f'{name} surface (wraps at {real}, a place lands on another): {verdict}, '
                      f'at most {usable} B')
        else:
            con.check(verdict == 'sample-verified',
                      f'{name} surface (wraps at {real}, no place lands on another): {verdict}')
    else:
        # A lost place shows only when the drive's cache let go of it before the reads:
        # when every block past `real` was among the last `cache` bytes written (the
        # places are written in order, then read), the cache serves them all and the
        # sample cannot see the loss; it must then claim no more than a sample.
        steps = [st for st in r['steps'] if st.get('kind') == 'surface']
        spans = [(x['region_offset'], x['region_offset'] + x['write']['bytes'])
                 for x in steps[0]['runs']] if steps else []
        total = sum(e - a for a, e in spans)
        done, visible = 0, False
        for a, e in spans:
            if e > real and done + (max(a, real) - a) < total - int(p.get('cache', 0)):
                visible = True
            done += e - a
        if not visible:
            con.check(verdict == 'sample-verified',
                      f'{name} surface (drops past {real}, cache {p.get("cache")}: every place past '
                      f'it still in the cache when read): {verdict}')
            return
        ok = verdict == 'loses-writes' or (verdict == 'damaged' and 'cache' in p)
        con.check(ok and first is not None and real <= first <= real + stride,
                  f'{name} surface (drops past {real}{", cache " + p["cache"] if "cache" in p else ""}): '
                  f'{verdict}, first bad at {first} (a place within {stride} B past it)')


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    d = sub.add_parser('draw')
    d.add_argument('--seed', type=int, required=True)
    d.add_argument('--count', type=int, default=len(KINDS))
    c = sub.add_parser('check')
    c.add_argument('console')
    c.add_argument('--drives', required=True)
    c.add_argument('--logs', required=True)
    args = ap.parse_args()
    if args.cmd == 'draw':
        for name, kind, p in draw(args.seed, args.count):
            print(name, kind, ' '.join(f'{k}={v}' for k, v in p.items()))
    else:
        check(args)


if __name__ == '__main__':
    main()

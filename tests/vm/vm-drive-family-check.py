# SPDX-License-Identifier: GPL-3.0-or-later
"""Drive models for vm-drive-family.sh, drawn from a seed, and the check of each run's
verdict against what the model drive really did (its log).

  draw --seed S --count N     one line per drive: NAME key=value … (drive-model.py's
                              parameters), drawn over the whole of each range
  check CONSOLE --drives F --logs DIR --seed S
"""
import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vmcommon import Console  # noqa: E402

MIB = 1 << 20
SIZE = 768 * MIB          # the namespace
FOLDS = ('write', 'idle', 'both')
MARK = 12288              # the guest's marker reads: 12 KiB at N × 12 KiB
RUNS = ('fill-empty', 'quick', 'fill-free', 'recovery')
# A ratio of read times the verdict must call: clearly apart, or clearly alike.
APART = 1.6
ALIKE = 1.15
# Nandscope's threshold for "inflated" (NSC_READ_INFLATION_RATIO in nsc-analysis.h).
INFLATION_RATIO = 1.3
# Write-fill calls a cache with 128 MiB written fast after its first sample and 128 MiB
# slow after the drop: with this much of each, it must find the model's; with less
# than FLOOR fast, it must find none; in between, either stands.
CLEAR = 160 * MIB
FLOOR = 32 * MIB
# A recovery step's fast bytes: within a tenth, plus one sample (500 ms at the cache's
# speed) and a queue (8 × 1 MiB).
STEP_SAMPLE_S = 0.5
# A recovery step stops once its speed stayed below 0.7 of the cache's (the preset's
# "below"): the margin past the drop is checked where the guest saw the drive's slow
# speed clearly below that, 0.6 of its cache speed or less; else only the cap.
CLEAR_DROP = 0.6
# The premise of judging a cache at all: the guest's own samples past the model's edge
# at most this share of those before it (the stop rule's "below"). A guest starved of
# CPU submits no faster than the model's slow speed and sees no edge.
SEEN_DROP = 0.7
# Samples on end that make a stretch (the analysis's SUSTAIN_SAMPLES, nsc-analysis.c):
# a slow stretch this long ends a cache there.
SUSTAIN = 5


def draw(seed, count):
    rng = random.Random(seed)
    drives = []
    for n in range(count):
        # More than Quick's half (256 MiB: real caches hold many), and 400 MiB or more
        # left after it on the empty drive.
        cache = rng.randint(290, 350) * MIB
        # Writes no faster than the guest keeps up with (under TCG it reached 120-130
        # MB/s; a faster model looks slower to it, and its drop smaller than drawn).
        cache_write = rng.uniform(90e6, 130e6)
        tlc_write = cache_write / rng.uniform(1.8, 3.0)
        cache_read = rng.uniform(120e6, 200e6)
        # Two of six read alike wherever the data sits (a static and a dynamic drive);
        # the rest slower from TLC.
        alike = n in (2, 3) if n < 6 else rng.random() < 1 / 3
        tlc_read = cache_read * rng.uniform(0.9, 1.0) if alike else cache_read / rng.uniform(1.9, 3.5)
        fold = FOLDS[n % 3] if n < 6 else rng.choice(FOLDS)
        # A dynamic cache: the lesser of `cache` and this times the free space. Real
        # drives give about 1/3 (TLC) or 1/4 (QLC) of it; more here, so that a 768 MiB
        # namespace's cache, a third full, stays above what write-fill needs to call one.
        dynamic = (rng.uniform(0.6, 1.0) if n >= 3 else 0.0) if n < 6 else rng.choice((0.0, rng.uniform(0.6, 1.0)))
        idle_after = rng.uniform(0.3, 3.0)
        fold_rate = cache / rng.uniform(0.5, 6.0)
        drives.append((f'd{n}', dict(size=SIZE, cache=cache, dynamic=round(dynamic, 3),
                                     cache_write=round(cache_write), tlc_write=round(tlc_write),
                                     cache_read=round(cache_read), tlc_read=round(tlc_read), fold=fold,
                                     idle_after=round(idle_after, 2), fold_rate=round(fold_rate))))
    return drives


def read_log(path):
    """The model's requests, cut at the guest's markers: {run: [(kind, offset, length,
    bytes, seconds)]}, where bytes is what the cache served (R) or took fast (W)."""
    runs = {}
    cur = None
    with open(path) as f:
        for line in f:
            p = line.split()
            if p[0] == 'R' and int(p[2]) == MARK and int(p[1]) % MARK == 0 and int(p[1]) // MARK < len(RUNS):
                cur = runs.setdefault(RUNS[int(p[1]) // MARK], [])
                continue
            if cur is None:
                continue
            if p[0] in ('R', 'W'):
                cur.append((p[0], int(p[1]), int(p[2]), int(p[3]), float(p[4])))
            elif p[0] == 'T':
                cur.append(('T', int(p[1]), int(p[2]), 0, float(p[3])))
            elif p[0] == 'F':
                cur.append(('F', 0, int(p[1]), 0, float(p[2])))
    return runs


# A drive that frees its cache while idle may free a little more in the gaps of a step
# just as its cache fills: a few writes then go partly slow and the rest fast again.
# The cache's edge is where the slow part passes this much for good.
EDGE_SLACK = 8 * MIB


def fast_run(writes):
    """Bytes the drive took at its cache's speed from the first write on, up to its
    edge: the last write before which at most EDGE_SLACK of what was written went slow
    (a drive that folds while writing trickles fast bytes after its edge, and its slow
    part grows past the slack at once); and the bytes written after."""
    fast = total = 0
    edge = None
    for i, (_, _, ln, fb, _) in enumerate(writes):
        fast += fb
        total += ln
        if total - fast <= EDGE_SLACK:
            edge = (fast, i)
    if edge is None:
        return 0, sum(w[2] for w in writes)
    if edge[1] == len(writes) - 1 and fast == total:
        return fast, 0
    return edge[0], sum(w[2] for w in writes[edge[1] + 1:]) + sum(w[2] - w[3] for w in writes[:edge[1] + 1])


def writes_after_erase(ops):
    """A run's writes after its last trim (the erase before its write-fill)."""
    last_t = max((i for i, o in enumerate(ops) if o[0] == 'T'), default=-1)
    return [o for o in ops[last_t + 1:] if o[0] == 'W']


def fill_truth(ops):
    return fast_run(writes_after_erase(ops))


def recovery_truth(ops):
    """The fast bytes and all bytes of each write group after the exhaust: groups part
    where the drive sat idle (a second or more between requests)."""
    groups = []
    prev = None
    for o in writes_after_erase(ops):
        if prev is None or o[4] - prev >= 1.0:
            groups.append([])
        groups[-1].append(o)
        prev = o[4]
    truths = []
    for g in groups[1:]:
        fast = fast_run(g)[0]
        truths.append((fast, sum(o[2] for o in g), fast_back(g, fast)))
    return truths


def fast_back(writes, fast):
    """The longest run of writes the drive took wholly fast after its first slow
    write past @fast, the edge fast_run found: it came back to its cache's speed."""
    done = 0
    slow_seen = False
    run = best = 0
    for _, _, ln, fb, _ in writes:
        done += ln
        if done <= fast:
            continue
        if fb < ln:
            slow_seen = True
            run = 0
        elif slow_seen:
            run += ln
            best = max(best, run)
    return best


def served(ops, start, length, params, first_group):
    """Sequential reads (128 KiB or more) inside [start, start + length): their bytes,
    the share the cache served, and the seconds per byte the model gave them. With
    first_group, only those before the first write into the region after them."""
    total = cached = 0
    begun = False
    for kind, off, ln, c, _ in ops:
        inside = off >= start and off + ln <= start + length
        if kind == 'W' and begun and first_group and off < start + length and off + ln > start:
            break
        if kind == 'R' and inside and ln >= 128 * 1024:
            begun = True
            total += ln
            cached += c
    if total == 0:
        return 0, 0, 0
    spb = (cached / params['cache_read'] + (total - cached) / params['tlc_read']) / total
    return total, cached / total, spb


def write_samples(result):
    """The guest's own samples of its largest write job in @result: (position, bytes/s)
    of each with bytes and a duration, or None without such a job."""
    jobs = [st for st in result.get('steps', []) if st.get('kind') == 'job' and st.get('series')]
    if not jobs:
        return None
    se = max(jobs, key=lambda st: sum(st['series'].get('write_bytes', [])))['series']
    return [(pos, b * 1e9 / d) for pos, b, d in zip(se.get('position', []), se.get('write_bytes', []),
                                                    se.get('duration_ns', [])) if d > 0 and b > 0]


def guest_kept_pace(result, truth):
    """Whether the guest's own samples of its fill (not the analysis) held their speed
    while the model took writes fast: the median of the last third of those samples
    within 0.8 and 1.25 × the first third's, and no stretch of SUSTAIN of them on end
    whose median fell below SEEN_DROP × the first third's (what the analysis would take
    for a drop). A guest starved of CPU part of the
    way slows down (or, starved at the start, speeds up) while the model still has
    cache to give: its curve then shows a slope where the model had an edge, or a slow
    stretch (a drop and a climb back, as a sawtooth drive's) where the model had none;
    False then, None where there are too few samples to tell."""
    samples = write_samples(result)
    if samples is None:
        return None
    speeds = [v for pos, v in samples if pos <= truth]
    speeds = speeds[1:]   # the first may be the queue filling a buffer
    if len(speeds) < 6:
        return None
    third = len(speeds) // 3
    first, last = sorted(speeds[:third]), sorted(speeds[-third:])
    level = first[len(first) // 2]
    for k in range(len(speeds) - SUSTAIN + 1):
        window = sorted(speeds[k:k + SUSTAIN])
        if window[SUSTAIN // 2] < SEEN_DROP * level:
            return False
    # Starved at the start instead, it speeds up as much: the edge it then draws is the
    # rig's too.
    return 0.8 * level <= last[len(last) // 2] <= 1.25 * level


def guest_speeds(result, truth):
    """The median speeds (bytes/s) of the guest's own samples within the bytes the model
    took fast (the first aside: a queue filling) and past them (and a tenth more):
    (fast, slow), each None with fewer than three samples."""
    samples = write_samples(result)
    if samples is None:
        return None, None
    fast = sorted(v for pos, v in samples[1:] if pos <= truth)
    slow = sorted(v for pos, v in samples if pos > truth * 1.1 + 16 * MIB)
    return (fast[len(fast) // 2] if len(fast) >= 3 else None,
            slow[len(slow) // 2] if len(slow) >= 3 else None)


def guest_drop(result, truth):
    """The drop the guest itself saw at the model's edge: the median of its own samples
    past the bytes the model took fast (and a tenth more, for the queue and a sample)
    over the median of those within them. A guest starved of CPU submits no faster than
    the model's slow speed and sees little or no drop there: the analysis cannot find
    what the guest never saw. None where there are too few samples to tell."""
    fast, slow = guest_speeds(result, truth)
    if fast is None or slow is None:
        return None
    return slow / fast


def check_fill(con, name, state, result, truth, tail, p):
    """A write-fill's cache against the bytes the model took fast."""
    slc = (result.get('analysis') or {}).get('slc') or {}
    got = slc.get('cache_bytes') or 0 if slc.get('has_cache') else 0
    line = (f"{name}, {state}: the model took {truth / MIB:.0f} MiB fast, then {tail / MIB:.0f} MiB; "
            f"write-fill found {'a cache of %.1f MiB' % (got / MIB) if got else 'none'} "
            f"({slc.get('verdict')}; {(slc.get('in_cache_bps') or 0) / 1e6:.0f} then "
            f"{(slc.get('post_cache_bps') or 0) / 1e6:.0f} MB/s, the model's {p['cache_write'] / 1e6:.0f} "
            f"then {p['tlc_write'] / 1e6:.0f})")
    if truth >= CLEAR and tail >= CLEAR:
        con.check(got and abs(got - truth) <= 0.10 * truth, line + ' (within 10 %)')
    elif truth <= FLOOR:
        con.check(not got, line + ' (no cache)')
    else:
        print(f'# {line}: too little fast or slow to call; either stands')
    return got


def check_plan(con, name, plan, result, ops):
    """Quick kept its --dry-run's promise: the bytes written outside its timed steps (whose
    bytes are the drive's speed), in its result and as the model took them, at most the
    plan's total. The plan's flush is sized from the drive's history, a cache of any
    number of bytes."""
    state = plan['states'][0]
    timed = {it['step'] for it in state['items'] if it['timed']}
    timed_bytes = sum(x['write']['bytes'] for i, s in enumerate(result['steps']) if i in timed
                      for x in s.get('runs', []))
    flush = [it['bytes'] for it in state['items'] if it['label'].startswith('Writing past the SLC cache')]
    took = sum(o[2] for o in ops if o[0] == 'W')
    print(f"# {name}: Quick's plan: {state['total_bytes'] / MIB:.1f} MiB outside timed steps (the flush "
          f"{sum(flush) / MIB:.1f} MiB); the run wrote {(result['bytes_written'] - timed_bytes) / MIB:.1f} "
          f"MiB there, the model took {(took - timed_bytes) / MIB:.1f} MiB")
    con.check(result['bytes_written'] - timed_bytes <= state['total_bytes'],
              f"{name}: Quick wrote {result['bytes_written'] - timed_bytes} B outside its timed steps, "
              f"the plan at most {state['total_bytes']} B")
    con.check(took - timed_bytes <= state['total_bytes'],
              f"{name}: the model took {took - timed_bytes} B of Quick's writes outside its timed steps, "
              f"the plan at most {state['total_bytes']} B")


def check_quick(con, name, p, quick, ops):
    """Quick's SEQ1M Q8T1 verdict against where the model served its reads. Returns
    (verdict, premise missed)."""
    pairs = [x for x in (quick.get('analysis') or {}).get('read_inflation') or []
             if x.get('label') == 'SEQ1M Q8T1']
    if not con.check(len(pairs) == 1, f'{name}: Quick has its SEQ1M Q8T1 pair'):
        return None, False
    pair = pairs[0]
    steps = quick['steps']
    fj = steps[pair['fresh_step']]['job']
    sj = steps[pair['settled_step']]['job']
    fb, fc, fspb = served(ops, fj['region_offset'], fj['region_length'], p, True)
    sb, sc, sspb = served(ops, sj['region_offset'], sj['region_length'], p, False)
    if not con.check(fb > 0 and sb > 0, f'{name}: the model saw the pair\'s reads ({fb} and {sb} bytes)'):
        return None, False
    truth = sspb / fspb   # > 1: the drive served fresh data faster
    verdict = pair.get('verdict')
    reason = pair.get('reason')
    missed = False
    print(f"# {name}: fresh reads {fc:.0%} from the cache, settled {sc:.0%}: the drive served fresh "
          f"data {truth:.2f} × as fast; measured {pair['fresh_bps'] / 1e6:.0f} against "
          f"{pair['settled_bps'] / 1e6:.0f} MB/s; verdict {verdict} ({reason}); flush "
          f"{(pair.get('flush_first_bps') or 0) / 1e6:.0f} → {(pair.get('flush_last_bps') or 0) / 1e6:.0f} MB/s, "
          f"fresh written at {(pair.get('fresh_written_bps') or 0) / 1e6:.0f} MB/s")
    con.check(verdict not in ('not-inflated', 'inflated'),
              f'{name}: neither clean nor inflated on an emulated drive, whose host may cache its '
              f'reads ({verdict})')
    measured = pair['fresh_bps'] / pair['settled_bps'] if pair.get('settled_bps') else 0
    if truth > APART and measured < INFLATION_RATIO and verdict == 'not-verified':
        # The guest read both halves at about one speed although the model served the
        # fresh one faster: the host's CPU, not the model, set the guest's speed (a
        # busy host starves the TCG guest). The measurement holds no evidence, and
        # "not verified" is the honest verdict; the rig missed its premise.
        missed = True
        print(f'# {name}: premise missed: the model served fresh data {truth:.2f} × as fast, the '
              f'guest measured {measured:.2f} ×; not judged')
    elif truth > APART:
        # The guest sees the drive as a disk a virtual machine emulates, whose host may
        # hold data just written in memory: the same sign as the drive's cache. The
        # evidence is measured (fresh reads clearly faster), its cause not verified.
        con.check(verdict == 'not-verified' and reason == 'system-cache' and measured > INFLATION_RATIO,
                  f'{name}: the drive served fresh data {truth:.2f} × as fast: measured faster '
                  f'({measured:.2f} ×), not verified through an emulated disk (got {verdict}, {reason})')
    elif truth < 1 / APART and (not measured or measured > 1 / INFLATION_RATIO) and verdict == 'not-verified':
        # The same the other way: the model served settled data faster, the guest read
        # both at about one speed. "Not verified" stands, for whatever reason it gives;
        # that it was settled data that read faster the guest never saw.
        missed = True
        print(f'# {name}: premise missed: the model served settled data {1 / truth:.2f} × as fast, the '
              f'guest measured {1 / measured if measured else 0:.2f} ×; not judged ({reason})')
    elif truth < 1 / APART:
        con.check(verdict == 'not-verified' and reason == 'settled-faster',
                  f'{name}: the drive served settled data {1 / truth:.2f} × as fast: not verified, '
                  f'settled-faster (got {verdict}, {reason})')
    elif abs(math.log(truth)) < math.log(ALIKE):
        con.check(verdict == 'not-verified', f'{name}: alike ({truth:.2f}): not verified (got {verdict}, {reason})')
    else:
        print(f'# {name}: between alike and apart ({truth:.2f}): either verdict stands')
    settled_step = steps[pair['settled_step']]['conditions']
    con.check((settled_step.get('flush_first_bps') or 0) > 0 and (pair.get('fresh_written_bps') or 0) > 0,
              f'{name}: the flush\'s speeds and the fresh data\'s are recorded')
    # The premise: the fresh half went into the cache after the pause when the drive
    # had emptied it (a static cache that folds while idle, with the time to).
    if p['fold'] in ('idle', 'both') and not p['dynamic'] and p['idle_after'] + p['cache'] / p['fold_rate'] < 4:
        con.check(fc > 0.9 and sc < 0.1,
                  f'{name}: folds while idle within the pause: fresh data read from the cache '
                  f'({fc:.0%}), settled from TLC ({sc:.0%})')
    return verdict, missed


def check_recovery(con, name, p, result, truths):
    """Each recovery step's fast bytes against what the model took fast after that
    idle, and its stop: once the drop held (its margin past the model's drop), or at
    its cap."""
    recovery = (result.get('analysis') or {}).get('cache_recovery') or {}
    points = recovery.get('points') or []
    threshold = recovery.get('fast_threshold_bps') or 0
    steps = [s for s in result['steps'] if s.get('analysis') == 'cache-recovery']
    slc = (result.get('analysis') or {}).get('slc') or {}
    seen = (slc.get('post_cache_bps') or 0) / slc['in_cache_bps'] if slc.get('in_cache_bps') else 1
    if not points and not slc.get('has_cache'):
        # The exhaust found no cache where the model took one (its write-fills are
        # checked on their own): the guest did not see the model's speeds (a starved TCG
        # guest), and recovery has nothing to be measured against. A missed premise.
        print(f"# {name}: premise missed: the exhaust saw no cache ({slc.get('summary')}); recovery not judged")
        return True
    print(f"# {name}: the exhaust's speeds as the guest saw them: {(slc.get('in_cache_bps') or 0) / 1e6:.0f} "
          f"then {(slc.get('post_cache_bps') or 0) / 1e6:.0f} MB/s ({seen:.2f}; the model's "
          f"{p['tlc_write'] / p['cache_write']:.2f})")
    if not con.check(len(points) == 5 and len(truths) == 5 and len(steps) == 5,
                     f'{name}: five recovery steps in the result ({len(points)}) and in the model\'s log '
                     f'({len(truths)})'):
        return False
    missed = False
    for k, (pt, (truth, written, back), s) in enumerate(zip(points, truths, steps)):
        got = pt.get('fast_bytes') or 0
        tol = 0.10 * truth + STEP_SAMPLE_S * p['cache_write'] + 8 * MIB
        if truth >= CLEAR and guest_kept_pace({'steps': [s]}, truth) is False:
            # As in a write-fill: the guest slowed while the model still took writes
            # fast, so the fast bytes it measured are the rig's, not the drive's.
            print(f"# {name}: recovery step {k + 1}: premise missed: the guest's own samples did not "
                  f"hold their pace (by a fifth from end to end, or a stretch below {SEEN_DROP}) "
                  f"within the {truth / MIB:.0f} MiB the model took fast "
                  f"(it measured {got / MIB:.0f} MiB fast); not judged")
            missed = True
            continue
        # Through an emulated disk every step is not verified for the host's memory
        # (system-cache), unless the speed came back (fast-again), which says more.
        if pt.get('fast_bytes') is not None:
            con.check(pt.get('verdict') == 'not-verified' and pt.get('reason') in ('system-cache', 'fast-again'),
                      f"{name}: recovery step {k + 1}: not verified through an emulated disk "
                      f"({pt.get('verdict')}, {pt.get('reason')})")
        if pt.get('reason') == 'fast-again':
            # The analysis saw the speed come back after its drop. Right where the drive
            # did (a stretch the model took fast after its edge, of two samples at its
            # cache's speed or more), or where the guest's own speed fell and came back
            # within the bytes the model took fast: the rig's slowdown (a starved guest),
            # which the pace check above, at its own line, may not have caught.
            back_at = pt.get('back_at_bytes') or 0
            said = (f"{name}: recovery step {k + 1}: not verified, the speed back at {back_at / MIB:.0f} MiB "
                    f"for {(pt.get('back_bytes') or 0) / MIB:.0f} MiB")
            if back_at < truth:
                print(f"# {said}: premise missed: the guest's speed fell and came back within the "
                      f"{truth / MIB:.0f} MiB the model took fast (the rig's, not the drive's); not judged")
                missed = True
                continue
            con.check(back >= 2 * STEP_SAMPLE_S * p['cache_write'],
                      f"{said}: the model took {back / MIB:.0f} MiB fast again after its edge")
            continue
        drop_seen = guest_drop({'steps': [s]}, truth) if truth >= CLEAR else None
        fast_seen, slow_seen = guest_speeds({'steps': [s]}, truth) if truth >= CLEAR else (None, None)
        if threshold and ((slow_seen is not None and slow_seen > 0.9 * threshold)
                          or (fast_seen is not None and fast_seen < 1.1 * threshold)):
            # The analysis counts as fast what is above a threshold the exhaust's speeds
            # set: a step whose cache or whose slow part the guest wrote near it (its CPU
            # busier or freer than in the exhaust) cannot be told apart. Not judged.
            print(f"# {name}: recovery step {k + 1}: premise missed: the guest wrote at "
                  f"{(fast_seen or 0) / 1e6:.1f} MB/s within the {truth / MIB:.0f} MiB the model took "
                  f"fast and {(slow_seen or 0) / 1e6:.1f} MB/s past them, not clearly either side of "
                  f"the fast threshold the exhaust set ({threshold / 1e6:.1f}; it measured "
                  f"{got / MIB:.0f} MiB fast); not judged")
            missed = True
            continue
        if drop_seen is not None and drop_seen > SEEN_DROP:
            # Or it saw no edge where the model had one (as in a write-fill).
            print(f"# {name}: recovery step {k + 1}: premise missed: the guest's own samples past the "
                  f"{truth / MIB:.0f} MiB the model took fast ran at {drop_seen:.2f} of those before "
                  f"(it measured {got / MIB:.0f} MiB fast); not judged")
            missed = True
            continue
        con.check(abs(got - truth) <= tol,
                  f'{name}: recovery step {k + 1}: {got / MIB:.0f} MiB fast, the model took '
                  f'{truth / MIB:.0f} MiB (within {tol / MIB:.0f} MiB)')
        stop = s.get('stop') or {}
        hold, cap = stop.get('past_bytes') or 0, stop.get('cap_bytes') or 0
        drop = stop.get('drop_position')
        line = (f"{name}: recovery step {k + 1} wrote {written / MIB:.0f} MiB ({s.get('stop_reason')}; "
                f"drop at {'-' if drop is None else '%.0f' % (drop / MIB)} MiB, the model's at "
                f"{truth / MIB:.0f}; margin {hold / MIB:.0f} MiB, cap {cap / MIB:.0f} MiB)")
        if truth + hold + tol < cap and seen <= CLEAR_DROP:
            con.check(s.get('stop_reason') == 'drop-held' and drop is not None and abs(drop - truth) <= tol
                      and written - drop >= hold and written - truth <= hold + tol,
                      line + ': stopped its margin past the drop')
        else:
            con.check(written <= cap, line + (': within its cap' if seen <= CLEAR_DROP else
                                              f': within its cap (the drop the guest saw, to {seen:.2f}, '
                                              f'is too near the stop rule\'s 0.7 to ask for its margin)'))
    return missed


def check(args):
    con = Console(args.console)
    con.check_guest()
    drives = {}
    with open(args.drives) as f:
        for line in f:
            name, *kv = line.split()
            drives[name] = {k: (v if k == 'fold' else float(v)) for k, v in (x.split('=') for x in kv)}
    print(f'# seed {args.seed}')
    verdicts = {}
    premise_missed = []
    recovery_missed = []
    fill_missed = set()
    fill_errors = []
    for name, p in drives.items():
        kind = f"dynamic ({p['dynamic']:.2f} × the free space, at most" if p['dynamic'] else 'static ('
        told = (f"{name}: cache {kind} {p['cache'] / MIB:.0f} MiB), writes {p['cache_write'] / 1e6:.0f}/"
                f"{p['tlc_write'] / 1e6:.0f} MB/s, reads {p['cache_read'] / 1e6:.0f}/{p['tlc_read'] / 1e6:.0f} MB/s, "
                f"folds {p['fold']} (idle after {p['idle_after']:.2f} s at {p['fold_rate'] / 1e6:.0f} MB/s)")
        print('# ' + told)
        runs = read_log(os.path.join(args.logs, name + '.log'))
        for r in RUNS:
            con.check(r in runs, f'{name}: the model\'s log has the {r} run (its marker read)')
            ops = runs.get(r) or []
            w = sum(o[2] for o in ops if o[0] == 'W')
            fast = sum(o[3] for o in ops if o[0] == 'W')
            rd = sum(o[2] for o in ops if o[0] == 'R')
            gaps = sum(b[4] - a[4] for a, b in zip(ops, ops[1:]) if b[4] - a[4] >= 1.0)
            print(f"# {name}, {r}: {con.seconds.get(f'{r}-{name}', 0):.0f} s in the guest; the model "
                  f"took {w / MIB:.0f} MiB of writes ({fast / MIB:.0f} fast), served {rd / MIB:.0f} MiB "
                  f"of reads, sat idle {gaps:.0f} s")
        got = {}
        for state in ('fill-empty', 'fill-free'):
            result = con.section_json(f'result-{state}-{name}')
            if result is None or state not in runs:
                continue
            truth, tail = fill_truth(runs[state])
            if truth >= CLEAR and tail >= CLEAR and guest_kept_pace(result, truth) is False:
                # The premise: the guest wrote at one pace while the model took its
                # writes fast. Not met, the fill is not judged (a missed premise).
                print(f"# {name}, {state}: premise missed: the guest's own samples did not hold "
                      f"their pace (by a fifth from end to end, or a stretch below {SEEN_DROP}) within "
                      f"the {truth / MIB:.0f} MiB the model took fast; not judged")
                fill_missed.add(name)
                continue
            seen = guest_drop(result, truth) if truth >= CLEAR and tail >= CLEAR else None
            if seen is not None and seen > SEEN_DROP:
                # And the guest saw the model's edge: its own samples past it at most the
                # stop rule's 0.7 of those before (a starved guest writes no faster than
                # the model's slow speed and sees no edge to find).
                print(f"# {name}, {state}: premise missed: the guest's own samples past the "
                      f"{truth / MIB:.0f} MiB the model took fast ran at {seen:.2f} of those before "
                      f"(the model's {p['tlc_write'] / p['cache_write']:.2f}); not judged")
                fill_missed.add(name)
                continue
            slc = (result.get('analysis') or {}).get('slc') or {}
            if seen is not None and seen > CLEAR_DROP and not slc.get('has_cache'):
                # The guest saw an edge, but so shallow (a starved guest's cache speed is
                # its own) that the analysis's line, a drop to 0.7, is within its noise:
                # no cache found is as right as one. A cache it does find is judged.
                print(f"# {name}, {state}: premise missed: the guest's own samples past the "
                      f"{truth / MIB:.0f} MiB the model took fast ran at {seen:.2f} of those before, "
                      f"too near the analysis's 0.7 to ask for a cache (the model's "
                      f"{p['tlc_write'] / p['cache_write']:.2f}); it found none ({slc.get('verdict')}); "
                      f"not judged")
                fill_missed.add(name)
                continue
            got[state] = (check_fill(con, name, state, result, truth, tail, p), truth, tail)
            if got[state][0] and truth >= CLEAR and tail >= CLEAR:
                fill_errors.append((got[state][0] - truth) / truth)
        if p['dynamic'] and len(got) == 2:
            (ge, te, _), (gf, tf, _) = got['fill-empty'], got['fill-free']
            print(f'# {name}: dynamic cache: {te / MIB:.0f} MiB empty, {tf / MIB:.0f} MiB a third full '
                  f'(found {ge / MIB:.0f} and {gf / MIB:.0f})')
        quick = con.section_json(f'result-quick-{name}')
        if quick is not None and 'quick' in runs:
            plan = con.section_json(f'result-plan-quick-{name}')
            if plan is not None:
                check_plan(con, name, plan, quick, runs['quick'])
            verdict, missed = check_quick(con, name, p, quick, runs['quick'])
            if verdict:
                verdicts[verdict] = verdicts.get(verdict, 0) + 1
            if missed:
                premise_missed.append(name)
        recovery = con.section_json(f'result-recovery-{name}')
        if recovery is not None and 'recovery' in runs:
            if check_recovery(con, name, p, recovery, recovery_truth(runs['recovery'])):
                recovery_missed.append(name)
    print('# verdicts: ' + ', '.join(f'{k} {v}' for k, v in sorted(verdicts.items(), key=str)))
    if fill_errors:
        e = sorted(abs(x) for x in fill_errors)
        print(f'# write-fill cache against the model: {len(e)} fills, median error {100 * e[len(e) // 2]:.1f} %, '
              f'worst {100 * e[-1]:.1f} %')
    # A rig that misses its premise on most drives tests nothing.
    for what, missed in (('read speeds', premise_missed), ('write speeds in cache-recovery', recovery_missed),
                         ('write speeds in write-fill', sorted(fill_missed))):
        con.check(len(missed) * 2 <= len(drives),
                  f'the guest saw the models\' {what} on most drives (missed on {len(missed)} '
                  f'of {len(drives)}: {" ".join(missed)})')
    con.tally()
    if con.fails:
        print(f'# NSC_VM_SEED={args.seed} repeats these drives')
    return 1 if con.fails else 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    d = sub.add_parser('draw')
    d.add_argument('--seed', type=int, required=True)
    d.add_argument('--count', type=int, default=6)
    c = sub.add_parser('check')
    c.add_argument('console')
    c.add_argument('--drives', required=True)
    c.add_argument('--logs', required=True)
    c.add_argument('--seed', required=True)
    a = ap.parse_args()
    if a.cmd == 'draw':
        for name, p in draw(a.seed, a.count):
            print(name + ' ' + ' '.join(f'{k}={v}' for k, v in p.items()))
        return 0
    return check(a)


if __name__ == '__main__':
    sys.exit(main())

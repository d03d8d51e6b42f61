#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the console of vm-unplug.sh: a write run, a read run and a capacity check
reading back, whose NVMe controllers are hot-unplugged, end by themselves, soon, with
an error that says the drive went away, exit 1, with their partial results saved; the
check's verdict is "not verified", with what it checked before, not a damaged drive."""
import argparse
import json
import re

from vmcommon import Console

# The engine's 30 s drain limit, and slack for a TCG guest on a busy host.
MAX_SECONDS = 30 + 10
# What a user needs to read: the drive is gone (issue 6: "device disappeared"), or at
# least that I/O failed. Not "No space left on device": ENOSPC is what Linux returns
# for a write past the end of a block device, whose size drops to 0 when it is
# removed; passed on as it is, it tells the user the drive is full.
GONE = r'disappeared|removed|gone|No such device|Input/output error'

p = argparse.ArgumentParser()
p.add_argument('console')
p.add_argument('--write-serial', required=True)
p.add_argument('--read-serial', required=True)
p.add_argument('--verify-serial', required=True)
a = p.parse_args()

con = Console(a.console)
check, sections, rcs, stderr = con.check, con.sections, con.rcs, con.stderr
con.check_guest()

now = re.search(r'@@NSC-UNPLUG-NOW ([\d.]+)@@', con.text)
print('# guest after: ' + ' '.join(sections.get('after', '').split()))
check('after' in sections and 'nvme' not in sections['after'].replace('/sys/class/nvme', ''),
      'the guest no longer has the controllers')

for name, direction, serial in (('write', 'write', a.write_serial), ('read', 'read', a.read_serial),
                                ('verify', 'read', a.verify_serial)):
    ended = re.search(rf'@@NSC-UNPLUG-ENDED {name} ([\d.]+)@@', con.text)
    took = float(ended.group(1)) - float(now.group(1)) if now and ended else None
    err = [line for line in stderr.get('run-' + name, []) if line.strip()]
    rc = rcs.get('run-' + name)
    print(f'# {name}: ended {took if took is None else round(took, 1)} s after the unplug request; '
          f'exit {rc}; the CLI printed: ' + ' | '.join(err))
    check(rc == 1, f'{name}: the CLI exits 1 by itself: no crash (>= 128), no hang (143) ({rc})')
    check(took is not None and took < MAX_SECONDS,
          f'{name}: it ended {took} s after the unplug request (< {MAX_SECONDS} s)')
    check(len(err) == 1, f'{name}: a one-line reason ({len(err)} lines)')
    check(any(re.search(GONE, line, re.I) for line in err),
          f'{name}: the reason says the drive went away ({GONE})')
    r = con.section_json('result-' + name)
    if not r:
        continue
    steps = r.get('steps') or []
    s = steps[-1] if steps else {}
    runs = s.get('runs') or []
    bad = [x for x in runs if x.get('error_errno')]
    moved = max([(s.get(direction) or {}).get('bytes') or 0]
                + [((x.get(direction) or {}).get('bytes') or 0) for x in runs])
    print(f'# {name} partial result: step completed {s.get("completed")}, error {s.get("error")!r}, '
          f'{moved} bytes {direction}; runs with an error: '
          + json.dumps([{k: x.get(k) for k in ("error_errno", "error_offset")} for x in bad]))
    check(s.get('completed') is not True and bool(s.get('error')),
          f'{name}: the saved step is failed, with its error')
    check(moved > 0, f'{name}: the partial result keeps what was measured before the unplug')
    con.check_result_device(name, r, serial)
    if name != 'verify':
        continue
    cap = (r.get('analysis') or {}).get('capacity') or {}
    print(f'# verify: verdict {cap.get("verdict")}, checked {cap.get("checked_bytes")} of '
          f'{cap.get("reported_bytes")} B, unreadable {cap.get("unreadable_bytes")} B')
    check(cap.get('verdict') == 'not-verified' and cap.get('complete') is False,
          f'verify: a check whose drive went away is not verified ({cap.get("verdict")})')
    # What it read before: at least the 16 MiB the unplug waited for, all of it good.
    # The reads that failed as the drive went away (up to the queue, 8 MiB, and the
    # kernel's retries of it) may count unreadable; the rest of the drive must not.
    check((cap.get('checked_bytes') or 0) >= 16 << 20 and (cap.get('unreadable_bytes') or 0) <= 16 << 20
          and (cap.get('checked_bytes') or 0) < (cap.get('reported_bytes') or 0),
          f'verify: it checked {cap.get("checked_bytes")} B before the drive went away, '
          f'{cap.get("unreadable_bytes")} B of them unreadable (at most the reads in flight)')

con.finish()

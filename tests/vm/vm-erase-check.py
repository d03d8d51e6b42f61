#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the console of vm-erase.sh: NVMe Format through the erase preset leaves
zeros where random data was, and Sanitize on QEMU's controller (no SANICAP) fails
clearly with exit 1 and leaves the data alone."""
import argparse
import json

from vmcommon import Console

p = argparse.ArgumentParser()
p.add_argument('console')
p.add_argument('--serial', required=True)
a = p.parse_args()

con = Console(a.console)
check, sections, rcs, stderr = con.check, con.sections, con.rcs, con.stderr
con.check_guest()


def text(name):
    return sections.get(name, '').strip()


def erase_steps(r):
    return [s for s in (r or {}).get('steps') or [] if 'erase_method' in s]


zero = text('sum-zero')
check(rcs.get('fill-random') == 0, con.rc_text('fill-random'))
check(text('sum-random') not in ('', zero), f'random data on the namespace (md5 {text("sum-random")})')

# --- Format ----------------------------------------------------------------------
print('# run --preset erase --erase format printed: '
      + ' | '.join(text('run-format').splitlines()[-3:] + stderr.get('run-format', [])))
check(rcs.get('run-format') == 0, con.rc_text('run-format'))
r = con.section_json('result-format')
if r:
    steps = erase_steps(r)
    s = steps[0] if steps else {}
    print(f'# erase step: {json.dumps({k: s.get(k) for k in ("kind", "completed", "erase_method", "erased_bytes", "duration_ns")})}')
    check(len(steps) == 1 and s.get('erase_method') == 'format',
          f'the result has one erase step with erase_method "format" ({s.get("erase_method")!r})')
    check(s.get('completed') is True and (s.get('erased_bytes') or 0) > 0,
          f'the erase step completed, {s.get("erased_bytes")} bytes erased')
    con.check_result_device('format', r, a.serial)
print('# od of the namespace after the format:')
for line in text('od-format').splitlines():
    print('#   ' + line)
check(text('sum-format') == zero,
      f'the namespace reads back as zeros after the format (md5 {text("sum-format")}, zeros {zero})')

# --- Sanitize --------------------------------------------------------------------
err = stderr.get('run-sanitize', [])
print(f'# run --preset erase --erase sanitize exited {rcs.get("run-sanitize")}: ' + ' | '.join(err))
check(rcs.get('run-sanitize') == 1, f'sanitize exits 1 ({rcs.get("run-sanitize")})')
check(any('does not support' in line for line in err),
      'sanitize says the controller "does not support" it')
check(len([line for line in err if line.strip()]) <= 2, f'a short error ({len(err)} lines)')
check(text('sum-sanitize') == text('sum-refill') and text('sum-refill') not in ('', zero),
      'the refused sanitize left the data as it was')
if 'result-sanitize' in sections and rcs.get('result-sanitize') == 0:
    try:
        rs = json.loads(sections['result-sanitize'])
        steps = erase_steps(rs)
        s = steps[0] if steps else {}
        print(f'# sanitize result saved: erase step {json.dumps({k: s.get(k) for k in ("completed", "erase_method", "error")})}')
        check(s.get('completed') is not True, 'the saved sanitize result does not claim a completed erase')
    except ValueError as e:
        check(False, f'the sanitize result is JSON: {e}')
else:
    print('# sanitize: no result file was written')

con.finish()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the console of vm-safety.sh: every case was refused (exit status 1 or 2
with a message) and left both namespaces' O_DIRECT checksums as they were, but
the Formats of one namespace of two, which follow the controller's FNA (refused
when a Format erases every namespace; else only the namespace named changes), and
the control, an allowed write that changes its namespace."""
import argparse
import json
import re

from vmcommon import Console

p = argparse.ArgumentParser()
p.add_argument('console')
a = p.parse_args()

con = Console(a.console)
check = con.check
con.check_guest()

cases = {}
for m in re.finditer(r'@@NSC-CASE (\S+) rc=(\d+) before=\[([^\]]*)\] after=\[([^\]]*)\]@@', con.text):
    cases[m.group(1)] = (int(m.group(2)), m.group(3).split(), m.group(4).split())
errs = {}
for m in re.finditer(r'@@NSC-CASE-ERR (\S+)@@ (.*)', con.text):
    errs.setdefault(m.group(1), []).append(m.group(2))

print('# namespaces: ' + ' | '.join(con.sections.get('namespaces', '').strip().splitlines()))
fna = None
try:
    fna = json.loads(con.sections.get('id-ctrl', ''))['fna']
    print(f'# controller FNA {fna:#x}: a Format applies to '
          + ('all namespaces' if fna & 1 else 'the namespace named'))
except (ValueError, KeyError, TypeError):
    print('# the controller\'s FNA is unknown (nvme-cli missing in the guest)')

# Format of one namespace of two: the controller's FNA decides whether it may go
# ahead (index: the namespace named).
fna_cases = {'format-other-namespace-while-mounted': 1, 'format-namespace-of-two': 0}
last = tuple(fna_cases) + ('control-write',)
tried = refused = changed = 0
for name, (rc, before, after) in cases.items():
    if name in last:
        continue
    msg = (errs.get(name) or [''])[0]
    same = len(before) == 2 and before == after
    tried += 1
    refused += rc in (1, 2) and bool(msg) and same
    changed += 0 if same else sum(b != c for b, c in zip(before, after)) or 1
    check(rc in (1, 2) and msg and same,
          f'{name}: exit {rc}, namespaces {"unchanged" if same else "CHANGED"}: {msg}')
check(tried >= 12, f'{tried} cases ran in the guest (expected at least 12)')

for name, ns in fna_cases.items():
    if not check(name in cases, f'{name} ran'):
        continue
    rc, before, after = cases[name]
    msg = (errs.get(name) or [''])[0]
    other = 1 - ns
    tried += 1
    if fna is not None and fna & 1:
        refused += rc in (1, 2) and before == after
        changed += before != after
        check(rc in (1, 2) and before == after,
              f'{name}: FNA says a Format erases every namespace; refused (exit {rc}), '
              f'both unchanged: {msg}')
    else:
        ok_other = len(before) == 2 and before[other] == after[other]
        extra = ''
        if name == 'format-namespace-of-two':
            zeros = con.sections.get('format-zeros', '').strip()
            extra = f', {zeros} non-zero bytes in its first MiB'
            ok_other = ok_other and zeros == '0'
        check(rc == 0 and ok_other and before[ns] != after[ns],
              f'{name}: FNA says a Format erases only the namespace named: exit {rc}, '
              f'namespace {ns + 1} {"changed" if before[ns:ns + 1] != after[ns:ns + 1] else "unchanged"}'
              f'{extra}, namespace {other + 1} {"unchanged" if before[other] == after[other] else "CHANGED"}')
name = 'control-write'
if check(name in cases, f'{name} ran'):
    rc, before, after = cases[name]
    check(rc == 0 and len(before) == 2 and before[1] != after[1] and before[0] == after[0],
          f'control: an allowed write changes namespace 2 only (exit {rc}, {before} -> {after})')

print(f'# vm safety matrix: {tried} cases tried, {refused} refused, '
      f'{changed} namespace checksums changed where nothing may change')
con.finish()

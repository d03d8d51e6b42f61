#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Judges vm-desktop.sh's console: for the desktop and for the sandbox, UDisks2's drive
list, polkit denying and allowing OpenDevice, Quick's saved result, the mounted drive
refused with UDisks2's mount point, and a cancel while polkit answers."""
import argparse
import re

from vmcommon import QEMU_MODEL, Console

ap = argparse.ArgumentParser()
ap.add_argument('console')
ap.add_argument('--size', type=int, required=True)
ap.add_argument('--gui', type=int, default=0)
args = ap.parse_args()
c = Console(args.console)
c.check_guest()

m = re.search(r'@@NSC-DRIVES blank=(\S+) used=(\S+)@@', c.text)
blank, used = (m.group(1), m.group(2)) if m else ('?', '?')
for line in re.findall(r'@@NSC-DMESG@@ (.*)', c.text):
    print('# guest kernel: ' + line)
times = dict(re.findall(r'@@NSC-TIME (\S+) ([\d.]+)@@', c.text))
print('# guest uptime at each stage (s): ' + ', '.join(f'{k} {v}' for k, v in times.items()))


def out(name):
    return c.sections.get(name, '')


def says(name, text):
    return text in out(name)


def show(name):
    lines = [l for l in out(name).splitlines() if l.startswith('@@')]
    return f"{name} exited {c.rcs.get(name)}: " + ' | '.join(lines)[:600]


for p in ('desktop', 'sandbox'):
    drives = c.section_json(f'{p}-drives') or []
    by_serial = {d.get('serial'): d for d in drives}
    for serial, node in (('NSCBLANK1', blank), ('NSCMOUNT2', used)):
        d = by_serial.get(serial) or {}
        c.check(d.get('model') == QEMU_MODEL and d.get('size') == args.size
                and d.get('device') == node,
                f'{p}: UDisks2 lists {serial}: model {d.get("model")!r}, size {d.get("size")}, '
                f'{d.get("device")} (QEMU: {QEMU_MODEL!r}, {args.size}, {node})')
    d = by_serial.get('NSCMOUNT2') or {}
    c.check(d.get('mounts') == [f'{used}p1\t/srv/data'],
            f'{p}: UDisks2 reports the partition mounted: {d.get("mounts")}')
    c.check((by_serial.get('NSCBLANK1') or {}).get('mounts') == [],
            f'{p}: nothing mounted on the blank drive')
    # The app's own list agrees with UDisks2, and knows the blank drive for a new one.
    cli = c.section_json(f'{p}-cli-devices') or []
    cli_by_serial = {d.get('serial'): d for d in cli}
    for serial in ('NSCBLANK1', 'NSCMOUNT2'):
        a, u = cli_by_serial.get(serial) or {}, by_serial.get(serial) or {}
        c.check(a.get('model') == u.get('model') and a.get('capacity') == u.get('size')
                and a.get('devnode') == u.get('device') and u,
                f'{p}: the app lists {serial} as UDisks2 does: {a.get("model")!r}, '
                f'{a.get("capacity")}, {a.get("devnode")}')
    b, m = cli_by_serial.get('NSCBLANK1') or {}, cli_by_serial.get('NSCMOUNT2') or {}
    sig_b, sig_m = b.get('signature') or {}, m.get('signature') or {}
    c.check(b.get('new') is True and sig_b.get('filesystem') is None
            and sig_b.get('partition_table') is None,
            f'{p}: the blank drive is new (signature {sig_b})')
    c.check(m.get('new') is False, f'{p}: the partitioned, mounted drive is not new '
            f'(signature {sig_m})')
    if p == 'desktop':
        c.check(sig_b.get('known') is True and sig_m.get('partition_table') == 'gpt',
                f'{p}: udev\'s database read: blank {sig_b}, partitioned {sig_m}')
    print(f'# {p}: HintSystem of {blank}: {out(p + "-hint").strip()}')

    # polkit says no.
    c.check(c.rcs.get(f'{p}-deny-open') == 2 and says(f'{p}-deny-open', 'error nsc-udisks-error-quark 2')
            and says(f'{p}-deny-open', 'was not authorized'),
            f'{p}: polkit denies: ' + show(f'{p}-deny-open'))
    c.check(c.rcs.get(f'{p}-deny-quick') == 2 and says(f'{p}-deny-quick', 'was not authorized')
            and not says(f'{p}-deny-quick', '@@RESULT saved'),
            f'{p}: Quick when polkit denies: ' + show(f'{p}-deny-quick'))
    c.check(c.rcs.get(f'{p}-deny-then-drives') == 0, f'{p}: still usable after the denial '
            f'(drives listed again: {c.rcs.get(p + "-deny-then-drives")})')
    m = re.search(rf'@@NSC-DENY {p} (\S+) (\S+) (\S+)@@', c.text)
    c.check(m is not None and m.group(1) == m.group(2) and m.group(3) == 'none',
            f'{p}: nothing written when denied (first 64 MiB {m.group(1)[:12] if m else "?"} -> '
            f'{m.group(2)[:12] if m else "?"}, result file: {m.group(3) if m else "?"})')

    # polkit says yes: Quick on the raw drive, the result saved with the drive's facts.
    c.check(c.rcs.get(f'{p}-allow-quick') == 0 and says(f'{p}-allow-quick', '@@RESULT saved'),
            f'{p}: Quick when polkit allows: ' + show(f'{p}-allow-quick')
            + ' ' + ' | '.join(c.stderr.get(f'{p}-allow-quick', []))[:300])
    r = c.section_json(f'{p}-allow-result')
    if r:
        steps = r.get('steps') or []
        measured = [s for s in steps if (s.get('runs') or s.get('jobs') or s.get('headline'))]
        t = r.get('target') or {}
        c.check(t.get('kind') == 'device' and t.get('path') == blank and len(steps) > 0
                and not r.get('cancelled') and not r.get('error'),
                f'{p}: the result names {t.get("path")} ({t.get("kind")}), {len(steps)} steps, '
                f'preset {r.get("preset_name") or r.get("preset")!r}')
        c.check_result_device(f'{p}: result', r, 'NSCBLANK1')
    m = re.search(rf'@@NSC-ALLOW {p} (\S+) (\S+)@@', c.text)
    c.check(m is not None and m.group(1) != m.group(2),
            f'{p}: Quick wrote to the drive it was allowed to ({m.group(1)[:12] if m else "?"} -> '
            f'{m.group(2)[:12] if m else "?"})')

    # The drive whose partition is mounted.
    c.check(c.rcs.get(f'{p}-mounted-check') == 2 and says(f'{p}-mounted-check', '/srv/data'),
            f'{p}: the mounted drive is refused naming /srv/data: ' + show(f'{p}-mounted-check'))
    c.check(says(f'{p}-mounted-check', '@@CHECK udisks refused@@')
            and says(f'{p}-mounted-check', f'{used}p1 is mounted at /srv/data (as UDisks2 reports it)'),
            f'{p}: UDisks2 names the mount point')
    c.check(c.rcs.get(f'{p}-mounted-quick') == 2 and says(f'{p}-mounted-quick', '/srv/data')
            and not says(f'{p}-mounted-quick', '@@OPEN ok'),
            f'{p}: Quick on the mounted drive refused before the open: ' + show(f'{p}-mounted-quick'))
    c.check(c.rcs.get(f'{p}-mounted-open') == 2 and says(f'{p}-mounted-open', 'error nsc-udisks-error-quark 3'),
            f'{p}: an exclusive OpenDevice of it (past the app\'s check) is busy: '
            + show(f'{p}-mounted-open'))
    m = re.search(rf'@@NSC-MOUNTED {p} (\S+) (\S+) (\S+)@@', c.text)
    c.check(m is not None and m.group(1) == m.group(2) and m.group(3) == 'none',
            f'{p}: the mounted drive unchanged, no result file')

    # Cancel while polkit answers (the rule sleeps 3 s; cancel at 0.5 s).
    c.check(c.rcs.get(f'{p}-cancel') == 3 and says(f'{p}-cancel', '@@OPEN cancelling@@')
            and says(f'{p}-cancel', 'block descriptors after the cancel: 0@@')
            and says(f'{p}-cancel', '@@OPEN-AGAIN ok@@'),
            f'{p}: cancelled while polkit answered, nothing left open, an exclusive open '
            'succeeds in the same process: ' + show(f'{p}-cancel'))
    c.check(c.rcs.get(f'{p}-cancel-then-excl') == 0 and says(f'{p}-cancel-then-excl', '@@OPEN ok'),
            f'{p}: then another process opens it exclusively: ' + show(f'{p}-cancel-then-excl'))

def stderr(name):
    return ' | '.join(c.stderr.get(name, []))


for p in (('gui', 'sandbox-gui') if args.gui else ()):
    # The app under Xvfb: its exit status and its one-line message (stderr).
    c.check(c.rcs.get(f'{p}-deny') == 1 and 'was not authorized' in stderr(f'{p}-deny'),
            f'{p}: polkit denies: exit {c.rcs.get(p + "-deny")}: ' + stderr(f'{p}-deny')[:400])
    m = re.search(rf'@@NSC-GUI-DENY {p} (\S+) (\S+) (\d+)@@', c.text)
    c.check(m is not None and m.group(1) == m.group(2) and m.group(3) == '0',
            f'{p}: nothing written or saved when denied ({m.group(3) if m else "?"} results)')
    c.check(c.rcs.get(f'{p}-allow') == 0, f'{p}: polkit allows, surface ran on the raw drive: exit '
            f'{c.rcs.get(p + "-allow")}: ' + stderr(f'{p}-allow')[:400])
    r = c.section_json(f'{p}-allow-result')
    if r:
        t = r.get('target') or {}
        c.check(t.get('kind') == 'device' and t.get('path') == blank,
                f'{p}: the saved result names {t.get("path")} ({t.get("kind")})')
        c.check_result_device(f'{p}: result', r, 'NSCBLANK1')
    c.check(c.rcs.get(f'{p}-mounted') == 1 and '/srv/data' in stderr(f'{p}-mounted'),
            f'{p}: Quick on the mounted drive refused: exit {c.rcs.get(p + "-mounted")}: '
            + stderr(f'{p}-mounted')[:400])
    # --cancel-after: the Cancel action 0.5 s after Run, while polkit's rule takes 3 s;
    # exit 0 means the window was idle again, and no result was saved for it.
    m = re.search(rf'@@NSC-GUI-RESULTS {p} (\d+)@@', c.text)
    c.check(c.rcs.get(f'{p}-cancel') == 0 and 'cancel-to-idle-ms' in stderr(f'{p}-cancel')
            and m is not None and m.group(1) == '1',
            f'{p}: cancelled while polkit answered, idle again, nothing saved: exit '
            f'{c.rcs.get(p + "-cancel")}: ' + stderr(f'{p}-cancel')[:300]
            + f' ({m.group(1) if m else "?"} results, the allowed run\'s)')
    c.check(c.rcs.get(f'{p}-cancel-then-excl') == 0,
            f'{p}: then an exclusive OpenDevice succeeds: ' + show(f'{p}-cancel-then-excl'))

view = out('sandbox-view')
print('# sandbox: ' + ' | '.join(view.splitlines())[:700])
lines = view.splitlines()
dev = next((l for l in lines if l.startswith('dev: ')), '')
names = next((l for l in lines if l.startswith('([')), '')
c.check(c.rcs.get('sandbox-view') == 0 and dev and 'nvme' not in dev
        and 'flatpak-info: yes' in view and 'Read-only file system' in view,
        'the sandbox: no block device in /dev, /sys read-only, /.flatpak-info')
c.check("'org.freedesktop.UDisks2'" in names and 'PolicyKit1' not in names
        and any('ServiceUnknown' in l for l in lines),
        f"the sandbox's system bus reaches UDisks2 and not polkit: {names}")
c.check('@@NSC-STALL' not in c.text, "QEMU's namespace completed every I/O")
polkit = out('polkitd-log')
asked = re.findall(r'nandscope-test: (\S+) for (\S+): (yes after 3 s|yes|no)', polkit)
print('# polkit was asked: ' + '; '.join(f'{a} for {u}: {r} x{asked.count((a, u, r))}'
                                         for a, u, r in sorted(set(asked))))
c.check(any(u == 'tester' and r == 'no' for a, u, r in asked)
        and any(u == 'tester' and r == 'yes' for a, u, r in asked),
        "polkit's rules were asked about the user's OpenDevice, and said no and yes")
c.check(sum(1 for a, u, r in asked if r == 'yes after 3 s') >= 2 + 2 * args.gui,
        'the cancels came while polkit answered (its rule takes 3 s; the cancel comes at 0.5 s)')
c.finish()

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
spans = re.findall(r'@@NSC-SECTION-TIME (\S+) ([\d.]+) ([\d.]+)@@', c.text)
print('# each case, guest seconds: ' + ', '.join(f'{n} {float(b) - float(a):.1f}' for n, a, b in spans))


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

    # polkit says no to the app's OpenDevice: UDisks2's error, as the app words it.
    c.check(c.rcs.get(f'{p}-deny-open') == 2 and says(f'{p}-deny-open', 'error nsc-udisks-error-quark 2')
            and says(f'{p}-deny-open', 'was not authorized'),
            f'{p}: polkit denies: ' + show(f'{p}-deny-open'))
    m = re.search(rf'@@NSC-DENY {p} (\S+) (\S+) (\S+)@@', c.text)
    c.check(m is not None and m.group(1) == m.group(2),
            f'{p}: nothing written when denied (first 64 MiB {m.group(1)[:12] if m else "?"} -> '
            f'{m.group(2)[:12] if m else "?"})')

    # The drive whose partition is mounted.
    c.check(c.rcs.get(f'{p}-mounted-check') == 2 and says(f'{p}-mounted-check', '/srv/data'),
            f'{p}: the mounted drive is refused naming /srv/data: ' + show(f'{p}-mounted-check'))
    c.check(says(f'{p}-mounted-check', '@@CHECK udisks refused@@')
            and says(f'{p}-mounted-check', f'{used}p1 is mounted at /srv/data (as UDisks2 reports it)'),
            f'{p}: UDisks2 names the mount point')
    c.check(c.rcs.get(f'{p}-mounted-open') == 2 and says(f'{p}-mounted-open', 'error nsc-udisks-error-quark 3'),
            f'{p}: an exclusive OpenDevice of it (past the app\'s check) is busy: '
            + show(f'{p}-mounted-open'))
    m = re.search(rf'@@NSC-MOUNTED {p} (\S+) (\S+) (\S+)@@', c.text)
    c.check(m is not None and m.group(1) == m.group(2),
            f'{p}: the mounted drive unchanged')

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


def dump(name, tag):
    """The lines of the app's "dump TAG" in section NAME."""
    m = re.search(rf'^== dump {tag}\n(.*?)^== end$', out(name), re.S | re.M)
    return m.group(1) if m else ''


def drive_rows(text):
    """The picker's drive rows in a dump: each row's label texts, joined."""
    rows, depth, row_depth = [], None, None
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip(' '))
        if depth is not None and indent <= depth:
            depth = None
        if depth is None:
            if 'GtkListBox#drive_list' in line:
                depth = indent
            continue
        if 'AdwActionRow' in line and (row_depth is None or indent <= row_depth):
            row_depth = indent
            rows.append([])
        elif rows and indent > row_depth:
            # g_format_size () puts a no-break space before the unit; the console, '?'.
            rows[-1] += [t.replace('\\n', ' ').replace('\u00a0', ' ').replace('?', ' ')
                         for t in re.findall(r' "((?:[^"\\]|\\.)*)"$', line)]
    return [' | '.join(r) for r in rows]


def gsize(n):
    """g_format_size () of n bytes (decimal units)."""
    if n < 1000:
        return f'{n} bytes'
    for i, unit in enumerate(('kB', 'MB', 'GB', 'TB', 'PB'), 1):
        if n < 1000 ** (i + 1) or unit == 'PB':
            return f'{n / 1000 ** i:.1f} {unit}'


for p, ref in ((('gui', 'desktop'), ('sandbox-gui', 'sandbox')) if args.gui else ()):
    # The app under Xvfb, driven by --script: its picker, its dialogs, its saved results.
    udisks = [d for d in (c.section_json(f'{ref}-drives') or []) if d.get('size')]
    rows = drive_rows(dump(f'{p}-deny', 'picker'))
    print(f'# {p}: the picker\'s drive rows: ' + ' || '.join(rows)[:900])
    c.check(c.rcs.get(f'{p}-deny') == 0 and len(rows) == len(udisks) and udisks,
            f'{p}: the picker lists {len(rows)} drives, UDisks2 {len(udisks)}')
    for d in udisks:
        name = (d.get('device') or '').rsplit('/', 1)[-1]
        want = [d.get('model') or f'Drive {name}', gsize(d.get('size') or 0), name]
        if d.get('serial'):
            want.append(d['serial'])
        hit = [r for r in rows if all(w in r for w in want)]
        c.check(len(hit) == 1, f'{p}: a picker row shows {want} as UDisks2 reports them')
    mounted = [r for r in rows if f'{used.rsplit("/", 1)[-1]}' in r]
    c.check(len(mounted) == 1 and '/srv/data' in mounted[0],
            f'{p}: the mounted drive\'s row names /srv/data: {mounted[:1]}')

    # polkit says no: the confirmation answered, a clear message, nothing written, and
    # the window then runs Quick on a folder.
    denied = dump(f'{p}-deny', 'denied')
    c.check(c.rcs.get(f'{p}-deny') == 0 and f'script: dialog heading="Erase ' in out(f'{p}-deny')
            and 'was not authorized' in denied,
            f'{p}: confirmed, then polkit denies: exit {c.rcs.get(p + "-deny")}: '
            + ' '.join(re.findall(r'"([^"]*not authorized[^"]*)"', denied))[:400]
            + ' ' + ' | '.join(l for l in out(f'{p}-deny').splitlines() if 'script: ' in l)[:400])
    m = re.search(rf'@@NSC-GUI-DENY {p} (\S+) (\S+) (\d+)@@', c.text)
    c.check(m is not None and m.group(1) == m.group(2),
            f'{p}: nothing written when denied (first 64 MiB {m.group(1)[:12] if m else "?"} -> '
            f'{m.group(2)[:12] if m else "?"})')
    r = c.section_json(f'{p}-deny-results')
    t = (r or {}).get('target') or {}
    c.check(m is not None and m.group(3) == '1' and t.get('kind') != 'device'
            and t.get('path') == f'/home/tester/{p}-folder' and not (r or {}).get('error'),
            f'{p}: then still usable: Quick ran on {t.get("path")} ({t.get("kind")}); '
            f'{m.group(3) if m else "?"} results saved')

    # polkit says yes: Quick on the raw drive after the confirmation.
    c.check(c.rcs.get(f'{p}-allow') == 0 and f'script: dialog heading="Erase ' in out(f'{p}-allow')
            and f'({blank.rsplit("/", 1)[-1]})?"' in out(f'{p}-allow'),
            f'{p}: the confirmation named the drive and was answered: exit {c.rcs.get(p + "-allow")}: '
            + ' | '.join(l for l in out(f'{p}-allow').splitlines() if l.startswith('script: '))[:500])
    r = c.section_json(f'{p}-allow-result')
    if r:
        t = r.get('target') or {}
        c.check(t.get('kind') == 'device' and t.get('path') == blank and r.get('steps')
                and not r.get('cancelled') and not r.get('error')
                and (r.get('preset') or {}).get('name') == 'quick',
                f'{p}: the saved result names {t.get("path")} ({t.get("kind")}), '
                f'{len(r.get("steps") or [])} steps, preset {(r.get("preset") or {}).get("name")!r}')
        c.check_result_device(f'{p}: result', r, 'NSCBLANK1')
        u = next((d for d in udisks if d.get('serial') == 'NSCBLANK1'), {})
        dev = r.get('device') or {}
        c.check(dev.get('model') == u.get('model') and dev.get('serial') == u.get('serial'),
                f'{p}: the result\'s drive facts are UDisks2\'s: {dev.get("model")!r} '
                f'{dev.get("serial")!r}')
    m = re.search(rf'@@NSC-GUI-ALLOW {p} (\S+) (\S+)@@', c.text)
    c.check(m is not None and m.group(1) != m.group(2),
            f'{p}: Quick wrote to the drive it was allowed to ({m.group(1)[:12] if m else "?"} -> '
            f'{m.group(2)[:12] if m else "?"})')

    mounted = dump(f'{p}-allow', 'mounted')
    refused = ' '.join(re.findall(r'script: preset refused: (.*)', out(f'{p}-allow')))
    m = re.search(rf'@@NSC-GUI-MOUNTED {p} (\S+) (\S+)@@', c.text)
    c.check(c.rcs.get(f'{p}-allow') == 0 and '/srv/data' in refused and '/srv/data' in mounted
            and 'window AdwMessageDialog' not in mounted
            and m is not None and m.group(1) == m.group(2),
            f'{p}: Quick on the mounted drive refused, naming /srv/data, nothing written: '
            + refused[:400])
    # --cancel-after: the Cancel action 0.5 s after Run, while polkit's rule takes 3 s;
    # exit 0 means the window was idle again, and no result was saved for it.
    m = re.search(rf'@@NSC-GUI-RESULTS {p} (\d+)@@', c.text)
    c.check(c.rcs.get(f'{p}-cancel') == 0 and 'cancel-to-idle-ms' in stderr(f'{p}-cancel')
            and m is not None and m.group(1) == '0',
            f'{p}: cancelled while polkit answered, idle again, nothing saved: exit '
            f'{c.rcs.get(p + "-cancel")}: ' + stderr(f'{p}-cancel')[:300]
            + f' ({m.group(1) if m else "?"} results)')
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

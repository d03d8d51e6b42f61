# SPDX-License-Identifier: GPL-3.0-or-later
"""Reads the console of a vm suite guest (see vm-lib.sh) and counts checks.

Sections are printed between "@@NSC-BEGIN name@@" and "@@NSC-END name@@", with
"@@NSC-TIME name START END@@" (the guest's uptime) before and "@@NSC-RC name N@@"
after each, and the command's stderr as "@@NSC-STDERR name@@ …".
check() prints "ok - …" / "FAIL - …"; finish() prints the tally and exits 1 when any
check failed."""
import json
import re
import sys

QEMU_MODEL = 'QEMU NVMe Ctrl'
# QEMU's emulated controller reports a composite temperature of 323 K.
QEMU_CELSIUS = 323 - 273.15


class Console:
    def __init__(self, path):
        self.text = open(path, encoding='utf-8', errors='replace').read().replace('\r', '')
        self.sections, self.rcs, self.stderr = {}, {}, {}
        for m in re.finditer(r'@@NSC-BEGIN (\S+)@@\n(.*?)@@NSC-END \1@@', self.text, re.S):
            self.sections[m.group(1)] = m.group(2)
        for m in re.finditer(r'@@NSC-RC (\S+) (\d+)@@', self.text):
            self.rcs[m.group(1)] = int(m.group(2))
        for m in re.finditer(r'@@NSC-STDERR (\S+)@@ (.*)', self.text):
            self.stderr.setdefault(m.group(1), []).append(m.group(2))
        # A section's guest seconds (its command's), from the guest's uptime.
        self.seconds = {m.group(1): float(m.group(3)) - float(m.group(2))
                        for m in re.finditer(r'@@NSC-TIME (\S+) ([\d.]+) ([\d.]+)@@', self.text)}
        self.fails = 0
        self.checks = 0
        self.failed = []

    def check(self, cond, what):
        self.checks += 1
        if not cond:
            self.fails += 1
            self.failed.append(what)
        print(('ok - ' if cond else 'FAIL - ') + what)
        return cond

    def check_guest(self):
        """The guest's own error lines, and that its script ran to the end."""
        for err in re.findall(r'@@NSC-ERROR (.*?)@@', self.text):
            self.check(False, 'guest: ' + err)
        if not self.check('@@NSC-DONE@@' in self.text, 'the guest ran its script to the end'):
            print('# last console lines:')
            for line in self.text.splitlines()[-30:]:
                print('#   ' + line)

    def rc_text(self, name):
        rc = self.rcs.get(name)
        return f'{name} exited {rc}' + (': ' + ' | '.join(self.stderr.get(name, [])) if rc else '')

    def section_json(self, name):
        if not self.check(name in self.sections, f'guest printed section {name}'):
            return None
        if not self.check(self.rcs.get(name) == 0, self.rc_text(name)):
            return None
        try:
            return json.loads(self.sections[name])
        except ValueError as e:
            self.check(False, f'{name} is JSON: {e}')
            return None

    def check_result_device(self, name, r, serial):
        """A run's result names the drive it ran on: QEMU's model and our serial."""
        d = r.get('device') or {}
        self.check(d.get('model') == QEMU_MODEL and d.get('serial') == serial,
                   f"{name}: result device model {d.get('model')!r}, serial {d.get('serial')!r} "
                   f"(QEMU: {QEMU_MODEL!r}, {serial!r})")

    def check_temperature(self, name, step):
        """A step's temperature series: increasing times within the step, QEMU's 323 K."""
        t = step.get('temperature') or {}
        ts, cs = t.get('t_ns') or [], t.get('celsius') or []
        # Sampled every second: a step of N seconds has about N samples; a busy host
        # starves the TCG guest's sampler now and then, so half of them will do.
        want = max(1, int((step.get('runtime_ns') or step.get('duration_ns') or 0) / 2e9))
        self.check(len(ts) >= want and len(ts) == len(cs)
                   and all(b > a for a, b in zip(ts, ts[1:]))
                   and all(c is not None and abs(c - QEMU_CELSIUS) < 0.6 for c in cs),
                   f'{name}: {len(cs)} temperature samples (>= {want}), {sorted(set(cs))[:3]} °C '
                   f'(QEMU: 323 K = {QEMU_CELSIUS:.2f} °C)')
        return len(cs)

    def tally(self, why=''):
        """The count, and each failure again after it: a report that keeps only the
        output's tail still names what failed."""
        print(f'{self.checks - self.fails} passed, {self.fails} failed{why}')
        for what in self.failed:
            print('# failed: ' + what)

    def finish(self):
        self.tally()
        sys.exit(1 if self.fails else 0)

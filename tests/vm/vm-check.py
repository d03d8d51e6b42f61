#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the console of the vm suite's guest (see vm-nvme.sh).

Sections are printed between "@@NSC-BEGIN name@@" and "@@NSC-END name@@", with
"@@NSC-RC name N@@" after each. Prints "ok - …" / "FAIL - …" per check and the facts
compared, and exits 1 when any check failed."""
import argparse
import json
import re
import sys

p = argparse.ArgumentParser()
p.add_argument('console')
p.add_argument('--serial', required=True)
p.add_argument('--size', type=int, required=True)
p.add_argument('--lba', type=int, required=True)
p.add_argument('--qemu-version', required=True)
p.add_argument('--nvme-cli', type=int, default=1)
p.add_argument('--setpriv', type=int, default=0)
a = p.parse_args()

text = open(a.console, encoding='utf-8', errors='replace').read().replace('\r', '')
sections, rcs = {}, {}
for m in re.finditer(r'@@NSC-BEGIN (\S+)@@\n(.*?)@@NSC-END \1@@', text, re.S):
    sections[m.group(1)] = m.group(2)
for m in re.finditer(r'@@NSC-RC (\S+) (\d+)@@', text):
    rcs[m.group(1)] = int(m.group(2))
stderr = {}
for m in re.finditer(r'@@NSC-STDERR (\S+)@@ (.*)', text):
    stderr.setdefault(m.group(1), []).append(m.group(2))

fails = 0
checks = 0


def check(cond, what):
    global fails, checks
    checks += 1
    if not cond:
        fails += 1
    print(('ok - ' if cond else 'FAIL - ') + what)
    return cond


def section_json(name):
    if not check(name in sections, f'guest printed section {name}'):
        return None
    if not check(rcs.get(name) == 0, f'{name} exited {rcs.get(name)}'
                 + (': ' + ' | '.join(stderr.get(name, [])) if rcs.get(name) else '')):
        return None
    try:
        return json.loads(sections[name])
    except ValueError as e:
        check(False, f'{name} is JSON: {e}')
        return None


for err in re.findall(r'@@NSC-ERROR (.*?)@@', text):
    check(False, 'guest: ' + err)
if not check('@@NSC-DONE@@' in text, 'the guest ran its script to the end'):
    print('# last console lines:')
    for line in text.splitlines()[-30:]:
        print('#   ' + line)

devices = section_json('devices-json') or []
nvme = [d for d in devices if d.get('name') == 'nvme0n1']
d = nvme[0] if nvme else None
check(d is not None, 'devices --json lists nvme0n1: '
      + ', '.join(x.get('name', '?') for x in devices))

# QEMU's firmware revision is its version, cut to the 8 bytes of the FR field.
fw_expected = a.qemu_version[:8]
idc = section_json('id-ctrl') if a.nvme_cli else None
idns = section_json('id-ns') if a.nvme_cli else None
smart = section_json('smart-log') if a.nvme_cli else None

if d:
    print('# nandscope-cli in the guest: ' + json.dumps({k: d.get(k) for k in (
        'model', 'serial', 'firmware', 'capacity', 'logical_block_size', 'transport',
        'controller', 'temperature_c', 'temperature_source', 'state')}))
    n = d.get('nvme') or {}
    ident = n.get('identify') or {}
    ns = n.get('namespace') or {}
    sm = n.get('smart') or {}
    check(d.get('transport') == 'nvme', f"transport {d.get('transport')}")
    check(d.get('controller') == 'nvme0', f"controller {d.get('controller')}")
    check(d.get('model') == 'QEMU NVMe Ctrl', f"model {d.get('model')!r} (QEMU: 'QEMU NVMe Ctrl')")
    check(d.get('serial') == a.serial, f"serial {d.get('serial')!r} (QEMU was told {a.serial!r})")
    check(d.get('firmware') == fw_expected,
          f"firmware {d.get('firmware')!r} (QEMU version {a.qemu_version} → {fw_expected!r})")
    check(d.get('capacity') == a.size, f"capacity {d.get('capacity')} (disk file {a.size})")
    check(d.get('logical_block_size') == a.lba,
          f"logical block size {d.get('logical_block_size')} (QEMU was told {a.lba})")
    check(ns.get('lba_size') == a.lba, f"Identify Namespace LBA size {ns.get('lba_size')}")
    check(ns.get('nsze') is not None and ns.get('nsze') * a.lba == a.size,
          f"nsze {ns.get('nsze')} × {a.lba} = {a.size}")
    t = d.get('temperature_c')
    check(t is not None and abs(t - 49.85) < 0.6, f"temperature {t} °C (QEMU: 323 K = 49.85 °C)")
    check(sm.get('temperature_k') == 323, f"SMART composite temperature {sm.get('temperature_k')} K")
    check(ident.get('wctemp_k') is not None and ident.get('cctemp_k') is not None,
          f"WCTEMP {ident.get('wctemp_k')} K, CCTEMP {ident.get('cctemp_k')} K")
    check(ident.get('dsm_deallocate') is True, f"ONCS DSM (deallocate) {ident.get('dsm_deallocate')}")
    check(d.get('unavailable') == [], f"nothing unavailable as root: {d.get('unavailable')}")
    check(d.get('free') is True and d.get('state') == 'free', f"state {d.get('state')!r}")

    if idc:
        mn, sn, fr = idc.get('mn', '').strip(), idc.get('sn', '').strip(), idc.get('fr', '').strip()
        print(f'# nvme-cli id-ctrl: mn={mn!r} sn={sn!r} fr={fr!r} wctemp={idc.get("wctemp")} '
              f'cctemp={idc.get("cctemp")} oncs={idc.get("oncs")}')
        check(d.get('model') == mn, f'model matches nvme-cli ({mn!r})')
        check(d.get('serial') == sn, f'serial matches nvme-cli ({sn!r})')
        check(d.get('firmware') == fr, f'firmware matches nvme-cli ({fr!r})')
        check(ident.get('wctemp_k') == idc.get('wctemp'), f'WCTEMP matches nvme-cli ({idc.get("wctemp")})')
        check(ident.get('cctemp_k') == idc.get('cctemp'), f'CCTEMP matches nvme-cli ({idc.get("cctemp")})')
        check(ident.get('oncs') == idc.get('oncs'), f'ONCS matches nvme-cli ({idc.get("oncs")})')
    if idns:
        cur = idns.get('flbas', 0) & 0xf
        ds = idns['lbafs'][cur]['ds'] if 'lbafs' in idns else None
        print(f'# nvme-cli id-ns: nsze={idns.get("nsze")} flbas={idns.get("flbas")} ds={ds}')
        check(ds is not None and 2 ** ds == a.lba, f'LBA size matches nvme-cli (2^{ds})')
        check(idns.get('nsze') == ns.get('nsze'), f'nsze matches nvme-cli ({idns.get("nsze")})')
    if smart:
        st = smart.get('temperature')
        print(f'# nvme-cli smart-log: temperature={st} critical_warning={smart.get("critical_warning")} '
              f'data_units_written={smart.get("data_units_written")}')
        # nvme-cli 2.3 prints the raw kelvin value in JSON.
        check(st == sm.get('temperature_k'), f'SMART temperature matches nvme-cli ({st})')
        check(smart.get('critical_warning') == sm.get('critical_warning'),
              f'critical warning matches nvme-cli ({smart.get("critical_warning")})')

# As an ordinary user: sysfs and hwmon facts, and the NVMe fields said to need root.
if a.setpriv and d:
    users = section_json('devices-user') or []
    u = [x for x in users if x.get('name') == 'nvme0n1']
    u = u[0] if u else {}
    fields = {x.get('field'): x.get('reason') for x in u.get('unavailable') or []}
    print(f'# as uid 65534: model={u.get("model")!r} firmware={u.get("firmware")!r} '
          f'temperature={u.get("temperature_c")} ({u.get("temperature_source")}) unavailable={fields}')
    check(u.get('model') == d.get('model') and u.get('serial') == d.get('serial')
          and u.get('firmware') == d.get('firmware'), 'without root: identity from sysfs matches')
    check(u.get('temperature_source') == 'hwmon' and abs((u.get('temperature_c') or 0) - 49.85) < 0.6,
          'without root: hwmon temperature')
    check(u.get('nvme') is None and fields.get('nvme.identify') == 'needs root'
          and fields.get('nvme.smart') == 'needs root', 'without root: Identify and SMART listed as "needs root"')

if 'devices' in sections:
    print('# guest table:')
    for line in sections['devices'].splitlines():
        print('#   ' + line)

for name, direction in (('write', 'write'), ('randread', 'read')):
    check(rcs.get('run-' + name) == 0, f'run --rw {name} exited {rcs.get("run-" + name)}'
          + (': ' + ' | '.join(stderr.get('run-' + name, [])) if rcs.get('run-' + name) else ''))
    r = section_json('result-' + name)
    if not r:
        continue
    step = (r.get('steps') or [{}])[0]
    bw = (step.get(direction) or {}).get('bw_bps', 0)
    iops = (step.get(direction) or {}).get('iops', 0)
    temps = (step.get('temperature') or {}).get('celsius') or []
    print(f'# {name}: {bw / 1048576:.1f} MiB/s, {iops:.0f} IOPS, backend {step.get("backend")}, '
          f'temperature samples {temps[:3]}, device member {"set" if r.get("device") else "null"}')
    check(step.get('completed') is True, f'{name} step completed')
    check(bw > 0, f'{name} moved data ({bw:.0f} B/s)')
    if name == 'randread':
        cond = step.get('conditions') or {}
        check(cond.get('contents_verified') is True,
              f'reads went to blocks the run wrote (prefilled {cond.get("prefilled_bytes")})')

# The write runs put at least the write step's bytes through the controller; SMART
# counts data units of 512 000 bytes, rounded up.
after = section_json('devices-after') or []
a_nvme = [x for x in after if x.get('name') == 'nvme0n1']
written = ((a_nvme[0].get('nvme') or {}).get('smart') or {}).get('bytes_written') if a_nvme else None
wr = section_json('result-write') if 'result-write' in sections else None
wbytes = (((wr or {}).get('steps') or [{}])[0].get('write') or {}).get('bytes', 0) if wr else 0
print(f'# SMART bytes written after the runs: {written}; the write step wrote {wbytes}')
check(written is not None and wbytes > 0 and written >= wbytes,
      f'SMART data units written cover the write step ({written} >= {wbytes})')

print(f'{checks - fails} passed, {fails} failed')
sys.exit(1 if fails else 0)

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the console of the vm suite's guest (see vm-nvme.sh): the device facts
against QEMU and nvme-cli, the runs on the namespace (write, randread, the
trim-latency preset) and the device facts and temperature series in their results.
Prints "ok - …" / "FAIL - …" per check and the facts compared, and exits 1 when any
check failed."""
import argparse
import json

from vmcommon import Console

p = argparse.ArgumentParser()
p.add_argument('console')
p.add_argument('--serial', required=True)
p.add_argument('--size', type=int, required=True)
p.add_argument('--lba', type=int, required=True)
p.add_argument('--qemu-version', required=True)
p.add_argument('--nvme-cli', type=int, default=1)
p.add_argument('--setpriv', type=int, default=0)
a = p.parse_args()

con = Console(a.console)
check, section_json = con.check, con.section_json
sections, rcs, stderr = con.sections, con.rcs, con.stderr
con.check_guest()

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
    con.check_result_device(name, r, a.serial)
    con.check_temperature(name, step)
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


# TRIM on the namespace (discard=unmap passes DSM deallocate through to the file):
# the trim-latency preset, scaled down, fills, trims and reads while timing requests.
check(rcs.get('run-trim') == 0, con.rc_text('run-trim'))
tr = section_json('result-trim')
if tr:
    steps = tr.get('steps') or []
    trims = [s for s in steps if s.get('kind') == 'trim']
    t = trims[0] if trims else {}
    tl = (tr.get('analysis') or {}).get('trim_latency')
    print(f'# trim-latency: trim steps {[(s.get("trimmed_bytes"), s.get("trim_method")) for s in trims]}, '
          f'analysis.trim_latency {json.dumps(tl)}')
    check(t.get('completed') is True and (t.get('trimmed_bytes') or 0) > 0,
          f'a trim step trimmed {t.get("trimmed_bytes")} bytes')
    check(t.get('trim_method') == 'BLKDISCARD', f'trim method {t.get("trim_method")!r} (a block device: BLKDISCARD)')
    check(isinstance(tl, dict) and 'error' not in tl and (tl.get('worst_latency_ns') or 0) > 0
          and tl.get('stall_ns') is not None,
          f'analysis.trim_latency present with a worst latency ({(tl or {}).get("worst_latency_ns")} ns)')
    con.check_result_device('trim-latency', tr, a.serial)
    jobs = [s for s in steps if s.get('kind') == 'job']
    if check(len(jobs) >= 1, f'trim-latency has a read step ({len(jobs)})'):
        con.check_temperature('trim-latency reads', jobs[0])

con.finish()

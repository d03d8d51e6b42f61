#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the console of vm-io-errors.sh: a read job and a write job that meet
blkdebug's EIO fail with the errno and offset in their saved partial results, exit
1 with a one-line reason and end by themselves; a clean write on the same device
afterwards still works."""
import argparse
import json

from vmcommon import Console

p = argparse.ArgumentParser()
p.add_argument('console')
p.add_argument('--serial', required=True)
p.add_argument('--bs', type=int, required=True)
p.add_argument('--read-offset', type=int, required=True)
p.add_argument('--write-offset', type=int, required=True)
a = p.parse_args()

con = Console(a.console)
check, sections, rcs, stderr = con.check, con.sections, con.rcs, con.stderr
con.check_guest()

# blkdebug fails QEMU's request with EIO; QEMU's NVMe controller answers the guest
# as a drive does for a bad block: Unrecovered Read Error (0x281) for reads, Write
# Fault (0x280) for writes (hw/nvme/ctrl.c, nvme_aio_err); Linux maps both to
# BLK_STS_MEDIUM, which reaches the program as ENODATA (61), "No data available"
# (drivers/nvme/host/core.c, block/blk-core.c). That is what a media error of a real
# NVMe drive looks like to a Linux program too.
ENODATA = 61

for name, direction, bad in (('read', 'read', a.read_offset), ('write', 'write', a.write_offset)):
    err = [line for line in stderr.get('run-' + name, []) if line.strip()]
    rc = rcs.get('run-' + name)
    print(f'# {name} job meeting EIO at byte {bad} (sector {bad // 512}): exited {rc}; '
          f'the CLI printed: ' + ' | '.join(err))
    check(rc == 1, f'{name}: the CLI exits 1 by itself, no signal and no hang ({rc})')
    check(len(err) == 1 and 'failed' in err[0], f'{name}: a one-line reason ({len(err)} lines)')
    check(len(err) >= 1 and str(bad - bad % a.bs) in err[0].replace(',', '') or
          any(f'{(bad - bad % a.bs) / 2**20:g}' in line for line in err),
          f'{name}: the reason names the failing offset {bad - bad % a.bs}')
    r = con.section_json('result-' + name)
    if not r:
        continue
    runs = [(i, j, run) for i, s in enumerate(r.get('steps') or [])
            for j, run in enumerate(s.get('runs') or [])]
    failed = [(i, j, run) for i, j, run in runs if run.get('error_errno')]
    if not check(len(failed) >= 1, f'{name}: the saved result has a run with error_errno '
                 f'({len(runs)} runs)'):
        continue
    i, j, run = failed[0]
    off = run.get('error_offset')
    print(f'# {name}: steps[{i}].runs[{j}]: error_errno {run.get("error_errno")}, error_offset {off}, '
          f'{(run.get(direction) or {}).get("bytes")} bytes {direction} before it; step completed '
          f'{r["steps"][i].get("completed")}, step error {r["steps"][i].get("error")!r}')
    check(run.get('error_errno') == ENODATA,
          f'{name}: steps[{i}].runs[{j}].error_errno {run.get("error_errno")} '
          f'(a media error: ENODATA = 61)')
    # The request that failed holds the bad sector: it starts at most one block before it.
    check(off is not None and off <= bad < off + a.bs,
          f'{name}: error_offset {off} is the request holding byte {bad} (block {a.bs})')
    check(r['steps'][i].get('completed') is not True, f'{name}: the failed step is not marked completed')
    check(((run.get(direction) or {}).get('bytes') or 0) > 0,
          f'{name}: the partial result keeps what was measured before the error')
    con.check_result_device(name, r, a.serial)

check(rcs.get('run-clean') == 0, con.rc_text('run-clean') + ' (a clean span on the same device)')
r = con.section_json('result-clean')
if r:
    s = (r.get('steps') or [{}])[0]
    check(s.get('completed') is True and ((s.get('write') or {}).get('bytes') or 0) > 0,
          f'the clean write completed ({(s.get("write") or {}).get("bytes")} bytes)')

con.finish()

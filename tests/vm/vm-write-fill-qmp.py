#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Changes QEMU's write throttling over a fill, at byte counts: a drive whose speed
follows a schedule of (bytes written, bytes/s).

    vm-write-fill-qmp.py SOCKET LOG DRIVE=BPS[@BYTES:BPS…] …

For each DRIVE (a -drive id) the first BPS is the limit QEMU starts with (set on
the command line); every BYTES:BPS sets the write limit to BPS through QMP
(block_set_io_throttle) once query-blockstats counts BYTES written to the drive.
Each switch is logged to LOG as one JSON line with the drive's wr_bytes just
before and just after the command: the truth is where QEMU switched, not where
the schedule asked for it. Polls every 10 ms; exits when QEMU closes the socket.

QEMU 7.2 now and then leaves a drive's throttled requests queued for good after
block_set_io_throttle (the guest then waits forever). A drive that has written
but made no progress for STALL_S is given its current limit again, and when that
does not restart its queue, the guest is paused and resumed (a pause drains every
drive); each such kick is logged ({"kick": …}) for the checks to count. A drive
that has written its whole size is finished and never kicked."""
import json
import sys
import time

from qmp import Qmp

STALL_S = 1.0
MAX_KICKS = 3  # in a row without progress: the drive is done, not stuck


def parse(spec):
    drive, _, rest = spec.partition('=')
    parts = rest.split('@')
    steps = []
    for p in parts[1:]:
        at, _, bps = p.partition(':')
        steps.append((int(at), int(bps)))
    return drive, int(parts[0]), steps


def main():
    sock_path, log_path = sys.argv[1], sys.argv[2]
    schedules = dict((d, (first, steps)) for d, first, steps in map(parse, sys.argv[3:]))
    pending = {d: list(steps) for d, (_, steps) in schedules.items()}
    with open(log_path, 'w', encoding='utf-8') as log:
        try:
            qmp = Qmp(sock_path)
        except (OSError, EOFError) as e:
            log.write(json.dumps({'error': f'no QMP: {e}'}) + '\n')
            return 1
        start = time.monotonic()
        final = None
        limit = {d: first for d, (first, _) in schedules.items()}
        seen = {d: (0, start) for d in schedules}  # wr_bytes and when it last changed
        kicks = {d: 0 for d in schedules}
        # A drive whose count has reached its size is done, not stuck: a kick there
        # (a pause drains every drive) would let the others' queued writes through
        # unthrottled, right where a switch may have just slowed one of them.
        sizes = {b.get('device', ''): (b.get('inserted') or {}).get('image', {}).get('virtual-size')
                 for b in qmp.cmd('query-block')}

        def unstick(stats):
            now = time.monotonic()
            for drive, count in stats.items():
                last, since = seen[drive]
                if count != last:
                    seen[drive] = (count, now)
                    kicks[drive] = 0
                elif (count > 0 and count != sizes.get(drive) and now - since >= STALL_S
                      and kicks[drive] < MAX_KICKS):
                    # The limit set again first; then a drain of every drive.
                    if kicks[drive] == 0:
                        qmp.write_limit(drive, limit[drive])
                    else:
                        qmp.drain()
                    kicks[drive] += 1
                    seen[drive] = (count, now)
                    log.write(json.dumps({'drive': drive, 'kick': kicks[drive], 'wr_bytes': count,
                                          't_s': round(now - start, 3)}) + '\n')
                    log.flush()

        try:
            while True:
                stats = {d: n for d, n in qmp.wr_bytes().items() if d in schedules}
                final = stats
                unstick(stats)
                for drive, steps in pending.items():
                    if not steps or stats.get(drive, 0) < steps[0][0]:
                        continue
                    at, bps = steps.pop(0)
                    qmp.write_limit(drive, bps)
                    limit[drive] = bps
                    after = qmp.wr_bytes()[drive]
                    log.write(json.dumps({'drive': drive, 'asked_bytes': at, 'bps': bps,
                                          'wr_bytes_before': stats[drive], 'wr_bytes_after': after,
                                          't_s': round(time.monotonic() - start, 3)}) + '\n')
                    log.flush()
                # Until QEMU exits: the drives' final counts close the log.
                time.sleep(0.01 if any(pending.values()) else 0.2)
        except (EOFError, OSError):
            pass
        except RuntimeError as e:
            log.write(json.dumps({'error': str(e)}) + '\n')
            return 1
        if final is not None:
            log.write(json.dumps({'final_wr_bytes': final}) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A drive with an SLC cache of known size that recovers when idle, made of QEMU's
write throttle driven through QMP.

The drive writes at --fast until --cache bytes were written since it last recovered,
then at --slow; after --idle seconds without a write it recovers (the whole cache
is fast again). QEMU starts with the fast limit; this script polls
query-blockstats for the drive's wr_bytes every --poll seconds (30 ms) and switches the limit
with block_set_io_throttle. The truth is the byte count at which QEMU switched,
which it logs as JSON lines to --log:

  {"event": "slow", "wr_bytes": N, "since": BASE, "t": SECONDS}
  {"event": "fast", "wr_bytes": N, "idle_s": S, "t": SECONDS}

QEMU 7.2 now and then stops completing a throttled drive's writes for good (the
guest then gets a few through per NVMe timeout and reset, every ~60 s). A drive
that made no progress for --kick seconds is given its current limit again, which
restarts requests left queued in the throttle, and on the second kick of a stall
the guest is paused and resumed (a pause drains every drive, which lets those
requests through); each kick is logged ({"event": "kick", …}). A real idle
outlasts the kicks and recovers the cache. A run whose stall the kicks do not
revive times out and fails, it does not pass.

It waits for QEMU's QMP socket to appear and ends when QEMU closes it."""
import argparse
import json
import sys
import time

from qmp import Qmp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('socket')
    ap.add_argument('--device', default='d0')
    ap.add_argument('--fast', type=int, required=True, help='bytes/s while in the cache')
    ap.add_argument('--slow', type=int, required=True, help='bytes/s after it')
    ap.add_argument('--cache', type=int, required=True, help='bytes written fast after a recovery')
    ap.add_argument('--idle', type=float, default=2.0, help='seconds without writes that recover it')
    ap.add_argument('--kick', type=float, default=0.4, help='seconds without writes before the '
                    'limit is set again (QEMU\'s stuck queue)')
    ap.add_argument('--poll', type=float, default=0.03)
    ap.add_argument('--log', required=True)
    a = ap.parse_args()

    log = open(a.log, 'w', buffering=1)
    try:
        q = Qmp(a.socket, 120)
    except OSError as e:
        print(f'qmp-throttle: cannot connect to {a.socket}: {e}', file=sys.stderr)
        return 1
    t0 = time.monotonic()

    def limit(bps):
        q.write_limit(a.device, bps)

    def wr_bytes():
        counts = q.wr_bytes()
        if a.device not in counts:
            raise RuntimeError(f'no drive {a.device} in query-blockstats')
        return counts[a.device]

    try:
        limit(a.fast)
        base = last = wr_bytes()
        last_change = time.monotonic()
        fast = True
        last_kick = last_change
        kicks = 0
        log.write(json.dumps({'event': 'start', 'wr_bytes': base, 't': 0.0}) + '\n')
        while True:
            w = wr_bytes()
            now = time.monotonic()
            if w != last:
                last, last_change = w, now
                last_kick = now
                kicks = 0
            elif now - last_kick >= a.kick and now - last_change < a.idle:
                # The limit set again; on the second kick of a stall, a drain.
                if kicks == 1:
                    q.drain()
                else:
                    limit(a.fast if fast else a.slow)
                kicks += 1
                log.write(json.dumps({'event': 'kick', 'wr_bytes': w, 'drain': kicks == 2,
                                      't': round(now - t0, 3)}) + '\n')
                last_kick = now
            if fast and w - base >= a.cache:
                limit(a.slow)
                log.write(json.dumps({'event': 'slow', 'wr_bytes': w, 'since': base,
                                      't': round(now - t0, 3)}) + '\n')
                fast = False
            elif now - last_change >= a.idle and (not fast or w != base):
                # Idle: the cache is whole again from here.
                if not fast:
                    limit(a.fast)
                log.write(json.dumps({'event': 'fast', 'wr_bytes': w, 'idle_s': round(now - last_change, 3),
                                      't': round(now - t0, 3)}) + '\n')
                base, fast = w, True
            time.sleep(a.poll)
    except (EOFError, ConnectionError, OSError):
        return 0          # QEMU is gone: the run is over
    finally:
        log.close()


if __name__ == '__main__':
    sys.exit(main())

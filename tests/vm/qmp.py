# SPDX-License-Identifier: GPL-3.0-or-later
"""A minimal QMP client for the vm suite's host-side drivers (qmp-throttle.py,
vm-write-fill-qmp.py): connects to QEMU's socket once it appears, and runs commands,
skipping the asynchronous events that arrive between replies."""
import json
import socket
import time


class Qmp:
    def __init__(self, path, wait_s=60):
        deadline = time.monotonic() + wait_s
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.file = self.sock.makefile('rw', encoding='utf-8')
        self.read()                       # the greeting
        self.cmd('qmp_capabilities')

    def read(self):
        line = self.file.readline()
        if not line:
            raise EOFError('QEMU closed its QMP socket')
        return json.loads(line)

    def cmd(self, name, **args):
        msg = {'execute': name}
        if args:
            msg['arguments'] = args
        self.file.write(json.dumps(msg) + '\n')
        self.file.flush()
        while True:
            r = self.read()
            if 'return' in r:
                return r['return']
            if 'error' in r:
                raise RuntimeError(f'{name}: {r["error"]}')
            # an asynchronous event: not ours

    def write_limit(self, device, bps):
        """Sets the drive's write throttle to bps bytes/s (reads unlimited)."""
        self.cmd('block_set_io_throttle', device=device, bps=0, bps_rd=0, bps_wr=bps,
                 iops=0, iops_rd=0, iops_wr=0)

    def wr_bytes(self):
        """Bytes written so far, by drive id."""
        return {s.get('device', ''): s['stats']['wr_bytes'] for s in self.cmd('query-blockstats')}

    def drain(self):
        """Pauses the guest and resumes it: pausing drains every drive, which lets
        through the requests QEMU 7.2 now and then leaves queued in a write throttle
        for good (setting the limit again does not restart them)."""
        self.cmd('stop')
        self.cmd('cont')

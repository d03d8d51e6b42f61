# SPDX-License-Identifier: GPL-3.0-or-later
# A fake or faulty drive, as an nbdkit plugin (nbdkit python), for the capacity and
# integrity check (the `verify` preset) and the quick probe to come: QEMU's emulated
# NVMe controller reads and writes through it, so the guest meets a drive that lies
# about its size, forgets writes, hides that behind a cache of its own, flips bits or
# fails reads, exactly as the test chose, and the model's log says what it did.
#
# Unlike drive-model.py it STORES what is written (sparse: a dict of 4 KiB blocks, so a
# drive that reports tens of GiB takes memory only for what was written) and has no
# speed model: requests are served as fast as they come.
#
# Parameters (nbdkit key=value; sizes and offsets in bytes, with an optional K, M, G or
# T suffix for KiB, MiB, GiB, TiB):
#   size=BYTES      what the drive reports (rounded down to 4 KiB; default 1G).
#   real=BYTES      what it really stores (rounded down to 4 KiB; default size: an
#                   honest drive, whatever the mode).
#   mode=wrap|drop|mapped   what happens past `real` (default wrap):
#     wrap     the classic fake: an offset lands on (offset modulo real), so writes
#              past `real` overwrite earlier blocks and reads return those;
#     drop     writes at or past `real` vanish; reads there return `fill`;
#     mapped   flash allocated as written: the first `real` bytes written, wherever
#              they are (by 4 KiB block), are kept, and so are later writes to those
#              blocks; writes to any other block once `real` bytes are mapped are lost
#              (reads there return `fill`). It passes a probe and loses data only after
#              `real` bytes were written.
#   fill=BYTE       what a read returns for data the drive does not hold: never written,
#                   dropped, lost or trimmed (default 0; 0xff as erased flash).
#   cache=BYTES     the drive's own cache of its most recent writes (LRU by 4 KiB block,
#                   default 0): it holds the last `cache` bytes of blocks written, and a
#                   block is served from it, as the host wrote it, until `cache` bytes of
#                   other blocks were written after it, even if the drive did not store
#                   it (dropped, lost) or stored it somewhere another write overwrote
#                   since (wrapped). Only writes refresh it; a rewrite moves the block to
#                   the front.
#   flip=OFF[,OFF...]   blocks (the 4 KiB blocks holding these offsets, as the host
#                   addresses them) whose data comes back from the media with one bit
#                   flipped, the same bit each time (drawn from `seed`). Served from the
#                   cache they are right.
#   flip_count=N    N more such blocks drawn from `seed` among the first min(real, size)
#                   bytes (the log's first lines name them).
#   eio=START-END   reads touching [START, END) fail with EIO (before the cache).
#   eio_writes=0|1  writes touching that range fail with EIO as well, and change nothing
#                   (default 0: they are taken, stored and cached as anywhere else).
#   slow=START-END:SECONDS  reads touching [START, END) take SECONDS longer (a weak
#                   block the drive reads only after retries); served from the cache
#                   they are not slow. Requests are served one at a time, so the reads
#                   queued behind such a read wait for it too.
#   seed=N          for everything drawn (default 1).
#   log=PATH        see below.
#
# TRIM forgets the whole 4 KiB blocks it covers (from the media, the cache and, in mapped
# mode, the map: their flash is free again). Flush does nothing.
#
# With log=PATH, first a line "# fake-drive size=... real=... mode=... cache=..." with
# the parameters, then "# flip OFF BIT" per flipped block (OFF its first byte, BIT the
# bit flipped, counted from the block's first byte's least significant bit), then a
# line per request: "W OFFSET LENGTH SECONDS", "R OFFSET LENGTH SECONDS" or "T OFFSET
# LENGTH SECONDS" (SECONDS: when it came, from the model's start), followed by what the
# model did with its blocks, as runs "WHAT:OFFSET+LENGTH" in the host's offsets (whole
# blocks; a block the request only touches counts):
#   wrap:OFF+LEN>PHYS   written to or read from PHYS (offset modulo real);
#   drop:OFF+LEN        write past `real` that vanished (mode drop);
#   lost:OFF+LEN        write to a new block with no flash left (mode mapped);
#   cache:OFF+LEN       read served from the drive's cache;
#   fill:OFF+LEN        read of data the drive does not hold;
#   flip:OFF+LEN        read from the media with the block's bit flipped;
#   eio:OFF+LEN         the request failed with EIO (it then did nothing else);
#   slow:OFF+LEN        read from the media after the `slow` delay.
# A request whose blocks were all plainly stored or read from where they belong has no
# runs. An honest drive's log is requests only.

import collections
import errno
import io
import random
import time

import nbdkit

API_VERSION = 2
BLOCK = 4096

params = {"size": "1G", "real": "", "mode": "wrap", "fill": "0", "cache": "0", "flip": "",
          "flip_count": "0", "eio": "", "eio_writes": "0", "slow": "", "seed": "1", "log": ""}


def parse_size(text):
    text = text.strip()
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    scale = 1
    if text and text[-1].lower() in units:
        scale = units[text[-1].lower()]
        text = text[:-1]
    value = int(text, 0) * scale
    if value < 0:
        raise RuntimeError("negative size or offset: %s" % text)
    return value


def config(key, value):
    if key not in params:
        raise RuntimeError("unknown parameter %s" % key)
    params[key] = value


class Drive:
    def __init__(self):
        self.size = parse_size(params["size"]) // BLOCK * BLOCK
        real = parse_size(params["real"]) if params["real"] else self.size
        self.real_blocks = min(real, self.size) // BLOCK
        self.blocks = self.size // BLOCK
        if self.blocks == 0 or self.real_blocks == 0:
            raise RuntimeError("size and real must be at least 4 KiB")
        self.mode = params["mode"]
        if self.mode not in ("wrap", "drop", "mapped"):
            raise RuntimeError("mode must be wrap, drop or mapped, not %s" % self.mode)
        self.fill = parse_size(params["fill"])
        if self.fill > 255:
            raise RuntimeError("fill is a byte: %s" % params["fill"])
        self.fill_block = bytes([self.fill]) * BLOCK
        self.cache_blocks = parse_size(params["cache"]) // BLOCK
        self.seed = int(params["seed"], 0)
        self.eio = None
        if params["eio"]:
            start, _, end = params["eio"].partition("-")
            self.eio = (parse_size(start), parse_size(end))
            if self.eio[1] <= self.eio[0]:
                raise RuntimeError("eio=START-END needs START < END")
        self.eio_writes = params["eio_writes"] not in ("0", "", "no", "false")
        self.slow = None
        if params["slow"]:
            span, _, delay = params["slow"].partition(":")
            start, _, end = span.partition("-")
            self.slow = (parse_size(start), parse_size(end), float(delay or "1"))
            if self.slow[1] <= self.slow[0] or self.slow[2] < 0:
                raise RuntimeError("slow=START-END:SECONDS needs START < END and SECONDS >= 0")
        self.flips = {}   # host block -> bit
        for off in filter(None, (o.strip() for o in params["flip"].split(","))):
            self.flips[parse_size(off) // BLOCK] = None
        rng = random.Random("%d:flip" % self.seed)
        count = min(int(params["flip_count"], 0), self.real_blocks - len(self.flips))
        while count > 0:
            b = rng.randrange(self.real_blocks)
            if b not in self.flips:
                self.flips[b] = None
                count -= 1
        for b in self.flips:
            self.flips[b] = random.Random("%d:bit:%d" % (self.seed, b)).randrange(BLOCK * 8)
        self.media = {}                          # physical block -> bytes (BLOCK long)
        self.mapped = set()                      # mode mapped: host blocks with flash
        self.cache = collections.OrderedDict()   # host block -> bytes, oldest first
        self.t0 = time.monotonic()
        self.log = io.open(params["log"], "a", buffering=1) if params["log"] else None
        if self.log:
            self.log.write("# fake-drive size=%d real=%d mode=%s fill=%d cache=%d eio=%s "
                           "eio_writes=%d slow=%s seed=%d\n"
                           % (self.size, self.real_blocks * BLOCK, self.mode, self.fill,
                              self.cache_blocks * BLOCK,
                              "%d-%d" % self.eio if self.eio else "none",
                              self.eio_writes,
                              "%d-%d:%g" % self.slow if self.slow else "none", self.seed))
            for b in sorted(self.flips):
                self.log.write("# flip %d %d\n" % (b * BLOCK, self.flips[b]))

    # Where a host block lives: (physical block or None, what happened).
    def place_write(self, b):
        if b < self.real_blocks:
            if self.mode != "mapped":
                return b, None
        if self.mode == "wrap":
            return b % self.real_blocks, "wrap"
        if self.mode == "drop":
            return None, "drop"
        if b in self.mapped:
            return b, None
        if len(self.mapped) < self.real_blocks:
            self.mapped.add(b)
            return b, None
        return None, "lost"

    def place_read(self, b):
        if self.mode == "wrap":
            p = b % self.real_blocks
            return p, ("wrap" if p != b else None)
        if self.mode == "drop":
            return (b, None) if b < self.real_blocks else (None, None)
        return (b, None) if b in self.mapped else (None, None)

    def raw(self, b):
        """The block as the host would read it, without faults: cache, media or fill."""
        if b in self.cache:
            return self.cache[b]
        p, _ = self.place_read(b)
        if p is None:
            return self.fill_block
        return self.media.get(p, self.fill_block)

    def eio_hit(self, offset, count):
        return self.eio is not None and offset < self.eio[1] and offset + count > self.eio[0]

    def when(self):
        return time.monotonic() - self.t0

    def record(self, kind, offset, count, t, events):
        """Log a request and its runs: events is a list of (block, what, physical)."""
        if not self.log:
            return
        runs = []
        for b, what, p in events:
            if runs and runs[-1][0] == what and runs[-1][1] + runs[-1][2] == b and \
                    (p is None or runs[-1][3] + runs[-1][2] == p):
                runs[-1][2] += 1
            else:
                runs.append([what, b, 1, p])
        text = "".join(" %s:%d+%d%s" % (w, b * BLOCK, n * BLOCK, ">%d" % (p * BLOCK) if w == "wrap" else "")
                       for w, b, n, p in runs)
        self.log.write("%s %d %d %.3f%s\n" % (kind, offset, count, t, text))

    def blocks_of(self, offset, count):
        return range(offset // BLOCK, min((offset + count + BLOCK - 1) // BLOCK, self.blocks))

    def write(self, buf, offset):
        t = self.when()
        count = len(buf)
        if self.eio_writes and self.eio_hit(offset, count):
            self.record("W", offset, count, t, [(b, "eio", None) for b in self.blocks_of(offset, count)])
            raise_eio()
        events = []
        view = memoryview(buf)
        for b in self.blocks_of(offset, count):
            start = b * BLOCK
            lo = max(offset, start)
            hi = min(offset + count, start + BLOCK)
            if lo == start and hi == start + BLOCK:
                data = bytes(view[lo - offset:hi - offset])
            else:
                old = bytearray(self.raw(b))
                old[lo - start:hi - start] = view[lo - offset:hi - offset]
                data = bytes(old)
            p, what = self.place_write(b)
            if p is not None:
                self.media[p] = data
            if what:
                events.append((b, what, p))
            if self.cache_blocks:
                self.cache[b] = data
                self.cache.move_to_end(b)
                if len(self.cache) > self.cache_blocks:
                    self.cache.popitem(last=False)
        self.record("W", offset, count, t, events)

    def read(self, buf, offset):
        t = self.when()
        count = len(buf)
        if self.eio_hit(offset, count):
            self.record("R", offset, count, t, [(b, "eio", None) for b in self.blocks_of(offset, count)])
            raise_eio()
        events = []
        out = bytearray()
        slow = False
        for b in self.blocks_of(offset, count):
            if self.slow and b not in self.cache and \
                    self.slow[0] < (b + 1) * BLOCK and b * BLOCK < self.slow[1]:
                slow = True
                events.append((b, "slow", None))
            if b in self.cache:
                data = self.cache[b]
                events.append((b, "cache", None))
            else:
                p, what = self.place_read(b)
                if p is None or p not in self.media:
                    data = self.fill_block
                    events.append((b, "fill", None))
                else:
                    data = self.media[p]
                    if what:
                        events.append((b, what, p))
                if b in self.flips:
                    bit = self.flips[b]
                    data = bytearray(data)
                    data[bit // 8] ^= 1 << (bit % 8)
                    events.append((b, "flip", None))
            out += data
        if slow:
            time.sleep(self.slow[2])
        skip = offset % BLOCK
        buf[:] = out[skip:skip + count]
        self.record("R", offset, count, t, events)

    def trim(self, offset, count):
        t = self.when()
        first = (offset + BLOCK - 1) // BLOCK
        last = min((offset + count) // BLOCK, self.blocks)
        for b in range(first, last):
            self.cache.pop(b, None)
            if self.mode == "mapped":
                if b in self.mapped:
                    self.mapped.discard(b)
                    self.media.pop(b, None)
            elif self.mode == "wrap":
                # Every host block aliasing this one is trimmed with it.
                self.media.pop(b % self.real_blocks, None)
            elif b < self.real_blocks:
                self.media.pop(b, None)
        self.record("T", offset, count, t, [])


def raise_eio():
    nbdkit.set_error(errno.EIO)
    raise OSError(errno.EIO, "fake drive: I/O error")


drive = None


def config_complete():
    # The drive is built once, before the first connection: bad parameters stop nbdkit
    # at its start, and every connection meets the same drive.
    global drive
    drive = Drive()


def thread_model():
    return nbdkit.THREAD_MODEL_SERIALIZE_ALL_REQUESTS


def open(readonly):
    return 1


def get_size(h):
    return drive.size


def can_trim(h):
    return True


def can_flush(h):
    return True


def pread(h, buf, offset, flags):
    drive.read(buf, offset)


def pwrite(h, buf, offset, flags):
    drive.write(buf, offset)


def trim(h, count, offset, flags):
    drive.trim(offset, count)


def flush(h, flags):
    pass

# SPDX-License-Identifier: GPL-3.0-or-later
# A drive with an SLC cache, as an nbdkit plugin (nbdkit python), for the vm suite:
# QEMU's emulated NVMe controller reads and writes through it, so the guest's
# nandscope-cli meets a drive whose behaviour the test chose and knows.
#
# The model, per 64 KiB chunk: never written, in the cache, or in TLC.
# - A write goes to the cache while it has room, at cache_write bytes/s. The room is
#   `cache` bytes (static), or with dynamic=R (a dynamic cache, carved from free
#   space) the lesser of `cache` and R times the bytes never written (or trimmed)
#   since: it shrinks as the drive fills, and a nearly full drive has a small one.
# - Once the cache is full:
#     fold=write|both  the drive folds while it writes: the oldest chunks in the cache
#                      move to TLC to make room, and the new data goes to the cache,
#                      at tlc_write bytes/s;
#     fold=idle        the new data goes straight to TLC, at tlc_write bytes/s.
# - fold=idle|both: after idle_after seconds without a request the drive folds its
#   cache to TLC, oldest first, at fold_rate bytes/s, for as long as it stays idle.
# - A read takes (bytes in the cache / cache_read + the rest / tlc_read) seconds;
#   never-written chunks read as the cache does.
# - TRIM forgets the chunks (they leave the cache).
# Requests are served one at a time (serialized) against a clock: each one starts when
# the one before it ended, so the speeds hold whatever this process's own overhead.
# Data is not stored: reads return zeros (the benchmark never checks contents).
#
# With log=PATH, every read is a line "R OFFSET LENGTH CACHE_BYTES SECONDS", every
# write "W OFFSET LENGTH FAST_BYTES SECONDS" (FAST_BYTES: what went in at the cache's
# speed), every idle fold "F BYTES SECONDS" and every trim "T OFFSET LENGTH SECONDS"
# (SECONDS: when the request came, from the model's start), for the check to compare
# what the drive did with the verdicts.
#
# Parameters (nbdkit key=value): size, cache, dynamic, cache_write, tlc_write,
# cache_read, tlc_read, fold, idle_after, fold_rate, log.

import collections
import io
import time

import nbdkit

API_VERSION = 2
CHUNK = 64 * 1024
UNWRITTEN, CACHE, TLC = 0, 1, 2

params = {"size": 512 << 20, "cache": 128 << 20, "dynamic": 0.0, "cache_write": 150e6, "tlc_write": 30e6,
          "cache_read": 180e6, "tlc_read": 50e6, "fold": "idle", "idle_after": 2.0,
          "fold_rate": 100e6, "log": ""}


def config(key, value):
    if key not in params:
        raise RuntimeError("unknown parameter %s" % key)
    params[key] = value if key in ("fold", "log") else float(value)


class Drive:
    def __init__(self):
        self.size = int(params["size"]) // CHUNK * CHUNK
        self.state = bytearray(self.size // CHUNK)
        self.seq = [0] * (self.size // CHUNK)
        self.fifo = collections.deque()   # (chunk, seq), oldest first; stale ones skipped
        self.in_cache = 0                  # chunks
        self.unwritten = len(self.state)   # chunks never written, or trimmed since
        self.cache_chunks = int(params["cache"]) // CHUNK
        self.busy_until = time.monotonic()
        self.t0 = self.busy_until
        self.log = io.open(params["log"], "a", buffering=1) if params["log"] else None

    def room(self):
        """The cache's size in chunks now."""
        if params["dynamic"] <= 0:
            return self.cache_chunks
        return min(self.cache_chunks, int(params["dynamic"] * self.unwritten))

    def when(self, now):
        return now - self.t0

    def fold_oldest(self, chunks):
        folded = 0
        while folded < chunks and self.fifo:
            c, s = self.fifo.popleft()
            if self.seq[c] != s or self.state[c] != CACHE:
                continue
            self.state[c] = TLC
            self.in_cache -= 1
            folded += 1
        return folded

    def idle_fold(self, now):
        """What the drive folded while it was idle since the last request ended."""
        if params["fold"] not in ("idle", "both") or self.in_cache == 0:
            return
        idle = now - self.busy_until - params["idle_after"]
        if idle <= 0:
            return
        folded = self.fold_oldest(int(idle * params["fold_rate"]) // CHUNK)
        if folded and self.log:
            self.log.write("F %d %.3f\n" % (folded * CHUNK, self.when(now)))

    def serve(self, seconds):
        now = time.monotonic()
        start = max(now, self.busy_until)
        self.busy_until = start + seconds
        delay = self.busy_until - time.monotonic()
        if delay > 0:
            time.sleep(delay)

    def chunks(self, offset, count):
        return range(offset // CHUNK, min((offset + count + CHUNK - 1) // CHUNK, len(self.state)))

    def write(self, offset, count):
        now = time.monotonic()
        self.idle_fold(now)
        seconds = 0.0
        fast = 0
        chunks = self.chunks(offset, count)
        for c in chunks:
            if self.state[c] == CACHE:
                self.in_cache -= 1
            elif self.state[c] == UNWRITTEN:
                self.unwritten -= 1
            self.seq[c] += 1
            room = self.room()
            if self.in_cache < room:
                self.state[c] = CACHE
                seconds += CHUNK / params["cache_write"]
                fast += 1
            elif params["fold"] in ("write", "both") and self.fold_oldest(self.in_cache - room + 1):
                self.state[c] = CACHE
                seconds += CHUNK / params["tlc_write"]
            else:
                self.state[c] = TLC
                seconds += CHUNK / params["tlc_write"]
                continue
            self.in_cache += 1
            self.fifo.append((c, self.seq[c]))
        share = count / max(1, len(chunks) * CHUNK)
        if self.log:
            self.log.write("W %d %d %d %.3f\n" % (offset, count, int(fast * CHUNK * share), self.when(now)))
        self.serve(seconds * share)

    def read(self, offset, count):
        now = time.monotonic()
        self.idle_fold(now)
        cached = 0
        for c in self.chunks(offset, count):
            if self.state[c] != TLC:
                cached += 1
        cached_bytes = min(count, cached * CHUNK)
        if self.log:
            self.log.write("R %d %d %d %.3f\n" % (offset, count, cached_bytes, self.when(now)))
        self.serve(cached_bytes / params["cache_read"] + (count - cached_bytes) / params["tlc_read"])

    def trim(self, offset, count):
        now = time.monotonic()
        self.idle_fold(now)
        if self.log:
            self.log.write("T %d %d %.3f\n" % (offset, count, self.when(now)))
        first = (offset + CHUNK - 1) // CHUNK
        last = (offset + count) // CHUNK
        for c in range(first, min(last, len(self.state))):
            if self.state[c] == CACHE:
                self.in_cache -= 1
            if self.state[c] != UNWRITTEN:
                self.unwritten += 1
            self.state[c] = UNWRITTEN
            self.seq[c] += 1


drive = None


def thread_model():
    return nbdkit.THREAD_MODEL_SERIALIZE_ALL_REQUESTS


def open(readonly):
    global drive
    if drive is None:
        drive = Drive()
    return 1


def get_size(h):
    return drive.size


def can_trim(h):
    return True


def can_flush(h):
    return True


def pread(h, buf, offset, flags):
    drive.read(offset, len(buf))
    buf[:] = bytes(len(buf))


def pwrite(h, buf, offset, flags):
    drive.write(offset, len(buf))


def trim(h, count, offset, flags):
    drive.trim(offset, count)


def flush(h, flags):
    pass

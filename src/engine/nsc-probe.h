/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "nsc-verify.h"

G_BEGIN_DECLS

/* The quick probe of a drive's real capacity: a few blocks that name their own place
 * (nsc-verify) written at chosen places and read back, instead of the whole drive.
 *
 * 1. Places spread across the drive (the first level), then a run of blocks at its
 *    very end, written from the last block down.
 * 2. Wrap: reads every run's length across the first half. A drive that stores R
 *    bytes and lands an offset on (offset modulo R) returns the end run's data at
 *    one of them whatever R is; the distances between such a block and its echo are
 *    multiples of R, and their greatest common divisor, checked, is R.
 * 3. The drive's own cache of recent writes: how many of the end run still read back
 *    (the end of a drive that does not store it reads back only from a cache). When
 *    all of them do, more is written until the first of them does not, at most
 *    max_cache: then the drive stores its end, or its cache is larger. The first of
 *    those writes, a MiB at a time, are the grid: places across the drive, coarse to
 *    fine (about the square root of its blocks, so that the grid and the level after
 *    it cost alike); the rest go at the start.
 * 4. Past the cache (and the grid), the first level's and the grid's places are read:
 *    where they turn bad is where the drive stops storing, to their spacing; each
 *    further level puts places in between (every block left, where a cache's worth of
 *    places covers them) and, when the drive has a cache, writes past it again before
 *    reading them, until the first lost block is found. Behind a cache of C bytes that
 *    is about 2 C written, and the grid twice.
 *
 * A probe cannot prove a drive good: a drive that maps flash as it is written keeps
 * every block a probe writes and loses data only once more than its real capacity
 * was written, and a cache larger than max_cache hides the end. Its verdict says so. */

typedef enum
{
  NSC_PROBE_GOOD,          /* every place held its data: as far as a probe can tell */
  NSC_PROBE_WRAPS,         /* writes past usable_bytes land on earlier blocks */
  NSC_PROBE_LOSES_WRITES,  /* blocks from usable_bytes on do not keep their data */
  NSC_PROBE_DAMAGED,       /* places that lost their data between places that kept it */
  NSC_PROBE_N_VERDICTS
} NscProbeVerdict;

typedef struct
{
  guint64       offset;
  NscVerifyKind kind;
} NscProbePlace;

typedef struct
{
  NscProbeVerdict verdict;
  guint64  reported_bytes;
  guint64  usable_bytes;     /* wraps: the period; loses-writes: the first lost block;
                              * else the reported size */
  guint64  alias_period;
  guint64  cache_bytes;      /* the drive's own cache as measured (0: none seen) */
  gboolean cache_beyond;     /* the end read back after max_cache more: the drive
                              * stores its end, or has a larger cache */
  guint    levels;           /* rounds of places read */
  guint    grid;             /* places written across the drive while the cache was
                              * sought (read with the first level) */
  guint64  bytes_written;
  guint64  bytes_read;
  GArray  *places;           /* NscProbePlace: every place read past the cache */
} NscProbeResult;

/* The drive, as the probe sees it: whole 4 KiB blocks at 4 KiB offsets, read one at
 * a time. A read returns 0, or -EIO when the drive failed it (the block is
 * unreadable), or another negative errno with @error set, which ends the probe. */
typedef struct
{
  /* @len: whole blocks, at most 1 MiB. */
  gboolean (*write) (gpointer data, guint64 offset, const guint8 *buf, gsize len, GError **error);
  int      (*read)  (gpointer data, guint64 offset, guint8 *block, GError **error);
  /* Optional: @n blocks at @offsets into @blocks (block i at i × 4 KiB), each one's
   * answer in @rc as read () gives it, issued together (the wrap's sparse reads across
   * half the drive: one at a time they would take minutes on a large drive). FALSE
   * with @error when one failed otherwise than -EIO. NULL: read () one by one. */
  gboolean (*read_many) (gpointer data, const guint64 *offsets, guint n, guint8 *blocks,
                         int *rc, GError **error);
  gpointer data;
} NscProbeIo;

#define NSC_PROBE_BATCH 1024u   /* blocks read_many () is given at most */

#define NSC_PROBE_MIN_SIZE (G_GUINT64_CONSTANT (64) << 20)

void        nsc_probe_result_clear (NscProbeResult   *result);
/* Probes a drive of @size bytes (at least NSC_PROBE_MIN_SIZE) with data of @key,
 * looking for a cache of its own up to @max_cache bytes (0: 1 GiB; at most a quarter
 * of the drive). FALSE with @error when the drive failed otherwise than a read, or
 * @cancellable was cancelled. */
gboolean    nsc_probe_run          (guint64           size,
                                    guint64           max_cache,
                                    guint64           key,
                                    const NscProbeIo *io,
                                    GCancellable     *cancellable,
                                    NscProbeResult   *result,
                                    GError          **error);
const char *nsc_probe_verdict_name (NscProbeVerdict   verdict);
/* The largest cache of its own a probe of a drive of @size looks past, asked for
 * @max_cache (0: 1 GiB): at most a quarter of the drive, in whole blocks. */
guint64     nsc_probe_cache_limit  (guint64           size,
                                    guint64           max_cache);
/* What a probe of a good drive of @size writes (its places and grid, the writes past a
 * cache up to @max_cache that is not there, the grid written past): what the plan
 * expects, where nsc_probe_write_bound () is the most. */
guint64          nsc_probe_good_bytes      (guint64           size,
                                            guint64           max_cache);
/* The most a probe of a drive of @size writes, looking for a cache up to @max_cache
 * (as nsc_probe_run () takes it): a fake whose cache is as large as that costs most.
 * 0 for a drive too small to probe. */
guint64     nsc_probe_write_bound  (guint64           size,
                                    guint64           max_cache);
/* What a probe of a drive of @size that stores what it reports reads: the wrap's
 * reads across half the drive, the end run, the first level's places, the end's block
 * after each MiB written past the cache it looks for (the plan's time counts them). */
guint64     nsc_probe_read_estimate (guint64          size);

G_END_DECLS

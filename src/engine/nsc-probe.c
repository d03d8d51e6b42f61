/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "nsc-error.h"
#include "nsc-probe.h"

#define B              ((guint64) NSC_VERIFY_UNIT)
#define CHUNK_BLOCKS   256u            /* a write of 1 MiB */
#define FIRST_PLACES   64u             /* the first level: block 0 and 63 across */
#define END_RUN        128u            /* blocks at the drive's end */
#define LEVEL_BARE     15u             /* places a level adds with no cache to write past */
#define LEVEL_CACHED   255u            /* and with one, at least (each level costs a cache's worth) */
#define LEVEL_MOST     16383u          /* and at most (64 MiB of places) */
#define LEVEL_ONE_MOST 65536u          /* a last level that takes every block left, at most */
#define GRID_FEWEST    256u            /* the grid written while the cache is sought: */
#define GRID_MOST      16384u          /* about the square root of the drive's blocks */

typedef struct
{
  const NscProbeIo *io;
  GCancellable     *cancellable;
  guint64           key;
  guint64           n;          /* blocks */
  guint8           *buf;        /* CHUNK_BLOCKS blocks */
  GHashTable       *placed;     /* guint64 blocks of places */
  guint64           cursor;     /* where the writes past the cache go on */
  NscProbeResult   *r;
} Probe;

static gboolean
put (Probe   *p,
     guint64  block,
     guint64  count,
     GError **error)
{
  while (count > 0)
    {
      guint64 n = MIN (count, (guint64) CHUNK_BLOCKS);

      if (g_cancellable_set_error_if_cancelled (p->cancellable, error))
        return FALSE;
      nsc_verify_fill (p->buf, n * B, block * B, p->key);
      if (!p->io->write (p->io->data, block * B, p->buf, n * B, error))
        return FALSE;
      p->r->bytes_written += n * B;
      block += n;
      count -= n;
    }
  return TRUE;
}

static guint64 gcd64 (guint64 a,
                      guint64 b);

/* What block @block holds, as read into @data with answer @rc: its kind, and the
 * offset an alias echoes. */
static void
judge_read (Probe         *p,
            guint64        block,
            const guint8  *data,
            int            rc,
            NscVerifyKind *kind,
            guint64       *echo)
{
  guint64 e = 0, bits;

  p->r->bytes_read += B;
  if (rc == -EIO)
    {
      *kind = NSC_VERIFY_UNREADABLE;
      e = block * B;
    }
  else
    *kind = nsc_verify_block (data, block * B, p->key, &e, &bits);
  if (echo)
    *echo = e;
}

static gboolean
judge (Probe         *p,
       guint64        block,
       NscVerifyKind *kind,
       guint64       *echo,
       GError       **error)
{
  int rc;

  if (g_cancellable_set_error_if_cancelled (p->cancellable, error))
    return FALSE;
  rc = p->io->read (p->io->data, block * B, p->buf, error);
  if (rc < 0 && rc != -EIO)
    return FALSE;
  judge_read (p, block, p->buf, rc, kind, echo);
  return TRUE;
}

/* Blocks @first, @first + @step, … below @end judged together where the drive can
 * take them so: @each is called with each block's kind and echo, in order. */
static gboolean
judge_many (Probe    *p,
            guint64   first,
            guint64   step,
            guint64   end,
            void    (*each) (Probe *p, guint64 block, NscVerifyKind kind, guint64 echo, gpointer data),
            gpointer  data,
            GError  **error)
{
  g_autofree guint64 *offsets = NULL;
  g_autofree guint8 *blocks = NULL;
  g_autofree int *rc = NULL;

  if (p->io->read_many == NULL)
    {
      for (guint64 k = first; k < end; k += step)
        {
          NscVerifyKind kind;
          guint64 echo;

          if (!judge (p, k, &kind, &echo, error))
            return FALSE;
          each (p, k, kind, echo, data);
        }
      return TRUE;
    }
  offsets = g_new (guint64, NSC_PROBE_BATCH);
  blocks = g_malloc (NSC_PROBE_BATCH * B);
  rc = g_new (int, NSC_PROBE_BATCH);
  for (guint64 k = first; k < end;)
    {
      guint n = 0;

      if (g_cancellable_set_error_if_cancelled (p->cancellable, error))
        return FALSE;
      for (guint64 c = k; c < end && n < NSC_PROBE_BATCH; c += step)
        offsets[n++] = c * B;
      if (!p->io->read_many (p->io->data, offsets, n, blocks, rc, error))
        return FALSE;
      for (guint i = 0; i < n; i++)
        {
          NscVerifyKind kind;
          guint64 echo;

          judge_read (p, offsets[i] / B, blocks + (gsize) i * B, rc[i], &kind, &echo);
          each (p, offsets[i] / B, kind, echo, data);
        }
      k = offsets[n - 1] / B + step;
    }
  return TRUE;
}

/* The wrap's comb: a block returning the end run's data from past it adds its distance
 * to the period's divisor. */
static void
comb_echo (Probe         *p,
           guint64        y,
           NscVerifyKind  kind,
           guint64        echo,
           gpointer       data)
{
  guint64 *period = data;

  if (kind == NSC_VERIFY_ALIAS && echo > y * B)
    *period = gcd64 (*period, echo / B - y);
}

/* Writes @bytes (whole blocks, at least one) of blocks not written before in this
 * flush, from where the last one ended: past a cache of that size. The places are
 * left alone (written again, a lost place would be held by the cache once more). */
static gboolean
write_past (Probe   *p,
            guint64  bytes,
            GError **error)
{
  guint64 left = MAX ((bytes + B - 1) / B, (guint64) 1);

  while (left > 0)
    {
      guint64 n = 0;

      if (p->cursor >= p->n)
        p->cursor = 0;
      while (n < left && n < CHUNK_BLOCKS && p->cursor + n < p->n
             && !g_hash_table_contains (p->placed, &(guint64) { p->cursor + n }))
        n++;
      if (n == 0)
        {
          p->cursor++;
          continue;
        }
      if (!put (p, p->cursor, n, error))
        return FALSE;
      p->cursor += n;
      left -= n;
    }
  return TRUE;
}

/* A place: written, and kept out of the writes past the cache. */
static gboolean
put_place (Probe   *p,
           guint64  block,
           GError **error)
{
  g_hash_table_add (p->placed, g_memdup2 (&block, sizeof block));
  return put (p, block, 1, error);
}

static guint64
gcd64 (guint64 a,
       guint64 b)
{
  while (b)
    {
      guint64 t = a % b;
      a = b;
      b = t;
    }
  return a;
}

/* A drive that wraps every @d blocks returns, at w + d, what was written at w. */
static gboolean
is_period (Probe    *p,
           guint64   d,
           guint64  *fresh,
           gboolean *yes,
           GError  **error)
{
  guint64 w = (*fresh)++, echo;
  NscVerifyKind kind;

  *yes = FALSE;
  if (d == 0 || w + d >= p->n)
    return TRUE;
  if (!put (p, w, 1, error) || !judge (p, w + d, &kind, &echo, error))
    return FALSE;
  *yes = kind == NSC_VERIFY_ALIAS && echo == w * B;
  return TRUE;
}

static void
add_place (Probe        *p,
           guint64       block,
           NscVerifyKind kind)
{
  NscProbePlace place = { block * B, kind };

  g_array_append_val (p->r->places, place);
}

static gint
compare_places (gconstpointer a,
                gconstpointer b)
{
  guint64 x = ((const NscProbePlace *) a)->offset, y = ((const NscProbePlace *) b)->offset;

  return x < y ? -1 : x > y;
}

/* Reads @blocks (ascending) and narrows [*lo, *hi): the last good place before the
 * first bad one, and that one. FALSE in @clean when a good place follows a bad one. */
static gboolean
read_places (Probe    *p,
             GArray   *blocks,
             guint64  *lo,
             guint64  *hi,
             gboolean *clean,
             GError  **error)
{
  gboolean seen_bad = FALSE;

  *clean = TRUE;
  for (guint i = 0; i < blocks->len; i++)
    {
      guint64 b = g_array_index (blocks, guint64, i);
      NscVerifyKind kind;

      if (!judge (p, b, &kind, NULL, error))
        return FALSE;
      add_place (p, b, kind);
      if (kind == NSC_VERIFY_OK)
        {
          if (seen_bad)
            *clean = FALSE;
          else if (b + 1 > *lo)
            *lo = b + 1;
        }
      else if (!seen_bad)
        {
          seen_bad = TRUE;
          *hi = MIN (*hi, b);
        }
    }
  return TRUE;
}

static gint
compare_blocks (gconstpointer a,
                gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* The grid's places: a power of two near the square root of the drive's blocks, so
 * that the grid and the level after it cost about the same. */
static guint
grid_size (guint64 n)
{
  guint g = GRID_FEWEST;

  while (g < GRID_MOST && (guint64) g * g < n)
    g *= 2;
  return g;
}

/* @i with its @bits lowest bits in reverse order: any first 2^k of 0, 1, … are an
 * evenly spaced grid. */
static guint
bit_reverse (guint i,
             guint bits)
{
  guint r = 0;

  for (guint k = 0; k < bits; k++)
    r |= ((i >> k) & 1u) << (bits - 1 - k);
  return r;
}

/* What is written past a measured cache of @cache bytes beyond the cache itself, in
 * case it keeps a little more than it seemed to. */
static guint64
margin_past (guint64 cache)
{
  return cache / 16 + 16 * B;
}

/* Places in a level over @width blocks, behind a cache of @cache bytes: with a cache
 * each level costs a cache's worth of writes, so a width a cache's worth of places
 * covers is taken in one level of every block; wider ones in fewer levels of more
 * places (an eighth of the cache's blocks). */
static guint64
level_places (guint64 cache,
              guint64 width)
{
  if (cache == 0)
    return LEVEL_BARE;
  if (width <= MIN (cache / B, (guint64) LEVEL_ONE_MOST))
    return width;
  return CLAMP (cache / B / 8, (guint64) LEVEL_CACHED, (guint64) LEVEL_MOST);
}

void
nsc_probe_result_clear (NscProbeResult *result)
{
  g_clear_pointer (&result->places, g_array_unref);
  memset (result, 0, sizeof *result);
}

const char *
nsc_probe_verdict_name (NscProbeVerdict verdict)
{
  static const char *names[NSC_PROBE_N_VERDICTS] = { "good", "wraps", "loses-writes", "damaged" };

  g_return_val_if_fail (verdict < NSC_PROBE_N_VERDICTS, NULL);
  return names[verdict];
}

guint64
nsc_probe_cache_limit (guint64 size,
                       guint64 max_cache)
{
  if (max_cache == 0)
    max_cache = G_GUINT64_CONSTANT (1) << 30;
  return MIN (max_cache, size / 4) / B * B;
}

/* What the levels after the first cost, at most, from an interval of @width blocks,
 * behind a cache the probe measured between @c_lo and @c_hi bytes (each level: its
 * places, then the cache and its margin written past them). */
static guint64
levels_cost (guint64 width,
             guint64 c_lo,
             guint64 c_hi)
{
  guint64 cost = 0;

  while (width > 0)
    {
      guint64 k = MIN (MAX (level_places (c_lo, width), level_places (c_hi, width)), width);
      guint64 k_lo = MIN (level_places (c_lo, width), width);

      cost += k * B + (c_hi ? c_hi + margin_past (c_hi) : 0);
      if (k_lo >= width)
        break;
      /* Between two places, or past the last: at most this wide. */
      width = width / k_lo + 2;
    }
  return cost;
}

/* The first level's spacing with @grid of the grid's places written. */
static guint64
first_width (guint64 n,
             guint64 grid)
{
  guint64 q = FIRST_PLACES;

  while (q * 2 <= grid)
    q *= 2;
  return (n - END_RUN) / q + 2;
}

guint64
nsc_probe_write_bound (guint64 size,
                       guint64 max_cache)
{
  guint64 n = size / B, limit, fixed, worst, g;
  const guint64 step = 64 * B;

  if (size < NSC_PROBE_MIN_SIZE)
    return 0;
  /* The places, the end run, the blocks that try a wrap's period. */
  fixed = (FIRST_PLACES + END_RUN + 64) * B;
  /* No cache: each level's places alone. */
  worst = fixed + levels_cost (first_width (n, 0), 0, 0);
  /* A cache the end run measures (fewer blocks than it has): no search, no grid. */
  for (guint64 c = B; c < END_RUN * B; c += B)
    worst = MAX (worst, fixed + c + margin_past (c) + levels_cost (first_width (n, 0), c, c));
  /* A cache the search measures, as it may stop after any of its writes: what it
   * wrote (the grid and the MiBs past the end run), the margin and the grid written
   * past, then the levels. The largest cache bounds the bytes, the fewest grid places
   * the width, the smallest cache of a step the levels. */
  limit = nsc_probe_cache_limit (size, max_cache);
  g = grid_size (n);
  for (guint64 s = 0; s <= limit + CHUNK_BLOCKS * B; s += step)
    {
      guint64 c_lo = (END_RUN - 1) * B + (s > step ? s - step : 0);
      guint64 c_hi = (END_RUN - 1) * B + s + step;
      guint64 grid = MIN (g, s > step + CHUNK_BLOCKS * B ? (s - step) / B - CHUNK_BLOCKS - FIRST_PLACES : 0);

      worst = MAX (worst, fixed + c_hi + margin_past (c_hi) + g * B
                          + levels_cost (first_width (n, grid), c_lo, c_hi));
    }
  return worst;
}

guint64
nsc_probe_good_bytes (guint64 size,
                      guint64 max_cache)
{
  guint64 n = size / B;

  if (size < NSC_PROBE_MIN_SIZE)
    return 0;
  /* The places and the end run, the search up to the limit (a MiB over at most),
   * the grid in it written past again, with the end run's length. */
  return (FIRST_PLACES + END_RUN) * B + nsc_probe_cache_limit (size, max_cache) + CHUNK_BLOCKS * B
         + ((guint64) grid_size (n) + END_RUN) * B;
}

guint64
nsc_probe_read_estimate (guint64 size)
{
  guint64 n = size / B;

  if (size < NSC_PROBE_MIN_SIZE)
    return 0;
  /* The grid's places, and the end's block read after each MiB written past a cache
   * that is not there (at most a GiB of them). */
  return (n / 2 / END_RUN + FIRST_PLACES + grid_size (n) + 2 * END_RUN + 1024) * B;
}

gboolean
nsc_probe_run (guint64           size,
               guint64           max_cache,
               guint64           key,
               const NscProbeIo *io,
               GCancellable     *cancellable,
               NscProbeResult   *result,
               GError          **error)
{
  g_autofree guint8 *buf = NULL;
  g_autoptr(GArray) first = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GHashTable) placed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  Probe p = { io, cancellable, key, size / B, NULL, placed, 0, result };
  guint64 period = 0, fresh = 1, cache, since_end, grid_end, lo, hi;
  guint64 margin;
  gboolean clean;
  guint first_ok;

  g_return_val_if_fail (io != NULL && io->write != NULL && io->read != NULL && result != NULL, FALSE);

  memset (result, 0, sizeof *result);
  result->places = g_array_new (FALSE, FALSE, sizeof (NscProbePlace));
  result->reported_bytes = size;
  if (size < NSC_PROBE_MIN_SIZE)
    {
      nsc_error_set (error, NSC_PROBLEM_PROBE_TOO_SMALL,
                     &(NscErrorFields) { .bytes = size, .bytes2 = NSC_PROBE_MIN_SIZE });
      return FALSE;
    }
  max_cache = nsc_probe_cache_limit (size, max_cache);
  buf = g_malloc (CHUNK_BLOCKS * B);
  p.buf = buf;

  /* 1. The first level's places (block 0, then evenly up to the end run), then the
   *    end run from the last block down: the first block written is the first a
   *    cache lets go of. */
  for (guint i = 0; i < FIRST_PLACES; i++)
    {
      guint64 b = (guint64) i * (p.n - END_RUN) / FIRST_PLACES;

      if (first->len == 0 || b != g_array_index (first, guint64, first->len - 1))
        g_array_append_val (first, b);
    }
  for (guint i = 0; i < first->len; i++)
    if (!put_place (&p, g_array_index (first, guint64, i), error))
      return FALSE;
  for (guint i = 0; i < END_RUN; i++)
    if (!put_place (&p, p.n - 1 - i, error))
      return FALSE;

  /* 2. Wrap: the first half read every END_RUN blocks. Where the drive stores R
   *    blocks, the end run sits at (end modulo R), some copy of which lies in the
   *    first half: one of these reads returns it. */
  if (!judge_many (&p, END_RUN, END_RUN, p.n / 2, comb_echo, &period, error))
    return FALSE;
  if (period > 0)
    {
      static const guint primes[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31 };
      gboolean yes;

      /* The distances are multiples of R: their divisor, then smaller ones tried. */
      for (guint i = 0; i < G_N_ELEMENTS (primes); i++)
        while (period % primes[i] == 0)
          {
            if (!is_period (&p, period / primes[i], &fresh, &yes, error))
              return FALSE;
            if (!yes)
              break;
            period /= primes[i];
          }
      result->verdict = NSC_PROBE_WRAPS;
      result->alias_period = result->usable_bytes = period * B;
      result->levels = 1;
      return TRUE;
    }

  /* 3. The drive's own cache: the end run's blocks it still returns. Lost and let go
   *    of, a block reads bad; those written after the first that reads back may all
   *    be held. */
  first_ok = END_RUN;
  for (guint i = 0; i < END_RUN; i++)
    {
      NscVerifyKind kind;

      if (!judge (&p, p.n - 1 - i, &kind, NULL, error))
        return FALSE;
      if (kind == NSC_VERIFY_OK)
        {
          first_ok = i;
          break;
        }
    }
  since_end = 0;
  grid_end = 0;
  if (first_ok == 0)
    {
      /* Even the first reads back: write past it, a MiB at a time, until it does not.
       * The first of those writes are places across the drive (the grid), coarse to
       * fine, so that the writes that find the cache also write what is read past
       * it: with them, one more level finds the last block stored. */
      NscVerifyKind kind = NSC_VERIFY_OK;
      guint g = grid_size (p.n), bits = 0;

      while ((1u << bits) < g)
        bits++;
      for (guint i = 0; i < g && kind == NSC_VERIFY_OK && since_end < max_cache;)
        {
          for (guint end = MIN (g, i + CHUNK_BLOCKS); i < end; i++)
            {
              guint64 b = (guint64) bit_reverse (i, bits) * (p.n - END_RUN) / g;

              if (g_hash_table_contains (p.placed, &b))
                continue;
              if (!put_place (&p, b, error))
                return FALSE;
              g_array_append_val (first, b);
              result->grid++;
              since_end += B;
            }
          grid_end = since_end;
          if (!judge (&p, p.n - 1, &kind, NULL, error))
            return FALSE;
        }
      while (kind == NSC_VERIFY_OK && since_end < max_cache)
        {
          guint64 n = MIN (CHUNK_BLOCKS * B, max_cache - since_end);

          if (!write_past (&p, n, error))
            return FALSE;
          since_end += n;
          if (!judge (&p, p.n - 1, &kind, NULL, error))
            return FALSE;
        }
      /* The end is stored, or held by a cache larger than we write past; else the
       * cache is what was written after the first block it let go of, at most. */
      result->cache_beyond = kind == NSC_VERIFY_OK;
      cache = (END_RUN - 1) * B + since_end;
    }
  else
    cache = (guint64) (END_RUN - first_ok) * B;
  result->cache_bytes = result->cache_beyond ? 0 : cache;
  /* Everything read from here on was written at least a cache (and a margin) ago:
   * more is written if need be. */
  margin = cache && !result->cache_beyond ? margin_past (cache) : 0;
  if (cache > 0 && since_end - grid_end < cache + margin)
    if (!write_past (&p, cache + margin - (since_end - grid_end), error))
      return FALSE;

  /* 4. The first level, and the end run, past the cache. */
  lo = 0;
  hi = p.n;
  for (guint i = 0; i < END_RUN; i++)
    {
      guint64 b = p.n - END_RUN + i;

      g_array_append_val (first, b);
    }
  g_array_sort (first, compare_blocks);
  if (!read_places (&p, first, &lo, &hi, &clean, error))
    return FALSE;
  result->levels = 1;
  if (!clean)
    {
      result->verdict = NSC_PROBE_DAMAGED;
      result->usable_bytes = hi * B;
      return TRUE;
    }
  if (hi == p.n)
    {
      result->verdict = NSC_PROBE_GOOD;
      result->usable_bytes = size;
      g_array_sort (result->places, compare_places);
      return TRUE;
    }

  /* Then places in between, level by level, each read past the cache. */
  while (hi > lo)
    {
      g_autoptr(GArray) level = g_array_new (FALSE, FALSE, sizeof (guint64));
      /* With a cache each level costs a cache's worth of writes: fewer levels of more
       * places (an eighth of the cache's blocks) cost less. */
      guint k = (guint) MIN (level_places (cache, hi - lo), hi - lo);
      guint64 lo_before = lo, hi_before = hi;

      for (guint j = 0; j < k; j++)
        {
          guint64 b = lo + (hi - lo) * j / k;

          if (level->len == 0 || b != g_array_index (level, guint64, level->len - 1))
            g_array_append_val (level, b);
        }
      for (guint j = 0; j < level->len; j++)
        if (!put_place (&p, g_array_index (level, guint64, j), error))
          return FALSE;
      if (cache > 0 && !write_past (&p, cache + margin, error))
        return FALSE;
      if (!read_places (&p, level, &lo, &hi, &clean, error))
        return FALSE;
      result->levels++;
      if (!clean)
        {
          result->verdict = NSC_PROBE_DAMAGED;
          result->usable_bytes = hi * B;
          g_array_sort (result->places, compare_places);
          return TRUE;
        }
      /* Every place read good or every place bad: the interval still narrows. */
      g_assert (hi - lo < hi_before - lo_before || hi - lo == 0);
    }
  result->verdict = NSC_PROBE_LOSES_WRITES;
  result->usable_bytes = hi * B;
  g_array_sort (result->places, compare_places);
  return TRUE;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "nsc-offsets.h"
#include "nsc-verify.h"

#define WORDS (NSC_VERIFY_UNIT / 8)
/* "NSCVRFY1", little-endian */
#define MARK G_GUINT64_CONSTANT (0x315946525643534e)

static inline guint64
header_check (guint64 offset,
              guint64 key)
{
  return nsc_mix64 (offset ^ nsc_mix64 (key ^ MARK));
}

static inline guint64
body_seed (guint64 offset,
           guint64 key)
{
  return nsc_mix64 (offset + nsc_mix64 (key));
}

/* The body's word @i: a multiply and a fold, a bijection of @i for each block's seed,
 * so that checking a block costs less than reading it (zram: see bench/README.md). */
static inline guint64
body_word (guint64 seed,
           guint   i)
{
  guint64 x = (seed + i * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) * G_GUINT64_CONSTANT (0xd6e8feb86659fd93);

  return x ^ (x >> 32);
}

/* One block's expected words, in the CPU's order (the header is little-endian on
 * disk; the body is whatever these words are in memory, on write and read alike). */
static inline void
fill_block (guint64 *w,
            guint64  offset,
            guint64  key)
{
  guint64 seed = body_seed (offset, key);

  w[0] = GUINT64_TO_LE (MARK);
  w[1] = GUINT64_TO_LE (offset);
  w[2] = GUINT64_TO_LE (key);
  w[3] = GUINT64_TO_LE (header_check (offset, key));
  for (guint i = 4; i < WORDS; i++)
    w[i] = body_word (seed, i);
}

void
nsc_verify_tally_init (NscVerifyTally *tally)
{
  memset (tally, 0, sizeof *tally);
  tally->first_bad = G_MAXUINT64;
  tally->alias_offset = G_MAXUINT64;
  for (guint i = 0; i < NSC_VERIFY_LAT_BUCKETS; i++)
    tally->read_first[i] = G_MAXUINT64;
}

void
nsc_verify_fill (guint8  *buf,
                 gsize    len,
                 guint64  offset,
                 guint64  key)
{
  g_return_if_fail (len % NSC_VERIFY_UNIT == 0);

  for (gsize o = 0; o < len; o += NSC_VERIFY_UNIT)
    {
      guint64 w[WORDS];

      fill_block (w, offset + o, key);
      memcpy (buf + o, w, NSC_VERIFY_UNIT);
    }
}

/* The common case, in one pass with nothing copied: the block holds what was written
 * there. @block is 8-byte aligned (I/O buffers are page-aligned). */
static inline gboolean
block_matches (const guint64 *w,
               guint64        offset,
               guint64        key)
{
  guint64 seed = body_seed (offset, key);
  guint64 diff;

  diff = (w[0] ^ GUINT64_TO_LE (MARK)) | (w[1] ^ GUINT64_TO_LE (offset))
         | (w[2] ^ GUINT64_TO_LE (key)) | (w[3] ^ GUINT64_TO_LE (header_check (offset, key)));
  for (guint i = 4; i < WORDS; i++)
    diff |= w[i] ^ body_word (seed, i);
  return diff == 0;
}

static gboolean
all_zeros (const guint64 *w)
{
  guint64 any = 0;

  for (guint i = 0; i < WORDS; i++)
    any |= w[i];
  return any == 0;
}

static guint64
bits_apart (const guint64 *a,
            const guint64 *b)
{
  guint64 bits = 0;

  for (guint i = 0; i < WORDS; i++)
    bits += (guint64) __builtin_popcountll (a[i] ^ b[i]);
  return bits;
}

NscVerifyKind
nsc_verify_block (const guint8 *block,
                  guint64       offset,
                  guint64       key,
                  guint64      *echo,
                  guint64      *bits)
{
  guint64 got[WORDS], want[WORDS];
  guint64 h_off, h_key;
  guint64 apart;

  *echo = offset;
  *bits = 0;
  if (((guintptr) block & 7) == 0 && block_matches ((const guint64 *) block, offset, key))
    return NSC_VERIFY_OK;
  memcpy (got, block, NSC_VERIFY_UNIT);
  fill_block (want, offset, key);
  if (memcmp (got, want, NSC_VERIFY_UNIT) == 0)
    return NSC_VERIFY_OK;
  if (all_zeros (got))
    return NSC_VERIFY_ZEROS;

  h_off = GUINT64_FROM_LE (got[1]);
  h_key = GUINT64_FROM_LE (got[2]);
  if (GUINT64_FROM_LE (got[0]) == MARK && GUINT64_FROM_LE (got[3]) == header_check (h_off, h_key)
      && (h_off != offset || h_key != key))
    {
      guint64 theirs[WORDS];

      /* A whole block of ours, written for another place or another run. */
      fill_block (theirs, h_off, h_key);
      if (memcmp (got, theirs, NSC_VERIFY_UNIT) == 0)
        {
          *echo = h_off;
          return h_key == key ? NSC_VERIFY_ALIAS : NSC_VERIFY_STALE;
        }
      apart = bits_apart (got, theirs);
      if (apart < NSC_VERIFY_UNIT * 8 / 8)
        {
          *echo = h_off;
          *bits = apart;
          return NSC_VERIFY_CORRUPT;
        }
    }

  /* Ours with a few bits changed, or something else (about half the bits differ). */
  apart = bits_apart (got, want);
  if (apart < NSC_VERIFY_UNIT * 8 / 8)
    {
      *bits = apart;
      return NSC_VERIFY_CORRUPT;
    }
  return NSC_VERIFY_OTHER;
}

static void
count (NscVerifyTally *t,
       NscVerifyKind   kind,
       guint64         offset,
       guint64         echo,
       guint64         bits)
{
  t->blocks[kind]++;
  if (kind == NSC_VERIFY_OK)
    return;
  if (offset < t->first_bad)
    {
      t->first_bad = offset;
      t->first_bad_kind = kind;
    }
  t->corrupt_bits += bits;
  if (kind == NSC_VERIFY_ALIAS)
    {
      guint64 distance = echo > offset ? echo - offset : offset - echo;

      if (offset < t->alias_offset)
        {
          t->alias_offset = offset;
          t->alias_echo = echo;
        }
      if (t->alias_period == 0 || distance < t->alias_period)
        t->alias_period = distance;
    }
}

void
nsc_verify_check (const guint8   *buf,
                  gsize           len,
                  guint64         offset,
                  guint64         key,
                  NscVerifyTally *tally)
{
  g_return_if_fail (len % NSC_VERIFY_UNIT == 0);

  for (gsize o = 0; o < len; o += NSC_VERIFY_UNIT)
    {
      guint64 echo, bits;
      NscVerifyKind kind = nsc_verify_block (buf + o, offset + o, key, &echo, &bits);

      count (tally, kind, offset + o, echo, bits);
    }
}

void
nsc_verify_unreadable (NscVerifyTally *tally,
                       guint64         offset,
                       gsize           len)
{
  for (gsize o = 0; o < len; o += NSC_VERIFY_UNIT)
    count (tally, NSC_VERIFY_UNREADABLE, offset + o, offset + o, 0);
}

/* A quarter of an octave: 4 · log2 (ns), from the top bit and the two below it. */
static guint
lat_bucket (guint64 ns)
{
  guint top, b;

  if (ns < 4)
    return 0;
  top = 63 - (guint) __builtin_clzll (ns);
  b = top * 4 + (guint) ((ns >> (top - 2)) & 3);
  return MIN (b, NSC_VERIFY_LAT_BUCKETS - 1);
}

/* The smallest ns in bucket @b. */
static guint64
lat_bucket_floor (guint b)
{
  guint top = b / 4;

  if (top < 2)
    return b;
  return (G_GUINT64_CONSTANT (4) + (b % 4)) << (top - 2);
}

void
nsc_verify_timed (NscVerifyTally *tally,
                  guint64         offset,
                  guint64         ns)
{
  guint b = lat_bucket (ns);

  tally->read_count[b]++;
  if (offset < tally->read_first[b])
    tally->read_first[b] = offset;
  if (ns > tally->slowest_ns)
    {
      tally->slowest_ns = ns;
      tally->slowest_offset = offset;
    }
}

void
nsc_verify_slow (const NscVerifyTally *tally,
                 NscVerifySlow        *slow)
{
  guint64 seen = 0;
  guint b;

  memset (slow, 0, sizeof *slow);
  slow->first_offset = G_MAXUINT64;
  for (b = 0; b < NSC_VERIFY_LAT_BUCKETS; b++)
    slow->reads += tally->read_count[b];
  if (slow->reads == 0)
    return;
  /* The median's bucket, and its floor: a quarter octave is close enough for a
   * threshold ten times above it. */
  for (b = 0; b < NSC_VERIFY_LAT_BUCKETS; b++)
    {
      seen += tally->read_count[b];
      if (seen * 2 >= slow->reads)
        break;
    }
  slow->median_ns = lat_bucket_floor (b);
  slow->threshold_ns = MAX (slow->median_ns * NSC_VERIFY_SLOW_FACTOR, NSC_VERIFY_SLOW_FLOOR_NS);
  /* Whole buckets at or above the threshold: a read counted slow took at least that. */
  for (b = 0; b < NSC_VERIFY_LAT_BUCKETS; b++)
    if (lat_bucket_floor (b) >= slow->threshold_ns && tally->read_count[b] > 0)
      {
        slow->slow_reads += tally->read_count[b];
        slow->first_offset = MIN (slow->first_offset, tally->read_first[b]);
      }
  slow->slowest_ns = tally->slowest_ns;
  slow->slowest_offset = tally->slowest_offset;
}

void
nsc_verify_merge (NscVerifyTally       *into,
                  const NscVerifyTally *from)
{
  for (guint b = 0; b < NSC_VERIFY_LAT_BUCKETS; b++)
    {
      into->read_count[b] += from->read_count[b];
      into->read_first[b] = MIN (into->read_first[b], from->read_first[b]);
    }
  if (from->slowest_ns > into->slowest_ns)
    {
      into->slowest_ns = from->slowest_ns;
      into->slowest_offset = from->slowest_offset;
    }
  for (int k = 0; k < NSC_VERIFY_N_KINDS; k++)
    into->blocks[k] += from->blocks[k];
  if (from->first_bad < into->first_bad)
    {
      into->first_bad = from->first_bad;
      into->first_bad_kind = from->first_bad_kind;
    }
  if (from->alias_offset < into->alias_offset)
    {
      into->alias_offset = from->alias_offset;
      into->alias_echo = from->alias_echo;
    }
  if (from->alias_period != 0 && (into->alias_period == 0 || from->alias_period < into->alias_period))
    into->alias_period = from->alias_period;
  into->corrupt_bits += from->corrupt_bits;
}

guint64
nsc_verify_bad_blocks (const NscVerifyTally *tally)
{
  guint64 bad = 0;

  for (int k = NSC_VERIFY_OK + 1; k < NSC_VERIFY_N_KINDS; k++)
    bad += tally->blocks[k];
  return bad;
}

const char *
nsc_verify_kind_name (NscVerifyKind kind)
{
  static const char *names[NSC_VERIFY_N_KINDS] = {
    "ok", "zeros", "alias", "stale", "corrupt", "other", "unreadable",
  };

  g_return_val_if_fail (kind < NSC_VERIFY_N_KINDS, NULL);
  return names[kind];
}

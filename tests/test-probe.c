/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The quick probe's algorithm against fake drives in memory, drawn from a seed over
 * their whole range: honest, wrapping at any real size, dropping writes past it, or
 * mapping flash as written; with no cache of their own or one of 16–512 MiB (LRU by
 * block, refreshed by writes); sizes of 1–32 GiB (to 256 GiB with -m slow). Each verdict and usable size
 * against what the drive was told, and the bytes the probe wrote. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "nsc-engine.h"

#define B ((guint64) NSC_VERIFY_UNIT)
#define MIB (G_GUINT64_CONSTANT (1) << 20)
#define GIB (G_GUINT64_CONSTANT (1) << 30)
#define KEY G_GUINT64_CONSTANT (0x5eed5eed12345678)
#define NONE G_MAXUINT64

enum { HONEST, WRAP, DROP, MAPPED, N_MODES };
static const char *mode_names[] = { "honest", "wrap", "drop", "mapped" };

typedef struct
{
  int         mode;
  guint64     n, real;        /* blocks */
  guint64     cache;          /* blocks */
  guint64     flip;           /* a block read back with a bit flipped, or NONE */
  GHashTable *media;          /* physical block -> host block whose data it holds */
  GHashTable *mapped;         /* MAPPED: host blocks with flash */
  GQueue      lru;            /* host blocks, most recent first */
  GHashTable *cached;         /* host block -> its GList link in lru */
  guint64     eio;            /* a block whose reads fail, or NONE */
  gboolean    many;           /* takes reads together (read_many) */
  guint       batches;        /* and how many batches it was given */
} Fake;

static guint64 *
boxed (guint64 v)
{
  return g_memdup2 (&v, sizeof v);
}

static void
fake_init (Fake   *f,
           int     mode,
           guint64 size,
           guint64 real,
           guint64 cache)
{
  memset (f, 0, sizeof *f);
  f->mode = mode;
  f->n = size / B;
  f->real = mode == HONEST ? f->n : real / B;
  f->cache = cache / B;
  f->flip = NONE;
  f->eio = NONE;
  f->media = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  f->mapped = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  f->cached = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_queue_init (&f->lru);
}

static void
fake_clear (Fake *f)
{
  g_hash_table_unref (f->media);
  g_hash_table_unref (f->mapped);
  g_hash_table_unref (f->cached);
  g_queue_clear (&f->lru);
}

/* Where host block @b lives, or NONE when the drive does not store it. */
static guint64
place_of (Fake    *f,
          guint64  b,
          gboolean writing)
{
  switch (f->mode)
    {
    case WRAP:
      return b % f->real;
    case DROP:
      return b < f->real ? b : NONE;
    case MAPPED:
      if (g_hash_table_contains (f->mapped, &b))
        return b;
      if (writing && g_hash_table_size (f->mapped) < f->real)
        {
          g_hash_table_add (f->mapped, boxed (b));
          return b;
        }
      return NONE;
    case HONEST:
    default:
      return b;
    }
}

static gboolean
fake_write (gpointer      data,
            guint64       offset,
            const guint8 *buf,
            gsize         len,
            GError      **error)
{
  Fake *f = data;

  for (guint64 b = offset / B; b < (offset + len) / B; b++)
    {
      guint64 p = place_of (f, b, TRUE);
      GList *link;

      /* The data names its offset: the probe writes only its own blocks. */
      g_assert_cmpuint (GUINT64_FROM_LE (((const guint64 *) (buf + (b * B - offset)))[1]), ==, b * B);
      if (p != NONE)
        g_hash_table_insert (f->media, boxed (p), boxed (b));
      if (f->cache == 0)
        continue;
      link = g_hash_table_lookup (f->cached, &b);
      if (link)
        {
          g_queue_unlink (&f->lru, link);
          g_queue_push_head_link (&f->lru, link);
        }
      else
        {
          g_queue_push_head (&f->lru, GSIZE_TO_POINTER ((gsize) b));
          g_hash_table_insert (f->cached, boxed (b), f->lru.head);
          if (f->lru.length > f->cache)
            {
              guint64 old = GPOINTER_TO_SIZE (g_queue_pop_tail (&f->lru));

              g_hash_table_remove (f->cached, &old);
            }
        }
    }
  return TRUE;
}

static int
fake_read (gpointer data,
           guint64  offset,
           guint8  *block,
           GError **error)
{
  Fake *f = data;
  guint64 b = offset / B, p, *held;

  if (b == f->eio)
    return -EIO;
  if (g_hash_table_contains (f->cached, &b))
    {
      nsc_verify_fill (block, B, b * B, KEY);
      return 0;
    }
  p = place_of (f, b, FALSE);
  held = p != NONE ? g_hash_table_lookup (f->media, &p) : NULL;
  if (held == NULL)
    memset (block, 0, B);
  else
    nsc_verify_fill (block, B, *held * B, KEY);
  if (b == f->flip && held)
    block[100] ^= 4;
  return 0;
}

static gboolean
fake_read_many (gpointer       data,
                const guint64 *offsets,
                guint          n,
                guint8        *blocks,
                int           *rc,
                GError       **error)
{
  Fake *f = data;

  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <=, NSC_PROBE_BATCH);
  f->batches++;
  for (guint i = 0; i < n; i++)
    rc[i] = fake_read (data, offsets[i], blocks + (gsize) i * B, error);
  return TRUE;
}

static void
probe (Fake           *f,
       NscProbeResult *r)
{
  NscProbeIo io = { fake_write, fake_read, f->many ? fake_read_many : NULL, f };
  g_autoptr(GError) error = NULL;

  /* Past a cache of 640 MiB at most: more than any drawn here, less than the default
   * (1 GiB), which would only cost the honest drives' time. */
  g_assert_true (nsc_probe_run (f->n * B, 640 * MIB, KEY, &io, NULL, r, &error));
  g_assert_no_error (error);
}

/* Drives drawn from a seed over their whole range. */
static void
test_drawn (void)
{
  guint32 seed = g_test_rand_int ();
  GRand *rng = g_rand_new_with_seed (seed);
  const guint count = g_test_slow () ? 48 : 16;
  guint64 worst_bare = 0;
  double worst_ratio = 0;

  g_test_message ("drives drawn from %u (the run's --seed above repeats them)", seed);
  for (guint i = 0; i < count; i++)
    {
      int mode = (int) (i % N_MODES);
      /* 1–32 GiB; to 256 GiB with -m slow (a sanitizer's run of the unit suite keeps
       * to the smaller). */
      guint64 size = GIB << g_rand_int_range (rng, 0, g_test_slow () ? 9 : 6);
      /* Real sizes anywhere from a tenth to nearly all of it, to the block. */
      guint64 real = (guint64) (size * g_rand_double_range (rng, 0.1, 0.97)) / B * B;
      /* Half with no cache, half with 16–512 MiB (within what the probe writes past). */
      guint64 drawn = (guint64) g_rand_int_range (rng, 16, 513) * MIB;
      guint64 cache = i % 8 < 4 ? 0 : MIN (drawn, size / 8);
      NscProbeResult r = { 0 };
      Fake f;

      fake_init (&f, mode, size, real, cache);
      /* Half the drives take the wrap's reads together, as the runner gives them. */
      f.many = (i / 8) % 2;
      probe (&f, &r);
      g_assert_true (!f.many || f.batches > 0);
      g_test_message ("%-6s size %4" G_GUINT64_FORMAT " GiB real %13" G_GUINT64_FORMAT
                      " cache %4" G_GUINT64_FORMAT " MiB: %-12s usable %13" G_GUINT64_FORMAT
                      " cache seen %4" G_GUINT64_FORMAT " MiB%s, %u levels, wrote %8" G_GUINT64_FORMAT
                      " KiB, read %8" G_GUINT64_FORMAT " KiB",
                      mode_names[mode], size / GIB, f.real * B, cache / MIB,
                      nsc_probe_verdict_name (r.verdict), r.usable_bytes, r.cache_bytes / MIB,
                      r.cache_beyond ? " (or more)" : "", r.levels, r.bytes_written / 1024,
                      r.bytes_read / 1024);
      /* What the plan promises before the run: never less than what it writes. */
      g_assert_cmpuint (r.bytes_written, <=, nsc_probe_write_bound (size, 640 * MIB));
      switch (mode)
        {
        case WRAP:
          g_assert_cmpstr (nsc_probe_verdict_name (r.verdict), ==, "wraps");
          g_assert_cmpuint (r.usable_bytes, ==, f.real * B);
          g_assert_cmpuint (r.bytes_written, <=, 2 * MIB);
          break;
        case DROP:
          g_assert_cmpstr (nsc_probe_verdict_name (r.verdict), ==, "loses-writes");
          g_assert_cmpuint (r.usable_bytes, ==, f.real * B);
          /* The cache it found: at least the drive's, at most a MiB and the end run
           * over it. */
          g_assert_cmpuint (r.cache_bytes, >=, cache);
          g_assert_cmpuint (r.cache_bytes, <=, cache + MIB + 128 * B);
          if (cache == 0)
            {
              g_assert_cmpuint (r.bytes_written, <=, 2 * MIB);
              worst_bare = MAX (worst_bare, r.bytes_written);
            }
          else
            {
              worst_ratio = MAX (worst_ratio, (double) (r.bytes_written - 2 * MIB) / cache);
              /* The grid, written while the cache was sought, leaves one level where
               * the cache's worth of places covers the gap between two of its places:
               * twice the cache (and an eighth for the margins) and the grid twice. */
              if (r.grid > 0 && (size / B) / r.grid * 2 <= cache / B)
                {
                  g_assert_cmpuint (r.levels, ==, 2);
                  g_assert_cmpuint (r.bytes_written, <=, 2 * MIB + r.cache_bytes * 2.15 + 2 * (guint64) r.grid * B);
                }
            }
          break;
        case HONEST:
        case MAPPED:
        default:
          /* A probe cannot tell these apart: every place kept its data. It says so. */
          g_assert_cmpstr (nsc_probe_verdict_name (r.verdict), ==, "good");
          g_assert_cmpuint (r.usable_bytes, ==, size);
          g_assert_true (r.cache_beyond);
          /* What the plan expects it writing, and reading. */
          g_assert_cmpuint (r.bytes_written, <=, nsc_probe_good_bytes (size, 640 * MIB));
          g_assert_cmpuint (r.bytes_written, >=, nsc_probe_good_bytes (size, 640 * MIB) * 0.99);
          g_assert_cmpuint (r.bytes_read, <=, nsc_probe_read_estimate (size));
          break;
        }
      nsc_probe_result_clear (&r);
      fake_clear (&f);
    }
  g_test_message ("drops with no cache: at most %" G_GUINT64_FORMAT " KiB written; with one: "
                  "at most 2 MiB + %.2f x the cache", worst_bare / 1024, worst_ratio);
  g_rand_free (rng);
}

/* A damaged block among good ones, a read that fails, a drive too small. */
static void
test_damaged (void)
{
  NscProbeResult r = { 0 };
  NscProbeIo io;
  g_autoptr(GError) error = NULL;
  Fake f;

  fake_init (&f, HONEST, 4 * GIB, 0, 0);
  f.flip = 0;
  probe (&f, &r);
  g_assert_cmpstr (nsc_probe_verdict_name (r.verdict), ==, "damaged");
  g_assert_cmpuint (r.usable_bytes, ==, 0);
  nsc_probe_result_clear (&r);
  fake_clear (&f);

  fake_init (&f, HONEST, 4 * GIB, 0, 0);
  f.eio = 0;
  probe (&f, &r);
  g_assert_cmpstr (nsc_probe_verdict_name (r.verdict), ==, "damaged");
  g_assert_cmpuint (r.places->len, >, 0);
  g_assert_cmpint (g_array_index (r.places, NscProbePlace, 0).kind, ==, NSC_VERIFY_UNREADABLE);
  nsc_probe_result_clear (&r);
  fake_clear (&f);

  fake_init (&f, HONEST, 32 * MIB, 0, 0);
  io = (NscProbeIo) { fake_write, fake_read, NULL, &f };
  g_assert_false (nsc_probe_run (32 * MIB, 0, KEY, &io, NULL, &r, &error));
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_PROBE_TOO_SMALL);
  nsc_probe_result_clear (&r);
  fake_clear (&f);
}

/* A cache larger than the probe writes past hides a drive that drops writes: the
 * probe cannot see past it, and says so (cache_beyond). */
static void
test_cache_beyond (void)
{
  NscProbeResult r = { 0 };
  Fake f;

  fake_init (&f, DROP, 2 * GIB, GIB, 600 * MIB);   /* writes past 512 MiB, a quarter */
  probe (&f, &r);
  g_assert_true (r.cache_beyond);
  g_assert_cmpstr (nsc_probe_verdict_name (r.verdict), ==, "good");
  nsc_probe_result_clear (&r);
  fake_clear (&f);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/probe/drawn", test_drawn);
  g_test_add_func ("/nsc/probe/damaged", test_damaged);
  g_test_add_func ("/nsc/probe/cache-beyond", test_cache_beyond);
  return g_test_run ();
}

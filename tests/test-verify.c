/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Data that names its own place: every kind of block a lying or failing drive can
 * return, made in memory and told apart. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "nsc-engine.h"

#define U NSC_VERIFY_UNIT
#define KEY G_GUINT64_CONSTANT (0x1234567890abcdef)

static guint8 *
blocks (guint n)
{
  return g_malloc0 ((gsize) n * U);
}

static NscVerifyKind
kind_of (const guint8 *block,
         guint64       offset,
         guint64      *echo)
{
  guint64 e, bits;
  NscVerifyKind k = nsc_verify_block (block, offset, KEY, &e, &bits);

  if (echo)
    *echo = e;
  return k;
}

static void
test_kinds (void)
{
  g_autofree guint8 *b = blocks (4);
  g_autofree guint8 *c = blocks (1);
  guint64 echo = 0;

  /* Written and read back at the same place. */
  nsc_verify_fill (b, 4 * U, 1 << 20, KEY);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (kind_of (b + i * U, (1 << 20) + i * U, NULL), ==, NSC_VERIFY_OK);
  /* Each block differs from its neighbours in most of its bits. */
  g_assert_cmpint (memcmp (b + 64, b + U + 64, U - 64), !=, 0);

  /* Read at another place: the drive returned another offset's data. */
  g_assert_cmpint (kind_of (b + U, 0, &echo), ==, NSC_VERIFY_ALIAS);
  g_assert_cmpuint (echo, ==, (1 << 20) + U);

  /* Another run's key: stale data. */
  nsc_verify_fill (c, U, 8192, KEY + 1);
  g_assert_cmpint (kind_of (c, 8192, &echo), ==, NSC_VERIFY_STALE);
  g_assert_cmpuint (echo, ==, 8192);

  /* Zeros, and the pattern an erased flash page reads as. */
  memset (c, 0, U);
  g_assert_cmpint (kind_of (c, 0, NULL), ==, NSC_VERIFY_ZEROS);
  memset (c, 0xff, U);
  g_assert_cmpint (kind_of (c, 0, NULL), ==, NSC_VERIFY_OTHER);

  /* A flipped bit, in the body and in the header. */
  for (guint where = 0; where < U; where += 37)
    {
      guint64 bits = 0, e;

      nsc_verify_fill (c, U, 4096 * 7, KEY);
      c[where] ^= 0x10;
      g_assert_cmpint (nsc_verify_block (c, 4096 * 7, KEY, &e, &bits), ==, NSC_VERIFY_CORRUPT);
      g_assert_cmpuint (bits, ==, 1);
    }
  /* An aliasing block with a flipped bit is damaged, and says whose it was. */
  nsc_verify_fill (c, U, 4096 * 9, KEY);
  c[1000] ^= 1;
  g_assert_cmpint (kind_of (c, 0, &echo), ==, NSC_VERIFY_CORRUPT);
  g_assert_cmpuint (echo, ==, 4096 * 9);
}

/* A drive that stores R bytes and wraps: every block past R lands on offset mod R, so
 * a read returns the last data written at any offset congruent to it. */
static void
test_wrap (void)
{
  const guint64 reported = 64 * U, real = 24 * U;
  g_autofree guint8 *flash = blocks (24);
  g_autofree guint8 *buf = blocks (8);
  NscVerifyTally t;

  nsc_verify_tally_init (&t);
  for (guint64 o = 0; o < reported; o += 8 * U)
    {
      nsc_verify_fill (buf, 8 * U, o, KEY);
      for (guint i = 0; i < 8; i++)
        memcpy (flash + (o + i * U) % real, buf + i * U, U);
    }
  for (guint64 o = 0; o < reported; o += 8 * U)
    {
      for (guint i = 0; i < 8; i++)
        memcpy (buf + i * U, flash + (o + i * U) % real, U);
      nsc_verify_check (buf, 8 * U, o, KEY, &t);
    }
  /* Only the last write to each of the 24 real blocks reads back right. */
  g_assert_cmpuint (t.blocks[NSC_VERIFY_OK], ==, 24);
  g_assert_cmpuint (t.blocks[NSC_VERIFY_ALIAS], ==, 40);
  g_assert_cmpuint (nsc_verify_bad_blocks (&t), ==, 40);
  g_assert_cmpuint (t.first_bad, ==, 0);
  g_assert_cmpint (t.first_bad_kind, ==, NSC_VERIFY_ALIAS);
  g_assert_cmpuint (t.alias_offset, ==, 0);
  g_assert_cmpuint (t.alias_echo, ==, 48 * U);
  g_assert_cmpuint (t.alias_period, ==, real);
}

/* A drive that loses every write past R: zeros there; threads' tallies merge. */
static void
test_drop_and_merge (void)
{
  g_autofree guint8 *buf = blocks (4);
  NscVerifyTally a, b, all;

  nsc_verify_tally_init (&a);
  nsc_verify_tally_init (&b);
  nsc_verify_tally_init (&all);
  nsc_verify_fill (buf, 4 * U, 0, KEY);
  nsc_verify_check (buf, 4 * U, 0, KEY, &a);
  memset (buf, 0, 4 * U);
  nsc_verify_check (buf, 4 * U, 8 * U, KEY, &b);
  nsc_verify_unreadable (&b, 4 * U, 2 * U);
  nsc_verify_merge (&all, &b);
  nsc_verify_merge (&all, &a);
  g_assert_cmpuint (all.blocks[NSC_VERIFY_OK], ==, 4);
  g_assert_cmpuint (all.blocks[NSC_VERIFY_ZEROS], ==, 4);
  g_assert_cmpuint (all.blocks[NSC_VERIFY_UNREADABLE], ==, 2);
  g_assert_cmpuint (all.first_bad, ==, 4 * U);
  g_assert_cmpint (all.first_bad_kind, ==, NSC_VERIFY_UNREADABLE);
  g_assert_cmpuint (all.alias_period, ==, 0);
  for (int k = 0; k < NSC_VERIFY_N_KINDS; k++)
    g_assert_nonnull (nsc_verify_kind_name (k));
}

/* Slow reads: ten times the median read and at least the floor, by whole buckets; the
 * first slow offset and the slowest survive a merge of threads' tallies. */
static void
test_slow (void)
{
  NscVerifyTally a, b, all;
  NscVerifySlow slow;
  const guint64 MS = 1000000;

  nsc_verify_tally_init (&a);
  nsc_verify_tally_init (&b);
  nsc_verify_tally_init (&all);
  nsc_verify_slow (&all, &slow);
  g_assert_cmpuint (slow.reads, ==, 0);
  g_assert_cmpuint (slow.slow_reads, ==, 0);

  /* 100 reads of 4 ms; three slow ones at 60, 200 and 1000 ms; one of 30 ms (slower,
   * but under ten times the usual 4 ms); the threads' halves merged. */
  for (guint i = 0; i < 100; i++)
    nsc_verify_timed (i % 2 ? &a : &b, (guint64) i << 20, 4 * MS);
  nsc_verify_timed (&a, G_GUINT64_CONSTANT (500) << 20, 60 * MS);
  nsc_verify_timed (&b, G_GUINT64_CONSTANT (300) << 20, 200 * MS);
  nsc_verify_timed (&a, G_GUINT64_CONSTANT (900) << 20, 1000 * MS);
  nsc_verify_timed (&b, G_GUINT64_CONSTANT (200) << 20, 30 * MS);
  nsc_verify_merge (&all, &a);
  nsc_verify_merge (&all, &b);
  nsc_verify_slow (&all, &slow);
  g_assert_cmpuint (slow.reads, ==, 104);
  /* The median's quarter octave holds 4 ms: its floor is within 19 % below. */
  g_assert_cmpuint (slow.median_ns, <=, 4 * MS);
  g_assert_cmpuint (slow.median_ns, >, 4 * MS * 81 / 100);
  g_assert_cmpuint (slow.threshold_ns, ==, MAX (slow.median_ns * NSC_VERIFY_SLOW_FACTOR, NSC_VERIFY_SLOW_FLOOR_NS));
  g_assert_cmpuint (slow.slow_reads, ==, 3);
  g_assert_cmpuint (slow.first_offset, ==, G_GUINT64_CONSTANT (300) << 20);
  g_assert_cmpuint (slow.slowest_ns, ==, 1000 * MS);
  g_assert_cmpuint (slow.slowest_offset, ==, G_GUINT64_CONSTANT (900) << 20);

  /* A fast drive (50 µs reads): the floor, not ten times its median, says slow. */
  nsc_verify_tally_init (&a);
  for (guint i = 0; i < 1000; i++)
    nsc_verify_timed (&a, (guint64) i << 20, 50000);
  nsc_verify_timed (&a, 7, 10 * MS);
  nsc_verify_timed (&a, 9, 80 * MS);
  nsc_verify_slow (&a, &slow);
  g_assert_cmpuint (slow.threshold_ns, ==, NSC_VERIFY_SLOW_FLOOR_NS);
  g_assert_cmpuint (slow.slow_reads, ==, 1);
  g_assert_cmpuint (slow.first_offset, ==, 9);

  /* Times past the last bucket and of nothing at all stay counted. */
  nsc_verify_tally_init (&a);
  nsc_verify_timed (&a, 0, 0);
  nsc_verify_timed (&a, 1, G_MAXUINT64);
  nsc_verify_slow (&a, &slow);
  g_assert_cmpuint (slow.reads, ==, 2);
  g_assert_cmpuint (slow.slow_reads, ==, 1);
  g_assert_cmpuint (slow.first_offset, ==, 1);
}

/* A surface scan's places checked (--verify), as the run analysis sees them: 10 places
 * of 8 blocks over 1 MiB, each read back through @drive (which returns, for a place's
 * block, the offset whose data it holds, or G_MAXUINT64 for zeros). */
#define PLACES 10
#define PLACE_BLOCKS 8
#define SPAN (G_GUINT64_CONSTANT (1) << 20)
#define STRIDE (G_GUINT64_CONSTANT (100) * 1024)

typedef guint64 (*DriveFunc) (guint64 offset);

static JsonObject *
places_verdict (DriveFunc drive,
                guint     read_places,
                JsonNode **keep)
{
  g_autoptr(NscRunResult) r = nsc_run_result_new ();
  NscStep step = { 0 };
  NscStepResult *wrote, *read;
  g_autofree guint8 *buf = blocks (1);

  step.kind = NSC_STEP_SURFACE;
  nsc_job_init (&step.job);
  step.points = PLACES;
  step.job.block_size = PLACE_BLOCKS * U;
  step.job.read_percent = 0;
  step.job.data = NSC_DATA_VERIFY;
  wrote = nsc_step_result_new (&step);
  step.job.read_percent = 100;
  read = nsc_step_result_new (&step);
  read->step.job.region_length = SPAN;
  for (guint p = 0; p < PLACES; p++)
    {
      NscJobResult *w = g_new0 (NscJobResult, 1);
      NscJobResult *j;

      w->job = wrote->step.job;
      w->job.region_offset = p * STRIDE;
      w->job.region_length = PLACE_BLOCKS * U;
      w->dir[NSC_DIR_WRITE].bytes = PLACE_BLOCKS * U;
      nsc_verify_tally_init (&w->verify);
      g_ptr_array_add (wrote->runs, w);
      if (p >= read_places)
        continue;
      j = g_new0 (NscJobResult, 1);
      j->job = read->step.job;
      j->job.region_offset = p * STRIDE;
      j->job.region_length = PLACE_BLOCKS * U;
      j->verified = TRUE;
      nsc_verify_tally_init (&j->verify);
      for (guint b = 0; b < PLACE_BLOCKS; b++)
        {
          guint64 at = p * STRIDE + b * U;
          guint64 holds = drive (at);

          if (holds == G_MAXUINT64)
            memset (buf, 0, U);
          else
            nsc_verify_fill (buf, U, holds, KEY);
          nsc_verify_check (buf, U, at, KEY, &j->verify);
          nsc_verify_timed (&j->verify, at, 1000000);
        }
      g_ptr_array_add (read->runs, j);
    }
  g_ptr_array_add (r->steps, wrote);
  g_ptr_array_add (r->steps, read);
  nsc_run_result_analyze (r);
  *keep = json_node_ref (r->analysis);
  return json_object_get_object_member (json_node_get_object (*keep), "capacity");
}

static guint64 honest (guint64 o) { return o; }
/* Stores 420 KiB: place 4 (400–432 KiB) holds it part way (5 of 8 blocks), the rest
 * is lost. */
static guint64 drops (guint64 o) { return o < 420 * 1024 ? o : G_MAXUINT64; }
/* One block of place 3 lost, among good places. */
static guint64 one_bad (guint64 o) { return o == 3 * STRIDE + 2 * U ? G_MAXUINT64 : o; }
/* Wraps at 500 KiB: place 0 (0 KiB) was overwritten by place 5 (500 KiB). */
static guint64 wraps (guint64 o) { return o < 5 * STRIDE ? o + 5 * STRIDE : o; }

static void
test_places (void)
{
  g_autoptr(JsonNode) a = NULL, b = NULL, c = NULL, d = NULL, e = NULL, f = NULL;
  JsonObject *o;

  o = places_verdict (honest, PLACES, &a);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "sample-verified");
  g_assert_cmpstr (json_object_get_string_member (o, "coverage"), ==, "places");
  g_assert_cmpint (json_object_get_int_member (o, "places"), ==, PLACES);
  g_assert_cmpint (json_object_get_int_member (o, "checked_bytes"), ==, PLACES * PLACE_BLOCKS * U);
  g_assert_cmpint (json_object_get_int_member (o, "reported_bytes"), ==, SPAN);
  g_assert_cmpint (json_object_get_int_member (o, "slow_bytes"), ==, 0);

  o = places_verdict (drops, PLACES, &b);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "loses-writes");
  g_assert_cmpint (json_object_get_int_member (o, "usable_bytes"), ==, 420 * 1024);
  g_assert_cmpint (json_object_get_int_member (o, "first_bad_offset"), ==, 420 * 1024);

  o = places_verdict (one_bad, PLACES, &c);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "damaged");
  g_assert_cmpint (json_object_get_int_member (o, "bad_bytes"), ==, U);
  g_assert_cmpint (json_object_get_int_member (o, "first_bad_offset"), ==, 3 * STRIDE + 2 * U);

  o = places_verdict (wraps, PLACES, &d);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "wraps");
  g_assert_cmpint (json_object_get_int_member (o, "usable_bytes"), ==, 5 * STRIDE);

  /* A place not read back: not verified, whatever the others held. */
  o = places_verdict (honest, PLACES - 1, &e);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "not-verified");
  g_assert_false (json_object_get_boolean_member (o, "complete"));

  /* Written, and the run ended before any place was read back: not verified, with
   * nothing checked (no verdict at all was given before). */
  o = places_verdict (honest, 0, &f);
  g_assert_nonnull (o);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "not-verified");
  g_assert_cmpint (json_object_get_int_member (o, "checked_bytes"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "places"), ==, PLACES);
  g_assert_cmpint (json_object_get_int_member (o, "reported_bytes"), ==, (PLACES - 1) * STRIDE + PLACE_BLOCKS * U);
}

/* The capacity check (whole) that ended while it wrote: its read-back step never ran.
 * The result says not verified, nothing checked; without the checked write there is
 * no verdict at all. */
static void
test_whole_ended_in_write (void)
{
  g_autoptr(NscRunResult) r = nsc_run_result_new ();
  g_autoptr(NscRunResult) plain = nsc_run_result_new ();
  NscStep step = { 0 };
  NscStepResult *wrote;
  NscJobResult *w = g_new0 (NscJobResult, 1);
  JsonObject *o;

  step.kind = NSC_STEP_JOB;
  nsc_job_init (&step.job);
  step.job.block_size = 1 << 20;
  step.job.read_percent = 0;
  step.job.data = NSC_DATA_VERIFY;
  wrote = nsc_step_result_new (&step);
  w->job = step.job;
  w->job.region_length = 64 << 20;
  w->dir[NSC_DIR_WRITE].bytes = 20 << 20;
  w->error_errno = ENXIO;
  w->series = nsc_series_new (4096);
  nsc_verify_tally_init (&w->verify);
  g_ptr_array_add (wrote->runs, w);
  g_ptr_array_add (r->steps, wrote);
  nsc_run_result_analyze (r);
  o = json_object_get_object_member (json_node_get_object (r->analysis), "capacity");
  g_assert_nonnull (o);
  g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, "not-verified");
  g_assert_cmpstr (json_object_get_string_member (o, "coverage"), ==, "whole");
  g_assert_cmpint (json_object_get_int_member (o, "checked_bytes"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "reported_bytes"), ==, 64 << 20);

  nsc_run_result_analyze (plain);
  g_assert_false (json_object_has_member (json_node_get_object (plain->analysis), "capacity"));
}

/* --verify on every preset: each whole-region write-fill writes checked data and is
 * read back right after, with nothing between; a preset without one has nothing to
 * verify; the rest of the steps are untouched; the check itself stays as it is. */
static void
test_preset_with_verify (void)
{
  g_auto(GStrv) names = nsc_preset_list_names ();
  guint with = 0, surface = 0;

  for (guint i = 0; names[i]; i++)
    {
      g_autoptr(NscPreset) p = nsc_preset_lookup (names[i], NULL);
      g_autoptr(NscPreset) v = nsc_preset_with_verify (p);
      guint k = 0;

      g_assert_nonnull (p);
      if (v == NULL)
        {
          for (guint s = 0; s < p->steps->len; s++)
            g_assert_false (g_str_equal (g_array_index (p->steps, NscStep, s).analysis, "write-fill")
                            && g_array_index (p->steps, NscStep, s).job.once
                            && g_array_index (p->steps, NscStep, s).job.region_length == 0
                            && g_array_index (p->steps, NscStep, s).span_pct < 0);
          continue;
        }
      with++;
      for (guint s = 0; s < p->steps->len; s++, k++)
        {
          const NscStep *a = &g_array_index (p->steps, NscStep, s);
          const NscStep *b = &g_array_index (v->steps, NscStep, k);

          g_assert_cmpint (a->kind, ==, b->kind);
          g_assert_cmpstr (a->analysis, ==, b->analysis);
          if (a->job.data == NSC_DATA_VERIFY || b->job.data != NSC_DATA_VERIFY)
            continue;
          if (b->kind == NSC_STEP_SURFACE)
            {
              /* A surface scan's writes and its later read of the same places. */
              if (nsc_job_has_writes (&b->job))
                {
                  gboolean read_back = FALSE;

                  for (guint n = k + 1; n < v->steps->len; n++)
                    {
                      const NscStep *r = &g_array_index (v->steps, NscStep, n);

                      if (r->kind == NSC_STEP_SURFACE)
                        {
                          read_back = r->job.data == NSC_DATA_VERIFY && r->job.read_percent == 100
                                      && r->points == b->points && r->job.bytes == b->job.bytes;
                          break;
                        }
                    }
                  g_assert_true (read_back);
                  surface++;
                }
              else
                g_assert_cmpuint (b->job.read_percent, ==, 100);
              continue;
            }
          {
            const NscStep *r = &g_array_index (v->steps, NscStep, ++k);

            g_assert_true (nsc_job_has_writes (&b->job) && !nsc_job_has_reads (&b->job));
            g_assert_cmpstr (r->analysis, ==, "verify");
            g_assert_cmpint (r->job.data, ==, NSC_DATA_VERIFY);
            g_assert_cmpuint (r->job.read_percent, ==, 100);
            g_assert_cmpuint (r->job.block_size, ==, b->job.block_size);
            g_assert_cmpuint (r->job.region_length, ==, b->job.region_length);
            g_assert_true (r->job.once && r->no_strict && r->no_prefill && !r->stop.enabled);
          }
        }
      g_assert_cmpuint (k, ==, v->steps->len);
    }
  {
    g_autoptr(NscPreset) p = nsc_preset_lookup ("verify", NULL);
    g_autoptr(NscPreset) v = nsc_preset_with_verify (p);

    g_assert_cmpuint (v->steps->len, ==, p->steps->len);
  }
  /* write-fill and write-fill-twice at least, surface-write, and the check itself. */
  g_assert_cmpuint (with, >=, 3);
  g_assert_cmpuint (surface, >=, 1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/verify/kinds", test_kinds);
  g_test_add_func ("/nsc/verify/wrap", test_wrap);
  g_test_add_func ("/nsc/verify/drop-and-merge", test_drop_and_merge);
  g_test_add_func ("/nsc/verify/slow", test_slow);
  g_test_add_func ("/nsc/verify/places", test_places);
  g_test_add_func ("/nsc/verify/whole-ended-in-write", test_whole_ended_in_write);
  g_test_add_func ("/nsc/verify/preset-with-verify", test_preset_with_verify);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "nsc-engine.h"
#include "nsc-words.h"
#include "nsc-words-problem.h"

#define MIB 1048576.0
#define GIB 1073741824.0

/* A piece of a synthetic curve: speed goes linearly from @from_bps to @to_bps up to
 * @until bytes (the same for a flat piece). */
typedef struct
{
  double until;
  double from_bps;
  double to_bps;
} Piece;

typedef struct
{
  GArray *position;  /* guint64 */
  GArray *bps;       /* double */
  double  seconds;   /* true time of the whole fill */
} Curve;

static void
curve_free (Curve *c)
{
  g_array_unref (c->position);
  g_array_unref (c->bps);
  g_free (c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Curve, curve_free)

static double
piece_speed (const Piece *pieces,
             guint        k,
             double       p)
{
  double start = k > 0 ? pieces[k - 1].until : 0;
  double f = (p - start) / (pieces[k].until - start);

  return pieces[k].from_bps + (pieces[k].to_bps - pieces[k].from_bps) * f;
}

/* Writes through @pieces sampled every @interval_s, each sample's speed off by a
 * uniform ±@noise, then turns @n_outliers samples' readings to 10× or 0.1×. A step
 * inside an interval gives that sample a speed in between, as on a real drive. */
static Curve *
make_fill (const Piece *pieces,
           guint        n_pieces,
           double       interval_s,
           double       noise,
           guint        n_outliers,
           guint32      seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  Curve *c = g_new0 (Curve, 1);
  double total = pieces[n_pieces - 1].until, p = 0;
  guint k = 0;

  c->position = g_array_new (FALSE, FALSE, sizeof (guint64));
  c->bps = g_array_new (FALSE, FALSE, sizeof (double));
  while (p < total)
    {
      double factor = 1 + g_rand_double_range (rand, -noise, noise);
      double left = interval_s, p0 = p, dt;
      guint64 pos;

      while (left > 0 && p < total)
        {
          double v = piece_speed (pieces, k, p) * factor;
          double to_end = (pieces[k].until - p) / v;
          /* Ramps: small steps, so the speed follows the slope. */
          double step = pieces[k].from_bps != pieces[k].to_bps ? MIN (left, 0.05) : left;

          if (to_end <= step)
            {
              p = pieces[k].until;
              left -= to_end;
              if (k + 1 < n_pieces)
                k++;
            }
          else
            {
              p += v * step;
              left -= step;
            }
        }
      dt = interval_s - left;
      pos = (guint64) llround (p);
      if (c->position->len > 0 && pos <= g_array_index (c->position, guint64, c->position->len - 1))
        break;
      c->seconds += dt;
      g_array_append_val (c->position, pos);
      {
        double bps = (p - p0) / dt;
        g_array_append_val (c->bps, bps);
      }
    }
  for (guint i = 0; i < n_outliers; i++)
    {
      guint at = g_rand_int_range (rand, 0, c->bps->len);
      g_array_index (c->bps, double, at) *= g_rand_boolean (rand) ? 10 : 0.1;
    }
  return c;
}

static NscSlcAnalysis *
analyze (Curve *c)
{
  g_autoptr(GError) error = NULL;
  NscSlcAnalysis *a = nsc_analyze_write_fill ((guint64 *) c->position->data,
                                              (double *) c->bps->data,
                                              c->position->len, &error);
  g_assert_no_error (error);
  g_assert_nonnull (a);
  g_test_message ("%u samples: %s", c->position->len, a->summary);
  /* The front ends' words for it, made from the result's JSON, say the same (in
   * English here, as the untranslated program does). */
  {
    g_autoptr(JsonNode) node = nsc_slc_analysis_to_json (a);
    g_autofree char *words = nsc_words_slc_summary (json_node_get_object (node),
                                                    NSC_UNITS_MIB);
    g_assert_cmpstr (words, ==, a->summary);
  }
  return a;
}

/* |detected − truth| ≤ 5 % of the truth, and say how close it came. */
static void
assert_near (const char *what,
             double      truth,
             double      detected)
{
  double err = (detected - truth) / truth;

  g_test_message ("%-24s truth %14.0f  detected %14.0f  error %+.2f %%",
                  what, truth, detected, 100 * err);
  g_assert_cmpfloat (fabs (err), <=, 0.05);
}

static void
assert_phases_contiguous (const NscSlcAnalysis *a)
{
  g_assert_cmpuint (a->n_phases, >=, 1);
  g_assert_cmpuint (a->phases[0].start_bytes, ==, 0);
  for (guint i = 1; i < a->n_phases; i++)
    {
      g_assert_cmpuint (a->phases[i].start_bytes, ==, a->phases[i - 1].end_bytes);
      g_assert_cmpuint (a->phases[i].start_bytes, <, a->phases[i].end_bytes);
    }
  g_assert_cmpuint (a->phases[a->n_phases - 1].end_bytes, ==, a->total_bytes);
}

static void
assert_summary (const NscSlcAnalysis *a,
                const char           *pattern)
{
  if (!g_regex_match_simple (pattern, a->summary, 0, 0))
    g_error ("summary \"%s\" does not match /%s/", a->summary, pattern);
}

/* 000, Plextor M8Se 512 GB: ~970 MiB/s for 6.5 GiB, then ~470, sampled every 0.5 s. */
static void
test_fill_000 (void)
{
  const Piece pieces[] = {
    { 6.5 * GIB, 970 * MIB, 970 * MIB },
    { 512e9, 470 * MIB, 470 * MIB },
  };
  g_autoptr(Curve) c = make_fill (pieces, G_N_ELEMENTS (pieces), 0.5, 0.10, 12, 1);
  g_autoptr(NscSlcAnalysis) a = analyze (c);
  g_autoptr(JsonNode) node = NULL;
  JsonObject *o;
  JsonArray *phases;

  g_assert_true (a->has_cache);
  g_assert_cmpuint (a->n_phases, ==, 2);
  assert_phases_contiguous (a);
  assert_near ("000 cache bytes", 6.5 * GIB, a->cache_bytes);
  assert_near ("000 in-cache B/s", 970 * MIB, a->in_cache_bps);
  assert_near ("000 post-cache B/s", 470 * MIB, a->post_cache_bps);
  g_assert_cmpuint (a->total_bytes, ==, g_array_index (c->position, guint64, c->position->len - 1));
  assert_summary (a, "^SLC cache about 6\\.[3-7] GiB at 9[2-9][0-9] MiB/s; after it 4[4-9][0-9] MiB/s$");

  node = nsc_slc_analysis_to_json (a);
  o = json_node_get_object (node);
  g_assert_true (json_object_get_boolean_member (o, "has_cache"));
  g_assert_cmpint (json_object_get_int_member (o, "cache_bytes"), ==, (gint64) a->cache_bytes);
  g_assert_cmpfloat (json_object_get_double_member (o, "in_cache_bps"), ==, a->in_cache_bps);
  g_assert_cmpfloat (json_object_get_double_member (o, "post_cache_bps"), ==, a->post_cache_bps);
  g_assert_cmpfloat (json_object_get_double_member (o, "average_bps"), ==, a->average_bps);
  g_assert_cmpstr (json_object_get_string_member (o, "summary"), ==, a->summary);
  phases = json_object_get_array_member (o, "phases");
  g_assert_cmpuint (json_array_get_length (phases), ==, 2);
  o = json_array_get_object_element (phases, 1);
  g_assert_cmpint (json_object_get_int_member (o, "start_bytes"), ==, (gint64) a->cache_bytes);
  g_assert_cmpint (json_object_get_int_member (o, "end_bytes"), ==, (gint64) a->total_bytes);
  g_assert_cmpfloat (json_object_get_double_member (o, "bps"), ==, a->post_cache_bps);
}

/* The same sampled every 0.1 s: over 10 000 samples, segmented in blocks first. */
static void
test_fill_000_fine (void)
{
  const Piece pieces[] = {
    { 6.5 * GIB, 970 * MIB, 970 * MIB },
    { 512e9, 470 * MIB, 470 * MIB },
  };
  g_autoptr(Curve) c = make_fill (pieces, G_N_ELEMENTS (pieces), 0.1, 0.10, 60, 21);
  g_autoptr(NscSlcAnalysis) a = analyze (c);

  g_assert_cmpuint (c->position->len, >, 10000);
  g_assert_true (a->has_cache);
  g_assert_cmpuint (a->n_phases, ==, 2);
  assert_phases_contiguous (a);
  assert_near ("000/0.1 s cache bytes", 6.5 * GIB, a->cache_bytes);
  assert_near ("000/0.1 s in-cache B/s", 970 * MIB, a->in_cache_bps);
  assert_near ("000/0.1 s post-cache B/s", 470 * MIB, a->post_cache_bps);
}

/* 002, PNY CS3140 1 TB: 5.1 GB/s to 100 GB, ~1 GB/s, 620 MB/s over the last 15 %. */
static void
test_fill_002 (void)
{
  const Piece pieces[] = {
    { 100e9, 5.1e9, 5.1e9 },
    { 850e9, 1.0e9, 1.0e9 },
    { 1000e9, 0.62e9, 0.62e9 },
  };
  g_autoptr(Curve) c = make_fill (pieces, G_N_ELEMENTS (pieces), 0.5, 0.10, 20, 2);
  g_autoptr(NscSlcAnalysis) a = analyze (c);

  g_assert_true (a->has_cache);
  g_assert_cmpuint (a->n_phases, ==, 3);
  assert_phases_contiguous (a);
  assert_near ("002 cache bytes", 100e9, a->cache_bytes);
  assert_near ("002 in-cache B/s", 5.1e9, a->in_cache_bps);
  assert_near ("002 post-cache B/s", 1.0e9, a->post_cache_bps);
  assert_near ("002 third phase start", 850e9, a->phases[2].start_bytes);
  assert_near ("002 third phase B/s", 0.62e9, a->phases[2].bps);
  assert_summary (a, "^SLC cache about 9[0-9] GiB at 4[6-9][0-9][0-9] MiB/s; after it 9[0-9][0-9] MiB/s; "
                     "then 5[6-9][0-9] MiB/s for the last 1[3-4][0-9] GiB$");
}

/* 003, SM2262EN: dynamic cache, ~1.5 GB/s briefly, 1.31 GB/s until ~75 GB of a
 * 100 GB copy, then 520 MB/s direct to TLC. The 1.5 → 1.31 change is one phase. */
static void
test_fill_003 (void)
{
  const Piece pieces[] = {
    { 5e9, 1.5e9, 1.5e9 },
    { 75e9, 1.31e9, 1.31e9 },
    { 100e9, 0.52e9, 0.52e9 },
  };
  g_autoptr(Curve) c = make_fill (pieces, G_N_ELEMENTS (pieces), 0.5, 0.10, 6, 3);
  g_autoptr(NscSlcAnalysis) a = analyze (c);

  g_assert_true (a->has_cache);
  g_assert_cmpuint (a->n_phases, ==, 2);
  assert_phases_contiguous (a);
  assert_near ("003 cache bytes", 75e9, a->cache_bytes);
  assert_near ("003 in-cache B/s", 1.31e9, a->in_cache_bps);
  assert_near ("003 post-cache B/s", 0.52e9, a->post_cache_bps);
}

/* 004, Crucial P1 (QLC): a cache then slow; after an idle pause ~5.5 GB is fast again. */
static void
test_fill_004_recovery (void)
{
  const Piece fill[] = {
    { 12e9, 1.7e9, 1.7e9 },
    { 100e9, 0.18e9, 0.18e9 },
  };
  const Piece after_idle[] = {
    { 5.5e9, 1.7e9, 1.7e9 },
    { 30e9, 0.18e9, 0.18e9 },
  };
  g_autoptr(Curve) c = make_fill (fill, G_N_ELEMENTS (fill), 0.5, 0.10, 8, 4);
  g_autoptr(Curve) r = make_fill (after_idle, G_N_ELEMENTS (after_idle), 0.5, 0.10, 3, 40);
  g_autoptr(NscSlcAnalysis) a = analyze (c);
  g_autoptr(GError) error = NULL;
  guint64 fast = 0;
  double threshold;

  g_assert_true (a->has_cache);
  assert_near ("004 cache bytes", 12e9, a->cache_bytes);
  assert_near ("004 in-cache B/s", 1.7e9, a->in_cache_bps);
  assert_near ("004 post-cache B/s", 0.18e9, a->post_cache_bps);

  threshold = sqrt (a->in_cache_bps * a->post_cache_bps);
  g_assert_true (nsc_analyze_fast_bytes ((guint64 *) r->position->data, (double *) r->bps->data,
                                         r->position->len, threshold, &fast, &error));
  g_assert_no_error (error);
  assert_near ("004 fast after idle", 5.5e9, fast);

  /* All fast: everything counts; slow from the start: nothing does. */
  g_assert_true (nsc_analyze_fast_bytes ((guint64 *) r->position->data, (double *) r->bps->data,
                                         r->position->len, 0.01e9, &fast, &error));
  g_assert_cmpuint (fast, ==, g_array_index (r->position, guint64, r->position->len - 1));
  g_assert_true (nsc_analyze_fast_bytes ((guint64 *) r->position->data, (double *) r->bps->data,
                                         r->position->len, 20e9, &fast, &error));
  g_assert_cmpuint (fast, ==, 0);
}

/* A recovery step whose speed fell and climbed back: the drop its fast bytes end at
 * is not plainly the cache's end. A clean step, one slow from the start, and a blip
 * of fast samples too short to hold are not "back". */
static void
test_fast_back (void)
{
  const Piece dip[] = {
    { 2e9, 1.7e9, 1.7e9 },     /* fast */
    { 3e9, 0.18e9, 0.18e9 },   /* slow for 1 GB (about 11 samples) */
    { 6e9, 1.7e9, 1.7e9 },     /* fast again, 3 GB */
    { 20e9, 0.18e9, 0.18e9 },
  };
  const Piece clean[] = {
    { 5.5e9, 1.7e9, 1.7e9 },
    { 20e9, 0.18e9, 0.18e9 },
  };
  const Piece blip[] = {
    { 5.5e9, 1.7e9, 1.7e9 },
    { 10e9, 0.18e9, 0.18e9 },
    { 10.3e9, 1.7e9, 1.7e9 },  /* under half a second: one sample or two */
    { 20e9, 0.18e9, 0.18e9 },
  };
  const Piece slow[] = {
    { 20e9, 0.18e9, 0.18e9 },
  };
  const double threshold = sqrt (1.7e9 * 0.18e9);
  g_autoptr(Curve) d = make_fill (dip, G_N_ELEMENTS (dip), 0.5, 0.10, 0, 41);
  g_autoptr(Curve) c = make_fill (clean, G_N_ELEMENTS (clean), 0.5, 0.10, 3, 42);
  g_autoptr(Curve) b = make_fill (blip, G_N_ELEMENTS (blip), 0.5, 0.10, 0, 43);
  g_autoptr(Curve) z = make_fill (slow, G_N_ELEMENTS (slow), 0.5, 0.10, 3, 44);
  guint64 fast = 0, at = 0, bytes = 0;

  g_assert_true (nsc_analyze_fast_bytes ((guint64 *) d->position->data, (double *) d->bps->data,
                                         d->position->len, threshold, &fast, NULL));
  assert_near ("dip: fast bytes end at the dip", 2e9, fast);
  g_assert_true (nsc_analyze_fast_back ((guint64 *) d->position->data, (double *) d->bps->data,
                                        d->position->len, threshold, &at, &bytes));
  g_assert_cmpfloat (fabs ((double) at - 3e9), <, 0.2e9);
  g_assert_cmpfloat (fabs ((double) bytes - 3e9), <, 0.3e9);

  g_assert_false (nsc_analyze_fast_back ((guint64 *) c->position->data, (double *) c->bps->data,
                                         c->position->len, threshold, &at, &bytes));
  g_assert_cmpuint (at, ==, 0);
  g_assert_false (nsc_analyze_fast_back ((guint64 *) b->position->data, (double *) b->bps->data,
                                         b->position->len, threshold, NULL, NULL));
  g_assert_false (nsc_analyze_fast_back ((guint64 *) z->position->data, (double *) z->bps->data,
                                         z->position->len, threshold, NULL, NULL));
  /* Not a fill: no answer. */
  g_assert_false (nsc_analyze_fast_back (NULL, NULL, 0, threshold, &at, &bytes));
  g_assert_false (nsc_analyze_fast_back ((guint64 *) d->position->data, (double *) d->bps->data,
                                         d->position->len, 0, &at, &bytes));
}

/* The whole-fill average is bytes over time, so slow phases weigh by their time. */
static void
test_fill_average (void)
{
  const Piece pieces[] = {
    { 10e9, 2e9, 2e9 },
    { 100e9, 0.5e9, 0.5e9 },
  };
  g_autoptr(Curve) c = make_fill (pieces, G_N_ELEMENTS (pieces), 0.5, 0.10, 0, 5);
  g_autoptr(NscSlcAnalysis) a = analyze (c);
  double truth = g_array_index (c->position, guint64, c->position->len - 1) / c->seconds;

  /* 10 GB in 5 s, 90 GB in 180 s: 540 MB/s, where a mean of samples gives ~505. */
  g_assert_cmpfloat (fabs (a->average_bps - truth) / truth, <, 1e-3);
  g_assert_cmpfloat (fabs (a->average_bps - 100e9 / 185.0) / (100e9 / 185.0), <, 0.01);
}

static void
assert_no_cache (const Piece *pieces,
                 guint        n_pieces,
                 double       noise,
                 guint        n_outliers,
                 guint32      seed,
                 const char  *pattern)
{
  g_autoptr(Curve) c = make_fill (pieces, n_pieces, 0.5, noise, n_outliers, seed);
  g_autoptr(NscSlcAnalysis) a = analyze (c);
  g_autoptr(JsonNode) node = nsc_slc_analysis_to_json (a);
  JsonObject *o = json_node_get_object (node);

  g_assert_false (a->has_cache);
  g_assert_cmpuint (a->cache_bytes, ==, 0);
  g_assert_cmpfloat (a->in_cache_bps, ==, 0);
  assert_phases_contiguous (a);
  assert_summary (a, pattern);
  g_assert_false (json_object_get_boolean_member (o, "has_cache"));
  g_assert_true (json_object_get_null_member (o, "in_cache_bps"));
  g_assert_true (json_object_get_null_member (o, "post_cache_bps"));
  g_assert_true (json_object_get_null_member (o, "post_cache_avg_bps"));
  g_assert_true (json_object_get_null_member (o, "drop_cause"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "bursts")), ==, 0);
  g_assert_false (json_object_has_member (o, "throttle"));
}

static void
test_fill_flat (void)
{
  const Piece flat[] = { { 100e9, 470 * MIB, 470 * MIB } };

  /* Clean, ±10 % with outliers, ±25 % with many outliers. */
  assert_no_cache (flat, 1, 0, 0, 6, "^No SLC cache seen: 470 MiB/s throughout$");
  assert_no_cache (flat, 1, 0.10, 10, 7, "^No SLC cache seen: 4[6-7][0-9] MiB/s throughout$");
  assert_no_cache (flat, 1, 0.25, 40, 8, "^No SLC cache seen: 4[5-8][0-9] MiB/s throughout$");
}

static void
test_fill_sloping (void)
{
  const Piece gentle[] = { { 256e9, 500 * MIB, 420 * MIB } };
  const Piece steep[] = { { 256e9, 600 * MIB, 300 * MIB } };

  assert_no_cache (gentle, 1, 0.10, 5, 9, "^No SLC cache seen: 4[0-9][0-9] MiB/s throughout$");
  /* Halving over the fill is not a cache either: nowhere is there a step. */
  assert_no_cache (steep, 1, 0.10, 5, 10, "^No SLC cache seen: ");
}

/* A long dip the drive recovers from (garbage collection, say) is not a cache end. */
static void
test_fill_dip (void)
{
  const Piece dip[] = {
    { 40e9, 470 * MIB, 470 * MIB },
    { 42e9, 150 * MIB, 150 * MIB },
    { 100e9, 470 * MIB, 470 * MIB },
  };

  assert_no_cache (dip, G_N_ELEMENTS (dip), 0.10, 5, 11,
                   "^No SLC cache seen: 4[6-7][0-9] MiB/s at first; then 1[4-5][0-9] MiB/s "
                   "for 1\\.[8-9] GiB; then 4[6-7][0-9] MiB/s for the last 5[3-5] GiB$");
}

/* A recorded series, with stalls (samples that completed nothing) whose time must
 * still count in the average, and samples that took no measurable time (a starved
 * sampler) whose bytes must count with the next sample's. */
static void
test_fill_series (void)
{
  const Piece pieces[] = {
    { 6.5 * GIB, 970 * MIB, 970 * MIB },
    { 64 * GIB, 470 * MIB, 470 * MIB },
  };
  g_autoptr(Curve) c = make_fill (pieces, G_N_ELEMENTS (pieces), 0.5, 0.10, 0, 12);
  g_autoptr(NscSeries) series = nsc_series_new (100000);
  g_autoptr(NscSlcAnalysis) a = NULL;
  g_autoptr(GError) error = NULL;
  guint64 prev = 0;
  gint64 t = 0;
  double seconds = 0;

  for (guint i = 0; i < c->position->len; i++)
    {
      NscSample s = { 0 };
      guint64 pos = g_array_index (c->position, guint64, i);

      if (i % 100 == 50)
        {
          /* A 2 s stall. */
          t += 2000000000;
          s.t_ns = t;
          s.duration_ns = 2000000000;
          s.position = prev;
          nsc_series_append (series, &s);
          seconds += 2;
        }
      if (i % 100 == 70 && pos - prev > 8192)
        {
          /* Half of this sample's bytes, at the same instant as the sample before. */
          NscSample z = { 0 };
          guint64 half = prev + (pos - prev) / 2;

          z.t_ns = t;
          z.duration_ns = 0;
          z.bytes[NSC_DIR_WRITE] = half - prev;
          z.ios[NSC_DIR_WRITE] = 1;
          z.position = half;
          nsc_series_append (series, &z);
          s.bytes[NSC_DIR_WRITE] = pos - half;
          s.duration_ns = (gint64) llround ((pos - prev) / g_array_index (c->bps, double, i) * 1e9);
          t += s.duration_ns;
          s.t_ns = t;
          s.ios[NSC_DIR_WRITE] = 1;
          s.position = pos;
          nsc_series_append (series, &s);
          seconds += s.duration_ns / 1e9;
          prev = pos;
          continue;
        }
      s.duration_ns = (gint64) llround ((pos - prev) / g_array_index (c->bps, double, i) * 1e9);
      t += s.duration_ns;
      s.t_ns = t;
      s.bytes[NSC_DIR_WRITE] = pos - prev;
      s.ios[NSC_DIR_WRITE] = 1;
      s.position = pos;
      nsc_series_append (series, &s);
      seconds += s.duration_ns / 1e9;
      prev = pos;
    }
  nsc_series_finish (series);

  a = nsc_analyze_write_fill_series (series, &error);
  g_assert_no_error (error);
  g_assert_true (a->has_cache);
  assert_near ("series cache bytes", 6.5 * GIB, a->cache_bytes);
  assert_near ("series post-cache B/s", 470 * MIB, a->post_cache_bps);
  g_assert_cmpfloat (fabs (a->average_bps - prev / seconds) / (prev / seconds), <, 1e-6);
}

static void
assert_fill_error (const guint64 *position,
                   const double  *bps,
                   guint          n,
                   NscProblem     problem,
                   const char    *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NscSlcAnalysis) a = nsc_analyze_write_fill (position, bps, n, &error);
  g_autofree char *said = NULL;

  g_assert_null (a);
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (nsc_problem_name (nsc_error_get_problem (error)), ==, nsc_problem_name (problem));
  /* The engine holds no sentence; the words say it. */
  said = nsc_words_problem (problem, nsc_error_get_fields (error));
  if (strstr (said, fragment) == NULL)
    g_error ("\"%s\" does not say \"%s\"", said, fragment);
}

static void
test_fill_degenerate (void)
{
  guint64 pos[12];
  double bps[12];
  g_autoptr(GError) error = NULL;
  g_autoptr(NscSeries) empty = nsc_series_new (16);
  g_autoptr(NscSlcAnalysis) a = NULL;
  guint64 fast = 7;

  for (guint i = 0; i < 12; i++)
    {
      pos[i] = (i + 1) * 1000000;
      bps[i] = 2e6;
    }
  assert_fill_error (NULL, NULL, 0, NSC_PROBLEM_FILL_EMPTY, "empty");
  assert_fill_error (pos, bps, 5, NSC_PROBLEM_FILL_TOO_FEW, "Only 5 samples");
  assert_fill_error (pos, bps, 9, NSC_PROBLEM_FILL_TOO_FEW, "Only 9 samples");

  bps[3] = 0;
  assert_fill_error (pos, bps, 12, NSC_PROBLEM_FILL_SPEED, "Sample 3 has a speed of 0");
  bps[3] = NAN;
  assert_fill_error (pos, bps, 12, NSC_PROBLEM_FILL_SPEED, "Sample 3 has a speed");
  bps[3] = -1;
  assert_fill_error (pos, bps, 12, NSC_PROBLEM_FILL_SPEED, "Sample 3 has a speed");
  bps[3] = 2e6;

  pos[6] = pos[5];
  assert_fill_error (pos, bps, 12, NSC_PROBLEM_FILL_POSITION_ORDER, "Sample 6 ends at byte 6000000, not after");
  pos[6] = 1;
  assert_fill_error (pos, bps, 12, NSC_PROBLEM_FILL_POSITION_ORDER, "positions must increase");
  pos[6] = 7000000;
  pos[0] = 0;
  assert_fill_error (pos, bps, 12, NSC_PROBLEM_FILL_POSITION_ORDER, "Sample 0 ends at byte 0");
  pos[0] = 1000000;

  /* Sane now; flat. */
  a = nsc_analyze_write_fill (pos, bps, 12, &error);
  g_assert_no_error (error);
  g_assert_false (a->has_cache);
  g_assert_cmpstr (a->summary, ==, "No SLC cache seen: 1.9 MiB/s throughout");
  g_assert_cmpfloat (fabs (a->average_bps - 2e6), <, 1e-6);
  g_clear_pointer (&a, nsc_slc_analysis_free);

  a = nsc_analyze_write_fill_series (empty, &error);
  g_assert_null (a);
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_false (nsc_analyze_fast_bytes (NULL, NULL, 0, 1e6, &fast, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (fast, ==, 0);
  g_clear_error (&error);
  g_assert_false (nsc_analyze_fast_bytes (pos, bps, 12, 0, &fast, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (nsc_analyze_fast_bytes (pos, bps, 12, NAN, &fast, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  pos[4] = pos[3];
  g_assert_false (nsc_analyze_fast_bytes (pos, bps, 12, 1e6, &fast, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  pos[4] = 5000000;
  /* Short series are fine here: a recovery run may be short. */
  g_assert_true (nsc_analyze_fast_bytes (pos, bps, 3, 1e6, &fast, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fast, ==, 3000000);
}

static void
test_read_inflation (void)
{
  double ratio = -1;
  g_autofree char *msg = NULL;

  g_assert_true (nsc_read_inflation (3.1e9, 1.2e9, &ratio));
  g_assert_cmpfloat (fabs (ratio - 3.1 / 1.2), <, 1e-12);
  g_assert_false (nsc_read_inflation (1.2e9, 1.0e9, &ratio));
  g_assert_false (nsc_read_inflation (1.3e9, 1.0e9, &ratio));
  g_assert_true (nsc_read_inflation (1.31e9, 1.0e9, NULL));
  /* Faster settled reads are no inflation. */
  g_assert_false (nsc_read_inflation (1e9, 3e9, &ratio));
  g_assert_false (nsc_read_inflation (3e9, 0, &ratio));
  g_assert_cmpfloat (ratio, ==, 0);
  g_assert_false (nsc_read_inflation (NAN, 1e9, &ratio));
  g_assert_cmpfloat (ratio, ==, 0);

  msg = nsc_read_inflation_message (3.1e9, 1.2e9, 1);
  g_assert_cmpstr (msg, ==, "Read speed likely inflated by the SLC cache: 2956 MiB/s on data "
                            "written 1 s earlier, 1144 MiB/s on settled data");
  g_free (msg);
  msg = nsc_read_inflation_message (3.1e9, 1.2e9, -1);
  g_assert_cmpstr (msg, ==, "Read speed likely inflated by the SLC cache: 2956 MiB/s on freshly "
                            "written data, 1144 MiB/s on settled data");
}

static void
test_steady_state (void)
{
  /* Falls, then settles: the first window that passes both tests is rounds 4–8
   * (rounds 3–7 pass the range test but their fit still falls by 5.6, over 10 %). */
  const double settling[] = { 100, 80, 60, 50, 45, 44, 43, 44, 45, 44, 43 };
  const double constant[] = { 7, 7, 7, 7, 7, 7 };
  /* A steady climb: every range is fine (16 of 108), every fit excursion is not. */
  const double climbing[] = { 100, 104, 108, 112, 116, 120, 124, 128, 132 };
  /* A flat zigzag: the fit is level, the range (30 of 112) is not. */
  const double zigzag[] = { 100, 130, 100, 130, 100, 130, 100, 130 };
  /* Exactly at the limits: range 20 % of the mean, fit excursion 8 % of it. */
  const double edge[] = { 90, 110, 90, 110, 100 };
  const double beyond[] = { 89, 111, 89, 111, 100 };
  const double zeros[] = { 0, 0, 0, 0, 0, 0 };

  g_assert_cmpint (nsc_steady_state (settling, G_N_ELEMENTS (settling)), ==, 8);
  g_assert_cmpint (nsc_steady_state (settling, 8), ==, -1);
  g_assert_cmpint (nsc_steady_state (constant, G_N_ELEMENTS (constant)), ==, 4);
  g_assert_cmpint (nsc_steady_state (constant, 4), ==, -1);
  g_assert_cmpint (nsc_steady_state (climbing, G_N_ELEMENTS (climbing)), ==, -1);
  g_assert_cmpint (nsc_steady_state (zigzag, G_N_ELEMENTS (zigzag)), ==, -1);
  g_assert_cmpint (nsc_steady_state (edge, G_N_ELEMENTS (edge)), ==, 4);
  g_assert_cmpint (nsc_steady_state (beyond, G_N_ELEMENTS (beyond)), ==, -1);
  g_assert_cmpint (nsc_steady_state (zeros, G_N_ELEMENTS (zeros)), ==, -1);
  g_assert_cmpint (nsc_steady_state (NULL, 0), ==, -1);
}

/* 000's thermal test: full speed until 40 s, when the drive reaches 75 °C and halves
 * its speed; at 80 °C (90 s) it falls again, to ~68 MiB/s. One sample a second. */
typedef struct
{
  double t[180], bps[180], temp_t[180], celsius[180];
} Thermal;

static void
make_thermal (Thermal *th,
              gboolean steps,
              gboolean heats,
              double   heat_delay_s,
              guint32  seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);

  for (guint i = 0; i < 180; i++)
    {
      double t = i + 1, th_t = t - heat_delay_s, v, c;

      if (!steps || t <= 40)
        v = 940 * MIB;
      else if (t <= 90)
        v = 470 * MIB;
      else
        v = 68 * MIB;
      if (!heats)
        c = 50;
      else if (th_t <= 40)
        c = 45 + 30 * MAX (th_t, 0) / 40;
      else if (th_t <= 90)
        c = 75 + 5 * (th_t - 40) / 50;
      else
        c = 80 + 0.5 * sin (th_t / 7);
      th->t[i] = t;
      th->bps[i] = v * (1 + g_rand_double_range (rand, -0.1, 0.1));
      th->temp_t[i] = t;
      th->celsius[i] = c + g_rand_double_range (rand, -0.3, 0.3);
    }
  th->bps[20] *= 0.1;
  th->bps[130] *= 10;
}

static GArray *
throttling (const Thermal *th,
            const double  *thresholds,
            guint          n_thresholds,
            const double  *transitions,
            guint          n_transitions)
{
  g_autoptr(GError) error = NULL;
  NscThermalInput in = {
    th->t, th->bps, 180, th->temp_t, th->celsius, 180,
    thresholds, n_thresholds, transitions, n_transitions,
  };
  GArray *events = nsc_detect_throttling (&in, &error);

  g_assert_no_error (error);
  g_assert_nonnull (events);
  return events;
}

static void
assert_event (GArray           *events,
              guint             i,
              double            t,
              double            before,
              double            after,
              double            celsius,
              NscThrottleCause  cause)
{
  const NscThrottleEvent *ev = &g_array_index (events, NscThrottleEvent, i);

  g_test_message ("throttle %u: t %.1f s (truth %.0f), %.0f → %.0f MiB/s, %.1f °C",
                  i, ev->t_s, t, ev->bps_before / MIB, ev->bps_after / MIB, ev->celsius);
  g_assert_cmpfloat (fabs (ev->t_s - t), <=, 1.5);
  g_assert_cmpfloat (fabs (ev->bps_before - before) / before, <=, 0.05);
  g_assert_cmpfloat (fabs (ev->bps_after - after) / after, <=, 0.05);
  g_assert_cmpfloat (fabs (ev->celsius - celsius), <=, 1.0);
  g_assert_cmpint (ev->cause, ==, cause);
}

static void
test_throttling (void)
{
  const double thresholds[] = { 80, 75 };
  const double transitions[] = { 40.6, 90.3 };
  const double far_transitions[] = { 20, 140 };
  Thermal th;
  GArray *ev;

  make_thermal (&th, TRUE, TRUE, 0, 13);

  ev = throttling (&th, thresholds, 2, NULL, 0);
  g_assert_cmpuint (ev->len, ==, 2);
  assert_event (ev, 0, 40, 940 * MIB, 470 * MIB, 75, NSC_THROTTLE_CAUSE_THRESHOLD);
  assert_event (ev, 1, 90, 470 * MIB, 68 * MIB, 80, NSC_THROTTLE_CAUSE_THRESHOLD);
  g_assert_cmpfloat (g_array_index (ev, NscThrottleEvent, 0).threshold_celsius, ==, 75);
  g_assert_cmpfloat (g_array_index (ev, NscThrottleEvent, 1).threshold_celsius, ==, 80);
  g_array_unref (ev);

  ev = throttling (&th, NULL, 0, transitions, 2);
  g_assert_cmpuint (ev->len, ==, 2);
  assert_event (ev, 0, 40, 940 * MIB, 470 * MIB, 75, NSC_THROTTLE_CAUSE_COUNTER);
  assert_event (ev, 1, 90, 470 * MIB, 68 * MIB, 80, NSC_THROTTLE_CAUSE_COUNTER);
  g_assert_true (isnan (g_array_index (ev, NscThrottleEvent, 0).threshold_celsius));
  g_array_unref (ev);

  /* No thresholds known: the steps come at the peak of a rising temperature. */
  ev = throttling (&th, NULL, 0, NULL, 0);
  g_assert_cmpuint (ev->len, ==, 2);
  assert_event (ev, 0, 40, 940 * MIB, 470 * MIB, 75, NSC_THROTTLE_CAUSE_TEMPERATURE);
  assert_event (ev, 1, 90, 470 * MIB, 68 * MIB, 80, NSC_THROTTLE_CAUSE_TEMPERATURE);
  g_array_unref (ev);

  /* Transitions far from the steps explain nothing. */
  ev = throttling (&th, NULL, 0, far_transitions, 2);
  g_assert_cmpuint (ev->len, ==, 0);
  g_array_unref (ev);

  /* Flat speed while the temperature crosses both thresholds: no throttling. */
  make_thermal (&th, FALSE, TRUE, 0, 14);
  ev = throttling (&th, thresholds, 2, NULL, 0);
  g_assert_cmpuint (ev->len, ==, 0);
  g_array_unref (ev);
  ev = throttling (&th, NULL, 0, NULL, 0);
  g_assert_cmpuint (ev->len, ==, 0);
  g_array_unref (ev);

  /* Speed steps at a flat 50 °C: not thermal. */
  make_thermal (&th, TRUE, FALSE, 0, 15);
  ev = throttling (&th, thresholds, 2, NULL, 0);
  g_assert_cmpuint (ev->len, ==, 0);
  g_array_unref (ev);
  ev = throttling (&th, NULL, 0, NULL, 0);
  g_assert_cmpuint (ev->len, ==, 0);
  g_array_unref (ev);

  /* The temperature crosses the thresholds 20 s after each step: no coincidence. */
  make_thermal (&th, TRUE, TRUE, 20, 16);
  ev = throttling (&th, thresholds, 2, NULL, 0);
  g_assert_cmpuint (ev->len, ==, 0);
  g_array_unref (ev);
}

static void
test_throttling_degenerate (void)
{
  const double t[5] = { 1, 2, 3, 4, 5 }, bps[5] = { 1, 1, 1, 1, 1 };
  Thermal th;
  g_autoptr(GError) error = NULL;
  NscThermalInput in = { 0 };
  GArray *ev;

  ev = nsc_detect_throttling (&in, &error);
  g_assert_null (ev);
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  in.t_s = t;
  in.bps = bps;
  in.n = 5;
  g_assert_null (nsc_detect_throttling (&in, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_THROTTLE_TOO_FEW);
  g_clear_error (&error);

  make_thermal (&th, TRUE, TRUE, 0, 17);
  in.t_s = th.t;
  in.bps = th.bps;
  in.n = 180;
  th.t[50] = th.t[49];
  g_assert_null (nsc_detect_throttling (&in, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_SERIES_TIME_ORDER);
  g_assert_cmpint (nsc_error_get_fields (error)->n, ==, 50);
  g_assert_cmpint (nsc_error_get_fields (error)->n2, ==, NSC_ANALYSIS_SERIES_SPEED);
  g_clear_error (&error);
  th.t[50] = 51;
  th.bps[60] = 0;
  g_assert_null (nsc_detect_throttling (&in, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_THROTTLE_SPEED);
  g_clear_error (&error);
  th.bps[60] = 470 * MIB;
  in.temp_t_s = th.temp_t;
  in.celsius = th.celsius;
  in.n_temp = 180;
  th.temp_t[3] = 0;
  g_assert_null (nsc_detect_throttling (&in, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_SERIES_TIME_ORDER);
  {
    /* Which series it is, the words say. */
    g_autofree char *said = nsc_words_problem (NSC_PROBLEM_SERIES_TIME_ORDER,
                                               nsc_error_get_fields (error));
    g_assert_cmpstr (said, ==, "Temperature sample 3 is at 0 s, not after the previous one: "
                               "times must increase");
  }
  g_clear_error (&error);
  th.temp_t[3] = 4;

  /* Speed only, no temperature at all: steps are never called thermal. */
  in.n_temp = 0;
  ev = nsc_detect_throttling (&in, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ev->len, ==, 0);
  g_array_unref (ev);
}

/* A curve sampled every 8 MiB from pieces (end_bytes, bytes/s), with ±5 % noise. */
static void
piecewise (const double (*pieces)[2],
           guint          n_pieces,
           guint64      **pos,
           double       **bps,
           guint         *n)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  const guint64 step = 8u << 20;
  guint64 total = (guint64) pieces[n_pieces - 1][0];

  *n = (guint) (total / step);
  *pos = g_new (guint64, *n);
  *bps = g_new (double, *n);
  for (guint i = 0; i < *n; i++)
    {
      guint64 mid = i * step + step / 2;
      guint k = 0;

      while (k + 1 < n_pieces && mid >= pieces[k][0])
        k++;
      (*pos)[i] = (i + 1) * step;
      (*bps)[i] = pieces[k][1] * g_rand_double_range (rand, 0.95, 1.05);
    }
}

/* QEMU's throttled burst: a first instant at full speed (the queue filling), then
 * the burst, then the sustained rate. The instant is no cache; the burst is. */
static void
test_fill_startup_spike (void)
{
  static const double burst[][2] = { { 24e6, 1000e6 }, { 1250e6, 200e6 }, { 2147483648.0, 40e6 } };
  static const double flat[][2] = { { 16e6, 211 * 1048576.0 }, { 536870912.0, 100e6 } };
  static const double tail[][2] = { { 465e6, 100e6 }, { 536870912.0, 58e6 } };
  g_autofree guint64 *pos = NULL;
  g_autofree double *bps = NULL;
  g_autoptr(NscSlcAnalysis) a = NULL;
  g_autoptr(NscSlcAnalysis) b = NULL;
  g_autoptr(NscSlcAnalysis) c = NULL;
  guint n;

  piecewise (burst, G_N_ELEMENTS (burst), &pos, &bps, &n);
  a = nsc_analyze_write_fill (pos, bps, n, NULL);
  g_assert_true (a->has_cache);
  g_assert_cmpfloat (fabs ((double) a->cache_bytes - 1250e6) / 1250e6, <, 0.05);
  g_assert_cmpfloat (fabs (a->in_cache_bps - 200e6) / 200e6, <, 0.05);
  g_assert_cmpfloat (fabs (a->post_cache_bps - 40e6) / 40e6, <, 0.05);
  g_clear_pointer (&pos, g_free);
  g_clear_pointer (&bps, g_free);

  piecewise (flat, G_N_ELEMENTS (flat), &pos, &bps, &n);
  b = nsc_analyze_write_fill (pos, bps, n, NULL);
  g_assert_false (b->has_cache);
  g_clear_pointer (&pos, g_free);
  g_clear_pointer (&bps, g_free);

  /* A slowdown in the last second of a fill is too short to call. */
  piecewise (tail, G_N_ELEMENTS (tail), &pos, &bps, &n);
  c = nsc_analyze_write_fill (pos, bps, n, NULL);
  g_assert_false (c->has_cache);
}

/* A short slow stretch right after the cache is not the speed after it. */
static void
test_fill_post_cache_stretch (void)
{
  static const double curve[][2] = {
    { 1250e6, 200e6 }, { 1310e6, 30e6 }, { 2147483648.0, 40e6 },
  };
  g_autofree guint64 *pos = NULL;
  g_autofree double *bps = NULL;
  g_autoptr(NscSlcAnalysis) a = NULL;
  guint n;

  piecewise (curve, G_N_ELEMENTS (curve), &pos, &bps, &n);
  a = nsc_analyze_write_fill (pos, bps, n, NULL);
  g_assert_true (a->has_cache);
  g_assert_cmpfloat (fabs (a->post_cache_bps - 40e6) / 40e6, <, 0.05);
  g_assert_nonnull (strstr (a->summary, "mostly"));
}

/* A stall inside the cache, after which it runs fast again for a long while: a short
 * one (under 2 s and 3 % of the fill) is not the cache's end. A sustained one is: no
 * phase may hold 2 s or 3 % of the fill below ⅔ of its speed, so the fast stretch
 * after it is a burst, not more cache. */
static void
test_fill_dip_inside_cache (void)
{
  static const double brief[][2] = {
    { 400e6, 120e6 }, { 440e6, 30e6 }, { 1034e6, 120e6 }, { 2147483648.0, 40e6 },
  };
  static const double sustained[][2] = {
    { 400e6, 120e6 }, { 500e6, 30e6 }, { 1034e6, 120e6 }, { 2147483648.0, 40e6 },
  };
  g_autofree guint64 *pos = NULL;
  g_autofree double *bps = NULL;
  g_autoptr(NscSlcAnalysis) a = NULL;
  g_autoptr(NscSlcAnalysis) b = NULL;
  guint n;

  piecewise (brief, G_N_ELEMENTS (brief), &pos, &bps, &n);
  a = nsc_analyze_write_fill (pos, bps, n, NULL);
  g_test_message ("a stall of 1.3 s: %s", a->summary);
  g_assert_true (a->has_cache);
  assert_near ("brief stall: cache bytes", 1034e6, a->cache_bytes);
  assert_near ("brief stall: after it", 40e6, a->post_cache_bps);
  g_assert_cmpuint (a->n_bursts, ==, 0);
  g_clear_pointer (&pos, g_free);
  g_clear_pointer (&bps, g_free);

  piecewise (sustained, G_N_ELEMENTS (sustained), &pos, &bps, &n);
  b = nsc_analyze_write_fill (pos, bps, n, NULL);
  g_test_message ("a stall of 3.3 s: %s", b->summary);
  g_assert_true (b->has_cache);
  assert_near ("sustained stall: cache bytes", 400e6, b->cache_bytes);
  assert_near ("sustained stall: in the cache", 120e6, b->in_cache_bps);
  assert_near ("sustained stall: after it", 40e6, b->post_cache_bps);
  g_assert_cmpuint (b->n_bursts, ==, 1);
  assert_near ("sustained stall: burst bytes", 534e6, b->bursts[0].bytes);
}

/* A fill as the write-fill preset samples it: a sample closes every @interval_s or
 * every @sample_bytes, whichever comes first, over pieces (end_bytes, bytes/s); each
 * piece's speed off by a uniform ±@noise per sample. A sample that straddles a change
 * gets the speed in between, as on a drive. */
static void
sample_fill (const double (*pieces)[2],
             guint          n_pieces,
             double         sample_bytes,
             double         interval_s,
             double         noise,
             guint32        seed,
             guint64      **pos,
             double       **bps,
             guint         *n)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GArray) p = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) v = g_array_new (FALSE, FALSE, sizeof (double));
  double total = pieces[n_pieces - 1][0], at = 0;
  guint k = 0;

  while (at < total)
    {
      double factor = 1 + g_rand_double_range (rand, -noise, noise);
      double start = at, time = 0;
      guint64 end;

      while (at < total && at - start < sample_bytes && time < interval_s)
        {
          double speed = pieces[k][1] * factor;
          double limit = MIN (pieces[k][0], MIN (start + sample_bytes, at + speed * (interval_s - time)));

          /* Within a rounding error of the sample's end: the sample is done. */
          if (limit <= at)
            break;
          time += (limit - at) / speed;
          at = limit;
          if (at >= pieces[k][0] && k + 1 < n_pieces)
            k++;
          if (interval_s - time < 1e-12)
            break;
        }
      end = (guint64) llround (at);
      if (p->len > 0 && end <= g_array_index (p, guint64, p->len - 1))
        break;
      g_array_append_val (p, end);
      {
        double speed = (at - start) / time;
        g_array_append_val (v, speed);
      }
    }
  *n = p->len;
  *pos = g_memdup2 (p->data, p->len * sizeof (guint64));
  *bps = g_memdup2 (v->data, v->len * sizeof (double));
}

/* The preset's sample size for a fill of @amount: 1 GiB or amount / 256. */
static double
preset_sample_bytes (double amount)
{
  return MIN (GIB, amount / 256);
}

/* Bytes over time of the part of @pieces after @from. */
static double
pieces_avg_after (const double (*pieces)[2],
                  guint          n_pieces,
                  double         from)
{
  double bytes = 0, time = 0, start = 0;

  for (guint k = 0; k < n_pieces; k++)
    {
      double lo = MAX (start, from), hi = pieces[k][0];

      if (hi > lo)
        {
          bytes += hi - lo;
          time += (hi - lo) / pieces[k][1];
        }
      start = pieces[k][0];
    }
  return bytes / time;
}

/* Small caches on fast drives last well under 2 s: a 128 GB drive's ~1.5 GB (the
 * preset samples every 0.5 s or 500 MB there) and a PCIe 4.0 drive's 1.5 GB emptied
 * at 6.5 GB/s in 0.23 s, sampled every 256 MiB (in 1 GiB samples it would be 1.4
 * samples: below what any sampling resolves). */
static void
test_fill_short_cache (void)
{
  static const double small[][2] = { { 1.5e9, 900e6 }, { 128e9, 160e6 } };
  static const double fast[][2] = { { 1.5e9, 6.5e9 }, { 256e9, 1.4e9 } };
  static const struct { const double (*curve)[2]; double sample_bytes; } cases[] = {
    { small, 128e9 / 256 }, { fast, 256 * MIB },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint32 seed = 1; seed <= 5; seed++)
      {
        g_autofree guint64 *pos = NULL;
        g_autofree double *bps = NULL;
        g_autoptr(NscSlcAnalysis) a = NULL;
        guint n;

        sample_fill (cases[c].curve, 2, cases[c].sample_bytes, 0.5, 0.05, seed,
                     &pos, &bps, &n);
        a = nsc_analyze_write_fill (pos, bps, n, NULL);
        g_test_message ("%u samples: %s", n, a->summary);
        g_assert_true (a->has_cache);
        g_assert_cmpint (a->drop_cause, ==, NSC_DROP_CACHE_END);
        assert_near ("short cache bytes", 1.5e9, a->cache_bytes);
        assert_near ("short in-cache B/s", cases[c].curve[0][1], a->in_cache_bps);
        assert_near ("short post-cache B/s", cases[c].curve[1][1], a->post_cache_bps);
        g_assert_cmpuint (a->n_bursts, ==, 0);
      }
}

/* What the start-of-queue guard must still refuse: a buffer's worth at the start,
 * in fine samples (16 MiB) and coarse ones (the first 1 GiB sample a little fast
 * from the queue filling the drive's DRAM). */
static void
test_fill_buffer_is_no_cache (void)
{
  static const double buffer[][2] = { { 96 * MIB, 3e9 }, { 64e9, 1e9 } };
  static const double queue[][2] = { { 64 * MIB, 20e9 }, { 500e9, 2e9 } };
  g_autofree guint64 *pos = NULL;
  g_autofree double *bps = NULL;
  g_autoptr(NscSlcAnalysis) a = NULL;
  g_autoptr(NscSlcAnalysis) b = NULL;
  guint n;

  sample_fill (buffer, 2, 16 * MIB, 0.5, 0.05, 3, &pos, &bps, &n);
  a = nsc_analyze_write_fill (pos, bps, n, NULL);
  g_test_message ("%u samples: %s", n, a->summary);
  g_assert_false (a->has_cache);
  g_assert_cmpint (a->drop_cause, ==, NSC_DROP_NONE);
  g_clear_pointer (&pos, g_free);
  g_clear_pointer (&bps, g_free);

  sample_fill (queue, 2, GIB, 0.5, 0.05, 4, &pos, &bps, &n);
  b = nsc_analyze_write_fill (pos, bps, n, NULL);
  g_test_message ("%u samples: %s", n, b->summary);
  g_assert_false (b->has_cache);
}

/* After a 10 GB cache, a drive that frees cache in bursts while writing: three fast
 * stretches of 2–2.3 s between slow ones. The cache is the first; the rest are
 * bursts (a burst must span 5 samples to be seen: shorter ones count in the average). */
static void
test_fill_sawtooth (void)
{
  static const double curve[][2] = {
    { 10e9, 3e9 },
    { 25e9, 420e6 }, { 31e9, 2.8e9 },
    { 46e9, 420e6 }, { 51e9, 2.5e9 },
    { 66e9, 420e6 }, { 73e9, 3e9 },
    { 120e9, 420e6 },
  };
  static const double burst_truth[][3] = {
    { 25e9, 6e9, 2.8e9 }, { 46e9, 5e9, 2.5e9 }, { 66e9, 7e9, 3e9 },
  };
  g_autofree guint64 *pos = NULL;
  g_autofree double *bps = NULL;
  g_autoptr(NscSlcAnalysis) a = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *o;
  JsonArray *bursts;
  guint n;

  /* 120 GB: 469 MB samples, or 0.5 s. */
  sample_fill (curve, G_N_ELEMENTS (curve), preset_sample_bytes (120e9), 0.5, 0.05, 7, &pos, &bps, &n);
  a = nsc_analyze_write_fill (pos, bps, n, NULL);
  g_test_message ("%u samples: %s", n, a->summary);
  g_assert_true (a->has_cache);
  assert_near ("sawtooth cache bytes", 10e9, a->cache_bytes);
  assert_near ("sawtooth in-cache B/s", 3e9, a->in_cache_bps);
  assert_near ("sawtooth post-cache B/s", 420e6, a->post_cache_bps);
  assert_near ("sawtooth post-cache avg", pieces_avg_after (curve, G_N_ELEMENTS (curve), 10e9),
               a->post_cache_avg_bps);
  g_assert_cmpuint (a->n_bursts, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_test_message ("burst %u: at %.2f GB, %.2f GB, %.2f GB/s (truth %.2f, %.2f, %.2f)", i,
                      a->bursts[i].start_bytes / 1e9, a->bursts[i].bytes / 1e9, a->bursts[i].bps / 1e9,
                      burst_truth[i][0] / 1e9, burst_truth[i][1] / 1e9, burst_truth[i][2] / 1e9);
      assert_near ("burst start", burst_truth[i][0], a->bursts[i].start_bytes);
      assert_near ("burst bytes", burst_truth[i][1], a->bursts[i].bytes);
      assert_near ("burst B/s", burst_truth[i][2], a->bursts[i].bps);
    }
  assert_summary (a, "^SLC cache about 9\\.[2-4] GiB at 2[7-9][0-9][0-9] MiB/s; after it mostly "
                     "(39|40)[0-9] MiB/s, with 3 later bursts at up to 2[7-9][0-9][0-9] MiB/s "
                     "\\(1[6-7] GiB in all\\): 4[5-8][0-9] MiB/s on average$");

  node = nsc_slc_analysis_to_json (a);
  o = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (o, "drop_cause"), ==, "cache-end");
  g_assert_cmpfloat (json_object_get_double_member (o, "post_cache_avg_bps"), ==, a->post_cache_avg_bps);
  g_assert_false (json_object_has_member (o, "throttle"));
  bursts = json_object_get_array_member (o, "bursts");
  g_assert_cmpuint (json_array_get_length (bursts), ==, 3);
  o = json_array_get_object_element (bursts, 2);
  g_assert_cmpint (json_object_get_int_member (o, "start_bytes"), ==, (gint64) a->bursts[2].start_bytes);
  g_assert_cmpint (json_object_get_int_member (o, "bytes"), ==, (gint64) a->bursts[2].bytes);
  g_assert_cmpfloat (json_object_get_double_member (o, "bps"), ==, a->bursts[2].bps);
}

/* The shape of a drive whose bursts hold more bytes than the slow stretches between
 * them: the speed after the cache is still the slow one, and the first burst, shorter
 * than the slow stretch before it, does not make that stretch a dip in the cache. */
static void
test_fill_sawtooth_long_bursts (void)
{
  static const double curve[][2] = {
    { 4e9, 2e9 },
    { 6.5e9, 300e6 }, { 8e9, 1.9e9 },
    { 10.5e9, 300e6 }, { 13.5e9, 1.8e9 },
    { 16e9, 300e6 },
  };
  g_autofree guint64 *pos = NULL;
  g_autofree double *bps = NULL;
  g_autoptr(NscSlcAnalysis) a = NULL;
  guint n;

  sample_fill (curve, G_N_ELEMENTS (curve), 64 * MIB, 0.5, 0.05, 9, &pos, &bps, &n);
  a = nsc_analyze_write_fill (pos, bps, n, NULL);
  g_test_message ("%u samples: %s", n, a->summary);
  g_assert_true (a->has_cache);
  assert_near ("long bursts cache bytes", 4e9, a->cache_bytes);
  assert_near ("long bursts post-cache B/s", 300e6, a->post_cache_bps);
  g_assert_cmpuint (a->n_bursts, ==, 2);
  assert_near ("long burst 2 bytes", 3e9, a->bursts[1].bytes);
  assert_near ("long burst 2 B/s", 1.8e9, a->bursts[1].bps);
}

/* A cache with a second step after it (SLC, then TLC, then direct-to-QLC) has no
 * bursts: each phase is slower than the last. */
static void
test_fill_second_step_no_bursts (void)
{
  static const double curve[][2] = { { 3e9, 2e9 }, { 20e9, 900e6 }, { 80e9, 150e6 } };
  g_autofree guint64 *pos = NULL;
  g_autofree double *bps = NULL;
  g_autoptr(NscSlcAnalysis) a = NULL;
  guint n;

  sample_fill (curve, G_N_ELEMENTS (curve), preset_sample_bytes (80e9), 0.5, 0.05, 8, &pos, &bps, &n);
  a = nsc_analyze_write_fill (pos, bps, n, NULL);
  g_test_message ("%u samples: %s", n, a->summary);
  g_assert_true (a->has_cache);
  assert_near ("step cache bytes", 3e9, a->cache_bytes);
  g_assert_cmpuint (a->n_phases, ==, 3);
  assert_near ("step second start", 20e9, a->phases[2].start_bytes);
  assert_near ("step second B/s", 150e6, a->phases[2].bps);
  g_assert_cmpuint (a->n_bursts, ==, 0);
}

/* The drive's dynamic cache shrinks as it fills: on 1 TB with 20 % free (a fill of
 * 200 GB, 781 MB samples) a 2 GB cache at 5 GB/s is 2.6 samples and 0.4 s long. */
static void
test_fill_dynamic_cache (void)
{
  static const double curve[][2] = { { 2e9, 5e9 }, { 200e9, 800e6 } };

  for (guint32 seed = 1; seed <= 8; seed++)
    {
      g_autofree guint64 *pos = NULL;
      g_autofree double *bps = NULL;
      g_autoptr(NscSlcAnalysis) a = NULL;
      guint n;

      sample_fill (curve, 2, preset_sample_bytes (200e9), 0.5, 0.05, seed, &pos, &bps, &n);
      a = nsc_analyze_write_fill (pos, bps, n, NULL);
      g_test_message ("%u samples: %s", n, a->summary);
      g_assert_true (a->has_cache);
      assert_near ("dynamic cache bytes", 2e9, a->cache_bytes);
      assert_near ("dynamic in-cache B/s", 5e9, a->in_cache_bps);
      assert_near ("dynamic post-cache B/s", 800e6, a->post_cache_bps);
    }
}

/* A fill sampled every 0.5 s at 1.5 GB/s until the drive reaches 75 °C at ~40 s, then
 * 500 MB/s. With the drive's threshold at 75 °C the drop is throttling; with the
 * temperature crossing it 30 s later, or no threshold known, it is the cache's end. */
static void
test_fill_thermal (void)
{
  static const double curve[][2] = { { 60e9, 1.5e9 }, { 120e9, 500e6 } };
  const double threshold = 75;
  g_autofree guint64 *pos = NULL;
  g_autofree double *bps = NULL;
  g_autofree double *t = NULL;
  double temp_t[200], celsius[200], late[200];
  NscFillTemperature temp = { 0 };
  g_autoptr(NscSlcAnalysis) a = NULL;
  g_autoptr(NscSlcAnalysis) b = NULL;
  g_autoptr(NscSlcAnalysis) c = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *o, *thr;
  double clock = 0.3;  /* the job starts a little after the step */
  guint n;

  sample_fill (curve, 2, preset_sample_bytes (120e9), 0.5, 0.05, 12, &pos, &bps, &n);
  t = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      clock += (pos[i] - (i ? pos[i - 1] : 0)) / bps[i];
      t[i] = clock;
    }
  /* One reading a second: 45 °C rising to 75 °C at 40.3 s, then held near it (the
   * drive throttles to stay there); or the same rise stretched to reach it at 70 s. */
  for (guint i = 0; i < 200; i++)
    {
      temp_t[i] = i + 0.5;
      celsius[i] = MIN (45 + 30 * temp_t[i] / 40.3, 75.4 + 0.3 * sin (i));
      late[i] = MIN (45 + 30 * temp_t[i] / 70.3, 75.4 + 0.3 * sin (i));
    }
  temp.t_s = t;
  temp.temp_t_s = temp_t;
  temp.celsius = celsius;
  temp.n_temp = 200;
  temp.thresholds_c = &threshold;
  temp.n_thresholds = 1;

  a = nsc_analyze_write_fill_thermal (pos, bps, n, &temp, NULL);
  g_test_message ("%u samples: %s", n, a->summary);
  g_assert_false (a->has_cache);
  g_assert_cmpint (a->drop_cause, ==, NSC_DROP_THERMAL);
  g_assert_cmpuint (a->cache_bytes, ==, 0);
  assert_near ("throttle bytes", 60e9, a->throttle_bytes);
  assert_near ("throttle B/s before", 1.5e9, a->throttle_bps_before);
  assert_near ("throttle B/s after", 500e6, a->throttle_bps_after);
  g_assert_cmpfloat (fabs (a->throttle_t_s - 40.3), <=, 1.0);
  g_assert_cmpfloat (fabs (a->throttle_celsius - 75), <=, 1.0);
  g_assert_cmpfloat (a->throttle_threshold_c, ==, 75);
  assert_summary (a, "^No SLC cache end seen: the speed fell from 14[0-9][0-9] MiB/s to 4[6-9][0-9] "
                     "MiB/s after 5[5-6] GiB as the drive reached 75 °C \\(its 75 °C throttle "
                     "threshold\\): thermal throttling, not the cache's end$");
  node = nsc_slc_analysis_to_json (a);
  o = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (o, "drop_cause"), ==, "thermal-throttling");
  g_assert_false (json_object_get_boolean_member (o, "has_cache"));
  g_assert_true (json_object_get_null_member (o, "post_cache_avg_bps"));
  thr = json_object_get_object_member (o, "throttle");
  g_assert_cmpint (json_object_get_int_member (thr, "bytes"), ==, (gint64) a->throttle_bytes);
  g_assert_cmpfloat (json_object_get_double_member (thr, "threshold_celsius"), ==, 75);
  g_assert_cmpfloat (json_object_get_double_member (thr, "celsius"), ==, a->throttle_celsius);

  /* The crossing 30 s after the drop: the drop is the cache's end. */
  temp.celsius = late;
  b = nsc_analyze_write_fill_thermal (pos, bps, n, &temp, NULL);
  g_test_message ("late crossing: %s", b->summary);
  g_assert_true (b->has_cache);
  g_assert_cmpint (b->drop_cause, ==, NSC_DROP_CACHE_END);
  assert_near ("late crossing cache bytes", 60e9, b->cache_bytes);

  /* No threshold known: a warming drive's cache end looks alike; not called thermal. */
  temp.celsius = celsius;
  temp.n_thresholds = 0;
  c = nsc_analyze_write_fill_thermal (pos, bps, n, &temp, NULL);
  g_assert_true (c->has_cache);
  g_assert_cmpint (c->drop_cause, ==, NSC_DROP_CACHE_END);

  /* Bad temperature input is refused with a reason. */
  {
    g_autoptr(GError) error = NULL;
    double bad[200];

    memcpy (bad, celsius, sizeof bad);
    bad[3] = NAN;
    temp.celsius = bad;
    temp.n_thresholds = 1;
    g_assert_null (nsc_analyze_write_fill_thermal (pos, bps, n, &temp, &error));
    g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  }
}

/* A job step of @tag over pieces (end_bytes, bytes/s), sampled as the preset does. */
static NscStepResult *
pieces_step (const char          *tag,
             const double       (*curve)[2],
             guint                n_pieces,
             guint32              seed)
{
  NscStep step = { 0 };
  NscStepResult *sr;
  NscJobResult *job = g_new0 (NscJobResult, 1);
  g_autofree guint64 *pos = NULL;
  g_autofree double *bps = NULL;
  gint64 t = 0;
  guint n;

  step.kind = NSC_STEP_JOB;
  nsc_job_init (&step.job);
  g_strlcpy (step.job.label, tag, sizeof step.job.label);
  g_strlcpy (step.analysis, tag, sizeof step.analysis);
  sr = nsc_step_result_new (&step);
  sample_fill (curve, n_pieces, preset_sample_bytes (curve[n_pieces - 1][0]), 0.5, 0.05, seed,
               &pos, &bps, &n);
  job->job = step.job;
  job->series = nsc_series_new (4096);
  for (guint i = 0; i < n; i++)
    {
      NscSample x = { 0 };
      guint64 b = pos[i] - (i ? pos[i - 1] : 0);

      x.duration_ns = (gint64) llround (b / bps[i] * 1e9);
      t += x.duration_ns;
      x.t_ns = t;
      x.bytes[NSC_DIR_WRITE] = b;
      x.ios[NSC_DIR_WRITE] = b >> 20;
      x.position = pos[i];
      nsc_series_append (job->series, &x);
    }
  nsc_series_finish (job->series);
  job->runtime_ns = t;
  job->dir[NSC_DIR_WRITE].bytes = pos[n - 1];
  job->dir[NSC_DIR_WRITE].bw_bps = pos[n - 1] * 1e9 / t;
  g_ptr_array_add (sr->runs, job);
  return sr;
}

/* The run's analysis hands the fill step's temperature and the drive's WCTEMP to the
 * write-fill analysis: a drop as the drive reaches it is reported as throttling,
 * with a warning on the step; without the threshold it is the cache's end. */
static NscRunResult *
thermal_fill_run (gboolean with_threshold)
{
  static const double curve[][2] = { { 60e9, 1.5e9 }, { 120e9, 500e6 } };
  NscRunResult *r = nsc_run_result_new ();
  NscStepResult *sr = pieces_step ("write-fill", curve, 2, 12);

  g_ptr_array_add (r->steps, sr);
  /* 45 °C rising to 75 °C at the drop (~40 s), then held there. */
  for (guint i = 0; i < 150; i++)
    {
      NscTempSample ts = { (gint64) i * 1000000000 + 500000000, 0 };
      double at = ts.t_ns / 1e9;

      ts.celsius = MIN (45 + 30 * at / 40.2, 75.4);
      g_array_append_val (sr->temperature, ts);
    }
  nsc_run_result_set_device (r, json_from_string (with_threshold
                                                  ? "{\"nvme\": {\"identify\": {\"wctemp_c\": 75.0, \"cctemp_c\": 85.0}}}"
                                                  : "{\"nvme\": {\"identify\": {\"wctemp_c\": null}}}", NULL));
  nsc_run_result_analyze (r);
  return r;
}

static void
test_fill_thermal_run (void)
{
  for (guint with = 0; with < 2; with++)
    {
      g_autoptr(NscRunResult) r = thermal_fill_run (with);
      JsonObject *slc = json_object_get_object_member (json_node_get_object (r->analysis), "slc");
      const NscWarning *w = NULL;

      for (guint i = 0; i < r->warnings->len; i++)
        {
          const NscWarning *c = g_ptr_array_index (r->warnings, i);
          if (g_str_equal (c->code, "thermal-throttling"))
            w = c;
        }
      g_test_message ("%s threshold: %s", with ? "with" : "without",
                      json_object_get_string_member (slc, "summary"));
      if (with)
        {
          JsonObject *thr = json_object_get_object_member (slc, "throttle");

          g_assert_cmpstr (json_object_get_string_member (slc, "drop_cause"), ==, "thermal-throttling");
          g_assert_false (json_object_get_boolean_member (slc, "has_cache"));
          g_assert_cmpfloat (json_object_get_double_member (thr, "threshold_celsius"), ==, 75);
          assert_near ("run throttle bytes", 60e9, json_object_get_int_member (thr, "bytes"));
          g_assert_nonnull (w);
          g_test_message ("warning: %s", w->message);
          g_assert_cmpint (w->step, ==, 0);
          g_assert_nonnull (strstr (w->message, "not the end of the SLC cache"));
        }
      else
        {
          g_assert_cmpstr (json_object_get_string_member (slc, "drop_cause"), ==, "cache-end");
          g_assert_true (json_object_get_boolean_member (slc, "has_cache"));
          g_assert_null (w);
        }
    }
}

/* ---- a family of drive models ------------------------------------------------------ */

static int
cmp_error (const void *a,
           const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The write side of a drive drawn at random over realistic ranges: a cache at its own
 * speed, then, by family, one slow speed (clean), two steps (three-phase), or slow
 * stretches and bursts back near the cache's speed with a burst share of the bytes
 * from 20 to 80 % (sawtooth); or no cache at all (flat); a clean drive that reaches
 * its throttle temperature as the cache ends, or 12 to 40 s apart from it (thermal);
 * a clean drive behind this machine's memory (memory). Sampled as the write-fill
 * preset samples (every 0.5 s or 1/256 of the fill), with ±noise per sample. */
typedef enum
{
  FAMILY_CLEAN, FAMILY_THREE_PHASE, FAMILY_SAWTOOTH, FAMILY_FLAT, FAMILY_THERMAL, FAMILY_MEMORY,
  N_FAMILIES
} Family;

static const char *const family_names[] = { "clean", "three-phase", "sawtooth", "flat", "thermal",
                                            "memory" };

typedef struct
{
  Family family;
  double pieces[64][2];  /* end bytes, bytes/s */
  guint  n_pieces;
  double total;
  double cache_bytes;    /* the first sustained drop; 0 for flat */
  double cache_bps;
  double bursts[32][3];  /* start, bytes, bytes/s of each burst after the cache */
  guint  n_bursts;
  /* thermal: the throttle temperature, and whether it is reached as the cache ends
   * (else 12 to 40 s before or after) */
  double threshold_c;
  gboolean coincide;
  double apart_s;
  /* memory: the first cache_bytes at cache_bps are this machine's memory; the drive's
   * own cache after it */
  double drive_cache_bytes;
} DriveModel;

static void
model_add (DriveModel *m,
           double      bytes,
           double      bps)
{
  double end = (m->n_pieces > 0 ? m->pieces[m->n_pieces - 1][0] : 0) + bytes;

  g_assert_cmpuint (m->n_pieces, <, G_N_ELEMENTS (m->pieces));
  m->pieces[m->n_pieces][0] = end;
  m->pieces[m->n_pieces][1] = bps;
  m->n_pieces++;
}

static void
model_draw (DriveModel *m,
            Family      family,
            GRand      *rand)
{
  double total = g_rand_double_range (rand, 16e9, 240e9);
  double sample = MIN (GIB, total / 256);
  double v = g_rand_double_range (rand, 0.5e9, 7e9);
  double slow = v * g_rand_double_range (rand, 0.08, 0.6);
  /* At least 6 samples of cache (what the segmentation can resolve, with room for a
   * sample that straddles the drop), at most 40 % of the fill. */
  double cache = g_rand_double_range (rand, MAX (6 * sample, 6 * 0.5 * v), MAX (6.5 * sample, 0.4 * total));

  memset (m, 0, sizeof *m);
  m->family = family;
  m->total = total;
  if (family == FAMILY_FLAT)
    {
      model_add (m, total, v);
      return;
    }
  cache = MIN (cache, 0.5 * total);
  if (family == FAMILY_THERMAL)
    {
      m->threshold_c = g_rand_double_range (rand, 70, 85);
      m->coincide = g_rand_boolean (rand);
      m->apart_s = g_rand_double_range (rand, 12, 40) * (g_rand_boolean (rand) ? 1 : -1);
    }
  else if (family == FAMILY_MEMORY)
    {
      /* The dirty page cache: 0.5 to 8 GB (6 samples or more, at most 30 % of the fill)
       * at twice the drive's cache speed or more, up to 12 GB/s. */
      double mem_bytes = g_rand_double_range (rand, 0.5e9, 8e9);
      double mem_bps = g_rand_double_range (rand, MIN (2 * v, 12e9), MAX (2 * v, 12e9));

      mem_bytes = MIN (MAX (mem_bytes, 6.5 * sample), 0.3 * total);
      m->cache_bytes = mem_bytes;
      m->cache_bps = mem_bps;
      m->drive_cache_bytes = MIN (cache, 0.5 * (total - mem_bytes));
      model_add (m, mem_bytes, mem_bps);
      model_add (m, m->drive_cache_bytes, v);
      model_add (m, total - mem_bytes - m->drive_cache_bytes, slow);
      return;
    }
  m->cache_bytes = cache;
  m->cache_bps = v;
  model_add (m, cache, v);
  if (family == FAMILY_CLEAN || family == FAMILY_THERMAL)
    model_add (m, total - cache, slow);
  else if (family == FAMILY_THREE_PHASE)
    {
      double second = (total - cache) * g_rand_double_range (rand, 0.2, 0.6);

      model_add (m, second, slow);
      model_add (m, total - cache - second, slow * g_rand_double_range (rand, 0.2, 0.6));
    }
  else
    {
      /* Each slow stretch 3 to 12 s and 8 samples or more; the burst after it holds
       * duty / (1 - duty) as many bytes, at 80 to 100 % of the cache's speed. Two
       * slow stretches at least: one slow stretch between fast ones is a drive that
       * stalled once, and no analysis can tell it from a cache with one burst after
       * it (DESIGN.md). Every piece whole, so the last one too can be resolved. A
       * burst is 1.6 times the slow speed or more: a step as big as a cache's end
       * (1.43 times), with room for the noise. Half the drives fade within a burst:
       * a head, then a tail at 60 to 90 % of its speed (still 1.6 times the slow
       * speed or more), each 6 samples or more, as the cache. */
      gboolean fading = g_rand_boolean (rand);
      double duty = g_rand_double_range (rand, 0.2, 0.8);
      double at = cache;
      guint slows = 0;

      while ((at < total || slows < 2) && m->n_pieces + 2 < G_N_ELEMENTS (m->pieces))
        {
          /* Drawn apart: MAX evaluates its arguments twice. */
          double s_draw = slow * g_rand_double_range (rand, 3, 12);
          double s = MAX (s_draw, 8 * sample);
          double b = MAX (s * duty / (1 - duty), 8 * sample);

          model_add (m, s, slow);
          at += s;
          slows++;
          if (at >= total && slows >= 2)
            break;
          {
            double head_bps = v * g_rand_double_range (rand, MAX (0.8, 1.6 * slow / v), 1.0);
            double tail_draw = head_bps * g_rand_double_range (rand, 0.6, 0.9);
            double head_draw = b * g_rand_double_range (rand, 0.3, 0.7);
            double tail_bps = MAX (tail_draw, 1.6 * slow);
            double head = MAX (head_draw, 6 * sample);

            g_assert_cmpuint (m->n_bursts, <, G_N_ELEMENTS (m->bursts));
            m->bursts[m->n_bursts][0] = at;
            m->bursts[m->n_bursts][1] = b;
            if (fading && tail_bps < head_bps && head + 6 * sample <= b)
              {
                model_add (m, head, head_bps);
                model_add (m, b - head, tail_bps);
                m->bursts[m->n_bursts][2] = b / (head / head_bps + (b - head) / tail_bps);
              }
            else
              {
                model_add (m, b, head_bps);
                m->bursts[m->n_bursts][2] = head_bps;
              }
            m->n_bursts++;
          }
          at += b;
        }
      m->total = at;
    }
}

/* The longest stretch of [start, end) where the model writes below @limit B/s, in
 * bytes and in seconds. */
static void
model_slowest_stretch (const DriveModel *m,
                       double            start,
                       double            end,
                       double            limit,
                       double           *out_bytes,
                       double           *out_seconds)
{
  double run_b = 0, run_s = 0, lo = 0;

  *out_bytes = *out_seconds = 0;
  for (guint k = 0; k < m->n_pieces; k++)
    {
      double a = MAX (lo, start), b = MIN (m->pieces[k][0], end);

      lo = m->pieces[k][0];
      if (b <= a)
        continue;
      if (m->pieces[k][1] < limit)
        {
          run_b += b - a;
          run_s += (b - a) / m->pieces[k][1];
          *out_bytes = MAX (*out_bytes, run_b);
          *out_seconds = MAX (*out_seconds, run_s);
        }
      else
        run_b = run_s = 0;
    }
}

/* Properties every drive of the family must give, whatever its parameters: the cache
 * (when the model has one) found within 10 % in size and speed, ending at the first
 * sustained drop, so no later burst extends it; no cache on a flat drive; and every
 * phase homogeneous: no stretch of 2 s or 3 % of the fill in it below ⅔ of its
 * speed. Returns a description of what failed, or NULL. */
static char *
model_check (const DriveModel     *m,
             const NscSlcAnalysis *a)
{
  if (m->family == FAMILY_FLAT)
    return a->has_cache ? g_strdup_printf ("a cache of %.2f GB on a flat drive", a->cache_bytes / 1e9) : NULL;
  if (m->family == FAMILY_THERMAL && m->coincide)
    {
      if (a->has_cache || a->drop_cause != NSC_DROP_THERMAL)
        return g_strdup_printf ("the drop with the temperature reaching %.0f °C not called throttling",
                                m->threshold_c);
      if (fabs (a->throttle_bytes - m->cache_bytes) > 0.10 * m->cache_bytes)
        return g_strdup_printf ("throttling at %.2f GB, the model's %.2f GB", a->throttle_bytes / 1e9,
                                m->cache_bytes / 1e9);
      return NULL;
    }
  if (m->family == FAMILY_MEMORY)
    {
      if (a->has_cache || a->drop_cause != NSC_DROP_SYSTEM_CACHE)
        return g_strdup ("the fast start through memory not named as memory");
      if (fabs (a->cache_bytes - m->cache_bytes) > 0.10 * m->cache_bytes)
        return g_strdup_printf ("memory took %.2f GB, the model's %.2f GB", a->cache_bytes / 1e9,
                                m->cache_bytes / 1e9);
      if (fabs (a->in_cache_bps - m->cache_bps) > 0.10 * m->cache_bps)
        return g_strdup_printf ("memory at %.0f MB/s, the model's %.0f MB/s", a->in_cache_bps / 1e6,
                                m->cache_bps / 1e6);
      return NULL;
    }
  if (!a->has_cache)
    return g_strdup ("no cache found");
  if (fabs (a->cache_bytes - m->cache_bytes) > 0.10 * m->cache_bytes)
    return g_strdup_printf ("cache %.2f GB, the model's %.2f GB", a->cache_bytes / 1e9, m->cache_bytes / 1e9);
  if (fabs (a->in_cache_bps - m->cache_bps) > 0.10 * m->cache_bps)
    return g_strdup_printf ("in the cache %.0f MB/s, the model's %.0f MB/s", a->in_cache_bps / 1e6, m->cache_bps / 1e6);
  if (a->n_bursts != m->n_bursts)
    return g_strdup_printf ("%u bursts, the model's %u", a->n_bursts, m->n_bursts);
  for (guint i = 0; i < a->n_bursts; i++)
    {
      /* Within a sample and a tenth of the burst; its speed within 10 %. */
      double slack = 0.1 * m->bursts[i][1] + preset_sample_bytes (m->total);

      if (fabs (a->bursts[i].start_bytes - m->bursts[i][0]) > slack
          || fabs (a->bursts[i].bytes - m->bursts[i][1]) > slack
          || fabs (a->bursts[i].bps - m->bursts[i][2]) > 0.10 * m->bursts[i][2])
        return g_strdup_printf ("burst %u at %.2f GB of %.2f GB at %.0f MB/s, the model's at "
                                "%.2f GB of %.2f GB at %.0f MB/s", i, a->bursts[i].start_bytes / 1e9,
                                a->bursts[i].bytes / 1e9, a->bursts[i].bps / 1e6, m->bursts[i][0] / 1e9,
                                m->bursts[i][1] / 1e9, m->bursts[i][2] / 1e6);
    }
  for (guint i = 0; i < a->n_phases; i++)
    {
      double bytes, seconds;

      model_slowest_stretch (m, a->phases[i].start_bytes, a->phases[i].end_bytes,
                             a->phases[i].bps * 2 / 3, &bytes, &seconds);
      if (seconds >= 2 || bytes >= 0.03 * m->total)
        return g_strdup_printf ("phase %u (%.2f–%.2f GB at %.0f MB/s) holds %.2f GB (%.1f s) "
                                "below ⅔ of its speed", i, a->phases[i].start_bytes / 1e9,
                                a->phases[i].end_bytes / 1e9, a->phases[i].bps / 1e6,
                                bytes / 1e9, seconds);
    }
  return NULL;
}

/* A thermal model's fill with its temperature: one reading a second, rising from
 * 40 °C to the threshold as the cache ends (or apart from it), then held near it. */
static NscSlcAnalysis *
analyze_thermal_model (const DriveModel *m,
                       const guint64    *pos,
                       const double     *bps,
                       guint             n)
{
  g_autofree double *t = g_new (double, n);
  g_autofree double *temp_t = NULL;
  g_autofree double *celsius = NULL;
  NscFillTemperature temp = { 0 };
  double clock = 0.3, drop_t = 0, cross_t;
  guint n_temp;

  for (guint i = 0; i < n; i++)
    {
      guint64 from = i ? pos[i - 1] : 0;

      if (from < m->cache_bytes && pos[i] >= m->cache_bytes)
        drop_t = clock + (m->cache_bytes - from) / bps[i];
      clock += (pos[i] - from) / bps[i];
      t[i] = clock;
    }
  cross_t = m->coincide ? drop_t : drop_t + m->apart_s;
  /* Apart, but too early to be reached after a start at 40 °C: after the drop. */
  if (!m->coincide && cross_t < 2)
    cross_t = drop_t + fabs (m->apart_s);
  n_temp = (guint) ceil (clock) + 1;
  temp_t = g_new (double, n_temp);
  celsius = g_new (double, n_temp);
  for (guint i = 0; i < n_temp; i++)
    {
      temp_t[i] = i + 0.5;
      celsius[i] = MIN (40 + (m->threshold_c - 40) * temp_t[i] / cross_t,
                        m->threshold_c + 0.4 + 0.3 * sin (i));
    }
  temp.t_s = t;
  temp.temp_t_s = temp_t;
  temp.celsius = celsius;
  temp.n_temp = n_temp;
  temp.thresholds_c = &m->threshold_c;
  temp.n_thresholds = 1;
  return nsc_analyze_write_fill_thermal (pos, bps, n, &temp, NULL);
}

/* 100 drives of each family (300 with a cache), from a seed that the test prints; a
 * failure names the seed and the drive. NSC_MODEL_SEED=N repeats a run. */
static void
test_fill_model_family (void)
{
  const char *env = g_getenv ("NSC_MODEL_SEED");
  guint32 seed = env ? (guint32) g_ascii_strtoull (env, NULL, 10) : g_random_int ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  double errors[N_FAMILIES][100];
  guint n_errors[N_FAMILIES] = { 0 }, no_cache[N_FAMILIES] = { 0 };
  g_autoptr(GString) failures = g_string_new (NULL);
  guint n_failed = 0, n_bursts = 0, coinciding = 0, throttling = 0, apart = 0, apart_ends = 0;
  double burst_speed_worst = 0, burst_bytes_worst = 0;

  g_test_message ("drive models from seed %u (NSC_MODEL_SEED=%u repeats them)", seed, seed);
  for (guint f = 0; f < N_FAMILIES; f++)
    for (guint d = 0; d < 100; d++)
      {
        DriveModel m;
        g_autofree guint64 *pos = NULL;
        g_autofree double *bps = NULL;
        g_autoptr(NscSlcAnalysis) a = NULL;
        g_autofree char *why = NULL;
        double noise;
        guint n;

        model_draw (&m, f, rand);
        noise = g_rand_double_range (rand, 0, 0.05);
        sample_fill (m.pieces, m.n_pieces, preset_sample_bytes (m.total), 0.5, noise,
                     g_rand_int (rand), &pos, &bps, &n);
        if (f == FAMILY_THERMAL)
          a = analyze_thermal_model (&m, pos, bps, n);
        else
          a = nsc_analyze_write_fill (pos, bps, n, NULL);
        g_assert_nonnull (a);
        if (f == FAMILY_MEMORY)
          {
            NscSystemCacheInfo loop = { NSC_SYSTEM_CACHE_MEMORY, (char *) "loop", (char *) "loop0",
                                        (char *) "/var/tmp/disk.img" };
            nsc_slc_analysis_set_system_cache (a, &loop);
          }
        assert_phases_contiguous (a);
        if (m.cache_bytes > 0 && (a->has_cache || a->drop_cause == NSC_DROP_SYSTEM_CACHE))
          errors[f][n_errors[f]++] = fabs (a->cache_bytes - m.cache_bytes) / m.cache_bytes;
        else if (a->drop_cause == NSC_DROP_THERMAL)
          errors[f][n_errors[f]++] = fabs (a->throttle_bytes - m.cache_bytes) / m.cache_bytes;
        if (f == FAMILY_THERMAL)
          {
            coinciding += m.coincide;
            throttling += m.coincide && a->drop_cause == NSC_DROP_THERMAL;
            apart += !m.coincide;
            apart_ends += !m.coincide && a->drop_cause == NSC_DROP_CACHE_END;
          }
        no_cache[f] += !a->has_cache && a->drop_cause != NSC_DROP_THERMAL
                       && a->drop_cause != NSC_DROP_SYSTEM_CACHE;
        if (a->n_bursts == m.n_bursts)
          for (guint i = 0; i < m.n_bursts; i++)
            {
              n_bursts++;
              burst_speed_worst = MAX (burst_speed_worst, fabs (a->bursts[i].bps - m.bursts[i][2]) / m.bursts[i][2]);
              burst_bytes_worst = MAX (burst_bytes_worst, fabs (a->bursts[i].bytes - m.bursts[i][1]) / m.bursts[i][1]);
            }
        why = model_check (&m, a);
        if (why != NULL)
          {
            n_failed++;
            if (n_failed <= 10)
              g_string_append_printf (failures, "\n  seed %u, %s drive %u (%u pieces, %.1f GB, "
                                      "cache %.2f GB at %.0f MB/s): %s; found: %s", seed,
                                      family_names[f], d, m.n_pieces, m.total / 1e9,
                                      m.cache_bytes / 1e9, m.cache_bps / 1e6, why, a->summary);
            if (n_failed <= 10 && g_getenv ("NSC_MODEL_SEED") != NULL)
              {
                /* Repeating a seed: the model's pieces and the phases found. */
                for (guint k = 0; k < m.n_pieces; k++)
                  g_string_append_printf (failures, "\n    piece to %.2f GB at %.0f MB/s",
                                          m.pieces[k][0] / 1e9, m.pieces[k][1] / 1e6);
                for (guint k = 0; k < a->n_phases; k++)
                  g_string_append_printf (failures, "\n    phase %.2f–%.2f GB at %.0f MB/s",
                                          a->phases[k].start_bytes / 1e9,
                                          a->phases[k].end_bytes / 1e9, a->phases[k].bps / 1e6);
              }
          }
      }
  /* The accuracy table of tests/README.md. */
  for (guint f = 0; f < N_FAMILIES; f++)
    {
      qsort (errors[f], n_errors[f], sizeof (double), cmp_error);
      if (f == FAMILY_FLAT)
        g_test_message ("%s: no cache found on %u of 100", family_names[f], no_cache[f]);
      else
        g_test_message ("%s: cache-size error median %.2f %%, worst %.2f %%; no cache found on %u of 100",
                        family_names[f], n_errors[f] ? 100 * errors[f][n_errors[f] / 2] : NAN,
                        n_errors[f] ? 100 * errors[f][n_errors[f] - 1] : NAN, no_cache[f]);
    }
  g_test_message ("thermal: throttling found on %u of %u drives that reach the threshold as "
                  "the cache ends; the cache's end on %u of %u that reach it 12–40 s apart",
                  throttling, coinciding, apart_ends, apart);
  g_test_message ("sawtooth bursts: %u found as given, worst error in bytes %.1f %%, in speed %.1f %%",
                  n_bursts, 100 * burst_bytes_worst, 100 * burst_speed_worst);
  if (n_failed > 0)
    g_error ("%u of %u drive models failed:%s", n_failed, 100 * N_FAMILIES, failures->str);
}

/* A fill through a cache of the system's: this machine's memory (a loop device over
 * a file) is named for the fast start, and there is no SLC cache; a virtual disk's
 * host may hold writes, so the drive's cache stands, not verified; a flat fill
 * through memory is no evidence of no cache either. The front ends' words match. */
static void
test_fill_system_cache (void)
{
  const Piece cached[] = { { 1 * GIB, 2100 * MIB, 2100 * MIB }, { 4 * GIB, 300 * MIB, 300 * MIB } };
  const Piece flat[] = { { 4 * GIB, 300 * MIB, 300 * MIB } };
  NscSystemCacheInfo loop = { NSC_SYSTEM_CACHE_MEMORY, (char *) "loop", (char *) "loop3",
                              (char *) "/var/tmp/disk.img" };
  NscSystemCacheInfo virtio = { NSC_SYSTEM_CACHE_POSSIBLE, (char *) "virtio", (char *) "vda", NULL };
  static const struct { gboolean flat; gboolean memory; const char *verdict, *pattern; } cases[] = {
    { FALSE, TRUE, "system-cache", "^No SLC cache measured: the first (9[0-9][0-9]|10[0-9][0-9]) MiB went at "
      "2[0-2][0-9][0-9] MiB/s into this machine's memory, through loop3, a loop device over "
      "/var/tmp/disk\\.img without direct I/O; after it (29[0-9]|30[0-9]) MiB/s$" },
    { FALSE, FALSE, "not-verified", "^SLC cache about (9[0-9][0-9]|10[0-9][0-9]) MiB at 2[0-2][0-9][0-9] MiB/s; "
      "after it (29[0-9]|30[0-9]) MiB/s\\. Not verified as the drive's own: the writes went through vda, "
      "a virtual disk \\(virtio\\), which may keep them in memory first$" },
    { TRUE, TRUE, "not-verified", "^No SLC cache seen: (29[0-9]|30[0-9]) MiB/s throughout\\. Not verified: "
      "the writes went through this machine's memory \\(loop3, a loop device over "
      "/var/tmp/disk\\.img without direct I/O\\), which hides the drive's own behaviour$" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(Curve) c = cases[i].flat ? make_fill (flat, 1, 0.1, 0.05, 3, 1)
                                         : make_fill (cached, 2, 0.1, 0.05, 3, 1);
      g_autoptr(NscSlcAnalysis) a = analyze (c);
      g_autoptr(JsonNode) node = NULL;
      g_autofree char *words = NULL;
      JsonObject *o, *sc;

      nsc_slc_analysis_set_system_cache (a, cases[i].memory ? &loop : &virtio);
      g_test_message ("%s", a->summary);
      assert_summary (a, cases[i].pattern);
      node = nsc_slc_analysis_to_json (a);
      o = json_node_get_object (node);
      g_assert_cmpstr (json_object_get_string_member (o, "verdict"), ==, cases[i].verdict);
      g_assert_true (json_object_get_boolean_member (o, "has_cache") == (i == 1));
      sc = json_object_get_object_member (o, "system_cache");
      g_assert_cmpstr (json_object_get_string_member (sc, "certainty"), ==, cases[i].memory ? "memory" : "possible");
      g_assert_cmpstr (json_object_get_string_member (sc, "device"), ==, cases[i].memory ? "loop3" : "vda");
      words = nsc_words_slc_summary (o, NSC_UNITS_MIB);
      g_assert_cmpstr (words, ==, a->summary);
    }
}

/* A cache-recovery step's fast bytes are measured on a drive seen directly, and not
 * verified through a disk a virtual machine emulates: its host's memory empties while
 * idle as a cache does. The fast bytes are kept either way. */
static void
test_recovery_system_cache (void)
{
  static const double fill[][2] = { { 8e9, 1.5e9 }, { 24e9, 500e6 } };
  static const double step[][2] = { { 2e9, 1.5e9 }, { 6e9, 500e6 } };

  for (guint emulated = 0; emulated < 2; emulated++)
    {
      g_autoptr(NscRunResult) r = nsc_run_result_new ();
      g_autoptr(JsonNode) root = NULL;
      JsonObject *point;
      NscStepResult *rec;

      if (emulated)
        {
          r->system_cache.certainty = NSC_SYSTEM_CACHE_POSSIBLE;
          r->system_cache.kind = g_strdup ("emulated");
          r->system_cache.device = g_strdup ("nvme0n1");
          r->system_cache.detail = g_strdup ("QEMU NVMe Ctrl");
        }
      g_ptr_array_add (r->steps, pieces_step ("write-fill", fill, 2, 7));
      rec = pieces_step ("cache-recovery", step, 2, 8);
      rec->idle_before_ns = 60 * G_GINT64_CONSTANT (1000000000);
      g_ptr_array_add (r->steps, rec);
      nsc_run_result_analyze (r);
      root = nsc_run_result_to_json (r);
      point = json_array_get_object_element (
          json_object_get_array_member (
            json_object_get_object_member (
              json_object_get_object_member (json_node_get_object (root), "analysis"),
              "cache_recovery"), "points"), 0);
      g_test_message ("%s: %s, %s, %.0f MB fast", emulated ? "emulated" : "direct",
                      json_object_get_string_member (point, "verdict"),
                      json_object_get_string_member_with_default (point, "reason", "-"),
                      json_object_get_double_member (point, "fast_bytes") / 1e6);
      assert_near ("fast bytes", 2e9, json_object_get_double_member (point, "fast_bytes"));
      g_assert_cmpstr (json_object_get_string_member (point, "verdict"), ==,
                       emulated ? "not-verified" : "measured");
      g_assert_cmpstr (json_object_get_string_member_with_default (point, "reason", NULL), ==,
                       emulated ? "system-cache" : NULL);
    }
}

/* The evidence Quick's runner records for a pair: the flush after the settled data
 * (its speed at the start and the end, capped by --span or not) and the speed the
 * fresh data went in at after the idle. */
typedef struct
{
  double   flush_first, flush_last, fresh_written;
  gboolean capped;
} FlushEvidence;

/* A Quick-style pair of reads: fresh data, and data left to settle (written before it,
 * with more than the cache written after it, then an idle). */
/* What stands between the reads and the drive in read_pair_run. */
enum { DIRECT, LOOP, EMULATED };

static NscRunResult *
read_pair_run (double               fresh_bps,
               double               settled_bps,
               int                  via,
               const FlushEvidence *ev)
{
  NscRunResult *r = nsc_run_result_new ();

  if (via == LOOP)
    {
      r->system_cache.certainty = NSC_SYSTEM_CACHE_MEMORY;
      r->system_cache.kind = g_strdup ("loop");
      r->system_cache.device = g_strdup ("loop3");
      r->system_cache.detail = g_strdup ("/var/tmp/disk.img");
    }
  else if (via == EMULATED)
    {
      r->system_cache.certainty = NSC_SYSTEM_CACHE_POSSIBLE;
      r->system_cache.kind = g_strdup ("emulated");
      r->system_cache.device = g_strdup ("nvme0n1");
      r->system_cache.detail = g_strdup ("QEMU NVMe Ctrl");
    }

  for (guint i = 0; i < 2; i++)
    {
      NscStep step = { 0 };
      NscStepResult *sr;
      NscJobResult *job = g_new0 (NscJobResult, 1);

      step.kind = NSC_STEP_JOB;
      nsc_job_init (&step.job);
      nsc_job_set_rw (&step.job, "read", NULL);
      g_strlcpy (step.job.label, i == 0 ? "SEQ1M Q8T1" : "SEQ1M Q8T1 settled", sizeof step.job.label);
      g_strlcpy (step.analysis, i == 0 ? "fresh-read" : "settled-read", sizeof step.analysis);
      sr = nsc_step_result_new (&step);
      sr->completed = TRUE;
      sr->data_age_ns = i == 0 ? 1000000 : 60 * G_GINT64_CONSTANT (1000000000);
      sr->bytes_written_since = i == 0 ? 0 : 9 * (guint64) GIB;
      sr->settled_by = i == 0 ? NULL : "idle";
      sr->idle_since_data_ns = i == 0 ? 0 : 30 * G_GINT64_CONSTANT (1000000000);
      if (i == 0)
        sr->data_written_bps = ev->fresh_written;
      else
        {
          sr->flush_source = "history";
          sr->flush_bytes = 9 * (guint64) GIB;
          sr->flush_capped = ev->capped;
          sr->flush_first_bps = ev->flush_first;
          sr->flush_last_bps = ev->flush_last;
        }
      job->job = step.job;
      job->runtime_ns = 5 * G_GINT64_CONSTANT (1000000000);
      job->dir[NSC_DIR_READ].bw_bps = i == 0 ? fresh_bps : settled_bps;
      job->dir[NSC_DIR_READ].bytes = (guint64) (job->dir[NSC_DIR_READ].bw_bps * 5);
      job->dir[NSC_DIR_READ].ios = job->dir[NSC_DIR_READ].bytes >> 20;
      g_ptr_array_add (sr->runs, job);
      g_ptr_array_add (r->steps, sr);
    }
  nsc_run_result_analyze (r);
  return r;
}

/* The fresh-against-settled verdict stands on its premise: settled data read faster
 * than fresh data (112 against 299 MB/s, a drive that folds only while idle) is "not
 * verified", never "not inflated"; fresh reads faster are inflated, unless memory that
 * may hold data just written stands in front of the drive (not verified); alike, they are
 * clean only when the flush after the settled data was seen to fill the cache and
 * the fresh data went into the cache again after the idle. */
static void
test_read_inflation_premise (void)
{
  /* A cache at 3000 MB/s that fills during the flush (900 MB/s after it), and the
   * fresh data written into it again after the idle. */
#define GOOD { 3000e6, 900e6, 2900e6, FALSE }
  static const struct { double fresh, settled; int via; FlushEvidence ev;
                        const char *verdict, *code, *reason, *words; } cases[] = {
    { 112e6, 299e6, DIRECT, GOOD, "not-verified", "read-inflation-not-verified", "settled-faster",
      "faster than data just written" },
    { 299e6, 112e6, DIRECT, GOOD, "inflated", "read-inflation", NULL, NULL },
    { 200e6, 190e6, DIRECT, GOOD, "not-inflated", NULL, NULL, NULL },
    /* Alike, through a loop device over a file: both may be this machine's memory. */
    { 2000e6, 1990e6, LOOP, GOOD, "not-verified", "read-inflation-not-verified", "system-cache",
      "loop3, a loop device over /var/tmp/disk.img" },
    /* Fresh reads faster, through a disk a virtual machine emulates: its host may hold
     * what was just written in memory, the same sign as the drive's cache. */
    { 299e6, 112e6, EMULATED, GOOD, "not-verified", "read-inflation-not-verified", "system-cache",
      "faster than data left to settle at 107 MiB/s: the fast figure is likely inflated. "
      "But its reads went through nvme0n1, a disk that a virtual machine emulates (QEMU NVMe Ctrl)" },
    { 299e6, 112e6, LOOP, GOOD, "not-verified", "read-inflation-not-verified", "system-cache",
      "whether the drive's cache or that memory made them faster is not known" },
    { 200e6, 190e6, EMULATED, GOOD, "not-verified", "read-inflation-not-verified", "system-cache",
      "which may serve them from memory" },
    /* Alike, but the flush never slowed: a cache larger than it, or none seen. */
    { 200e6, 190e6, DIRECT, { 3000e6, 2950e6, 2900e6, FALSE }, "not-verified",
      "read-inflation-not-verified", "cache-not-filled", "never slowed down" },
    /* The same when the span cut the flush short, whatever its speeds. */
    { 200e6, 190e6, DIRECT, { 3000e6, 900e6, 2900e6, TRUE }, "not-verified",
      "read-inflation-not-verified", "flush-capped", "the span let only 9 GiB" },
    /* No speeds recorded (an older result): nothing shows the cache filled. */
    { 200e6, 190e6, DIRECT, { 0, 0, 0, FALSE }, "not-verified",
      "read-inflation-not-verified", "cache-not-filled", "The cache may hold both" },
    /* The cache still full from earlier writes: the flush slow from its start, but the
     * fresh data went in three times as fast after the pause, which emptied it. */
    { 200e6, 190e6, DIRECT, { 900e6, 880e6, 2900e6, FALSE }, "not-inflated", NULL, NULL, NULL },
    /* Slow from the start, and no faster after the pause: no cache seen at all. */
    { 200e6, 190e6, DIRECT, { 900e6, 880e6, 950e6, FALSE }, "not-verified",
      "read-inflation-not-verified", "cache-not-filled", "never slowed down" },
    /* The flush filled the cache, but the idle did not empty it: the fresh data went
     * in at the slow speed (a drive that folds only while idle, and more slowly). */
    { 200e6, 190e6, DIRECT, { 3000e6, 900e6, 950e6, FALSE }, "not-verified",
      "read-inflation-not-verified", "fresh-not-in-cache", "slower than the cache's" },
  };

#undef GOOD

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(NscRunResult) r = read_pair_run (cases[c].fresh, cases[c].settled, cases[c].via,
                                                 &cases[c].ev);
      g_autoptr(JsonNode) root = nsc_run_result_to_json (r);
      JsonObject *pair = json_array_get_object_element (
          json_object_get_array_member (
            json_object_get_object_member (json_node_get_object (root), "analysis"),
            "read_inflation"), 0);
      const NscWarning *w = NULL;

      for (guint i = 0; i < r->warnings->len; i++)
        if (g_str_has_prefix (((NscWarning *) g_ptr_array_index (r->warnings, i))->code, "read-inflation"))
          w = g_ptr_array_index (r->warnings, i);
      g_test_message ("fresh %.0f, settled %.0f MB/s: %s; %s", cases[c].fresh / 1e6,
                      cases[c].settled / 1e6, json_object_get_string_member (pair, "verdict"),
                      w ? w->message : "no warning");
      g_assert_cmpstr (json_object_get_string_member (pair, "verdict"), ==, cases[c].verdict);
      g_assert_cmpstr (w ? w->code : NULL, ==, cases[c].code);
      g_assert_cmpstr (json_object_get_string_member_with_default (pair, "reason", NULL), ==, cases[c].reason);
      if (w != NULL)
        {
          g_autofree char *details = NULL;
          g_autofree char *title = nsc_warning_describe (w, NSC_UNITS_MIB, &details, NULL);

          g_test_message ("%s. %s", title, details);
          g_assert_nonnull (details);
          if (cases[c].words)
            g_assert_nonnull (strstr (details, cases[c].words));
          if (g_strcmp0 (cases[c].reason, "settled-faster") == 0)
            g_assert_nonnull (strstr (details, "not known"));
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/nsc/analysis/fill/000", test_fill_000);
  g_test_add_func ("/nsc/analysis/fill/000-fine", test_fill_000_fine);
  g_test_add_func ("/nsc/analysis/fill/002", test_fill_002);
  g_test_add_func ("/nsc/analysis/fill/003", test_fill_003);
  g_test_add_func ("/nsc/analysis/fill/004-recovery", test_fill_004_recovery);
  g_test_add_func ("/nsc/analysis/fill/fast-back", test_fast_back);
  g_test_add_func ("/nsc/analysis/fill/average", test_fill_average);
  g_test_add_func ("/nsc/analysis/fill/flat", test_fill_flat);
  g_test_add_func ("/nsc/analysis/fill/sloping", test_fill_sloping);
  g_test_add_func ("/nsc/analysis/fill/dip", test_fill_dip);
  g_test_add_func ("/nsc/analysis/fill/series", test_fill_series);
  g_test_add_func ("/nsc/analysis/fill/degenerate", test_fill_degenerate);
  g_test_add_func ("/nsc/analysis/read-inflation", test_read_inflation);
  g_test_add_func ("/nsc/analysis/recovery/system-cache", test_recovery_system_cache);
  g_test_add_func ("/nsc/analysis/read-inflation/premise", test_read_inflation_premise);
  g_test_add_func ("/nsc/analysis/steady-state", test_steady_state);
  g_test_add_func ("/nsc/analysis/throttling", test_throttling);
  g_test_add_func ("/nsc/analysis/throttling/degenerate", test_throttling_degenerate);

  g_test_add_func ("/nsc/analysis/fill/startup-spike", test_fill_startup_spike);
  g_test_add_func ("/nsc/analysis/fill/dip-inside-cache", test_fill_dip_inside_cache);
  g_test_add_func ("/nsc/analysis/fill/post-cache-stretch", test_fill_post_cache_stretch);
  g_test_add_func ("/nsc/analysis/fill/short-cache", test_fill_short_cache);
  g_test_add_func ("/nsc/analysis/fill/buffer-is-no-cache", test_fill_buffer_is_no_cache);
  g_test_add_func ("/nsc/analysis/fill/sawtooth", test_fill_sawtooth);
  g_test_add_func ("/nsc/analysis/fill/sawtooth-long-bursts", test_fill_sawtooth_long_bursts);
  g_test_add_func ("/nsc/analysis/fill/second-step", test_fill_second_step_no_bursts);
  g_test_add_func ("/nsc/analysis/fill/dynamic-cache", test_fill_dynamic_cache);
  g_test_add_func ("/nsc/analysis/fill/thermal", test_fill_thermal);
  g_test_add_func ("/nsc/analysis/fill/thermal-run", test_fill_thermal_run);
  g_test_add_func ("/nsc/analysis/fill/model-family", test_fill_model_family);
  g_test_add_func ("/nsc/analysis/fill/system-cache", test_fill_system_cache);
  return g_test_run ();
}

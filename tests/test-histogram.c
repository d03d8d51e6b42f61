/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "nsc-engine.h"

static int
cmp_u64 (const void *a,
         const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* The bucket of every value contains it, and its midpoint is within 1/128. */
static void
test_buckets (void)
{
  guint prev = 0;

  for (guint64 v = 0; v < 2000000; v += 1 + v / 1000)
    {
      guint b = nsc_histogram_bucket (v);
      guint64 mid = nsc_histogram_bucket_value (b);

      g_assert_cmpuint (b, >=, prev);
      g_assert_cmpuint (b, <, NSC_HIST_BUCKETS);
      prev = b;
      if (v < 128)
        g_assert_cmpuint (mid, ==, v);
      else
        g_assert_cmpfloat (fabs ((double) mid - (double) v) / v, <=, 1.0 / 128 + 1e-9);
    }
  g_assert_cmpuint (nsc_histogram_bucket (G_MAXUINT64), ==, NSC_HIST_BUCKETS - 1);
}

static void
check_against_exact (guint64 *values,
                     guint    n)
{
  NscHistogram *h = g_new (NscHistogram, 1);
  guint64 sum = 0;

  nsc_histogram_init (h);
  for (guint i = 0; i < n; i++)
    {
      nsc_histogram_add (h, values[i]);
      sum += values[i];
    }
  qsort (values, n, sizeof *values, cmp_u64);

  g_assert_cmpuint (h->count, ==, n);
  g_assert_cmpuint (h->min, ==, values[0]);
  g_assert_cmpuint (h->max, ==, values[n - 1]);
  g_assert_cmpfloat (fabs (nsc_histogram_mean (h) - (double) sum / n), <, 1e-6 * sum / n + 1e-9);

  for (guint i = 0; i < nsc_histogram_n_standard_percentiles; i++)
    {
      double p = nsc_histogram_standard_percentiles[i];
      guint64 rank = (guint64) ceil (p / 100.0 * n);
      guint64 exact = values[MAX (rank, (guint64) 1) - 1];
      guint64 approx = nsc_histogram_percentile (h, p);
      double err = exact ? fabs ((double) approx - (double) exact) / exact : approx;

      if (err > 1.0 / 128 + 1e-9)
        g_error ("p%g: histogram says %" G_GUINT64_FORMAT ", exact %" G_GUINT64_FORMAT
                 " (error %.4f)", p, approx, exact, err);
    }
  g_free (h);
}

/* Latency-like data: log-normal around 100 µs with a long tail. */
static void
test_percentiles_lognormal (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  const guint n = 200000;
  g_autofree guint64 *values = g_new (guint64, n);

  for (guint i = 0; i < n; i++)
    {
      double u1 = g_rand_double (rand), u2 = g_rand_double (rand);
      double z = sqrt (-2 * log (u1 + 1e-300)) * cos (2 * G_PI * u2);
      values[i] = (guint64) exp (log (100000.0) + 1.2 * z);
    }
  check_against_exact (values, n);
}

static void
test_percentiles_uniform_wide (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  const guint n = 50000;
  g_autofree guint64 *values = g_new (guint64, n);

  for (guint i = 0; i < n; i++)
    values[i] = (guint64) g_rand_double_range (rand, 0, 5e9);
  check_against_exact (values, n);
}

static void
test_small_and_merge (void)
{
  NscHistogram *a = g_new (NscHistogram, 1), *b = g_new (NscHistogram, 1);
  guint64 vals[] = { 5, 7, 1000, 100000 };

  nsc_histogram_init (a);
  nsc_histogram_init (b);
  g_assert_cmpuint (nsc_histogram_percentile (a, 50), ==, 0);
  nsc_histogram_add (a, 5);
  nsc_histogram_add (a, 7);
  nsc_histogram_add (b, 1000);
  nsc_histogram_add (b, 100000);
  nsc_histogram_merge (a, b);
  g_assert_cmpuint (a->count, ==, 4);
  g_assert_cmpuint (a->min, ==, 5);
  g_assert_cmpuint (a->max, ==, 100000);
  g_assert_cmpuint (nsc_histogram_percentile (a, 25), ==, vals[0]);
  g_assert_cmpuint (nsc_histogram_percentile (a, 50), ==, vals[1]);
  g_assert_cmpuint (nsc_histogram_percentile (a, 100), ==, vals[3]);
  g_free (a);
  g_free (b);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/histogram/buckets", test_buckets);
  g_test_add_func ("/nsc/histogram/percentiles-lognormal", test_percentiles_lognormal);
  g_test_add_func ("/nsc/histogram/percentiles-uniform", test_percentiles_uniform_wide);
  g_test_add_func ("/nsc/histogram/small-and-merge", test_small_and_merge);
  return g_test_run ();
}

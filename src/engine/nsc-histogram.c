/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "nsc-histogram.h"

const double nsc_histogram_standard_percentiles[] = {
  1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};
const guint nsc_histogram_n_standard_percentiles = G_N_ELEMENTS (nsc_histogram_standard_percentiles);

void
nsc_histogram_init (NscHistogram *hist)
{
  memset (hist, 0, sizeof *hist);
}

void
nsc_histogram_merge (NscHistogram       *into,
                     const NscHistogram *from)
{
  guint64 sum;

  if (from->count == 0)
    return;

  for (guint i = 0; i < NSC_HIST_BUCKETS; i++)
    into->buckets[i] += from->buckets[i];

  sum = into->sum + from->sum;
  into->sum = sum < into->sum ? G_MAXUINT64 : sum;
  if (into->count == 0 || from->min < into->min)
    into->min = from->min;
  if (from->max > into->max)
    into->max = from->max;
  into->count += from->count;
}

guint
nsc_histogram_bucket (guint64 value)
{
  guint msb, error_bits, base, offset;

  if (value < (NSC_HIST_VAL << 1))
    return (guint) value;

  msb = 63 - __builtin_clzll (value);
  if (msb > NSC_HIST_MAX_MSB)
    return NSC_HIST_BUCKETS - 1;

  error_bits = msb - NSC_HIST_BITS;
  base = (error_bits + 1) << NSC_HIST_BITS;
  offset = (guint) ((value >> error_bits) & (NSC_HIST_VAL - 1));

  return base + offset;
}

/* The midpoint of the bucket's range. */
guint64
nsc_histogram_bucket_value (guint bucket)
{
  guint error_bits;
  guint64 base, k;

  g_assert (bucket < NSC_HIST_BUCKETS);

  if (bucket < (NSC_HIST_VAL << 1))
    return bucket;

  error_bits = (bucket >> NSC_HIST_BITS) - 1;
  base = G_GUINT64_CONSTANT (1) << (error_bits + NSC_HIST_BITS);
  k = bucket % NSC_HIST_VAL;

  return base + (k << error_bits) + ((G_GUINT64_CONSTANT (1) << error_bits) >> 1);
}

guint64
nsc_histogram_percentile (const NscHistogram *hist,
                          double              percent)
{
  guint64 rank, seen = 0;
  guint64 value;

  g_return_val_if_fail (percent > 0 && percent <= 100, 0);

  if (hist->count == 0)
    return 0;

  /* Nearest-rank definition: the smallest value with at least percent % of the
   * samples at or below it. */
  rank = (guint64) ((percent / 100.0) * hist->count + 0.999999999);
  if (rank < 1)
    rank = 1;
  if (rank > hist->count)
    rank = hist->count;
  /* The extremes are known exactly. */
  if (rank == hist->count)
    return hist->max;
  if (rank == 1)
    return hist->min;

  for (guint i = 0; i < NSC_HIST_BUCKETS; i++)
    {
      seen += hist->buckets[i];
      if (seen >= rank)
        {
          value = nsc_histogram_bucket_value (i);
          return CLAMP (value, hist->min, hist->max);
        }
    }

  return hist->max;
}

double
nsc_histogram_mean (const NscHistogram *hist)
{
  if (hist->count == 0)
    return 0;
  return (double) hist->sum / (double) hist->count;
}

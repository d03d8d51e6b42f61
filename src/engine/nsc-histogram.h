/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Log-linear latency histogram in fio's shape: values below 128 ns are exact, above
 * that every power of two is split into 64 linear buckets, so a bucket's midpoint is
 * within 1/128 (0.78 %) of any value in it. Values are nanoseconds; anything beyond
 * 2^46 ns (about 19 hours) lands in the last bucket. Fixed size, so memory does not
 * grow with the length of a test. */
#define NSC_HIST_BITS     6
#define NSC_HIST_VAL      (1 << NSC_HIST_BITS)
#define NSC_HIST_MAX_MSB  45
#define NSC_HIST_BUCKETS  (((NSC_HIST_MAX_MSB - NSC_HIST_BITS) + 1) * NSC_HIST_VAL + NSC_HIST_VAL)

typedef struct
{
  guint64 count;
  guint64 sum;          /* ns, saturating */
  guint64 min;
  guint64 max;
  guint64 buckets[NSC_HIST_BUCKETS];
} NscHistogram;

void    nsc_histogram_init        (NscHistogram       *hist);
void    nsc_histogram_merge       (NscHistogram       *into,
                                   const NscHistogram *from);
guint   nsc_histogram_bucket      (guint64             value);
guint64 nsc_histogram_bucket_value (guint              bucket);
/* @percent in (0, 100]; 0 when the histogram is empty. */
guint64 nsc_histogram_percentile  (const NscHistogram *hist,
                                   double              percent);
double  nsc_histogram_mean        (const NscHistogram *hist);

static inline void
nsc_histogram_add (NscHistogram *hist,
                   guint64       value)
{
  guint64 sum = hist->sum + value;

  hist->buckets[nsc_histogram_bucket (value)]++;
  hist->sum = sum < hist->sum ? G_MAXUINT64 : sum;
  if (hist->count == 0 || value < hist->min)
    hist->min = value;
  if (value > hist->max)
    hist->max = value;
  hist->count++;
}

/* The percentiles every result reports. */
extern const double nsc_histogram_standard_percentiles[];
extern const guint  nsc_histogram_n_standard_percentiles;

G_END_DECLS

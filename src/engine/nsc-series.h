/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

enum { NSC_DIR_READ = 0, NSC_DIR_WRITE = 1 };

/* One sampling interval of one job. */
typedef struct
{
  gint64  t_ns;            /* end of the interval, from the start of measurement */
  gint64  duration_ns;
  guint64 bytes[2];        /* completed in the interval, by direction */
  guint64 ios[2];
  guint64 lat_sum_ns[2];
  guint64 lat_max_ns;
  guint64 position;        /* bytes completed since the start of measurement */
} NscSample;

static inline double
nsc_sample_bps (const NscSample *s)
{
  return s->duration_ns > 0 ? (s->bytes[0] + s->bytes[1]) * 1e9 / s->duration_ns : 0;
}

/* A series of samples whose memory stays bounded: when full, neighbouring samples
 * are merged pairwise (the interval doubles), so a 2-hour run at 0.1 s keeps the
 * same footprint as a 2-minute one, just coarser. */
typedef struct _NscSeries NscSeries;

NscSeries       *nsc_series_new       (guint              max_samples);
void             nsc_series_free      (NscSeries         *series);
void             nsc_series_append    (NscSeries         *series,
                                       const NscSample   *sample);
/* Adds @sample to the newest stored sample instead of storing a new one: for a
 * short tail that alone would give a meaningless speed. */
void             nsc_series_extend_last (NscSeries       *series,
                                         const NscSample *sample);
/* Stores what is waiting to be merged, as it is; call at the end of a run. */
void             nsc_series_finish    (NscSeries         *series);
guint            nsc_series_get_len   (NscSeries         *series);
const NscSample *nsc_series_get       (NscSeries         *series,
                                       guint              index);
/* How many original samples each stored sample holds (1, 2, 4…). */
guint            nsc_series_get_merge_factor (NscSeries *series);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscSeries, nsc_series_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "nsc-series.h"

struct _NscSeries
{
  GArray   *samples;
  guint     max_samples;
  guint     factor;
  /* Samples waiting to be merged into one once `factor` of them arrived. */
  NscSample pending;
  guint     n_pending;
};

NscSeries *
nsc_series_new (guint max_samples)
{
  NscSeries *self = g_new0 (NscSeries, 1);

  self->max_samples = MAX (max_samples, 2u) & ~1u;
  self->samples = g_array_sized_new (FALSE, TRUE, sizeof (NscSample), 64);
  self->factor = 1;
  return self;
}

void
nsc_series_free (NscSeries *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->samples);
  g_free (self);
}

static void
merge_into (NscSample       *into,
            const NscSample *s)
{
  into->t_ns = s->t_ns;
  into->duration_ns += s->duration_ns;
  for (guint d = 0; d < 2; d++)
    {
      into->bytes[d] += s->bytes[d];
      into->ios[d] += s->ios[d];
      into->lat_sum_ns[d] += s->lat_sum_ns[d];
    }
  into->lat_max_ns = MAX (into->lat_max_ns, s->lat_max_ns);
  into->position = s->position;
}

void
nsc_series_append (NscSeries       *self,
                   const NscSample *sample)
{
  if (self->n_pending == 0)
    self->pending = *sample;
  else
    merge_into (&self->pending, sample);
  self->n_pending++;

  if (self->n_pending < self->factor)
    return;

  g_array_append_val (self->samples, self->pending);
  self->n_pending = 0;

  if (self->samples->len >= self->max_samples)
    {
      guint n = self->samples->len / 2;

      for (guint i = 0; i < n; i++)
        {
          NscSample merged = g_array_index (self->samples, NscSample, 2 * i);
          merge_into (&merged, &g_array_index (self->samples, NscSample, 2 * i + 1));
          g_array_index (self->samples, NscSample, i) = merged;
        }
      g_array_set_size (self->samples, n);
      self->factor *= 2;
    }
}

void
nsc_series_extend_last (NscSeries       *self,
                        const NscSample *sample)
{
  if (self->n_pending > 0)
    merge_into (&self->pending, sample);
  else if (self->samples->len > 0)
    merge_into (&g_array_index (self->samples, NscSample, self->samples->len - 1), sample);
  else
    nsc_series_append (self, sample);
}

void
nsc_series_finish (NscSeries *self)
{
  if (self->n_pending == 0)
    return;
  g_array_append_val (self->samples, self->pending);
  self->n_pending = 0;
}

guint
nsc_series_get_len (NscSeries *self)
{
  return self->samples->len;
}

const NscSample *
nsc_series_get (NscSeries *self,
                guint      index)
{
  g_return_val_if_fail (index < self->samples->len, NULL);
  return &g_array_index (self->samples, NscSample, index);
}

guint
nsc_series_get_merge_factor (NscSeries *self)
{
  return self->factor;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "nsc-extents.h"

struct _NscExtents
{
  GMutex  lock;
  GArray *ranges; /* NscRange, sorted, disjoint, not touching */
};

NscExtents *
nsc_extents_new (void)
{
  NscExtents *self = g_new0 (NscExtents, 1);

  g_mutex_init (&self->lock);
  self->ranges = g_array_new (FALSE, FALSE, sizeof (NscRange));
  return self;
}

void
nsc_extents_free (NscExtents *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->ranges);
  g_mutex_clear (&self->lock);
  g_free (self);
}

static void
remove_locked (NscExtents *self,
               guint64     start,
               guint64     end)
{
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (NscRange), self->ranges->len + 1);

  for (guint i = 0; i < self->ranges->len; i++)
    {
      NscRange r = g_array_index (self->ranges, NscRange, i);

      if (r.end <= start || r.start >= end)
        {
          g_array_append_val (out, r);
          continue;
        }
      if (r.start < start)
        {
          NscRange left = { r.start, start };
          g_array_append_val (out, left);
        }
      if (r.end > end)
        {
          NscRange right = { end, r.end };
          g_array_append_val (out, right);
        }
    }

  g_array_unref (self->ranges);
  self->ranges = out;
}

void
nsc_extents_add (NscExtents *self,
                 guint64     start,
                 guint64     length)
{
  NscRange merged = { start, start + length };
  GArray *out;
  gboolean placed = FALSE;

  if (length == 0)
    return;

  g_mutex_lock (&self->lock);
  out = g_array_sized_new (FALSE, FALSE, sizeof (NscRange), self->ranges->len + 1);
  for (guint i = 0; i < self->ranges->len; i++)
    {
      NscRange r = g_array_index (self->ranges, NscRange, i);

      if (r.end < merged.start)
        g_array_append_val (out, r);
      else if (r.start > merged.end)
        {
          if (!placed)
            {
              g_array_append_val (out, merged);
              placed = TRUE;
            }
          g_array_append_val (out, r);
        }
      else
        {
          merged.start = MIN (merged.start, r.start);
          merged.end = MAX (merged.end, r.end);
        }
    }
  if (!placed)
    g_array_append_val (out, merged);
  g_array_unref (self->ranges);
  self->ranges = out;
  g_mutex_unlock (&self->lock);
}

void
nsc_extents_remove (NscExtents *self,
                    guint64     start,
                    guint64     length)
{
  if (length == 0)
    return;
  g_mutex_lock (&self->lock);
  remove_locked (self, start, start + length);
  g_mutex_unlock (&self->lock);
}

GArray *
nsc_extents_missing (NscExtents *self,
                     guint64     start,
                     guint64     length)
{
  GArray *missing = g_array_new (FALSE, FALSE, sizeof (NscRange));
  guint64 pos = start, end = start + length;

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->ranges->len && pos < end; i++)
    {
      NscRange r = g_array_index (self->ranges, NscRange, i);

      if (r.end <= pos)
        continue;
      if (r.start >= end)
        break;
      if (r.start > pos)
        {
          NscRange gap = { pos, r.start };
          g_array_append_val (missing, gap);
        }
      pos = MAX (pos, r.end);
    }
  if (pos < end)
    {
      NscRange gap = { pos, end };
      g_array_append_val (missing, gap);
    }
  g_mutex_unlock (&self->lock);

  return missing;
}

gboolean
nsc_extents_covers (NscExtents *self,
                    guint64     start,
                    guint64     length)
{
  g_autoptr(GArray) missing = nsc_extents_missing (self, start, length);
  return missing->len == 0;
}

guint64
nsc_extents_total (NscExtents *self)
{
  guint64 total = 0;

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->ranges->len; i++)
    {
      NscRange r = g_array_index (self->ranges, NscRange, i);
      total += r.end - r.start;
    }
  g_mutex_unlock (&self->lock);
  return total;
}

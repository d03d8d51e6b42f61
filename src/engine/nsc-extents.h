/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A set of byte ranges, kept sorted and merged: which parts of a target hold data
 * that was written by us (reads of anything else would measure nothing real). */
typedef struct
{
  guint64 start;
  guint64 end; /* exclusive */
} NscRange;

typedef struct _NscExtents NscExtents;

NscExtents *nsc_extents_new        (void);
void        nsc_extents_free       (NscExtents *extents);
void        nsc_extents_add        (NscExtents *extents,
                                    guint64     start,
                                    guint64     length);
void        nsc_extents_remove     (NscExtents *extents,
                                    guint64     start,
                                    guint64     length);
gboolean    nsc_extents_covers     (NscExtents *extents,
                                    guint64     start,
                                    guint64     length);
/* The parts of [start, start+length) not in the set. */
GArray     *nsc_extents_missing    (NscExtents *extents,
                                    guint64     start,
                                    guint64     length);
guint64     nsc_extents_total      (NscExtents *extents);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscExtents, nsc_extents_free)

G_END_DECLS

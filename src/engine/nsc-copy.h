/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-io.h"

G_BEGIN_DECLS

typedef struct
{
  guint64        bytes;        /* what to copy; scaled down to half the free space */
  guint          files;        /* 1: one large file; more: a folder of mixed sizes */
  NscDataPattern data;         /* random or zeros */
  gint64         interval_ns;  /* sampling; 0: 0.5 s */
  guint64        seed;
  gint64         settle_ns;    /* idle between writing the sources and copying them */
} NscCopySpec;

typedef struct
{
  guint64    bytes;            /* copied */
  guint      files;
  gboolean   scaled;           /* less than asked: the free space allowed no more */
  gint64     runtime_ns;
  double     bps;
  NscSeries *series;           /* bytes copied per interval; position = bytes so far */
} NscCopyResult;

void     nsc_copy_result_free (NscCopyResult     *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscCopyResult, nsc_copy_result_free)

/* Writes the files to copy in @dir, then copies them within it with O_DIRECT and
 * reports the copy's speed over time. Whatever was measured is returned in
 * @out_result, also when FALSE is returned. */
gboolean nsc_copy_run         (const char        *dir,
                               const NscCopySpec *spec,
                               NscSampleFunc      on_sample,
                               gpointer           user_data,
                               GCancellable      *cancellable,
                               NscCopyResult    **out_result,
                               GError           **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-preset.h"

G_BEGIN_DECLS

/* What a preset will write on a target, known before it runs. */
typedef struct
{
  gboolean is_device;
  guint64  capacity;     /* a device's size, or the free space of a folder */
  guint64  file_size;    /* folders: the test file's size as the run will make it */
  guint    runs;         /* 0: the preset's */
  gint64   time_ns;      /* 0: the preset's */
  guint64  span_cap;
  gboolean strict;
  guint64  leave_free;
  gint64   default_time_ns; /* 0, or the length of timed steps with none of their own */
  double   time_scale;    /* 0, or the factor on every timed step (as the runner's) */
  guint64  cache_bytes;   /* 0, or the drive's SLC cache from its saved results */
  guint    dio_align;     /* 0, or the target's direct-I/O unit: the steps the runner
                           * skips there write nothing */
} NscBudgetTarget;

typedef struct
{
  int         step;      /* -1: before the steps (the test file, a drive state) */
  char        label[64];
  guint64     bytes;     /* at most this many; 0 with @timed */
  gboolean    timed;     /* bounded by time, not by bytes */
  gint64      time_ns;
  gboolean    stops_early; /* stops when its drop has held: @bytes is its cap's bound */
  gboolean    flush;       /* written past the SLC cache after a settled control's data */
  gboolean    flush_capped; /* and cut to the span */
  guint64     probe_usual; /* the quick probe: @bytes is what a fake with a cache as large
                            * as it looks past costs; a drive that stores what it reports
                            * takes about this */
} NscBudgetItem;

/* What @item is expected to write, for the time a run takes: its bytes, or what a
 * good drive costs the quick probe (the bytes stay the promise's bound). */
guint64  nsc_budget_item_expected (const NscBudgetItem *item);

/* The bytes @preset reads at the drive's pace on @t: reads bounded by their region or
 * their bytes (a capacity check's read-back, a surface scan), not by time, every run. */
guint64  nsc_budget_paced_reads (const NscPreset       *preset,
                                 const NscBudgetTarget *t);

/* The writes of @preset on @target, step by step (NscBudgetItem; steps that write
 * nothing are left out). @out_total: the sum of the bounded ones; @out_timed: TRUE
 * when some are bounded by time only. */
GArray  *nsc_write_budget (const NscPreset        *preset,
                           const NscBudgetTarget  *target,
                           guint64                *out_total,
                           gboolean               *out_timed);

/* The free space of the folder @dir and the size a test file of @file_size
 * (NSC_TARGET_SIZE_FREE: all but the reserve) would get there, read without
 * creating anything. */
gboolean nsc_write_budget_folder (const char *dir,
                                  guint64     file_size,
                                  guint64    *out_free,
                                  guint64    *out_file_size,
                                  gboolean   *out_fits,
                                  guint64    *out_largest,
                                  GError    **error);

G_END_DECLS

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
} NscBudgetItem;

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

/* One line for people: "Writes at most 6.0 GiB (2 steps stop once their speed
 * drop has held)", with a timed part when there is one. */
char    *nsc_write_budget_describe (const NscPreset       *preset,
                                    const NscBudgetTarget *target);

/* "That is 0.4 % of the 1.5 TB this drive has written so far; it reports 3 % of its
 * endurance used." @drive_written: the SMART total in bytes. */
char    *nsc_write_budget_describe_wear (guint64 budget,
                                         guint64 drive_written,
                                         int     percentage_used);

/* After a run: "The drive counted 3.1 GiB written (SMART), the run wrote 3.0 GiB".
 * @out_amplified (optional) gets a second line when the drive's count is far above
 * the run's (more than twice and over 1 GiB more): write amplification, or other
 * writes during the run; NULL otherwise. */
char    *nsc_wear_describe (guint64   run_bytes,
                            guint64   smart_before_bytes,
                            guint64   smart_after_bytes,
                            char    **out_amplified);

/* The same from a result's JSON (smart_before, smart_after, bytes_written); NULL
 * when it has no SMART counts. */
char    *nsc_wear_describe_result (JsonObject *result,
                                   char      **out_amplified);

G_END_DECLS

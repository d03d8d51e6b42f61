/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "nsc-budget.h"
#include "nsc-job.h"
#include "nsc-target.h"

G_BEGIN_DECLS

/* The reviews' conditions (000, 004): 40 s per test that names no length of its own,
 * 15 minutes of idle before each test, a 32 GiB span. */
#define NSC_STRICT_TIME_NS  (G_GINT64_CONSTANT (40) * 1000000000)
#define NSC_STRICT_IDLE_NS  (G_GINT64_CONSTANT (15) * 60 * 1000000000)
#define NSC_STRICT_SPAN     (G_GUINT64_CONSTANT (32) << 30)
/* What Quick writes after its settled control's data when no cache was measured:
 * more than the static caches of most drives up to 1 TB (002's 100 GB cache is the
 * exception, and a write-fill in the same run or the drive's history replaces this). */
#define NSC_SETTLED_FLUSH_DEFAULT (G_GUINT64_CONSTANT (8) << 30)

typedef enum
{
  NSC_STEP_JOB,
  NSC_STEP_IDLE,
  NSC_STEP_FILL,
  NSC_STEP_TRIM,
  NSC_STEP_SURFACE,
  NSC_STEP_ERASE,     /* the whole target: TRIM, or NVMe Format/Sanitize via a hook */
  NSC_STEP_COPY,      /* a file or a folder copied within the target's filesystem */
  NSC_STEP_PROBE,     /* the quick probe of a device's real capacity (nsc-probe) */
} NscStepKind;

typedef struct
{
  NscStepKind kind;
  NscJob      job;          /* JOB, SURFACE: the job; FILL, TRIM: its region */
  gint64      idle_ns;      /* IDLE */
  gboolean    time_is_set;  /* JOB: the step names its own duration */
  gboolean    min_block;    /* block size: the target's smallest direct-I/O unit */
  guint       points;       /* SURFACE: positions measured across the region */
  guint       files;        /* COPY: 1, one large file; more, a folder of mixed sizes */
  double      offset_pct;   /* region given as shares of the target (< 0: not) */
  double      span_pct;
  guint64     span_max;     /* a share's region is at most this long (0: no limit) */
  gboolean    no_prefill;   /* reads meet whatever is there (after a TRIM, on purpose) */
  gboolean    skip_unaligned; /* a block size the target cannot do skips the step */
  char        analysis[32]; /* what the run analysis makes of it: "write-fill", "settled-read", … */
  /* The preset a step came from, in a suite: conditions (strict TRIM and idle, reads
   * written and settled) apply where a new one starts. */
  guint       group;
  gint64      group_time_ns; /* that preset's length of a timed step (0: the suite's) */
  guint       group_runs;    /* that preset's runs (0: the suite's) */
  gint64      group_settle_ns; /* that preset's idle between writing what it reads and reading */
  gboolean    no_strict;    /* "strict": false: no TRIM or idle of strict mode before it */
  NscStopRule stop;         /* JOB: stop once the speed drop has held (nsc-budget) */
  guint64     cache_max;    /* PROBE: the largest cache of the drive's own it looks past
                             * (0: the probe's default) */
} NscStep;

typedef struct
{
  char     *name;
  char     *title;
  char     *description;
  char     *category;       /* for lists: cdm, slc, sweeps, endurance, drive; or NULL */
  gboolean  destructive;    /* writes over a whole device: devices only */
  gboolean  needs_device;   /* about the drive itself (erase, surface): no folder */
  gboolean  prepare;        /* write the whole test file before anything is timed */
  guint64   file_size;      /* default test file size, or NSC_TARGET_SIZE_FREE */
  guint     runs;
  gint64    time_ns;        /* default duration of a job step */
  gint64    settle_ns;      /* idle between writing the data its reads read and the reads */
  GArray   *steps;          /* NscStep */
} NscPreset;

NscPreset  *nsc_preset_new_from_data (const char   *data,
                                      gsize         length,
                                      GError      **error);
/* A preset compiled into the program, by name. */
NscPreset  *nsc_preset_lookup        (const char   *name,
                                      GError      **error);
/* The struct keeps the preset's English title and description, which the result
 * records; the words library says them in the user's language. */
/* Names of the built-in presets, in display order. */
char      **nsc_preset_list_names    (void);
/* A preset of one job step (the command line's ad hoc job). */
NscPreset  *nsc_preset_new_single    (const NscJob *job);
void        nsc_preset_free          (NscPreset    *preset);
NscPreset  *nsc_preset_copy          (const NscPreset *preset);
/* @preset with what its whole-region writes wrote read back and checked (--verify):
 * each sequential write step tagged "write-fill" that covers its whole region once
 * writes checked data (NSC_DATA_VERIFY), and a read of the same region, tagged
 * "verify", follows it with no TRIM or idle between. A preset that reads back its
 * writes already (verify) comes back as it is; NULL when it has no such step. */
NscPreset  *nsc_preset_with_verify   (const NscPreset *preset);
/* A surface scan's bytes at each of its @points places (nsc_surface_points) over
 * @span: @bytes (64 MiB when 0), but no more than the span's share of each place (on a
 * small target the places do not overlap), in whole blocks of @block_size, at least
 * one. The runner and the
 * plan both take it from here. */
/* How many of a surface scan's @points places fit in @span, one block of @block_size
 * each at least: all of them on a drive, fewer on a target smaller than that. */
guint       nsc_surface_points       (guint            points,
                                      guint            block_size,
                                      guint64          span);
/* Where place @p of @points (of @per bytes each) starts in a span of @span bytes,
 * from the span's start: evenly from the start to the end (the last place ends at
 * the span's end), each start a whole number of @block_size blocks. */
guint64     nsc_surface_place_offset (guint            p,
                                      guint            points,
                                      guint64          per,
                                      guint64          span,
                                      guint            block_size);
guint64     nsc_settled_flush_bytes  (guint64          cache_bytes,
                                      guint64          span_cap,
                                      guint            align,
                                      gboolean        *capped);
guint64     nsc_surface_place_bytes  (guint64          bytes,
                                      guint            block_size,
                                      guint            points,
                                      guint64          span);

/* Non-negative durations in ns, saturating at G_MAXINT64 instead of overflowing. */
gint64      nsc_duration_add         (gint64           a,
                                      gint64           b);
gint64      nsc_duration_mul         (gint64           a,
                                      gint64           n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscPreset, nsc_preset_free)

G_END_DECLS

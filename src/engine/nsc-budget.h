/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "nsc-series.h"

G_BEGIN_DECLS

/* What a write costs the drive: steps that stop once they know where the speed
 * dropped, and the bytes a preset will write, said before it runs. */

/* A write step whose purpose is to find where the speed drops stops once the drop
 * has held: @hold_samples samples below @drop_share of the reference level since the
 * speed fell, none back halfway to the reference and never more above the line than
 * below it, and at least @hold_bytes and @hold_ns past the first of them. Its hard cap scales
 * with the drive: @cap_factor × the cache measured by a write-fill earlier in the run
 * plus @cap_margin, else @cap_share of the step's region; never more than the
 * step's own bound. */
typedef struct
{
  gboolean enabled;
  double   drop_share;     /* 0.70: below 70 % of the reference */
  guint    early_samples;  /* the reference when no cache was measured: their median */
  guint    hold_samples;
  guint64  hold_bytes;
  gint64   hold_ns;
  guint    min_samples;    /* never stop before this many samples (the analysis needs them) */
  double   cap_factor;
  guint64  cap_margin;
  double   cap_share;
} NscStopRule;

/* Defaults for a "stop": {"when": "drop-held"} with nothing else said. */
void      nsc_stop_rule_init      (NscStopRule  *rule);
/* Reads a step's "stop" member (absent: @rule->enabled stays FALSE). */
gboolean  nsc_stop_rule_parse     (JsonObject   *step,
                                   NscStopRule  *rule,
                                   GError      **error);

/* The step's cap: @cache_bytes is the cache a write-fill in this run measured
 * (0 when it found none), or G_MAXUINT64 when none was measured; @bound is what the
 * step would write without a rule (its region, or its "size"). */
guint64   nsc_stop_rule_cap       (const NscStopRule *rule,
                                   guint64            cache_bytes,
                                   guint64            bound);

typedef enum
{
  NSC_STOP_NONE,         /* no rule, or still running */
  NSC_STOP_DROP_HELD,
  NSC_STOP_CAP,
  NSC_STOP_TIME,
  NSC_STOP_BYTES,
  NSC_STOP_FULL,         /* the region was written once */
  NSC_STOP_CANCELLED,
  NSC_STOP_ERROR,
} NscStopReason;

const char *nsc_stop_reason_to_string (NscStopReason reason);

/* The decision, fed one sample at a time on the job's thread. */
typedef struct
{
  NscStopRule rule;
  double      reference_bps;   /* 0: the median of the first early_samples */
  double      early[16];
  guint       n_early;
  guint       n;               /* samples seen */
  guint       below;           /* since the drop began, below the drop level */
  guint       between;         /* since the drop began, above it but below halfway back */
  guint64     drop_position;   /* bytes written when the current run below began */
  gint64      drop_t_ns;
  gboolean    dropped;         /* a run below is under way */
  gboolean    held;            /* decided: stop */
} NscStopState;

/* @reference_bps: the speed a drop is measured against (the cache's speed from a
 * write-fill in this run), or 0 for the step's own early level. */
void      nsc_stop_state_init     (NscStopState      *state,
                                   const NscStopRule *rule,
                                   double             reference_bps);
/* TRUE once the drop has held: the step may stop. */
gboolean  nsc_stop_state_feed     (NscStopState      *state,
                                   const NscSample   *sample);

G_END_DECLS

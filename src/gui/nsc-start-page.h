/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "nsc-device.h"
#include "nsc-engine.h"
#include "nsc-plan.h"
#include "nsc-result-info.h"

G_BEGIN_DECLS

/* What the start page says before Start: what a preset writes on the target, how long
 * it takes and what it leaves, from the facts known before anything runs. */
typedef struct
{
  const char          *target;        /* a folder, or a drive's node */
  const NscDeviceInfo *device;        /* the target drive; NULL for a folder */
  const NscDeviceInfo *under_folder;  /* the drive behind a folder, when known */
  double               history_write_bps; /* the drive's last write speed from its saved
                                           * results (read off the main thread); 0: none */
  const NscPlan       *plan;          /* the run's plan: what Run will run */
  gboolean             writes_checked; /* the plan's preset is the chosen one with its
                                       * write-fills read back and checked (a
                                       * preference) */
  NscUnits             units;
} NscStartFacts;

/* How long @preset takes, byte-bounded writes at the drive's last speed when known:
 * @out_from_history says so. 0 when it depends on a speed nobody measured. */
gint64  nsc_start_page_estimate_ns        (const NscPreset     *preset,
                                           const NscStartFacts *facts,
                                           gboolean            *out_from_history);
/* The status page's sentence about the target (markup). */
char   *nsc_start_page_target_markup      (const NscPreset     *preset,
                                           const NscStartFacts *facts);
/* Writes, time and what is left (markup), after the preset's own description. */
char   *nsc_start_page_preset_markup      (const NscPreset     *preset,
                                           const NscStartFacts *facts);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "nsc-job.h"

G_BEGIN_DECLS

typedef enum
{
  NSC_STEP_JOB,
  NSC_STEP_IDLE,
  NSC_STEP_FILL,
} NscStepKind;

typedef struct
{
  NscStepKind kind;
  NscJob      job;          /* JOB: the job; FILL: its region */
  gint64      idle_ns;      /* IDLE */
  gboolean    time_is_set;  /* JOB: the step names its own duration */
} NscStep;

typedef struct
{
  char     *name;
  char     *title;
  char     *description;
  gboolean  destructive;    /* writes over a whole device: devices only */
  guint64   file_size;      /* default test file size */
  guint     runs;
  gint64    time_ns;        /* default duration of a job step */
  GArray   *steps;          /* NscStep */
} NscPreset;

NscPreset  *nsc_preset_new_from_data (const char   *data,
                                      gsize         length,
                                      GError      **error);
/* A preset compiled into the program, by name. */
NscPreset  *nsc_preset_lookup        (const char   *name,
                                      GError      **error);
/* Names of the built-in presets, in display order. */
char      **nsc_preset_list_names    (void);
/* A preset of one job step (the command line's ad hoc job). */
NscPreset  *nsc_preset_new_single    (const NscJob *job);
void        nsc_preset_free          (NscPreset    *preset);
/* Seconds the preset takes with these settings, the preparation not counted. */
gint64      nsc_preset_estimate_ns   (const NscPreset *preset,
                                      guint            runs,
                                      gint64           time_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscPreset, nsc_preset_free)

G_END_DECLS

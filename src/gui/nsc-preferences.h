/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "nsc-engine.h"
#include "nsc-result-info.h"

G_BEGIN_DECLS

#define NSC_TYPE_PREFS (nsc_prefs_get_type ())
G_DECLARE_FINAL_TYPE (NscPrefs, nsc_prefs, NSC, PREFS, GObject)

/* The run options the user chose: one property per GSettings key, of the same name,
 * bound to the settings with g_settings_bind when the schema is installed, else kept
 * in memory (uninstalled runs and tests) with the schema's defaults. The fields are
 * for reading; changes go through the properties, which notify. */
struct _NscPrefs
{
  GObject   parent_instance;

  gboolean  custom;          /* custom-test-settings: override the presets' size, duration, runs */
  guint64   test_size;
  guint     duration_seconds;
  guint     runs;
  guint     idle_seconds;
  gboolean  strict;
  gboolean  cdm;             /* CrystalDiskMark's way: 5 runs of 5 s, the best shown */
  gboolean  verify_writes;   /* write-fills read back and checked (the CLI's --verify) */
  NscUnits  units;
};

/* NULL when the schema is not installed. */
GSettings *nsc_prefs_settings_new     (void);
/* @settings NULL: in memory only. */
NscPrefs  *nsc_prefs_new              (GSettings *settings);

/* What the user chose for a run: @overrides (the command line's file_size, runs,
 * time_ns and max_idle_ns; may be NULL) first, then @prefs. The session adds strict's and
 * CrystalDiskMark's defaults; the front end its hooks. */
void       nsc_prefs_run_options      (NscPrefs            *prefs,
                                       const NscRunOptions *overrides,
                                       NscRunOptions       *out);

/* The preset a run of @preset runs with @prefs: with verify-writes, @preset's
 * write-fills read back and checked (nsc_preset_with_verify, the command line's
 * --verify), a new preset; NULL when @preset runs as it is (the preference is off, it
 * has no write-fill to check, or it reads its writes back already). */
NscPreset *nsc_prefs_run_preset       (NscPrefs            *prefs,
                                       const NscPreset     *preset);

/* An AdwPreferencesWindow whose rows are bound to @prefs. */
GtkWindow *nsc_preferences_window_new (GtkWindow *parent,
                                       NscPrefs  *prefs);

G_END_DECLS

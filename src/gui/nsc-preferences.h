/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "nsc-result-info.h"

G_BEGIN_DECLS

/* The run options the user chose, from GSettings when the schema is installed,
 * else kept in memory (uninstalled runs and tests). */
typedef struct
{
  gboolean  custom;          /* override the presets' size, duration and runs */
  guint64   test_size;
  guint     duration_seconds;
  guint     runs;
  guint     idle_seconds;
  gboolean  strict;
  gboolean  cdm;       /* CrystalDiskMark's way: 5 runs of 5 s, the best shown */
  NscUnits  units;
} NscPrefs;

/* NULL when the schema is not installed. */
GSettings *nsc_prefs_settings_new  (void);
void       nsc_prefs_load          (NscPrefs   *prefs,
                                    GSettings  *settings);
void       nsc_prefs_save          (const NscPrefs *prefs,
                                    GSettings  *settings);

typedef void (*NscPrefsChanged) (gpointer user_data);

/* An AdwPreferencesWindow editing @prefs (which must outlive it); @changed runs
 * after every change, once @prefs and @settings hold it. */
GtkWindow *nsc_preferences_window_new (GtkWindow      *parent,
                                       NscPrefs       *prefs,
                                       GSettings      *settings,
                                       NscPrefsChanged changed,
                                       gpointer        user_data);

G_END_DECLS

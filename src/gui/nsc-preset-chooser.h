/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "nsc-engine.h"

G_BEGIN_DECLS

#define NSC_TYPE_PRESET_CHOOSER (nsc_preset_chooser_get_type ())
G_DECLARE_FINAL_TYPE (NscPresetChooser, nsc_preset_chooser, NSC, PRESET_CHOOSER, GtkWidget)

/* Whether @preset is offered for the target. */
typedef gboolean (*NscPresetOfferedFunc) (const NscPreset *preset,
                                          gpointer         user_data);
/* The line under a preset's title in the list ("About 3 minutes"), or NULL. */
typedef char    *(*NscPresetCaptionFunc) (const NscPreset *preset,
                                          gpointer         user_data);

/* The built-in presets in a drop-down, grouped under headings (CrystalDiskMark sets,
 * SLC cache, …), each with its caption; only those @offered accepts are listed.
 * :preset-name is the chosen one's name, notified whenever the choice moves. */
GtkWidget       *nsc_preset_chooser_new             (void);
/* @offered NULL offers every preset. */
void             nsc_preset_chooser_set_funcs       (NscPresetChooser     *self,
                                                     NscPresetOfferedFunc  offered,
                                                     NscPresetCaptionFunc  caption,
                                                     gpointer              user_data);
/* Any built-in preset by name, offered or not; NULL when there is none. */
const NscPreset *nsc_preset_chooser_find            (NscPresetChooser     *self,
                                                     const char           *name);
const NscPreset *nsc_preset_chooser_get_preset      (NscPresetChooser     *self);
const char      *nsc_preset_chooser_get_preset_name (NscPresetChooser     *self);
/* FALSE, choosing nothing, when @name is not offered. */
gboolean         nsc_preset_chooser_select          (NscPresetChooser     *self,
                                                     const char           *name);
/* What is offered, or the captions, changed: keeps the choice where it can, else the
 * first preset; every row shown asks for its caption again. */
void             nsc_preset_chooser_refilter        (NscPresetChooser     *self);

G_END_DECLS

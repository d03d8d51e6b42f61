/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "nsc-engine.h"
#include "nsc-words.h"

G_BEGIN_DECLS

#define NSC_TYPE_WARNINGS_LIST (nsc_warnings_list_get_type ())
G_DECLARE_FINAL_TYPE (NscWarningsList, nsc_warnings_list, NSC, WARNINGS_LIST, GtkWidget)

/* A result's warnings, each one plain sentence (nsc_warning_describe ()) with its
 * numbers and explanation behind an expander, and a button to the test that settles
 * it, which activates "win.select-preset" with the preset's name. Warnings that say
 * the same of several tests share one row that names the others. Hidden when empty. */
GtkWidget *nsc_warnings_list_new       (void);
void       nsc_warnings_list_clear     (NscWarningsList  *self);
void       nsc_warnings_list_add       (NscWarningsList  *self,
                                        const NscWarning *warning);
/* The warnings of a saved result (its "warnings" array). */
void       nsc_warnings_list_add_json  (NscWarningsList  *self,
                                        JsonNode         *result);
guint      nsc_warnings_list_get_count (NscWarningsList  *self);
/* Speeds in the sentences: MB/s with NSC_UNITS_MB, else MiB/s, as the results grid
 * shows them. */
void       nsc_warnings_list_set_unit  (NscWarningsList  *self,
                                        NscUnits          unit);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define NSC_TYPE_REFLOW_BOX (nsc_reflow_box_get_type ())
G_DECLARE_FINAL_TYPE (NscReflowBox, nsc_reflow_box, NSC, REFLOW_BOX, GtkWidget)

/* Its children side by side where the width holds the first at its natural width and
 * the others at "wide-width" each, else one above the other: the results grid beside
 * the chart on a desktop, above it on a phone. libadwaita 1.2 has no breakpoints. */
GtkWidget *nsc_reflow_box_new (void);

G_END_DECLS

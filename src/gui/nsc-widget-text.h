/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Every text that @root shows, one line per label, in the order of the widget tree:
 * labels of hidden widgets and of stack pages not shown are left out; the rows of a
 * collapsed expander are in (a click shows them). For scripts that check what a
 * person reads (--print-page). */
char *nsc_widget_get_visible_text (GtkWidget *root);

G_END_DECLS

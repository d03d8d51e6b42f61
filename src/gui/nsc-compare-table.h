/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "nsc-result-info.h"

G_BEGIN_DECLS

/* Every test's numbers of @results (JsonNode, oldest first) side by side, in @units,
 * each with its difference from the first. @legends: the chart's names for them,
 * which say when a result was cancelled or ran under strict conditions. */
GtkWidget *nsc_compare_table_new (GPtrArray *results,
                                  GPtrArray *legends,
                                  NscUnits   units);

G_END_DECLS

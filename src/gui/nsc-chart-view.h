/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "nsc-chart.h"

G_BEGIN_DECLS

#define NSC_TYPE_CHART_VIEW (nsc_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (NscChartView, nsc_chart_view, NSC, CHART_VIEW, GtkWidget)

GtkWidget *nsc_chart_view_new         (void);
/* Takes @chart (NULL: an empty view). */
void       nsc_chart_view_set_chart   (NscChartView   *self,
                                       NscChart       *chart);
NscChart  *nsc_chart_view_get_chart   (NscChartView   *self);
/* Feeds a live chart and redraws; the renderer decimates per pixel column, so
 * a redraw costs the width, not the number of samples. */
void       nsc_chart_view_append      (NscChartView   *self,
                                       const NscSample *sample);
void       nsc_chart_view_set_units   (NscChartView   *self,
                                       NscUnits   units);
NscUnits nsc_chart_view_get_units (NscChartView  *self);
/* Light or dark, following the system unless forced. */
gboolean   nsc_chart_view_get_dark    (NscChartView   *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "nsc-chart-view.h"
#include "nsc-result-info.h"

G_BEGIN_DECLS

#define NSC_TYPE_CHART_PANEL (nsc_chart_panel_get_type ())
G_DECLARE_FINAL_TYPE (NscChartPanel, nsc_chart_panel, NSC, CHART_PANEL, GtkWidget)

/* A chart with its chooser and export menu: the live chart of a run, one saved
 * result (every chart it has), or several results overlaid for comparison.
 * ::message (const char *text) asks the window for a toast. */
GtkWidget    *nsc_chart_panel_new          (void);
/* A live chart (write-fill or time) for the running step; no chooser. */
void          nsc_chart_panel_show_live    (NscChartPanel  *self,
                                            NscChartKind    kind,
                                            const char     *title);
void          nsc_chart_panel_append       (NscChartPanel  *self,
                                            const NscSample *sample);
/* @results: JsonNode of validated results, the first one leading; @paths: their
 * files (or NULL entries). Offers the kinds every result has. FALSE with @error
 * when they have no chart in common. */
gboolean      nsc_chart_panel_set_results  (NscChartPanel  *self,
                                            GPtrArray      *results,
                                            GPtrArray      *paths,
                                            GError        **error);
void          nsc_chart_panel_clear        (NscChartPanel  *self);
gboolean      nsc_chart_panel_select_kind  (NscChartPanel  *self,
                                            NscChartKind    kind);
void          nsc_chart_panel_set_units    (NscChartPanel  *self,
                                            NscUnits        units);
NscChartView *nsc_chart_panel_get_view     (NscChartPanel  *self);
/* The shown chart as PNG or SVG (by @path's extension), with its caption. */
gboolean      nsc_chart_panel_export       (NscChartPanel  *self,
                                            const char     *path,
                                            int             width,
                                            int             height,
                                            gboolean        dark,
                                            GError        **error);
/* The review sheet of the results shown (A4): PDF, SVG or PNG (at 2×) by
 * @path's extension; several results must be of one preset. */
gboolean      nsc_chart_panel_export_sheet (NscChartPanel  *self,
                                            const char     *path,
                                            gboolean        dark,
                                            GError        **error);
/* The names of the results shown, as the chart's legend has them (a new array). */
GPtrArray    *nsc_chart_panel_get_legends  (NscChartPanel  *self);
/* The CrystalDiskMark-style text of the results shown. */
char         *nsc_chart_panel_get_text     (NscChartPanel  *self);

const char   *nsc_chart_kind_display_name  (NscChartKind    kind);

G_END_DECLS

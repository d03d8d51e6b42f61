/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <json-glib/json-glib.h>
#include <pango/pangocairo.h>

#include "nsc-series.h"
#include "nsc-words.h"

G_BEGIN_DECLS

/* The chart renderer: one object holds the data of one chart (taken from saved
 * results, or fed live sample by sample) and draws it onto any cairo_t, so the
 * GUI's widget, PNG/SVG export and `nandscope-cli chart` draw the same picture.
 * No GTK here. Data are kept in the JSON's units (bytes, bytes/s, ns); the style
 * picks the display units (MiB/s or MB/s), and every axis says which. Text is
 * laid out with Pango and translated (gettext domain GETTEXT_PACKAGE). */

typedef enum
{
  NSC_CHART_WRITE_FILL,   /* x = data written, y = speed; SLC cache shaded, phases marked */
  NSC_CHART_POSITION,     /* x = place on the drive, y = speed: a read-back or surface scan */
  NSC_CHART_QD,           /* x = queue depth (log2), read and write lines */
  NSC_CHART_BS,           /* x = block size (log2), read and write lines */
  NSC_CHART_TIME,         /* x = time, dots per sample + moving average, temperature */
  NSC_CHART_MIXED,        /* x = read share %, y = speed, one line per load */
  NSC_CHART_LATENCY,      /* x = percentile (log-ish), y = latency (log) */
  NSC_CHART_MAP,          /* x = place on the drive: the quick probe's places, kept or lost */
  NSC_CHART_N_KINDS
} NscChartKind;

typedef enum
{
  NSC_CHART_THEME_LIGHT,
  NSC_CHART_THEME_DARK,
  NSC_CHART_THEME_HIGH_CONTRAST,        /* black on white, strong colours, thicker lines */
  NSC_CHART_THEME_HIGH_CONTRAST_DARK,   /* white on black */
  NSC_CHART_N_THEMES
} NscChartTheme;

/* The font of exports and of a style without one: a family list (Cantarell where
 * installed, else fontconfig's sans serif, DejaVu Sans on Debian); the size then
 * follows the picture (1/58 of its width or 1/34 of its height, 8 to 16 units). */
#define NSC_CHART_DEFAULT_FONT "Cantarell, Sans"

typedef struct
{
  NscChartTheme  theme;
  NscUnits       units;        /* MiB/s and GiB (default), or MB/s and GB */
  gboolean       caption;      /* draw the caption line at the bottom (exports) */
  gboolean       title;        /* draw the title (TRUE by default) */
  double         font_scale;   /* multiplies the base text size (1.0) */
  /* Text: borrowed, must outlive the draw. NULL: NSC_CHART_DEFAULT_FONT sized from
   * the chart. A font with a size draws at that size: points at @resolution dots
   * per inch (0: 96), so that the desktop's text scaling is honoured. */
  const PangoFontDescription *font;
  double                      resolution;
  const cairo_font_options_t *font_options;   /* NULL: the surface's */
} NscChartStyle;

typedef struct _NscChart NscChart;

#define NSC_CHART_STEP_AUTO G_MAXUINT

/* Fills @style with the defaults: light or dark, MiB/s, title, no caption, the
 * default font. */
void          nsc_chart_style_init      (NscChartStyle  *style,
                                         gboolean        dark);
/* Takes the font, resolution and font options of @context (a widget's), borrowed:
 * the chart's text then looks like the rest of the window. */
void          nsc_chart_style_set_pango_context (NscChartStyle *style,
                                         PangoContext   *context);
/* "light", "dark", "high-contrast", "high-contrast-dark" */
const char   *nsc_chart_theme_to_string (NscChartTheme   theme);
gboolean      nsc_chart_theme_from_string (const char   *name,
                                         NscChartTheme  *out_theme);

/* "write-fill", "position", "qd", "bs", "time", "mixed", "latency", "map" */
const char   *nsc_chart_kind_to_string  (NscChartKind    kind);
gboolean      nsc_chart_kind_from_string (const char    *name,
                                         NscChartKind   *out_kind);

/* Which charts a result has data for, in the order above; @n_kinds gets the count. */
NscChartKind *nsc_chart_kinds_for_result (JsonNode      *result,
                                         guint          *n_kinds);
/* "write-fill, time, latency": for messages. */
char         *nsc_chart_kinds_describe  (JsonNode       *result);

/* A chart of @kind from a result that nsc_result_file_validate() accepted.
 * @step: the step index for the per-step kinds (time, latency, write-fill,
 * position), or
 * NSC_CHART_STEP_AUTO for the most telling one; ignored by the kinds that gather
 * steps (qd, bs, mixed). Fails with NSC_ERROR_NOT_FOUND when the result has no
 * data for @kind (the message names the kinds it has). */
NscChart     *nsc_chart_new_for_result  (JsonNode       *result,
                                         NscChartKind    kind,
                                         guint           step,
                                         GError        **error);
/* Adds another result to compare with, drawn in its own colour with @legend
 * (NULL: the drive's model and the date). The first result's legend can be set
 * with nsc_chart_set_legend(). Fails when @other has no data for the kind. */
gboolean      nsc_chart_add_result      (NscChart       *chart,
                                         JsonNode       *other,
                                         const char     *legend,
                                         GError        **error);
void          nsc_chart_set_legend      (NscChart       *chart,
                                         guint           dataset,
                                         const char     *legend);
void          nsc_chart_set_title       (NscChart       *chart,
                                         const char     *title);
const char   *nsc_chart_get_title       (NscChart       *chart);
/* The caption for exports (NULL: none), which the front ends set from
 * nsc_result_info_caption () so that it is the same from both: drive model,
 * capacity, firmware, interface, date, app version, preset. */
const char   *nsc_chart_get_caption     (NscChart       *chart);
void          nsc_chart_set_caption     (NscChart       *chart,
                                         const char     *caption);
NscChartKind  nsc_chart_get_kind        (NscChart       *chart);
guint         nsc_chart_get_n_datasets  (NscChart       *chart);

/* Live charts (write-fill, position and time): the GUI feeds the samples of the
 * running step as they arrive. Drawing cost follows the width, not the sample count. */
NscChart     *nsc_chart_new_live        (NscChartKind    kind,
                                         const char     *title);
void          nsc_chart_live_append     (NscChart       *chart,
                                         const NscSample *sample);
void          nsc_chart_live_append_temperature (NscChart *chart,
                                         gint64          t_ns,
                                         double          celsius);
/* Forgets the samples (a new step starts). */
void          nsc_chart_live_clear      (NscChart       *chart);
guint         nsc_chart_live_get_n_samples (NscChart    *chart);

/* Draws the chart into the rectangle (0, 0, @width, @height) of @cr's user space.
 * @style may be NULL (light defaults). */
void          nsc_chart_draw            (NscChart       *chart,
                                         cairo_t        *cr,
                                         double          width,
                                         double          height,
                                         const NscChartStyle *style);

/* The plot area of the last draw, in @cr's user units (for hit-testing). */
gboolean      nsc_chart_get_plot_area   (NscChart       *chart,
                                         cairo_rectangle_t *area);
/* Maps a data point of the last draw (x in the kind's data unit: bytes written,
 * place on the drive in bytes, queue depth, block size in bytes, seconds, read %,
 * percentile; y in bytes/s, or ns for latency) to user-space coordinates. FALSE before the first draw. */
gboolean      nsc_chart_data_to_user    (NscChart       *chart,
                                         double          x,
                                         double          y,
                                         double         *ux,
                                         double         *uy);

/* Writes a PNG or SVG (from @path's extension) of @width × @height with the
 * caption; MiB/s. */
gboolean      nsc_chart_export          (NscChart       *chart,
                                         const char     *path,
                                         int             width,
                                         int             height,
                                         gboolean        dark,
                                         GError        **error);
/* The same with a full style (units, caption…). */
gboolean      nsc_chart_export_with_style (NscChart     *chart,
                                         const char     *path,
                                         int             width,
                                         int             height,
                                         const NscChartStyle *style,
                                         GError        **error);

void          nsc_chart_free            (NscChart       *chart);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscChart, nsc_chart_free)

G_END_DECLS

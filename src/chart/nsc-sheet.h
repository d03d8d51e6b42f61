/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-chart.h"

G_BEGIN_DECLS

/* A review sheet: a whole run on one page, ready to publish. The drive's facts,
 * the headline numbers (the Quick grid when the run has one), every chart the
 * run has data for in a grid, the warnings in words, the test bench and the
 * conditions, the app's name and version. Several results of the same preset
 * make one sheet with one line per drive and a legend. Drawn with cairo and
 * Pango like the charts (no GTK); exported as PDF, SVG or PNG. */

typedef enum
{
  NSC_SHEET_LAYOUT_A4,      /* portrait A4: print, PDF; 1× is 150 dpi, 2× 300 dpi */
  NSC_SHEET_LAYOUT_WIDE,    /* 16:9: slides and screens; 1× is 1920 × 1080 */
  NSC_SHEET_N_LAYOUTS
} NscSheetLayout;

typedef struct _NscSheet NscSheet;

/* The most results one sheet compares: each gets a colour, a line and columns. */
#define NSC_SHEET_MAX_RESULTS 4

/* "a4", "16:9" */
const char   *nsc_sheet_layout_to_string   (NscSheetLayout   layout);
gboolean      nsc_sheet_layout_from_string (const char      *name,
                                            NscSheetLayout  *out_layout);
/* The page in its own units (pixels at 1×). */
void          nsc_sheet_layout_get_size    (NscSheetLayout   layout,
                                            double          *width,
                                            double          *height);

/* A sheet of @result (validated by nsc_result_file_validate()). */
NscSheet     *nsc_sheet_new                (JsonNode        *result,
                                            GError         **error);
/* Another result of the same preset, compared line by line. @legend: NULL for the
 * drive's model and the date. Fails for a result of another preset. */
gboolean      nsc_sheet_add_result         (NscSheet        *sheet,
                                            JsonNode        *other,
                                            const char      *legend,
                                            GError         **error);
/* The page's title: the preset and the drive, and a cancelled run says so. */
const char   *nsc_sheet_get_title          (NscSheet        *sheet);
guint         nsc_sheet_get_n_results      (NscSheet        *sheet);

/* Draws the page into (0, 0, width, height) of @layout's size in @cr's user space.
 * @style: theme and units (its font and caption are the sheet's own). */
void          nsc_sheet_draw               (NscSheet        *sheet,
                                            cairo_t         *cr,
                                            NscSheetLayout   layout,
                                            const NscChartStyle *style);

/* Whether @path names a file a sheet can be written to: .pdf, .svg or .png. */
gboolean      nsc_sheet_path_is_supported  (const char      *path);
/* Whether @path names a PNG (the only format with a scale). */
gboolean      nsc_sheet_path_is_png        (const char      *path);

/* Writes the page as PDF, SVG or PNG, from @path's extension. @scale multiplies a
 * PNG's pixels (1 or 2: HiDPI screens and print); vector files take 1. */
gboolean      nsc_sheet_export             (NscSheet        *sheet,
                                            const char      *path,
                                            NscSheetLayout   layout,
                                            const NscChartStyle *style,
                                            int              scale,
                                            GError         **error);

void          nsc_sheet_free               (NscSheet        *sheet);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscSheet, nsc_sheet_free)

G_END_DECLS

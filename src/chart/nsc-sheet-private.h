/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-chart-private.h"
#include "nsc-sheet.h"

G_BEGIN_DECLS

/* One string of the last draw: which part of the page it belongs to ("title",
 * "drive", "headline", "bench", "warnings", "footer", "chart-title", "chart"),
 * its text and its Pango ink extents in device space. */
typedef struct
{
  char           *element;
  char           *text;
  NscChartTextBox box;
  gboolean        cut;      /* ellipsized: the page shows only its start */
  NscChartTextBox cell;     /* a chart's string: its chart's cell, device space */
} NscSheetText;

/* Every string the last draw laid out, the charts' own included (tests). */
GPtrArray *_nsc_sheet_get_texts  (NscSheet *sheet);
/* The charts of the last draw, in the page's order (NscChart). */
GPtrArray *_nsc_sheet_get_charts (NscSheet *sheet);

/* Adds <title> and <desc> (one line per string) to the SVG that cairo wrote at
 * @path: cairo writes text as glyph outlines, so the file says its words there. */
gboolean   _nsc_svg_add_metadata (const char *path,
                                  const char *title,
                                  const char *desc,
                                  GError    **error);
/* Ends a drawing: destroys @cr, writes @surface to @path as PNG when @png (a vector
 * surface wrote itself as it was drawn), finishes and destroys it; FALSE with a
 * sentence in @error when cairo could not. */
gboolean   _nsc_surface_write    (cairo_t          *cr,
                                  cairo_surface_t  *surface,
                                  const char       *path,
                                  gboolean          png,
                                  GError          **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Drawing an NscChart: layout, axes with round ticks, the lines (decimated per
 * pixel column, so the cost follows the width and not the sample count), the
 * write-fill's cache annotation, legend and caption; PNG and SVG export. */
#include "config.h"

#include <cairo.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "nsc-chart-private.h"
#include "nsc-sheet-private.h"
#include "nsc-error.h"
#include "nsc-result-file.h"
#include "nsc-units.h"

enum
{
  AXIS_LINEAR,
  AXIS_LOG2,
  AXIS_LOG10,
  AXIS_PERCENTILE,
};

typedef struct { double r, g, b; } Rgb;

typedef struct
{
  Rgb bg, text, muted, grid, axis, cache, phase, temperature;
  Rgb series[8];
  double line_scale;      /* data line widths */
} Palette;

/* GNOME's palette: light 3/4 shades on white, the lighter 2 shades on dark. */
static const Palette light_palette = {
  .bg = { 1, 1, 1 },
  .text = { 0.14, 0.14, 0.16 },
  .muted = { 0.40, 0.40, 0.43 },
  .grid = { 0.89, 0.89, 0.90 },
  .axis = { 0.55, 0.55, 0.57 },
  .cache = { 0.18, 0.76, 0.49 },
  .phase = { 0.35, 0.35, 0.38 },
  .temperature = { 0.75, 0.11, 0.16 },
  .series = {
    { 0.11, 0.44, 0.85 },   /* blue */
    { 0.90, 0.38, 0.00 },   /* orange */
    { 0.15, 0.64, 0.41 },   /* green */
    { 0.51, 0.24, 0.61 },   /* purple */
    { 0.75, 0.11, 0.16 },   /* red */
    { 0.00, 0.56, 0.60 },   /* teal */
    { 0.61, 0.45, 0.00 },   /* brown-yellow */
    { 0.39, 0.27, 0.17 },   /* brown */
  },
  .line_scale = 1,
};

static const Palette dark_palette = {
  .bg = { 0.12, 0.12, 0.13 },
  .text = { 0.90, 0.90, 0.88 },
  .muted = { 0.66, 0.66, 0.64 },
  .grid = { 0.22, 0.22, 0.24 },
  .axis = { 0.45, 0.45, 0.47 },
  .cache = { 0.34, 0.89, 0.54 },
  .phase = { 0.75, 0.75, 0.73 },
  .temperature = { 0.96, 0.38, 0.32 },
  .series = {
    { 0.38, 0.63, 0.92 },
    { 1.00, 0.64, 0.28 },
    { 0.34, 0.89, 0.54 },
    { 0.86, 0.54, 0.87 },
    { 0.96, 0.38, 0.32 },
    { 0.38, 0.85, 0.87 },
    { 0.98, 0.85, 0.30 },
    { 0.80, 0.66, 0.52 },
  },
  .line_scale = 1,
};

/* High contrast: black and white, grid and muted text darker, colours dark
 * enough on white (bright enough on black) for 4.5:1 and more, thicker lines. */
static const Palette high_contrast_palette = {
  .bg = { 1, 1, 1 },
  .text = { 0, 0, 0 },
  .muted = { 0.12, 0.12, 0.12 },
  .grid = { 0.70, 0.70, 0.70 },
  .axis = { 0, 0, 0 },
  .cache = { 0.00, 0.45, 0.20 },
  .phase = { 0, 0, 0 },
  .temperature = { 0.65, 0.00, 0.05 },
  .series = {
    { 0.00, 0.25, 0.75 },
    { 0.70, 0.22, 0.00 },
    { 0.00, 0.42, 0.13 },
    { 0.42, 0.00, 0.55 },
    { 0.70, 0.00, 0.08 },
    { 0.00, 0.37, 0.40 },
    { 0.40, 0.30, 0.00 },
    { 0.25, 0.15, 0.05 },
  },
  .line_scale = 1.5,
};

static const Palette high_contrast_dark_palette = {
  .bg = { 0, 0, 0 },
  .text = { 1, 1, 1 },
  .muted = { 0.90, 0.90, 0.90 },
  .grid = { 0.40, 0.40, 0.40 },
  .axis = { 1, 1, 1 },
  .cache = { 0.40, 1.00, 0.60 },
  .phase = { 1, 1, 1 },
  .temperature = { 1.00, 0.45, 0.40 },
  .series = {
    { 0.45, 0.72, 1.00 },
    { 1.00, 0.70, 0.30 },
    { 0.40, 1.00, 0.60 },
    { 0.95, 0.65, 1.00 },
    { 1.00, 0.45, 0.40 },
    { 0.40, 0.95, 0.95 },
    { 1.00, 0.92, 0.35 },
    { 0.90, 0.78, 0.65 },
  },
  .line_scale = 1.5,
};

static const Palette *const palettes[NSC_CHART_N_THEMES] = {
  &light_palette, &dark_palette, &high_contrast_palette, &high_contrast_dark_palette,
};

typedef struct
{
  NscChart            *chart;
  const NscChartStyle *style;
  const Palette       *pal;
  cairo_t             *cr;
  PangoLayout         *layout;
  PangoFontDescription *font;    /* the style's family; sizes set per text */
  double               fs;       /* base text size, user units */
  double               width, height;
  NscUnits             units;    /* of speeds: MiB/s or MB/s */
  gboolean             binary;   /* sizes in GiB, else GB: as the speeds */
  gboolean             have_secondary;
  gboolean             multi;    /* several datasets: colour by dataset */
  cairo_rectangle_t    box;      /* the write-fill's summary box; empty: none */
  cairo_rectangle_t    cache_label; /* the write-fill's "SLC cache" label; empty: none */
  guint                path_ops;
} Ctx;

/* ---- small helpers ------------------------------------------------------ */

static void
set_rgb (cairo_t   *cr,
         const Rgb *c,
         double     alpha)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, alpha);
}

static gboolean
is_dark (const NscChartStyle *style)
{
  return style->theme == NSC_CHART_THEME_DARK || style->theme == NSC_CHART_THEME_HIGH_CONTRAST_DARK;
}

void
_nsc_chart_text_font (PangoLayout          *layout,
                      PangoFontDescription *font,
                      double                size,
                      gboolean              bold)
{
  pango_font_description_set_absolute_size (font, MAX (size, 1) * PANGO_SCALE);
  pango_font_description_set_weight (font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_layout_set_font_description (layout, font);
}

double
_nsc_chart_text_width (PangoLayout *layout,
                       const char  *text)
{
  PangoRectangle logical;

  pango_layout_set_width (layout, -1);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  return logical.width;
}

static void
font (Ctx     *c,
      double   size,
      gboolean bold)
{
  _nsc_chart_text_font (c->layout, c->font, size, bold);
}

static double
text_width (Ctx        *c,
            const char *text)
{
  return _nsc_chart_text_width (c->layout, text);
}

/* Bold at @size, or smaller (to 60 %) until @text is no wider than @width. */
static void
fit_font (Ctx        *c,
          const char *text,
          double      size,
          double      width)
{
  double s = size;
  font (c, s, TRUE);
  while (text_width (c, text) > width && s > size * 0.6)
    font (c, s *= 0.93, TRUE);
}

/* @align: 0 left, 0.5 centre, 1 right; @y is the baseline. */
static void
show_text (Ctx        *c,
           const char *text,
           double      x,
           double      y,
           double      align)
{
  double width, baseline;
  /* The matrix may have changed (rotated axis titles): metrics follow it. */
  pango_cairo_update_layout (c->cr, c->layout);
  width = text_width (c, text);
  baseline = pango_layout_get_baseline (c->layout) / (double) PANGO_SCALE;
  cairo_move_to (c->cr, x - align * width, y - baseline);
  {
    NscChartTextBox box;
    _nsc_chart_layout_device_box (c->cr, c->layout, &box);
    g_array_append_val (c->chart->text_boxes, box);
  }
  pango_cairo_show_layout (c->cr, c->layout);
  g_ptr_array_add (c->chart->texts, g_strdup (text));
}

void
_nsc_chart_layout_device_box (cairo_t         *cr,
                              PangoLayout     *layout,
                              NscChartTextBox *box)
{
  PangoRectangle ink;
  double x0, y0, x1 = -G_MAXDOUBLE, y1 = -G_MAXDOUBLE, cx, cy;

  pango_layout_get_extents (layout, &ink, NULL);
  cairo_get_current_point (cr, &cx, &cy);
  x0 = y0 = G_MAXDOUBLE;
  /* The four corners through the matrix: rotated text gets its bounding box. */
  for (guint k = 0; k < 4; k++)
    {
      double px = cx + (ink.x + ((k & 1) ? ink.width : 0)) / (double) PANGO_SCALE;
      double py = cy + (ink.y + ((k & 2) ? ink.height : 0)) / (double) PANGO_SCALE;
      cairo_user_to_device (cr, &px, &py);
      x0 = MIN (x0, px);
      y0 = MIN (y0, py);
      x1 = MAX (x1, px);
      y1 = MAX (y1, py);
    }
  box->x = x0;
  box->y = y0;
  box->width = ink.width > 0 ? x1 - x0 : 0;
  box->height = ink.height > 0 ? y1 - y0 : 0;
}

void
_nsc_chart_theme_color (NscChartTheme theme,
                        NscChartColor which,
                        guint         index,
                        double        rgb[3])
{
  const Palette *pal = palettes[(guint) theme < NSC_CHART_N_THEMES ? theme : NSC_CHART_THEME_LIGHT];
  const Rgb *c;
  switch (which)
    {
    case NSC_CHART_COLOR_BG:
      c = &pal->bg;
      break;
    case NSC_CHART_COLOR_TEXT:
      c = &pal->text;
      break;
    case NSC_CHART_COLOR_MUTED:
      c = &pal->muted;
      break;
    case NSC_CHART_COLOR_GRID:
      c = &pal->grid;
      break;
    case NSC_CHART_COLOR_SERIES:
    default:
      c = &pal->series[index % G_N_ELEMENTS (pal->series)];
      break;
    }
  rgb[0] = c->r;
  rgb[1] = c->g;
  rgb[2] = c->b;
}

static const char *
speed_unit (Ctx *c)
{
  return nsc_units_label (c->units);
}

static double
speed_div (Ctx *c)
{
  return nsc_units_divisor (c->units);
}

static char *
format_speed (Ctx   *c,
              double bps)
{
  g_autofree char *n = nsc_format_speed (bps, c->units);
  return nsc_words_speed_label (n, c->units);
}

static char *
format_bytes (Ctx   *c,
              double bytes)
{
  /* Translators: size units, binary then decimal */
  static const char *const bin[] = { N_("B"), N_("KiB"), N_("MiB"), N_("GiB"), N_("TiB"), N_("PiB") };
  static const char *const dec[] = { N_("B"), N_("kB"), N_("MB"), N_("GB"), N_("TB"), N_("PB") };
  double k = c->binary ? 1024 : 1000;
  guint i = 0;
  g_autofree char *n = NULL;
  while (bytes >= k * 0.995 && i < 5)
    {
      bytes /= k;
      i++;
    }
  n = nsc_format_significant (bytes);
  return g_strdup_printf ("%s %s", n, _(c->binary ? bin[i] : dec[i]));
}

/* ---- axes --------------------------------------------------------------- */

static double
axis_t (const NscAxis *a,
        double         v)
{
  switch (a->scale)
    {
    case AXIS_LOG2:
      return v > 0 ? log2 (v) : -INFINITY;
    case AXIS_LOG10:
      return v > 0 ? log10 (v) : -INFINITY;
    case AXIS_PERCENTILE:
      return v < 100 ? -log10 (1 - v / 100) : INFINITY;
    case AXIS_LINEAR:
    default:
      return v;
    }
}

/* Axis min/max are kept in transformed space. */
static double
map_x (NscChart *chart,
       double    v)
{
  const NscAxis *a = &chart->ax;
  return chart->plot.x + (axis_t (a, v) - a->min) / (a->max - a->min) * chart->plot.width;
}

static double
map_y (NscChart      *chart,
       const NscAxis *a,
       double         v)
{
  return chart->plot.y + chart->plot.height
         - (axis_t (a, v) - a->min) / (a->max - a->min) * chart->plot.height;
}

static double
nice_step (double range,
           double target)
{
  double raw = range / MAX (target, 1);
  double mag = pow (10, floor (log10 (raw)));
  double f = raw / mag;
  if (f <= 1)
    return mag;
  if (f <= 2)
    return 2 * mag;
  if (f <= 2.5)
    return 2.5 * mag;
  if (f <= 5)
    return 5 * mag;
  return 10 * mag;
}

typedef struct
{
  double value;   /* data units */
  char  *label;
} Tick;

static void
tick_clear (gpointer data)
{
  g_free (((Tick *) data)->label);
}

static GArray *
ticks_new (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (Tick));
  g_array_set_clear_func (a, tick_clear);
  return a;
}

static void
ticks_add (GArray *ticks,
           double  value,
           char   *label)
{
  Tick t = { value, label };
  g_array_append_val (ticks, t);
}

/* A linear axis from 0 (or @lo) to a round number above @hi, in display units of
 * @unit; fills @ticks. */
static void
linear_axis (NscAxis *a,
             double   lo,
             double   hi,
             double   unit,
             double   target,
             double   forced_step,
             GArray  *ticks)
{
  double step, dlo = lo / unit, dhi = hi / unit;
  if (!(dhi > dlo))
    dhi = dlo + 1;
  step = forced_step > 0 ? forced_step : nice_step (dhi - dlo, target);
  dlo = floor (dlo / step + 1e-9) * step;
  dhi = ceil (dhi / step - 1e-9) * step;
  a->scale = AXIS_LINEAR;
  a->unit = unit;
  a->min = dlo * unit;
  a->max = dhi * unit;
  for (double v = dlo; v <= dhi + step * 1e-6; v += step)
    {
      int decimals = 0;
      double r = fabs (v) < step * 1e-6 ? 0 : v;
      while (decimals < 6 && fabs (step * pow (10, decimals) - round (step * pow (10, decimals))) > 1e-6)
        decimals++;
      ticks_add (ticks, r * unit, g_strdup_printf ("%.*f", decimals, r));
    }
}

/* ---- data ranges -------------------------------------------------------- */

static void
line_range (NscChartLine *line,
            double       *xmin,
            double       *xmax,
            double       *ymin,
            double       *ymax)
{
  for (guint i = 0; i < line->x->len; i++)
    {
      double x = g_array_index (line->x, double, i), y = g_array_index (line->y, double, i);
      if (!isfinite (x) || !isfinite (y))
        continue;
      *xmin = MIN (*xmin, x);
      *xmax = MAX (*xmax, x);
      *ymin = MIN (*ymin, y);
      *ymax = MAX (*ymax, y);
    }
}

static void
data_range (NscChart *chart,
            gboolean  secondary,
            double   *xmin,
            double   *xmax,
            double   *ymin,
            double   *ymax)
{
  *xmin = *ymin = INFINITY;
  *xmax = *ymax = -INFINITY;
  for (guint d = 0; d < chart->datasets->len; d++)
    {
      NscChartDataset *ds = g_ptr_array_index (chart->datasets, d);
      for (guint i = 0; i < ds->lines->len; i++)
        {
          NscChartLine *line = g_ptr_array_index (ds->lines, i);
          if (line->secondary == secondary)
            line_range (line, xmin, xmax, ymin, ymax);
        }
      /* A read across the drive runs to the region's end, however far it got. */
      if (!secondary && isfinite (ds->x_end))
        *xmax = MAX (*xmax, ds->x_end);
      if (!secondary)
        for (guint i = 0; i < ds->phases->len; i++)
          {
            NscChartPhase *ph = &g_array_index (ds->phases, NscChartPhase, i);
            *ymax = MAX (*ymax, ph->bps);
            *xmax = MAX (*xmax, ph->end);
          }
    }
}

/* Moving-average window of a time chart: 30 s, or a tenth of the run. */
static double
average_window (NscChart *chart)
{
  double xmin, xmax, ymin, ymax;
  data_range (chart, FALSE, &xmin, &xmax, &ymin, &ymax);
  if (!isfinite (xmax))
    return 30;
  return MIN (30.0, MAX (xmax, 0) / 10);
}

static char *
window_label (double w)
{
  if (w >= 1)
    /* Translators: a duration in seconds, "30 s" */
    return g_strdup_printf (_("%.0f s"), w);
  /* Translators: a duration in milliseconds, "500 ms" */
  return g_strdup_printf (_("%.0f ms"), w * 1000);
}

/* ---- colours ------------------------------------------------------------ */

static Rgb
line_color (Ctx          *c,
            guint         d,
            guint         i,
            NscChartLine *line)
{
  if (c->multi)
    return c->pal->series[d % G_N_ELEMENTS (c->pal->series)];
  if (line->secondary)
    return c->pal->temperature;
  if (line->pattern != NSC_CHART_PATTERN_NONE || line->role == NSC_CHART_LINE_MIXED)
    return c->pal->series[i % G_N_ELEMENTS (c->pal->series)];
  switch (line->role)
    {
    case NSC_CHART_LINE_KEPT:
      return c->pal->series[2];   /* green */
    case NSC_CHART_LINE_LOST:
      return c->pal->series[4];   /* red */
    case NSC_CHART_LINE_READ:
      return c->pal->series[0];
    case NSC_CHART_LINE_WRITE:
    case NSC_CHART_LINE_SPEED:
      return c->pal->series[c->chart->kind == NSC_CHART_WRITE_FILL || c->chart->live ? 0 : 1];
    case NSC_CHART_LINE_MIXED:
    case NSC_CHART_LINE_TEMPERATURE:
    case NSC_CHART_N_LINE_ROLES:
    default:
      return c->pal->series[i % G_N_ELEMENTS (c->pal->series)];
    }
}

/* In comparisons the colour says which drive, the dash which line. */
static void
line_dash (Ctx          *c,
           guint         i,
           NscChartLine *line)
{
  double dash[2] = { c->fs * 0.6, c->fs * 0.35 };
  double dots[2] = { c->fs * 0.12, c->fs * 0.3 };
  double long_dash[2] = { c->fs * 1.2, c->fs * 0.35 };
  double dash_dot[4] = { c->fs * 0.6, c->fs * 0.25, c->fs * 0.12, c->fs * 0.25 };
  if (line->secondary)
    cairo_set_dash (c->cr, dots, 2, 0);
  else if (c->multi && i % 4 == 1)
    cairo_set_dash (c->cr, dash, 2, 0);
  else if (c->multi && i % 4 == 2)
    cairo_set_dash (c->cr, long_dash, 2, 0);
  else if (c->multi && i % 4 == 3)
    cairo_set_dash (c->cr, dash_dot, 4, 0);
  else
    cairo_set_dash (c->cr, NULL, 0, 0);
}

/* ---- decimated drawing -------------------------------------------------- */

/* Adds a polyline through the points to the path. With more points than twice
 * the plot's width in pixels, each pixel column keeps only its lowest and highest
 * value, and the path becomes the outline of that min/max band (top edge left to
 * right, bottom edge back): at most two elements per column, and a simple
 * polygon that cairo strokes and fills fast. Returns TRUE for a band, which the
 * caller fills as well as strokes. */
static gboolean
path_polyline (Ctx           *c,
               const NscAxis *ay,
               const double  *xs,
               const double  *ys,
               guint          n)
{
  cairo_t *cr = c->cr;
  NscChart *chart = c->chart;
  gboolean started = FALSE;
  double col = NAN, mn = 0, mx = 0;
  g_autoptr(GArray) band = NULL;

  if (n <= 2 * chart->plot.width + 2)
    {
      for (guint i = 0; i < n; i++)
        {
          double X = map_x (chart, xs[i]), Y = map_y (chart, ay, ys[i]);
          if (!isfinite (X) || !isfinite (Y))
            {
              started = FALSE;
              continue;
            }
          if (started)
            cairo_line_to (cr, X, Y);
          else
            cairo_move_to (cr, X, Y);
          started = TRUE;
          c->path_ops++;
        }
      return FALSE;
    }

  band = g_array_sized_new (FALSE, FALSE, 3 * sizeof (double), (guint) chart->plot.width + 4);
  for (guint i = 0; i <= n; i++)
    {
      double Y = 0, cx = NAN;
      if (i < n)
        {
          double X = map_x (chart, xs[i]);
          Y = map_y (chart, ay, ys[i]);
          if (!isfinite (X) || !isfinite (Y))
            continue;
          cx = floor (X);
        }
      if (i < n && cx == col)
        {
          mn = MIN (mn, Y);
          mx = MAX (mx, Y);
          continue;
        }
      if (!isnan (col))
        {
          double v[3] = { col + 0.5, mn, mx };
          g_array_append_vals (band, v, 1);
        }
      col = cx;
      mn = mx = Y;
    }
  if (band->len == 0)
    return FALSE;
  for (guint i = 0; i < band->len; i++)
    {
      const double *v = (const double *) band->data + 3 * i;
      if (i == 0)
        cairo_move_to (cr, v[0], v[1]);
      else
        cairo_line_to (cr, v[0], v[1]);
    }
  for (guint i = band->len; i-- > 0;)
    {
      const double *v = (const double *) band->data + 3 * i;
      cairo_line_to (cr, v[0], v[2]);
    }
  cairo_close_path (cr);
  c->path_ops += 2 * band->len;
  return TRUE;
}

/* Dots per sample; beyond two per pixel column, one bar per column from the
 * lowest dot to the highest. */
static void
path_dots (Ctx           *c,
           const NscAxis *ay,
           const double  *xs,
           const double  *ys,
           guint          n,
           double         r)
{
  cairo_t *cr = c->cr;
  NscChart *chart = c->chart;
  double col = NAN, mn = 0, mx = 0;

  if (n <= 2 * chart->plot.width + 2)
    {
      for (guint i = 0; i < n; i++)
        {
          double X = map_x (chart, xs[i]), Y = map_y (chart, ay, ys[i]);
          if (!isfinite (X) || !isfinite (Y))
            continue;
          cairo_rectangle (cr, X - r, Y - r, 2 * r, 2 * r);
          c->path_ops++;
        }
      return;
    }
  for (guint i = 0; i <= n; i++)
    {
      double Y = 0, cx = NAN;
      if (i < n)
        {
          double X = map_x (chart, xs[i]);
          Y = map_y (chart, ay, ys[i]);
          if (!isfinite (X) || !isfinite (Y))
            continue;
          cx = floor (X);
        }
      if (i < n && cx == col)
        {
          mn = MIN (mn, Y);
          mx = MAX (mx, Y);
          continue;
        }
      if (!isnan (col))
        {
          cairo_rectangle (cr, col + 0.5 - r, mn - r, 2 * r, mx - mn + 2 * r);
          c->path_ops++;
        }
      col = cx;
      mn = mx = Y;
    }
}

/* Trailing moving average over @window (x units): the mean of the samples in
 * (x - window, x]. */
static double *
moving_average (const double *xs,
                const double *ys,
                guint         n,
                double        window)
{
  double *avg = g_new (double, MAX (n, 1));
  double sum = 0;
  guint lo = 0, count = 0;
  for (guint i = 0; i < n; i++)
    {
      if (isfinite (ys[i]))
        {
          sum += ys[i];
          count++;
        }
      while (lo < i && xs[lo] <= xs[i] - window)
        {
          if (isfinite (ys[lo]))
            {
              sum -= ys[lo];
              count--;
            }
          lo++;
        }
      avg[i] = count ? sum / count : NAN;
    }
  return avg;
}

static void
draw_marker (Ctx   *c,
             double X,
             double Y,
             Rgb    color)
{
  double r = c->fs * 0.28;
  cairo_new_sub_path (c->cr);
  cairo_arc (c->cr, X, Y, r, 0, 2 * G_PI);
  set_rgb (c->cr, &color, 1);
  cairo_fill_preserve (c->cr);
  set_rgb (c->cr, &c->pal->bg, 1);
  cairo_set_line_width (c->cr, MAX (1, c->fs * 0.1));
  cairo_stroke (c->cr);
  c->path_ops++;
}

static void
draw_line (Ctx          *c,
           guint         d,
           guint         i,
           NscChartLine *line)
{
  cairo_t *cr = c->cr;
  NscChart *chart = c->chart;
  const NscAxis *ay = line->secondary ? &chart->ay2 : &chart->ay;
  const double *xs = (const double *) line->x->data, *ys = (const double *) line->y->data;
  guint n = line->x->len;
  Rgb color = line_color (c, d, i, line);
  double lw = MAX (1.5, c->fs * 0.16) * c->pal->line_scale;
  gboolean band;

  if (n == 0)
    return;
  cairo_save (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  if (line->dots_only)
    {
      /* Each place a dot, larger where there are few. */
      double r = CLAMP (chart->plot.width / MAX (n, 1) * 0.3, MAX (1.5, c->fs * 0.15), c->fs * 0.35);

      path_dots (c, ay, xs, ys, n, r);
      set_rgb (cr, &color, 1);
      cairo_fill (cr);
    }
  else if (line->scatter)
    {
      g_autofree double *avg = moving_average (xs, ys, n, average_window (chart));
      /* Few samples get visible dots; many get fine ones. */
      double r = CLAMP (chart->plot.width / MAX (n, 1) * 0.15, MAX (1.0, c->fs * 0.12), c->fs * 0.28);
      path_dots (c, ay, xs, ys, n, r);
      set_rgb (cr, &color, is_dark (c->style) ? 0.55 : 0.45);
      cairo_fill (cr);
      band = path_polyline (c, ay, xs, avg, n);
      /* A thin outline in the background colour keeps the average visible over
       * its own dots. */
      cairo_set_line_width (cr, lw * 2.2);
      set_rgb (cr, &c->pal->bg, 0.8);
      cairo_stroke_preserve (cr);
      if (band)
        {
          set_rgb (cr, &color, 1);
          cairo_fill_preserve (cr);
        }
      cairo_set_line_width (cr, lw * 1.2);
      set_rgb (cr, &color, 1);
      line_dash (c, i, line);
      cairo_stroke (cr);
    }
  else
    {
      band = path_polyline (c, ay, xs, ys, n);
      cairo_set_line_width (cr, line->secondary ? lw * 0.9 : lw);
      set_rgb (cr, &color, 1);
      if (band)
        cairo_fill_preserve (cr);
      line_dash (c, i, line);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      if (line->markers && n <= chart->plot.width / (c->fs * 0.6))
        for (guint k = 0; k < n; k++)
          {
            double X = map_x (chart, xs[k]), Y = map_y (chart, ay, ys[k]);
            if (isfinite (X) && isfinite (Y))
              draw_marker (c, X, Y, color);
          }
    }
  cairo_restore (cr);
}

/* ---- write-fill annotation ---------------------------------------------- */

static gboolean
meets (const cairo_rectangle_t *b,
       double                   x,
       double                   y,
       double                   w,
       double                   h)
{
  return b->width > 0 && x < b->x + b->width && x + w > b->x && y < b->y + b->height && y + h > b->y;
}

/* Whether a label's rectangle would fall under the summary box or on the
 * cache's label. */
static gboolean
taken (Ctx   *c,
       double x,
       double y,
       double w,
       double h)
{
  return meets (&c->box, x, y, w, h) || meets (&c->cache_label, x, y, w, h);
}

static void
draw_cache_regions (Ctx *c)
{
  NscChart *chart = c->chart;
  cairo_t *cr = c->cr;
  for (guint d = 0; d < chart->datasets->len; d++)
    {
      NscChartDataset *ds = g_ptr_array_index (chart->datasets, d);
      Rgb color = c->multi ? c->pal->series[d % G_N_ELEMENTS (c->pal->series)] : c->pal->cache;
      double x0, x1;
      if (!ds->have_slc || !ds->has_cache || !(ds->cache_bytes > 0))
        continue;
      x0 = map_x (chart, 0);
      x1 = map_x (chart, ds->cache_bytes);
      cairo_rectangle (cr, x0, chart->plot.y, x1 - x0, chart->plot.height);
      set_rgb (cr, &color, is_dark (c->style) ? 0.16 : 0.13);
      cairo_fill (cr);
      cairo_move_to (cr, x1, chart->plot.y);
      cairo_line_to (cr, x1, chart->plot.y + chart->plot.height);
      set_rgb (cr, &color, 0.9);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
      if (!c->multi)
        {
          g_autofree char *size = format_bytes (c, ds->cache_bytes);
          /* Translators: the shaded region of a write-fill chart; %s is a size, "4 GiB";
           * the second when the writes went through something that may keep them in
           * memory first */
          g_autofree char *label = g_strcmp0 (ds->verdict, "not-verified") == 0
                                   ? g_strdup_printf (_("Cache %s, not verified"), size)
                                   : g_strdup_printf (_("SLC cache %s"), size);
          cairo_rectangle_t r;
          font (c, c->fs * 0.85, TRUE);
          r.width = text_width (c, label);
          r.height = c->fs * 1.2;
          r.x = (x0 + x1) / 2 - r.width / 2;
          r.y = chart->plot.y + c->fs * 0.3;
          if (r.width + c->fs < x1 - x0 && !taken (c, r.x, r.y, r.width, r.height))
            {
              c->cache_label = r;
              set_rgb (cr, &c->pal->text, 0.85);
              show_text (c, label, (x0 + x1) / 2, chart->plot.y + c->fs * 1.3, 0.5);
            }
        }
    }
}

static void
draw_phases (Ctx      *c,
             gboolean  labels)
{
  NscChart *chart = c->chart;
  cairo_t *cr = c->cr;
  double dash[2] = { c->fs * 0.4, c->fs * 0.3 };

  if (c->multi)
    return;
  for (guint d = 0; d < chart->datasets->len; d++)
    {
      NscChartDataset *ds = g_ptr_array_index (chart->datasets, d);
      for (guint i = 0; i < ds->phases->len; i++)
        {
          NscChartPhase *ph = &g_array_index (ds->phases, NscChartPhase, i);
          double xa = map_x (chart, ph->start), xb = map_x (chart, ph->end);
          double Y = map_y (chart, &chart->ay, ph->bps);
          g_autofree char *label = format_speed (c, ph->bps);

          cairo_save (cr);
          cairo_set_dash (cr, dash, 2, 0);
          cairo_set_line_width (cr, 1.5);
          set_rgb (cr, &c->pal->phase, 0.9);
          if (!labels)
            {
              cairo_move_to (cr, xa, Y);
              cairo_line_to (cr, xb, Y);
              cairo_stroke (cr);
            }
          if (i > 0 && !labels)
            {
              /* Phase boundaries: a short tick down from the top. */
              cairo_set_dash (cr, NULL, 0, 0);
              cairo_set_line_width (cr, 1);
              set_rgb (cr, &c->pal->phase, 0.5);
              cairo_move_to (cr, xa + 0.5, chart->plot.y + chart->plot.height);
              cairo_line_to (cr, xa + 0.5, chart->plot.y + chart->plot.height - c->fs * 0.8);
              cairo_stroke (cr);
            }
          font (c, c->fs * 0.75, FALSE);
          if (labels && text_width (c, label) + c->fs * 0.5 < xb - xa)
            {
              double tw = text_width (c, label), lx = (xa + xb) / 2 - tw / 2 - 3;
              /* Above the line, else below it (inside the plot), never under
               * the summary box or on the cache's label. */
              double ly = Y - c->fs * 1.25;
              if (ly < chart->plot.y || taken (c, lx, ly, tw + 6, c->fs * 1.05))
                ly = Y + c->fs * 0.2;
              if (!taken (c, lx, ly, tw + 6, c->fs * 1.05))
                {
                  cairo_rectangle (cr, lx, ly, tw + 6, c->fs * 1.05);
                  set_rgb (cr, &c->pal->bg, 0.85);
                  cairo_fill (cr);
                  set_rgb (cr, &c->pal->text, 0.95);
                  show_text (c, label, (xa + xb) / 2, ly + c->fs * 0.8, 0.5);
                }
            }
          cairo_restore (cr);
        }
    }
}

/* How many of the lines' segments may cross the rectangle (user space): those
 * whose bounding box meets it. */
static guint
segments_in (Ctx    *c,
             double  x,
             double  y,
             double  w,
             double  h)
{
  NscChart *chart = c->chart;
  cairo_rectangle_t r = { x, y, w, h };
  guint n = 0;
  for (guint d = 0; d < chart->datasets->len; d++)
    {
      NscChartDataset *ds = g_ptr_array_index (chart->datasets, d);
      for (guint i = 0; i < ds->lines->len; i++)
        {
          NscChartLine *line = g_ptr_array_index (ds->lines, i);
          double px = NAN, py = NAN;
          for (guint k = 0; !line->secondary && k < line->x->len; k++)
            {
              double X = map_x (chart, g_array_index (line->x, double, k));
              double Y = map_y (chart, &chart->ay, g_array_index (line->y, double, k));
              if (!isfinite (X) || !isfinite (Y))
                continue;
              if (!isfinite (px))
                {
                  px = X;
                  py = Y;
                }
              n += meets (&r, MIN (px, X), MIN (py, Y), fabs (X - px) + 1, fabs (Y - py) + 1);
              px = X;
              py = Y;
            }
        }
    }
  return n;
}

static void
draw_annotation_box (Ctx        *c,
                     GPtrArray  *lines,
                     gboolean    draw)
{
  NscChart *chart = c->chart;
  cairo_t *cr = c->cr;
  double lh = c->fs * 1.3, w = 0, h, x, y;
  guint fit = (guint) MAX (0, floor ((chart->plot.height - c->fs * 1.8) / lh));

  if (lines->len == 0 || fit == 0)
    return;
  /* A small plot (a comparison of many drives on a sheet): the lines that fit,
   * and a last one that says there is more. */
  if (lines->len > fit)
    {
      g_ptr_array_set_size (lines, fit);
      g_free (g_ptr_array_index (lines, fit - 1));
      g_ptr_array_index (lines, fit - 1) = g_strdup ("…");
    }
  /* Measured in the font each is drawn in: the first line is bold. */
  for (guint i = 0; i < lines->len; i++)
    {
      font (c, c->fs * 0.85, i == 0 && !c->multi);
      w = MAX (w, text_width (c, g_ptr_array_index (lines, i)));
    }
  w += c->fs * 1.2;
  h = lh * lines->len + c->fs * 0.6;
  x = chart->plot.x + chart->plot.width - w - c->fs * 0.6;
  y = chart->plot.y + c->fs * 0.6;
  if (x < chart->plot.x)
    x = chart->plot.x;
  /* A speed that holds across the drive runs along the top: the box goes to the
   * bottom when fewer points lie there. */
  if (chart->kind == NSC_CHART_POSITION)
    {
      double low = chart->plot.y + chart->plot.height - h - c->fs * 0.6;
      if (low > y && segments_in (c, x, low, w, h) < segments_in (c, x, y, w, h))
        y = low;
    }
  c->box = (cairo_rectangle_t) { x, y, w, h };
  if (!draw)
    return;
  cairo_rectangle (cr, x, y, w, h);
  set_rgb (cr, &c->pal->bg, 0.88);
  cairo_fill_preserve (cr);
  set_rgb (cr, &c->pal->axis, 0.8);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  for (guint i = 0; i < lines->len; i++)
    {
      font (c, c->fs * 0.85, i == 0 && !c->multi);
      set_rgb (cr, &c->pal->text, 1);
      show_text (c, g_ptr_array_index (lines, i), x + c->fs * 0.6, y + lh * (i + 1), 0);
    }
}

/* Cache recovery's points in the box, as the report words them
 * (nsc_words_recovery_point) in the chart's units, the not-verified without detail. */
static void
add_recovery_lines (Ctx             *c,
                    NscChartDataset *ds,
                    GPtrArray       *lines)
{
  for (guint i = 0; i < ds->recovery->len; i++)
    {
      NscChartRecovery *p = &g_array_index (ds->recovery, NscChartRecovery, i);

      if (p->not_verified)
        /* Translators: the write-fill summary box: a cache-recovery step whose speed
         * fell and came back, so how much cache was free is not known; %.0f is seconds */
        g_ptr_array_add (lines, g_strdup_printf (_("After %.0f s idle: not verified"), p->idle_s));
      else if (p->via_memory)
        {
          g_autofree char *fast = format_bytes (c, p->fast_bytes);
          /* Translators: the write-fill summary box: a cache-recovery step through memory
           * in front of the drive (a virtual disk's host); %.0f is seconds, %s a size */
          g_ptr_array_add (lines, g_strdup_printf (_("After %.0f s idle: %s fast again, not "
                                                     "verified"), p->idle_s, fast));
        }
      else
        {
          g_autofree char *fast = format_bytes (c, p->fast_bytes);
          /* Translators: a cache-recovery step: %.0f is seconds, %s a size ("2 GiB") */
          g_ptr_array_add (lines, g_strdup_printf (_("After %.0f s idle: %s fast again"),
                                                   p->idle_s, fast));
        }
    }
}

/* Lays the summary box out (its place in c->box), and draws it when @draw. */
static void
draw_slc_summary (Ctx     *c,
                  gboolean draw)
{
  NscChart *chart = c->chart;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  for (guint d = 0; d < chart->datasets->len; d++)
    {
      NscChartDataset *ds = g_ptr_array_index (chart->datasets, d);
      g_autofree char *avg = isfinite (ds->average_bps) ? format_speed (c, ds->average_bps) : NULL;
      gboolean not_verified = g_strcmp0 (ds->verdict, "not-verified") == 0;
      if (!ds->have_slc)
        {
          /* A cache-recovery step: its own point. */
          if (!c->multi)
            add_recovery_lines (c, ds, lines);
          continue;
        }
      if (c->multi)
        {
          if (ds->has_cache)
            {
              g_autofree char *size = format_bytes (c, ds->cache_bytes);
              g_autofree char *in = format_speed (c, ds->in_cache_bps);
              g_autofree char *post = format_speed (c, ds->post_cache_bps);

              if (not_verified)
                /* Translators: a comparison's SLC summary: drive, cache size, for a
                 * cache that may be this machine's rather than the drive's */
                g_ptr_array_add (lines, g_strdup_printf (_("%s: cache %s, not verified as the drive's"),
                                                         ds->legend, size));
              else
                /* Translators: a comparison's SLC summary: drive, cache size, speed
                 * in the cache → speed after it */
                g_ptr_array_add (lines, g_strdup_printf (_("%s: cache %s, %s → %s"), ds->legend,
                                                         size, in, post));
            }
          else if (avg)
            /* Translators: a comparison's SLC summary: drive, average speed */
            g_ptr_array_add (lines, g_strdup_printf (_("%s: no SLC cache seen, average %s"), ds->legend, avg));
          else
            /* Translators: a comparison's SLC summary; %s is the drive */
            g_ptr_array_add (lines, g_strdup_printf (_("%s: no SLC cache seen"), ds->legend));
          continue;
        }
      if (ds->has_cache)
        {
          g_autofree char *size = format_bytes (c, ds->cache_bytes);
          /* Translators: the write-fill summary box; %s is a size */
          g_ptr_array_add (lines, g_strdup_printf (_("SLC cache: %s"), size));
          if (not_verified)
            /* Translators: the write-fill summary box, under "SLC cache: 4 GiB" when the
             * writes went through something that may keep them in memory first */
            g_ptr_array_add (lines, g_strdup (_("Not verified as the drive's own")));
          if (isfinite (ds->in_cache_bps))
            {
              g_autofree char *s = format_speed (c, ds->in_cache_bps);
              /* Translators: the write-fill summary box; %s is a speed */
              g_ptr_array_add (lines, g_strdup_printf (_("In the cache: %s"), s));
            }
          if (isfinite (ds->post_cache_bps))
            {
              g_autofree char *s = format_speed (c, ds->post_cache_bps);
              /* Translators: the write-fill summary box; %s is a speed */
              g_ptr_array_add (lines, g_strdup_printf (_("After the cache: %s"), s));
            }
        }
      else
        {
          guint n = ds->phases->len;

          if (g_strcmp0 (ds->verdict, "system-cache") == 0)
            {
              /* Translators: the write-fill summary box when this machine's memory took
               * the fast start (a loop device over a file, a folder in memory) */
              g_ptr_array_add (lines, g_strdup (_("No SLC cache measured")));
              /* Translators: the write-fill summary box, under "No SLC cache measured" */
              g_ptr_array_add (lines, g_strdup (_("The fast start went into this machine's memory")));
            }
          else
            /* Translators: the write-fill summary box */
            g_ptr_array_add (lines, g_strdup (_("No SLC cache seen")));
          /* The levels drawn are not a cache: said beside them, not left to contradict. */
          if (n > 1)
            g_ptr_array_add (lines, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                  /* Translators: the write-fill summary box of a drive without a cache whose speed still changed */
                                                                  "%u speed level, none a cache's end",
                                                                  "%u speed levels, none a cache's end", n), n));
        }
      if (avg)
        /* Translators: the write-fill summary box; %s is a speed */
        g_ptr_array_add (lines, g_strdup_printf (_("Average: %s"), avg));
      add_recovery_lines (c, ds, lines);
    }
  draw_annotation_box (c, lines, draw);
}


/* The speed across the drive in three numbers, as HD Tune gives them. */
static void
draw_position_summary (Ctx     *c,
                       gboolean draw)
{
  NscChart *chart = c->chart;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  for (guint d = 0; d < chart->datasets->len; d++)
    {
      NscChartDataset *ds = g_ptr_array_index (chart->datasets, d);
      g_autofree char *lowest = NULL, *average = NULL, *highest = NULL;
      if (!isfinite (ds->min_bps) || !isfinite (ds->max_bps) || !isfinite (ds->average_bps))
        continue;
      lowest = format_speed (c, ds->min_bps);
      average = format_speed (c, ds->average_bps);
      highest = format_speed (c, ds->max_bps);
      if (c->multi)
        {
          /* Translators: a comparison's summary of the speed across the drive:
           * the drive, its average speed, then its lowest and highest */
          g_ptr_array_add (lines, g_strdup_printf (_("%s: average %s (%s to %s)"), ds->legend,
                                                   average, lowest, highest));
          continue;
        }
      /* Translators: the summary box of the speed across the drive; %s is a speed */
      g_ptr_array_add (lines, g_strdup_printf (_("Average: %s"), average));
      /* Translators: the summary box of the speed across the drive; %s is a speed */
      g_ptr_array_add (lines, g_strdup_printf (_("Lowest: %s"), lowest));
      /* Translators: the summary box of the speed across the drive; %s is a speed */
      g_ptr_array_add (lines, g_strdup_printf (_("Highest: %s"), highest));
    }
  draw_annotation_box (c, lines, draw);
}

/* The probe's map: where the drive stops storing, a dashed line and its size, for
 * each result whose probe found one. */
static void
draw_map_usable (Ctx *c)
{
  NscChart *chart = c->chart;
  cairo_t *cr = c->cr;

  for (guint d = 0; d < chart->datasets->len; d++)
    {
      NscChartDataset *ds = g_ptr_array_index (chart->datasets, d);
      g_autofree char *size = NULL, *label = NULL;
      double X;
      static const double dash[] = { 4, 3 };

      if (!isfinite (ds->usable))
        continue;
      X = round (map_x (chart, ds->usable)) + 0.5;
      set_rgb (cr, c->multi ? &c->pal->series[d % G_N_ELEMENTS (c->pal->series)] : &c->pal->text, 0.8);
      cairo_set_line_width (cr, MAX (1, c->fs * 0.1));
      cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
      cairo_move_to (cr, X, chart->plot.y);
      cairo_line_to (cr, X, chart->plot.y + chart->plot.height);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      size = nsc_words_size ((guint64) ds->usable);
      /* Translators: the probe's map: where the drive stops storing; %s is a size */
      label = g_strdup_printf (_("Stores %s"), size);
      font (c, c->fs * 0.85, FALSE);
      set_rgb (cr, &c->pal->text, 1);
      /* Left of the line when it stands in the right half. */
      show_text (c, label, X + (X > chart->plot.x + chart->plot.width / 2 ? -c->fs * 0.4 : c->fs * 0.4),
                 chart->plot.y + c->fs * (1.2 + 1.1 * d),
                 X > chart->plot.x + chart->plot.width / 2 ? 1 : 0);
    }
}

/* ---- legend ------------------------------------------------------------- */

typedef struct
{
  char    *label;
  Rgb      color;
  guint    line_index;
  gboolean dots, markers, secondary;
  gboolean dots_only;     /* a map's places: dots, no line */
} LegendEntry;

static void
legend_entry_clear (gpointer data)
{
  g_free (((LegendEntry *) data)->label);
}

static GArray *
legend_entries (Ctx *c)
{
  NscChart *chart = c->chart;
  GArray *entries = g_array_new (FALSE, TRUE, sizeof (LegendEntry));
  /* Compact: the drives' colours are told elsewhere (a sheet's legend); the
   * chart's says only what each dash means, once. */
  gboolean compact = c->multi && chart->compact_legend;
  g_array_set_clear_func (entries, legend_entry_clear);
  for (guint d = 0; d < (compact ? MIN (1, chart->datasets->len) : chart->datasets->len); d++)
    {
      NscChartDataset *ds = g_ptr_array_index (chart->datasets, d);
      for (guint i = 0; i < ds->lines->len; i++)
        {
          NscChartLine *line = g_ptr_array_index (ds->lines, i);
          LegendEntry e = { NULL, compact ? c->pal->muted : line_color (c, d, i, line), i,
                            line->scatter, line->markers, line->secondary, line->dots_only };
          GString *s = g_string_new (NULL);
          g_autofree char *name = _nsc_chart_line_label (line);
          if (c->multi && !compact)
            g_string_append_printf (s, "%s — ", ds->legend ? ds->legend : "?");
          if (line->scatter && !line->secondary)
            {
              g_autofree char *w = window_label (average_window (chart));
              /* Translators: the legend of a time chart's line: %s is "Read",
               * "Write" or "Speed", the second %s the averaging window, "30 s" */
              g_string_append_printf (s, _("%s: every sample, line = %s average"), name, w);
            }
          else
            g_string_append (s, name);
          e.label = g_string_free (s, FALSE);
          g_array_append_val (entries, e);
        }
    }
  return entries;
}

/* Lays the legend out in rows from @y; draws when @draw. Returns its height. */
static double
legend_layout (Ctx    *c,
               GArray *entries,
               double  x0,
               double  y,
               double  maxw,
               gboolean draw)
{
  cairo_t *cr = c->cr;
  double sw = c->fs * 2.0, gap = c->fs * 1.2, lh = c->fs * 1.45;
  double x = x0, rows = 1, size = c->fs * 0.85, widest = 0;

  /* A single line with nothing to tell apart needs no legend. */
  if (entries->len == 1 && (!c->multi || c->chart->compact_legend)
      && !g_array_index (entries, LegendEntry, 0).dots)
    return 0;
  /* An entry wider than the chart (a long translation in a small chart) makes
   * the legend's text smaller, to 60 %. */
  font (c, size, FALSE);
  for (guint i = 0; i < entries->len; i++)
    widest = MAX (widest, text_width (c, g_array_index (entries, LegendEntry, i).label));
  if (widest > 0 && sw + c->fs * 0.4 + widest > maxw)
    size = MAX (size * 0.6, size * (maxw - sw - c->fs * 0.4) / widest);
  font (c, size, FALSE);
  for (guint i = 0; i < entries->len; i++)
    {
      LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      double w = sw + c->fs * 0.4 + text_width (c, e->label);
      if (x > x0 && x + w > x0 + maxw)
        {
          x = x0;
          y += lh;
          rows++;
        }
      if (draw)
        {
          double my = y - c->fs * 0.3;
          NscChartLine fake = { .secondary = e->secondary };
          cairo_save (cr);
          if (e->dots_only)
            {
              set_rgb (cr, &e->color, 1);
              for (int k = 0; k < 3; k++)
                cairo_rectangle (cr, x + sw * (0.15 + 0.3 * k) - c->fs * 0.15, my - c->fs * 0.15,
                                 c->fs * 0.3, c->fs * 0.3);
              cairo_fill (cr);
            }
          if (e->dots && !e->dots_only)
            {
              set_rgb (cr, &e->color, 0.5);
              for (int k = 0; k < 4; k++)
                cairo_rectangle (cr, x + sw * (0.1 + 0.25 * k), my + ((k % 2) ? -0.3 : 0.25) * c->fs - 1.5,
                                 3, 3);
              cairo_fill (cr);
            }
          if (!e->dots_only)
            {
              cairo_move_to (cr, x, my);
              cairo_line_to (cr, x + sw, my);
              cairo_set_line_width (cr, MAX (1.5, c->fs * 0.16) * c->pal->line_scale);
              set_rgb (cr, &e->color, 1);
              line_dash (c, e->line_index, &fake);
              cairo_stroke (cr);
              cairo_set_dash (cr, NULL, 0, 0);
            }
          if (e->markers)
            draw_marker (c, x + sw / 2, my, e->color);
          font (c, size, FALSE);
          set_rgb (cr, &c->pal->text, 1);
          show_text (c, e->label, x + sw + c->fs * 0.4, y, 0);
          cairo_restore (cr);
        }
      x += w + gap;
    }
  return rows * lh;
}

/* ---- the chart ---------------------------------------------------------- */

static char *
log2_label (NscChartKind kind,
            double       v)
{
  if (kind == NSC_CHART_BS)
    return nsc_format_size_short ((guint64) v);
  return g_strdup_printf ("%.0f", v);
}

static char *
latency_label (double ns)
{
  /* Translators: latency tick labels: seconds, milliseconds, microseconds,
   * nanoseconds */
  if (ns >= 1e9)
    return g_strdup_printf (_("%g s"), ns / 1e9);
  if (ns >= 1e6)
    return g_strdup_printf (_("%g ms"), ns / 1e6);
  if (ns >= 1e3)
    return g_strdup_printf (_("%g µs"), ns / 1e3);
  return g_strdup_printf (_("%g ns"), ns);
}

/* Sets up chart->ax/ay/ay2 and fills the tick lists and axis titles. */
static void
setup_axes (Ctx     *c,
            GArray  *xt,
            GArray  *yt,
            GArray  *y2t,
            char   **x_title,
            char   **y_title,
            char   **y2_title)
{
  NscChart *chart = c->chart;
  double xmin, xmax, ymin, ymax, tx = MAX (2, chart->plot.width / (c->fs * 7));
  double ty = MAX (2, chart->plot.height / (c->fs * 3.2));

  data_range (chart, FALSE, &xmin, &xmax, &ymin, &ymax);
  if (!isfinite (xmin))
    {
      xmin = 0;
      xmax = 1;
      ymin = 0;
      ymax = 1;
    }

  switch (chart->kind)
    {
    case NSC_CHART_WRITE_FILL:
    case NSC_CHART_POSITION:
    case NSC_CHART_MAP:
      {
        double g = c->binary ? 1073741824.0 : 1e9, m = nsc_units_divisor (c->units);
        gboolean small = xmax < g;
        const char *unit = small ? (c->binary ? _("MiB") : _("MB")) : (c->binary ? _("GiB") : _("GB"));
        linear_axis (&chart->ax, 0, MAX (xmax, 1), small ? m : g, tx, 0, xt);
        *x_title = chart->kind == NSC_CHART_WRITE_FILL
                   /* Translators: the x axis of the write-fill chart; %s is a unit, "GiB" */
                   ? g_strdup_printf (_("Data written, %s"), unit)
                   /* Translators: the x axis of the chart of speed across the drive:
                    * how far from the drive's start; %s is a unit, "GiB" */
                   : g_strdup_printf (_("Place on the drive, %s"), unit);
        break;
      }
    case NSC_CHART_TIME:
      {
        double unit = xmax > 3 * 3600 ? 3600 : xmax > 600 ? 60 : 1;
        linear_axis (&chart->ax, 0, MAX (xmax, 1e-3), unit, tx, 0, xt);
        /* Translators: the x axis of the time chart; %s is "h", "min" or "s" */
        *x_title = g_strdup_printf (_("Time, %s"), unit == 3600 ? C_("unit", "h")
                                                   : unit == 60 ? C_("unit", "min") : C_("unit", "s"));
        break;
      }
    case NSC_CHART_MIXED:
      linear_axis (&chart->ax, 0, 100, 1, tx, tx >= 5 ? 20 : 50, xt);
      /* Translators: the x axis of the mixed-load chart */
      /* xgettext:no-c-format */
      *x_title = g_strdup (_("Reads, % of the I/O"));
      break;
    case NSC_CHART_QD:
    case NSC_CHART_BS:
      {
        double lo = floor (log2 (MAX (xmin, 1e-9)) + 1e-9), hi = ceil (log2 (MAX (xmax, 1e-9)) - 1e-9);
        guint every = 1;
        chart->ax.scale = AXIS_LOG2;
        chart->ax.unit = 1;
        if (hi <= lo)
          hi = lo + 1;
        chart->ax.min = lo - 0.4;
        chart->ax.max = hi + 0.4;
        while ((hi - lo) / every + 1 > tx * 1.6)
          every *= 2;
        for (double e = lo; e <= hi; e += every)
          ticks_add (xt, exp2 (e), log2_label (chart->kind, exp2 (e)));
        *x_title = g_strdup (chart->kind == NSC_CHART_QD
                             /* Translators: the x axis of the queue-depth chart */
                             ? _("Queue depth (log scale)")
                             /* Translators: the x axis of the block-size chart; K and M
                              * are the tick labels' suffixes, as in "128K" */
                             : _("Block size, bytes (K = KiB, M = MiB; log scale)"));
        break;
      }
    case NSC_CHART_LATENCY:
      {
        static const double pts[] = { 1, 50, 90, 99, 99.9, 99.99, 99.999 };
        double hi = MIN (xmax, 99.999);
        chart->ax.scale = AXIS_PERCENTILE;
        chart->ax.unit = 1;
        chart->ax.min = axis_t (&chart->ax, MIN (xmin, 1));
        chart->ax.max = axis_t (&chart->ax, MAX (hi, 99)) + 0.15;
        for (guint i = 0; i < G_N_ELEMENTS (pts); i++)
          if (pts[i] <= MAX (hi, 99) + 1e-9)
            ticks_add (xt, pts[i], g_strdup_printf ("%g %%", pts[i]));
        /* Translators: the x axis of the latency chart */
        *x_title = g_strdup (_("Percentile (of requests completed within)"));
        break;
      }
    case NSC_CHART_N_KINDS:
    default:
      g_assert_not_reached ();
    }

  if (chart->kind == NSC_CHART_MAP)
    {
      /* Two rows: the places that lost their data below, those that kept it above. */
      chart->ay.scale = AXIS_LINEAR;
      chart->ay.unit = 1;
      chart->ay.min = -0.6;
      chart->ay.max = 1.6;
      /* Translators: the probe's map: the row of places that lost their data */
      ticks_add (yt, 0, g_strdup (C_("map", "lost")));
      /* Translators: the probe's map: the row of places that kept their data */
      ticks_add (yt, 1, g_strdup (C_("map", "kept")));
      /* Translators: the y axis of the probe's map */
      *y_title = g_strdup (_("What the place held"));
    }
  else if (chart->kind == NSC_CHART_LATENCY)
    {
      double lo = floor (log10 (MAX (ymin, 1) * 0.8)), hi = ceil (log10 (MAX (ymax, 1) * 1.25));
      static const double mult[] = { 1, 2, 5 };
      if (hi <= lo)
        hi = lo + 1;
      chart->ay.scale = AXIS_LOG10;
      chart->ay.unit = 1;
      chart->ay.min = log10 (MAX (ymin, 1) * 0.8);
      chart->ay.max = log10 (MAX (ymax, 1) * 1.25);
      if (chart->ay.max - chart->ay.min < 1)
        {
          double mid = (chart->ay.max + chart->ay.min) / 2;
          chart->ay.min = mid - 0.5;
          chart->ay.max = mid + 0.5;
        }
      for (double e = lo; e <= hi; e++)
        for (guint k = 0; k < 3; k++)
          {
            double v = mult[k] * pow (10, e), t = log10 (v);
            if ((chart->ay.max - chart->ay.min > 3 && k > 0) || t < chart->ay.min - 1e-9 || t > chart->ay.max + 1e-9)
              continue;
            ticks_add (yt, v, latency_label (v));
          }
      /* Translators: the y axis of the latency chart */
      *y_title = g_strdup (_("Latency (log scale)"));
    }
  else
    {
      linear_axis (&chart->ay, 0, MAX (ymax * 1.08, 1), speed_div (c), ty, 0, yt);
      /* Translators: the y axis of speed charts; %s is "MiB/s" or "MB/s" */
      *y_title = g_strdup_printf (_("Speed, %s"), speed_unit (c));
    }

  if (c->have_secondary)
    {
      double lo, hi, a, b;
      data_range (chart, TRUE, &a, &b, &lo, &hi);
      lo = floor ((lo - 3) / 5) * 5;
      hi = ceil ((hi + 3) / 5) * 5;
      linear_axis (&chart->ay2, lo, hi, 1, ty, 0, y2t);
      /* Translators: the right-hand y axis of the time chart */
      *y2_title = g_strdup (_("Temperature, °C"));
    }
}

/* What the steps of draw_chart () share: the ticks and titles of the axes, the
 * legend, and the margins around the plot area. */
typedef struct
{
  GArray  *xt, *yt, *y2t;
  GArray  *legend;
  char    *x_title, *y_title, *y2_title;
  double   pad;              /* the picture's margin */
  double   top, bottom;      /* the space above and below the plot area */
  gboolean empty;            /* no line has a point yet */
  gboolean legend_drawn;
} Frame;

static void
frame_clear (Frame *f)
{
  g_clear_pointer (&f->xt, g_array_unref);
  g_clear_pointer (&f->yt, g_array_unref);
  g_clear_pointer (&f->y2t, g_array_unref);
  g_clear_pointer (&f->legend, g_array_unref);
  g_clear_pointer (&f->x_title, g_free);
  g_clear_pointer (&f->y_title, g_free);
  g_clear_pointer (&f->y2_title, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Frame, frame_clear)

/* Whether any line has points, and whether one of those is on the right-hand axis. */
static void
survey_lines (Ctx   *c,
              Frame *f)
{
  NscChart *chart = c->chart;

  f->empty = TRUE;
  for (guint d = 0; d < chart->datasets->len; d++)
    {
      NscChartDataset *ds = g_ptr_array_index (chart->datasets, d);
      for (guint i = 0; i < ds->lines->len; i++)
        {
          NscChartLine *line = g_ptr_array_index (ds->lines, i);
          c->have_secondary |= line->secondary && line->x->len > 0;
          f->empty &= line->x->len == 0;
        }
    }
}

/* The background, the title and the legend rows under it, across the whole
 * width; @f->top ends below them. */
static void
draw_heading (Ctx   *c,
              Frame *f)
{
  NscChart *chart = c->chart;
  cairo_t *cr = c->cr;
  double fs = c->fs, pad = f->pad, h;

  /* Background */
  cairo_rectangle (cr, 0, 0, c->width, c->height);
  set_rgb (cr, &c->pal->bg, 1);
  cairo_fill (cr);

  /* Title */
  if (c->style->title && chart->title)
    {
      font (c, fs * 1.2, TRUE);
      set_rgb (cr, &c->pal->text, 1);
      f->top += fs * 1.2;
      show_text (c, chart->title, pad, f->top, 0);
      f->top += fs * 0.6;
    }

  /* Legend rows under the title, across the whole width. */
  f->legend = legend_entries (c);
  h = legend_layout (c, f->legend, pad, 0, c->width - 2 * pad, FALSE);
  if (h > 0)
    {
      legend_layout (c, f->legend, pad, f->top + fs * 1.1, c->width - 2 * pad, TRUE);
      f->top += h + fs * 0.3;
      f->legend_drawn = TRUE;
    }
  f->top += fs * 0.9;
}

/* The axes' scales and ticks, and the plot area that leaves room for their labels:
 * a first pass at the plot area for the tick density, then the real one. */
static void
lay_out_plot (Ctx   *c,
              Frame *f)
{
  NscChart *chart = c->chart;
  double fs = c->fs, pad = f->pad, left, right, ylabel_w = 0, y2label_w = 0;

  f->bottom = pad + fs * 1.0 /* tick labels */ + fs * 1.6 /* axis title */ + fs * 0.4;
  if (c->style->caption && chart->caption)
    f->bottom += fs * 1.5;

  chart->plot.x = fs * 6;
  chart->plot.y = f->top;
  chart->plot.width = MAX (10, c->width - fs * 8);
  chart->plot.height = MAX (10, c->height - f->top - f->bottom);
  setup_axes (c, f->xt, f->yt, f->y2t, &f->x_title, &f->y_title, &f->y2_title);
  /* Before the first sample the scales are made up: no ticks reading 0, 0, 0. */
  if (f->empty)
    {
      g_array_set_size (f->xt, 0);
      g_array_set_size (f->yt, 0);
      g_array_set_size (f->y2t, 0);
    }

  font (c, fs * 0.85, FALSE);
  for (guint i = 0; i < f->yt->len; i++)
    ylabel_w = MAX (ylabel_w, text_width (c, g_array_index (f->yt, Tick, i).label));
  for (guint i = 0; i < f->y2t->len; i++)
    y2label_w = MAX (y2label_w, text_width (c, g_array_index (f->y2t, Tick, i).label));
  left = pad + fs * 1.3 /* rotated title */ + fs * 0.5 + ylabel_w + fs * 0.5;
  right = c->have_secondary ? fs * 0.5 + y2label_w + fs * 0.5 + fs * 1.3 + pad : pad * 1.5;
  /* The last x label is centred on the axis end: leave room for half of it. */
  if (f->xt->len)
    right = MAX (right, text_width (c, g_array_index (f->xt, Tick, f->xt->len - 1).label) / 2 + pad * 0.5);

  chart->plot.x = left;
  chart->plot.width = MAX (10, c->width - left - right);
  chart->plot.height = MAX (10, c->height - f->top - f->bottom);
  chart->have_layout = TRUE;
}

static void
draw_grid (Ctx         *c,
           const Frame *f)
{
  NscChart *chart = c->chart;
  cairo_t *cr = c->cr;

  cairo_set_line_width (cr, 1);
  set_rgb (cr, &c->pal->grid, 1);
  for (guint i = 0; i < f->yt->len; i++)
    {
      double Y = round (map_y (chart, &chart->ay, g_array_index (f->yt, Tick, i).value)) + 0.5;
      cairo_move_to (cr, chart->plot.x, Y);
      cairo_line_to (cr, chart->plot.x + chart->plot.width, Y);
    }
  for (guint i = 0; i < f->xt->len; i++)
    {
      double X = round (map_x (chart, g_array_index (f->xt, Tick, i).value)) + 0.5;
      cairo_move_to (cr, X, chart->plot.y);
      cairo_line_to (cr, X, chart->plot.y + chart->plot.height);
    }
  cairo_stroke (cr);
}

/* The lines (and a write-fill's regions, phases and summary), clipped to the plot
 * area; before the first sample, a word that data is coming. */
static void
draw_data (Ctx         *c,
           const Frame *f)
{
  NscChart *chart = c->chart;
  cairo_t *cr = c->cr;

  cairo_save (cr);
  cairo_rectangle (cr, chart->plot.x, chart->plot.y, chart->plot.width, chart->plot.height);
  cairo_clip (cr);
  if (chart->kind == NSC_CHART_WRITE_FILL)
    {
      /* The summary box goes on top; the labels under it find other places. */
      draw_slc_summary (c, FALSE);
      draw_cache_regions (c);
      draw_phases (c, FALSE);
    }
  for (guint d = 0; d < chart->datasets->len; d++)
    {
      NscChartDataset *ds = g_ptr_array_index (chart->datasets, d);
      /* Temperature first: under the speed. */
      for (guint pass = 0; pass < 2; pass++)
        for (guint i = 0; i < ds->lines->len; i++)
          {
            NscChartLine *line = g_ptr_array_index (ds->lines, i);
            if ((pass == 0) == line->secondary)
              draw_line (c, d, i, line);
          }
    }
  if (chart->kind == NSC_CHART_WRITE_FILL)
    {
      /* The levels' speeds over the data line, on their own backgrounds: never
       * struck through by it. */
      draw_phases (c, TRUE);
      draw_slc_summary (c, TRUE);
    }
  /* Over the line, after it is drawn: its place depends on where the points are. */
  if (chart->kind == NSC_CHART_POSITION)
    draw_position_summary (c, TRUE);
  if (chart->kind == NSC_CHART_MAP)
    draw_map_usable (c);
  if (f->empty)
    {
      font (c, c->fs, FALSE);
      set_rgb (cr, &c->pal->muted, 1);
      /* Translators: a live chart before its first sample */
      show_text (c, _("Waiting for data…"), chart->plot.x + chart->plot.width / 2,
                 chart->plot.y + chart->plot.height / 2, 0.5);
    }
  cairo_restore (cr);
}

/* Axes: left and bottom lines (and the right one for a second scale), tick labels. */
static void
draw_axes (Ctx         *c,
           const Frame *f)
{
  NscChart *chart = c->chart;
  cairo_t *cr = c->cr;
  double fs = c->fs;
  double last_top = G_MAXDOUBLE, last_right = -G_MAXDOUBLE;

  set_rgb (cr, &c->pal->axis, 1);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, round (chart->plot.x) + 0.5, chart->plot.y);
  cairo_line_to (cr, round (chart->plot.x) + 0.5, round (chart->plot.y + chart->plot.height) + 0.5);
  cairo_line_to (cr, chart->plot.x + chart->plot.width, round (chart->plot.y + chart->plot.height) + 0.5);
  if (c->have_secondary)
    {
      cairo_move_to (cr, round (chart->plot.x + chart->plot.width) + 0.5, chart->plot.y);
      cairo_line_to (cr, round (chart->plot.x + chart->plot.width) + 0.5, chart->plot.y + chart->plot.height);
    }
  cairo_stroke (cr);

  font (c, fs * 0.85, FALSE);
  set_rgb (cr, &c->pal->text, 0.9);
  /* A short plot: a tick label that would touch the one below is left out. */
  for (guint i = 0; i < f->yt->len; i++)
    {
      Tick *t = &g_array_index (f->yt, Tick, i);
      double Y = map_y (chart, &chart->ay, t->value) + fs * 0.3;
      if (Y > last_top - fs * 0.15)
        continue;
      show_text (c, t->label, chart->plot.x - fs * 0.5, Y, 1);
      last_top = Y - fs;
    }
  /* Ticks crowd where a scale bunches them (the percentile axis: 1 % and 50 %
   * close together): a label that would touch the one before is left out. */
  for (guint i = 0; i < f->xt->len; i++)
    {
      Tick *t = &g_array_index (f->xt, Tick, i);
      double X = map_x (chart, t->value), half = text_width (c, t->label) / 2;
      if (X - half < last_right + fs * 0.5)
        continue;
      show_text (c, t->label, X, chart->plot.y + chart->plot.height + fs * 1.25, 0.5);
      last_right = X + half;
    }
  if (c->have_secondary)
    {
      set_rgb (cr, c->multi ? &c->pal->text : &c->pal->temperature, 0.9);
      for (guint i = 0; i < f->y2t->len; i++)
        {
          Tick *t = &g_array_index (f->y2t, Tick, i);
          show_text (c, t->label, chart->plot.x + chart->plot.width + fs * 0.5,
                     map_y (chart, &chart->ay2, t->value) + fs * 0.3, 0);
        }
    }
}

/* Axis titles: a long one in a small chart (a sheet's cell) gets smaller to stay in
 * the picture, centred on its axis. */
static void
draw_axis_titles (Ctx         *c,
                  const Frame *f)
{
  NscChart *chart = c->chart;
  cairo_t *cr = c->cr;
  double fs = c->fs, pad = f->pad;
  double cx = chart->plot.x + chart->plot.width / 2;

  set_rgb (cr, &c->pal->text, 1);
  fit_font (c, f->x_title, fs * 0.9, 2 * MIN (cx - pad * 0.5, c->width - cx - pad * 0.5));
  show_text (c, f->x_title, chart->plot.x + chart->plot.width / 2,
             chart->plot.y + chart->plot.height + fs * 1.25 + fs * 1.5, 0.5);
  cairo_save (cr);
  cairo_translate (cr, pad + fs * 0.95, chart->plot.y + chart->plot.height / 2);
  cairo_rotate (cr, -G_PI / 2);
  fit_font (c, f->y_title, fs * 0.9, chart->plot.height + fs);
  show_text (c, f->y_title, 0, 0, 0.5);
  cairo_restore (cr);
  if (c->have_secondary && f->y2_title)
    {
      cairo_save (cr);
      cairo_translate (cr, c->width - pad - fs * 0.3, chart->plot.y + chart->plot.height / 2);
      cairo_rotate (cr, -G_PI / 2);
      fit_font (c, f->y2_title, fs * 0.9, chart->plot.height + fs);
      show_text (c, f->y2_title, 0, 0, 0.5);
      cairo_restore (cr);
    }
}

/* What the picture says in words, for the SVG's <desc>. */
static void
describe_chart (Ctx         *c,
                const Frame *f)
{
  GString *d = g_string_new (NULL);
  const char *titles[] = { f->x_title, f->y_title, c->have_secondary ? f->y2_title : NULL };

  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    if (titles[i])
      g_string_append_printf (d, "%s\n", titles[i]);
  for (guint i = 0; f->legend_drawn && i < f->legend->len; i++)
    g_string_append_printf (d, "%s\n", g_array_index (f->legend, LegendEntry, i).label);
  g_free (c->chart->description);
  c->chart->description = g_string_free (d, FALSE);
}

/* The caption along the bottom, smaller until it fits the width. */
static void
draw_caption (Ctx         *c,
              const Frame *f)
{
  double size = c->fs * 0.75;

  font (c, size, FALSE);
  while (text_width (c, c->chart->caption) > c->width - 2 * f->pad && size > 5)
    font (c, size *= 0.92, FALSE);
  set_rgb (c->cr, &c->pal->muted, 1);
  show_text (c, c->chart->caption, f->pad, c->height - f->pad * 0.8, 0);
}

static void
draw_chart (Ctx *c)
{
  g_auto(Frame) f = { 0 };

  f.xt = ticks_new ();
  f.yt = ticks_new ();
  f.y2t = ticks_new ();
  f.pad = c->fs * 0.9;
  f.top = f.pad;

  survey_lines (c, &f);
  draw_heading (c, &f);
  lay_out_plot (c, &f);
  /* Grid, then the data, clipped to the plot area, then the frame and labels. */
  draw_grid (c, &f);
  draw_data (c, &f);
  draw_axes (c, &f);
  draw_axis_titles (c, &f);
  describe_chart (c, &f);
  if (c->style->caption && c->chart->caption)
    draw_caption (c, &f);
}

void
nsc_chart_draw (NscChart            *chart,
                cairo_t             *cr,
                double               width,
                double               height,
                const NscChartStyle *style)
{
  NscChartStyle defaults;
  Ctx c = { 0 };
  const PangoFontDescription *sf;

  g_return_if_fail (chart != NULL);
  g_return_if_fail (cr != NULL);
  if (style == NULL)
    {
      nsc_chart_style_init (&defaults, FALSE);
      style = &defaults;
    }
  if (width < 1 || height < 1)
    return;

  c.chart = chart;
  c.style = style;
  c.pal = palettes[(guint) style->theme < NSC_CHART_N_THEMES ? style->theme : NSC_CHART_THEME_LIGHT];
  c.cr = cr;
  c.width = width;
  c.height = height;
  c.units = style->units == NSC_UNITS_MB ? NSC_UNITS_MB : NSC_UNITS_MIB;
  c.binary = c.units != NSC_UNITS_MB;
  c.multi = chart->datasets->len > 1;

  /* The text: the style's font at its size (points at the style's resolution,
   * which carries the desktop's text scaling), or the default family at a size
   * that follows the picture. */
  sf = style->font;
  if (sf && (pango_font_description_get_set_fields (sf) & PANGO_FONT_MASK_SIZE)
      && pango_font_description_get_size (sf) > 0)
    {
      double size = pango_font_description_get_size (sf) / (double) PANGO_SCALE;
      double dpi = style->resolution > 0 ? style->resolution : 96;
      c.fs = pango_font_description_get_size_is_absolute (sf) ? size : size * dpi / 72;
    }
  else
    c.fs = CLAMP (MIN (width / 58, height / 34), 8, 16);
  c.fs *= style->font_scale > 0 ? style->font_scale : 1;
  c.font = sf ? pango_font_description_copy (sf) : pango_font_description_from_string (NSC_CHART_DEFAULT_FONT);
  if (pango_font_description_get_family (c.font) == NULL)
    pango_font_description_set_family (c.font, NSC_CHART_DEFAULT_FONT);
  pango_font_description_set_style (c.font, PANGO_STYLE_NORMAL);

  cairo_save (cr);
  cairo_new_path (cr);
  c.layout = pango_cairo_create_layout (cr);
  if (style->font_options)
    pango_cairo_context_set_font_options (pango_layout_get_context (c.layout), style->font_options);
  g_clear_pointer (&chart->texts, g_ptr_array_unref);
  chart->texts = g_ptr_array_new_with_free_func (g_free);
  g_clear_pointer (&chart->text_boxes, g_array_unref);
  chart->text_boxes = g_array_new (FALSE, FALSE, sizeof (NscChartTextBox));
  draw_chart (&c);
  g_object_unref (c.layout);
  pango_font_description_free (c.font);
  cairo_restore (cr);
  chart->path_ops = c.path_ops;
}

gboolean
nsc_chart_get_plot_area (NscChart          *chart,
                         cairo_rectangle_t *area)
{
  g_return_val_if_fail (chart != NULL, FALSE);
  if (!chart->have_layout)
    return FALSE;
  if (area)
    *area = chart->plot;
  return TRUE;
}

gboolean
nsc_chart_data_to_user (NscChart *chart,
                        double    x,
                        double    y,
                        double   *ux,
                        double   *uy)
{
  g_return_val_if_fail (chart != NULL, FALSE);
  if (!chart->have_layout)
    return FALSE;
  if (ux)
    *ux = map_x (chart, x);
  if (uy)
    *uy = map_y (chart, &chart->ay, y);
  return TRUE;
}

guint
_nsc_chart_get_path_ops (NscChart *chart)
{
  return chart->path_ops;
}

GPtrArray *
_nsc_chart_get_texts (NscChart *chart)
{
  return chart->texts;
}

GArray *
_nsc_chart_get_text_boxes (NscChart *chart)
{
  return chart->text_boxes;
}

void
_nsc_chart_set_compact_legend (NscChart *chart,
                               gboolean  compact)
{
  chart->compact_legend = compact;
}

/* ---- export ------------------------------------------------------------- */

/* Ends a drawing: destroys @cr, writes @surface to @path as PNG when @png (a vector
 * surface wrote itself as it was drawn), finishes and destroys it; FALSE with a
 * sentence in @error when cairo could not. */
gboolean
_nsc_surface_write (cairo_t          *cr,
                    cairo_surface_t  *surface,
                    const char       *path,
                    gboolean          png,
                    GError          **error)
{
  cairo_status_t status = cairo_status (cr);

  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS && png)
    status = cairo_surface_write_to_png (surface, path);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      /* Translators: %s is a file name, then the reason */
      g_set_error (error, NSC_ERROR, NSC_ERROR_IO, _("Cannot write %s: %s"), path,
                   status == CAIRO_STATUS_WRITE_ERROR ? _("the file cannot be written (does the folder exist?)")
                                                      : cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

/* Cairo draws SVG text as glyph outlines: the title goes in as <title>, and the
 * caption, axis titles and legend of the draw as <desc>, one a line, so that the
 * file says in words (and in the language it was drawn in) what it shows. */
gboolean
_nsc_svg_add_metadata (const char *path,
                       const char *title,
                       const char *desc,
                       GError    **error)
{
  g_autofree char *data = NULL;
  g_autofree char *etitle = NULL, *edesc = NULL, *meta = NULL, *out = NULL;
  gsize len = 0;
  char *open, *end;

  if (!g_file_get_contents (path, &data, &len, error))
    return FALSE;
  open = strstr (data, "<svg");
  end = open ? strchr (open, '>') : NULL;
  if (end == NULL)
    {
      /* Translators: %s is a file name */
      g_set_error (error, NSC_ERROR, NSC_ERROR_FAILED, _("Cairo wrote no <svg> element to %s; export again"), path);
      return FALSE;
    }
  etitle = g_markup_escape_text (title, -1);
  edesc = g_markup_escape_text (desc, -1);
  meta = g_strdup_printf ("\n<title>%s</title>\n<desc>%s</desc>", etitle, edesc);
  out = g_strdup_printf ("%.*s%s%s", (int) (end + 1 - data), data, meta, end + 1);
  return nsc_output_write (path, out, strlen (out), error);
}

static gboolean
svg_add_metadata (NscChart   *chart,
                  const char *path,
                  GError    **error)
{
  g_autofree char *text = g_strdup_printf ("%s%s%s", chart->caption ? chart->caption : "",
                                           chart->caption ? "\n" : "",
                                           chart->description ? chart->description : "");
  /* Translators: the title of an exported chart without one */
  return _nsc_svg_add_metadata (path, chart->title ? chart->title : _("Nandscope chart"), text, error);
}

gboolean
nsc_chart_export_with_style (NscChart            *chart,
                             const char          *path,
                             int                  width,
                             int                  height,
                             const NscChartStyle *style,
                             GError             **error)
{
  gboolean svg;
  cairo_surface_t *surface;
  cairo_t *cr;

  g_return_val_if_fail (chart != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_str_has_suffix (path, ".svg") || g_str_has_suffix (path, ".SVG"))
    svg = TRUE;
  else if (g_str_has_suffix (path, ".png") || g_str_has_suffix (path, ".PNG"))
    svg = FALSE;
  else
    {
      /* Translators: %s is a file name */
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("%s: the file name must end in .png or .svg"), path);
      return FALSE;
    }
  if (width < 100 || height < 100 || width > 16384 || height > 16384)
    {
      /* Translators: a chart's size in pixels, width × height */
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("A chart of %d × %d pixels: width and height go from 100 to 16384"), width, height);
      return FALSE;
    }

  /* Cairo opens the path and writes through whatever is there: a device never. */
  if (!nsc_output_check (path, FALSE, NULL, NULL, error))
    return FALSE;
  if (svg)
    surface = cairo_svg_surface_create (path, width, height);
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  nsc_chart_draw (chart, cr, width, height, style);
  if (!_nsc_surface_write (cr, surface, path, !svg, error))
    return FALSE;
  if (svg)
    return svg_add_metadata (chart, path, error);
  return TRUE;
}

gboolean
nsc_chart_export (NscChart   *chart,
                  const char *path,
                  int         width,
                  int         height,
                  gboolean    dark,
                  GError    **error)
{
  NscChartStyle style;
  nsc_chart_style_init (&style, dark);
  style.caption = TRUE;
  return nsc_chart_export_with_style (chart, path, width, height, &style, error);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The chart renderer on synthetic results: where things land in the pixels, the
 * palettes, the decimation's bound, SVG and PNG export, the fonts, and the text
 * in another language. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "nsc-chart-private.h"
#include "nsc-chart.h"
#include "nsc-result-info.h"
#include "nsc-error.h"
#include "test-util.h"

#define GiB 1073741824.0

/* ---- synthetic results -------------------------------------------------- */

/* @reads: the samples read, else they write. */
static void
add_series_dir (GString *s,
                guint    n,
                double (*bps_at) (double pos),
                double   total,
                gboolean reads)
{
  const char *cols[] = { "t_ns", "duration_ns", "read_bytes", "write_bytes", "position" };
  double chunk = total / n;
  g_string_append (s, "\"series\": {\"interval_ns\": 500000000");
  for (guint c = 0; c < G_N_ELEMENTS (cols); c++)
    {
      double t = 0;
      g_string_append_printf (s, ", \"%s\": [", cols[c]);
      for (guint i = 0; i < n; i++)
        {
          double pos = chunk * (i + 1), bps = bps_at (pos), dur = chunk / bps * 1e9, v = 0;
          t += dur;
          switch (c)
            {
            case 0: v = t; break;
            case 1: v = dur; break;
            case 2: v = reads ? chunk : 0; break;
            case 3: v = reads ? 0 : chunk; break;
            case 4: v = pos; break;
            default: g_assert_not_reached ();
            }
          g_string_append_printf (s, "%s%.0f", i ? ", " : "", v);
        }
      g_string_append (s, "]");
    }
  g_string_append (s, "}");
}

static void
add_series (GString *s,
            guint    n,
            double (*bps_at) (double pos),
            double   total)
{
  add_series_dir (s, n, bps_at, total, FALSE);
}

static double
slc_speed (double pos)
{
  return pos <= 4 * GiB ? 2000e6 : 500e6;
}

static JsonNode *
parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (text, &error);
  g_assert_no_error (error);
  return node;
}

static const char *header =
  "{\"schema\": 1, \"app\": {\"name\": \"Nandscope\", \"version\": \"0.1.0\"},"
  " \"started\": \"2025-03-01T10:20:30Z\", \"preset\": {\"name\": \"t\", \"title\": \"Test preset\"},"
  " \"target\": {\"kind\": \"device\", \"description\": \"/dev/nvme0n1\"},"
  " \"device\": {\"name\": \"nvme0n1\", \"model\": \"Testdrive 9000 <Pro>\", \"firmware\": \"FW42\","
  " \"capacity\": 1000204886016, \"transport\": \"nvme\","
  " \"link\": {\"speed\": \"16.0 GT/s PCIe\", \"width\": 4, \"generation\": 4}},";

/* A write-fill of 10 GiB: 2000 MB/s for the first 4 GiB (the cache), then 500 MB/s. */
static JsonNode *
write_fill_result (guint n_samples)
{
  GString *s = g_string_new (header);
  g_string_append (s, "\"steps\": [{\"index\": 0, \"kind\": \"job\", \"label\": \"Write-fill\","
                      " \"analysis\": \"write-fill\", \"job\": {\"rw\": \"write\", \"pattern\": \"sequential\","
                      " \"read_percent\": 0, \"block_size\": 1048576, \"queue_depth\": 8, \"workers\": 1},"
                      " \"write\": {\"ios\": 10240, \"bw_bps\": 800000000}, ");
  add_series (s, n_samples, slc_speed, 10 * GiB);
  g_string_append_printf (s, "}], \"analysis\": {\"slc\": {\"has_cache\": true, \"cache_bytes\": %.0f,"
                             " \"in_cache_bps\": 2000000000, \"post_cache_bps\": 500000000,"
                             " \"average_bps\": 645000000, \"step\": 0, \"summary\": \"SLC cache\","
                             " \"phases\": [{\"start_bytes\": 0, \"end_bytes\": %.0f, \"bps\": 2000000000},"
                             " {\"start_bytes\": %.0f, \"end_bytes\": %.0f, \"bps\": 500000000}]}},"
                             " \"warnings\": []}", 4 * GiB, 4 * GiB, 4 * GiB, 10 * GiB);
  {
    JsonNode *node = parse (s->str);
    g_string_free (s, TRUE);
    return node;
  }
}

/* QD 1…32, read and write, 128 KiB sequential. */
static JsonNode *
qd_result (double scale)
{
  GString *s = g_string_new (header);
  guint index = 0;
  g_string_append (s, "\"steps\": [");
  for (guint d = 0; d < 2; d++)
    for (guint qd = 1; qd <= 32; qd *= 2)
      {
        double bps = scale * (d == 0 ? 3000e6 : 2000e6) * (1 - exp (-(double) qd / 6));
        g_string_append_printf (s, "%s{\"index\": %u, \"kind\": \"job\", \"label\": \"SEQ128K Q%uT1\","
                                   " \"analysis\": \"qd-scaling\", \"job\": {\"rw\": \"%s\","
                                   " \"pattern\": \"sequential\", \"read_percent\": %d,"
                                   " \"block_size\": 131072, \"queue_depth\": %u, \"workers\": 1},"
                                   " \"%s\": {\"ios\": 1000, \"bw_bps\": %.0f, \"lat_ns\": {\"percentiles\":"
                                   " {\"1\": 20000, \"50\": 50000, \"90\": 80000, \"99\": 200000, \"99.9\": 900000,"
                                   " \"99.99\": 3000000}}}}",
                                index ? ", " : "", index, qd, d == 0 ? "read" : "write",
                                d == 0 ? 100 : 0, qd, d == 0 ? "read" : "write", bps);
        index++;
      }
  g_string_append (s, "], \"analysis\": {}, \"warnings\": []}");
  {
    JsonNode *node = parse (s->str);
    g_string_free (s, TRUE);
    return node;
  }
}

/* ---- pixels ------------------------------------------------------------- */

typedef struct
{
  cairo_surface_t *surface;
  int width, height;
} Image;

static Image
render (NscChart *chart,
        int       width,
        int       height,
        gboolean  dark)
{
  Image img = { cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height), width, height };
  cairo_t *cr = cairo_create (img.surface);
  NscChartStyle style;
  nsc_chart_style_init (&style, dark);
  nsc_chart_draw (chart, cr, width, height, &style);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (img.surface);
  return img;
}

static void
pixel (Image  *img,
       double  x,
       double  y,
       double *r,
       double *g,
       double *b)
{
  int ix = (int) floor (x), iy = (int) floor (y);
  const guint8 *data = cairo_image_surface_get_data (img->surface);
  guint32 p;
  g_assert_cmpint (ix, >=, 0);
  g_assert_cmpint (iy, >=, 0);
  g_assert_cmpint (ix, <, img->width);
  g_assert_cmpint (iy, <, img->height);
  p = *(const guint32 *) (data + iy * cairo_image_surface_get_stride (img->surface) + ix * 4);
  *r = ((p >> 16) & 0xff) / 255.0;
  *g = ((p >> 8) & 0xff) / 255.0;
  *b = (p & 0xff) / 255.0;
}

static double
chroma (Image *img,
        int    x,
        int    y)
{
  double r, g, b;
  pixel (img, x, y, &r, &g, &b);
  return MAX (r, MAX (g, b)) - MIN (r, MIN (g, b));
}

/* ---- tests -------------------------------------------------------------- */

static void
test_kinds (void)
{
  g_autoptr(JsonNode) wf = write_fill_result (100);
  g_autoptr(JsonNode) qd = qd_result (1);
  g_autoptr(GError) error = NULL;
  g_autofree NscChartKind *kinds = NULL;
  g_autofree char *has = NULL;
  NscChart *chart;
  guint n = 0;
  NscChartKind k;

  kinds = nsc_chart_kinds_for_result (wf, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (kinds[0], ==, NSC_CHART_WRITE_FILL);
  g_assert_cmpint (kinds[1], ==, NSC_CHART_TIME);
  has = nsc_chart_kinds_describe (qd);
  g_assert_cmpstr (has, ==, "qd, latency");

  chart = nsc_chart_new_for_result (wf, NSC_CHART_QD, NSC_CHART_STEP_AUTO, &error);
  g_assert_null (chart);
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "qd"));
  g_assert_nonnull (strstr (error->message, "write-fill, time"));
  g_clear_error (&error);

  chart = nsc_chart_new_for_result (qd, NSC_CHART_LATENCY, 99, &error);
  g_assert_null (chart);
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND);
  g_clear_error (&error);

  for (guint i = 0; i < NSC_CHART_N_KINDS; i++)
    {
      g_assert_true (nsc_chart_kind_from_string (nsc_chart_kind_to_string (i), &k));
      g_assert_cmpint (k, ==, i);
    }
  g_assert_false (nsc_chart_kind_from_string ("pie", &k));
}

static void
test_cache_region (void)
{
  g_autoptr(JsonNode) wf = write_fill_result (640);
  g_autoptr(GError) error = NULL;
  g_autoptr(NscChart) chart = nsc_chart_new_for_result (wf, NSC_CHART_WRITE_FILL,
                                                        NSC_CHART_STEP_AUTO, &error);
  Image img;
  double x, y, r, g, b, edge;
  cairo_rectangle_t plot;

  g_assert_no_error (error);
  img = render (chart, 900, 520, FALSE);
  g_assert_true (nsc_chart_get_plot_area (chart, &plot));

  /* Well below both speeds: shaded (green tint) inside the cache, white after it. */
  g_assert_true (nsc_chart_data_to_user (chart, 2.3 * GiB, 130e6, &x, &y));
  pixel (&img, x, y, &r, &g, &b);
  g_assert_cmpfloat (r, <, 0.97);
  g_assert_cmpfloat (g, >, r + 0.03);
  g_assert_cmpfloat (g, >, b + 0.01);
  nsc_chart_data_to_user (chart, 3.85 * GiB, 130e6, &x, &y);
  pixel (&img, x, y, &r, &g, &b);
  g_assert_cmpfloat (g, >, r + 0.03);
  nsc_chart_data_to_user (chart, 4.2 * GiB, 130e6, &x, &y);
  pixel (&img, x, y, &r, &g, &b);
  g_assert_cmpfloat (r, >, 0.97);
  g_assert_cmpfloat (g, >, 0.97);
  nsc_chart_data_to_user (chart, 7.3 * GiB, 130e6, &x, &y);
  pixel (&img, x, y, &r, &g, &b);
  g_assert_cmpfloat (MIN (r, MIN (g, b)), >, 0.97);

  /* The boundary is where the analysis puts it, within two pixels. */
  nsc_chart_data_to_user (chart, 4 * GiB, 130e6, &edge, &y);
  nsc_chart_data_to_user (chart, 0, 130e6, &x, &y);
  g_assert_cmpfloat (fabs (x - plot.x), <, 1);
  for (double px = edge - 6; px <= edge + 6; px += 1)
    {
      pixel (&img, px, y, &r, &g, &b);
      if (px < edge - 2)
        g_assert_cmpfloat (g - r, >, 0.03);
      else if (px > edge + 2)
        g_assert_cmpfloat (g - r, <, 0.01);
    }

  /* The in-cache line is drawn at 2000 MB/s over the shading. */
  nsc_chart_data_to_user (chart, 2.3 * GiB, 2000e6, &x, &y);
  {
    gboolean found = FALSE;
    for (int dy = -3; dy <= 3 && !found; dy++)
      found = chroma (&img, (int) x, (int) y + dy) > 0.4;
    g_assert_true (found);
  }
  cairo_surface_destroy (img.surface);
}

static void
test_lines_in_plot (void)
{
  g_autoptr(JsonNode) qd = qd_result (1);
  g_autoptr(GError) error = NULL;
  g_autoptr(NscChart) chart = nsc_chart_new_for_result (qd, NSC_CHART_QD, NSC_CHART_STEP_AUTO, &error);
  cairo_rectangle_t plot;
  Image img;
  guint inside = 0, outside = 0;

  g_assert_no_error (error);
  img = render (chart, 800, 480, FALSE);
  g_assert_true (nsc_chart_get_plot_area (chart, &plot));
  g_assert_cmpfloat (plot.width, >, 400);
  g_assert_cmpfloat (plot.height, >, 200);
  /* Coloured pixels (the lines and points; axes and text are grey) fall inside the
   * plot area; above it is only the legend. */
  for (int y = (int) plot.y; y < img.height; y++)
    for (int x = 0; x < img.width; x++)
      {
        gboolean in = x >= plot.x - 1 && x <= plot.x + plot.width + 1 && y <= plot.y + plot.height + 1;
        if (chroma (&img, x, y) > 0.35)
          {
            if (in)
              inside++;
            else
              outside++;
          }
      }
  g_assert_cmpuint (inside, >, 500);
  g_assert_cmpuint (outside, ==, 0);

  /* QD1 read point sits where the mapping says. */
  {
    double x, y, bps = 3000e6 * (1 - exp (-1.0 / 6));
    gboolean found = FALSE;
    nsc_chart_data_to_user (chart, 1, bps, &x, &y);
    for (int dy = -2; dy <= 2 && !found; dy++)
      for (int dx = -2; dx <= 2 && !found; dx++)
        found = chroma (&img, (int) x + dx, (int) y + dy) > 0.35;
    g_assert_true (found);
  }
  cairo_surface_destroy (img.surface);
}

/* The write-fill's level labels ("722 MiB/s") sit over the data line on their own
 * background: no coloured pixel of the line inside a label, on a real, noisy fill. */
static void
test_level_labels_on_top (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "review-loop.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) review = nsc_result_file_load (path, &error);
  g_autoptr(NscChart) chart = NULL;
  GPtrArray *texts;
  GArray *boxes;
  Image img;
  guint labels = 0;

  g_assert_no_error (error);
  chart = nsc_chart_new_for_result (review, NSC_CHART_WRITE_FILL, NSC_CHART_STEP_AUTO, &error);
  g_assert_no_error (error);
  img = render (chart, 1000, 560, FALSE);
  texts = _nsc_chart_get_texts (chart);
  boxes = _nsc_chart_get_text_boxes (chart);
  g_assert_cmpuint (texts->len, ==, boxes->len);
  for (guint i = 0; i < texts->len; i++)
    {
      const char *t = g_ptr_array_index (texts, i);
      const NscChartTextBox *b = &g_array_index (boxes, NscChartTextBox, i);
      guint coloured = 0;

      if (!g_regex_match_simple ("^[0-9.,]+ MiB/s$", t, 0, 0))
        continue;
      labels++;
      for (int y = (int) ceil (b->y); y < (int) floor (b->y + b->height); y++)
        for (int x = (int) ceil (b->x); x < (int) floor (b->x + b->width); x++)
          coloured += chroma (&img, x, y) > 0.35;
      if (coloured > 0)
        g_error ("the level label \"%s\" has %u pixels of a coloured line in it", t, coloured);
    }
  g_assert_cmpuint (labels, >, 0);
  cairo_surface_destroy (img.surface);
}

static gboolean texts_have (NscChart *chart, const char *text);

/* @result's write-fill chart of @step, drawn once (its texts kept). */
static NscChart *
drawn_fill_chart (JsonNode *result,
                  guint     step)
{
  NscChart *chart = nsc_chart_new_for_result (result, NSC_CHART_WRITE_FILL, step, NULL);
  Image img;

  g_assert_nonnull (chart);
  img = render (chart, 800, 480, FALSE);
  cairo_surface_destroy (img.surface);
  return chart;
}

/* The 10 GiB write-fill drawn once, its analysis' verdict and has_cache set. */
static NscChart *
fill_chart_with (const char *verdict,
                 gboolean    has_cache)
{
  g_autoptr(JsonNode) wf = write_fill_result (300);
  JsonObject *slc = json_object_get_object_member (
    json_object_get_object_member (json_node_get_object (wf), "analysis"), "slc");

  json_object_set_string_member (slc, "verdict", verdict);
  json_object_set_boolean_member (slc, "has_cache", has_cache);
  return drawn_fill_chart (wf, NSC_CHART_STEP_AUTO);
}

/* No cache found, yet the speed changed: the box says so beside the levels drawn
 * instead of a bare "No SLC cache seen" that they seem to contradict. */
static void
test_no_cache_levels (void)
{
  g_autoptr(NscChart) chart = fill_chart_with ("no-cache", FALSE);

  g_assert_true (texts_have (chart, "No SLC cache seen"));
  g_assert_true (texts_have (chart, "2 speed levels, none a cache's end"));
}

/* A cache the writes may have met in this machine's memory, and one they certainly
 * did: the box and the region say "not verified" and "not measured", as the report does,
 * not a plain "SLC cache". */
static void
test_cache_not_verified (void)
{
  g_autoptr(NscChart) chart = fill_chart_with ("not-verified", TRUE);
  g_autoptr(NscChart) memory = fill_chart_with ("system-cache", FALSE);
  g_autoptr(NscChart) plain = fill_chart_with ("cache", TRUE);

  g_assert_true (texts_have (chart, "SLC cache: 4.00 GiB"));
  g_assert_true (texts_have (chart, "Not verified as the drive's own"));
  g_assert_true (texts_have (chart, "Cache 4.00 GiB, not verified"));
  g_assert_false (texts_have (chart, "SLC cache 4.00 GiB"));

  g_assert_true (texts_have (memory, "No SLC cache measured"));
  g_assert_true (texts_have (memory, "The fast start went into this machine's memory"));
  g_assert_false (texts_have (memory, "No SLC cache seen"));

  /* A cache verified: neither. */
  g_assert_true (texts_have (plain, "SLC cache 4.00 GiB"));
  g_assert_false (texts_have (plain, "Not verified as the drive's own"));
}

/* Cache recovery: the fill's box lists every point, a recovery step's chart its own. */
static void
test_cache_recovery_lines (void)
{
  g_autoptr(JsonNode) wf = write_fill_result (300);
  JsonObject *root = json_node_get_object (wf);
  JsonArray *steps = json_object_get_array_member (root, "steps");
  g_autoptr(JsonNode) points = NULL;
  g_autoptr(NscChart) fill = NULL;
  g_autoptr(NscChart) one = NULL;
  g_autoptr(NscChart) two = NULL;

  for (guint i = 1; i <= 2; i++)
    {
      JsonNode *copy = json_node_copy (json_array_get_element (steps, 0));
      json_object_set_int_member (json_node_get_object (copy), "index", i);
      json_object_set_string_member (json_node_get_object (copy), "analysis", "cache-recovery");
      json_array_add_element (steps, copy);
    }
  points = parse ("{\"fast_threshold_bps\": 1000000000, \"points\": ["
                  "{\"step\": 1, \"idle_before_ns\": 60000000000, \"fast_bytes\": 2147483648,"
                  " \"verdict\": \"measured\"},"
                  "{\"step\": 2, \"idle_before_ns\": 300000000000, \"fast_bytes\": 1073741824,"
                  " \"verdict\": \"not-verified\", \"back_at_bytes\": 3221225472,"
                  " \"back_bytes\": 1073741824},"
                  "{\"step\": 1, \"idle_before_ns\": 90000000000, \"fast_bytes\": 536870912,"
                  " \"verdict\": \"not-verified\", \"reason\": \"system-cache\"}]}");
  json_object_set_member (json_object_get_object_member (root, "analysis"), "cache_recovery",
                          json_node_copy (points));

  fill = drawn_fill_chart (wf, NSC_CHART_STEP_AUTO);
  g_assert_true (texts_have (fill, "SLC cache: 4.00 GiB"));
  g_assert_true (texts_have (fill, "After 60 s idle: 2.00 GiB fast again"));
  g_assert_true (texts_have (fill, "After 300 s idle: not verified"));
  g_assert_true (texts_have (fill, "After 90 s idle: 512 MiB fast again, not verified"));

  one = drawn_fill_chart (wf, 1);
  g_assert_true (texts_have (one, "After 60 s idle: 2.00 GiB fast again"));
  g_assert_false (texts_have (one, "After 300 s idle: not verified"));
  g_assert_false (texts_have (one, "SLC cache: 4.00 GiB"));

  two = drawn_fill_chart (wf, 2);
  g_assert_true (texts_have (two, "After 300 s idle: not verified"));
  g_assert_false (texts_have (two, "After 60 s idle: 2.00 GiB fast again"));
}

static void
test_palettes (void)
{
  g_autoptr(JsonNode) qd = qd_result (1);
  g_autoptr(NscChart) chart = nsc_chart_new_for_result (qd, NSC_CHART_QD, NSC_CHART_STEP_AUTO, NULL);
  Image light = render (chart, 640, 400, FALSE);
  Image dark = render (chart, 640, 400, TRUE);
  double r, g, b, x, y, rr, rg, rb, wr, wg, wb;

  pixel (&light, 3, 3, &r, &g, &b);
  g_assert_cmpfloat (0.2126 * r + 0.7152 * g + 0.0722 * b, >, 0.9);
  pixel (&dark, 3, 3, &r, &g, &b);
  g_assert_cmpfloat (0.2126 * r + 0.7152 * g + 0.0722 * b, <, 0.2);

  /* Read and write differ in hue in both palettes, and stand out from the dark
   * background. */
  for (guint p = 0; p < 2; p++)
    {
      Image *img = p == 0 ? &light : &dark;
      nsc_chart_data_to_user (chart, 32, 3000e6 * (1 - exp (-32.0 / 6)), &x, &y);
      pixel (img, x, y, &rr, &rg, &rb);
      nsc_chart_data_to_user (chart, 32, 2000e6 * (1 - exp (-32.0 / 6)), &x, &y);
      pixel (img, x, y, &wr, &wg, &wb);
      g_assert_cmpfloat (fabs (rr - wr) + fabs (rg - wg) + fabs (rb - wb), >, 0.5);
      if (p == 1)
        {
          g_assert_cmpfloat (MAX (rr, MAX (rg, rb)), >, 0.6);
          g_assert_cmpfloat (MAX (wr, MAX (wg, wb)), >, 0.6);
        }
    }
  cairo_surface_destroy (light.surface);
  cairo_surface_destroy (dark.surface);
}

static Image
render_theme (NscChart      *chart,
              NscChartTheme  theme)
{
  Image img = { cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 640, 400), 640, 400 };
  cairo_t *cr = cairo_create (img.surface);
  NscChartStyle style;
  nsc_chart_style_init (&style, FALSE);
  style.theme = theme;
  nsc_chart_draw (chart, cr, 640, 400, &style);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (img.surface);
  return img;
}

/* Width in pixels of the vertical line through (x, y), of any colour other than
 * the background at (3, 3). */
static int
line_thickness (Image *img,
                double x,
                double y)
{
  double br, bg, bb, r, g, b;
  int n = 0;
  pixel (img, 3, 3, &br, &bg, &bb);
  for (int dy = -8; dy <= 8; dy++)
    {
      pixel (img, x, y + dy, &r, &g, &b);
      n += fabs (r - br) + fabs (g - bg) + fabs (b - bb) > 0.3;
    }
  return n;
}

static void
test_high_contrast (void)
{
  g_autoptr(JsonNode) qd = qd_result (1);
  g_autoptr(NscChart) chart = nsc_chart_new_for_result (qd, NSC_CHART_QD, NSC_CHART_STEP_AUTO, NULL);
  Image light = render_theme (chart, NSC_CHART_THEME_LIGHT);
  Image hc = render_theme (chart, NSC_CHART_THEME_HIGH_CONTRAST);
  Image hcd = render_theme (chart, NSC_CHART_THEME_HIGH_CONTRAST_DARK);
  cairo_rectangle_t plot;
  double r, g, b, x, y, between;
  NscChartTheme t;

  for (guint i = 0; i < NSC_CHART_N_THEMES; i++)
    {
      g_assert_true (nsc_chart_theme_from_string (nsc_chart_theme_to_string (i), &t));
      g_assert_cmpint (t, ==, i);
    }
  g_assert_false (nsc_chart_theme_from_string ("sepia", &t));

  /* Pure white and pure black backgrounds. */
  pixel (&hc, 3, 3, &r, &g, &b);
  g_assert_cmpfloat (r + g + b, ==, 3);
  pixel (&hcd, 3, 3, &r, &g, &b);
  g_assert_cmpfloat (r + g + b, ==, 0);

  /* The grid is darker than the light theme's, the axis black. */
  g_assert_true (nsc_chart_get_plot_area (chart, &plot));
  nsc_chart_data_to_user (chart, 1, 0, &x, &y);
  between = plot.x + plot.width * 0.5;
  {
    /* A horizontal grid line: scan up from the x axis for the first non-white row. */
    double lr, lg, lb, hr, hg, hb;
    int gy = -1;
    for (int yy = (int) (plot.y + plot.height) - 3; yy > plot.y && gy < 0; yy--)
      {
        pixel (&light, between, yy, &lr, &lg, &lb);
        if (lr < 0.99)
          gy = yy;
      }
    g_assert_cmpint (gy, >, 0);
    pixel (&light, between, gy, &lr, &lg, &lb);
    pixel (&hc, between, gy, &hr, &hg, &hb);
    g_assert_cmpfloat (hr + hg + hb, <, lr + lg + lb - 0.3);
    pixel (&hc, between, round (plot.y + plot.height) + 0.5, &hr, &hg, &hb);
    g_assert_cmpfloat (hr + hg + hb, <, 0.1);
  }

  /* Data lines are thicker than the light theme's. */
  nsc_chart_data_to_user (chart, 11.3, 3000e6 * (1 - exp (-11.3 / 6)), &x, &y);
  g_assert_cmpint (line_thickness (&hc, x, y), >, line_thickness (&light, x, y));

  cairo_surface_destroy (light.surface);
  cairo_surface_destroy (hc.surface);
  cairo_surface_destroy (hcd.surface);
}

/* The style's font decides the text size: points at the style's resolution (a
 * desktop's text scaling), or from the picture when the style has no font. The
 * left margin holds the y tick labels and title, so it grows with the text. */
static void
test_fonts (void)
{
  g_autoptr(JsonNode) qd = qd_result (1);
  g_autoptr(NscChart) chart = nsc_chart_new_for_result (qd, NSC_CHART_QD, NSC_CHART_STEP_AUTO, NULL);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 10");
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 900, 500);
  cairo_t *cr = cairo_create (surface);
  NscChartStyle style;
  cairo_rectangle_t plot;
  double left_96, left_192, left_default, left_small_default;

  nsc_chart_style_init (&style, FALSE);
  style.font = font;
  style.resolution = 96;
  nsc_chart_draw (chart, cr, 900, 500, &style);
  g_assert_true (nsc_chart_get_plot_area (chart, &plot));
  left_96 = plot.x;
  style.resolution = 192;   /* text scaling 2 */
  nsc_chart_draw (chart, cr, 900, 500, &style);
  nsc_chart_get_plot_area (chart, &plot);
  left_192 = plot.x;
  g_assert_cmpfloat (left_192, >, left_96 * 1.7);
  g_assert_cmpfloat (left_192, <, left_96 * 2.3);

  /* No font: the default family, its size following the picture. */
  nsc_chart_style_init (&style, FALSE);
  nsc_chart_draw (chart, cr, 900, 500, &style);
  nsc_chart_get_plot_area (chart, &plot);
  left_default = plot.x;
  nsc_chart_draw (chart, cr, 450, 250, &style);
  nsc_chart_get_plot_area (chart, &plot);
  left_small_default = plot.x;
  g_assert_cmpfloat (left_small_default, <, left_default * 0.75);

  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  pango_font_description_free (font);
}

static double
time_draw (NscChart *chart,
           int       reps)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 600);
  cairo_t *cr = cairo_create (surface);
  gint64 t0 = g_get_monotonic_time ();
  for (int i = 0; i < reps; i++)
    nsc_chart_draw (chart, cr, 1000, 600, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return (g_get_monotonic_time () - t0) / 1e6 / reps;
}

static NscChart *
live_chart (NscChartKind kind,
            guint        n)
{
  NscChart *chart = nsc_chart_new_live (kind, "Live");
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  guint64 pos = 0;
  for (guint i = 0; i < n; i++)
    {
      NscSample s = { 0 };
      s.duration_ns = 100000000;
      s.t_ns = (gint64) (i + 1) * s.duration_ns;
      s.bytes[1] = (guint64) ((i < n / 3 ? 200e6 : 50e6) * (0.7 + 0.6 * g_rand_double (rand)));
      pos += s.bytes[1];
      s.position = pos;
      nsc_chart_live_append (chart, &s);
      if (kind == NSC_CHART_TIME && i % 10 == 0)
        nsc_chart_live_append_temperature (chart, s.t_ns, 40 + 30.0 * i / n);
    }
  g_assert_cmpuint (nsc_chart_live_get_n_samples (chart), ==, n);
  return chart;
}

static void
test_decimation (void)
{
  for (guint k = 0; k < 2; k++)
    {
      NscChartKind kind = k == 0 ? NSC_CHART_TIME : NSC_CHART_WRITE_FILL;
      g_autoptr(NscChart) small = live_chart (kind, 2000);
      g_autoptr(NscChart) big = live_chart (kind, 1000000);
      double t_small, t_big;
      guint ops_small, ops_big;
      cairo_rectangle_t plot;

      t_small = time_draw (small, 5);
      ops_small = _nsc_chart_get_path_ops (small);
      t_big = time_draw (big, 3);
      ops_big = _nsc_chart_get_path_ops (big);
      g_assert_true (nsc_chart_get_plot_area (big, &plot));
      g_test_message ("%s: 2000 samples %.1f ms, %u path elements; 1e6 samples %.1f ms, %u path elements",
                      nsc_chart_kind_to_string (kind), t_small * 1e3, ops_small, t_big * 1e3, ops_big);
      /* Per line at most four elements per pixel column (plus a dot bar for time
       * charts, plus the temperature). */
      g_assert_cmpuint (ops_big, <=, (guint) (plot.width + 2) * 10);
      g_assert_cmpuint (ops_big, <=, 3 * ops_small + 100);
      /* The times are printed, not asserted: a shared machine and the sanitizers make
       * wall-clock bounds fail for reasons of their own. The path bound above is what
       * makes drawing follow the width. */
    }
}

static void
test_export (void)
{
  g_autoptr(JsonNode) wf = write_fill_result (200);
  g_autoptr(GError) error = NULL;
  g_autoptr(NscChart) chart = nsc_chart_new_for_result (wf, NSC_CHART_WRITE_FILL,
                                                        NSC_CHART_STEP_AUTO, &error);
  g_autofree char *dir = g_dir_make_tmp ("test-chart-XXXXXX", &error);
  g_autofree char *svg = g_build_filename (dir, "c.svg", NULL);
  g_autofree char *png = g_build_filename (dir, "c.png", NULL);
  g_autofree char *bad = g_build_filename (dir, "c.jpg", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GMarkupParseContext) ctx = NULL;
  static const GMarkupParser parser = { 0 };
  cairo_surface_t *surface;

  g_assert_no_error (error);
  /* The caption both front ends give an export. */
  g_assert_null (nsc_chart_get_caption (chart));
  {
    g_autofree char *caption = nsc_result_info_caption (wf);
    nsc_chart_set_caption (chart, caption);
  }
  g_assert_nonnull (strstr (nsc_chart_get_caption (chart), "Testdrive 9000 <Pro>"));
  g_assert_nonnull (strstr (nsc_chart_get_caption (chart), "FW42"));
  g_assert_nonnull (strstr (nsc_chart_get_caption (chart), "PCIe 4.0 x4"));
  g_assert_nonnull (strstr (nsc_chart_get_caption (chart), "2025-03-01"));
  g_assert_nonnull (strstr (nsc_chart_get_caption (chart), "0.1.0"));

  g_assert_true (nsc_chart_export (chart, svg, 800, 450, TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg, &contents, NULL, &error));
  /* Well-formed XML (GMarkup refuses what is not), with the caption in words,
   * escaped. */
  ctx = g_markup_parse_context_new (&parser, 0, NULL, NULL);
  g_assert_true (g_markup_parse_context_parse (ctx, contents, -1, &error));
  g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (contents, "<svg"));
  g_assert_nonnull (strstr (contents, "Testdrive 9000 &lt;Pro&gt;"));
  g_assert_nonnull (strstr (contents, "<title>"));

  g_assert_true (nsc_chart_export (chart, png, 640, 360, FALSE, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 640);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 360);
  cairo_surface_destroy (surface);

  g_assert_false (nsc_chart_export (chart, bad, 640, 360, FALSE, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (nsc_chart_export (chart, png, 5, 360, FALSE, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_unlink (svg);
  g_unlink (png);
  g_rmdir (dir);
}

static void
test_compare (void)
{
  g_autoptr(JsonNode) a = qd_result (1);
  g_autoptr(JsonNode) b = qd_result (0.5);
  g_autoptr(JsonNode) wf = write_fill_result (50);
  g_autoptr(GError) error = NULL;
  g_autoptr(NscChart) chart = nsc_chart_new_for_result (a, NSC_CHART_QD, NSC_CHART_STEP_AUTO, &error);
  Image img;
  double x, y;

  g_assert_no_error (error);
  g_assert_true (nsc_chart_add_result (chart, b, "Drive B", &error));
  g_assert_no_error (error);
  g_assert_false (nsc_chart_add_result (chart, wf, "Drive C", &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND);
  g_assert_cmpuint (nsc_chart_get_n_datasets (chart), ==, 2);

  img = render (chart, 800, 480, FALSE);
  /* The second drive's read line is at half the height of the first's. */
  nsc_chart_data_to_user (chart, 16, 0.5 * 3000e6 * (1 - exp (-16.0 / 6)), &x, &y);
  {
    gboolean found = FALSE;
    for (int dy = -2; dy <= 2 && !found; dy++)
      found = chroma (&img, (int) x, (int) y + dy) > 0.35;
    g_assert_true (found);
  }
  cairo_surface_destroy (img.surface);
}


static void
test_all_kinds_draw (void)
{
  g_autoptr(JsonNode) wf = write_fill_result (300);
  g_autoptr(JsonNode) qd = qd_result (1);
  NscChartKind kinds[] = { NSC_CHART_TIME, NSC_CHART_LATENCY };
  NscChartStyle style;

  nsc_chart_style_init (&style, FALSE);
  style.units = NSC_UNITS_MB;
  style.caption = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      JsonNode *r = kinds[i] == NSC_CHART_TIME ? wf : qd;
      g_autoptr(NscChart) chart = nsc_chart_new_for_result (r, kinds[i], NSC_CHART_STEP_AUTO, NULL);
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 300, 200);
      cairo_t *cr = cairo_create (surface);
      g_assert_nonnull (chart);
      /* A latency chart says whose latency: the first step of qd_result only reads. */
      if (kinds[i] == NSC_CHART_LATENCY)
        g_assert_true (g_str_has_prefix (nsc_chart_get_title (chart), "Read latency percentiles"));
      nsc_chart_draw (chart, cr, 300, 200, &style);
      /* Tiny and degenerate sizes draw nothing wrong. */
      nsc_chart_draw (chart, cr, 20, 10, &style);
      nsc_chart_draw (chart, cr, 0, 0, &style);
      g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
  {
    /* A live chart before its first sample. */
    g_autoptr(NscChart) live = nsc_chart_new_live (NSC_CHART_WRITE_FILL, "Waiting");
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 300, 200);
    cairo_t *cr = cairo_create (surface);
    GPtrArray *texts;

    nsc_chart_draw (live, cr, 300, 200, NULL);
    g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
    /* It says it waits, and shows no made-up scale (tick labels of 0). */
    g_assert_true (texts_have (live, "Waiting for data…"));
    texts = _nsc_chart_get_texts (live);
    for (guint i = 0; texts && i < texts->len; i++)
      {
        const char *t = g_ptr_array_index (texts, i);
        g_assert_false (g_regex_match_simple ("^[-−0-9.,  ]+$", t, 0, 0));
      }
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }
}

static gboolean
texts_have (NscChart   *chart,
            const char *text)
{
  GPtrArray *texts = _nsc_chart_get_texts (chart);
  for (guint i = 0; texts && i < texts->len; i++)
    if (g_str_equal (g_ptr_array_index (texts, i), text))
      return TRUE;
  return FALSE;
}

/* A chart exported in Russian: the words drawn and the SVG's text are Russian,
 * axis titles and legends alike; in English before and after. */
static void
test_translated (void)
{
  const char *localedir = g_getenv ("NSC_TEST_LOCALEDIR");
  g_autoptr(JsonNode) qd = qd_result (1);
  g_autoptr(JsonNode) wf = write_fill_result (200);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-chart-XXXXXX", &error);
  g_autofree char *svg = g_build_filename (dir, "ru.svg", NULL);
  g_autofree char *desc = NULL;
  g_autoptr(NscChart) chart = NULL;
  g_autoptr(NscChart) fill = NULL;
  g_autoptr(NscChart) live = NULL;
  NscChartStyle style;
  Image english, russian;
  double x, y, er, eg, eb, rr, rg, rb;

  g_assert_no_error (error);
  g_assert_nonnull (localedir);
  g_assert_nonnull (bindtextdomain (GETTEXT_PACKAGE, localedir));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  nsc_chart_style_init (&style, FALSE);
  style.caption = TRUE;

  nsc_test_use_language (NULL);
  chart = nsc_chart_new_for_result (qd, NSC_CHART_QD, NSC_CHART_STEP_AUTO, NULL);
  g_assert_true (nsc_chart_export_with_style (chart, svg, 800, 450, &style, &error));
  g_assert_no_error (error);
  g_assert_true (texts_have (chart, "Speed, MiB/s"));
  g_assert_true (texts_have (chart, "Read"));
  g_assert_true (texts_have (chart, "Queue depth (log scale)"));
  english = render (chart, 800, 480, FALSE);
  g_clear_pointer (&chart, nsc_chart_free);

  nsc_test_use_language ("ru");
  chart = nsc_chart_new_for_result (qd, NSC_CHART_QD, NSC_CHART_STEP_AUTO, NULL);
  {
    /* The caption the front ends set, in the language of the moment. */
    g_autofree char *caption = nsc_result_info_caption (qd);
    nsc_chart_set_caption (chart, caption);
  }
  g_assert_true (nsc_chart_export_with_style (chart, svg, 800, 450, &style, &error));
  g_assert_no_error (error);
  /* What went to Pango */
  g_assert_true (texts_have (chart, "Скорость по глубине очереди · Последовательное 128K"));
  g_assert_true (texts_have (chart, "Скорость, МиБ/с"));
  g_assert_true (texts_have (chart, "Глубина очереди (логарифмическая шкала)"));
  g_assert_true (texts_have (chart, "Чтение"));
  g_assert_true (texts_have (chart, "Запись"));
  g_assert_false (texts_have (chart, "Read"));
  g_assert_false (texts_have (chart, "Speed, MiB/s"));
  /* and what the SVG says in words */
  desc = nsc_test_svg_desc (svg);
  g_test_message ("SVG <desc>: %s", desc);
  g_assert_nonnull (strstr (desc, "Скорость, МиБ/с\n"));
  g_assert_nonnull (strstr (desc, "Глубина очереди (логарифмическая шкала)\n"));
  g_assert_nonnull (strstr (desc, "Чтение\nЗапись\n"));
  g_assert_nonnull (strstr (desc, "Прошивка FW42"));
  g_assert_null (strstr (desc, "Speed"));
  /* Colours follow the line's role, not its words: the write line is the same
   * colour in both languages. */
  russian = render (chart, 800, 480, FALSE);
  nsc_chart_data_to_user (chart, 32, 2000e6 * (1 - exp (-32.0 / 6)), &x, &y);
  pixel (&english, x, y, &er, &eg, &eb);
  pixel (&russian, x, y, &rr, &rg, &rb);
  g_assert_cmpfloat (chroma (&english, (int) x, (int) y), >, 0.35);
  g_assert_cmpfloat (fabs (er - rr) + fabs (eg - rg) + fabs (eb - rb), <, 0.05);
  cairo_surface_destroy (english.surface);
  cairo_surface_destroy (russian.surface);

  fill = nsc_chart_new_for_result (wf, NSC_CHART_WRITE_FILL, NSC_CHART_STEP_AUTO, NULL);
  nsc_chart_export_with_style (fill, svg, 900, 500, &style, &error);
  g_assert_no_error (error);
  g_assert_true (texts_have (fill, "Записано, ГиБ"));
  g_assert_true (texts_have (fill, "SLC-кеш: 4.00 ГиБ"));
  g_assert_true (texts_have (fill, "После кеша: 477 МиБ/с"));

  live = nsc_chart_new_live (NSC_CHART_TIME, "Живой");
  nsc_chart_live_append_temperature (live, 1000000000, 45);
  nsc_chart_export_with_style (live, svg, 600, 400, &style, &error);
  g_assert_no_error (error);
  g_assert_true (texts_have (live, "Температура, °C (правая ось)"));
  g_assert_true (texts_have (live, "Время, с"));
  g_clear_pointer (&live, nsc_chart_free);
  live = nsc_chart_new_live (NSC_CHART_WRITE_FILL, "Живой");
  nsc_chart_export_with_style (live, svg, 600, 400, &style, &error);
  g_assert_no_error (error);
  g_assert_true (texts_have (live, "Ожидание данных…"));

  nsc_test_use_language (NULL);
  g_assert_cmpstr (_("Read"), ==, "Read");
  g_unlink (svg);
  g_rmdir (dir);
}

/* ---- speed across the drive ---------------------------------------------- */

/* The read-back reads 3000 MB/s but 1000 MB/s from 4 to 5 GiB into its region. */
static double
read_back_speed (double pos)
{
  return pos > 4 * GiB && pos <= 5 * GiB ? 1000e6 : 3000e6;
}

/* A capacity check: a write-fill, then a read-back of the 8 GiB region that
 * starts 1 GiB into the drive; @once FALSE: a timed sequential read instead. */
static JsonNode *
verify_result (gboolean once)
{
  GString *s = g_string_new (header);
  JsonNode *node;
  g_string_append (s, "\"steps\": [{\"index\": 0, \"kind\": \"job\", \"label\": \"Write checked data\","
                      " \"analysis\": \"write-fill\", \"job\": {\"rw\": \"write\", \"pattern\": \"sequential\","
                      " \"read_percent\": 0, \"once\": true, \"region_offset\": 1073741824,"
                      " \"region_length\": 8589934592}, \"write\": {\"ios\": 8192, \"bw_bps\": 800000000}, ");
  add_series (s, 64, slc_speed, 8 * GiB);
  g_string_append_printf (s, "}, {\"index\": 1, \"kind\": \"job\", \"label\": \"Read back and check\","
                             " \"analysis\": \"verify\", \"job\": {\"rw\": \"read\", \"pattern\": \"sequential\","
                             " \"read_percent\": 100, \"once\": %s, \"region_offset\": 1073741824,"
                             " \"region_length\": 8589934592}, \"read\": {\"ios\": 8192, \"bw_bps\": 2400000000}, ",
                          once ? "true" : "false");
  add_series_dir (s, 256, read_back_speed, 8 * GiB, TRUE);
  g_string_append (s, "}], \"analysis\": {}, \"warnings\": []}");
  node = parse (s->str);
  g_string_free (s, TRUE);
  return node;
}

/* A surface scan of 10 places 100 GiB apart, 64 MiB each: 2000 MB/s falling by
 * 100 MB/s a place; @write: the scan writes. @spread FALSE: every place at 0. */
static JsonNode *
surface_result (gboolean write,
                gboolean spread)
{
  GString *s = g_string_new (header);
  JsonNode *node;
  const char *dir = write ? "write" : "read", *other = write ? "read" : "write";
  g_string_append_printf (s, "\"steps\": [{\"index\": 0, \"kind\": \"surface\", \"label\": \"Surface %s\","
                             " \"analysis\": \"surface\", \"job\": {\"rw\": \"%s\", \"pattern\": \"sequential\","
                             " \"read_percent\": %d, \"region_offset\": 0, \"region_length\": 0}, \"runs\": [",
                          dir, dir, write ? 0 : 100);
  for (guint i = 0; i < 10; i++)
    g_string_append_printf (s, "%s{\"region_offset\": %.0f, \"%s\": {\"bytes\": 67108864, \"ios\": 64,"
                               " \"bw_bps\": %.0f}, \"%s\": {\"bytes\": 0, \"ios\": 0, \"bw_bps\": 0}}",
                            i ? ", " : "", spread ? i * 100 * GiB : 0, dir, 2000e6 - i * 100e6, other);
  g_string_append (s, "]}], \"analysis\": {}, \"warnings\": []}");
  node = parse (s->str);
  g_string_free (s, TRUE);
  return node;
}

/* Whether a coloured pixel lies within @d pixels above or below the data point. */
static gboolean
line_near (NscChart *chart,
           Image    *img,
           double    x,
           double    y,
           int       d)
{
  double ux, uy;
  g_assert_true (nsc_chart_data_to_user (chart, x, y, &ux, &uy));
  for (int dy = -d; dy <= d; dy++)
    if (chroma (img, (int) ux, (int) uy + dy) > 0.35)
      return TRUE;
  return FALSE;
}

/* "@what: 954 MiB/s", as the chart writes the speed. */
static char *
speed_text (const char *what,
            double      bps)
{
  g_autofree char *n = nsc_format_speed (bps, NSC_UNITS_MIB);
  g_autofree char *label = nsc_words_speed_label (n, NSC_UNITS_MIB);
  return g_strdup_printf ("%s: %s", what, label);
}

static void
test_position_kinds (void)
{
  g_autoptr(JsonNode) verify = verify_result (TRUE);
  g_autoptr(JsonNode) timed = verify_result (FALSE);
  g_autoptr(JsonNode) scan = surface_result (FALSE, TRUE);
  g_autoptr(JsonNode) one_place = surface_result (FALSE, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(NscChart) chart = NULL;
  g_autofree char *has = NULL;
  g_autofree char *timed_has = NULL;
  g_autofree char *scan_has = NULL;
  g_autofree char *one_has = NULL;

  /* The write-fill keeps its chart; the read-back gets the curve. */
  has = nsc_chart_kinds_describe (verify);
  g_assert_cmpstr (has, ==, "write-fill, position, time");
  g_assert_true (nsc_chart_kind_from_string ("position", NULL));
  chart = nsc_chart_new_for_result (verify, NSC_CHART_POSITION, NSC_CHART_STEP_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (nsc_chart_get_title (chart), ==, "Read speed across the drive · Read back and check");
  g_clear_pointer (&chart, nsc_chart_free);
  /* A write is no read curve, even when it covers the region once. */
  chart = nsc_chart_new_for_result (verify, NSC_CHART_POSITION, 0, &error);
  g_assert_null (chart);
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "steps that have: 1"));
  g_clear_error (&error);

  /* A read that may wrap round its region has no places. */
  timed_has = nsc_chart_kinds_describe (timed);
  g_assert_cmpstr (timed_has, ==, "write-fill, time");
  /* Nor do the positions of several workers, each in its own slice. */
  {
    JsonArray *steps = json_object_get_array_member (json_node_get_object (verify), "steps");
    JsonObject *job = json_object_get_object_member (json_array_get_object_element (steps, 1), "job");
    g_autofree char *workers_has = NULL;
    json_object_set_int_member (job, "workers", 4);
    workers_has = nsc_chart_kinds_describe (verify);
    g_assert_cmpstr (workers_has, ==, "write-fill, time");
    json_object_set_int_member (job, "workers", 1);
  }

  scan_has = nsc_chart_kinds_describe (scan);
  g_assert_cmpstr (scan_has, ==, "position");
  chart = nsc_chart_new_for_result (scan, NSC_CHART_POSITION, NSC_CHART_STEP_AUTO, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (nsc_chart_get_title (chart), ==, "Read speed across the drive · Surface read");
  g_clear_pointer (&chart, nsc_chart_free);
  {
    g_autoptr(JsonNode) write_scan = surface_result (TRUE, TRUE);
    chart = nsc_chart_new_for_result (write_scan, NSC_CHART_POSITION, NSC_CHART_STEP_AUTO, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (nsc_chart_get_title (chart), ==, "Write speed across the drive · Surface write");
    g_clear_pointer (&chart, nsc_chart_free);
  }
  /* Places that are all one are no curve. */
  one_has = nsc_chart_kinds_describe (one_place);
  g_assert_cmpstr (one_has, ==, "none");
}

static void
test_position_read_back (void)
{
  g_autoptr(JsonNode) verify = verify_result (TRUE);
  g_autoptr(JsonNode) other = verify_result (TRUE);
  g_autoptr(JsonNode) scan = surface_result (FALSE, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(NscChart) chart = nsc_chart_new_for_result (verify, NSC_CHART_POSITION,
                                                        NSC_CHART_STEP_AUTO, &error);
  g_autofree char *lowest = NULL;
  g_autofree char *average = NULL;
  g_autofree char *highest = NULL;
  cairo_rectangle_t plot;
  double x, y;
  Image img;

  g_assert_no_error (error);
  img = render (chart, 900, 520, FALSE);
  g_assert_true (nsc_chart_get_plot_area (chart, &plot));
  /* Places are the region's offset plus the position: the slow gigabyte is the
   * sixth of the drive, and the fast reads around it stay fast. */
  g_assert_true (line_near (chart, &img, 5.5 * GiB, 1000e6, 3));
  g_assert_true (line_near (chart, &img, 3.5 * GiB, 3000e6, 3));
  g_assert_true (line_near (chart, &img, 7.5 * GiB, 3000e6, 3));
  g_assert_false (line_near (chart, &img, 3.5 * GiB, 1000e6, 3));
  g_assert_false (line_near (chart, &img, 4.5 * GiB, 1000e6, 3));
  /* The axis runs to the region's end. */
  nsc_chart_data_to_user (chart, 9 * GiB, 0, &x, &y);
  g_assert_cmpfloat (x, <=, plot.x + plot.width + 0.5);
  g_assert_cmpfloat (x, >, plot.x + plot.width * 0.8);
  /* The step's own average, the lowest and the highest sample. */
  lowest = speed_text ("Lowest", 1000e6);
  average = speed_text ("Average", 2400e6);
  highest = speed_text ("Highest", 3000e6);
  g_assert_true (texts_have (chart, lowest));
  g_assert_true (texts_have (chart, average));
  g_assert_true (texts_have (chart, highest));
  g_assert_true (texts_have (chart, "Place on the drive, GiB"));
  cairo_surface_destroy (img.surface);

  /* Compared: a line and a summary line per drive; a surface scan compares too. */
  g_assert_true (nsc_chart_add_result (chart, other, "Drive B", &error));
  g_assert_true (nsc_chart_add_result (chart, scan, "Drive C", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (nsc_chart_get_n_datasets (chart), ==, 3);
  img = render (chart, 900, 520, FALSE);
  {
    g_autofree char *a = speed_text ("x", 2400e6), *lo = speed_text ("x", 1000e6), *hi = speed_text ("x", 3000e6);
    g_autofree char *line = g_strdup_printf ("Drive B: average %s (%s to %s)", a + 3, lo + 3, hi + 3);
    g_assert_true (texts_have (chart, line));
  }
  cairo_surface_destroy (img.surface);
}

/* A probe's result: 64 places across 8 GiB, those below 5 GiB kept, the rest lost. */
static JsonNode *
probe_result (gboolean loses)
{
  g_autoptr(GString) places = g_string_new (NULL);
  g_autofree char *json = NULL;

  for (guint i = 0; i < 64; i++)
    {
      guint64 at = (guint64) i * 128 * 1024 * 1024;

      g_string_append_printf (places, "%s[%" G_GUINT64_FORMAT ", \"%s\"]", i ? ", " : "", at,
                              loses && at >= 5 * (guint64) GiB ? "zeros" : "ok");
    }
  json = g_strdup_printf ("{\"schema\": 1, \"steps\": [{\"index\": 0, \"kind\": \"probe\", "
                          "\"label\": \"Probe\", \"completed\": true, \"probe\": {\"verdict\": \"%s\", "
                          "\"reported_bytes\": %" G_GUINT64_FORMAT ", \"usable_bytes\": %" G_GUINT64_FORMAT ", "
                          "\"places\": [%s]}}]}",
                          loses ? "loses-writes" : "good", 8 * (guint64) GiB,
                          (loses ? 5 : 8) * (guint64) GiB, places->str);
  return json_from_string (json, NULL);
}

/* The probe's map: a dot per place, kept ones on the upper row and lost ones on the
 * lower, the axis to the drive's reported size, and where it stops storing. */
static void
test_map (void)
{
  g_autoptr(JsonNode) lies = probe_result (TRUE);
  g_autoptr(JsonNode) good = probe_result (FALSE);
  g_autoptr(JsonNode) other = verify_result (TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(NscChart) chart = nsc_chart_new_for_result (lies, NSC_CHART_MAP, NSC_CHART_STEP_AUTO, &error);
  g_autoptr(NscChart) passed = NULL;
  g_autofree NscChartKind *kinds = NULL;
  cairo_rectangle_t plot;
  NscChartKind k;
  double x, y;
  guint n = 0;
  Image img;

  g_assert_no_error (error);
  g_assert_true (nsc_chart_kind_from_string ("map", &k) && k == NSC_CHART_MAP);
  kinds = nsc_chart_kinds_for_result (lies, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (kinds[0], ==, NSC_CHART_MAP);
  g_assert_null (nsc_chart_new_for_result (other, NSC_CHART_MAP, NSC_CHART_STEP_AUTO, NULL));
  img = render (chart, 900, 400, FALSE);
  g_assert_true (nsc_chart_get_plot_area (chart, &plot));
  g_assert_true (line_near (chart, &img, 1 * GiB, 1, 3));
  g_assert_true (line_near (chart, &img, 6 * GiB, 0, 3));
  g_assert_false (line_near (chart, &img, 6 * GiB, 1, 3));
  g_assert_false (line_near (chart, &img, 1 * GiB, 0, 3));
  nsc_chart_data_to_user (chart, 8 * GiB, 0, &x, &y);
  g_assert_cmpfloat (x, <=, plot.x + plot.width + 0.5);
  g_assert_true (texts_have (chart, "Stores 5 GiB"));
  g_assert_true (texts_have (chart, "Kept its data"));
  g_assert_true (texts_have (chart, "Lost its data"));
  g_assert_true (texts_have (chart, "What the place held"));
  g_assert_true (g_str_has_prefix (nsc_chart_get_title (chart), "What the probe's places held"));
  cairo_surface_destroy (img.surface);

  /* A probe that passed: every dot kept, no line of where it stops. */
  passed = nsc_chart_new_for_result (good, NSC_CHART_MAP, NSC_CHART_STEP_AUTO, &error);
  g_assert_no_error (error);
  img = render (passed, 900, 400, TRUE);
  g_assert_true (line_near (passed, &img, 6 * GiB, 1, 3));
  g_assert_false (line_near (passed, &img, 6 * GiB, 0, 3));
  g_assert_false (texts_have (passed, "Stores 8 GiB"));
  cairo_surface_destroy (img.surface);
}

static void
test_position_surface (void)
{
  g_autoptr(JsonNode) scan = surface_result (FALSE, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(NscChart) chart = nsc_chart_new_for_result (scan, NSC_CHART_POSITION,
                                                        NSC_CHART_STEP_AUTO, &error);
  cairo_rectangle_t plot;
  double x, y;
  Image img;

  g_assert_no_error (error);
  img = render (chart, 900, 520, FALSE);
  g_assert_true (nsc_chart_get_plot_area (chart, &plot));
  /* A point at each place's start, with its speed (the first is on the axis);
   * the line between. */
  for (guint i = 1; i < 10; i++)
    g_assert_true (line_near (chart, &img, i * 100 * GiB, 2000e6 - i * 100e6, 2));
  g_assert_true (line_near (chart, &img, 10 * GiB, 1999e6, 3));
  g_assert_true (line_near (chart, &img, 450 * GiB, 1550e6, 3));
  g_assert_false (line_near (chart, &img, 450 * GiB, 1000e6, 3));
  /* The axis ends where the last place read ends, not at the next tick's gap. */
  nsc_chart_data_to_user (chart, 900 * GiB + 67108864, 0, &x, &y);
  g_assert_cmpfloat (x, <=, plot.x + plot.width + 0.5);
  /* Lowest, average and highest of the places. */
  {
    g_autofree char *lowest = speed_text ("Lowest", 1100e6);
    g_autofree char *average = speed_text ("Average", 1550e6);
    g_autofree char *highest = speed_text ("Highest", 2000e6);
    g_assert_true (texts_have (chart, lowest));
    g_assert_true (texts_have (chart, average));
    g_assert_true (texts_have (chart, highest));
  }
  g_assert_true (texts_have (chart, "Place on the drive, GiB"));
  cairo_surface_destroy (img.surface);

  /* Live, the chart follows the samples' positions as the write-fill's does. */
  {
    g_autoptr(NscChart) live = nsc_chart_new_live (NSC_CHART_POSITION, "Read back");
    NscSample sample = { 0 };
    sample.t_ns = 1000000000;
    sample.duration_ns = 500000000;
    sample.bytes[0] = 512 << 20;
    sample.position = 512 << 20;
    nsc_chart_live_append (live, &sample);
    sample.t_ns += 500000000;
    sample.position += 512 << 20;
    nsc_chart_live_append (live, &sample);
    g_assert_cmpuint (nsc_chart_live_get_n_samples (live), ==, 2);
    img = render (live, 600, 400, FALSE);
    g_assert_true (line_near (live, &img, 768 << 20, 1024.0 * 1048576, 3));
    cairo_surface_destroy (img.surface);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/chart/kinds", test_kinds);
  g_test_add_func ("/nsc/chart/cache-region", test_cache_region);
  g_test_add_func ("/nsc/chart/lines-in-plot", test_lines_in_plot);
  g_test_add_func ("/nsc/chart/level-labels-on-top", test_level_labels_on_top);
  g_test_add_func ("/nsc/chart/no-cache-levels", test_no_cache_levels);
  g_test_add_func ("/nsc/chart/cache-not-verified", test_cache_not_verified);
  g_test_add_func ("/nsc/chart/cache-recovery-lines", test_cache_recovery_lines);
  g_test_add_func ("/nsc/chart/palettes", test_palettes);
  g_test_add_func ("/nsc/chart/decimation", test_decimation);
  g_test_add_func ("/nsc/chart/export", test_export);
  g_test_add_func ("/nsc/chart/compare", test_compare);
  g_test_add_func ("/nsc/chart/position-kinds", test_position_kinds);
  g_test_add_func ("/nsc/chart/position-read-back", test_position_read_back);
  g_test_add_func ("/nsc/chart/position-surface", test_position_surface);
  g_test_add_func ("/nsc/chart/map", test_map);
  g_test_add_func ("/nsc/chart/all-kinds-draw", test_all_kinds_draw);
  g_test_add_func ("/nsc/chart/high-contrast", test_high_contrast);
  g_test_add_func ("/nsc/chart/fonts", test_fonts);
  g_test_add_func ("/nsc/chart/translated", test_translated);
  return g_test_run ();
}

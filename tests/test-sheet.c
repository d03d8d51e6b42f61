/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Review sheets from saved results: the results the fuzzers start from
 * (tests/fuzz/corpus), a review run on a loop device (tests/data), and any result
 * named in NSC_SHEET_RESULTS (a run the integration suite has just made). Each
 * page must show every element its result has data for, no text on another, and
 * export as PDF that poppler renders, SVG that says its words, and PNG at 1× and 2×. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "nsc-error.h"
#include "nsc-json.h"
#include "nsc-result-file.h"
#include "nsc-sheet-private.h"
#include "nsc-words.h"
#include "test-util.h"

/* Results the sheet is asked to draw: every loadable file of the corpus, the
 * review run, and NSC_SHEET_RESULTS. */
static GPtrArray *
result_paths (void)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *corpus = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "fuzz-result-file", NULL);
  g_autoptr(GDir) dir = g_dir_open (corpus, 0, NULL);
  const char *name, *extra = g_getenv ("NSC_SHEET_RESULTS");

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (paths, g_build_filename (corpus, name, NULL));
  g_ptr_array_add (paths, g_test_build_filename (G_TEST_DIST, "data", "review-loop.json", NULL));
  if (extra && *extra)
    {
      g_auto(GStrv) more = g_strsplit (extra, ":", -1);
      for (guint i = 0; more[i]; i++)
        if (*more[i])
          g_ptr_array_add (paths, g_strdup (more[i]));
    }
  return paths;
}

/* The review run on a loop device that most tests draw; its path in @path. */
static JsonNode *
load_review (char **path)
{
  g_autofree char *p = g_test_build_filename (G_TEST_DIST, "data", "review-loop.json", NULL);
  g_autoptr(GError) error = NULL;
  JsonNode *result = nsc_result_file_load (p, &error);

  g_assert_no_error (error);
  if (path)
    *path = g_steal_pointer (&p);
  return result;
}

/* Draws @sheet in @layout on a page of its size (@w, @h get it). */
static void
draw_page (NscSheet            *sheet,
           NscSheetLayout       layout,
           const NscChartStyle *style,
           double              *w,
           double              *h)
{
  cairo_surface_t *surface;
  cairo_t *cr;

  nsc_sheet_layout_get_size (layout, w, h);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) *w, (int) *h);
  cr = cairo_create (surface);
  nsc_sheet_draw (sheet, cr, layout, style);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static gboolean
has_text (NscSheet   *sheet,
          const char *element,
          const char *needle)
{
  GPtrArray *texts = _nsc_sheet_get_texts (sheet);
  for (guint i = 0; i < texts->len; i++)
    {
      NscSheetText *t = g_ptr_array_index (texts, i);
      if ((element == NULL || g_str_equal (t->element, element)) && strstr (t->text, needle))
        return TRUE;
    }
  return FALSE;
}

static void
assert_text (NscSheet   *sheet,
             const char *element,
             const char *needle,
             const char *path)
{
  if (!has_text (sheet, element, needle))
    g_error ("%s: the sheet's %s shows no “%s”", path, element ? element : "page", needle);
}

/* The strings the result itself holds, which its sheet must show. */
static void
check_elements (NscSheet   *sheet,
                JsonNode   *result,
                const char *path)
{
  JsonObject *root = json_node_get_object (result);
  JsonObject *dev = nsc_json_get_object (root, "device");
  JsonObject *app = nsc_json_get_object (root, "app");
  JsonObject *bench = nsc_json_get_object (root, "bench");
  JsonArray *warnings = nsc_json_get_array (root, "warnings");
  JsonArray *steps = nsc_json_get_array (root, "steps");
  const char *preset = nsc_json_get_string (nsc_json_get_object (root, "preset"), "title");
  GPtrArray *charts = _nsc_sheet_get_charts (sheet);
  guint n_kinds = 0;
  g_autofree NscChartKind *kinds = nsc_chart_kinds_for_result (result, &n_kinds);

  if (preset)
    assert_text (sheet, "title", preset, path);
  if (json_object_has_member (root, "cancelled") && json_object_get_boolean_member (root, "cancelled"))
    assert_text (sheet, "title", "cancelled", path);
  else
    g_assert_false (has_text (sheet, "title", "cancelled"));
  if (nsc_json_get_string (dev, "model"))
    assert_text (sheet, "drive", nsc_json_get_string (dev, "model"), path);
  else if (nsc_json_get_string (dev, "name"))
    assert_text (sheet, "drive", nsc_json_get_string (dev, "name"), path);
  assert_text (sheet, "drive", "Firmware: ", path);
  if (nsc_json_get_string (dev, "firmware"))
    assert_text (sheet, "drive", nsc_json_get_string (dev, "firmware"), path);
  assert_text (sheet, "drive", "Capacity: ", path);
  assert_text (sheet, "drive", "Link: ", path);
  if (nsc_json_get_string (dev, "transport"))
    assert_text (sheet, "drive", nsc_json_get_string (dev, "transport"), path);

  /* The conditions and the bench. */
  assert_text (sheet, "bench", "Strict: ", path);
  assert_text (sheet, "bench", "state: ", path);
  assert_text (sheet, "bench", "median", path);
  if (nsc_json_get_string (bench, "cpu"))
    assert_text (sheet, "bench", nsc_json_get_string (bench, "cpu"), path);

  /* The app that measured. */
  assert_text (sheet, "footer", nsc_json_get_string (app, "name") ? nsc_json_get_string (app, "name") : "Nandscope", path);
  if (nsc_json_get_string (app, "version"))
    assert_text (sheet, "footer", nsc_json_get_string (app, "version"), path);

  /* Headline numbers: the Quick grid's rows, or the first test. */
  for (guint i = 0; steps && i < json_array_get_length (steps); i++)
    {
      JsonObject *s = json_array_get_object_element (steps, i);
      if (g_strcmp0 (nsc_json_get_string (s, "analysis"), "fresh-read") == 0)
        assert_text (sheet, "headline", nsc_json_get_string (s, "label"), path);
    }

  /* A chart for every kind the result has data for, each with its title drawn,
   * and none that did not run. */
  for (guint k = 0; k < n_kinds; k++)
    {
      gboolean found = FALSE;
      if (kinds[k] == NSC_CHART_TIME)
        continue;   /* the sheet draws degradation and thermal, not every step */
      for (guint c = 0; c < charts->len; c++)
        found |= nsc_chart_get_kind (g_ptr_array_index (charts, c)) == kinds[k];
      if (!found)
        g_error ("%s: the sheet has no %s chart", path, nsc_chart_kind_to_string (kinds[k]));
    }
  for (guint c = 0; c < charts->len; c++)
    {
      NscChart *chart = g_ptr_array_index (charts, c);
      gboolean ran = FALSE;
      for (guint k = 0; k < n_kinds; k++)
        ran |= kinds[k] == nsc_chart_get_kind (chart);
      g_assert_true (ran);
      assert_text (sheet, "chart-title", nsc_chart_get_title (chart), path);
    }
  for (guint i = 0; steps && i < json_array_get_length (steps); i++)
    {
      JsonObject *s = json_array_get_object_element (steps, i);
      const char *tag = nsc_json_get_string (s, "analysis");
      JsonObject *series = nsc_json_get_object (s, "series");
      JsonArray *t = nsc_json_get_array (series, "t_ns");
      if ((g_strcmp0 (tag, "degradation") == 0 || g_strcmp0 (tag, "thermal") == 0)
          && t && json_array_get_length (t) >= 2)
        assert_text (sheet, "chart-title", nsc_json_get_string (s, "label"), path);
    }

  /* Each kind of warning in words (the first of its kind; the rest counted). */
  for (guint i = 0; warnings && i < json_array_get_length (warnings); i++)
    {
      JsonObject *w = json_array_get_object_element (warnings, i);
      const char *code = nsc_json_get_string (w, "code");
      gboolean first = TRUE;
      g_autofree char *start = NULL;
      for (guint j = 0; j < i; j++)
        first &= g_strcmp0 (nsc_json_get_string (json_array_get_object_element (warnings, j), "code"), code) != 0;
      if (!first)
        continue;
      /* Long lists end in "…and N more": those that fit are in words, the sentence
       * nsc_warning_describe () makes (not the English message of the JSON). */
      {
        g_autoptr(NscWarning) parsed = nsc_warning_from_json (w);
        g_autofree char *sentence = nsc_warning_describe (parsed, NSC_UNITS_MIB, NULL, NULL);

        start = g_strndup (sentence, 30);
      }
      if (!has_text (sheet, "warnings", start))
        assert_text (sheet, "warnings", "more in the result file", path);
    }
}

/* No two strings' ink meets, and every one is on the page. */
static void
check_no_overlap (NscSheet   *sheet,
                  double      width,
                  double      height,
                  const char *path)
{
  GPtrArray *texts = _nsc_sheet_get_texts (sheet);
  /* Antialiasing may touch: half a pixel each side is not an overlap. */
  const double slack = 0.5;

  g_assert_cmpuint (texts->len, >, 10);
  for (guint i = 0; i < texts->len; i++)
    {
      NscSheetText *a = g_ptr_array_index (texts, i);
      /* Titles, the drive and the foot are shown whole. */
      if (a->cut && (g_str_equal (a->element, "title") || g_str_equal (a->element, "chart-title")
                     || g_str_equal (a->element, "footer")
                     || (g_str_equal (a->element, "drive") && !strstr (path, "drives"))))
        g_error ("%s: “%s” (%s) is cut short", path, a->text, a->element);
      if (a->box.width <= 0)
        continue;
      if (a->box.x < -slack || a->box.y < -slack || a->box.x + a->box.width > width + slack
          || a->box.y + a->box.height > height + slack)
        g_error ("%s: “%s” (%s) is off the page: %.1f,%.1f %.1f×%.1f", path, a->text, a->element,
                 a->box.x, a->box.y, a->box.width, a->box.height);
      /* A chart's words stay in its cell (a cut axis title is cut text). */
      if (a->cell.width > 0
          && (a->box.x < a->cell.x - slack || a->box.y < a->cell.y - slack
              || a->box.x + a->box.width > a->cell.x + a->cell.width + slack
              || a->box.y + a->box.height > a->cell.y + a->cell.height + slack))
        g_error ("%s: “%s” (%s) leaves its chart's cell", path, a->text, a->element);
      for (guint j = i + 1; j < texts->len; j++)
        {
          NscSheetText *b = g_ptr_array_index (texts, j);
          double ox, oy;
          if (b->box.width <= 0)
            continue;
          ox = MIN (a->box.x + a->box.width, b->box.x + b->box.width) - MAX (a->box.x, b->box.x);
          oy = MIN (a->box.y + a->box.height, b->box.y + b->box.height) - MAX (a->box.y, b->box.y);
          if (ox > 2 * slack && oy > 2 * slack)
            g_error ("%s: “%s” (%s) overlaps “%s” (%s) by %.1f × %.1f", path, a->text, a->element,
                     b->text, b->element, ox, oy);
        }
    }
}

static void
test_sheet_results (void)
{
  g_autoptr(GPtrArray) paths = result_paths ();
  guint drawn = 0;

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) result = nsc_result_file_load (path, &error);
      g_autoptr(NscSheet) sheet = NULL;

      if (result == NULL)
        {
          /* The corpus holds damaged files on purpose; a named result must load. */
          g_assert_true (strstr (path, "fuzz-result-file") != NULL);
          continue;
        }
      sheet = nsc_sheet_new (result, &error);
      g_assert_no_error (error);
      for (guint l = 0; l < NSC_SHEET_N_LAYOUTS; l++)
        for (guint theme = 0; theme < 2; theme++)
          {
            double w, h;
            NscChartStyle style;
            g_autofree char *where = g_strdup_printf ("%s (%s, %s)", path,
                                                      nsc_sheet_layout_to_string (l),
                                                      nsc_chart_theme_to_string (theme));
            nsc_chart_style_init (&style, theme == 1);
            draw_page (sheet, l, &style, &w, &h);
            check_elements (sheet, result, where);
            check_no_overlap (sheet, w, h, where);
            drawn++;
          }
    }
  /* quick, cancelled, three custom jobs, surface, trim-latency, the review run */
  g_assert_cmpuint (drawn, >=, 8 * 4);
}

/* The check itself: two strings drawn on each other are caught. */
static void
test_sheet_overlap_caught (void)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) result = load_review (&path);
  g_autoptr(NscSheet) sheet = nsc_sheet_new (result, NULL);
  GPtrArray *texts;
  NscSheetText *copy;
  double w, h;

  draw_page (sheet, NSC_SHEET_LAYOUT_A4, NULL, &w, &h);
  texts = _nsc_sheet_get_texts (sheet);
  copy = g_new0 (NscSheetText, 1);
  copy->element = g_strdup ("test");
  copy->text = g_strdup ("on the title");
  copy->box = ((NscSheetText *) g_ptr_array_index (texts, 0))->box;
  copy->box.x += 3;
  g_ptr_array_add (texts, copy);
  if (g_test_subprocess ())
    {
      check_no_overlap (sheet, w, h, path);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*overlaps*");
}

static gboolean
run (const char *const *argv,
     char              **out)
{
  int status = -1;
  g_autoptr(GError) error = NULL;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, out, NULL, &status, &error))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

/* The files: PDF that poppler renders and whose text layer holds the words, SVG
 * that says its words, PNG at twice the pixels for --scale 2. */
static void
test_sheet_export (void)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) result = load_review (&path);
  g_autofree char *dir = g_dir_make_tmp ("nsc-sheet-XXXXXX", NULL);
  g_autofree char *pdf = g_build_filename (dir, "sheet.pdf", NULL);
  g_autofree char *svg = g_build_filename (dir, "sheet.svg", NULL);
  g_autofree char *png1 = g_build_filename (dir, "sheet.png", NULL);
  g_autofree char *png2 = g_build_filename (dir, "sheet@2.png", NULL);
  g_autofree char *rendered = g_build_filename (dir, "page", NULL);
  g_autofree char *rendered_png = g_build_filename (dir, "page-1.png", NULL);
  g_autofree char *pdftoppm = g_find_program_in_path ("pdftoppm");
  g_autofree char *pdftotext = g_find_program_in_path ("pdftotext");
  g_autofree char *desc = NULL, *text = NULL;
  g_autoptr(NscSheet) sheet = nsc_sheet_new (result, NULL);
  g_autoptr(GError) error = NULL;
  GPtrArray *charts;
  cairo_surface_t *a, *b;
  NscChartStyle style;

  nsc_chart_style_init (&style, FALSE);
  for (guint l = 0; l < NSC_SHEET_N_LAYOUTS; l++)
    {
      double w, h;
      nsc_sheet_layout_get_size (l, &w, &h);

      g_assert_true (nsc_sheet_export (sheet, svg, l, &style, 1, &error));
      g_assert_no_error (error);
      g_free (desc);
      desc = nsc_test_svg_desc (svg);
      charts = _nsc_sheet_get_charts (sheet);
      g_assert_cmpuint (charts->len, >=, 6);
      g_assert_nonnull (strstr (desc, "Review suite on loop"));
      g_assert_nonnull (strstr (desc, "Firmware: not reported"));
      g_assert_nonnull (strstr (desc, "SEQ1M Q8T1"));
      g_assert_nonnull (strstr (desc, "Strict: no"));
      g_assert_nonnull (strstr (desc, "Measured with Nandscope"));
      g_assert_nonnull (strstr (desc, "Warnings"));
      for (guint c = 0; c < charts->len; c++)
        {
          g_autofree char *escaped = g_markup_escape_text (nsc_chart_get_title (g_ptr_array_index (charts, c)), -1);
          g_assert_nonnull (strstr (desc, escaped));
        }

      g_assert_true (nsc_sheet_export (sheet, png1, l, &style, 1, &error));
      g_assert_true (nsc_sheet_export (sheet, png2, l, &style, 2, &error));
      g_assert_no_error (error);
      a = cairo_image_surface_create_from_png (png1);
      b = cairo_image_surface_create_from_png (png2);
      g_assert_cmpint (cairo_surface_status (a), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpint (cairo_surface_status (b), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpint (cairo_image_surface_get_width (a), ==, (int) w);
      g_assert_cmpint (cairo_image_surface_get_height (a), ==, (int) h);
      g_assert_cmpint (cairo_image_surface_get_width (b), ==, 2 * (int) w);
      g_assert_cmpint (cairo_image_surface_get_height (b), ==, 2 * (int) h);
      cairo_surface_destroy (a);
      cairo_surface_destroy (b);

      g_assert_true (nsc_sheet_export (sheet, pdf, l, &style, 1, &error));
      g_assert_no_error (error);
      if (pdftoppm == NULL || pdftotext == NULL)
        {
          g_test_skip ("pdftoppm and pdftotext (poppler-utils, tools/install-deps) are not installed");
          continue;
        }
      {
        const char *argv[] = { pdftoppm, "-r", "30", "-png", pdf, rendered, NULL };
        const char *targv[] = { pdftotext, pdf, "-", NULL };
        g_assert_true (run (argv, NULL));
        a = cairo_image_surface_create_from_png (rendered_png);
        g_assert_cmpint (cairo_surface_status (a), ==, CAIRO_STATUS_SUCCESS);
        /* 30 dpi of the page's points. */
        g_assert_cmpint (abs (cairo_image_surface_get_width (a) - (int) round (w / (l == 0 ? 150.0 : 96.0) * 30)), <=, 1);
        cairo_surface_destroy (a);
        g_remove (rendered_png);
        g_free (text);
        g_assert_true (run (targv, &text));
        g_assert_nonnull (strstr (text, "Review suite on loop"));
        g_assert_nonnull (strstr (text, "Firmware"));
        g_assert_nonnull (strstr (text, "Measured with Nandscope"));
      }
    }
  /* The names every front end checks with the library's rule. */
  g_assert_true (nsc_sheet_path_is_supported ("a.pdf"));
  g_assert_true (nsc_sheet_path_is_supported ("A.SVG"));
  g_assert_true (nsc_sheet_path_is_supported ("dir.d/b.Png"));
  g_assert_false (nsc_sheet_path_is_supported ("a.jpg"));
  g_assert_false (nsc_sheet_path_is_supported (".pdf"));
  g_assert_false (nsc_sheet_path_is_supported ("pdf"));
  g_assert_true (nsc_sheet_path_is_png ("a.PNG"));
  g_assert_false (nsc_sheet_path_is_png ("a.pdf"));

  /* Vector files take no scale; unknown extensions are refused. */
  g_assert_false (nsc_sheet_export (sheet, pdf, NSC_SHEET_LAYOUT_A4, &style, 2, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (nsc_sheet_export (sheet, png1, NSC_SHEET_LAYOUT_A4, &style, 0, &error));
  g_clear_error (&error);
  g_assert_false (nsc_sheet_export (sheet, "/tmp/x.jpg", NSC_SHEET_LAYOUT_A4, &style, 1, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);

  g_remove (pdf);
  g_remove (svg);
  g_remove (png1);
  g_remove (png2);
  g_rmdir (dir);
}

/* Several results of one preset: one line per drive, numbered and coloured, both
 * in every chart; a result of another preset is refused. */
static void
test_sheet_compare (void)
{
  g_autofree char *path = NULL;
  g_autofree char *quick = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "fuzz-result-file", "quick.json", NULL);
  g_autoptr(JsonNode) a = load_review (&path);
  g_autoptr(JsonNode) b = load_review (NULL);
  g_autoptr(JsonNode) other = nsc_result_file_load (quick, NULL);
  g_autoptr(NscSheet) sheet = nsc_sheet_new (a, NULL);
  g_autoptr(GError) error = NULL;
  JsonObject *dev = nsc_json_get_object (json_node_get_object (b), "device");
  GPtrArray *charts;

  json_object_set_string_member (dev, "model", "Second Drive 2TB");
  g_assert_true (nsc_sheet_add_result (sheet, b, NULL, &error));
  g_assert_no_error (error);
  /* As many as a sheet takes, then one too many. */
  {
    g_autoptr(NscSheet) full = nsc_sheet_new (a, NULL);
    for (guint i = 1; i < NSC_SHEET_MAX_RESULTS; i++)
      g_assert_true (nsc_sheet_add_result (full, b, NULL, NULL));
    g_assert_false (nsc_sheet_add_result (full, b, NULL, &error));
    g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    for (guint l = 0; l < NSC_SHEET_N_LAYOUTS; l++)
      {
        double w, h;
        draw_page (full, l, NULL, &w, &h);
        {
          g_autofree char *last = g_strdup_printf ("Write %d", NSC_SHEET_MAX_RESULTS);
          assert_text (full, "headline", last, path);
        }
        check_no_overlap (full, w, h, "the most drives");
      }
  }
  g_assert_false (nsc_sheet_add_result (sheet, other, NULL, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "quick"));
  g_assert_cmpuint (nsc_sheet_get_n_results (sheet), ==, 2);
  g_assert_nonnull (strstr (nsc_sheet_get_title (sheet), "2 drives compared"));

  for (guint l = 0; l < NSC_SHEET_N_LAYOUTS; l++)
    {
      double w, h;
      draw_page (sheet, l, NULL, &w, &h);
      assert_text (sheet, "drive", "1  loop", path);
      assert_text (sheet, "drive", "2  Second Drive 2TB", path);
      assert_text (sheet, "headline", "Read 1", path);
      assert_text (sheet, "headline", "Write 2", path);
      charts = _nsc_sheet_get_charts (sheet);
      g_assert_cmpuint (charts->len, >=, 6);
      for (guint c = 0; c < charts->len; c++)
        g_assert_cmpuint (nsc_chart_get_n_datasets (g_ptr_array_index (charts, c)), ==, 2);
      check_no_overlap (sheet, w, h, "comparison");
    }
}

/* Thermal with temperature: a drive's sensor (NVMe, not a loop device) gives the
 * thermal steps a temperature series; the sheet's thermal chart draws it on its
 * right-hand axis. The series is added to the loop device's run here. */
static void
test_sheet_thermal (void)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) result = load_review (&path);
  JsonArray *steps = nsc_json_get_array (json_node_get_object (result), "steps");
  g_autoptr(NscSheet) sheet = NULL;
  guint thermal = 0;
  double w, h;

  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *s = json_array_get_object_element (steps, i);
      JsonArray *t = nsc_json_get_array (nsc_json_get_object (s, "series"), "t_ns");
      JsonObject *temp;
      JsonArray *tt, *tc;
      if (g_strcmp0 (nsc_json_get_string (s, "analysis"), "thermal") != 0 || t == NULL)
        continue;
      temp = json_object_new ();
      tt = json_array_new ();
      tc = json_array_new ();
      for (guint k = 0; k < json_array_get_length (t); k++)
        {
          json_array_add_int_element (tt, json_array_get_int_element (t, k));
          json_array_add_double_element (tc, 45.0 + 25.0 * k / json_array_get_length (t));
        }
      json_object_set_array_member (temp, "t_ns", tt);
      json_object_set_array_member (temp, "celsius", tc);
      json_object_set_object_member (s, "temperature", temp);
      thermal++;
    }
  g_assert_cmpuint (thermal, ==, 2);
  sheet = nsc_sheet_new (result, NULL);
  draw_page (sheet, NSC_SHEET_LAYOUT_A4, NULL, &w, &h);
  assert_text (sheet, "chart-title", "Thermal: speed and temperature · SEQ1M Q32T1 write", path);
  assert_text (sheet, "chart-title", "Thermal: speed and temperature · SEQ1M Q32T1 read", path);
  assert_text (sheet, "chart time", "Temperature, °C (right axis)", path);
  assert_text (sheet, "chart-title", "Degradation under a sustained load", path);
  check_no_overlap (sheet, w, h, "thermal");
}

/* In Russian: the sheet's own words and its charts' are translated, and the
 * longer words still overlap nothing. */
static void
test_sheet_translated (void)
{
  const char *localedir = g_getenv ("NSC_TEST_LOCALEDIR");
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) result = load_review (&path);
  g_autoptr(NscSheet) sheet = NULL;

  if (localedir == NULL)
    {
      g_test_skip ("NSC_TEST_LOCALEDIR is not set (run through meson test)");
      return;
    }
  g_assert_nonnull (bindtextdomain (GETTEXT_PACKAGE, localedir));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  nsc_test_use_language ("ru");
  sheet = nsc_sheet_new (result, NULL);
  for (guint l = 0; l < NSC_SHEET_N_LAYOUTS; l++)
    {
      double w, h;
      draw_page (sheet, l, NULL, &w, &h);
      assert_text (sheet, "drive", "Прошивка: не сообщается", path);
      assert_text (sheet, "bench", "Тестовый стенд и условия", path);
      assert_text (sheet, "bench", "Строгие условия: нет", path);
      assert_text (sheet, "headline", "Тест, МиБ/с", path);
      assert_text (sheet, "warnings", "Предупреждения", path);
      assert_text (sheet, "footer", "Измерено: Nandscope", path);
      assert_text (sheet, "chart qd", "Глубина очереди", path);
      g_assert_false (has_text (sheet, NULL, "Firmware"));
      g_assert_false (has_text (sheet, NULL, "Test bench"));
      g_assert_false (has_text (sheet, NULL, "Speed, MiB/s"));
      check_no_overlap (sheet, w, h, "ru");
    }
  nsc_test_use_language (NULL);
}

/* The write-fill's labels (the cache's size, each phase's speed, the summary
 * box) find room whatever the cache's length and the speed inside it: the
 * review run's analysis is moved through a range of both. */
static void
test_sheet_write_fill_labels (void)
{
  static const double fractions[] = { 0.02, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 0.95 };
  static const double tops[] = { 0.5, 0.8, 0.9, 0.95, 1.0, 1.05 };
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) result = load_review (&path);
  JsonObject *slc = json_object_get_object_member (
    json_object_get_object_member (json_node_get_object (result), "analysis"), "slc");
  JsonArray *phases = json_object_get_array_member (slc, "phases");
  JsonObject *in_cache = json_array_get_object_element (phases, 0);
  JsonObject *after = json_array_get_object_element (phases, 1);
  double total = json_object_get_double_member (slc, "total_bytes");
  double fastest = 0;
  JsonArray *steps = json_object_get_array_member (json_node_get_object (result), "steps");
  JsonObject *series = json_object_get_object_member (
    json_array_get_object_element (steps, (guint) json_object_get_int_member (slc, "step")), "series");
  JsonArray *dur = json_object_get_array_member (series, "duration_ns");
  JsonArray *wb = json_object_get_array_member (series, "write_bytes");

  for (guint i = 0; i < json_array_get_length (dur); i++)
    fastest = MAX (fastest, json_array_get_double_element (wb, i) * 1e9
                              / json_array_get_double_element (dur, i));
  for (guint f = 0; f < G_N_ELEMENTS (fractions); f++)
    for (guint t = 0; t < G_N_ELEMENTS (tops); t++)
      {
        double cache = round (total * fractions[f]);
        json_object_set_double_member (slc, "cache_bytes", cache);
        json_object_set_double_member (slc, "in_cache_bps", fastest * tops[t]);
        json_object_set_double_member (in_cache, "end_bytes", cache);
        json_object_set_double_member (in_cache, "bps", fastest * tops[t]);
        json_object_set_double_member (after, "start_bytes", cache);
        for (guint l = 0; l < NSC_SHEET_N_LAYOUTS; l++)
          {
            g_autoptr(NscSheet) sheet = nsc_sheet_new (result, NULL);
            g_autofree char *where = g_strdup_printf ("cache %.0f %% of the fill at %.2f × the fastest sample (%s)",
                                                      fractions[f] * 100, tops[t],
                                                      nsc_sheet_layout_to_string (l));
            double w, h;
            draw_page (sheet, l, NULL, &w, &h);
            check_no_overlap (sheet, w, h, where);
          }
      }
}

/* A write-fill cancelled part-way has no finished test to give a number: no
 * headline table, and the bench takes the whole width instead of leaving the page's
 * upper-left quarter empty. */
static void
test_sheet_cancelled_fill (void)
{
  g_autoptr(JsonNode) result = load_review (NULL);
  JsonObject *root = json_node_get_object (result);
  JsonObject *slc = json_object_get_object_member (json_object_get_object_member (root, "analysis"), "slc");
  JsonArray *steps = json_object_get_array_member (root, "steps");
  JsonObject *fill = json_array_get_object_element (steps, (guint) json_object_get_int_member (slc, "step"));
  JsonArray *only = json_array_new ();
  g_autoptr(NscSheet) sheet = NULL;
  GPtrArray *texts;
  double w, h, bench_x = -1;
  guint headline = 0;

  json_object_set_boolean_member (fill, "completed", FALSE);
  json_object_set_int_member (fill, "index", 0);
  json_array_add_object_element (only, json_object_ref (fill));
  json_object_set_array_member (root, "steps", only);
  json_object_set_int_member (slc, "step", 0);
  json_object_set_boolean_member (root, "cancelled", TRUE);

  sheet = nsc_sheet_new (result, NULL);
  draw_page (sheet, NSC_SHEET_LAYOUT_A4, NULL, &w, &h);
  check_no_overlap (sheet, w, h, "a cancelled write-fill (A4)");
  texts = _nsc_sheet_get_texts (sheet);
  for (guint i = 0; i < texts->len; i++)
    {
      NscSheetText *t = g_ptr_array_index (texts, i);

      headline += g_str_equal (t->element, "headline");
      if (g_str_equal (t->element, "bench") && g_str_equal (t->text, "Test bench and conditions"))
        bench_x = t->box.x;
    }
  g_assert_cmpuint (headline, ==, 0);
  g_assert_cmpfloat (bench_x, >=, 0);
  g_assert_cmpfloat (bench_x, <, w * 0.2);
}

/* A capacity check (a real run on a folder, from the corpus): its sheet shows the
 * write curve and the read-back's speed across the drive, each titled by its
 * test, with room for both in either layout. */
static void
test_sheet_capacity_check (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "fuzz-result-file",
                                                 "verify.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) result = nsc_result_file_load (path, &error);
  g_autoptr(NscSheet) sheet = NULL;
  GPtrArray *charts;
  gboolean fill = FALSE, curve = FALSE;

  g_assert_no_error (error);
  sheet = nsc_sheet_new (result, NULL);
  for (guint l = 0; l < NSC_SHEET_N_LAYOUTS; l++)
    {
      double w, h;
      draw_page (sheet, l, NULL, &w, &h);
      assert_text (sheet, "chart-title", "Write-fill: speed against data written · Write checked data", path);
      assert_text (sheet, "chart-title", "Read speed across the drive · Read back and check", path);
      assert_text (sheet, "chart position", "Place on the drive, GiB", path);
      check_no_overlap (sheet, w, h, nsc_sheet_layout_to_string (l));
    }
  charts = _nsc_sheet_get_charts (sheet);
  for (guint c = 0; c < charts->len; c++)
    {
      NscChartKind kind = nsc_chart_get_kind (g_ptr_array_index (charts, c));
      /* The read-back's chart follows the write-fill's. */
      g_assert_true (kind != NSC_CHART_POSITION || fill);
      fill |= kind == NSC_CHART_WRITE_FILL;
      curve |= kind == NSC_CHART_POSITION;
    }
  g_assert_true (fill && curve);
}

/* A surface scan that writes, then reads (a real scan of a loop device, every
 * fifth place kept): its sheet draws both across the drive, the writes first. */
static void
test_sheet_surface_write (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "fuzz-result-file",
                                                 "surface-write.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) result = nsc_result_file_load (path, &error);
  g_autoptr(NscSheet) sheet = NULL;
  GPtrArray *charts;
  guint n_position = 0;

  g_assert_no_error (error);
  sheet = nsc_sheet_new (result, NULL);
  for (guint l = 0; l < NSC_SHEET_N_LAYOUTS; l++)
    {
      double w, h;
      draw_page (sheet, l, NULL, &w, &h);
      assert_text (sheet, "chart-title", "Write speed across the drive · Surface write", path);
      assert_text (sheet, "chart-title", "Read speed across the drive · Surface read", path);
      check_no_overlap (sheet, w, h, nsc_sheet_layout_to_string (l));
    }
  charts = _nsc_sheet_get_charts (sheet);
  for (guint c = 0; c < charts->len; c++)
    n_position += nsc_chart_get_kind (g_ptr_array_index (charts, c)) == NSC_CHART_POSITION;
  /* Each scan once: the untagged catch-all adds no third. */
  g_assert_cmpuint (n_position, ==, 2);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/sheet/results", test_sheet_results);
  g_test_add_func ("/nsc/sheet/overlap-caught", test_sheet_overlap_caught);
  g_test_add_func ("/nsc/sheet/write-fill-labels", test_sheet_write_fill_labels);
  g_test_add_func ("/nsc/sheet/cancelled-fill", test_sheet_cancelled_fill);
  g_test_add_func ("/nsc/sheet/capacity-check", test_sheet_capacity_check);
  g_test_add_func ("/nsc/sheet/surface-write", test_sheet_surface_write);
  g_test_add_func ("/nsc/sheet/export", test_sheet_export);
  g_test_add_func ("/nsc/sheet/compare", test_sheet_compare);
  g_test_add_func ("/nsc/sheet/thermal", test_sheet_thermal);
  g_test_add_func ("/nsc/sheet/translated", test_sheet_translated);
  return g_test_run ();
}

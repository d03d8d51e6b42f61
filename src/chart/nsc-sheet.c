/* SPDX-License-Identifier: GPL-3.0-or-later */
/* NscSheet: a whole run on one page. The page is laid out top to bottom in
 * blocks whose heights are measured with Pango before anything is drawn, so no
 * text lands on another: what does not fit (a long list of warnings) is counted
 * in a last line instead. The charts are NscCharts drawn into the cells of a
 * grid; their titles are drawn by the sheet, cut to the cell's width. */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "nsc-error.h"
#include "nsc-result-file.h"
#include "nsc-json.h"
#include "nsc-sheet-private.h"
#include "nsc-preset.h"
#include "nsc-units.h"
#include "nsc-words.h"

typedef struct
{
  const char *name;
  double      width, height;   /* page units: pixels at 1× */
  double      dpi;             /* of 1×: the PDF's points follow from it */
  double      font;            /* body text, page units */
} LayoutInfo;

static const LayoutInfo layouts[NSC_SHEET_N_LAYOUTS] = {
  { "a4", 1240, 1754, 150, 17 },
  { "16:9", 1920, 1080, 96, 16 },
};

struct _NscSheet
{
  GPtrArray *results;      /* JsonNode */
  GPtrArray *legends;      /* char * */
  char      *title;
  GPtrArray *charts;       /* NscChart, of the last draw */
  GPtrArray *texts;        /* NscSheetText, of the last draw */
  char      *description;  /* the texts, one a line (the SVG's <desc>) */
};

/* What one draw needs. */
typedef struct
{
  NscSheet            *sheet;
  cairo_t             *cr;
  PangoLayout         *layout;
  PangoFontDescription *font;
  NscChartTheme        theme;
  NscUnits             units;    /* MiB/s or MB/s */
  const LayoutInfo    *info;
  double               fs;
} Page;

/* ---- small helpers ------------------------------------------------------ */

static JsonObject *
root_of (JsonNode *result)
{
  return json_node_get_object (result);
}

static JsonObject *
step_object (JsonArray *steps,
             guint      i)
{
  JsonNode *n = json_array_get_element (steps, i);
  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static void
set_color (Page         *p,
           NscChartColor which,
           guint         index,
           double        alpha)
{
  double rgb[3];
  _nsc_chart_theme_color (p->theme, which, index, rgb);
  cairo_set_source_rgba (p->cr, rgb[0], rgb[1], rgb[2], alpha);
}

static char *
format_speed (Page  *p,
              double bps)
{
  if (!isfinite (bps))
    return g_strdup ("—");
  return nsc_format_speed (bps, p->units);
}

static const char *
speed_unit (Page *p)
{
  return nsc_units_label (p->units);
}

/* ---- what the result says ----------------------------------------------- */

/* The drive in a few words: vendor and model, else the kernel's name, else the
 * target (a test file). */
static char *
drive_name (JsonNode *result)
{
  JsonObject *dev = nsc_json_get_object (root_of (result), "device");
  JsonObject *target = nsc_json_get_object (root_of (result), "target");
  const char *model = nsc_json_get_string (dev, "model");
  const char *vendor = nsc_json_get_string (dev, "vendor");
  const char *name = nsc_json_get_string (dev, "name");

  if (model)
    return vendor && !g_str_has_prefix (model, vendor) ? g_strdup_printf ("%s %s", vendor, model)
                                                       : g_strdup (model);
  if (name)
    return g_strdup (name);
  if (nsc_json_get_string (target, "description"))
    return g_strdup (nsc_json_get_string (target, "description"));
  /* Translators: a sheet's drive when the result names none */
  return g_strdup (_("Unknown drive"));
}

static char *
default_legend (JsonNode *result)
{
  g_autofree char *date = nsc_words_date_iso (nsc_json_get_string (root_of (result), "started"), FALSE);
  g_autofree char *name = drive_name (result);

  if (date)
    return g_strdup_printf ("%s · %s", name, date);
  return g_steal_pointer (&name);
}

static const char *
preset_title (JsonNode *result)
{
  JsonObject *preset = nsc_json_get_object (root_of (result), "preset");
  const char *t = nsc_json_get_string (preset, "title");
  /* Saved in English; the sheet speaks the user's language. */
  return t ? nsc_words_preset_text (t) : nsc_json_get_string (preset, "name");
}

/* "Firmware 1B2QGXA7 · 1.00 TB (931 GiB) · PCIe 4.0 x4": every fact labelled,
 * and said to be unknown where the result has none. */
static char *
drive_facts (JsonNode *result)
{
  JsonObject *root = root_of (result);
  JsonObject *dev = nsc_json_get_object (root, "device");
  JsonObject *target = nsc_json_get_object (root, "target");
  JsonObject *link = nsc_json_get_object (dev, "link");
  const char *fw = nsc_json_get_string (dev, "firmware");
  const char *transport = nsc_json_get_string (dev, "transport");
  double capacity = nsc_json_get_number (dev, "capacity", nsc_json_get_number (target, "size", 0));
  g_autofree char *cap = NULL, *lnk = NULL;

  if (capacity > 0)
    /* Drives are sold in decimal units: say both. */
    cap = nsc_words_drive_size ((guint64) capacity, TRUE);
  if (link && nsc_json_get_number (link, "generation", 0) > 0)
    {
      double g = nsc_json_get_number (link, "generation", 0), w = nsc_json_get_number (link, "width", 0);
      double mg = nsc_json_get_number (link, "max_generation", g), mw = nsc_json_get_number (link, "max_width", w);
      lnk = mg > g || mw > w
            /* Translators: a PCIe link below what the drive can do: "PCIe 3.0 x2 (the
             * drive can do 4.0 x4)" */
            ? g_strdup_printf (_("PCIe %.0f.0 x%.0f (the drive can do %.0f.0 x%.0f)"), g, w, mg, mw)
            : g_strdup_printf ("PCIe %.0f.0 x%.0f", g, w);
      if (transport)
        {
          char *t = g_strdup_printf ("%s, %s", transport, lnk);
          g_free (lnk);
          lnk = t;
        }
    }
  else if (transport)
    lnk = g_strdup (transport);

  /* Translators: the drive's facts on a review sheet; each %s is a value or
   * "not reported" */
  return g_strdup_printf (_("Firmware: %s · Capacity: %s · Link: %s"),
                          /* Translators: a fact the drive or the system did not give */
                          fw ? fw : _("not reported"), cap ? cap : _("not reported"),
                          lnk ? lnk : _("not reported"));
}

/* The one place a warning becomes words on the sheet. */
static char *
warning_text (JsonObject *warning,
              NscUnits    units)
{
  /* The sentence both front ends show, from the code and its fields, in the sheet's
   * units; the English message is for scripts. */
  g_autoptr(NscWarning) w = nsc_warning_from_json (warning);

  if (w == NULL)
    return g_strdup (nsc_json_get_string (warning, "message"));
  return nsc_warning_describe (w, units, NULL, NULL);
}

/* Warnings grouped by code, in order of first appearance: the first one's words
 * and how many more of its kind. */
static GPtrArray *
warning_lines (JsonNode   *result,
               const char *prefix,
               NscUnits    units)
{
  JsonArray *warnings = nsc_json_get_array (root_of (result), "warnings");
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) codes = g_ptr_array_new ();
  g_autoptr(GArray) counts = g_array_new (FALSE, TRUE, sizeof (guint));
  g_autoptr(GPtrArray) firsts = g_ptr_array_new ();

  for (guint i = 0; warnings && i < json_array_get_length (warnings); i++)
    {
      JsonNode *n = json_array_get_element (warnings, i);
      JsonObject *w = n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
      const char *code = nsc_json_get_string (w, "code");
      guint k;
      if (w == NULL)
        continue;
      code = code ? code : "";
      for (k = 0; k < codes->len; k++)
        if (g_str_equal (g_ptr_array_index (codes, k), code))
          break;
      if (k == codes->len)
        {
          guint zero = 0;
          g_ptr_array_add (codes, (gpointer) code);
          g_ptr_array_add (firsts, w);
          g_array_append_val (counts, zero);
        }
      g_array_index (counts, guint, k)++;
    }
  for (guint k = 0; k < codes->len; k++)
    {
      g_autofree char *text = warning_text (g_ptr_array_index (firsts, k), units);
      guint more = g_array_index (counts, guint, k) - 1;
      GString *s = g_string_new (NULL);
      if (prefix)
        g_string_append_printf (s, "%s: ", prefix);
      g_string_append (s, text);
      if (more > 0)
        {
          g_string_append_c (s, ' ');
          /* Translators: after a warning on a review sheet: how many more
           * warnings of the same kind the run has */
          g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "(and %u more like it)",
                                                  "(and %u more like it)", more),
                                  more);
        }
      g_ptr_array_add (lines, g_string_free (s, FALSE));
    }
  return lines;
}

/* "Strict: no · state: as found · 1 run, median" */
static char *
conditions_text (JsonNode *result)
{
  JsonObject *cond = nsc_json_get_object (root_of (result), "conditions");
  JsonObject *state = nsc_json_get_object (cond, "state");
  guint runs = (guint) MAX (1, nsc_json_get_number (cond, "runs", 1));
  gboolean best = g_strcmp0 (nsc_json_get_string (cond, "headline"), "best") == 0
                  || nsc_json_get_bool (cond, "cdm_compatible");
  double left_free = nsc_json_get_number (state, "left_free", 0);
  g_autofree char *state_text = NULL, *runs_text = NULL;

  if (nsc_json_get_bool (state, "erased_first"))
    /* Translators: the drive state of a run: erased before the first test */
    state_text = g_strdup (_("erased first"));
  else if (left_free > 0)
    {
      g_autofree char *free_text = nsc_words_size ((guint64) left_free);
      /* Translators: the drive state of a run: filled but for %s */
      state_text = g_strdup_printf (_("filled, %s left free"), free_text);
    }
  else
    /* Translators: the drive state of a run: used as it was found */
    state_text = g_strdup (_("as found"));
  runs_text = best
              /* Translators: how the headline of a test is chosen; %u runs */
              ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%u run, the best one (as CrystalDiskMark)",
                                              "%u runs, the best one (as CrystalDiskMark)", runs),
                                 runs)
              /* Translators: how the headline of a test is chosen; %u runs */
              : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u run, the median one",
                                              "%u runs, the median one", runs), runs);
  /* Translators: a run's conditions on a review sheet: strict yes/no, the drive
   * state, the runs and which is the headline */
  return g_strdup_printf (_("Strict: %s · state: %s · %s"),
                          /* Translators: strict conditions applied, or not */
                          nsc_json_get_bool (cond, "strict") ? _("yes") : _("no"), state_text, runs_text);
}

/* "CPU … · kernel … · scheduler none · write cache: write back · on /dev/sda" */
static char *
bench_text (JsonNode *result)
{
  JsonObject *root = root_of (result);
  JsonObject *bench = nsc_json_get_object (root, "bench");
  JsonObject *target = nsc_json_get_object (root, "target");
  JsonObject *fs = nsc_json_get_object (bench, "filesystem");
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);
  const char *kernel = nsc_json_get_string (bench, "kernel");
  char *text;

  if (kernel == NULL)
    kernel = nsc_json_get_string (nsc_json_get_object (root, "system"), "kernel");
  /* Another tool's figures, imported: said first. */
  if (nsc_json_get_object (root, "source"))
    g_ptr_array_add (parts, nsc_words_result_source (root));
  if (nsc_json_get_string (bench, "cpu"))
    /* Translators: the test bench: the processor */
    g_ptr_array_add (parts, g_strdup_printf (_("CPU: %s"), nsc_json_get_string (bench, "cpu")));
  if (kernel)
    /* Translators: the test bench: the Linux kernel's version */
    g_ptr_array_add (parts, g_strdup_printf (_("kernel %s"), kernel));
  if (nsc_json_get_string (bench, "io_scheduler"))
    /* Translators: the test bench: the block layer's I/O scheduler */
    g_ptr_array_add (parts, g_strdup_printf (_("scheduler: %s"), nsc_json_get_string (bench, "io_scheduler")));
  if (nsc_json_get_string (bench, "write_cache"))
    /* Translators: the test bench: the drive's volatile write cache */
    g_ptr_array_add (parts, g_strdup_printf (_("write cache: %s"), nsc_json_get_string (bench, "write_cache")));
  if (g_strcmp0 (nsc_json_get_string (target, "kind"), "file") == 0)
    {
      const char *fstype = nsc_json_get_string (fs, "type");
      if (fstype == NULL)
        fstype = nsc_json_get_string (target, "filesystem");
      g_ptr_array_add (parts, fstype
                              /* Translators: the test target: a file on a file system, "ext4" */
                              ? g_strdup_printf (_("a test file on %s"), fstype)
                              /* Translators: the test target */
                              : g_strdup (_("a test file")));
    }
  else if (nsc_json_get_string (target, "path"))
    /* Translators: the test target: the whole device, "/dev/nvme0n1" */
    g_ptr_array_add (parts, g_strdup_printf (_("the whole device %s"), nsc_json_get_string (target, "path")));
  if (parts->len == 0)
    /* Translators: a result saved without its test bench */
    g_ptr_array_add (parts, g_strdup (_("test bench not recorded")));
  g_ptr_array_add (parts, NULL);
  text = g_strjoinv (" · ", (char **) parts->pdata);
  g_ptr_array_unref (parts);
  return text;
}

/* ---- the headline numbers ------------------------------------------------ */

typedef struct
{
  char  *label;
  double read[2], write[2], settled[2];   /* per result (up to 2 shown side by side) */
} Row;

static double
headline_bps (JsonObject *step,
              const char *dir)
{
  JsonObject *d = nsc_json_get_object (step, dir);
  if (step == NULL || !nsc_json_get_bool (step, "completed") || nsc_json_get_number (d, "ios", 0) <= 0)
    return NAN;
  return nsc_json_get_number (d, "bw_bps", NAN);
}

/* The Quick grid, as CrystalDiskMark shows it: a row per fresh read (the preset
 * tags them), its write, and its read of settled data when the run has one. */
static gboolean
quick_cells (JsonNode   *result,
             const char *label,
             double     *read,
             double     *write,
             double     *settled)
{
  JsonArray *steps = nsc_json_get_array (root_of (result), "steps");
  g_autofree char *settled_label = g_strdup_printf ("%s settled", label);
  gboolean found = FALSE;
  *read = *write = *settled = NAN;
  for (guint i = 0; steps && i < json_array_get_length (steps); i++)
    {
      JsonObject *s = step_object (steps, i);
      const char *l = nsc_json_get_string (s, "label");
      const char *tag = nsc_json_get_string (s, "analysis");
      if (l == NULL)
        continue;
      if (g_strcmp0 (tag, "fresh-read") == 0 && g_str_equal (l, label) && isnan (*read))
        {
          *read = headline_bps (s, "read");
          found = TRUE;
        }
      else if (tag == NULL && g_str_equal (l, label) && isnan (*write) && found)
        *write = headline_bps (s, "write");
      else if (g_strcmp0 (tag, "settled-read") == 0 && g_str_equal (l, settled_label))
        *settled = headline_bps (s, "read");
    }
  return found;
}

static GPtrArray *
quick_labels (JsonNode *result)
{
  JsonArray *steps = nsc_json_get_array (root_of (result), "steps");
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; steps && i < json_array_get_length (steps); i++)
    {
      JsonObject *s = step_object (steps, i);
      const char *l = nsc_json_get_string (s, "label");
      if (l && g_strcmp0 (nsc_json_get_string (s, "analysis"), "fresh-read") == 0
          && !g_ptr_array_find_with_equal_func (labels, l, g_str_equal, NULL))
        g_ptr_array_add (labels, g_strdup (l));
    }
  return labels;
}

/* Without a Quick grid: the first job steps that are no sweep's point, with the
 * speeds they measured. */
static GPtrArray *
plain_labels (JsonNode *result,
              guint     max)
{
  JsonArray *steps = nsc_json_get_array (root_of (result), "steps");
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; steps && i < json_array_get_length (steps) && labels->len < max; i++)
    {
      JsonObject *s = step_object (steps, i);
      const char *l = nsc_json_get_string (s, "label");
      if (l && nsc_json_get_object (s, "job") && g_strcmp0 (nsc_json_get_string (s, "kind"), "job") == 0
          && (isfinite (headline_bps (s, "read")) || isfinite (headline_bps (s, "write")))
          && !g_ptr_array_find_with_equal_func (labels, l, g_str_equal, NULL))
        g_ptr_array_add (labels, g_strdup (l));
    }
  return labels;
}

static void
plain_cells (JsonNode   *result,
             const char *label,
             double     *read,
             double     *write)
{
  JsonArray *steps = nsc_json_get_array (root_of (result), "steps");
  *read = *write = NAN;
  for (guint i = 0; steps && i < json_array_get_length (steps); i++)
    {
      JsonObject *s = step_object (steps, i);
      if (g_strcmp0 (nsc_json_get_string (s, "label"), label) != 0)
        continue;
      if (isnan (*read))
        *read = headline_bps (s, "read");
      if (isnan (*write))
        *write = headline_bps (s, "write");
    }
}

/* ---- text on the page --------------------------------------------------- */

static void
set_font (Page    *p,
          double   size,
          gboolean bold)
{
  _nsc_chart_text_font (p->layout, p->font, size, bold);
}

/* Lays @text out in @width (wrapped, or cut with an ellipsis when @one_line);
 * returns its height. */
static double
measure (Page       *p,
         const char *text,
         double      width,
         gboolean    one_line)
{
  PangoRectangle logical;
  pango_cairo_update_layout (p->cr, p->layout);
  pango_layout_set_text (p->layout, text, -1);
  pango_layout_set_width (p->layout, width > 0 ? (int) (width * PANGO_SCALE) : -1);
  pango_layout_set_wrap (p->layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_ellipsize (p->layout, one_line ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  pango_layout_get_pixel_extents (p->layout, NULL, &logical);
  return logical.height;
}

static double
text_width (Page       *p,
            const char *text)
{
  return _nsc_chart_text_width (p->layout, text);
}

/* Draws @text at (@x, @y) (top left) in @width; records it; returns its height. */
static double
put (Page       *p,
     const char *element,
     const char *text,
     double      x,
     double      y,
     double      width,
     gboolean    one_line,
     double      align)
{
  NscSheetText *t = g_new0 (NscSheetText, 1);
  double h = measure (p, text, width, one_line);
  if (align > 0 && width > 0)
    {
      PangoRectangle logical;
      pango_layout_set_width (p->layout, -1);
      pango_layout_get_pixel_extents (p->layout, NULL, &logical);
      x += MAX (0, (width - logical.width) * align);
    }
  t->cut = pango_layout_is_ellipsized (p->layout);
  cairo_move_to (p->cr, x, y);
  _nsc_chart_layout_device_box (p->cr, p->layout, &t->box);
  pango_cairo_show_layout (p->cr, p->layout);
  t->element = g_strdup (element);
  /* What the layout shows: an ellipsized line is recorded as given. */
  t->text = g_strdup (text);
  g_ptr_array_add (p->sheet->texts, t);
  return h;
}

/* ---- blocks ------------------------------------------------------------- */

/* A table: a header row and rows of cells, the first column left-aligned, the
 * others right-aligned; the text shrinks until the table fits @width. Returns
 * its height; draws only when @draw. */
static double
table (Page      *p,
       GPtrArray *header,      /* char * */
       GPtrArray *rows,        /* GPtrArray of char * */
       GArray    *colors,      /* int per column: the dataset's colour, -1 text */
       double     x,
       double     y,
       double     width,
       gboolean   draw)
{
  guint ncol = header->len;
  g_autofree double *colw = g_new0 (double, ncol);
  double size = p->fs, total, gap, lh, h;

  for (;;)
    {
      set_font (p, size, TRUE);
      gap = size * 1.2;
      for (guint c = 0; c < ncol; c++)
        colw[c] = text_width (p, g_ptr_array_index (header, c));
      set_font (p, size, FALSE);
      for (guint r = 0; r < rows->len; r++)
        {
          GPtrArray *row = g_ptr_array_index (rows, r);
          for (guint c = 0; c < ncol && c < row->len; c++)
            colw[c] = MAX (colw[c], text_width (p, g_ptr_array_index (row, c)));
        }
      total = 0;
      for (guint c = 0; c < ncol; c++)
        total += colw[c] + (c ? gap : 0);
      if (total <= width || size < p->fs * 0.45)
        break;
      size *= 0.92;
    }
  lh = size * 1.55;
  h = lh * (rows->len + 1);
  if (!draw)
    return h;

  /* Stripes, then the text. */
  for (guint r = 0; r < rows->len; r += 2)
    {
      cairo_rectangle (p->cr, x, y + lh * (r + 1) - size * 0.15, MIN (total, width), lh);
      set_color (p, NSC_CHART_COLOR_GRID, 0, 0.55);
      cairo_fill (p->cr);
    }
  for (guint r = 0; r <= rows->len; r++)
    {
      GPtrArray *row = r == 0 ? header : g_ptr_array_index (rows, r - 1);
      double cx = x;
      set_font (p, size, r == 0);
      for (guint c = 0; c < ncol && c < row->len; c++)
        {
          int color = g_array_index (colors, int, c);
          if (r == 0 && color >= 0)
            set_color (p, NSC_CHART_COLOR_SERIES, (guint) color, 1);
          else
            set_color (p, r == 0 ? NSC_CHART_COLOR_MUTED : NSC_CHART_COLOR_TEXT, 0, 1);
          put (p, "headline", g_ptr_array_index (row, c), cx, y + lh * r, c ? colw[c] : -1, FALSE,
               c ? 1 : 0);
          cx += colw[c] + gap;
        }
    }
  return h;
}

static void
row_array_free (gpointer data)
{
  g_ptr_array_unref (data);
}

/* The headline numbers of every result, as a table. */
static double
headline_block (Page    *p,
                double   x,
                double   y,
                double   width,
                gboolean draw)
{
  NscSheet *sheet = p->sheet;
  JsonNode *first = g_ptr_array_index (sheet->results, 0);
  g_autoptr(GPtrArray) labels = quick_labels (first);
  g_autoptr(GPtrArray) header = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (row_array_free);
  g_autoptr(GArray) colors = g_array_new (FALSE, FALSE, sizeof (int));
  gboolean quick = labels->len > 0, settled = FALSE, multi = sheet->results->len > 1;
  int none = -1;
  double h;

  if (!quick)
    {
      g_ptr_array_unref (labels);
      labels = plain_labels (first, 6);
    }
  if (labels->len == 0)
    return 0;
  for (guint i = 0; quick && !multi && i < labels->len; i++)
    {
      double r, w, s;
      quick_cells (first, g_ptr_array_index (labels, i), &r, &w, &s);
      settled |= isfinite (s);
    }

  /* Translators: the heading of the first column of a review sheet's numbers:
   * the tests; then the unit of the speeds */
  g_ptr_array_add (header, g_strdup_printf (_("Test, %s"), speed_unit (p)));
  g_array_append_val (colors, none);
  for (guint d = 0; d < sheet->results->len; d++)
    {
      int color = multi ? (int) d : -1;
      /* Translators: a column of a review sheet's numbers; in comparisons %u is
       * the drive's number in the legend */
      g_ptr_array_add (header, multi ? g_strdup_printf (_("Read %u"), d + 1) : g_strdup (_("Read")));
      g_array_append_val (colors, color);
      /* Translators: a column of a review sheet's numbers */
      g_ptr_array_add (header, multi ? g_strdup_printf (_("Write %u"), d + 1) : g_strdup (_("Write")));
      g_array_append_val (colors, color);
    }
  if (settled)
    {
      /* Translators: a column of a review sheet's numbers: reads of data that
       * had time to leave the SLC cache */
      g_ptr_array_add (header, g_strdup (_("Read, settled")));
      g_array_append_val (colors, none);
    }
  for (guint i = 0; i < labels->len; i++)
    {
      const char *label = g_ptr_array_index (labels, i);
      GPtrArray *row = g_ptr_array_new_with_free_func (g_free);
      double s = NAN;
      g_ptr_array_add (row, g_strdup (nsc_words_test_label (label)));
      for (guint d = 0; d < sheet->results->len; d++)
        {
          double r, w, ds;
          if (quick)
            quick_cells (g_ptr_array_index (sheet->results, d), label, &r, &w, &ds);
          else
            {
              plain_cells (g_ptr_array_index (sheet->results, d), label, &r, &w);
              ds = NAN;
            }
          if (d == 0)
            s = ds;
          g_ptr_array_add (row, format_speed (p, r));
          g_ptr_array_add (row, format_speed (p, w));
        }
      if (settled)
        g_ptr_array_add (row, format_speed (p, s));
      g_ptr_array_add (rows, row);
    }

  set_font (p, p->fs * 1.1, TRUE);
  if (draw)
    {
      set_color (p, NSC_CHART_COLOR_TEXT, 0, 1);
      /* Translators: a heading of a review sheet: the CrystalDiskMark-like grid
       * of the Quick test, or the run's first tests */
      put (p, "headline", quick ? _("Quick: sequential and random speeds") : _("Headline numbers"),
           x, y, width, TRUE, 0);
    }
  h = p->fs * 1.9;
  h += table (p, header, rows, colors, x, y + h, width, draw);
  return h;
}

/* Labelled paragraphs: a bold heading, then each line wrapped. Lines that do not
 * fit in @max_height are counted in a last line. */
static double
paragraphs (Page       *p,
            const char *element,
            const char *heading,
            GPtrArray  *lines,
            GArray     *colors,     /* int per line, -1 text; or NULL */
            double      x,
            double      y,
            double      width,
            double      max_height,
            gboolean    draw)
{
  double h = 0, gap = p->fs * 0.35, bullet = p->fs * 1.1;
  guint shown = 0;

  if (lines->len == 0)
    return 0;
  set_font (p, p->fs * 1.1, TRUE);
  if (draw)
    {
      set_color (p, NSC_CHART_COLOR_TEXT, 0, 1);
      put (p, element, heading, x, y, width, TRUE, 0);
    }
  h += p->fs * 1.9;
  set_font (p, p->fs * 0.92, FALSE);
  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = g_ptr_array_index (lines, i);
      double lh = measure (p, line, width - bullet, FALSE);
      /* Room for the line that counts the rest, unless this is the last. */
      double reserve = i + 1 < lines->len ? p->fs * 1.5 : 0;
      if (h + lh + reserve > max_height)
        break;
      if (draw)
        {
          int color = colors ? g_array_index (colors, int, i) : -1;
          if (color >= 0)
            set_color (p, NSC_CHART_COLOR_SERIES, (guint) color, 1);
          else
            set_color (p, NSC_CHART_COLOR_MUTED, 0, 1);
          cairo_arc (p->cr, x + p->fs * 0.35, y + h + p->fs * 0.62, p->fs * 0.22, 0, 2 * G_PI);
          cairo_fill (p->cr);
          set_color (p, NSC_CHART_COLOR_TEXT, 0, 1);
          put (p, element, line, x + bullet, y + h, width - bullet, FALSE, 0);
        }
      h += lh + gap;
      shown++;
    }
  if (shown < lines->len)
    {
      guint rest = lines->len - shown;
      /* Translators: the last line of a review sheet's list that did not fit */
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "…and %u more in the result file",
                                                            "…and %u more in the result file",
                                                            rest), rest);
      if (draw)
        {
          set_color (p, NSC_CHART_COLOR_MUTED, 0, 1);
          put (p, element, more, x + bullet, y + h, width - bullet, TRUE, 0);
        }
      h += p->fs * 1.3;
    }
  return h;
}

static double
warnings_block (Page    *p,
                double   x,
                double   y,
                double   width,
                double   max_height,
                gboolean draw)
{
  NscSheet *sheet = p->sheet;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) colors = g_array_new (FALSE, FALSE, sizeof (int));
  gboolean multi = sheet->results->len > 1;

  for (guint d = 0; d < sheet->results->len; d++)
    {
      g_autofree char *prefix = multi ? g_strdup_printf ("%u", d + 1) : NULL;
      g_autoptr(GPtrArray) one = warning_lines (g_ptr_array_index (sheet->results, d), prefix,
                                                 p->units);
      int color = multi ? (int) d : -1;
      for (guint i = 0; i < one->len; i++)
        {
          g_ptr_array_add (lines, g_strdup (g_ptr_array_index (one, i)));
          g_array_append_val (colors, color);
        }
    }
  /* Translators: a heading of a review sheet */
  return paragraphs (p, "warnings", _("Warnings"), lines, colors, x, y, width, max_height, draw);
}

static double
bench_block (Page    *p,
             double   x,
             double   y,
             double   width,
             double   max_height,
             gboolean draw)
{
  NscSheet *sheet = p->sheet;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) colors = g_array_new (FALSE, FALSE, sizeof (int));
  gboolean multi = sheet->results->len > 1;

  /* Said once when every drive shares it, else per drive, numbered. */
  for (guint k = 0; k < 2; k++)
    {
      char *(*text) (JsonNode *) = k == 0 ? bench_text : conditions_text;
      g_autofree char *first = text (g_ptr_array_index (sheet->results, 0));
      gboolean same = TRUE;
      for (guint d = 1; d < sheet->results->len && same; d++)
        {
          g_autofree char *other = text (g_ptr_array_index (sheet->results, d));
          same = g_str_equal (first, other);
        }
      for (guint d = 0; d < (same ? 1 : sheet->results->len); d++)
        {
          g_autofree char *one = text (g_ptr_array_index (sheet->results, d));
          int color = multi && !same ? (int) d : -1;
          g_ptr_array_add (lines, multi && !same ? g_strdup_printf ("%u: %s", d + 1, one) : g_strdup (one));
          g_array_append_val (colors, color);
        }
    }
  /* Translators: a heading of a review sheet */
  return paragraphs (p, "bench", _("Test bench and conditions"), lines, colors, x, y, width,
                     max_height, draw);
}

/* A compared drive's mark: a short line in its colour, at @y. */
static void
drive_swatch (Page   *p,
              guint   d,
              double  x,
              double  y)
{
  set_color (p, NSC_CHART_COLOR_SERIES, d, 1);
  cairo_set_line_width (p->cr, MAX (2, p->fs * 0.22));
  cairo_move_to (p->cr, x, y);
  cairo_line_to (p->cr, x + p->fs * 1.8, y);
  cairo_stroke (p->cr);
}

/* Title, then the drive (or one line per drive, numbered, in its colour). */
static double
header_block (Page    *p,
              double   x,
              double   y,
              double   width,
              gboolean draw)
{
  NscSheet *sheet = p->sheet;
  double h = 0;

  set_font (p, p->fs * 1.75, TRUE);
  if (draw)
    {
      set_color (p, NSC_CHART_COLOR_TEXT, 0, 1);
      put (p, "title", sheet->title, x, y, width, FALSE, 0);
    }
  h += measure (p, sheet->title, width, FALSE) + p->fs * 0.5;

  for (guint d = 0; d < sheet->results->len; d++)
    {
      JsonNode *r = g_ptr_array_index (sheet->results, d);
      g_autofree char *facts = drive_facts (r);
      g_autofree char *name = sheet->results->len > 1
                              ? g_strdup_printf ("%u  %s", d + 1, (char *) g_ptr_array_index (sheet->legends, d))
                              : drive_name (r);
      g_autofree char *date = nsc_words_date_iso (nsc_json_get_string (root_of (r), "started"), FALSE);
      g_autofree char *line = NULL;
      double indent = 0;

      if (sheet->results->len == 1 && date)
        line = g_strdup_printf ("%s · %s", facts, date);
      else
        line = g_strdup (facts);
      if (nsc_json_get_bool (root_of (r), "cancelled") && sheet->results->len > 1)
        {
          /* Translators: on a review sheet, after a compared drive's facts */
          char *t = g_strdup_printf ("%s · %s", line, _("cancelled: partial results"));
          g_free (line);
          line = t;
        }

      if (sheet->results->len > 1)
        {
          /* A comparison: one line per drive, its facts after its name when
           * they fit there. */
          double nw, fw, rest;
          indent = p->fs * 2.4;
          set_font (p, p->fs * 1.05, TRUE);
          nw = text_width (p, name);
          set_font (p, p->fs * 0.92, FALSE);
          fw = text_width (p, line);
          rest = width - indent - nw - p->fs;
          if (draw)
            {
              drive_swatch (p, d, x, y + h + p->fs * 0.7);
              set_font (p, p->fs * 1.05, TRUE);
              set_color (p, NSC_CHART_COLOR_TEXT, 0, 1);
              put (p, "drive", name, x + indent, y + h, width - indent, TRUE, 0);
            }
          set_font (p, p->fs * 1.05, TRUE);
          if (fw <= rest)
            {
              /* Same line, the smaller text on the name's baseline. */
              double base_n, base_f;
              pango_layout_set_text (p->layout, name, -1);
              base_n = pango_layout_get_baseline (p->layout) / (double) PANGO_SCALE;
              set_font (p, p->fs * 0.92, FALSE);
              pango_layout_set_text (p->layout, line, -1);
              base_f = pango_layout_get_baseline (p->layout) / (double) PANGO_SCALE;
              if (draw)
                {
                  set_color (p, NSC_CHART_COLOR_MUTED, 0, 1);
                  put (p, "drive", line, x + indent + nw + p->fs, y + h + base_n - base_f, rest, TRUE, 0);
                }
              set_font (p, p->fs * 1.05, TRUE);
              h += measure (p, name, -1, TRUE) + p->fs * 0.3;
            }
          else
            {
              h += measure (p, name, width - indent, TRUE);
              set_font (p, p->fs * 0.92, FALSE);
              if (draw)
                {
                  set_color (p, NSC_CHART_COLOR_MUTED, 0, 1);
                  put (p, "drive", line, x + indent, y + h, width - indent, FALSE, 0);
                }
              h += measure (p, line, width - indent, FALSE) + p->fs * 0.3;
            }
          continue;
        }
      set_font (p, p->fs * 1.25, TRUE);
      if (sheet->results->len > 1)
        {
          indent = p->fs * 2.4;
          if (draw)
            drive_swatch (p, d, x, y + h + p->fs * 0.8);
        }
      if (draw)
        {
          set_color (p, NSC_CHART_COLOR_TEXT, 0, 1);
          put (p, "drive", name, x + indent, y + h, width - indent, TRUE, 0);
        }
      h += measure (p, name, width - indent, TRUE) + p->fs * 0.15;
      set_font (p, p->fs, FALSE);
      if (draw)
        {
          set_color (p, NSC_CHART_COLOR_MUTED, 0, 1);
          put (p, "drive", line, x + indent, y + h, width - indent, FALSE, 0);
        }
      h += measure (p, line, width - indent, FALSE) + p->fs * 0.5;

      /* A capacity check's verdict, under the drive it judges. */
      {
        JsonObject *capacity = nsc_json_get_object (nsc_json_get_object (root_of (r), "analysis"),
                                                    "capacity");
        g_autofree char *verdict = capacity ? nsc_words_capacity (capacity, NULL) : NULL;

        if (verdict)
          {
            set_font (p, p->fs * 1.1, TRUE);
            if (draw)
              {
                set_color (p, NSC_CHART_COLOR_TEXT, 0, 1);
                put (p, "capacity", verdict, x + indent, y + h, width - indent, FALSE, 0);
              }
            h += measure (p, verdict, width - indent, FALSE) + p->fs * 0.5;
          }
      }
    }
  return h;
}

static double
footer_block (Page    *p,
              double   x,
              double   y,
              double   width,
              gboolean draw)
{
  JsonNode *first = g_ptr_array_index (p->sheet->results, 0);
  JsonObject *app = nsc_json_get_object (root_of (first), "app");
  const char *name = nsc_json_get_string (app, "name");
  const char *version = nsc_json_get_string (app, "version");
  JsonObject *source = nsc_json_get_object (root_of (first), "source");
  g_autofree char *app_version = g_strdup_printf ("%s %s", name ? name : "Nandscope",
                                                  version ? version : PACKAGE_VERSION);
  g_autofree char *by = NULL;
  g_autofree char *text = NULL;

  if (source)
    /* Translators: who measured results another tool measured, at the foot of a
     * review sheet: the tool ("fio-3.33"), then the app and version that imported
     * them ("Nandscope 0.1.0") */
    by = g_strdup_printf (_("%s, imported by %s"),
                          nsc_json_get_string (source, "version") ? nsc_json_get_string (source, "version") : "?",
                          app_version);
  /* Translators: the foot of a review sheet: who measured the results ("Nandscope
   * 0.1.0", or "fio-3.33, imported by Nandscope 0.1.0"), then the unit of the speeds
   * ("MiB/s = 1 048 576 bytes per second") */
  text = g_strdup_printf (_("Measured with %s · %s · %s"), by ? by : app_version,
                          p->units != NSC_UNITS_MB ? _("MiB/s = 1 048 576 bytes per second")
                                    : _("MB/s = 1 000 000 bytes per second"),
                          "io.github.nandscope.Nandscope");
  set_font (p, p->fs * 0.85, FALSE);
  if (draw)
    {
      set_color (p, NSC_CHART_COLOR_MUTED, 0, 1);
      put (p, "footer", text, x, y, width, TRUE, 0);
    }
  return measure (p, text, width, TRUE);
}

/* ---- the charts --------------------------------------------------------- */

/* The charts of a sheet, in the page's order: the quick probe's map, write-fill, speed across the drive
 * (a capacity check's read-back, a surface scan), the sweeps, mixed loads,
 * degradation and thermal over time, latency. What did not run is left
 * out. */
static void
build_charts (NscSheet *sheet)
{
  static const struct
  {
    NscChartKind kind;
    const char  *tag;      /* the step's tag, NULL: the kind's own choice */
  } specs[] = {
    { NSC_CHART_MAP, NULL },             /* the quick probe's places */
    { NSC_CHART_WRITE_FILL, NULL },
    { NSC_CHART_POSITION, "verify" },
    { NSC_CHART_POSITION, "surface" },   /* a scan's writes and its reads */
    { NSC_CHART_POSITION, NULL },
    { NSC_CHART_QD, NULL },
    { NSC_CHART_BS, NULL },
    { NSC_CHART_MIXED, NULL },
    { NSC_CHART_TIME, "degradation" },
    { NSC_CHART_TIME, "thermal" },
    { NSC_CHART_LATENCY, "response-time" },
  };
  JsonNode *first = g_ptr_array_index (sheet->results, 0);
  guint n_time = 0, n_latency = 0, n_position = 0;

  g_ptr_array_set_size (sheet->charts, 0);
  for (guint k = 0; k < G_N_ELEMENTS (specs); k++)
    {
      guint step = NSC_CHART_STEP_AUTO;

      for (;;)
        {
          g_autoptr(NscChart) chart = NULL;
          const char *what = NULL;

          /* Another read across the drive (an ad hoc one), when no tagged one was. */
          if (specs[k].kind == NSC_CHART_POSITION && specs[k].tag == NULL && n_position > 0)
            break;
          if (specs[k].tag)
            {
              /* Every step of the tag: response time has one for reads, one for writes. */
              step = _nsc_chart_find_step (first, specs[k].kind, specs[k].tag,
                                           step == NSC_CHART_STEP_AUTO ? 0 : step + 1);
              if (step == NSC_CHART_STEP_AUTO)
                break;
            }
          chart = nsc_chart_new_for_result (first, specs[k].kind, step, NULL);
          if (chart == NULL)
            break;
          if (g_strcmp0 (specs[k].tag, "degradation") == 0)
            /* Translators: a chart title on a review sheet: speed under a long load */
            what = _("Degradation under a sustained load");
          else if (g_strcmp0 (specs[k].tag, "thermal") == 0)
            /* Translators: a chart title on a review sheet: speed and temperature */
            what = _("Thermal: speed and temperature");
          if (what)
            {
              JsonArray *steps = nsc_json_get_array (root_of (first), "steps");
              const char *label = nsc_json_get_string (step_object (steps, step), "label");
              g_autofree char *title = label ? g_strdup_printf ("%s · %s", what, label) : g_strdup (what);
              nsc_chart_set_title (chart, title);
            }
          /* In comparisons the drives are numbered as in the page's legend: the
           * charts' own legends stay short and leave the plots their room. */
          for (guint d = 1; d < sheet->results->len; d++)
            {
              g_autofree char *number = g_strdup_printf ("%u", d + 1);
              /* A drive without the data is missing from this chart, not from the page. */
              nsc_chart_add_result (chart, g_ptr_array_index (sheet->results, d), number, NULL);
            }
          nsc_chart_set_legend (chart, 0, sheet->results->len > 1 ? "1" : g_ptr_array_index (sheet->legends, 0));
          _nsc_chart_set_compact_legend (chart, TRUE);
          n_time += specs[k].kind == NSC_CHART_TIME;
          n_position += specs[k].kind == NSC_CHART_POSITION;
          n_latency += specs[k].kind == NSC_CHART_LATENCY;
          g_ptr_array_add (sheet->charts, g_steal_pointer (&chart));
          if (specs[k].tag == NULL)
            break;
        }
    }
  /* A run of other tests (one job, a surface scan) still shows its own charts. */
  if (n_time == 0 && sheet->charts->len == 0)
    {
      NscChart *chart = nsc_chart_new_for_result (first, NSC_CHART_TIME, NSC_CHART_STEP_AUTO, NULL);
      if (chart)
        g_ptr_array_add (sheet->charts, chart);
    }
  if (n_latency == 0)
    {
      NscChart *chart = nsc_chart_new_for_result (first, NSC_CHART_LATENCY, NSC_CHART_STEP_AUTO, NULL);
      if (chart)
        g_ptr_array_add (sheet->charts, chart);
    }
}

/* Draws the charts in a grid of @cols columns in the rectangle. */
static void
charts_grid (Page  *p,
             double x,
             double y,
             double width,
             double height,
             guint  cols)
{
  NscSheet *sheet = p->sheet;
  guint n = sheet->charts->len, rows;
  double gap = p->fs * 1.2, cw, ch, title_h = 0;
  g_autofree double *title_size = NULL;
  PangoFontDescription *chart_font;
  NscChartStyle style;

  if (n == 0)
    {
      set_font (p, p->fs, FALSE);
      set_color (p, NSC_CHART_COLOR_MUTED, 0, 1);
      /* Translators: on a review sheet whose run has no test with data to chart */
      put (p, "charts", _("No test of this run has data to chart."), x, y, width, FALSE, 0);
      return;
    }
  rows = (n + cols - 1) / cols;
  cw = (width - gap * (cols - 1)) / cols;
  ch = (height - gap * (rows - 1)) / rows;
  /* A long title in a narrow cell gets smaller, then wraps: every title of the
   * grid gets the room of the tallest, so the plots line up. */
  title_size = g_new0 (double, n);
  for (guint i = 0; i < n; i++)
    {
      NscChart *chart = g_ptr_array_index (sheet->charts, i);
      const char *title = nsc_chart_get_title (chart) ? nsc_chart_get_title (chart) : "";
      double size = p->fs;
      set_font (p, size, TRUE);
      while (text_width (p, title) > cw && size > p->fs * 0.85)
        set_font (p, size *= 0.95, TRUE);
      title_size[i] = size;
      title_h = MAX (title_h, measure (p, title, cw, FALSE) + p->fs * 0.3);
    }

  nsc_chart_style_init (&style, FALSE);
  style.theme = p->theme;
  style.units = p->units;
  style.title = FALSE;
  style.caption = FALSE;
  chart_font = pango_font_description_copy (p->font);
  pango_font_description_set_weight (chart_font, PANGO_WEIGHT_NORMAL);
  pango_font_description_set_absolute_size (chart_font, p->fs * 0.78 * PANGO_SCALE);
  style.font = chart_font;

  for (guint i = 0; i < n; i++)
    {
      NscChart *chart = g_ptr_array_index (sheet->charts, i);
      double cx = x + (i % cols) * (cw + gap), cy = y + (i / cols) * (ch + gap);
      GPtrArray *texts;
      GArray *boxes;
      NscChartTextBox cell;

      set_font (p, title_size[i], TRUE);
      set_color (p, NSC_CHART_COLOR_TEXT, 0, 1);
      put (p, "chart-title", nsc_chart_get_title (chart) ? nsc_chart_get_title (chart) : "", cx, cy,
           cw, FALSE, 0);
      {
        /* The cell in device space, which the chart's words must stay in. */
        double x0 = cx, y0 = cy + title_h, x1 = cx + cw, y1 = cy + ch;
        cairo_user_to_device (p->cr, &x0, &y0);
        cairo_user_to_device (p->cr, &x1, &y1);
        cell.x = MIN (x0, x1);
        cell.y = MIN (y0, y1);
        cell.width = fabs (x1 - x0);
        cell.height = fabs (y1 - y0);
      }
      cairo_save (p->cr);
      cairo_rectangle (p->cr, cx, cy + title_h, cw, ch - title_h);
      cairo_clip (p->cr);
      cairo_translate (p->cr, cx, cy + title_h);
      nsc_chart_draw (chart, p->cr, cw, ch - title_h, &style);
      cairo_restore (p->cr);

      /* The chart's own words, where they landed. */
      texts = _nsc_chart_get_texts (chart);
      boxes = _nsc_chart_get_text_boxes (chart);
      for (guint t = 0; texts && boxes && t < texts->len && t < boxes->len; t++)
        {
          NscSheetText *st = g_new0 (NscSheetText, 1);
          st->element = g_strdup_printf ("chart %s", nsc_chart_kind_to_string (nsc_chart_get_kind (chart)));
          st->text = g_strdup (g_ptr_array_index (texts, t));
          st->box = g_array_index (boxes, NscChartTextBox, t);
          st->cell = cell;
          g_ptr_array_add (sheet->texts, st);
        }
    }
  pango_font_description_free (chart_font);
}

/* No taller than this share of their width: a short run leaves room on the
 * page rather than stretched plots. */
#define CHART_MAX_ASPECT 0.8

/* The columns of a grid of @n charts in @width × @height: the largest useful
 * cells, each no narrower than 22 text lines. */
static guint
grid_columns (Page  *p,
              guint  n,
              double width,
              double height)
{
  guint best = 1;
  double best_area = 0;
  for (guint cols = 1; cols <= MAX (1, MIN (n, 4)); cols++)
    {
      guint rows = (n + cols - 1) / cols;
      double cw = width / cols, ch = MIN (cw * CHART_MAX_ASPECT, height / rows);
      /* Width beyond 2.5 times the height adds nothing: a flat plot is no better. */
      double area = MIN (cw, ch * 2.5) * ch;
      if (cols > 1 && cw < p->fs * 22)
        break;
      if (area > best_area * 1.02)
        {
          best = cols;
          best_area = area;
        }
    }
  return best;
}

/* ---- the page ----------------------------------------------------------- */

static void
sheet_text_free (gpointer data)
{
  NscSheetText *t = data;
  g_free (t->element);
  g_free (t->text);
  g_free (t);
}

static void
make_title (NscSheet *sheet)
{
  JsonNode *first = g_ptr_array_index (sheet->results, 0);
  const char *preset = preset_title (first);
  gboolean cancelled = nsc_json_get_bool (root_of (first), "cancelled");
  g_autofree char *drive = drive_name (first);
  char *title;

  if (preset == NULL)
    /* Translators: a result without a preset's name */
    preset = _("Test");
  if (sheet->results->len > 1)
    {
      guint n = sheet->results->len;
      for (guint d = 1; d < n; d++)
        cancelled |= nsc_json_get_bool (root_of (g_ptr_array_index (sheet->results, d)), "cancelled");
      /* Translators: a review sheet's title: the preset, "Review suite", and how
       * many drives it compares */
      title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u drive compared",
                                            "%s: %u drives compared", n), preset, n);
    }
  else
    /* Translators: a review sheet's title: the preset, "Review suite", and the drive */
    title = g_strdup_printf (_("%s on %s"), preset, drive);
  if (cancelled)
    {
      char *t = sheet->results->len > 1
                /* Translators: a review sheet's title when a compared run was cancelled */
                ? g_strdup_printf (_("%s (a run was cancelled: partial results)"), title)
                /* Translators: a review sheet's title when its run was cancelled */
                : g_strdup_printf (_("%s (cancelled: partial results)"), title);
      g_free (title);
      title = t;
    }
  g_free (sheet->title);
  sheet->title = title;
}

static void
draw_page (Page *p)
{
  NscSheet *sheet = p->sheet;
  const LayoutInfo *info = p->info;
  double W = info->width, H = info->height, m = round (W * 0.035), y = m, fh, gap = p->fs * 1.4;
  cairo_t *cr = p->cr;

  set_color (p, NSC_CHART_COLOR_BG, 0, 1);
  cairo_rectangle (cr, 0, 0, W, H);
  cairo_fill (cr);

  y += header_block (p, m, y, W - 2 * m, TRUE);
  set_color (p, NSC_CHART_COLOR_GRID, 0, 1);
  cairo_rectangle (cr, m, y, W - 2 * m, MAX (1, p->fs * 0.1));
  cairo_fill (cr);
  y += gap;

  fh = footer_block (p, m, 0, W - 2 * m, FALSE);

  if (info == &layouts[NSC_SHEET_LAYOUT_A4])
    {
      /* Numbers left, bench right (a comparison's wider grid: one under the
       * other); charts; warnings; the foot. */
      double colw = (W - 2 * m - gap) / 2, bottom = H - m - fh - gap, hh, bh, wh, grid_h;
      double warnings_h = H * (sheet->results->len > 1 ? 0.14 : 0.2);
      guint n = sheet->charts->len;
      if (sheet->results->len > 1)
        {
          y += headline_block (p, m, y, W - 2 * m, TRUE) + gap;
          y += bench_block (p, m, y, W - 2 * m, H * 0.15, TRUE) + gap;
        }
      else if ((hh = headline_block (p, m, y, colw, FALSE)) > 0)
        {
          bh = bench_block (p, m + colw + gap, y, colw, H * 0.2, FALSE);
          headline_block (p, m, y, colw, TRUE);
          bench_block (p, m + colw + gap, y, colw, H * 0.2, TRUE);
          y += MAX (hh, bh) + gap;
        }
      else
        /* No test finished with a number (a write-fill cancelled part-way): the bench
         * takes the whole width, not the right half beside an empty quarter. */
        y += bench_block (p, m, y, W - 2 * m, H * 0.2, TRUE) + gap;
      /* Warnings take what they need up to a fifth of the page; charts the rest. */
      wh = warnings_block (p, m, 0, W - 2 * m, warnings_h, FALSE);
      grid_h = bottom - y - (wh > 0 ? wh + gap : 0);
      /* A chart no taller than wide: a short run leaves room, not stretched plots. */
      if (n > 0)
        {
          guint cols = grid_columns (p, n, W - 2 * m, grid_h), rows = (n + cols - 1) / cols;
          double cw = (W - 2 * m - p->fs * 1.2 * (cols - 1)) / cols;
          grid_h = MIN (grid_h, rows * cw * CHART_MAX_ASPECT + (rows - 1) * p->fs * 1.2);
          charts_grid (p, m, y, W - 2 * m, grid_h, cols);
        }
      else
        charts_grid (p, m, y, W - 2 * m, p->fs * 2, 1);
      y += (n > 0 ? grid_h : p->fs * 2) + gap;
      warnings_block (p, m, y, W - 2 * m, warnings_h, TRUE);
    }
  else
    {
      /* A column of words at the left, the charts at the right. */
      double side = round ((W - 2 * m) * 0.3), bottom = H - m - fh - gap, sy = y, room;
      double cx = m + side + gap * 1.5, cwidth = W - m - cx;
      guint n = sheet->charts->len, cols = grid_columns (p, n, cwidth, bottom - y);
      sy += headline_block (p, m, sy, side, TRUE) + gap;
      room = bottom - sy;
      sy += bench_block (p, m, sy, side, room * 0.45, TRUE) + gap;
      warnings_block (p, m, sy, side, bottom - sy, TRUE);
      charts_grid (p, cx, y, cwidth, MAX (p->fs * 2, bottom - y), cols);
    }

  footer_block (p, m, H - m - fh, W - 2 * m, TRUE);
}

/* ---- public API --------------------------------------------------------- */

const char *
nsc_sheet_layout_to_string (NscSheetLayout layout)
{
  g_return_val_if_fail ((guint) layout < NSC_SHEET_N_LAYOUTS, NULL);
  return layouts[layout].name;
}

gboolean
nsc_sheet_layout_from_string (const char     *name,
                              NscSheetLayout *out_layout)
{
  g_return_val_if_fail (name != NULL, FALSE);
  for (guint i = 0; i < NSC_SHEET_N_LAYOUTS; i++)
    if (g_ascii_strcasecmp (name, layouts[i].name) == 0)
      {
        if (out_layout)
          *out_layout = (NscSheetLayout) i;
        return TRUE;
      }
  return FALSE;
}

void
nsc_sheet_layout_get_size (NscSheetLayout layout,
                           double        *width,
                           double        *height)
{
  g_return_if_fail ((guint) layout < NSC_SHEET_N_LAYOUTS);
  if (width)
    *width = layouts[layout].width;
  if (height)
    *height = layouts[layout].height;
}

static gboolean
check_result (JsonNode *result,
              GError  **error)
{
  if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                           _("The result is not a JSON object; open a result file that Nandscope saved"));
      return FALSE;
    }
  return TRUE;
}

NscSheet *
nsc_sheet_new (JsonNode *result,
               GError  **error)
{
  NscSheet *sheet;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!check_result (result, error))
    return NULL;
  sheet = g_new0 (NscSheet, 1);
  sheet->results = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  sheet->legends = g_ptr_array_new_with_free_func (g_free);
  sheet->charts = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_chart_free);
  sheet->texts = g_ptr_array_new_with_free_func (sheet_text_free);
  g_ptr_array_add (sheet->results, json_node_ref (result));
  g_ptr_array_add (sheet->legends, default_legend (result));
  make_title (sheet);
  return sheet;
}

gboolean
nsc_sheet_add_result (NscSheet   *sheet,
                      JsonNode   *other,
                      const char *legend,
                      GError    **error)
{
  JsonNode *first;
  const char *a, *b;

  g_return_val_if_fail (sheet != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!check_result (other, error))
    return FALSE;
  if (sheet->results->len >= NSC_SHEET_MAX_RESULTS)
    {
      /* Translators: comparing results on a review sheet; %d is the most */
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("A sheet compares at most %d results; make another sheet for the rest"),
                   NSC_SHEET_MAX_RESULTS);
      return FALSE;
    }
  first = g_ptr_array_index (sheet->results, 0);
  a = nsc_json_get_string (nsc_json_get_object (root_of (first), "preset"), "name");
  b = nsc_json_get_string (nsc_json_get_object (root_of (other), "preset"), "name");
  if (g_strcmp0 (a, b) != 0)
    {
      /* Translators: comparing results on a review sheet; the %s are presets' names */
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("A sheet compares runs of one preset: this result is of “%s”, the first of “%s”; "
                     "choose results of the same preset"),
                   b ? b : "?", a ? a : "?");
      return FALSE;
    }
  g_ptr_array_add (sheet->results, json_node_ref (other));
  g_ptr_array_add (sheet->legends, legend ? g_strdup (legend) : default_legend (other));
  make_title (sheet);
  return TRUE;
}

const char *
nsc_sheet_get_title (NscSheet *sheet)
{
  g_return_val_if_fail (sheet != NULL, NULL);
  return sheet->title;
}

guint
nsc_sheet_get_n_results (NscSheet *sheet)
{
  g_return_val_if_fail (sheet != NULL, 0);
  return sheet->results->len;
}

void
nsc_sheet_draw (NscSheet            *sheet,
                cairo_t             *cr,
                NscSheetLayout       layout,
                const NscChartStyle *style)
{
  NscChartStyle defaults;
  Page p = { 0 };
  GString *desc;

  g_return_if_fail (sheet != NULL);
  g_return_if_fail (cr != NULL);
  g_return_if_fail ((guint) layout < NSC_SHEET_N_LAYOUTS);
  if (style == NULL)
    {
      nsc_chart_style_init (&defaults, FALSE);
      style = &defaults;
    }

  p.sheet = sheet;
  p.cr = cr;
  p.info = &layouts[layout];
  p.theme = (guint) style->theme < NSC_CHART_N_THEMES ? style->theme : NSC_CHART_THEME_LIGHT;
  p.units = style->units == NSC_UNITS_MB ? NSC_UNITS_MB : NSC_UNITS_MIB;
  p.fs = p.info->font;
  p.font = pango_font_description_from_string (NSC_CHART_DEFAULT_FONT);

  g_ptr_array_set_size (sheet->texts, 0);
  build_charts (sheet);

  cairo_save (cr);
  cairo_new_path (cr);
  p.layout = pango_cairo_create_layout (cr);
  if (style->font_options)
    pango_cairo_context_set_font_options (pango_layout_get_context (p.layout), style->font_options);
  draw_page (&p);
  g_object_unref (p.layout);
  pango_font_description_free (p.font);
  cairo_restore (cr);

  desc = g_string_new (NULL);
  for (guint i = 0; i < sheet->texts->len; i++)
    {
      NscSheetText *t = g_ptr_array_index (sheet->texts, i);
      g_string_append_printf (desc, "%s\n", t->text);
    }
  g_free (sheet->description);
  sheet->description = g_string_free (desc, FALSE);
}

static gboolean
has_extension (const char *path,
               const char *ext)
{
  gsize n = strlen (path), e = strlen (ext);
  return n > e && g_ascii_strcasecmp (path + n - e, ext) == 0;
}

gboolean
nsc_sheet_path_is_supported (const char *path)
{
  g_return_val_if_fail (path != NULL, FALSE);
  return has_extension (path, ".pdf") || has_extension (path, ".svg") || has_extension (path, ".png");
}

gboolean
nsc_sheet_path_is_png (const char *path)
{
  g_return_val_if_fail (path != NULL, FALSE);
  return has_extension (path, ".png");
}

gboolean
nsc_sheet_export (NscSheet            *sheet,
                  const char          *path,
                  NscSheetLayout       layout,
                  const NscChartStyle *style,
                  int                  scale,
                  GError             **error)
{
  enum { PNG, SVG, PDF } format;
  const LayoutInfo *info;
  cairo_surface_t *surface;
  cairo_t *cr;

  g_return_val_if_fail (sheet != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail ((guint) layout < NSC_SHEET_N_LAYOUTS, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  info = &layouts[layout];

  if (has_extension (path, ".png"))
    format = PNG;
  else if (has_extension (path, ".svg"))
    format = SVG;
  else if (has_extension (path, ".pdf"))
    format = PDF;
  else
    {
      /* Translators: %s is a file name */
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("%s: the file name must end in .pdf, .svg or .png"), path);
      return FALSE;
    }
  if (scale < 1 || scale > 4 || (format != PNG && scale != 1))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   format == PNG
                   /* Translators: %d is the scale asked for */
                   ? _("A scale of %d: a PNG takes 1 to 4 (2 for HiDPI screens and print)")
                   /* Translators: %d is the scale asked for */
                   : _("A scale of %d: PDF and SVG are drawn in vectors and take none; scale a PNG"),
                   scale);
      return FALSE;
    }

  /* Cairo opens the path and writes through whatever is there: a device never. */
  if (!nsc_output_check (path, FALSE, NULL, NULL, error))
    return FALSE;
  switch (format)
    {
    case PDF:
      /* Points: the page's units at its resolution. */
      surface = cairo_pdf_surface_create (path, info->width * 72 / info->dpi, info->height * 72 / info->dpi);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, sheet->title);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Nandscope " PACKAGE_VERSION);
      break;
    case SVG:
      surface = cairo_svg_surface_create (path, info->width, info->height);
      cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PX);
      break;
    case PNG:
    default:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) info->width * scale,
                                            (int) info->height * scale);
      break;
    }
  cr = cairo_create (surface);
  if (format == PDF)
    cairo_scale (cr, 72 / info->dpi, 72 / info->dpi);
  else if (format == PNG)
    cairo_scale (cr, scale, scale);
  nsc_sheet_draw (sheet, cr, layout, style);
  if (!_nsc_surface_write (cr, surface, path, format == PNG, error))
    return FALSE;
  if (format == SVG)
    return _nsc_svg_add_metadata (path, sheet->title, sheet->description, error);
  return TRUE;
}

void
nsc_sheet_free (NscSheet *sheet)
{
  if (sheet == NULL)
    return;
  g_ptr_array_unref (sheet->results);
  g_ptr_array_unref (sheet->legends);
  g_ptr_array_unref (sheet->charts);
  g_ptr_array_unref (sheet->texts);
  g_free (sheet->title);
  g_free (sheet->description);
  g_free (sheet);
}

GPtrArray *
_nsc_sheet_get_texts (NscSheet *sheet)
{
  return sheet->texts;
}

GPtrArray *
_nsc_sheet_get_charts (NscSheet *sheet)
{
  return sheet->charts;
}

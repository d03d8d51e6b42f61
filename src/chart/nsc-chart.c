/* SPDX-License-Identifier: GPL-3.0-or-later */
/* NscChart: the data of a chart, taken from results or fed live. Drawing is in
 * nsc-chart-draw.c. Results are read defensively: a validated file guarantees
 * the members' types, but a synthetic or older one may lack some. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nsc-chart-private.h"
#include "nsc-error.h"
#include "nsc-json.h"
#include "nsc-preset.h"
#include "nsc-units.h"

static const char *const kind_names[NSC_CHART_N_KINDS] = {
  "write-fill", "position", "qd", "bs", "time", "mixed", "latency", "map",
};

static const char *const theme_names[NSC_CHART_N_THEMES] = {
  "light", "dark", "high-contrast", "high-contrast-dark",
};

void
nsc_chart_style_init (NscChartStyle *style,
                      gboolean       dark)
{
  g_return_if_fail (style != NULL);
  memset (style, 0, sizeof *style);
  style->theme = dark ? NSC_CHART_THEME_DARK : NSC_CHART_THEME_LIGHT;
  style->units = NSC_UNITS_MIB;
  style->caption = FALSE;
  style->title = TRUE;
  style->font_scale = 1.0;
  style->font = NULL;
  style->resolution = 0;
  style->font_options = NULL;
}

void
nsc_chart_style_set_pango_context (NscChartStyle *style,
                                   PangoContext  *context)
{
  g_return_if_fail (style != NULL);
  g_return_if_fail (PANGO_IS_CONTEXT (context));
  style->font = pango_context_get_font_description (context);
  /* Negative when unset: the draw then takes 96 dpi. */
  style->resolution = MAX (pango_cairo_context_get_resolution (context), 0);
  style->font_options = pango_cairo_context_get_font_options (context);
}

const char *
nsc_chart_theme_to_string (NscChartTheme theme)
{
  g_return_val_if_fail ((guint) theme < NSC_CHART_N_THEMES, NULL);
  return theme_names[theme];
}

gboolean
nsc_chart_theme_from_string (const char    *name,
                             NscChartTheme *out_theme)
{
  g_return_val_if_fail (name != NULL, FALSE);
  for (guint i = 0; i < NSC_CHART_N_THEMES; i++)
    if (g_str_equal (name, theme_names[i]))
      {
        if (out_theme)
          *out_theme = (NscChartTheme) i;
        return TRUE;
      }
  return FALSE;
}

const char *
nsc_chart_kind_to_string (NscChartKind kind)
{
  g_return_val_if_fail ((guint) kind < NSC_CHART_N_KINDS, NULL);
  return kind_names[kind];
}

gboolean
nsc_chart_kind_from_string (const char   *name,
                            NscChartKind *out_kind)
{
  g_return_val_if_fail (name != NULL, FALSE);
  for (guint i = 0; i < NSC_CHART_N_KINDS; i++)
    if (g_str_equal (name, kind_names[i]))
      {
        if (out_kind)
          *out_kind = (NscChartKind) i;
        return TRUE;
      }
  return FALSE;
}

/* ---- data sets ---------------------------------------------------------- */

static void
line_free (gpointer data)
{
  NscChartLine *line = data;
  g_free (line->detail);
  g_array_unref (line->x);
  g_array_unref (line->y);
  g_free (line);
}

NscChartDataset *
_nsc_chart_dataset_new (const char *legend)
{
  NscChartDataset *ds = g_new0 (NscChartDataset, 1);
  ds->legend = g_strdup (legend);
  ds->lines = g_ptr_array_new_with_free_func (line_free);
  ds->phases = g_array_new (FALSE, FALSE, sizeof (NscChartPhase));
  ds->recovery = g_array_new (FALSE, FALSE, sizeof (NscChartRecovery));
  ds->in_cache_bps = ds->post_cache_bps = ds->average_bps = NAN;
  ds->min_bps = ds->max_bps = ds->x_end = ds->usable = NAN;
  return ds;
}

void
_nsc_chart_dataset_free (gpointer data)
{
  NscChartDataset *ds = data;
  if (ds == NULL)
    return;
  g_free (ds->legend);
  g_ptr_array_unref (ds->lines);
  g_array_unref (ds->phases);
  g_free (ds->verdict);
  g_array_unref (ds->recovery);
  g_free (ds);
}

NscChartLine *
_nsc_chart_line_new (NscChartDataset  *ds,
                     NscChartLineRole  role)
{
  NscChartLine *line = g_new0 (NscChartLine, 1);
  line->role = role;
  line->pattern = NSC_CHART_PATTERN_NONE;
  line->x = g_array_new (FALSE, FALSE, sizeof (double));
  line->y = g_array_new (FALSE, FALSE, sizeof (double));
  g_ptr_array_add (ds->lines, line);
  return line;
}

void
_nsc_chart_line_add (NscChartLine *line,
                     double        x,
                     double        y)
{
  g_array_append_val (line->x, x);
  g_array_append_val (line->y, y);
}

static NscChartLine *
find_line (NscChartDataset  *ds,
           NscChartLineRole  role,
           NscChartPattern   pattern,
           const char       *detail)
{
  for (guint i = 0; i < ds->lines->len; i++)
    {
      NscChartLine *line = g_ptr_array_index (ds->lines, i);
      if (line->role == role && line->pattern == pattern && g_strcmp0 (line->detail, detail) == 0)
        return line;
    }
  return NULL;
}

char *
_nsc_chart_line_label (const NscChartLine *line)
{
  /* Legends of the lines, by role. */
  static const char *const role_labels[NSC_CHART_N_LINE_ROLES] = {
    /* Translators: a line of a chart: read speed */
    N_("Read"),
    /* Translators: a line of a chart: write speed */
    N_("Write"),
    /* Translators: a line of a chart: reads and writes together */
    N_("Speed"),
    /* Translators: a line of a chart: a mixed load (its pattern is named apart) */
    N_("Mixed"),
    /* Translators: the legend of the drive temperature line, drawn against the
     * chart's right-hand axis */
    N_("Temperature, °C (right axis)"),
    /* Translators: the probe's map: places that read back as written */
    N_("Kept its data"),
    /* Translators: the probe's map: places that did not */
    N_("Lost its data"),
  };
  /* [pattern - RANDOM][role]: read, write */
  static const char *const pattern_labels[2][2] = {
    /* Translators: legends of sweep lines when a chart has several patterns */
    { N_("Random read"), N_("Random write") },
    { N_("Sequential read"), N_("Sequential write") },
  };

  g_return_val_if_fail (line != NULL && (guint) line->role < NSC_CHART_N_LINE_ROLES, NULL);
  if (line->role == NSC_CHART_LINE_MIXED)
    {
      const char *bs = line->detail ? line->detail : "";
      switch (line->pattern)
        {
        case NSC_CHART_PATTERN_RANDOM:
          /* Translators: a mixed-load line; %s is the block size, "4K" */
          return g_strdup_printf (_("Random %s"), bs);
        case NSC_CHART_PATTERN_SEQUENTIAL:
          /* Translators: a mixed-load line; %s is the block size, "128K" */
          return g_strdup_printf (_("Sequential %s"), bs);
        case NSC_CHART_PATTERN_OTHER:
        case NSC_CHART_PATTERN_NONE:
        default:
          return g_strdup_printf ("%s %s", _(role_labels[line->role]), bs);
        }
    }
  if (line->role == NSC_CHART_LINE_READ || line->role == NSC_CHART_LINE_WRITE)
    {
      guint dir = line->role == NSC_CHART_LINE_READ ? 0 : 1;
      switch (line->pattern)
        {
        case NSC_CHART_PATTERN_RANDOM:
        case NSC_CHART_PATTERN_SEQUENTIAL:
          return g_strdup (_(pattern_labels[line->pattern - NSC_CHART_PATTERN_RANDOM][dir]));
        case NSC_CHART_PATTERN_OTHER:
          /* Translators: a sweep line of a pattern the app has no name for;
           * the first %s is the pattern as the result spells it, the second
           * "Read" or "Write" */
          return g_strdup_printf (_("%s: %s"), line->detail ? line->detail : "", _(role_labels[line->role]));
        case NSC_CHART_PATTERN_NONE:
        default:
          break;
        }
    }
  return g_strdup (_(role_labels[line->role]));
}

/* ---- reading results ---------------------------------------------------- */

static double
array_number (JsonArray *a,
              guint      i)
{
  return nsc_json_node_number (json_array_get_element (a, i), NAN);
}

static JsonArray *
result_steps (JsonNode *result)
{
  if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
    return NULL;
  return nsc_json_get_array (json_node_get_object (result), "steps");
}

static JsonObject *
step_at (JsonArray *steps,
         guint      i)
{
  JsonNode *n = json_array_get_element (steps, i);
  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static gboolean
is_job (JsonObject *step)
{
  const char *kind = nsc_json_get_string (step, "kind");
  return step && nsc_json_get_object (step, "job") && (kind == NULL || g_str_equal (kind, "job"));
}

static gboolean
tag_is (JsonObject *step,
        const char *tag,
        gboolean    prefix)
{
  const char *a = nsc_json_get_string (step, "analysis");
  if (a == NULL || !is_job (step))
    return FALSE;
  return prefix ? g_str_has_prefix (a, tag) : g_str_equal (a, tag);
}

static guint
series_len (JsonObject *step)
{
  JsonArray *t = nsc_json_get_array (nsc_json_get_object (step, "series"), "t_ns");
  return t ? json_array_get_length (t) : 0;
}

static gboolean
is_surface (JsonObject *step)
{
  return step && g_strcmp0 (nsc_json_get_string (step, "kind"), "surface") == 0;
}

/* A probe step's places ([[offset, kind], …]), or NULL. */
static JsonArray *
probe_places (JsonObject *step)
{
  if (step == NULL || g_strcmp0 (nsc_json_get_string (step, "kind"), "probe") != 0)
    return NULL;
  return nsc_json_get_array (nsc_json_get_object (step, "probe"), "places");
}

/* A surface run's speed at its place: reads and writes together, as the text
 * report counts it. */
static double
run_bps (JsonObject *run)
{
  return nsc_json_get_number (nsc_json_get_object (run, "read"), "bw_bps", 0)
         + nsc_json_get_number (nsc_json_get_object (run, "write"), "bw_bps", 0);
}

static JsonObject *
run_at (JsonArray *runs,
        guint      i)
{
  JsonNode *n = json_array_get_element (runs, i);
  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

/* The places of a surface step that measured a speed; none when they are all
 * one place (a region too small to spread them), which draws no curve. */
static guint
surface_points (JsonObject *step)
{
  JsonArray *runs = nsc_json_get_array (step, "runs");
  double first = NAN;
  gboolean spread = FALSE;
  guint n = 0;
  for (guint i = 0; runs && i < json_array_get_length (runs); i++)
    {
      JsonObject *run = run_at (runs, i);
      double offset = nsc_json_get_number (run, "region_offset", -1);
      if (run == NULL || offset < 0 || !(run_bps (run) > 0))
        continue;
      if (n == 0)
        first = offset;
      spread |= offset != first;
      n++;
    }
  return spread ? n : 0;
}

static gboolean
has_percentiles (JsonObject *step)
{
  static const char *const dirs[] = { "read", "write" };
  for (guint d = 0; d < 2; d++)
    {
      JsonObject *p = nsc_json_get_object (nsc_json_get_object (nsc_json_get_object (step, dirs[d]), "lat_ns"), "percentiles");
      if (p && json_object_get_size (p) > 0 && nsc_json_get_number (nsc_json_get_object (step, dirs[d]), "ios", 1) > 0)
        return TRUE;
    }
  return FALSE;
}

static guint
count_tagged (JsonArray  *steps,
              const char *tag,
              gboolean    prefix)
{
  guint n = 0;
  for (guint i = 0; steps && i < json_array_get_length (steps); i++)
    if (tag_is (step_at (steps, i), tag, prefix))
      n++;
  return n;
}

/* Whether step @i can be drawn as @kind. */
static gboolean
step_fits (JsonObject  *step,
           NscChartKind kind)
{
  JsonObject *job = nsc_json_get_object (step, "job");

  if (kind == NSC_CHART_POSITION && is_surface (step))
    return surface_points (step) >= 2;
  if (kind == NSC_CHART_MAP)
    return probe_places (step) && json_array_get_length (probe_places (step)) > 0;
  if (!is_job (step))
    return FALSE;
  switch (kind)
    {
    case NSC_CHART_WRITE_FILL:
      return series_len (step) >= 2 && nsc_json_get_number (job, "read_percent", 0) < 100;
    case NSC_CHART_POSITION:
      /* Read once, in order, from the region's start by one worker: each sample's
       * position is then a place on the drive (several workers' slices add up to
       * no place). A write that covers its region so is the write-fill chart's. */
      return series_len (step) >= 2
             && nsc_json_get_array (nsc_json_get_object (step, "series"), "position")
             && nsc_json_get_bool (job, "once")
             && g_strcmp0 (nsc_json_get_string (job, "pattern"), "sequential") == 0
             && nsc_json_get_number (job, "read_percent", 0) >= 100
             && nsc_json_get_number (job, "workers", 1) <= 1;
    case NSC_CHART_TIME:
      return series_len (step) >= 2;
    case NSC_CHART_LATENCY:
      return has_percentiles (step);
    case NSC_CHART_QD:
    case NSC_CHART_BS:
    case NSC_CHART_MIXED:
    case NSC_CHART_MAP:
    case NSC_CHART_N_KINDS:
    default:
      return FALSE;
    }
}

static JsonObject *
result_slc (JsonNode *result)
{
  if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
    return NULL;
  return nsc_json_get_object (nsc_json_get_object (json_node_get_object (result), "analysis"), "slc");
}

/* The most telling step for a per-step kind, or G_MAXUINT. */
static guint
auto_step (JsonNode    *result,
           NscChartKind kind)
{
  JsonArray *steps = result_steps (result);
  guint n = steps ? json_array_get_length (steps) : 0;
  guint best = G_MAXUINT, best_len = 0;

  if (kind == NSC_CHART_WRITE_FILL)
    {
      JsonObject *slc = result_slc (result);
      double s = nsc_json_get_number (slc, "step", -1);
      if (s >= 0 && s < n && step_fits (step_at (steps, (guint) s), kind))
        return (guint) s;
      for (guint i = 0; i < n; i++)
        if (tag_is (step_at (steps, i), "write-fill", TRUE) && step_fits (step_at (steps, i), kind))
          return i;
      return G_MAXUINT;
    }
  if (kind == NSC_CHART_POSITION)
    {
      /* The capacity check's read-back covers the whole drive; then a read across
       * it (a surface scan's reads rather than its writes); then any. */
      for (guint i = 0; i < n; i++)
        if (tag_is (step_at (steps, i), "verify", FALSE) && step_fits (step_at (steps, i), kind))
          return i;
      for (guint i = 0; i < n; i++)
        if (step_fits (step_at (steps, i), kind)
            && nsc_json_get_number (nsc_json_get_object (step_at (steps, i), "job"), "read_percent", 0) > 0)
          return i;
    }
  if (kind == NSC_CHART_TIME)
    {
      static const char *const preferred[] = { "degradation", "thermal", "write-fill" };
      for (guint p = 0; p < G_N_ELEMENTS (preferred); p++)
        for (guint i = 0; i < n; i++)
          if (tag_is (step_at (steps, i), preferred[p], FALSE) && step_fits (step_at (steps, i), kind))
            return i;
      for (guint i = 0; i < n; i++)
        {
          JsonObject *s = step_at (steps, i);
          if (step_fits (s, kind) && series_len (s) > best_len)
            {
              best = i;
              best_len = series_len (s);
            }
        }
      return best;
    }
  for (guint i = 0; i < n; i++)
    if (step_fits (step_at (steps, i), kind))
      return i;
  return G_MAXUINT;
}

guint
_nsc_chart_find_step (JsonNode    *result,
                      NscChartKind kind,
                      const char  *tag,
                      guint        from)
{
  JsonArray *steps = result_steps (result);
  /* The tag of any step a chart of @kind can draw (a surface scan is no job). */
  for (guint i = from; steps && i < json_array_get_length (steps); i++)
    if (g_strcmp0 (nsc_json_get_string (step_at (steps, i), "analysis"), tag) == 0
        && step_fits (step_at (steps, i), kind))
      return i;
  return NSC_CHART_STEP_AUTO;
}

static gboolean
result_has_kind (JsonNode    *result,
                 NscChartKind kind)
{
  JsonArray *steps = result_steps (result);
  switch (kind)
    {
    case NSC_CHART_QD:
      return count_tagged (steps, "qd-scaling", FALSE) >= 2;
    case NSC_CHART_BS:
      return count_tagged (steps, "bs-sweep", FALSE) >= 2;
    case NSC_CHART_MIXED:
      return count_tagged (steps, "mixed-", TRUE) >= 2;
    case NSC_CHART_WRITE_FILL:
    case NSC_CHART_POSITION:
    case NSC_CHART_TIME:
    case NSC_CHART_LATENCY:
    case NSC_CHART_MAP:
      return auto_step (result, kind) != G_MAXUINT;
    case NSC_CHART_N_KINDS:
    default:
      return FALSE;
    }
}

NscChartKind *
nsc_chart_kinds_for_result (JsonNode *result,
                            guint    *n_kinds)
{
  NscChartKind *kinds = g_new0 (NscChartKind, NSC_CHART_N_KINDS + 1);
  guint n = 0;
  for (guint k = 0; k < NSC_CHART_N_KINDS; k++)
    if (result_has_kind (result, (NscChartKind) k))
      kinds[n++] = (NscChartKind) k;
  kinds[n] = NSC_CHART_N_KINDS;
  if (n_kinds)
    *n_kinds = n;
  return kinds;
}

char *
nsc_chart_kinds_describe (JsonNode *result)
{
  guint n = 0;
  g_autofree NscChartKind *kinds = nsc_chart_kinds_for_result (result, &n);
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", nsc_chart_kind_to_string (kinds[i]));
  if (n == 0)
    /* Translators: the list of charts a result has data for, when it has none */
    g_string_append (s, _("none"));
  return g_string_free (s, FALSE);
}

static NscChartPattern
pattern_of (JsonObject *job)
{
  const char *p = nsc_json_get_string (job, "pattern");
  if (p && g_str_has_prefix (p, "rand"))
    return NSC_CHART_PATTERN_RANDOM;
  if (p && g_str_has_prefix (p, "seq"))
    return NSC_CHART_PATTERN_SEQUENTIAL;
  return NSC_CHART_PATTERN_OTHER;
}

/* For titles. */
static const char *
pattern_name (JsonObject *job)
{
  const char *p = nsc_json_get_string (job, "pattern");
  switch (pattern_of (job))
    {
    case NSC_CHART_PATTERN_RANDOM:
      /* Translators: the access pattern, in chart titles: "Speed by queue depth · Random 4K" */
      return _("Random");
    case NSC_CHART_PATTERN_SEQUENTIAL:
      /* Translators: the access pattern, in chart titles */
      return _("Sequential");
    case NSC_CHART_PATTERN_NONE:
    case NSC_CHART_PATTERN_OTHER:
    default:
      return p ? p : "";
    }
}

static int
compare_x (gconstpointer a,
           gconstpointer b)
{
  double xa = ((const double *) a)[0], xb = ((const double *) b)[0];
  return (xa > xb) - (xa < xb);
}

static void
sort_line (NscChartLine *line)
{
  guint n = line->x->len;
  g_autofree double *pairs = g_new (double, 2 * (gsize) n);
  for (guint i = 0; i < n; i++)
    {
      pairs[2 * i] = g_array_index (line->x, double, i);
      pairs[2 * i + 1] = g_array_index (line->y, double, i);
    }
  qsort (pairs, n, 2 * sizeof (double), compare_x);
  for (guint i = 0; i < n; i++)
    {
      g_array_index (line->x, double, i) = pairs[2 * i];
      g_array_index (line->y, double, i) = pairs[2 * i + 1];
    }
}

/* Pattern, then read before write: reads take the first colour whatever the
 * order of the steps. */
static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  const NscChartLine *la = *(NscChartLine *const *) a;
  const NscChartLine *lb = *(NscChartLine *const *) b;
  if (la->pattern != lb->pattern)
    return (la->pattern > lb->pattern) - (la->pattern < lb->pattern);
  if (g_strcmp0 (la->detail, lb->detail) != 0)
    return g_strcmp0 (la->detail, lb->detail);
  return (la->role > lb->role) - (la->role < lb->role);
}

/* QD and block-size sweeps: one line per pattern and direction. */
static void
build_sweep (NscChartDataset *ds,
             JsonArray       *steps,
             const char      *tag,
             const char      *x_member)
{
  static const char *const dirs[] = { "read", "write" };
  static const NscChartLineRole roles[] = { NSC_CHART_LINE_READ, NSC_CHART_LINE_WRITE };
  gboolean mixed_patterns = FALSE;
  const char *first_pattern = NULL;
  guint n = json_array_get_length (steps);

  for (guint i = 0; i < n; i++)
    {
      JsonObject *s = step_at (steps, i);
      if (!tag_is (s, tag, FALSE))
        continue;
      if (first_pattern == NULL)
        first_pattern = pattern_name (nsc_json_get_object (s, "job"));
      else if (!g_str_equal (first_pattern, pattern_name (nsc_json_get_object (s, "job"))))
        mixed_patterns = TRUE;
    }

  for (guint i = 0; i < n; i++)
    {
      JsonObject *s = step_at (steps, i);
      JsonObject *job = nsc_json_get_object (s, "job");
      double x = nsc_json_get_number (job, x_member, NAN);
      if (!tag_is (s, tag, FALSE) || !(x > 0))
        continue;
      for (guint d = 0; d < 2; d++)
        {
          JsonObject *dir = nsc_json_get_object (s, dirs[d]);
          NscChartPattern pattern = mixed_patterns ? pattern_of (job) : NSC_CHART_PATTERN_NONE;
          const char *detail = pattern == NSC_CHART_PATTERN_OTHER ? pattern_name (job) : NULL;
          NscChartLine *line;
          double bps = nsc_json_get_number (dir, "bw_bps", NAN);
          if (nsc_json_get_number (dir, "ios", 0) <= 0 || !isfinite (bps))
            continue;
          line = find_line (ds, roles[d], pattern, detail);
          if (line == NULL)
            {
              line = _nsc_chart_line_new (ds, roles[d]);
              line->pattern = pattern;
              line->detail = g_strdup (detail);
              line->markers = TRUE;
            }
          _nsc_chart_line_add (line, x, bps);
        }
    }
  g_ptr_array_sort (ds->lines, compare_lines);
  for (guint i = 0; i < ds->lines->len; i++)
    sort_line (g_ptr_array_index (ds->lines, i));
}

static void
build_mixed (NscChartDataset *ds,
             JsonArray       *steps)
{
  guint n = json_array_get_length (steps);
  for (guint i = 0; i < n; i++)
    {
      JsonObject *s = step_at (steps, i);
      JsonObject *job = nsc_json_get_object (s, "job");
      g_autofree char *bs = NULL;
      g_autofree char *detail = NULL;
      NscChartPattern pattern;
      NscChartLine *line;
      double total;

      if (!tag_is (s, "mixed-", TRUE))
        continue;
      bs = nsc_format_size_short ((guint64) nsc_json_get_number (job, "block_size", 0));
      pattern = pattern_of (job);
      /* A pattern without a name of ours goes into the detail, as spelt. */
      detail = pattern == NSC_CHART_PATTERN_OTHER ? g_strdup_printf ("%s %s", pattern_name (job), bs)
                                                  : g_strdup (bs);
      line = find_line (ds, NSC_CHART_LINE_MIXED, pattern, detail);
      if (line == NULL)
        {
          line = _nsc_chart_line_new (ds, NSC_CHART_LINE_MIXED);
          line->pattern = pattern;
          line->detail = g_strdup (detail);
          line->markers = TRUE;
        }
      total = nsc_json_get_number (nsc_json_get_object (s, "read"), "bw_bps", 0)
              + nsc_json_get_number (nsc_json_get_object (s, "write"), "bw_bps", 0);
      _nsc_chart_line_add (line, nsc_json_get_number (job, "read_percent", 0), total);
    }
  for (guint i = 0; i < ds->lines->len; i++)
    sort_line (g_ptr_array_index (ds->lines, i));
}

/* Per-sample speed: bytes of the interval over its duration. */
static void
build_series (NscChartDataset *ds,
              JsonObject      *step,
              NscChartKind     kind)
{
  JsonObject *series = nsc_json_get_object (step, "series");
  JsonArray *t = nsc_json_get_array (series, "t_ns");
  JsonArray *dur = nsc_json_get_array (series, "duration_ns");
  JsonArray *rb = nsc_json_get_array (series, "read_bytes");
  JsonArray *wb = nsc_json_get_array (series, "write_bytes");
  JsonArray *pos = nsc_json_get_array (series, "position");
  guint n = t ? json_array_get_length (t) : 0;
  gboolean have_read = FALSE, have_write = FALSE, split;
  NscChartLine *lr = NULL, *lw = NULL;
  JsonObject *temp;
  /* A write-fill's x is the data written; the place on the drive is past the
   * region's start. */
  double offset = kind == NSC_CHART_POSITION
                  ? nsc_json_get_number (nsc_json_get_object (step, "job"), "region_offset", 0) : 0;

  if (dur == NULL || rb == NULL || wb == NULL || json_array_get_length (dur) < n
      || json_array_get_length (rb) < n || json_array_get_length (wb) < n)
    return;
  for (guint i = 0; i < n; i++)
    {
      have_read |= array_number (rb, i) > 0;
      have_write |= array_number (wb, i) > 0;
    }
  /* A time chart of a mixed load shows reads and writes apart; otherwise one line. */
  split = kind == NSC_CHART_TIME && have_read && have_write;
  if (split)
    {
      lr = _nsc_chart_line_new (ds, NSC_CHART_LINE_READ);
      lw = _nsc_chart_line_new (ds, NSC_CHART_LINE_WRITE);
    }
  else
    lr = _nsc_chart_line_new (ds, have_read && !have_write ? NSC_CHART_LINE_READ : NSC_CHART_LINE_WRITE);
  lr->scatter = kind == NSC_CHART_TIME;
  if (lw)
    lw->scatter = TRUE;

  for (guint i = 0; i < n; i++)
    {
      double d = array_number (dur, i);
      double r = array_number (rb, i), w = array_number (wb, i);
      double x;
      if (!(d > 0))
        continue;
      if (kind == NSC_CHART_WRITE_FILL || kind == NSC_CHART_POSITION)
        x = pos && i < json_array_get_length (pos) ? offset + array_number (pos, i) : NAN;
      else
        x = array_number (t, i) / 1e9;
      if (!isfinite (x))
        continue;
      if (split)
        {
          _nsc_chart_line_add (lr, x, r * 1e9 / d);
          _nsc_chart_line_add (lw, x, w * 1e9 / d);
        }
      else
        _nsc_chart_line_add (lr, x, (r + w) * 1e9 / d);
    }

  temp = nsc_json_get_object (step, "temperature");
  if (kind == NSC_CHART_TIME && temp)
    {
      JsonArray *tt = nsc_json_get_array (temp, "t_ns");
      JsonArray *tc = nsc_json_get_array (temp, "celsius");
      guint m = tt && tc ? MIN (json_array_get_length (tt), json_array_get_length (tc)) : 0;
      if (m > 0)
        {
          NscChartLine *lt = _nsc_chart_line_new (ds, NSC_CHART_LINE_TEMPERATURE);
          lt->secondary = TRUE;
          for (guint i = 0; i < m; i++)
            if (isfinite (array_number (tc, i)))
              _nsc_chart_line_add (lt, array_number (tt, i) / 1e9, array_number (tc, i));
        }
    }
}

/* The speed's range across the drive, for the summary: the lowest and highest
 * of the line's points and the step's own average (NAN: the points'). */
static void
position_summary (NscChartDataset *ds,
                  double           average)
{
  NscChartLine *line = ds->lines->len ? g_ptr_array_index (ds->lines, 0) : NULL;
  double sum = 0;
  guint n = 0;

  for (guint i = 0; line && i < line->y->len; i++)
    {
      double y = g_array_index (line->y, double, i);
      if (!isfinite (y))
        continue;
      ds->min_bps = n ? MIN (ds->min_bps, y) : y;
      ds->max_bps = n ? MAX (ds->max_bps, y) : y;
      sum += y;
      n++;
    }
  ds->average_bps = average > 0 ? average : n ? sum / n : NAN;
}

/* A surface scan: one point per place, at the place's start. */
static void
build_surface (NscChartDataset *ds,
               JsonObject      *step)
{
  JsonArray *runs = nsc_json_get_array (step, "runs");
  gboolean reads = nsc_json_get_number (nsc_json_get_object (step, "job"), "read_percent", 0) > 0;
  NscChartLine *line = _nsc_chart_line_new (ds, reads ? NSC_CHART_LINE_READ : NSC_CHART_LINE_WRITE);

  line->markers = TRUE;
  for (guint i = 0; runs && i < json_array_get_length (runs); i++)
    {
      JsonObject *run = run_at (runs, i);
      double offset = nsc_json_get_number (run, "region_offset", -1);
      double bytes = nsc_json_get_number (nsc_json_get_object (run, "read"), "bytes", 0)
                     + nsc_json_get_number (nsc_json_get_object (run, "write"), "bytes", 0);
      if (run == NULL || offset < 0 || !(run_bps (run) > 0))
        continue;
      _nsc_chart_line_add (line, offset, run_bps (run));
      /* The axis runs to the end of the last place read. */
      ds->x_end = isfinite (ds->x_end) ? MAX (ds->x_end, offset + bytes) : offset + bytes;
    }
  sort_line (line);
  position_summary (ds, NAN);
}

/* A region read once: per-sample speed at each place, to the region's end. */
static void
build_position (NscChartDataset *ds,
                JsonObject      *step)
{
  JsonObject *job = nsc_json_get_object (step, "job");
  double length = nsc_json_get_number (job, "region_length", 0);

  build_series (ds, step, NSC_CHART_POSITION);
  if (length > 0)
    ds->x_end = nsc_json_get_number (job, "region_offset", 0) + length;
  position_summary (ds, nsc_json_get_number (nsc_json_get_object (step, "read"), "bw_bps", NAN));
}

static void
build_latency (NscChartDataset *ds,
               JsonObject      *step)
{
  static const char *const dirs[] = { "read", "write" };
  static const NscChartLineRole roles[] = { NSC_CHART_LINE_READ, NSC_CHART_LINE_WRITE };
  for (guint d = 0; d < 2; d++)
    {
      JsonObject *dir = nsc_json_get_object (step, dirs[d]);
      JsonObject *p = nsc_json_get_object (nsc_json_get_object (dir, "lat_ns"), "percentiles");
      NscChartLine *line;
      GList *members;
      if (p == NULL || json_object_get_size (p) == 0 || nsc_json_get_number (dir, "ios", 1) <= 0)
        continue;
      line = _nsc_chart_line_new (ds, roles[d]);
      line->markers = TRUE;
      line->dashed = d == 1;
      members = json_object_get_members (p);
      for (GList *l = members; l; l = l->next)
        {
          double pct = g_ascii_strtod (l->data, NULL);
          double ns = nsc_json_get_number (p, l->data, NAN);
          if (pct > 0 && pct < 100 && ns > 0)
            _nsc_chart_line_add (line, pct, ns);
        }
      g_list_free (members);
      sort_line (line);
    }
}

/* Cache recovery's points: all of them for the fill (@all), else @step's own. */
static void
read_recovery (NscChartDataset *ds,
               JsonNode        *result,
               guint            step,
               gboolean         all)
{
  JsonObject *cr = nsc_json_get_object (nsc_json_get_object (json_node_get_object (result),
                                                             "analysis"), "cache_recovery");
  JsonArray *points = nsc_json_get_array (cr, "points");

  for (guint i = 0; points && i < json_array_get_length (points); i++)
    {
      JsonNode *n = json_array_get_element (points, i);
      JsonObject *p = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
      NscChartRecovery point;
      gboolean doubted;

      if (p == NULL || (!all && nsc_json_get_number (p, "step", -1) != step))
        continue;
      point.idle_s = nsc_json_get_number (p, "idle_before_ns", NAN) / 1e9;
      /* null: the step had no speeds to judge */
      point.fast_bytes = nsc_json_get_number (p, "fast_bytes", NAN);
      doubted = g_strcmp0 (nsc_json_get_string (p, "verdict"), "not-verified") == 0;
      point.via_memory = doubted && g_strcmp0 (nsc_json_get_string (p, "reason"), "system-cache") == 0;
      point.not_verified = doubted && !point.via_memory;
      if (isfinite (point.idle_s) && isfinite (point.fast_bytes))
        g_array_append_val (ds->recovery, point);
    }
}

static void
read_slc (NscChartDataset *ds,
          JsonNode        *result,
          guint            step)
{
  JsonObject *slc = result_slc (result);
  JsonArray *phases;
  double s;
  if (slc == NULL)
    return;
  s = nsc_json_get_number (slc, "step", -1);
  /* An slc without a step index predates the member: it is about the write-fill. */
  if (s >= 0 && (guint) s != step)
    {
      read_recovery (ds, result, step, FALSE);
      return;
    }
  read_recovery (ds, result, step, TRUE);
  ds->have_slc = TRUE;
  ds->has_cache = json_object_has_member (slc, "has_cache")
                  && JSON_NODE_HOLDS_VALUE (json_object_get_member (slc, "has_cache"))
                  && json_object_get_boolean_member (slc, "has_cache");
  ds->cache_bytes = nsc_json_get_number (slc, "cache_bytes", 0);
  ds->in_cache_bps = nsc_json_get_number (slc, "in_cache_bps", NAN);
  ds->post_cache_bps = nsc_json_get_number (slc, "post_cache_bps", NAN);
  ds->average_bps = nsc_json_get_number (slc, "average_bps", NAN);
  ds->verdict = g_strdup (nsc_json_get_string (slc, "verdict"));
  phases = nsc_json_get_array (slc, "phases");
  for (guint i = 0; phases && i < json_array_get_length (phases); i++)
    {
      JsonNode *n = json_array_get_element (phases, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
      NscChartPhase ph = {
        nsc_json_get_number (o, "start_bytes", NAN),
        nsc_json_get_number (o, "end_bytes", NAN),
        nsc_json_get_number (o, "bps", NAN),
      };
      if (isfinite (ph.start) && isfinite (ph.end) && isfinite (ph.bps))
        g_array_append_val (ds->phases, ph);
    }
}

/* The probe's map: each place it read past the drive's cache, at 1 where it kept its
 * data and 0 where it did not; the drive's reported size ends the axis, and the size
 * it stores marks where the loss begins. */
static void
build_map (NscChartDataset *ds,
           JsonObject      *step)
{
  JsonObject *probe = nsc_json_get_object (step, "probe");
  JsonArray *places = probe_places (step);
  NscChartLine *kept = _nsc_chart_line_new (ds, NSC_CHART_LINE_KEPT);
  NscChartLine *lost = _nsc_chart_line_new (ds, NSC_CHART_LINE_LOST);
  double reported = nsc_json_get_number (probe, "reported_bytes", NAN);
  double usable = nsc_json_get_number (probe, "usable_bytes", NAN);

  kept->dots_only = lost->dots_only = TRUE;
  for (guint i = 0; places && i < json_array_get_length (places); i++)
    {
      JsonNode *node = json_array_get_element (places, i);
      JsonArray *place = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
      JsonNode *at = place && json_array_get_length (place) == 2 ? json_array_get_element (place, 0) : NULL;
      JsonNode *what = place && json_array_get_length (place) == 2 ? json_array_get_element (place, 1) : NULL;
      gboolean ok;

      if (at == NULL || what == NULL || !JSON_NODE_HOLDS_VALUE (at) || !JSON_NODE_HOLDS_VALUE (what)
          || json_node_get_value_type (what) != G_TYPE_STRING)
        continue;
      ok = g_strcmp0 (json_node_get_string (what), "ok") == 0;
      _nsc_chart_line_add (ok ? kept : lost, json_node_get_double (at), ok ? 1 : 0);
    }
  if (isfinite (reported) && reported > 0)
    ds->x_end = reported;
  if (isfinite (usable) && isfinite (reported) && usable < reported)
    ds->usable = usable;
}

/* Fills @ds from @result for @kind; *@step in: requested (or AUTO), out: used. */
static gboolean
build_dataset (NscChartDataset *ds,
               JsonNode        *result,
               NscChartKind     kind,
               guint           *step,
               GError         **error)
{
  JsonArray *steps = result_steps (result);
  guint n = steps ? json_array_get_length (steps) : 0;

  if (!result_has_kind (result, kind))
    {
      g_autofree char *has = nsc_chart_kinds_describe (result);
      /* Translators: the first %s is a chart kind as the command line names it
       * ("write-fill", "qd"…), the second a list of them */
      g_set_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND,
                   _("The result has no data for a %s chart (it has: %s)"),
                   nsc_chart_kind_to_string (kind), has);
      return FALSE;
    }

  switch (kind)
    {
    case NSC_CHART_QD:
      build_sweep (ds, steps, "qd-scaling", "queue_depth");
      *step = G_MAXUINT;
      return TRUE;
    case NSC_CHART_BS:
      build_sweep (ds, steps, "bs-sweep", "block_size");
      *step = G_MAXUINT;
      return TRUE;
    case NSC_CHART_MIXED:
      build_mixed (ds, steps);
      *step = G_MAXUINT;
      return TRUE;
    case NSC_CHART_WRITE_FILL:
    case NSC_CHART_POSITION:
    case NSC_CHART_TIME:
    case NSC_CHART_LATENCY:
    case NSC_CHART_MAP:
      break;
    case NSC_CHART_N_KINDS:
    default:
      g_assert_not_reached ();
    }

  if (*step == NSC_CHART_STEP_AUTO)
    *step = auto_step (result, kind);
  else if (*step >= n || !step_fits (step_at (steps, *step), kind))
    {
      g_autofree char *has = NULL;
      GString *fit = g_string_new (NULL);
      for (guint i = 0; i < n; i++)
        if (step_fits (step_at (steps, i), kind))
          g_string_append_printf (fit, "%s%u", fit->len ? ", " : "", i);
      has = g_string_free (fit, FALSE);
      /* Translators: %u is a step number, the first %s a chart kind as the
       * command line names it ("time"), the second a list of step numbers */
      g_set_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND,
                   _("Step %u has no data for a %s chart (steps that have: %s)"),
                   *step, nsc_chart_kind_to_string (kind), has);
      return FALSE;
    }

  if (kind == NSC_CHART_LATENCY)
    build_latency (ds, step_at (steps, *step));
  else if (kind == NSC_CHART_MAP)
    build_map (ds, step_at (steps, *step));
  else if (kind == NSC_CHART_POSITION && is_surface (step_at (steps, *step)))
    build_surface (ds, step_at (steps, *step));
  else if (kind == NSC_CHART_POSITION)
    build_position (ds, step_at (steps, *step));
  else
    build_series (ds, step_at (steps, *step), kind);
  if (kind == NSC_CHART_WRITE_FILL)
    read_slc (ds, result, *step);
  return TRUE;
}

/* ---- titles, legends, captions ----------------------------------------- */

static char *
default_legend (JsonNode *result)
{
  JsonObject *root = json_node_get_object (result);
  JsonObject *dev = nsc_json_get_object (root, "device");
  const char *model = nsc_json_get_string (dev, "model");
  g_autofree char *date = nsc_words_date_iso (nsc_json_get_string (root, "started"), FALSE);
  GString *s = g_string_new (NULL);

  if (model == NULL)
    model = nsc_json_get_string (dev, "name");
  if (model == NULL)
    model = nsc_json_get_string (nsc_json_get_object (root, "target"), "description");
  /* Translators: the legend of a result without a drive model */
  g_string_append (s, model ? model : _("Result"));
  if (date)
    g_string_append_printf (s, " · %s", date);
  return g_string_free (s, FALSE);
}

static char *
make_title (JsonNode    *result,
            NscChartKind kind,
            guint        step)
{
  JsonObject *root = json_node_get_object (result);
  JsonArray *steps = result_steps (result);
  JsonObject *s = step != G_MAXUINT && steps && step < json_array_get_length (steps)
                  ? step_at (steps, step) : NULL;
  const char *label = nsc_words_test_label (nsc_json_get_string (s, "label"));
  const char *preset = nsc_words_preset_text (nsc_json_get_string (nsc_json_get_object (root, "preset"),
                                                                   "title"));
  const char *what = NULL;

  switch (kind)
    {
    case NSC_CHART_WRITE_FILL:
      /* Translators: the write-fill chart: speed against the amount of data written */
      what = _("Write-fill: speed against data written");
      break;
    case NSC_CHART_POSITION:
      if (nsc_json_get_number (nsc_json_get_object (s, "job"), "read_percent", 0) > 0)
        /* Translators: a chart title: speed against the place on the drive (HD
         * Tune's read test, a surface scan) */
        what = _("Read speed across the drive");
      else
        /* Translators: a chart title: speed against the place on the drive */
        what = _("Write speed across the drive");
      break;
    case NSC_CHART_QD:
      /* Translators: a chart title */
      what = _("Speed by queue depth");
      break;
    case NSC_CHART_BS:
      /* Translators: a chart title */
      what = _("Speed by block size");
      break;
    case NSC_CHART_TIME:
      /* Translators: a chart title */
      what = _("Speed over time");
      break;
    case NSC_CHART_MIXED:
      /* Translators: a chart title */
      what = _("Mixed reads and writes");
      break;
    case NSC_CHART_MAP:
      /* Translators: a chart title: the quick probe's places across the drive */
      what = _("What the probe's places held");
      break;
    case NSC_CHART_LATENCY:
      {
        /* Which requests the percentiles are of, when the test did only one kind. */
        gboolean reads = s && nsc_json_get_number (nsc_json_get_object (s, "read"), "ios", 0) > 0;
        gboolean writes = s && nsc_json_get_number (nsc_json_get_object (s, "write"), "ios", 0) > 0;

        /* Translators: a chart title */
        what = reads && !writes ? _("Read latency percentiles")
               /* Translators: a chart title */
               : writes && !reads ? _("Write latency percentiles")
               /* Translators: a chart title (a test that reads and writes) */
               : _("Latency percentiles");
      }
      break;
    case NSC_CHART_N_KINDS:
    default:
      g_assert_not_reached ();
    }
  /* The step's label comes from the preset, as the result saved it. */
  if (label && s)
    return g_str_equal (label, "Write-fill") ? g_strdup (what) : g_strdup_printf ("%s · %s", what, label);
  if (kind == NSC_CHART_QD || kind == NSC_CHART_BS)
    {
      /* What the sweep holds constant: "Random 4K", "Sequential, QD4". */
      const char *tag = kind == NSC_CHART_QD ? "qd-scaling" : "bs-sweep";
      const char *pattern = NULL;
      double other = -1;
      gboolean same_pattern = TRUE, same_other = TRUE;
      for (guint i = 0; steps && i < json_array_get_length (steps); i++)
        {
          JsonObject *job = nsc_json_get_object (step_at (steps, i), "job");
          double v = nsc_json_get_number (job, kind == NSC_CHART_QD ? "block_size" : "queue_depth", -1);
          if (!tag_is (step_at (steps, i), tag, FALSE))
            continue;
          if (pattern && !g_str_equal (pattern, pattern_name (job)))
            same_pattern = FALSE;
          if (other >= 0 && other != v)
            same_other = FALSE;
          pattern = pattern_name (job);
          other = v;
        }
      if (pattern && same_pattern && same_other && kind == NSC_CHART_QD)
        {
          g_autofree char *bs = nsc_format_size_short ((guint64) other);
          return g_strdup_printf ("%s · %s %s", what, pattern, bs);
        }
      if (pattern && same_pattern && same_other)
        /* Translators: a chart title: "Speed by block size · Random, QD4"; QD is
         * the queue depth */
        return g_strdup_printf (_("%s · %s, QD%.0f"), what, pattern, other);
      if (pattern && same_pattern)
        return g_strdup_printf ("%s · %s", what, pattern);
    }
  if (preset && kind == NSC_CHART_MIXED && !g_str_equal (preset, what))
    return g_strdup_printf ("%s · %s", what, preset);
  return g_strdup (what);
}

/* ---- public API --------------------------------------------------------- */

static NscChart *
chart_new (NscChartKind kind)
{
  NscChart *chart = g_new0 (NscChart, 1);
  chart->kind = kind;
  chart->datasets = g_ptr_array_new_with_free_func (_nsc_chart_dataset_free);
  chart->step = G_MAXUINT;
  return chart;
}

NscChart *
nsc_chart_new_for_result (JsonNode     *result,
                          NscChartKind  kind,
                          guint         step,
                          GError      **error)
{
  g_autoptr(NscChart) chart = NULL;
  NscChartDataset *ds;
  g_autofree char *legend = NULL;

  g_return_val_if_fail ((guint) kind < NSC_CHART_N_KINDS, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                           _("The result is not a JSON object; open a result file that Nandscope saved"));
      return NULL;
    }
  chart = chart_new (kind);
  chart->step_requested = step;
  legend = default_legend (result);
  ds = _nsc_chart_dataset_new (legend);
  g_ptr_array_add (chart->datasets, ds);
  if (!build_dataset (ds, result, kind, &step, error))
    return NULL;
  chart->step = step;
  chart->title = make_title (result, kind, step);
  return g_steal_pointer (&chart);
}

gboolean
nsc_chart_add_result (NscChart   *chart,
                      JsonNode   *other,
                      const char *legend,
                      GError    **error)
{
  NscChartDataset *ds;
  g_autofree char *fallback = NULL;
  guint step;

  g_return_val_if_fail (chart != NULL && !chart->live, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (other == NULL || !JSON_NODE_HOLDS_OBJECT (other))
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                           _("The result is not a JSON object; open a result file that Nandscope saved"));
      return FALSE;
    }
  fallback = default_legend (other);
  ds = _nsc_chart_dataset_new (legend ? legend : fallback);
  /* The same step as the first result when it fits there, else its own best. */
  step = chart->step_requested;
  if (step != NSC_CHART_STEP_AUTO)
    {
      JsonArray *steps = result_steps (other);
      if (steps == NULL || step >= json_array_get_length (steps)
          || !step_fits (step_at (steps, step), chart->kind))
        step = NSC_CHART_STEP_AUTO;
    }
  if (!build_dataset (ds, other, chart->kind, &step, error))
    {
      _nsc_chart_dataset_free (ds);
      return FALSE;
    }
  g_ptr_array_add (chart->datasets, ds);
  return TRUE;
}

void
nsc_chart_set_legend (NscChart   *chart,
                      guint       dataset,
                      const char *legend)
{
  NscChartDataset *ds;
  g_return_if_fail (chart != NULL && dataset < chart->datasets->len);
  ds = g_ptr_array_index (chart->datasets, dataset);
  g_free (ds->legend);
  ds->legend = g_strdup (legend);
}

void
nsc_chart_set_title (NscChart   *chart,
                     const char *title)
{
  g_return_if_fail (chart != NULL);
  g_free (chart->title);
  chart->title = g_strdup (title);
}

const char *
nsc_chart_get_title (NscChart *chart)
{
  g_return_val_if_fail (chart != NULL, NULL);
  return chart->title;
}

const char *
nsc_chart_get_caption (NscChart *chart)
{
  g_return_val_if_fail (chart != NULL, NULL);
  return chart->caption;
}

void
nsc_chart_set_caption (NscChart   *chart,
                       const char *caption)
{
  g_return_if_fail (chart != NULL);
  g_free (chart->caption);
  chart->caption = g_strdup (caption);
}

NscChartKind
nsc_chart_get_kind (NscChart *chart)
{
  g_return_val_if_fail (chart != NULL, NSC_CHART_N_KINDS);
  return chart->kind;
}

guint
nsc_chart_get_n_datasets (NscChart *chart)
{
  g_return_val_if_fail (chart != NULL, 0);
  return chart->datasets->len;
}

NscChart *
nsc_chart_new_live (NscChartKind  kind,
                    const char   *title)
{
  NscChart *chart;
  g_return_val_if_fail (kind == NSC_CHART_WRITE_FILL || kind == NSC_CHART_POSITION
                        || kind == NSC_CHART_TIME, NULL);
  chart = chart_new (kind);
  chart->live = TRUE;
  chart->title = g_strdup (title);
  nsc_chart_live_clear (chart);
  return chart;
}

void
nsc_chart_live_clear (NscChart *chart)
{
  NscChartDataset *ds;
  NscChartLine *line;
  g_return_if_fail (chart != NULL && chart->live);
  g_ptr_array_set_size (chart->datasets, 0);
  ds = _nsc_chart_dataset_new (NULL);
  g_ptr_array_add (chart->datasets, ds);
  line = _nsc_chart_line_new (ds, NSC_CHART_LINE_SPEED);
  line->scatter = chart->kind == NSC_CHART_TIME;
}

void
nsc_chart_live_append (NscChart        *chart,
                       const NscSample *sample)
{
  NscChartDataset *ds;
  g_return_if_fail (chart != NULL && chart->live && sample != NULL);
  if (sample->duration_ns <= 0)
    return;
  ds = g_ptr_array_index (chart->datasets, 0);
  _nsc_chart_line_add (g_ptr_array_index (ds->lines, 0),
                       chart->kind == NSC_CHART_TIME ? sample->t_ns / 1e9
                                                     : (double) sample->position,
                       nsc_sample_bps (sample));
}

void
nsc_chart_live_append_temperature (NscChart *chart,
                                   gint64    t_ns,
                                   double    celsius)
{
  NscChartDataset *ds;
  NscChartLine *line;
  g_return_if_fail (chart != NULL && chart->live);
  if (chart->kind != NSC_CHART_TIME || !isfinite (celsius))
    return;
  ds = g_ptr_array_index (chart->datasets, 0);
  line = find_line (ds, NSC_CHART_LINE_TEMPERATURE, NSC_CHART_PATTERN_NONE, NULL);
  if (line == NULL)
    {
      line = _nsc_chart_line_new (ds, NSC_CHART_LINE_TEMPERATURE);
      line->secondary = TRUE;
    }
  _nsc_chart_line_add (line, t_ns / 1e9, celsius);
}

guint
nsc_chart_live_get_n_samples (NscChart *chart)
{
  NscChartDataset *ds;
  g_return_val_if_fail (chart != NULL && chart->live, 0);
  ds = g_ptr_array_index (chart->datasets, 0);
  return ((NscChartLine *) g_ptr_array_index (ds->lines, 0))->x->len;
}

void
nsc_chart_free (NscChart *chart)
{
  if (chart == NULL)
    return;
  g_ptr_array_unref (chart->datasets);
  g_free (chart->title);
  g_free (chart->caption);
  g_clear_pointer (&chart->texts, g_ptr_array_unref);
  g_clear_pointer (&chart->text_boxes, g_array_unref);
  g_free (chart->description);
  g_free (chart);
}

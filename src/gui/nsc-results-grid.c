/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "nsc-result-info.h"
#include "nsc-results-grid.h"
#include "nsc-words.h"

/* A CrystalDiskMark-like table: one row per test, read and write in MiB/s. */

#define EMPTY_TEXT "–"

typedef struct
{
  char       label[64];
  GtkWidget *cell[2];   /* NSC_DIR_READ, NSC_DIR_WRITE: the card */
  GtkWidget *value[2];  /* the number in it */
  gboolean   final[2];  /* holds a finished result, not a live value */
  gboolean   valued[2]; /* bw, iops and lat hold numbers (final or live) */
  double     bw[2];
  double     iops[2];
  double     lat[2];    /* mean, ns */
} Row;

struct _NscResultsGrid
{
  GtkWidget  parent_instance;

  GtkWidget *grid;
  GArray    *rows;       /* Row */
  NscUnits   units;
  GtkWidget *unit_labels[2];

  /* The running step's current run, summed: its live value is the average so
   * far, which neither jumps with every interval nor with a short last one. */
  guint      live_run;
  guint64    live_bytes[2];
  guint64    live_ios[2];
  guint64    live_lat_ns[2];
  gint64     live_ns;
};

G_DEFINE_FINAL_TYPE (NscResultsGrid, nsc_results_grid, GTK_TYPE_WIDGET)

/* Three significant figures at least, as the CrystalDiskMark table shows. */
static char *
format_value (NscResultsGrid *self,
              Row            *row,
              guint           d)
{
  return nsc_units_format (self->units, row->bw[d], row->iops[d], row->lat[d]);
}

static char *
format_tooltip (Row      *row,
                guint     d,
                guint     runs,
                gboolean  best)
{
  g_autofree char *mib = nsc_words_speed (row->bw[d], NSC_UNITS_MIB);
  g_autofree char *mb = nsc_words_speed (row->bw[d], NSC_UNITS_MB);

  if (runs > 1 && best)
    /* TRANSLATORS: two speeds ("412 MiB/s", "432 MB/s"), IOPS, a latency; the best
     * run is shown as CrystalDiskMark shows it */
    return g_strdup_printf (_("%s, %s, %.0f IOPS, %.1f µs mean latency: "
                              "the best of %u runs, as CrystalDiskMark shows"),
                            mib, mb, row->iops[d],
                            row->lat[d] / 1e3, runs);
  if (runs > 1)
    return g_strdup_printf (_("%s, %s, %.0f IOPS, %.1f µs mean latency: "
                              "the median of %u runs"),
                            mib, mb, row->iops[d],
                            row->lat[d] / 1e3, runs);
  return g_strdup_printf (_("%s, %s, %.0f IOPS, %.1f µs mean latency"),
                          mib, mb, row->iops[d],
                          row->lat[d] / 1e3);
}

/* A cell's tooltip: its numbers, and for a test stopped before its end (greyed)
 * why it is greyed. The same live and reopened. */
static char *
cell_tooltip (Row      *row,
              guint     d,
              guint     runs,
              gboolean  best,
              gboolean  completed)
{
  g_autofree char *numbers = format_tooltip (row, d, runs, best);

  if (completed)
    return g_steal_pointer (&numbers);
  /* TRANSLATORS: a greyed result cell's tooltip: its numbers, then why it is greyed */
  return g_strdup_printf (_("%s\nStopped before the end: a partial measurement"), numbers);
}

static char *
describe_job (const NscJob *job)
{
  g_autofree char *bs = nsc_words_size (job->block_size);
  const char *pattern = job->pattern == NSC_PATTERN_RANDOM ? _("Random") : _("Sequential");

  /* TRANSLATORS: e.g. "Sequential, 1 MiB blocks, queue depth 8, 1 thread" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s, %s blocks, queue depth %u, %u thread",
                                       "%s, %s blocks, queue depth %u, %u threads",
                                       job->workers),
                          pattern, bs, job->queue_depth, job->workers);
}

static Row *
find_row (NscResultsGrid *self,
          const char     *label)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);
      if (g_str_equal (row->label, label))
        return row;
    }
  return NULL;
}

static Row *
find_row_for_job (NscResultsGrid *self,
                  const NscJob   *job)
{
  char scratch[64];
  return find_row (self, nsc_job_get_label (job, scratch, sizeof scratch));
}

static void
set_cell (Row        *row,
          guint       dir,
          const char *text,
          const char *state,
          const char *tooltip)
{
  static const char *states[] = { "running", "partial", "failed" };
  const char *old_tooltip = gtk_widget_get_tooltip_text (row->cell[dir]);

  /* A live cell gets the same state and tooltip with every sample: only what
   * changed is set, so that a sample costs no relayout of the grid. */
  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (row->value[dir])), text) != 0)
    gtk_label_set_text (GTK_LABEL (row->value[dir]), text);
  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    {
      gboolean want = g_strcmp0 (state, states[i]) == 0;

      if (want == gtk_widget_has_css_class (row->cell[dir], states[i]))
        continue;
      if (want)
        gtk_widget_add_css_class (row->cell[dir], states[i]);
      else
        gtk_widget_remove_css_class (row->cell[dir], states[i]);
    }
  if (g_strcmp0 (old_tooltip, tooltip) != 0)
    gtk_widget_set_tooltip_text (row->cell[dir], tooltip);
}

static GtkWidget *
make_column_header (NscResultsGrid *self,
                    guint           d,
                    const char     *title)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *name = gtk_label_new (title);
  GtkWidget *unit = gtk_label_new (nsc_units_label (self->units));

  self->unit_labels[d] = unit;

  gtk_widget_add_css_class (name, "column-title");
  gtk_widget_add_css_class (unit, "caption");
  gtk_widget_add_css_class (unit, "dim-label");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), unit);
  return box;
}

static void
clear_grid (NscResultsGrid *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->grid)))
    gtk_grid_remove (GTK_GRID (self->grid), child);
  g_array_set_size (self->rows, 0);
  self->unit_labels[0] = self->unit_labels[1] = NULL;
}

static void
add_header (NscResultsGrid *self)
{
  gtk_grid_attach (GTK_GRID (self->grid), make_column_header (self, 0, _("Read")), 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (self->grid), make_column_header (self, 1, _("Write")), 2, 0, 1, 1);
}

/* A column no test of the set can fill (reads in write-fill) is left out, not shown
 * empty; with neither known (no rows), both stay. */
static void
show_columns (NscResultsGrid *self,
              const gboolean  used[2])
{
  gboolean any = used[0] || used[1];

  for (guint d = 0; d < 2; d++)
    {
      gboolean show = !any || used[d];
      GtkWidget *header = gtk_grid_get_child_at (GTK_GRID (self->grid), 1 + d, 0);

      if (header)
        gtk_widget_set_visible (header, show);
      for (guint i = 0; i < self->rows->len; i++)
        gtk_widget_set_visible (g_array_index (self->rows, Row, i).cell[d], show);
    }
}

static Row *
add_row (NscResultsGrid *self,
         const char     *label,
         const char     *tooltip)
{
  GtkWidget *name;
  Row row = { 0 };
  guint y = self->rows->len + 1;

  g_strlcpy (row.label, label, sizeof row.label);
  name = gtk_label_new (nsc_words_test_label (label));
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  /* "SEQ1M Q8T1 settled" takes two lines on a narrow screen. */
  gtk_label_set_wrap (GTK_LABEL (name), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (name), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (name, "test-name");
  gtk_widget_set_tooltip_text (name, tooltip);
  gtk_grid_attach (GTK_GRID (self->grid), name, 0, y, 1, 1);

  for (guint d = 0; d < 2; d++)
    {
      row.cell[d] = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      gtk_widget_add_css_class (row.cell[d], "card");
      gtk_widget_add_css_class (row.cell[d], "result-cell");
      gtk_widget_set_hexpand (row.cell[d], TRUE);
      row.value[d] = gtk_label_new (EMPTY_TEXT);
      gtk_label_set_xalign (GTK_LABEL (row.value[d]), 1);
      gtk_widget_add_css_class (row.value[d], "result-value");
      gtk_box_append (GTK_BOX (row.cell[d]), row.value[d]);
      gtk_grid_attach (GTK_GRID (self->grid), row.cell[d], 1 + d, y, 1, 1);
    }
  g_array_append_val (self->rows, row);
  return &g_array_index (self->rows, Row, self->rows->len - 1);
}

/**
 * nsc_results_grid_show_result:
 * Shows a saved result (schema 1): one row per test, its headline values.
 */
void
nsc_results_grid_show_result (NscResultsGrid *self,
                              JsonNode       *result)
{
  g_autoptr(GPtrArray) rows = NULL;
  guint runs = 1;
  gboolean best = FALSE;
  gboolean used[2] = { FALSE, FALSE };

  g_return_if_fail (NSC_IS_RESULTS_GRID (self));
  g_return_if_fail (result != NULL);

  clear_grid (self);
  add_header (self);
  rows = nsc_result_info_rows (result);
  {
    JsonObject *conditions = json_object_get_object_member (json_node_get_object (result),
                                                            "conditions");
    if (conditions && json_object_has_member (conditions, "runs"))
      runs = (guint) json_object_get_int_member (conditions, "runs");
    if (conditions)
      best = g_strcmp0 (json_object_get_string_member_with_default (conditions, "headline",
                                                                    "median"), "best") == 0;
  }
  for (guint i = 0; i < rows->len; i++)
    {
      NscResultRow *info = g_ptr_array_index (rows, i);
      Row *row = add_row (self, info->label, info->description);

      used[0] |= info->has[0];
      used[1] |= info->has[1];
      for (guint d = 0; d < 2; d++)
        {
          g_autofree char *text = NULL;
          g_autofree char *tooltip = NULL;

          if (!info->has[d])
            continue;
          if (info->bw_bps[d] <= 0)
            {
              set_cell (row, d, EMPTY_TEXT, NULL, _("Not measured"));
              continue;
            }
          row->bw[d] = info->bw_bps[d];
          row->iops[d] = info->iops[d];
          row->lat[d] = info->lat_mean_ns[d];
          row->valued[d] = row->final[d] = TRUE;
          text = format_value (self, row, d);
          tooltip = cell_tooltip (row, d, runs, best, info->completed);
          set_cell (row, d, text, info->completed ? NULL : "partial", tooltip);
        }
    }
  show_columns (self, used);
}

void
nsc_results_grid_set_units (NscResultsGrid *self,
                            NscUnits        units)
{
  g_return_if_fail (NSC_IS_RESULTS_GRID (self));

  if (self->units == units)
    return;
  self->units = units;
  for (guint d = 0; d < 2; d++)
    if (self->unit_labels[d])
      gtk_label_set_text (GTK_LABEL (self->unit_labels[d]), nsc_units_label (units));
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);

      for (guint d = 0; d < 2; d++)
        if (row->valued[d])
          {
            g_autofree char *text = format_value (self, row, d);
            gtk_label_set_text (GTK_LABEL (row->value[d]), text);
          }
    }
}

void
nsc_results_grid_set_preset (NscResultsGrid  *self,
                             const NscPreset *preset)
{
  gboolean used[2] = { FALSE, FALSE };

  g_return_if_fail (NSC_IS_RESULTS_GRID (self));
  g_return_if_fail (preset != NULL);

  clear_grid (self);

  add_header (self);

  for (guint i = 0; i < preset->steps->len; i++)
    {
      const NscStep *step = &g_array_index (preset->steps, NscStep, i);
      g_autofree char *tooltip = NULL;
      char scratch[64];
      const char *label;

      if (step->kind != NSC_STEP_JOB)
        continue;
      label = nsc_job_get_label (&step->job, scratch, sizeof scratch);
      if (find_row (self, label))
        continue;
      tooltip = describe_job (&step->job);
      add_row (self, label, tooltip);
      used[0] |= nsc_job_has_reads (&step->job);
      used[1] |= nsc_job_has_writes (&step->job);
    }
  show_columns (self, used);
}

void
nsc_results_grid_step_started (NscResultsGrid *self,
                               const NscStep  *step)
{
  Row *row;

  g_return_if_fail (NSC_IS_RESULTS_GRID (self));

  if (step->kind != NSC_STEP_JOB || !(row = find_row_for_job (self, &step->job)))
    return;
  self->live_run = 0;
  self->live_bytes[0] = self->live_bytes[1] = 0;
  self->live_ios[0] = self->live_ios[1] = 0;
  self->live_lat_ns[0] = self->live_lat_ns[1] = 0;
  self->live_ns = 0;
  if (nsc_job_has_reads (&step->job))
    set_cell (row, NSC_DIR_READ, EMPTY_TEXT, "running", _("Measuring now"));
  if (nsc_job_has_writes (&step->job))
    set_cell (row, NSC_DIR_WRITE, EMPTY_TEXT, "running", _("Measuring now"));
}

void
nsc_results_grid_add_sample (NscResultsGrid  *self,
                             const NscStep   *step,
                             guint            run,
                             const NscSample *sample)
{
  Row *row;

  g_return_if_fail (NSC_IS_RESULTS_GRID (self));

  if (step->kind != NSC_STEP_JOB || sample->duration_ns <= 0
      || !(row = find_row_for_job (self, &step->job)))
    return;

  if (run != self->live_run)
    {
      self->live_run = run;
      self->live_bytes[0] = self->live_bytes[1] = 0;
      self->live_ios[0] = self->live_ios[1] = 0;
      self->live_lat_ns[0] = self->live_lat_ns[1] = 0;
      self->live_ns = 0;
    }
  /* A mixed job has both directions in one sample; a pure one has all of
   * nsc_sample_bps() in its own. */
  self->live_bytes[0] += sample->bytes[0];
  self->live_bytes[1] += sample->bytes[1];
  for (guint d = 0; d < 2; d++)
    {
      self->live_ios[d] += sample->ios[d];
      self->live_lat_ns[d] += sample->lat_sum_ns[d];
    }
  self->live_ns += sample->duration_ns;

  for (guint d = 0; d < 2; d++)
    {
      gboolean wanted = d == NSC_DIR_READ ? nsc_job_has_reads (&step->job)
                                          : nsc_job_has_writes (&step->job);
      g_autofree char *text = NULL;

      if (!wanted)
        continue;
      row->bw[d] = self->live_bytes[d] * 1e9 / self->live_ns;
      row->iops[d] = self->live_ios[d] * 1e9 / self->live_ns;
      row->lat[d] = self->live_ios[d] ? (double) self->live_lat_ns[d] / self->live_ios[d] : 0;
      row->valued[d] = TRUE;
      text = format_value (self, row, d);
      set_cell (row, d, text, "running", _("Measuring now: the average of this run so far"));
    }
}

void
nsc_results_grid_step_finished (NscResultsGrid      *self,
                                const NscStepResult *result)
{
  const NscJobResult *head;
  Row *row;

  g_return_if_fail (NSC_IS_RESULTS_GRID (self));

  if (result->step.kind != NSC_STEP_JOB || !(row = find_row_for_job (self, &result->step.job)))
    return;

  head = nsc_step_result_headline (result);
  for (guint d = 0; d < 2; d++)
    {
      gboolean wanted = d == NSC_DIR_READ ? nsc_job_has_reads (&result->step.job)
                                          : nsc_job_has_writes (&result->step.job);
      g_autofree char *text = NULL;
      g_autofree char *tooltip = NULL;

      if (!wanted)
        continue;
      if (head == NULL || head->dir[d].ios == 0)
        {
          set_cell (row, d, EMPTY_TEXT, result->error ? "failed" : NULL,
                    result->error ? result->error : _("Not measured"));
          row->final[d] = row->valued[d] = FALSE;
          continue;
        }

      row->bw[d] = head->dir[d].bw_bps;
      row->iops[d] = head->dir[d].iops;
      row->lat[d] = head->dir[d].latency ? nsc_histogram_mean (head->dir[d].latency) : 0;
      row->valued[d] = TRUE;
      text = format_value (self, row, d);
      tooltip = cell_tooltip (row, d, result->runs->len, result->headline_best, result->completed);
      set_cell (row, d, text, result->completed ? NULL : "partial", tooltip);
      row->final[d] = TRUE;
    }
}

void
nsc_results_grid_stop (NscResultsGrid *self)
{
  g_return_if_fail (NSC_IS_RESULTS_GRID (self));

  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);

      for (guint d = 0; d < 2; d++)
        if (!row->final[d] && gtk_widget_has_css_class (row->cell[d], "running"))
          {
            set_cell (row, d, EMPTY_TEXT, NULL, _("Not measured"));
            row->valued[d] = FALSE;
          }
    }
}

static void
nsc_results_grid_dispose (GObject *object)
{
  NscResultsGrid *self = NSC_RESULTS_GRID (object);

  g_clear_pointer (&self->grid, gtk_widget_unparent);

  G_OBJECT_CLASS (nsc_results_grid_parent_class)->dispose (object);
}

static void
nsc_results_grid_finalize (GObject *object)
{
  NscResultsGrid *self = NSC_RESULTS_GRID (object);

  g_clear_pointer (&self->rows, g_array_unref);

  G_OBJECT_CLASS (nsc_results_grid_parent_class)->finalize (object);
}

static void
nsc_results_grid_class_init (NscResultsGridClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nsc_results_grid_dispose;
  object_class->finalize = nsc_results_grid_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "nscresultsgrid");
}

static void
nsc_results_grid_init (NscResultsGrid *self)
{
  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  self->grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (self->grid), 12);
  gtk_grid_set_column_spacing (GTK_GRID (self->grid), 12);
  gtk_widget_set_parent (self->grid, GTK_WIDGET (self));
}

GtkWidget *
nsc_results_grid_new (void)
{
  return g_object_new (NSC_TYPE_RESULTS_GRID, NULL);
}

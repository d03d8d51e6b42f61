/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "nsc-chart-panel.h"
#include "nsc-engine.h"
#include "nsc-sheet.h"
#include "nsc-display.h"

/* Exports are made at this size: sharp in a review, readable on a phone. */
#define EXPORT_WIDTH  1600
#define EXPORT_HEIGHT 900

struct _NscChartPanel
{
  GtkWidget      parent_instance;

  GtkWidget     *box;
  GtkWidget     *title_label;
  GtkWidget     *kind_dropdown;
  GtkWidget     *step_dropdown;
  GArray        *steps;         /* guint step index offered, NSC_CHART_STEP_AUTO first */
  GtkWidget     *export_button;
  NscChartView  *view;

  GPtrArray     *results;       /* JsonNode */
  GPtrArray     *paths;         /* char *, may hold NULL */
  GArray        *kinds;         /* NscChartKind offered, in the drop-down's order */
  NscUnits       units;
  gboolean       export_dark;
  gboolean       live;
  gboolean       updating;
  guint          chosen_step;   /* the test picked in the chooser; NSC_CHART_STEP_AUTO: none */

  GtkNativeDialog *chooser;
  char          *chooser_what;  /* "png", "svg", "json" */
};

G_DEFINE_FINAL_TYPE (NscChartPanel, nsc_chart_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_EXPORT_DARK,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_MESSAGE,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

const char *
nsc_chart_kind_display_name (NscChartKind kind)
{
  switch (kind)
    {
    case NSC_CHART_WRITE_FILL:
      return _("Write-fill");
    case NSC_CHART_POSITION:
      /* TRANSLATORS: a chart: speed against the place on the drive */
      return _("Speed across the drive");
    case NSC_CHART_QD:
      return _("Queue depth");
    case NSC_CHART_BS:
      return _("Block size");
    case NSC_CHART_TIME:
      return _("Speed over time");
    case NSC_CHART_MIXED:
      return _("Mixed load");
    case NSC_CHART_LATENCY:
      return _("Latency");
    case NSC_CHART_MAP:
      /* TRANSLATORS: a chart: the quick probe's places, kept or lost */
      return _("Probe's map");
    case NSC_CHART_N_KINDS:
    default:
      return "";
    }
}

/* The folder the last chart or result was saved in, for the next save (this session). */
static char *last_save_folder;

static void saved_toast (NscChartPanel *self,
                         const char    *path);

static void
message (NscChartPanel *self,
         const char    *text)
{
  g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, text);
}

static NscUnits
chart_units (NscChartPanel *self)
{
  return self->units == NSC_UNITS_MB ? NSC_UNITS_MB : NSC_UNITS_MIB;
}

static void
update_actions (NscChartPanel *self)
{
  gboolean have_results = self->results->len > 0 && !self->live;
  gboolean have_chart = nsc_chart_view_get_chart (self->view) != NULL && have_results;
  gboolean one = self->paths->len == 1 && g_ptr_array_index (self->paths, 0) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chart.export-png", have_chart);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chart.export-svg", have_chart);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chart.save-json", have_results && one);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chart.copy-text", have_results);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chart.export-sheet", have_results);
  gtk_widget_set_visible (self->export_button, have_results);
}

static guint
selected_step (NscChartPanel *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->step_dropdown));

  if (!gtk_widget_get_visible (self->step_dropdown) || selected >= self->steps->len)
    return NSC_CHART_STEP_AUTO;
  return g_array_index (self->steps, guint, selected);
}

static gboolean
kind_per_step (NscChartKind kind)
{
  return kind == NSC_CHART_WRITE_FILL || kind == NSC_CHART_POSITION || kind == NSC_CHART_TIME
         || kind == NSC_CHART_LATENCY;
}

/* The tests a per-step chart can show, for the second drop-down: every step the
 * renderer accepts for @kind. */
static void
fill_steps (NscChartPanel *self,
            NscChartKind   kind)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  JsonNode *result = g_ptr_array_index (self->results, 0);
  JsonObject *root = json_node_get_object (result);
  JsonArray *steps = json_object_has_member (root, "steps")
                     ? json_object_get_array_member (root, "steps") : NULL;
  guint auto_step = NSC_CHART_STEP_AUTO;

  g_array_set_size (self->steps, 0);
  g_array_append_val (self->steps, auto_step);
  gtk_string_list_append (names, _("Most telling test"));

  /* In a comparison the others show the same test where they have it. */
  for (guint i = 0; steps && kind_per_step (kind) && i < json_array_get_length (steps); i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);
      JsonObject *job = step && json_object_has_member (step, "job")
                        ? json_object_get_object_member (step, "job") : NULL;
      g_autoptr(NscChart) chart = NULL;
      g_autofree char *name = NULL;
      const char *label;
      double read_percent;

      if (job == NULL || !json_object_has_member (step, "label"))
        continue;
      chart = nsc_chart_new_for_result (result, kind, i, NULL);
      if (chart == NULL)
        continue;
      label = nsc_words_test_label (json_object_get_string_member (step, "label"));
      read_percent = json_object_has_member (job, "read_percent")
                     ? json_object_get_double_member (job, "read_percent") : 100;
      /* TRANSLATORS: "SEQ1M Q8T1 · read" in the chart's test chooser */
      name = g_strdup_printf (_("%s · %s"), label,
                              read_percent >= 100 ? _("read")
                                                  : read_percent <= 0 ? _("write") : _("mixed"));
      g_array_append_val (self->steps, i);
      gtk_string_list_append (names, name);
    }

  self->updating = TRUE;
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->step_dropdown), G_LIST_MODEL (names));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->step_dropdown), 0);
  for (guint i = 0; i < self->steps->len; i++)
    if (g_array_index (self->steps, guint, i) == self->chosen_step)
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->step_dropdown), i);
  self->updating = FALSE;
  /* "Most telling" and one test are the same chart: no choice to offer. */
  gtk_widget_set_visible (self->step_dropdown, self->steps->len > 2);
}

/* "Samsung 980 PRO · 30 Nov 06:18", with the seconds when two would read alike. */
static GPtrArray *
make_legends (NscChartPanel *self)
{
  GPtrArray *legends = g_ptr_array_new_with_free_func (g_free);

  for (guint pass = 0; pass < 2; pass++)
    {
      gboolean unique = TRUE;

      g_ptr_array_set_size (legends, 0);
      for (guint i = 0; i < self->results->len; i++)
        {
          JsonNode *result = g_ptr_array_index (self->results, i);
          g_autofree char *drive = nsc_result_info_drive (result);
          g_autoptr(GDateTime) started = nsc_result_info_started (result);
          g_autofree char *date = started ? nsc_words_date (started, pass == 1) : g_strdup ("");
          g_autofree char *marks = nsc_result_info_marks (result);
          char *legend = marks ? g_strdup_printf ("%s · %s (%s)", drive, date, marks)
                               : g_strdup_printf ("%s · %s", drive, date);

          for (guint j = 0; j < legends->len; j++)
            unique &= g_strcmp0 (g_ptr_array_index (legends, j), legend) != 0;
          g_ptr_array_add (legends, legend);
        }
      if (unique)
        break;
    }
  return legends;
}

GPtrArray *
nsc_chart_panel_get_legends (NscChartPanel *self)
{
  g_return_val_if_fail (NSC_IS_CHART_PANEL (self), NULL);
  return make_legends (self);
}

static NscChart *
build_chart (NscChartPanel  *self,
             NscChartKind    kind,
             GError        **error)
{
  g_autoptr(NscChart) chart = NULL;
  g_autoptr(GPtrArray) legends = NULL;

  g_assert (self->results->len > 0);
  chart = nsc_chart_new_for_result (g_ptr_array_index (self->results, 0), kind,
                                    selected_step (self), error);
  if (chart == NULL)
    return NULL;
  {
    /* The essentials of the test bench go with an exported chart (a comparison's:
     * the first result's), as the command line's. */
    g_autofree char *caption = nsc_result_info_caption (g_ptr_array_index (self->results, 0));
    nsc_chart_set_caption (chart, caption);
  }
  if (self->results->len == 1)
    return g_steal_pointer (&chart);

  legends = make_legends (self);
  nsc_chart_set_legend (chart, 0, g_ptr_array_index (legends, 0));
  for (guint i = 1; i < self->results->len; i++)
    if (!nsc_chart_add_result (chart, g_ptr_array_index (self->results, i),
                               g_ptr_array_index (legends, i), error))
      return NULL;
  return g_steal_pointer (&chart);
}

static void show_selected (NscChartPanel *self);

static void
on_kind_selected (NscChartPanel *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->kind_dropdown));

  if (self->updating || self->live || selected >= self->kinds->len)
    return;
  fill_steps (self, g_array_index (self->kinds, NscChartKind, selected));
  show_selected (self);
}

/* The user picked a test: it stays picked when the chart kind changes. */
static void
on_step_selected (NscChartPanel *self)
{
  if (self->updating || self->live)
    return;
  self->chosen_step = selected_step (self);
  show_selected (self);
}

static void
show_selected (NscChartPanel *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->kind_dropdown));
  g_autoptr(GError) error = NULL;
  NscChart *chart;

  if (self->updating || self->live || selected >= self->kinds->len)
    return;
  chart = build_chart (self, g_array_index (self->kinds, NscChartKind, selected), &error);
  if (chart == NULL)
    message (self, error->message);
  nsc_chart_view_set_chart (self->view, chart);
  update_actions (self);
}

void
nsc_chart_panel_show_live (NscChartPanel *self,
                           NscChartKind   kind,
                           const char    *title)
{
  g_return_if_fail (NSC_IS_CHART_PANEL (self));

  self->live = TRUE;
  gtk_widget_set_visible (self->kind_dropdown, FALSE);
  gtk_widget_set_visible (self->step_dropdown, FALSE);
  gtk_widget_set_visible (self->title_label, TRUE);
  nsc_chart_view_set_chart (self->view, nsc_chart_new_live (kind, title));
  update_actions (self);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

void
nsc_chart_panel_append (NscChartPanel   *self,
                        const NscSample *sample)
{
  g_return_if_fail (NSC_IS_CHART_PANEL (self));

  if (self->live)
    nsc_chart_view_append (self->view, sample);
}

void
nsc_chart_panel_clear (NscChartPanel *self)
{
  g_return_if_fail (NSC_IS_CHART_PANEL (self));

  self->live = FALSE;
  self->chosen_step = NSC_CHART_STEP_AUTO;
  gtk_widget_set_visible (self->title_label, FALSE);
  g_ptr_array_set_size (self->results, 0);
  g_ptr_array_set_size (self->paths, 0);
  g_array_set_size (self->kinds, 0);
  g_array_set_size (self->steps, 0);
  gtk_widget_set_visible (self->step_dropdown, FALSE);
  nsc_chart_view_set_chart (self->view, NULL);
  update_actions (self);
}

gboolean
nsc_chart_panel_set_results (NscChartPanel  *self,
                             GPtrArray      *results,
                             GPtrArray      *paths,
                             GError        **error)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autofree NscChartKind *kinds = NULL;
  guint n_kinds = 0;
  guint preferred = 0;

  g_return_val_if_fail (NSC_IS_CHART_PANEL (self), FALSE);
  g_return_val_if_fail (results != NULL && results->len > 0, FALSE);

  nsc_chart_panel_clear (self);
  for (guint i = 0; i < results->len; i++)
    {
      g_ptr_array_add (self->results, json_node_ref (g_ptr_array_index (results, i)));
      g_ptr_array_add (self->paths, g_strdup (paths && i < paths->len ? g_ptr_array_index (paths, i)
                                                                     : NULL));
    }

  /* The kinds the first result has that every other one has too. */
  kinds = nsc_chart_kinds_for_result (g_ptr_array_index (results, 0), &n_kinds);
  for (guint k = 0; k < n_kinds; k++)
    {
      gboolean everywhere = TRUE;

      for (guint i = 1; i < results->len && everywhere; i++)
        {
          guint n_other = 0;
          g_autofree NscChartKind *other = nsc_chart_kinds_for_result (g_ptr_array_index (results, i),
                                                                       &n_other);
          everywhere = FALSE;
          for (guint j = 0; j < n_other; j++)
            everywhere |= other[j] == kinds[k];
        }
      if (!everywhere)
        continue;
      g_array_append_val (self->kinds, kinds[k]);
      gtk_string_list_append (names, nsc_chart_kind_display_name (kinds[k]));
    }

  if (self->kinds->len == 0)
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_NOT_FOUND,
                           results->len > 1 ? _("These results have no chart in common")
                                            : _("This result has no data to chart"));
      update_actions (self);
      return FALSE;
    }

  /* Write-fill is what the reviews lead with; else the sweeps, else the first. */
  for (guint k = 0; k < self->kinds->len; k++)
    if (g_array_index (self->kinds, NscChartKind, k) == NSC_CHART_WRITE_FILL)
      {
        preferred = k;
        break;
      }

  self->updating = TRUE;
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->kind_dropdown), G_LIST_MODEL (names));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->kind_dropdown), preferred);
  self->updating = FALSE;
  gtk_widget_set_visible (self->kind_dropdown, TRUE);
  gtk_widget_set_sensitive (self->kind_dropdown, self->kinds->len > 1);
  on_kind_selected (self);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  return nsc_chart_view_get_chart (self->view) != NULL
         || (g_set_error_literal (error, NSC_ERROR, NSC_ERROR_FAILED, _("The chart could not be drawn")),
             FALSE);
}

gboolean
nsc_chart_panel_select_kind (NscChartPanel *self,
                             NscChartKind   kind)
{
  g_return_val_if_fail (NSC_IS_CHART_PANEL (self), FALSE);

  for (guint k = 0; k < self->kinds->len; k++)
    if (g_array_index (self->kinds, NscChartKind, k) == kind)
      {
        self->updating = TRUE;
        gtk_drop_down_set_selected (GTK_DROP_DOWN (self->kind_dropdown), k);
        self->updating = FALSE;
        on_kind_selected (self);
        return TRUE;
      }
  return FALSE;
}

void
nsc_chart_panel_set_units (NscChartPanel *self,
                           NscUnits       units)
{
  g_return_if_fail (NSC_IS_CHART_PANEL (self));

  self->units = units;
  nsc_chart_view_set_units (self->view, chart_units (self));
}

NscChartView *
nsc_chart_panel_get_view (NscChartPanel *self)
{
  g_return_val_if_fail (NSC_IS_CHART_PANEL (self), NULL);
  return self->view;
}

gboolean
nsc_chart_panel_export (NscChartPanel  *self,
                        const char     *path,
                        int             width,
                        int             height,
                        gboolean        dark,
                        GError        **error)
{
  NscChart *chart;
  NscChartStyle style;

  g_return_val_if_fail (NSC_IS_CHART_PANEL (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  chart = nsc_chart_view_get_chart (self->view);
  if (chart == NULL)
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_NOT_FOUND, _("There is no chart to export"));
      return FALSE;
    }
  nsc_chart_style_init (&style, dark);
  style.units = chart_units (self);
  style.caption = TRUE;
  return nsc_chart_export_with_style (chart, path, width, height, &style, error);
}

gboolean
nsc_chart_panel_export_sheet (NscChartPanel  *self,
                              const char     *path,
                              gboolean        dark,
                              GError        **error)
{
  g_autoptr(NscSheet) sheet = NULL;
  NscChartStyle style;
  gboolean png;

  g_return_val_if_fail (NSC_IS_CHART_PANEL (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->results->len == 0)
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_NOT_FOUND, _("There is no result to export"));
      return FALSE;
    }
  sheet = nsc_sheet_new (g_ptr_array_index (self->results, 0), error);
  for (guint i = 1; sheet && i < self->results->len; i++)
    if (!nsc_sheet_add_result (sheet, g_ptr_array_index (self->results, i), NULL, error))
      return FALSE;
  if (sheet == NULL)
    return FALSE;
  nsc_chart_style_init (&style, dark);
  style.units = chart_units (self);
  png = nsc_sheet_path_is_png (path);
  /* A PNG at twice the pixels: sharp on HiDPI screens and in print. */
  return nsc_sheet_export (sheet, path, NSC_SHEET_LAYOUT_A4, &style, png ? 2 : 1, error);
}

char *
nsc_chart_panel_get_text (NscChartPanel *self)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (NSC_IS_CHART_PANEL (self), NULL);

  for (guint i = 0; i < self->results->len; i++)
    {
      g_autofree char *one = nsc_result_info_to_text (g_ptr_array_index (self->results, i),
                                                      self->units);
      if (i > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, one);
    }
  return g_string_free (text, FALSE);
}

/* ---- export actions ------------------------------------------------------- */

static char *
suggested_name (NscChartPanel *self,
                const char    *extension)
{
  JsonNode *first = g_ptr_array_index (self->results, 0);
  g_autofree char *drive = nsc_result_info_drive (first);
  g_autoptr(GDateTime) started = nsc_result_info_started (first);
  g_autofree char *date = started ? g_date_time_format (started, "%Y-%m-%d") : g_strdup ("result");
  NscChart *chart = nsc_chart_view_get_chart (self->view);
  const char *kind = chart && g_strcmp0 (extension, "json") != 0
                     ? nsc_chart_kind_to_string (nsc_chart_get_kind (chart)) : NULL;
  g_autofree char *name = NULL;

  g_strdelimit (drive, " /\\:", '-');
  if (g_str_equal (extension, "sheet"))
    return g_strdup_printf ("%s-%s-review-sheet.pdf", drive, date);
  name = kind ? g_strdup_printf ("%s-%s-%s.%s", drive, date, kind, extension)
              : g_strdup_printf ("%s-%s.%s", drive, date, extension);
  return g_steal_pointer (&name);
}

static void
on_chooser_response (GtkNativeDialog *native,
                     int              response,
                     NscChartPanel   *self)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok = FALSE;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      path = file ? g_file_get_path (file) : NULL;
    }
  if (path != NULL && g_strcmp0 (self->chooser_what, "json") == 0)
    {
      const char *source = g_ptr_array_index (self->paths, 0);
      g_autoptr(GFile) from = g_file_new_for_path (source);

      ok = g_file_copy (from, file, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &error);
    }
  else if (path != NULL && g_strcmp0 (self->chooser_what, "sheet") == 0)
    {
      /* The format follows the name; a name without one gets a PDF. */
      if (!nsc_sheet_path_is_supported (path))
        {
          char *pdf = g_strconcat (path, ".pdf", NULL);
          g_free (path);
          path = pdf;
        }
      ok = nsc_chart_panel_export_sheet (self, path, self->export_dark, &error);
    }
  else if (path != NULL)
    ok = nsc_chart_panel_export (self, path, EXPORT_WIDTH, EXPORT_HEIGHT, self->export_dark, &error);

  if (path != NULL)
    {
      g_free (last_save_folder);
      last_save_folder = g_path_get_dirname (path);
    }
  if (path != NULL && ok)
    saved_toast (self, path);
  else if (path != NULL)
    {
      g_autofree char *name = g_filename_display_basename (path);
      g_autofree char *text = g_strdup_printf (_("Could not save %s: %s"), name, error->message);
      message (self, text);
    }
  gtk_native_dialog_destroy (native);
  g_clear_object (&self->chooser);
}

static void
open_saved (GtkButton  *button,
            const char *path)
{
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (button));

  if (uri != NULL)
    gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME);
}

static void
on_shown_in_folder (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autofree char *path = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result,
                                                             &error);

  /* No file manager that selects files: open the folder. */
  if (reply == NULL)
    {
      g_autofree char *dir = g_path_get_dirname (path);
      g_autofree char *uri = g_filename_to_uri (dir, NULL, NULL);
      GApplication *app = g_application_get_default ();
      GtkWindow *window = GTK_IS_APPLICATION (app)
                          ? gtk_application_get_active_window (GTK_APPLICATION (app)) : NULL;

      if (uri != NULL)
        gtk_show_uri (window, uri, GDK_CURRENT_TIME);
    }
}

/* The file manager opens the folder with the file selected (FileManager1). */
static void
show_saved_in_folder (GtkButton  *button,
                      const char *path)
{
  GDBusConnection *bus = g_application_get_dbus_connection (g_application_get_default ());
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  const char *uris[] = { uri, NULL };

  if (bus == NULL || uri == NULL)
    {
      on_shown_in_folder (NULL, NULL, g_strdup (path));
      return;
    }
  g_dbus_connection_call (bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
                          "org.freedesktop.FileManager1", "ShowItems",
                          g_variant_new ("(^ass)", uris, ""), NULL, G_DBUS_CALL_FLAGS_NONE, 5000,
                          NULL, on_shown_in_folder, g_strdup (path));
}

/* "Saved to ~/Pictures/chart.png  [Open] [Show in Folder]" */
static void
saved_toast (NscChartPanel *self,
             const char    *path)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);
  g_autofree char *where = nsc_display_path (path);
  g_autofree char *text = g_strdup_printf (_("Saved to %s"), where);
  GtkWidget *box, *label, *open, *show;
  AdwToast *toast;

  if (overlay == NULL)
    {
      message (self, text);
      return;
    }
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  label = gtk_label_new (text);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
  gtk_widget_add_css_class (label, "saved-where");
  open = gtk_button_new_with_mnemonic (_("_Open"));
  show = gtk_button_new_with_mnemonic (_("_Show in Folder"));
  gtk_widget_add_css_class (open, "flat");
  gtk_widget_add_css_class (show, "flat");
  g_signal_connect_data (open, "clicked", G_CALLBACK (open_saved), g_strdup (path),
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  g_signal_connect_data (show, "clicked", G_CALLBACK (show_saved_in_folder), g_strdup (path),
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), open);
  gtk_box_append (GTK_BOX (box), show);
  toast = adw_toast_new (text);
  adw_toast_set_custom_title (toast, box);
  adw_toast_set_timeout (toast, 10);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), toast);
}

static void
save_as (NscChartPanel *self,
         const char    *what)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *name = NULL;
  const char *title;

  if (self->chooser != NULL || self->results->len == 0)
    return;
  if (g_str_equal (what, "json"))
    title = _("Save Result");
  else if (g_str_equal (what, "sheet"))
    title = _("Save Review Sheet");
  else
    title = _("Save Chart");
  self->chooser = GTK_NATIVE_DIALOG (gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                                  GTK_FILE_CHOOSER_ACTION_SAVE,
                                                                  _("_Save"), _("_Cancel")));
  gtk_native_dialog_set_modal (self->chooser, TRUE);
  name = suggested_name (self, what);
  {
    /* The last folder saved in, else Pictures for charts, Documents for results and
     * review sheets; never the folder the app happened to be started from. */
    const char *dir = last_save_folder;
    gboolean document = g_str_equal (what, "json") || g_str_equal (what, "sheet");
    g_autoptr(GFile) folder = NULL;

    if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
      dir = g_get_user_special_dir (document ? G_USER_DIRECTORY_DOCUMENTS
                                             : G_USER_DIRECTORY_PICTURES);
    if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
      dir = g_get_home_dir ();
    folder = g_file_new_for_path (dir);
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
  }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_free (self->chooser_what);
  self->chooser_what = g_strdup (what);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (self->chooser);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  NscChartPanel *self = NSC_CHART_PANEL (widget);

  if (g_str_equal (action_name, "chart.export-png"))
    save_as (self, "png");
  else if (g_str_equal (action_name, "chart.export-svg"))
    save_as (self, "svg");
  else if (g_str_equal (action_name, "chart.export-sheet"))
    save_as (self, "sheet");
  else
    save_as (self, "json");
}

static void
copy_text_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  NscChartPanel *self = NSC_CHART_PANEL (widget);
  g_autofree char *text = nsc_chart_panel_get_text (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  message (self, _("Results copied as text"));
}

/* ---- GObject -------------------------------------------------------------- */

static void
nsc_chart_panel_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  NscChartPanel *self = NSC_CHART_PANEL (object);

  switch (prop_id)
    {
    case PROP_EXPORT_DARK:
      g_value_set_boolean (value, self->export_dark);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nsc_chart_panel_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  NscChartPanel *self = NSC_CHART_PANEL (object);

  switch (prop_id)
    {
    case PROP_EXPORT_DARK:
      if (self->export_dark != g_value_get_boolean (value))
        {
          self->export_dark = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nsc_chart_panel_dispose (GObject *object)
{
  NscChartPanel *self = NSC_CHART_PANEL (object);

  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (self->chooser);
      g_clear_object (&self->chooser);
    }
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (nsc_chart_panel_parent_class)->dispose (object);
}

static void
nsc_chart_panel_finalize (GObject *object)
{
  NscChartPanel *self = NSC_CHART_PANEL (object);

  g_clear_pointer (&self->results, g_ptr_array_unref);
  g_clear_pointer (&self->paths, g_ptr_array_unref);
  g_clear_pointer (&self->kinds, g_array_unref);
  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->chooser_what, g_free);

  G_OBJECT_CLASS (nsc_chart_panel_parent_class)->finalize (object);
}

static void
nsc_chart_panel_class_init (NscChartPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nsc_chart_panel_dispose;
  object_class->finalize = nsc_chart_panel_finalize;
  object_class->get_property = nsc_chart_panel_get_property;
  object_class->set_property = nsc_chart_panel_set_property;

  properties[PROP_EXPORT_DARK] =
    g_param_spec_boolean ("export-dark", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_install_action (widget_class, "chart.export-png", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "chart.export-svg", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "chart.save-json", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "chart.copy-text", NULL, copy_text_action);
  gtk_widget_class_install_action (widget_class, "chart.export-sheet", NULL, export_action);
  gtk_widget_class_install_property_action (widget_class, "chart.export-dark", "export-dark");

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "nscchartpanel");
}

/* The drop-downs' buttons shorten their text on a narrow screen; their lists do not. */
static void
setup_short_item (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), 6);
  gtk_list_item_set_child (item, label);
}

static void
setup_list_item (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, label);
}

static void
bind_short_item (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  GtkStringObject *text = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      text ? gtk_string_object_get_string (text) : "");
}

static void
nsc_chart_panel_init (NscChartPanel *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) charts = g_menu_new ();
  g_autoptr(GMenu) results = g_menu_new ();
  g_autoptr(GtkListItemFactory) short_factory = NULL;
  g_autoptr(GtkListItemFactory) list_factory = NULL;
  g_autoptr(GMenu) sheet = g_menu_new ();
  GtkWidget *toolbar;
  GtkWidget *frame;

  self->chosen_step = NSC_CHART_STEP_AUTO;
  self->results = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  self->paths = g_ptr_array_new_with_free_func (g_free);
  self->kinds = g_array_new (FALSE, FALSE, sizeof (NscChartKind));
  self->steps = g_array_new (FALSE, FALSE, sizeof (guint));

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  short_factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (short_factory, "setup", G_CALLBACK (setup_short_item), NULL);
  g_signal_connect (short_factory, "bind", G_CALLBACK (bind_short_item), NULL);
  list_factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (list_factory, "setup", G_CALLBACK (setup_list_item), NULL);
  g_signal_connect (list_factory, "bind", G_CALLBACK (bind_short_item), NULL);

  toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->kind_dropdown = gtk_drop_down_new (NULL, NULL);
  gtk_widget_set_name (self->kind_dropdown, "chart-kind");
  gtk_drop_down_set_factory (GTK_DROP_DOWN (self->kind_dropdown), short_factory);
  gtk_drop_down_set_list_factory (GTK_DROP_DOWN (self->kind_dropdown), list_factory);
  gtk_widget_set_tooltip_text (self->kind_dropdown, _("Which chart to show"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->kind_dropdown),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Chart type"), -1);
  g_signal_connect_swapped (self->kind_dropdown, "notify::selected",
                            G_CALLBACK (on_kind_selected), self);
  gtk_box_append (GTK_BOX (toolbar), self->kind_dropdown);

  self->step_dropdown = gtk_drop_down_new (NULL, NULL);
  gtk_widget_set_name (self->step_dropdown, "chart-test");
  gtk_drop_down_set_factory (GTK_DROP_DOWN (self->step_dropdown), short_factory);
  gtk_drop_down_set_list_factory (GTK_DROP_DOWN (self->step_dropdown), list_factory);
  gtk_widget_set_visible (self->step_dropdown, FALSE);
  gtk_widget_set_tooltip_text (self->step_dropdown, _("Which test to show"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->step_dropdown),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Test"), -1);
  g_signal_connect_swapped (self->step_dropdown, "notify::selected",
                            G_CALLBACK (on_step_selected), self);
  gtk_box_append (GTK_BOX (toolbar), self->step_dropdown);

  /* While a test runs: a mark that the chart is live; the chart has its title. */
  self->title_label = gtk_label_new (_("● Live"));
  gtk_label_set_xalign (GTK_LABEL (self->title_label), 0);
  gtk_widget_add_css_class (self->title_label, "live-mark");
  gtk_widget_add_css_class (self->title_label, "heading");
  gtk_widget_set_visible (self->title_label, FALSE);
  gtk_box_append (GTK_BOX (toolbar), self->title_label);
  {
    GtkWidget *spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_set_hexpand (spacer, TRUE);
    gtk_box_append (GTK_BOX (toolbar), spacer);
  }

  g_menu_append (charts, _("Save Chart as _PNG…"), "chart.export-png");
  g_menu_append (charts, _("Save Chart as _SVG…"), "chart.export-svg");
  g_menu_append (charts, _("_Dark Background"), "chart.export-dark");
  g_menu_append (results, _("Save Result as _JSON…"), "chart.save-json");
  g_menu_append (results, _("_Copy as Text"), "chart.copy-text");
  /* Translators: the whole run on one page: PDF, SVG or PNG by the file's name */
  g_menu_append (sheet, _("_Review Sheet…"), "chart.export-sheet");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (sheet));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (charts));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (results));
  self->export_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (self->export_button), "document-save-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->export_button), G_MENU_MODEL (menu));
  gtk_widget_set_tooltip_text (self->export_button, _("Export"));
  gtk_box_append (GTK_BOX (toolbar), self->export_button);
  gtk_box_append (GTK_BOX (self->box), toolbar);

  frame = gtk_frame_new (NULL);
  gtk_widget_add_css_class (frame, "chart-frame");
  self->view = NSC_CHART_VIEW (nsc_chart_view_new ());
  gtk_widget_set_name (GTK_WIDGET (self->view), "chart-view");
  gtk_widget_set_hexpand (GTK_WIDGET (self->view), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->view), TRUE);
  gtk_frame_set_child (GTK_FRAME (frame), GTK_WIDGET (self->view));
  gtk_box_append (GTK_BOX (self->box), frame);

  update_actions (self);
}

GtkWidget *
nsc_chart_panel_new (void)
{
  return g_object_new (NSC_TYPE_CHART_PANEL, NULL);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "nsc-fio.h"
#include "nsc-history.h"
#include "nsc-result-file.h"
#include "nsc-window-private.h"

/* The window's actions (win.*) and the code behind its menus: choosing a folder,
 * opening results, the history, the preferences, exporting what is shown. */

/* ---- export ------------------------------------------------------------------- */

gboolean
nsc_window_export_chart (NscWindow   *self,
                         const char  *path,
                         const char  *kind,
                         int          width,
                         int          height,
                         gboolean     dark,
                         GError     **error)
{
  g_return_val_if_fail (NSC_IS_WINDOW (self), FALSE);

  if (kind != NULL)
    {
      NscChartKind k;

      if (!nsc_chart_kind_from_string (kind, &k))
        {
          g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                       _("There is no chart kind %s"), kind);
          return FALSE;
        }
      if (!nsc_chart_panel_select_kind (self->chart_panel, k))
        {
          g_set_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND,
                       _("This result has no %s chart"), kind);
          return FALSE;
        }
    }
  /* No file: only the choice of chart. */
  if (path == NULL)
    return TRUE;
  return nsc_chart_panel_export (self->chart_panel, path, width, height, dark, error);
}

gboolean
nsc_window_export_sheet (NscWindow   *self,
                         const char  *path,
                         gboolean     dark,
                         GError     **error)
{
  g_return_val_if_fail (NSC_IS_WINDOW (self), FALSE);
  return nsc_chart_panel_export_sheet (self->chart_panel, path, dark, error);
}

gboolean
nsc_window_export_fio (NscWindow   *self,
                       const char  *path,
                       GError     **error)
{
  g_autoptr(NscPlan) plan = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (NSC_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  plan = _nsc_window_plan (self, _nsc_window_get_preset (self));
  if (!plan->budget_known)
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT, plan->budget_error->message);
      return FALSE;
    }
  if (!(text = nsc_fio_export (plan, self->target, error)))
    return FALSE;
  if (!nsc_output_check (path, TRUE, NULL, NULL, error))
    return FALSE;
  if (!nsc_output_write (path, text, strlen (text), &local))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_FAILED, _("Cannot write the job file %s: %s"),
                   path, local->message);
      return FALSE;
    }
  return TRUE;
}

/**
 * nsc_window_get_text:
 * The result shown as the CrystalDiskMark-style text block (Copy as Text).
 */
char *
nsc_window_get_text (NscWindow *self)
{
  g_return_val_if_fail (NSC_IS_WINDOW (self), NULL);
  return nsc_chart_panel_get_text (self->chart_panel);
}


/* ---- actions ------------------------------------------------------------------ */

static void
run_action (GSimpleAction *action,
            GVariant      *parameter,
            gpointer       user_data)
{
  nsc_window_run (NSC_WINDOW (user_data));
}

static void
cancel_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  nsc_window_cancel (NSC_WINDOW (user_data));
}

/* The local path an accepted file dialog chose: NULL for a file that has none (a
 * remote location). */
static char *
chosen_path (GtkNativeDialog *native)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

  return file ? g_file_get_path (file) : NULL;
}

static void
on_chooser_response (GtkNativeDialog *native,
                     int              response,
                     NscWindow       *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = chosen_path (native);

      if (path != NULL)
        nsc_window_set_target (self, path);
      else
        _nsc_window_add_toast (self,
                               _("Choose a folder on this computer: remote folders cannot be tested"),
                               NULL, NULL);
    }
  gtk_native_dialog_destroy (native);
  g_clear_object (&self->chooser);
}

static void
choose_target_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  NscWindow *self = NSC_WINDOW (user_data);
  g_autoptr(GFile) folder = NULL;

  if (self->chooser != NULL)
    return;

  self->chooser = GTK_NATIVE_DIALOG (gtk_file_chooser_native_new (_("Choose a Folder to Test In"),
                                                                  GTK_WINDOW (self),
                                                                  GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                                  _("_Select"), _("_Cancel")));
  gtk_native_dialog_set_modal (self->chooser, TRUE);
  if (g_file_test (self->target, G_FILE_TEST_IS_DIR))
    {
      folder = g_file_new_for_path (self->target);
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
    }
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (self->chooser);
}

static void
open_results_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  g_autofree char *dir = nsc_session_results_dir ();
  g_autofree char *uri = g_filename_to_uri (dir, NULL, NULL);

  if (uri != NULL)
    gtk_show_uri (GTK_WINDOW (user_data), uri, GDK_CURRENT_TIME);
}

static void
on_history_open_result (NscHistoryWindow *history,
                        const char       *path,
                        NscWindow        *self)
{
  g_autoptr(GError) error = NULL;

  if (!nsc_window_open_result (self, path, &error))
    {
      _nsc_window_add_toast (self, error->message, NULL, NULL);
      return;
    }
  gtk_window_close (GTK_WINDOW (history));
}

/**
 * nsc_window_show_history:
 * Opens (or raises) the list of saved results.
 */
GtkWindow *
nsc_window_show_history (NscWindow *self)
{
  NscHistoryWindow *history;

  g_return_val_if_fail (NSC_IS_WINDOW (self), NULL);

  if (self->history != NULL)
    {
      nsc_history_window_set_units (NSC_HISTORY_WINDOW (self->history), self->prefs->units);
      nsc_history_window_reload (NSC_HISTORY_WINDOW (self->history));
      gtk_window_present (self->history);
      return self->history;
    }
  history = nsc_history_window_new (GTK_WINDOW (self));
  nsc_history_window_set_units (history, self->prefs->units);
  nsc_history_window_reload (history);
  g_signal_connect_object (history, "open-result", G_CALLBACK (on_history_open_result), self, 0);
  self->history = GTK_WINDOW (history);
  g_object_add_weak_pointer (G_OBJECT (history), (gpointer *) &self->history);
  gtk_window_present (GTK_WINDOW (history));
  return self->history;
}

static void
history_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  nsc_window_show_history (NSC_WINDOW (user_data));
}

/* The preferences reach every view of a result, open windows included. */
void
_nsc_window_apply_prefs (NscWindow *self)
{
  nsc_warnings_list_set_unit (self->warnings_list, self->prefs->units);
  nsc_results_grid_set_units (self->results_grid, self->prefs->units);
  nsc_chart_panel_set_units (self->chart_panel, self->prefs->units);
  /* An open history and its comparisons speak the same units. */
  if (self->history != NULL)
    nsc_history_window_set_units (NSC_HISTORY_WINDOW (self->history), self->prefs->units);
  /* The preset list's durations follow Same Settings for Every Preset. */
  nsc_preset_chooser_refilter (self->preset_chooser);
  _nsc_window_update_info (self);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  NscWindow *self = NSC_WINDOW (user_data);

  if (self->preferences != NULL)
    {
      gtk_window_present (self->preferences);
      return;
    }
  self->preferences = nsc_preferences_window_new (GTK_WINDOW (self), self->prefs);
  g_object_add_weak_pointer (G_OBJECT (self->preferences), (gpointer *) &self->preferences);
  gtk_window_present (self->preferences);
}

static void
on_open_file_response (GtkNativeDialog *native,
                       int              response,
                       NscWindow       *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = chosen_path (native);
      g_autoptr(GError) error = NULL;

      if (path != NULL && !nsc_window_open_result (self, path, &error))
        _nsc_window_add_toast (self, error->message, NULL, NULL);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

static void
open_file_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  NscWindow *self = NSC_WINDOW (user_data);
  g_autofree char *dir = nsc_session_results_dir ();
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Open a Result"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_filter_set_name (filter, _("Nandscope results and fio's JSON output"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  g_signal_connect (chooser, "response", G_CALLBACK (on_open_file_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* A warning's button: the test that settles it, chosen for the next run. */
static void
select_preset_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  NscWindow *self = NSC_WINDOW (user_data);
  g_autoptr(GError) error = NULL;

  if (nsc_window_get_running (self))
    return;
  if (!nsc_window_set_preset (self, g_variant_get_string (parameter, NULL), &error))
    _nsc_window_add_toast (self, error->message, NULL, NULL);
}

/* The start page's offer when the preset's test file does not fit the folder: this
 * preset, here, with the size that fits. */
static void
use_fitting_size_action (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  NscWindow *self = NSC_WINDOW (user_data);

  if (nsc_window_get_running (self) || self->fit_offer == 0)
    return;
  self->fit_preset = _nsc_window_get_preset (self);
  self->fit_size = self->fit_offer;
  _nsc_window_update_info (self);
}

static void
on_export_fio_response (GtkNativeDialog *native,
                        int              response,
                        NscWindow       *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = chosen_path (native);
      g_autoptr(GError) error = NULL;

      if (path == NULL)
        _nsc_window_add_toast (self, _("Choose a folder on this computer for the job file"), NULL, NULL);
      else if (!nsc_window_export_fio (self, path, &error))
        _nsc_window_add_toast (self, error->message, NULL, NULL);
      else
        {
          g_autofree char *name = g_filename_display_basename (path);
          /* Translators: after saving a fio job file: its name, then the command */
          g_autofree char *text = g_strdup_printf (_("Saved %s; run it with fio --output-format=json "
                                                     "--output=result.json %s, then open the result"),
                                                   name, name);

          _nsc_window_add_toast (self, text, NULL, NULL);
        }
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

/* Export Run as fio Job File: the run Run would start, for fio. */
static void
export_fio_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  NscWindow *self = NSC_WINDOW (user_data);
  GtkFileChooserNative *chooser;
  g_autofree char *name = g_strdup_printf ("%s.fio", _nsc_window_get_preset (self)->name);

  chooser = gtk_file_chooser_native_new (_("Export Run as fio Job File"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_signal_connect (chooser, "response", G_CALLBACK (on_export_fio_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* The toast's button after opening fio's output of several machines: all of them in
 * Compare. */
static void
compare_hosts_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  NscWindow *self = NSC_WINDOW (user_data);
  g_autoptr(GError) error = NULL;

  if (nsc_window_compare_hosts (self, &error) == NULL)
    _nsc_window_add_toast (self, error->message, NULL, NULL);
}

static const GActionEntry win_actions[] = {
  { "compare-hosts", compare_hosts_action },
  { "export-fio", export_fio_action },
  { "run", run_action },
  { "cancel", cancel_action },
  { "choose-target", choose_target_action },
  { "open-results", open_results_action },
  { "history", history_action },
  { "preferences", preferences_action },
  { "open-file", open_file_action },
  { "select-preset", select_preset_action, "s" },
  { "use-fitting-size", use_fitting_size_action },
};

void
_nsc_window_actions_init (NscWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions,
                                   G_N_ELEMENTS (win_actions), self);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "nsc-device-row.h"
#include "nsc-udisks.h"
#include "nsc-display.h"
#include "nsc-window-private.h"
#include "nsc-words.h"

/* A run as the window shows it: what Run asks of the run's state (NscRunControl), the
 * erase confirmation, and its signals on the results page: progress, the grid, the
 * live chart, warnings, the saved result, suspend inhibited while it runs. */

/* What the user chose for a run: the command line's overrides first, then the
 * preferences. The session adds strict's and CrystalDiskMark's defaults. */
static void
user_options (NscWindow       *self,
              const NscPreset *preset,
              NscRunOptions   *user)
{
  NscRunOptions opts;

  nsc_prefs_run_options (self->prefs, &self->overrides, &opts);
  /* The smaller test file the start page offered for this preset, when taken. */
  if (self->fit_size > 0 && preset == self->fit_preset && self->overrides.file_size == 0)
    opts.file_size = self->fit_size;
  /* The drive's history sizes Quick's settled control: the start page's promise and
   * the run read the same. */
  opts.cache_bytes = self->history_cache;
  opts.write_bps_hint = self->history_write_bps;
  /* Sandboxed (Flatpak), /dev and mountinfo are the sandbox's: UDisks2 says what uses
   * the drive, before the confirmation and again once the drive is held. */
  if (nsc_udisks_is_sandboxed ())
    opts.check_device = nsc_udisks_check_func;
  *user = opts;
}

/* The preset that runs when @preset is chosen: the one decision every plan and Run
 * take (nsc_prefs_run_preset). A checked copy is made once per preset and kept as long
 * as the window, as the chooser's presets are: plans and a run waiting for the drive
 * borrow it, the runner copies its own. */
const NscPreset *
_nsc_window_run_preset (NscWindow       *self,
                        const NscPreset *preset)
{
  NscPreset *checked;

  if (!self->prefs->verify_writes)
    return preset;
  if (!g_hash_table_lookup_extended (self->run_presets, preset->name, NULL, (gpointer *) &checked))
    {
      checked = nsc_prefs_run_preset (self->prefs, preset);
      /* NULL too: the preset runs as it is. */
      g_hash_table_insert (self->run_presets, g_strdup (preset->name), checked);
    }
  return checked != NULL ? checked : preset;
}

gboolean
_nsc_window_plan_checks_writes (NscWindow     *self,
                                const NscPlan *plan)
{
  return self->prefs->verify_writes
         && g_hash_table_lookup (self->run_presets, plan->preset->name) == plan->preset;
}

/* The plan of the chosen @preset as it runs on the target with what the user chose:
 * what the start page promises, and what Run runs (nsc_session_new () completes the
 * same options). */
NscPlan *
_nsc_window_plan (NscWindow       *self,
                  const NscPreset *preset)
{
  NscRunOptions user;

  user_options (self, preset, &user);
  return nsc_plan_new (_nsc_window_run_preset (self, preset), self->target,
                       self->target_device != NULL,
                       self->target_device ? self->target_device->capacity : 0, &user);
}

/* The engine's answer to "does this run write, trim or erase the drive?", on the
 * options the run will have (strict's included), the one the command line asks too. */
gboolean
_nsc_window_run_writes (NscWindow       *self,
                        const NscPreset *preset)
{
  g_autoptr(NscPlan) plan = _nsc_window_plan (self, preset);

  return plan->writes;
}

static void
set_action_enabled (NscWindow  *self,
                    const char *name,
                    gboolean    enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

void
_nsc_window_set_running (NscWindow *self,
                         gboolean   running)
{
  set_action_enabled (self, "run", !running);
  set_action_enabled (self, "cancel", running);
  set_action_enabled (self, "choose-target", !running);
  gtk_widget_set_sensitive (self->target_button, !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->preset_chooser), !running);

  if (running)
    {
      gtk_stack_set_visible_child_name (self->run_stack, "cancel");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->run_button), "win.cancel");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->run_button), _("Stop the test (Esc)"));
      gtk_widget_remove_css_class (GTK_WIDGET (self->run_button), "suggested-action");
    }
  else
    {
      gtk_stack_set_visible_child_name (self->run_stack, "run");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->run_button), "win.run");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->run_button), _("Run the test (Ctrl+R)"));
      gtk_widget_add_css_class (GTK_WIDGET (self->run_button), "suggested-action");
    }
  gtk_widget_set_visible (self->progress_box, running);
}


/* ---- the run's signals on the results page ------------------------------------- */

static void
on_step_started (NscRunControl *run,
                 const NscStep *step,
                 NscWindow     *self)
{
  nsc_results_grid_step_started (self->results_grid, step);
}

static void
on_live_chart (NscRunControl *run,
               int            kind,
               const char    *title,
               NscWindow     *self)
{
  nsc_chart_panel_show_live (self->chart_panel, (NscChartKind) kind, title);
}

static void
on_live_restart (NscRunControl *run,
                 NscWindow     *self)
{
  NscChart *chart = nsc_chart_view_get_chart (nsc_chart_panel_get_view (self->chart_panel));

  if (chart != NULL)
    nsc_chart_live_clear (chart);
}

static void
on_live_sample (NscRunControl   *run,
                const NscSample *sample,
                NscWindow       *self)
{
  nsc_chart_panel_append (self->chart_panel, sample);
}

static void
on_sample (NscRunControl   *run,
           const NscStep   *step,
           guint            run_index,
           const NscSample *sample,
           NscWindow       *self)
{
  nsc_results_grid_add_sample (self->results_grid, step, run_index, sample);
}

static void
on_step_finished (NscRunControl *run,
                  NscStepResult *step,
                  NscWindow     *self)
{
  nsc_results_grid_step_finished (self->results_grid, step);
}

static void
on_warning (NscRunControl *run,
            NscWarning    *warning,
            NscWindow     *self)
{
  nsc_warnings_list_add (self->warnings_list, warning);
}

static void
on_progress (NscRunControl *run,
             double         fraction,
             const char    *text,
             const char    *left,
             NscWindow     *self)
{
  if (fraction < 0)
    gtk_progress_bar_pulse (self->progress_bar);
  else
    gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  /* Progress comes with every sample: set only what changed. */
  if (g_strcmp0 (gtk_label_get_text (self->status_label), text) != 0)
    gtk_label_set_text (self->status_label, text);
  if (g_strcmp0 (gtk_label_get_text (self->time_left_label), left) != 0)
    gtk_label_set_text (self->time_left_label, left);
}

static void
on_started (NscRunControl   *run,
            const NscPreset *preset,
            const char      *left,
            NscWindow       *self)
{
  GApplication *app;

  nsc_results_grid_set_preset (self->results_grid, preset);
  gtk_widget_set_visible (GTK_WIDGET (self->results_grid), TRUE);
  nsc_chart_panel_clear (self->chart_panel);
  gtk_widget_set_visible (GTK_WIDGET (self->chart_panel), FALSE);
  g_clear_pointer (&self->shown_path, g_free);
  g_clear_pointer (&self->opened_hosts, g_ptr_array_unref);
  _nsc_window_clear_warnings (self);
  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), FALSE);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_label_set_text (self->status_label, _("Starting"));
  gtk_label_set_text (self->time_left_label, left);
  _nsc_window_set_running (self, TRUE);
  gtk_stack_set_visible_child_name (self->stack, "results");
  _nsc_window_set_result_subtitle (self, NULL);

  /* A suspend in the middle would make every number after it meaningless. */
  app = g_application_get_default ();
  if (app != NULL)
    self->inhibit_cookie = gtk_application_inhibit (GTK_APPLICATION (app), GTK_WINDOW (self),
                                                    GTK_APPLICATION_INHIBIT_SUSPEND,
                                                    _("Benchmark running"));
}

static void
uninhibit (guint cookie)
{
  GApplication *app = g_application_get_default ();

  if (cookie != 0 && app != NULL)
    gtk_application_uninhibit (GTK_APPLICATION (app), cookie);
}

/* The window went away while the run winds down: suspend stays inhibited until it
 * ended. */
static void
on_finished_uninhibit (NscRunControl       *run,
                       const NscRunOutcome *outcome,
                       gpointer             cookie)
{
  uninhibit (GPOINTER_TO_UINT (cookie));
}

/* The result just run, said as a reopened one is (nsc_result_info_header), and
 * where it was saved. */
static void
show_summary (NscWindow  *self,
              JsonNode   *node,
              const char *saved)
{
  g_autofree char *header = nsc_result_info_header (node);
  g_autoptr(GString) text = g_string_new (header);

  if (saved)
    {
      g_autofree char *where = nsc_display_path (saved);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Saved to %s"), where);
    }
  _nsc_window_append_wear_line (text, node);
  gtk_label_set_text (self->summary_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), TRUE);
}

static void
on_finished (NscRunControl       *run,
             const NscRunOutcome *outcome,
             NscWindow           *self)
{
  gboolean failed = outcome->error != NULL && !outcome->cancelled;

  uninhibit (self->inhibit_cookie);
  self->inhibit_cookie = 0;

  if (outcome->saved != NULL)
    _nsc_window_read_history (self);
  nsc_results_grid_stop (self->results_grid);
  /* The summary and every chart of the finished run as saved. A run that failed
   * before measuring anything (a target that does not exist) is only its error
   * message; an empty table would say nothing more. */
  if (outcome->result != NULL)
    {
      show_summary (self, outcome->result, outcome->saved);
      _nsc_window_set_result_subtitle (self, outcome->result);
    }
  else if (failed)
    gtk_widget_set_visible (GTK_WIDGET (self->results_grid), FALSE);
  _nsc_window_show_bench (self, outcome->result);
  if (outcome->result != NULL)
    _nsc_window_show_charts (self, outcome->result, outcome->saved);
  else
    {
      nsc_chart_panel_clear (self->chart_panel);
      gtk_widget_set_visible (GTK_WIDGET (self->chart_panel), FALSE);
    }

  if (failed)
    {
      g_autofree char *text = nsc_run_control_error_text (outcome->error);

      gtk_label_set_text (self->error_label, text);
      gtk_widget_set_visible (self->error_box, TRUE);
    }

  if (outcome->saved != NULL)
    {
      g_autofree char *name = g_filename_display_basename (outcome->saved);
      g_autofree char *toast = NULL;

      /* The name only: a toast is narrow. The folder is one click away, and
       * the full path is in the summary above the table. */
      if (outcome->cancelled)
        toast = g_strdup_printf (_("Cancelled; partial result saved as %s"), name);
      else
        toast = g_strdup_printf (_("Result saved as %s"), name);
      _nsc_window_add_toast (self, toast, _("Open Folder"), "win.open-results");
    }
  else if (outcome->save_error != NULL)
    _nsc_window_add_toast (self, outcome->save_error->message, NULL, NULL);
  else if (outcome->cancelled)
    _nsc_window_add_toast (self, _("Cancelled before anything was measured"), NULL, NULL);

  _nsc_window_set_running (self, FALSE);

  _nsc_window_emit_run_finished (self, outcome->success, outcome->message);

  if (nsc_run_control_get_close_when_done (run))
    gtk_window_destroy (GTK_WINDOW (self));
}

/* The run ended before the runner started: refused, not confirmed, not opened. */
static void
on_failed (NscRunControl *run,
           const char    *message,
           gboolean       cancelled,
           NscWindow     *self)
{
  _nsc_window_set_running (self, FALSE);

  if (cancelled)
    _nsc_window_add_toast (self, message, NULL, NULL);
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->results_grid), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->chart_panel), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->summary_label), FALSE);
      _nsc_window_clear_warnings (self);
      gtk_label_set_text (self->error_label, message);
      gtk_widget_set_visible (self->error_box, TRUE);
      gtk_stack_set_visible_child_name (self->stack, "results");
    }

  _nsc_window_emit_run_finished (self, FALSE, message);

  if (nsc_run_control_get_close_when_done (run))
    gtk_window_destroy (GTK_WINDOW (self));
}

/* UDisks2 opens the drive, after polkit asked the user. */
static void
on_opening (NscRunControl *run,
            const char    *status,
            NscWindow     *self)
{
  _nsc_window_set_running (self, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->results_grid), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->chart_panel), FALSE);
  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), FALSE);
  _nsc_window_clear_warnings (self);
  gtk_progress_bar_pulse (self->progress_bar);
  gtk_label_set_text (self->status_label, status);
  gtk_label_set_text (self->time_left_label, "");
  gtk_stack_set_visible_child_name (self->stack, "results");
}

/* ---- the erase confirmation ---------------------------------------------------- */

static void
on_confirm_response (AdwMessageDialog *dialog,
                     const char       *response,
                     NscWindow        *self)
{
  self->confirm_dialog = NULL;
  nsc_run_control_confirm (self->run, g_strcmp0 (response, "erase") == 0);
}

/* "Erase Samsung 980 PRO 1 TB (nvme1n1)?", naming what will be lost. */
static void
on_confirm (NscRunControl   *run,
            const NscPreset *preset,
            NscWindow       *self)
{
  NscDeviceInfo *dev = self->target_device;
  g_autofree char *title = nsc_device_row_title (dev);
  g_autofree char *capacity = nsc_words_drive_size (dev->capacity, FALSE);
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  guint n_parts = dev->partitions ? dev->partitions->len : 0;
  GtkWidget *dialog;

  if (dev->model != NULL && *dev->model != '\0')
    /* TRANSLATORS: "Erase Samsung 980 PRO 1 TB (nvme1n1)?" */
    heading = g_strdup_printf (_("Erase %s %s (%s)?"), title, capacity, dev->name);
  else
    /* TRANSLATORS: "Erase Loop device loop3 (67.1 MB)?" */
    heading = g_strdup_printf (_("Erase %s (%s)?"), title, capacity);
  if (n_parts > 0)
    body = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Everything on it, including %u partition, will be "
                                         "destroyed. %s writes over the drive, and what was "
                                         "there cannot be recovered.",
                                         "Everything on it, including %u partitions, will be "
                                         "destroyed. %s writes over the drive, and what was "
                                         "there cannot be recovered.", n_parts),
                            n_parts, nsc_words_preset_title (preset));
  else
    body = g_strdup_printf (_("Everything on it will be destroyed. %s writes over the drive, "
                              "and what was there cannot be recovered."),
                              nsc_words_preset_title (preset));

  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "erase", _("_Erase and Test"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "erase",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_confirm_response), self, 0);
  self->confirm_dialog = ADW_MESSAGE_DIALOG (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ---- the window's part --------------------------------------------------------- */

void
_nsc_window_run_init (NscWindow *self)
{
  self->run = nsc_run_control_new ();
  g_signal_connect (self->run, "confirm", G_CALLBACK (on_confirm), self);
  g_signal_connect (self->run, "opening", G_CALLBACK (on_opening), self);
  g_signal_connect (self->run, "started", G_CALLBACK (on_started), self);
  g_signal_connect (self->run, "step-started", G_CALLBACK (on_step_started), self);
  g_signal_connect (self->run, "sample", G_CALLBACK (on_sample), self);
  g_signal_connect (self->run, "step-finished", G_CALLBACK (on_step_finished), self);
  g_signal_connect (self->run, "warning", G_CALLBACK (on_warning), self);
  g_signal_connect (self->run, "live-chart", G_CALLBACK (on_live_chart), self);
  g_signal_connect (self->run, "live-restart", G_CALLBACK (on_live_restart), self);
  g_signal_connect (self->run, "live-sample", G_CALLBACK (on_live_sample), self);
  g_signal_connect (self->run, "progress", G_CALLBACK (on_progress), self);
  g_signal_connect (self->run, "failed", G_CALLBACK (on_failed), self);
  g_signal_connect (self->run, "finished", G_CALLBACK (on_finished), self);
}

/* The window goes: a run winds down without it (its result is still saved), and
 * lets the system suspend once it ended. */
void
_nsc_window_run_dispose (NscWindow *self)
{
  if (self->confirm_dialog != NULL)
    {
      gtk_window_destroy (GTK_WINDOW (self->confirm_dialog));
      self->confirm_dialog = NULL;
    }
  if (self->run == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->run, self);
  if (self->inhibit_cookie != 0)
    g_signal_connect (self->run, "finished", G_CALLBACK (on_finished_uninhibit),
                      GUINT_TO_POINTER (self->inhibit_cookie));
  self->inhibit_cookie = 0;
  nsc_run_control_cancel (self->run);
  g_clear_object (&self->run);
}

/* The window is asked to close: a run is cancelled and the window hides until its
 * test file is deleted and its result saved (TRUE); then it closes. */
gboolean
_nsc_window_run_close (NscWindow *self)
{
  if (self->confirm_dialog != NULL)
    {
      gtk_window_destroy (GTK_WINDOW (self->confirm_dialog));
      self->confirm_dialog = NULL;
    }
  return self->run != NULL && nsc_run_control_close (self->run);
}

/**
 * nsc_window_run:
 * Starts the selected preset on the target; nothing happens while a run is on.
 * On a drive, tests that write are confirmed first, and the drive is opened
 * through UDisks2 (polkit asks the user).
 */
void
nsc_window_run (NscWindow *self)
{
  const NscPreset *preset;
  g_autofree char *why = NULL;
  g_autoptr(NscPlan) plan = NULL;
  NscRunOptions user;
  NscRunRequest request = { 0 };

  g_return_if_fail (NSC_IS_WINDOW (self));

  if (self->run == NULL || nsc_run_control_get_busy (self->run) || (preset = _nsc_window_get_preset (self)) == NULL)
    return;

  /* What runs is what the start page promised: the plan's preset, runs and writes. */
  plan = _nsc_window_plan (self, preset);
  user_options (self, preset, &user);
  request.preset = plan->preset;
  request.target = self->target;
  request.device = self->target_device;
  request.options = &user;
  request.history_read = self->history_cancellable == NULL;
  request.runs = plan->timing.runs;
  if (self->target_device != NULL)
    {
      request.destroy = plan->writes;
      request.captured = self->fake_devices;
      if (!self->fake_devices && !_nsc_window_preset_offered (self, preset, &why))
        request.refusal = why;
    }
  nsc_run_control_run (self->run, &request);
}

void
nsc_window_cancel (NscWindow *self)
{
  g_return_if_fail (NSC_IS_WINDOW (self));

  if (self->run != NULL && nsc_run_control_cancel (self->run))
    gtk_label_set_text (self->status_label, _("Cancelling…"));
}

gboolean
nsc_window_get_running (NscWindow *self)
{
  g_return_val_if_fail (NSC_IS_WINDOW (self), FALSE);
  return self->run != NULL && nsc_run_control_get_busy (self->run);
}

guint
nsc_window_get_steps_done (NscWindow *self)
{
  g_return_val_if_fail (NSC_IS_WINDOW (self), 0);
  return self->run != NULL ? nsc_run_control_get_steps_done (self->run) : 0;
}

guint
nsc_window_get_live_samples (NscWindow *self)
{
  g_return_val_if_fail (NSC_IS_WINDOW (self), 0);
  return self->run != NULL ? nsc_run_control_get_live_samples (self->run) : 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <unistd.h>

#include "nsc-device-row.h"
#include "nsc-udisks.h"
#include "nsc-display.h"
#include "nsc-window-private.h"

/* The run controller: Run, the erase confirmation and UDisks2 for a drive, the runner's
 * signals on the results page, the saved result, Cancel. */

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

/* The plan of @preset on the target with what the user chose: what the start page
 * promises, and what Run runs (nsc_session_new () completes the same options). */
NscPlan *
_nsc_window_plan (NscWindow       *self,
                  const NscPreset *preset)
{
  NscRunOptions user;

  user_options (self, preset, &user);
  return nsc_plan_new (preset, self->target, self->target_device != NULL,
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

/* "2 min left"; with @open (writes of a speed nothing has told yet remain), what is
 * known is a lower bound: "over 2 min left", or nothing known yet. */
static char *
format_time_left (gint64   ns,
                  gboolean open)
{
  guint s = (guint) ((ns + 999999999) / 1000000000);

  if (open && s == 0)
    return g_strdup (_("time left: known once writing starts"));
  if (s >= 60)
    {
      guint m = (s + 59) / 60;
      if (open)
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "over %u min left", "over %u min left", m), m);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u min left", "%u min left", m), m);
    }
  if (open)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "over %u s left", "over %u s left", s), s);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u s left", "%u s left", s), s);
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

static void
update_warnings (NscWindow    *self,
                 NscRunResult *r)
{
  for (; self->warnings_shown < r->warnings->len; self->warnings_shown++)
    nsc_warnings_list_add (self->warnings_list,
                           g_ptr_array_index (r->warnings, self->warnings_shown));
}

/* ---- runner signals ----------------------------------------------------------- */

static const NscStep *
runner_step (NscRunner *runner,
             guint      index)
{
  const NscPreset *preset = nsc_runner_get_preset (runner);

  g_assert (index < preset->steps->len);
  return &g_array_index (preset->steps, NscStep, index);
}

static void
on_step_started (NscRunner *runner,
                 guint      step,
                 NscWindow *self)
{
  const NscStep *s = runner_step (runner, step);

  self->current_step = step;
  self->current_run = 0;
  self->measuring = FALSE;
  nsc_results_grid_step_started (self->results_grid, s);

  /* The running step's chart: write-fill for the fills, speed over time else. */
  if (s->kind == NSC_STEP_JOB)
    {
      char scratch[64];
      const char *label = nsc_job_get_label (&s->job, scratch, sizeof scratch);
      gboolean fill = g_str_equal (s->analysis, "write-fill");
      /* TRANSLATORS: "SEQ1M Q8T1 · speed over time" */
      g_autofree char *title = g_strdup_printf (_("%s · %s"), label,
                                                fill ? _("speed against data written")
                                                     : _("speed over time"));

      nsc_chart_panel_show_live (self->chart_panel,
                                 fill ? NSC_CHART_WRITE_FILL : NSC_CHART_TIME, title);
      self->chart_step = step;
      self->chart_run = 0;
      self->chart_steps++;
      self->chart_fill = fill;
      g_free (self->chart_title);
      self->chart_title = g_steal_pointer (&title);
      self->chart_phase = -1;
    }
}

/* A write between the tests (the test file, the data reads read, the flush past the
 * drive's cache): drawn as what it is, speed against data written, until the test's
 * own samples come. */
static void
show_phase_chart (NscWindow       *self,
                  const NscStatus *status)
{
  g_autofree char *what = NULL;
  g_autofree char *title = NULL;

  if (self->chart_phase == (int) status->kind)
    return;
  what = nsc_status_title (status);
  /* TRANSLATORS: "Preparing the test file · speed against data written" */
  title = g_strdup_printf (_("%s · %s"), what, _("speed against data written"));
  nsc_chart_panel_show_live (self->chart_panel, NSC_CHART_WRITE_FILL, title);
  self->chart_phase = (int) status->kind;
}

static void
on_phase_sample (NscRunner       *runner,
                 const NscStatus *status,
                 const NscSample *sample,
                 NscWindow       *self)
{
  show_phase_chart (self, status);
  nsc_chart_panel_append (self->chart_panel, sample);
  self->chart_samples++;
}

static void
on_sample (NscRunner       *runner,
           guint            step,
           guint            run,
           const NscSample *sample,
           NscWindow       *self)
{
  self->current_run = run;
  self->measuring = TRUE;
  nsc_results_grid_add_sample (self->results_grid, runner_step (runner, step), run, sample);

  /* Back from a write between the tests to the test's own chart. */
  if (step == self->chart_step && self->chart_phase >= 0)
    {
      nsc_chart_panel_show_live (self->chart_panel,
                                 self->chart_fill ? NSC_CHART_WRITE_FILL : NSC_CHART_TIME,
                                 self->chart_title);
      self->chart_phase = -1;
      self->chart_run = run;
    }
  /* A new run of the step starts its chart afresh: its clock starts at zero. */
  if (step == self->chart_step && run != self->chart_run)
    {
      NscChart *chart = nsc_chart_view_get_chart (nsc_chart_panel_get_view (self->chart_panel));

      if (chart != NULL)
        nsc_chart_live_clear (chart);
      self->chart_run = run;
    }
  if (step == self->chart_step)
    {
      nsc_chart_panel_append (self->chart_panel, sample);
      self->chart_samples++;
    }
}

static void
on_step_finished (NscRunner *runner,
                  guint      step,
                  NscWindow *self)
{
  NscRunResult *r = nsc_runner_get_result (runner);

  g_assert (r->steps->len > 0);
  nsc_results_grid_step_finished (self->results_grid,
                                  g_ptr_array_index (r->steps, r->steps->len - 1));
  update_warnings (self, r);
#ifdef __GLIBC__
  /* A finished test leaves free memory behind in the malloc arenas of its threads
   * and in the live chart's, which glibc keeps mapped: hand it back, so that
   * the app's resident memory does not creep up test after test. */
  malloc_trim (0);
#endif
}

static void
on_progress (NscRunner       *runner,
             double           fraction,
             gint64           remaining_ns,
             const NscStatus *status,
             NscWindow       *self)
{
  g_autofree char *left = format_time_left (remaining_ns, status->time_left_open);
  g_autofree char *text = NULL;

  /* The file is prepared before the first step; that part has no estimate. */
  if (self->current_step == G_MAXUINT)
    gtk_progress_bar_pulse (self->progress_bar);
  else
    gtk_progress_bar_set_fraction (self->progress_bar, fraction);

  /* While I/O is measured the line names the test in our words; in between
   * (preparing, filling, idling) it shows the runner's own status. */
  if (self->measuring)
    {
      const NscStep *step = runner_step (runner, self->current_step);
      char scratch[64];
      const char *label = nsc_job_get_label (&step->job, scratch, sizeof scratch);
      const char *what = nsc_job_has_reads (&step->job)
                         ? (nsc_job_has_writes (&step->job) ? _("reading and writing")
                                                            : _("reading"))
                         : _("writing");

      g_autofree char *bytes = status->kind == NSC_STATUS_TEST ? nsc_status_describe_bytes (status) : NULL;

      if (self->run_runs > 1)
        /* TRANSLATORS: "SEQ1M Q8T1 · reading · run 2 of 3" */
        text = g_strdup_printf (_("%s · %s · run %u of %u"), label, what,
                                self->current_run + 1, self->run_runs);
      else
        /* TRANSLATORS: "SEQ1M Q8T1 · reading" */
        text = g_strdup_printf (_("%s · %s"), label, what);
      /* A write bounded by bytes (a write-fill) says how far it is. */
      if (bytes)
        {
          char *with = g_strdup_printf (_("%s · %s"), text, bytes);

          g_free (text);
          text = with;
        }
    }

  if (text == NULL)
    text = nsc_status_describe (status);
  /* A write between the tests has its chart from its start, not the next test's. */
  if (!self->measuring && status->bytes_total > 0 && status->kind != NSC_STATUS_TEST
      && status->kind != NSC_STATUS_SURFACE_POINT)
    show_phase_chart (self, status);
  /* Progress comes with every sample: set only what changed. */
  if (g_strcmp0 (gtk_label_get_text (self->status_label), text) != 0)
    gtk_label_set_text (self->status_label, text);
  if (g_strcmp0 (gtk_label_get_text (self->time_left_label), left) != 0)
    gtk_label_set_text (self->time_left_label, left);
}

/* ---- finishing a run ------------------------------------------------------------ */

static guint
count_measured_steps (NscRunResult *r)
{
  guint n = 0;

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *sr = g_ptr_array_index (r->steps, i);
      if (sr->step.kind == NSC_STEP_JOB && sr->runs->len > 0)
        n++;
    }
  return n;
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
on_run_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(NscWindow) self = user_data;
  NscRunner *runner = NSC_RUNNER (source);
  GApplication *app = g_application_get_default ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) save_error = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *message = NULL;
  NscRunResult *r;
  gboolean ok;
  gboolean cancelled;

  ok = nsc_runner_run_finish (runner, result, &error);
  r = nsc_runner_get_result (runner);
  cancelled = g_error_matches (error, NSC_ERROR, NSC_ERROR_CANCELLED);

  /* Kept even when the window is gone: a measurement is worth its file. */
  if (count_measured_steps (r) > 0)
    {
      /* The drive's facts, the test bench and their warnings, as the command line's. */
      nsc_session_finish (self->session, r);
      saved = nsc_session_save (r, NULL, &save_error);
    }

  if (self->inhibit_cookie != 0 && app != NULL)
    gtk_application_uninhibit (GTK_APPLICATION (app), self->inhibit_cookie);
  self->inhibit_cookie = 0;

  /* The window was destroyed while the runner wound down. */
  if (self->runner != runner)
    return;

  if (saved != NULL)
    _nsc_window_read_history (self);
  nsc_results_grid_stop (self->results_grid);
  update_warnings (self, r);
  /* For the GUI test: the live chart was fed. */
  g_debug ("Live chart: %u samples in %u steps", self->chart_samples, self->chart_steps);
  /* The summary and every chart of the finished run, read back from the file as
   * the history would (so what is shown is what was saved). A run that failed
   * before measuring anything (a target that does not exist) is only its error
   * message; an empty table would say nothing more. */
  {
    g_autoptr(JsonNode) node = NULL;
    g_autoptr(GError) load_error = NULL;

    if (saved != NULL)
      node = nsc_result_file_load (saved, &load_error);
    if (node == NULL && count_measured_steps (r) > 0)
      node = nsc_run_result_to_json (r);
    if (load_error != NULL)
      g_warning ("The result just saved does not read back: %s", load_error->message);
    if (node != NULL)
      {
        show_summary (self, node, saved);
        _nsc_window_set_result_subtitle (self, node);
      }
    else if (error != NULL && !cancelled)
      gtk_widget_set_visible (GTK_WIDGET (self->results_grid), FALSE);
    _nsc_window_show_bench (self, node);
    if (node != NULL)
      _nsc_window_show_charts (self, node, saved);
    else
      {
        nsc_chart_panel_clear (self->chart_panel);
        gtk_widget_set_visible (GTK_WIDGET (self->chart_panel), FALSE);
      }
  }

  if (error != NULL && !cancelled)
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_widget_set_visible (self->error_box, TRUE);
    }

  if (saved != NULL)
    {
      g_autofree char *name = g_filename_display_basename (saved);
      g_autofree char *toast = NULL;

      /* The name only: a toast is narrow. The folder is one click away, and
       * the full path is in the summary above the table. */
      if (cancelled)
        toast = g_strdup_printf (_("Cancelled; partial result saved as %s"), name);
      else
        toast = g_strdup_printf (_("Result saved as %s"), name);
      _nsc_window_add_toast (self, toast, _("Open Folder"), "win.open-results");
    }
  else if (save_error != NULL)
    _nsc_window_add_toast (self, save_error->message, NULL, NULL);
  else if (cancelled)
    _nsc_window_add_toast (self, _("Cancelled before anything was measured"), NULL, NULL);

  if (save_error != NULL)
    message = g_strdup (save_error->message);
  else if (error != NULL)
    message = g_strdup (error->message);
  else if (saved != NULL)
    message = g_strdup_printf (_("Result saved to %s"), saved);

  g_clear_object (&self->runner);
  g_clear_object (&self->cancellable);
  _nsc_window_set_running (self, FALSE);

  _nsc_window_emit_run_finished (self, ok && save_error == NULL, message);

  if (self->close_when_done)
    gtk_window_destroy (GTK_WINDOW (self));
}

/* ---- starting and cancelling --------------------------------------------------- */

/* Takes @device_fd (or -1) over. */
static void
start_runner (NscWindow       *self,
              const NscPreset *preset,
              int              device_fd,
              gboolean         destroy)
{
  GApplication *app;

  g_assert (self->runner == NULL);
  g_assert (self->session != NULL);
  /* Consent was checked when the user confirmed (nsc_session_check_consent). */
  g_assert (!destroy || self->session->options.destroy_data != NULL);

  self->session->options.device_fd = device_fd;   /* -1: none; 0 would be a descriptor */
  self->runner = nsc_runner_new (preset, &self->session->options);
  /* The runner took the descriptor over. */
  self->session->options.device_fd = -1;
  if (self->cancellable == NULL)
    self->cancellable = g_cancellable_new ();
  self->current_step = G_MAXUINT;
  self->current_run = 0;
  self->measuring = FALSE;
  self->run_runs = _nsc_window_effective_runs (self, preset);

  g_signal_connect_object (self->runner, "step-started", G_CALLBACK (on_step_started), self, 0);
  g_signal_connect_object (self->runner, "sample", G_CALLBACK (on_sample), self, 0);
  g_signal_connect_object (self->runner, "phase-sample", G_CALLBACK (on_phase_sample), self, 0);
  g_signal_connect_object (self->runner, "step-finished", G_CALLBACK (on_step_finished), self, 0);
  g_signal_connect_object (self->runner, "progress", G_CALLBACK (on_progress), self, 0);

  nsc_results_grid_set_preset (self->results_grid, preset);
  gtk_widget_set_visible (GTK_WIDGET (self->results_grid), TRUE);
  nsc_chart_panel_clear (self->chart_panel);
  gtk_widget_set_visible (GTK_WIDGET (self->chart_panel), FALSE);
  g_clear_pointer (&self->shown_path, g_free);
  self->chart_step = G_MAXUINT;
  self->chart_phase = -1;
  self->chart_samples = self->chart_steps = 0;
  _nsc_window_clear_warnings (self);
  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), FALSE);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_label_set_text (self->status_label, _("Starting"));
  {
    /* Writes bounded by bytes come on top, at a speed the run tells. */
    g_autofree char *left = format_time_left (nsc_runner_get_estimate_ns (self->runner), TRUE);
    gtk_label_set_text (self->time_left_label, left);
  }
  _nsc_window_set_running (self, TRUE);
  gtk_stack_set_visible_child_name (self->stack, "results");
  _nsc_window_set_result_subtitle (self, NULL);

  /* A suspend in the middle would make every number after it meaningless. */
  app = g_application_get_default ();
  if (app != NULL)
    self->inhibit_cookie = gtk_application_inhibit (GTK_APPLICATION (app), GTK_WINDOW (self),
                                                    GTK_APPLICATION_INHIBIT_SUSPEND,
                                                    _("Benchmark running"));

  nsc_session_begin (self->session);
  nsc_runner_run_async (self->runner, self->cancellable, on_run_done, g_object_ref (self));
}

/* The run ends before the runner started: refused, not confirmed, not opened. */
static void
fail_before_run (NscWindow  *self,
                 const char *message,
                 gboolean    cancelled)
{
  self->pending = FALSE;
  self->pending_preset = NULL;
  g_clear_object (&self->cancellable);
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

  if (self->close_when_done)
    gtk_window_destroy (GTK_WINDOW (self));
}

static void
on_device_opened (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(NscWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  int fd = nsc_udisks_open_device_finish (result, &error);
  const NscPreset *preset;

  if (fd < 0)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail_before_run (self, _("Cancelled before the drive was opened"), TRUE);
      else
        fail_before_run (self, error->message, FALSE);
      return;
    }
  /* Cancelled after UDisks2 answered: the exclusive descriptor would keep the drive
   * busy for as long as the app runs. */
  if (self->close_when_done || self->cancellable == NULL
      || g_cancellable_is_cancelled (self->cancellable))
    {
      close (fd);
      fail_before_run (self, _("Cancelled before the drive was opened"), TRUE);
      return;
    }

  self->pending = FALSE;
  preset = self->pending_preset;
  self->pending_preset = NULL;
  start_runner (self, preset, fd, self->pending_destroy);
}

/* UDisks2 opens the drive, after polkit asked the user. */
static void
open_device (NscWindow *self)
{
  g_autofree char *status = NULL;

  status = g_strdup_printf (_("Asking for permission to open %s…"), self->target_device->name);
  self->cancellable = g_cancellable_new ();
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

  nsc_udisks_open_device_async (self->target, self->pending_destroy, self->cancellable,
                                on_device_opened, g_object_ref (self));
}

static void
on_confirm_response (AdwMessageDialog *dialog,
                     const char       *response,
                     NscWindow        *self)
{
  self->confirm_dialog = NULL;
  if (g_strcmp0 (response, "erase") == 0 && self->fake_devices)
    fail_before_run (self, _("The drive list comes from NANDSCOPE_SYSFS_ROOT, a captured "
                             "tree; its drives are shown, never opened"), FALSE);
  else if (g_strcmp0 (response, "erase") == 0)
    {
      g_autoptr(GError) error = NULL;

      /* The user agreed to destroy the target: the mount table again, now. */
      if (!nsc_session_check_consent (self->session, self->target, &error))
        fail_before_run (self, error->message, FALSE);
      else
        open_device (self);
    }
  else
    fail_before_run (self, _("Not confirmed; nothing was written"), TRUE);
}

/* "Erase Samsung 980 PRO 1 TB (nvme1n1)?", naming what will be lost. */
static void
confirm_erase (NscWindow       *self,
               const NscPreset *preset)
{
  NscDeviceInfo *dev = self->target_device;
  g_autofree char *title = nsc_device_row_title (dev);
  g_autofree char *capacity = g_format_size (dev->capacity);
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
                            n_parts, nsc_preset_get_display_title (preset));
  else
    body = g_strdup_printf (_("Everything on it will be destroyed. %s writes over the drive, "
                              "and what was there cannot be recovered."),
                              nsc_preset_get_display_title (preset));

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
  g_autoptr(GError) error = NULL;

  g_return_if_fail (NSC_IS_WINDOW (self));

  if (self->runner != NULL || self->pending || (preset = _nsc_window_get_preset (self)) == NULL)
    return;

  {
    NscRunOptions user;

    user_options (self, preset, &user);
    g_clear_pointer (&self->session, nsc_session_free);
    /* The history read in its thread gave the cache; until it has, the session reads it. */
    self->session = nsc_session_new_full (self->target, &user, self->history_cancellable == NULL);
  }

  if (self->target_device == NULL)
    {
      start_runner (self, preset, -1, FALSE);
      return;
    }

  self->pending = TRUE;
  self->pending_preset = preset;
  self->pending_destroy = _nsc_window_run_writes (self, preset);

  if (self->fake_devices)
    {
      if (self->pending_destroy)
        confirm_erase (self, preset);
      else
        fail_before_run (self, _("The drive list comes from NANDSCOPE_SYSFS_ROOT, a captured "
                                 "tree; its drives are shown, never opened"), FALSE);
      return;
    }

  if (!_nsc_window_preset_offered (self, preset, &why))
    {
      fail_before_run (self, why, FALSE);
      return;
    }

  if (self->pending_destroy)
    {
      /* The mount table now, not when the list was made. */
      if (!nsc_session_check_in_use (self->session, &error))
        {
          fail_before_run (self, error->message, FALSE);
          return;
        }
      confirm_erase (self, preset);
      return;
    }

  open_device (self);
}

void
nsc_window_cancel (NscWindow *self)
{
  g_return_if_fail (NSC_IS_WINDOW (self));

  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      gtk_label_set_text (self->status_label, _("Cancelling…"));
    }
}

gboolean
nsc_window_get_running (NscWindow *self)
{
  g_return_val_if_fail (NSC_IS_WINDOW (self), FALSE);
  return self->runner != NULL || self->pending;
}

guint
nsc_window_get_steps_done (NscWindow *self)
{
  g_return_val_if_fail (NSC_IS_WINDOW (self), 0);
  return self->runner != NULL ? nsc_runner_get_result (self->runner)->steps->len : 0;
}

guint
nsc_window_get_live_samples (NscWindow *self)
{
  g_return_val_if_fail (NSC_IS_WINDOW (self), 0);
  return self->runner != NULL ? self->chart_samples : 0;
}

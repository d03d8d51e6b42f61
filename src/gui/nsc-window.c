/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "nsc-engine.h"
#include "nsc-results-grid.h"
#include "nsc-window.h"
#include "nsc-device.h"

struct _NscWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template children */
  AdwToastOverlay      *toast_overlay;
  GtkWidget            *target_button;
  AdwButtonContent     *target_content;
  GtkDropDown          *preset_dropdown;
  AdwWindowTitle       *window_title;
  GtkButton            *run_button;
  GtkStack             *stack;
  AdwStatusPage        *status_page;
  GtkLabel             *preset_label;
  GtkWidget            *progress_box;
  GtkLabel             *status_label;
  GtkLabel             *time_left_label;
  GtkProgressBar       *progress_bar;
  GtkLabel             *summary_label;
  GtkWidget            *error_box;
  GtkLabel             *error_label;
  NscResultsGrid       *results_grid;
  GtkWidget            *warnings_box;

  GPtrArray            *presets;        /* NscPreset, in the order of the drop-down */
  GtkStringList        *preset_names;
  char                 *target;
  guint                 runs;           /* overrides; 0: the preset's */
  gint64                time_ns;
  guint64               file_size;

  GtkNativeDialog      *chooser;

  /* While a run is in progress */
  NscRunner            *runner;
  NscDeviceInfo        *device;        /* the drive behind the target, for the result */
  GCancellable         *cancellable;
  guint                 inhibit_cookie;
  guint                 current_step;   /* G_MAXUINT before the first step */
  guint                 current_run;
  guint                 run_runs;
  gboolean              measuring;      /* samples arrive for the current step */
  guint                 warnings_shown;
  gboolean              close_when_done;
};

G_DEFINE_FINAL_TYPE (NscWindow, nsc_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  SIGNAL_RUN_FINISHED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

/* ---- helpers ---------------------------------------------------------------- */

static const NscPreset *
get_selected_preset (NscWindow *self)
{
  guint pos = gtk_drop_down_get_selected (self->preset_dropdown);

  if (pos == GTK_INVALID_LIST_POSITION || pos >= self->presets->len)
    return NULL;
  return g_ptr_array_index (self->presets, pos);
}

static const NscPreset *
find_preset (NscWindow  *self,
             const char *name)
{
  for (guint i = 0; i < self->presets->len; i++)
    {
      const NscPreset *p = g_ptr_array_index (self->presets, i);
      if (g_strcmp0 (p->name, name) == 0)
        return p;
    }
  return NULL;
}

static guint
effective_runs (NscWindow       *self,
                const NscPreset *preset)
{
  return self->runs ? self->runs : MAX (preset->runs, 1u);
}

static gint64
effective_estimate_ns (NscWindow       *self,
                       const NscPreset *preset)
{
  return nsc_preset_estimate_ns (preset, effective_runs (self, preset),
                                 self->time_ns ? self->time_ns : preset->time_ns);
}

/* "about 40 seconds", "about 3 minutes": the estimate, not a promise. */
static char *
format_duration_words (gint64 ns)
{
  guint s = (guint) ((ns + 500000000) / 1000000000);

  if (s < 90)
    {
      s = MAX (s, 1u);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u second", "%u seconds", s), s);
    }
  s = (s + 30) / 60;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u minute", "%u minutes", s), s);
}

static char *
format_time_left (gint64 ns)
{
  guint s = (guint) ((ns + 999999999) / 1000000000);

  if (s >= 60)
    {
      guint m = (s + 59) / 60;
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u min left", "%u min left", m), m);
    }
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u s left", "%u s left", s), s);
}

/* ~/… for paths in the home folder: shorter, and what people recognise. */
static char *
display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  g_autofree char *display = g_filename_display_name (path);
  gsize len = strlen (home);

  if (g_str_has_prefix (path, home) && (path[len] == '/' || path[len] == '\0'))
    {
      g_autofree char *rest = g_filename_display_name (path + len);
      return g_strconcat ("~", rest, NULL);
    }
  return g_steal_pointer (&display);
}

static char *
target_display_name (const char *path)
{
  if (g_strcmp0 (path, g_get_home_dir ()) == 0)
    return g_strdup (_("Home"));
  return g_filename_display_basename (path);
}

static void
add_toast (NscWindow  *self,
           const char *text,
           const char *button_label,
           const char *action_name)
{
  g_autofree char *markup = g_markup_escape_text (text, -1);
  AdwToast *toast = adw_toast_new (markup);

  if (button_label)
    {
      adw_toast_set_button_label (toast, button_label);
      adw_toast_set_action_name (toast, action_name);
    }
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
set_action_enabled (NscWindow  *self,
                    const char *name,
                    gboolean    enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

/* The idle page, the header's subtitle and the tooltips say what Run will do. */
static void
update_info (NscWindow *self)
{
  const NscPreset *preset = get_selected_preset (self);
  g_autofree char *name = target_display_name (self->target);
  g_autofree char *path = display_path (self->target);
  g_autofree char *tooltip = g_strdup_printf (_("Test in %s"), path);
  g_autofree char *description = NULL;
  g_autofree char *size = NULL;
  g_autofree char *escaped_path = g_markup_escape_text (path, -1);

  adw_button_content_set_label (self->target_content, name);
  gtk_widget_set_tooltip_text (self->target_button, tooltip);

  if (preset == NULL)
    return;

  size = nsc_format_size (self->file_size ? self->file_size : preset->file_size);
  description = g_strdup_printf (_("A hidden test file of %s is written in <b>%s</b>, measured, "
                                   "and deleted afterwards. Nothing else in the folder is "
                                   "touched."), size, escaped_path);
  adw_status_page_set_description (self->status_page, description);

  {
    g_autofree char *duration = format_duration_words (effective_estimate_ns (self, preset));
    g_autofree char *subtitle = g_strdup_printf (_("%s · about %s"), preset->title, duration);
    g_autofree char *title = g_markup_escape_text (preset->title, -1);
    g_autofree char *text = g_markup_escape_text (preset->description, -1);
    g_autofree char *markup = NULL;
    g_autofree char *dd_tooltip = NULL;

    markup = g_strdup_printf (_("<b>%s</b>: %s\n\nTakes about %s, after the test file is "
                                "written."), title, text, duration);
    gtk_label_set_markup (self->preset_label, markup);
    adw_window_title_set_subtitle (self->window_title, subtitle);
    dd_tooltip = g_strdup_printf (_("%s\nAbout %s"), preset->description, duration);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->preset_dropdown), dd_tooltip);
  }
}

static void
set_running (NscWindow *self,
             gboolean   running)
{
  set_action_enabled (self, "run", !running);
  set_action_enabled (self, "cancel", running);
  set_action_enabled (self, "choose-target", !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->preset_dropdown), !running);

  if (running)
    {
      gtk_button_set_label (self->run_button, _("_Cancel"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->run_button), "win.cancel");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->run_button), _("Stop the test (Esc)"));
      gtk_widget_remove_css_class (GTK_WIDGET (self->run_button), "suggested-action");
    }
  else
    {
      gtk_button_set_label (self->run_button, _("_Run"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->run_button), "win.run");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->run_button), _("Run the test (Ctrl+R)"));
      gtk_widget_add_css_class (GTK_WIDGET (self->run_button), "suggested-action");
    }
  gtk_widget_set_visible (self->progress_box, running);
}

static void
clear_warnings (NscWindow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->warnings_box)))
    gtk_box_remove (GTK_BOX (self->warnings_box), child);
  gtk_widget_set_visible (self->warnings_box, FALSE);
  self->warnings_shown = 0;
}

/* Some engine messages are fragments ("the folder is in memory…"); on their own
 * line they read as sentences. */
static char *
sentence_case (const char *text)
{
  GString *out = g_string_new (NULL);

  if (text != NULL && *text != '\0')
    {
      g_string_append_unichar (out, g_unichar_toupper (g_utf8_get_char (text)));
      g_string_append (out, g_utf8_next_char (text));
    }
  return g_string_free (out, FALSE);
}

static void
update_warnings (NscWindow    *self,
                 NscRunResult *r)
{
  for (; self->warnings_shown < r->warnings->len; self->warnings_shown++)
    {
      NscWarning *w = g_ptr_array_index (r->warnings, self->warnings_shown);
      g_autofree char *message = sentence_case (w->message);
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      GtkWidget *label = gtk_label_new (message);

      gtk_widget_add_css_class (row, "warning-row");
      gtk_widget_set_valign (icon, GTK_ALIGN_START);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_box_append (GTK_BOX (row), icon);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (GTK_BOX (self->warnings_box), row);
      gtk_widget_set_visible (self->warnings_box, TRUE);
    }
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
  self->current_step = step;
  self->current_run = 0;
  self->measuring = FALSE;
  nsc_results_grid_step_started (self->results_grid, runner_step (runner, step));
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
}

static void
on_progress (NscRunner  *runner,
             double      fraction,
             gint64      remaining_ns,
             const char *status,
             NscWindow  *self)
{
  g_autofree char *left = format_time_left (remaining_ns);
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

      if (self->run_runs > 1)
        /* TRANSLATORS: "SEQ1M Q8T1 · reading · run 2 of 3" */
        text = g_strdup_printf (_("%s · %s · run %u of %u"), label, what,
                                self->current_run + 1, self->run_runs);
      else
        /* TRANSLATORS: "SEQ1M Q8T1 · reading" */
        text = g_strdup_printf (_("%s · %s"), label, what);
    }

  gtk_label_set_text (self->status_label, text ? text : status);
  gtk_label_set_text (self->time_left_label, left);
}

/* ---- finishing a run ------------------------------------------------------------ */

static char *
results_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "nandscope", "results", NULL);
}

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

/* Saves under $XDG_DATA_HOME/nandscope/results/<UTC time>-<preset>.json. */
static char *
save_result (NscRunResult  *r,
             GError       **error)
{
  g_autofree char *dir = results_dir ();
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) utc = r->started ? g_date_time_to_utc (r->started) : g_date_time_ref (now);
  g_autofree char *stamp = g_date_time_format (utc, "%Y%m%dT%H%M%SZ");
  g_autofree char *path = NULL;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot create the folder %s for results: %s"), dir, g_strerror (errsv));
      return NULL;
    }

  for (guint i = 1; path == NULL || g_file_test (path, G_FILE_TEST_EXISTS); i++)
    {
      g_autofree char *name = NULL;

      g_free (path);
      if (i == 1)
        name = g_strdup_printf ("%s-%s.json", stamp, r->preset_name ? r->preset_name : "run");
      else
        name = g_strdup_printf ("%s-%s-%u.json", stamp, r->preset_name ? r->preset_name : "run", i);
      path = g_build_filename (dir, name, NULL);
    }

  if (!nsc_run_result_save (r, path, error))
    return NULL;
  return g_steal_pointer (&path);
}

static void
show_summary (NscWindow    *self,
              NscRunResult *r,
              const char   *saved)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *took = format_duration_words (r->duration_ns);
  g_autofree char *per_test = nsc_format_duration (r->time_ns);
  const char *backend = NULL;

  for (guint i = 0; i < r->steps->len && backend == NULL; i++)
    {
      const NscJobResult *head = nsc_step_result_headline (g_ptr_array_index (r->steps, i));
      if (head)
        backend = nsc_backend_to_string (head->backend);
    }

  if (r->cancelled)
    g_string_append_printf (text, _("Cancelled after %s"), took);
  else if (r->error)
    g_string_append_printf (text, _("Stopped after %s"), took);
  else
    g_string_append_printf (text, _("Finished in %s"), took);

  g_string_append (text, " · ");
  if (r->runs > 1)
    g_string_append_printf (text, _("%u runs of %s per test, the median shown"), r->runs, per_test);
  else
    g_string_append_printf (text, _("1 run of %s per test"), per_test);

  if (g_strcmp0 (r->target_kind, "file") == 0)
    {
      g_autofree char *size = nsc_format_size (r->file_size);
      g_string_append (text, " · ");
      if (r->filesystem)
        g_string_append_printf (text, _("%s test file on %s"), size, r->filesystem);
      else
        g_string_append_printf (text, _("%s test file"), size);
    }
  if (backend)
    g_string_append_printf (text, " · %s", backend);
  if (saved)
    {
      g_autofree char *where = display_path (saved);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Saved to %s"), where);
    }

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
      if (self->device)
        nsc_run_result_set_device (r, nsc_device_info_to_json (self->device));
      saved = save_result (r, &save_error);
    }

  if (self->inhibit_cookie != 0 && app != NULL)
    gtk_application_uninhibit (GTK_APPLICATION (app), self->inhibit_cookie);
  self->inhibit_cookie = 0;

  /* The window was destroyed while the runner wound down. */
  if (self->runner != runner)
    return;

  nsc_results_grid_stop (self->results_grid);
  update_warnings (self, r);
  /* A run that failed before measuring anything (a target that does not exist)
   * is only its error message; an empty table would say nothing more. */
  if (count_measured_steps (r) > 0)
    show_summary (self, r, saved);
  else if (error != NULL && !cancelled)
    gtk_widget_set_visible (GTK_WIDGET (self->results_grid), FALSE);

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
      add_toast (self, toast, _("Open Folder"), "win.open-results");
    }
  else if (save_error != NULL)
    add_toast (self, save_error->message, NULL, NULL);
  else if (cancelled)
    add_toast (self, _("Cancelled before anything was measured"), NULL, NULL);

  if (save_error != NULL)
    message = g_strdup (save_error->message);
  else if (error != NULL)
    message = g_strdup (error->message);
  else if (saved != NULL)
    message = g_strdup_printf (_("Result saved to %s"), saved);

  g_clear_object (&self->runner);
  g_clear_object (&self->cancellable);
  set_running (self, FALSE);

  g_signal_emit (self, signals[SIGNAL_RUN_FINISHED], 0, ok && save_error == NULL, message);

  if (self->close_when_done)
    gtk_window_destroy (GTK_WINDOW (self));
}

/* ---- public API -------------------------------------------------------------- */

/**
 * nsc_window_run:
 * Starts the selected preset on the target; nothing happens while a run is on.
 */
void
nsc_window_run (NscWindow *self)
{
  const NscPreset *preset;
  NscRunOptions opts = { 0 };
  GApplication *app;

  g_return_if_fail (NSC_IS_WINDOW (self));

  if (self->runner != NULL || (preset = get_selected_preset (self)) == NULL)
    return;

  opts.target = self->target;
  opts.file_size = self->file_size;
  opts.runs = self->runs;
  opts.time_ns = self->time_ns;
  opts.backend = NSC_BACKEND_AUTO;

  /* The app never runs as root: sysfs facts and the hwmon sensor, no NVMe admin
   * commands. The node string lives as long as self->device, past the run. */
  g_clear_pointer (&self->device, nsc_device_info_free);
  self->device = nsc_device_info_for_path (self->target, NSC_DISCOVER_DEFAULT, NULL);
  if (self->device)
    {
      opts.read_temperature = nsc_device_temperature_func;
      opts.temperature_data = self->device->devnode;
    }

  self->runner = nsc_runner_new (preset, &opts);
  self->cancellable = g_cancellable_new ();
  self->current_step = G_MAXUINT;
  self->current_run = 0;
  self->measuring = FALSE;
  self->run_runs = effective_runs (self, preset);

  g_signal_connect_object (self->runner, "step-started", G_CALLBACK (on_step_started), self, 0);
  g_signal_connect_object (self->runner, "sample", G_CALLBACK (on_sample), self, 0);
  g_signal_connect_object (self->runner, "step-finished", G_CALLBACK (on_step_finished), self, 0);
  g_signal_connect_object (self->runner, "progress", G_CALLBACK (on_progress), self, 0);

  nsc_results_grid_set_preset (self->results_grid, preset);
  gtk_widget_set_visible (GTK_WIDGET (self->results_grid), TRUE);
  clear_warnings (self);
  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), FALSE);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_label_set_text (self->status_label, _("Starting"));
  {
    g_autofree char *left = format_time_left (nsc_runner_get_estimate_ns (self->runner));
    gtk_label_set_text (self->time_left_label, left);
  }
  set_running (self, TRUE);
  gtk_stack_set_visible_child_name (self->stack, "results");

  /* A suspend in the middle would make every number after it meaningless. */
  app = g_application_get_default ();
  if (app != NULL)
    self->inhibit_cookie = gtk_application_inhibit (GTK_APPLICATION (app), GTK_WINDOW (self),
                                                    GTK_APPLICATION_INHIBIT_SUSPEND,
                                                    _("Benchmark running"));

  nsc_runner_run_async (self->runner, self->cancellable, on_run_done, g_object_ref (self));
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
  return self->runner != NULL;
}

void
nsc_window_set_target (NscWindow  *self,
                       const char *path)
{
  g_return_if_fail (NSC_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (g_strcmp0 (self->target, path) == 0)
    return;
  g_free (self->target);
  self->target = g_strdup (path);
  update_info (self);
}

gboolean
nsc_window_set_preset (NscWindow  *self,
                       const char *name)
{
  g_return_val_if_fail (NSC_IS_WINDOW (self), FALSE);

  for (guint i = 0; i < self->presets->len; i++)
    {
      const NscPreset *p = g_ptr_array_index (self->presets, i);

      if (g_strcmp0 (p->name, name) == 0)
        {
          gtk_drop_down_set_selected (self->preset_dropdown, i);
          return TRUE;
        }
    }
  return FALSE;
}

void
nsc_window_set_overrides (NscWindow *self,
                          guint      runs,
                          gint64     time_ns,
                          guint64    file_size)
{
  g_return_if_fail (NSC_IS_WINDOW (self));

  self->runs = runs;
  self->time_ns = time_ns;
  self->file_size = file_size;
  update_info (self);
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

static void
on_chooser_response (GtkNativeDialog *native,
                     int              response,
                     NscWindow       *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        nsc_window_set_target (self, path);
      else
        add_toast (self, _("Choose a folder on this computer: remote folders cannot be tested"),
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
  g_autofree char *dir = results_dir ();
  g_autofree char *uri = g_filename_to_uri (dir, NULL, NULL);

  if (uri != NULL)
    gtk_show_uri (GTK_WINDOW (user_data), uri, GDK_CURRENT_TIME);
}

static const GActionEntry win_actions[] = {
  { "run", run_action },
  { "cancel", cancel_action },
  { "choose-target", choose_target_action },
  { "open-results", open_results_action },
};

/* ---- preset drop-down ----------------------------------------------------------- */

static void
setup_preset_item (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, label);
}

static void
bind_preset_item (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  NscWindow                *self)
{
  GtkStringObject *name = gtk_list_item_get_item (item);
  const NscPreset *preset = find_preset (self, gtk_string_object_get_string (name));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      preset ? preset->title : gtk_string_object_get_string (name));
}

static void
setup_preset_row (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *caption = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (caption), 0);
  gtk_widget_add_css_class (caption, "caption");
  gtk_widget_add_css_class (caption, "dim-label");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), caption);
  gtk_list_item_set_child (item, box);
}

static void
bind_preset_row (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 NscWindow                *self)
{
  GtkStringObject *name = gtk_list_item_get_item (item);
  const NscPreset *preset = find_preset (self, gtk_string_object_get_string (name));
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *title = gtk_widget_get_first_child (box);
  GtkWidget *caption = gtk_widget_get_next_sibling (title);
  g_autofree char *duration = NULL;
  g_autofree char *text = NULL;

  if (preset == NULL)
    return;
  duration = format_duration_words (effective_estimate_ns (self, preset));
  text = g_strdup_printf (_("About %s"), duration);
  gtk_label_set_text (GTK_LABEL (title), preset->title);
  gtk_label_set_text (GTK_LABEL (caption), text);
  gtk_widget_set_tooltip_text (box, preset->description);
}

static void
load_presets (NscWindow *self)
{
  g_auto(GStrv) names = nsc_preset_list_names ();
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkListItemFactory) list_factory = gtk_signal_list_item_factory_new ();

  self->presets = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_preset_free);
  self->preset_names = gtk_string_list_new (NULL);

  for (guint i = 0; names && names[i]; i++)
    {
      g_autoptr(GError) error = NULL;
      NscPreset *preset = nsc_preset_lookup (names[i], &error);

      /* A broken built-in preset is a bug; the others still work. */
      if (preset == NULL)
        {
          g_critical ("Built-in preset %s: %s", names[i], error->message);
          continue;
        }
      g_ptr_array_add (self->presets, preset);
      gtk_string_list_append (self->preset_names, preset->name);
    }

  g_signal_connect (factory, "setup", G_CALLBACK (setup_preset_item), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_preset_item), self);
  g_signal_connect (list_factory, "setup", G_CALLBACK (setup_preset_row), NULL);
  g_signal_connect (list_factory, "bind", G_CALLBACK (bind_preset_row), self);

  gtk_drop_down_set_factory (self->preset_dropdown, factory);
  gtk_drop_down_set_list_factory (self->preset_dropdown, list_factory);
  gtk_drop_down_set_model (self->preset_dropdown, G_LIST_MODEL (self->preset_names));
}

/* ---- GObject ------------------------------------------------------------------ */

static gboolean
nsc_window_close_request (GtkWindow *window)
{
  NscWindow *self = NSC_WINDOW (window);

  /* The test file must be deleted and the result saved: cancel, hide, and let
   * the pending callback (which holds a reference) destroy the window. */
  if (self->runner != NULL)
    {
      self->close_when_done = TRUE;
      g_cancellable_cancel (self->cancellable);
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return TRUE;
    }

  return GTK_WINDOW_CLASS (nsc_window_parent_class)->close_request (window);
}

static void
nsc_window_dispose (GObject *object)
{
  NscWindow *self = NSC_WINDOW (object);

  if (self->runner != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->runner, self);
      g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->runner);
    }
  g_clear_object (&self->cancellable);
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (self->chooser);
      g_clear_object (&self->chooser);
    }

  gtk_widget_dispose_template (GTK_WIDGET (self), NSC_TYPE_WINDOW);

  G_OBJECT_CLASS (nsc_window_parent_class)->dispose (object);
}

static void
nsc_window_finalize (GObject *object)
{
  NscWindow *self = NSC_WINDOW (object);

  g_clear_pointer (&self->presets, g_ptr_array_unref);
  g_clear_object (&self->preset_names);
  g_clear_pointer (&self->target, g_free);
  /* In finalize, not dispose: a run in progress holds a reference to the window and
   * reads the temperature through the device's node until it ends. */
  g_clear_pointer (&self->device, nsc_device_info_free);

  G_OBJECT_CLASS (nsc_window_parent_class)->finalize (object);
}

static void
nsc_window_class_init (NscWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = nsc_window_dispose;
  object_class->finalize = nsc_window_finalize;
  window_class->close_request = nsc_window_close_request;

  signals[SIGNAL_RUN_FINISHED] =
    g_signal_new ("run-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_BOOLEAN, G_TYPE_STRING);

  g_type_ensure (NSC_TYPE_RESULTS_GRID);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nandscope/Nandscope/nsc-window.ui");
  gtk_widget_class_bind_template_child (widget_class, NscWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, target_button);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, target_content);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, preset_dropdown);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, run_button);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, status_page);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, preset_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, progress_box);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, time_left_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, error_box);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, results_grid);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, warnings_box);
}

static void
nsc_window_init (NscWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions,
                                   G_N_ELEMENTS (win_actions), self);
  self->target = g_strdup (g_get_home_dir ());
  self->current_step = G_MAXUINT;

  load_presets (self);
  g_signal_connect_swapped (self->preset_dropdown, "notify::selected",
                            G_CALLBACK (update_info), self);
  set_running (self, FALSE);
  update_info (self);
}

NscWindow *
nsc_window_new (NscApplication *application)
{
  return g_object_new (NSC_TYPE_WINDOW, "application", application, NULL);
}

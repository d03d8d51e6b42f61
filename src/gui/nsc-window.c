/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/stat.h>
#include <unistd.h>

#include "nsc-bench.h"
#include "nsc-bench-group.h"
#include "nsc-chart-panel.h"
#include "nsc-device.h"
#include "nsc-device-row.h"
#include "nsc-device-safety.h"
#include "nsc-engine.h"
#include "nsc-history.h"
#include "nsc-preferences.h"
#include "nsc-result-info.h"
#include "nsc-reflow-box.h"
#include "nsc-results-grid.h"
#include "nsc-session.h"
#include "nsc-start-page.h"
#include "nsc-udisks.h"
#include "nsc-warnings-list.h"
#include "nsc-window.h"
#include "nsc-window-private.h"

struct _NscWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template children */
  AdwToastOverlay      *toast_overlay;
  GtkWidget            *target_button;
  GtkImage             *target_icon;
  GtkLabel             *target_label;
  GtkPopover           *target_popover;
  GtkListBox           *folder_list;
  GtkListBox           *drive_list;
  GtkDropDown          *preset_dropdown;
  AdwWindowTitle       *window_title;
  GtkButton            *run_button;
  GtkStack             *run_stack;      /* its words: Run, Cancel */
  GtkStack             *stack;
  GtkScrolledWindow    *results_scroller;
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
  NscChartPanel        *chart_panel;
  GtkWidget            *warnings_box;
  NscWarningsList      *warnings_list;  /* in warnings_box */
  GtkWidget            *bench_box;      /* the Test Bench group of the result shown */

  GSettings            *settings;       /* NULL when the schema is not installed */
  NscPrefs              prefs;
  GtkWindow            *history;        /* weak: the history window while open */
  GtkWindow            *preferences;    /* weak */
  char                 *shown_path;     /* the saved result on the results page */
  guint                 chart_step;     /* the live chart's step and run */
  guint                 chart_run;
  guint                 chart_samples;  /* fed to live charts during this run */
  guint                 chart_steps;    /* steps that had a live chart */

  GPtrArray            *presets;        /* NscPreset, in the order of the drop-down */
  GtkStringList        *preset_names;
  GtkCustomFilter      *preset_filter;  /* the presets offered for the target */
  GtkFilterListModel   *preset_model;
  char                 *target;
  NscDeviceInfo        *target_device;  /* set when the target is a block device */
  NscDeviceInfo        *folder_device;  /* the drive behind a folder target, when known */
  char                 *other_folder;   /* the folder chosen last, kept in the picker */
  GPtrArray            *devices;        /* NscDeviceInfo: the picker's drives */
  char                 *udisks_missing; /* why UDisks2 cannot open drives, or NULL */
  GCancellable         *udisks_probe;   /* while asking whether UDisks2 is there */
  gboolean              fake_devices;   /* NANDSCOPE_SYSFS_ROOT: a captured tree, never opened */
  guint                 runs;           /* overrides; 0: the preset's */
  gint64                time_ns;
  guint64               file_size;

  GtkNativeDialog      *chooser;

  /* Between Run and the runner: the erase dialog, then UDisks2 and polkit */
  gboolean              pending;
  const NscPreset      *pending_preset;
  gboolean              pending_destroy;
  AdwMessageDialog     *confirm_dialog;

  /* While a run is in progress */
  NscRunner            *runner;
  NscSession           *session;      /* the run's options, drive and bench: from Run to the
                                        * next Run (the temperature hook reads its drive) */
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

static const NscPreset *
get_selected_preset (NscWindow *self)
{
  GtkStringObject *item = gtk_drop_down_get_selected_item (self->preset_dropdown);

  return item ? find_preset (self, gtk_string_object_get_string (item)) : NULL;
}

/* What the user chose for a run: the command line's overrides first, then the
 * preferences. The session adds strict's and CrystalDiskMark's defaults. */
static void
user_options (NscWindow     *self,
              NscRunOptions *user)
{
  NscRunOptions opts = NSC_RUN_OPTIONS_INIT;

  opts.file_size = self->file_size ? self->file_size
                                   : self->prefs.custom ? self->prefs.test_size : 0;
  opts.runs = self->runs ? self->runs : self->prefs.custom ? self->prefs.runs : 0;
  opts.time_ns = self->time_ns ? self->time_ns
                               : self->prefs.custom ? self->prefs.duration_seconds * G_GINT64_CONSTANT (1000000000) : 0;
  opts.idle_ns = self->prefs.idle_seconds * G_GINT64_CONSTANT (1000000000);
  opts.strict = self->prefs.strict;
  opts.cdm = self->prefs.cdm;
  opts.backend = NSC_BACKEND_AUTO;
  /* Sandboxed (Flatpak), /dev and mountinfo are the sandbox's: UDisks2 says what uses
   * the drive, before the confirmation and again once the drive is held. */
  if (nsc_udisks_is_sandboxed ())
    opts.check_device = nsc_udisks_check_func;
  *user = opts;
}

/* The engine's answer to "does this run write, trim or erase the drive?", on the
 * options the run will have (strict's included), the one the command line asks too. */
static gboolean
run_writes (NscWindow       *self,
            const NscPreset *preset)
{
  NscRunOptions user, opts;

  user_options (self, &user);
  nsc_session_options (&opts, self->target, &user);
  return nsc_run_writes (preset, &opts);
}

/* Whether @preset can run on the target; if not, @why says why and what to do. */
static gboolean
preset_offered (NscWindow        *self,
                const NscPreset  *preset,
                char            **why)
{
  /* In a folder every preset runs on a test file, the user's files stay; but erasing
   * or scanning a drive means a drive. */
  if (self->target_device == NULL)
    {
      if (preset->needs_device && why)
        /* TRANSLATORS: "Surface scan needs a drive: …" */
        *why = g_strdup_printf (_("%s needs a drive: choose one under Drives in the target "
                                  "menu, a drive that nothing uses"), preset->title);
      return !preset->needs_device;
    }

  if (run_writes (self, preset))
    {
      g_autofree char *refusal = nsc_device_row_refusal (self->target_device);

      if (refusal != NULL)
        {
          if (why)
            {
              g_autofree char *title = nsc_device_row_title (self->target_device);
              /* TRANSLATORS: "Quick writes to the drive, so it cannot run on Samsung …
               * (sda): It is mounted at /data. Unmount it …" */
              *why = g_strdup_printf (_("%s writes to the drive, so it cannot run on %s (%s): %s"),
                                      nsc_preset_get_display_title (preset), title,
                                      self->target_device->devnode, refusal);
            }
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
preset_filter_func (gpointer item,
                    gpointer user_data)
{
  NscWindow *self = user_data;
  const NscPreset *preset = find_preset (self, gtk_string_object_get_string (item));

  return preset != NULL && preset_offered (self, preset, NULL);
}

static gboolean
select_preset_by_name (NscWindow  *self,
                       const char *name)
{
  GListModel *model = G_LIST_MODEL (self->preset_model);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (gtk_string_object_get_string (item), name) == 0)
        {
          gtk_drop_down_set_selected (self->preset_dropdown, i);
          return TRUE;
        }
    }
  return FALSE;
}

static char *target_display_name (const char *path);
static void  add_toast           (NscWindow  *self,
                                  const char *text,
                                  const char *button_label,
                                  const char *action_name);

/* The target changed: offer what can run on it, keeping the choice where it can. */
static void
refilter_presets (NscWindow *self)
{
  const NscPreset *before = get_selected_preset (self);
  g_autofree char *name = g_strdup (before ? before->name : NULL);

  gtk_filter_changed (GTK_FILTER (self->preset_filter), GTK_FILTER_CHANGE_DIFFERENT);
  if (name == NULL || !select_preset_by_name (self, name))
    {
      const NscPreset *now;

      gtk_drop_down_set_selected (self->preset_dropdown, 0);
      now = get_selected_preset (self);
      /* Never a silent swap: the user chose the other one. */
      if (before != NULL && now != NULL)
        {
          g_autofree char *where = self->target_device ? nsc_device_row_title (self->target_device)
                                                       : target_display_name (self->target);
          /* TRANSLATORS: "Quick cannot run on Samsung 980 PRO; Surface scan is chosen instead" */
          g_autofree char *text = g_strdup_printf (_("%s cannot run on %s; %s is chosen instead"),
                                                   before->title, where, now->title);
          add_toast (self, text, NULL, NULL);
        }
    }
}

static guint
effective_runs (NscWindow       *self,
                const NscPreset *preset)
{
  return self->runs ? self->runs : MAX (preset->runs, 1u);
}


/* What the start page knows before anything runs. @history_dir is the caller's. */
static void
start_facts (NscWindow       *self,
             const NscPreset *preset,
             char            *history_dir,
             NscStartFacts   *f)
{
  *f = (NscStartFacts) { 0 };
  f->target = self->target;
  f->device = self->target_device;
  f->under_folder = self->folder_device;
  f->history_dir = history_dir;
  f->runs = self->runs;
  f->time_ns = self->time_ns;
  f->file_size = self->file_size;
  f->strict = self->prefs.strict;
  f->writes = run_writes (self, preset);
  f->units = self->prefs.units;
}

/* How long @preset takes here, writes at the drive's last speed when known. */
static gint64
start_estimate_ns (NscWindow       *self,
                   const NscPreset *preset)
{
  g_autofree char *dir = nsc_session_results_dir ();
  NscStartFacts f;

  start_facts (self, preset, dir, &f);
  return nsc_start_page_estimate_ns (preset, &f, NULL);
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

/* The preset's writes against the drive's own written total, where its SMART log was
 * read: said before Start. NULL when not known. */
static char *
wear_markup (NscWindow       *self,
             const NscPreset *preset)
{
  NscDeviceInfo *dev = self->target_device;
  NscBudgetTarget t = { 0 };
  g_autofree char *wear = NULL;
  guint64 total = 0;

  if (dev == NULL || dev->nvme == NULL || !dev->nvme->have_smart)
    return NULL;
  t.runs = effective_runs (self, preset);
  t.time_ns = self->time_ns;
  t.is_device = TRUE;
  t.capacity = dev->capacity;
  g_array_unref (nsc_write_budget (preset, &t, &total, NULL));
  if (total == 0)
    return NULL;
  wear = nsc_write_budget_describe_wear (total, dev->nvme->data_units_written * 512000,
                                         dev->nvme->percent_used);
  return g_markup_printf_escaped ("%s.", wear);
}

static void
update_info (NscWindow *self)
{
  const NscPreset *preset = get_selected_preset (self);
  g_autofree char *name = NULL;
  g_autofree char *path = display_path (self->target);
  g_autofree char *tooltip = NULL;
  g_autofree char *description = NULL;
  g_autofree char *history = nsc_session_results_dir ();
  NscDeviceInfo *dev = self->target_device;
  NscStartFacts sf;

  if (dev != NULL)
    {
      g_autofree char *facts = nsc_device_row_facts (dev);

      name = nsc_device_row_title (dev);
      tooltip = g_strdup_printf (_("Test the drive %s: %s"), name, facts);
      gtk_image_set_from_icon_name (self->target_icon, "drive-harddisk-symbolic");
    }
  else
    {
      name = target_display_name (self->target);
      tooltip = g_strdup_printf (_("Test in %s"), path);
      gtk_image_set_from_icon_name (self->target_icon,
                                    g_strcmp0 (self->target, g_get_home_dir ()) == 0
                                    ? "user-home-symbolic" : "folder-symbolic");
    }
  gtk_label_set_text (self->target_label, name);
  gtk_widget_set_tooltip_text (self->target_button, tooltip);

  if (preset == NULL)
    return;
  start_facts (self, preset, history, &sf);

  if (dev != NULL)
    {
      g_autofree char *title = g_markup_escape_text (name, -1);
      g_autofree char *facts = nsc_device_row_facts (dev);
      g_autofree char *escaped_facts = g_markup_escape_text (facts, -1);
      g_autofree char *refusal = nsc_device_row_refusal (dev);
      GString *text = g_string_new (NULL);

      if (run_writes (self, preset))
        g_string_append_printf (text, _("This test writes over <b>%s</b> (%s): everything on "
                                        "it will be destroyed. You will be asked to confirm, "
                                        "then for permission to open the drive."),
                                title, escaped_facts);
      else
        g_string_append_printf (text, _("This test only reads from <b>%s</b> (%s); nothing on "
                                        "it is changed. Opening the drive asks for permission."),
                                title, escaped_facts);
      if (refusal != NULL)
        {
          g_autofree char *escaped = g_markup_escape_text (refusal, -1);
          g_string_append (text, "\n\n");
          g_string_append_printf (text, _("Tests that write are not offered here. %s"), escaped);
        }
      else if (nsc_device_row_is_new (dev))
        {
          g_string_append (text, "\n\n");
          g_string_append (text, _("<b>New drive</b>: the full suite can run on it, "
                                   "including the tests that fill the whole drive."));
        }
      description = g_string_free (text, FALSE);
    }
  else
    description = nsc_start_page_target_markup (preset, &sf);
  adw_status_page_set_description (self->status_page, description);

  {
    double estimate_s = nsc_start_page_estimate_ns (preset, &sf, NULL) / 1e9;
    g_autofree char *duration = nsc_words_about (estimate_s, FALSE);
    g_autofree char *about = nsc_words_about (estimate_s, TRUE);
    /* Translators: the window's subtitle: "Quick · about 3 minutes" */
    g_autofree char *subtitle = g_strdup_printf (C_("subtitle", "%s · %s"),
                                                 nsc_preset_get_display_title (preset), duration);
    g_autofree char *markup = nsc_start_page_preset_markup (preset, &sf);
    g_autofree char *wear = wear_markup (self, preset);
    g_autofree char *dd_tooltip = NULL;

    if (wear != NULL)
      {
        char *with = g_strdup_printf ("%s %s", markup, wear);
        g_free (markup);
        markup = with;
      }

    gtk_label_set_markup (self->preset_label, markup);
    adw_window_title_set_subtitle (self->window_title, subtitle);
    /* Translators: a preset's description, then "About 3 minutes" */
    dd_tooltip = g_strdup_printf (C_("tooltip", "%s\n%s"),
                                  nsc_preset_get_display_description (preset), about);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->preset_dropdown), dd_tooltip);
  }
}

/* A new target or preset: what the page showed (an error, a result of another preset)
 * is about something else now, so the start page says what Run will do. */
static void
return_to_start (NscWindow *self)
{
  if (nsc_window_get_running (self))
    return;
  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_stack_set_visible_child_name (self->stack, "idle");
}

/* One Run: the start page has its Start button, the header's Run (and Cancel) is
 * for the other pages. */
static void
on_page_changed (NscWindow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->run_button),
                          g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "idle") != 0);
}

static void
on_preset_selected (NscWindow *self)
{
  update_info (self);
  return_to_start (self);
}

static void
set_running (NscWindow *self,
             gboolean   running)
{
  set_action_enabled (self, "run", !running);
  set_action_enabled (self, "cancel", running);
  set_action_enabled (self, "choose-target", !running);
  gtk_widget_set_sensitive (self->target_button, !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->preset_dropdown), !running);

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
clear_warnings (NscWindow *self)
{
  GtkWidget *child;

  nsc_warnings_list_clear (self->warnings_list);
  self->warnings_shown = 0;
  /* The test bench goes with the warnings: a new run has none yet. */
  while ((child = gtk_widget_get_first_child (self->bench_box)))
    gtk_box_remove (GTK_BOX (self->bench_box), child);
  gtk_widget_set_visible (self->bench_box, FALSE);
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
    }
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

  if (text == NULL)
    text = nsc_status_describe (status);
  /* Progress comes with every sample: set only what changed. */
  if (g_strcmp0 (gtk_label_get_text (self->status_label), text) != 0)
    gtk_label_set_text (self->status_label, text);
  if (g_strcmp0 (gtk_label_get_text (self->time_left_label), left) != 0)
    gtk_label_set_text (self->time_left_label, left);
}

/* ---- charts and saved results ---------------------------------------------------- */

/* The charts of @result (every kind it has, in the chooser); hidden when it has none. */
static void
show_charts (NscWindow  *self,
             JsonNode   *result,
             const char *path)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  g_free (self->shown_path);
  self->shown_path = g_strdup (path);
  g_ptr_array_add (results, result);
  g_ptr_array_add (paths, (gpointer) path);
  if (!nsc_chart_panel_set_results (self->chart_panel, results, paths, &error))
    {
      g_debug ("No chart: %s", error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->chart_panel), FALSE);
    }
}

/* The test bench of @result, or nothing (NULL). */
static void
show_bench (NscWindow *self,
            JsonNode  *result)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->bench_box)))
    gtk_box_remove (GTK_BOX (self->bench_box), child);
  if (result != NULL)
    gtk_box_append (GTK_BOX (self->bench_box), nsc_bench_group_new (result));
  gtk_widget_set_visible (self->bench_box, result != NULL);
}

static void
show_json_warnings (NscWindow *self,
                    JsonNode  *result)
{
  nsc_warnings_list_add_json (self->warnings_list, result);
}

/* The drive's own count of what the run wrote (SMART, before and after) beside the
 * run's, and a note when it is far above it. */
static void
append_wear_line (GString  *text,
                  JsonNode *result)
{
  g_autofree char *amplified = NULL;
  g_autofree char *line = NULL;

  if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
    return;
  line = nsc_wear_describe_result (json_node_get_object (result), &amplified);
  if (line == NULL)
    return;
  g_string_append_printf (text, "\n%s", line);
  if (amplified)
    g_string_append_printf (text, "\n%s", amplified);
}

/* A saved result on the results page: its grid, warnings and charts. */
static void
show_result (NscWindow  *self,
             JsonNode   *result,
             const char *path)
{
  g_autofree char *drive = nsc_result_info_drive_facts (result);
  g_autoptr(GDateTime) started = nsc_result_info_started (result);
  g_autofree char *date = nsc_result_info_format_date (started);
  g_autofree char *conditions = nsc_result_info_conditions (result);
  const char *preset = nsc_result_info_preset_title (result);
  g_autoptr(GString) text = g_string_new (NULL);

  clear_warnings (self);
  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_widget_set_visible (self->progress_box, FALSE);
  nsc_results_grid_show_result (self->results_grid, result);
  gtk_widget_set_visible (GTK_WIDGET (self->results_grid), TRUE);
  show_json_warnings (self, result);

  /* TRANSLATORS: "Quick · Samsung 980 PRO · 1.00 TB · 30 Nov 2026, 06:18" */
  g_string_append_printf (text, _("%s · %s · %s"), preset ? preset : _("Result"), drive, date);
  g_string_append_c (text, '\n');
  /* TRANSLATORS: "Cancelled · strict conditions · 3 runs per test, the median shown" */
  g_string_append_printf (text, _("%s · %s"), nsc_result_info_status (result), conditions);
  if (path != NULL)
    {
      g_autofree char *where = display_path (path);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Opened from %s"), where);
    }
  append_wear_line (text, result);
  gtk_label_set_text (self->summary_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), TRUE);

  show_charts (self, result, path);
  show_bench (self, result);
  gtk_stack_set_visible_child_name (self->stack, "results");
  /* Another result starts at its top, not where the last one was left. */
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->results_scroller), 0);
}

/**
 * nsc_window_open_result:
 * Loads a saved result and shows it; a damaged file fails with a message that
 * says which file and what is wrong, and nothing on screen changes but the error.
 */
gboolean
nsc_window_open_result (NscWindow   *self,
                        const char  *path,
                        GError     **error)
{
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (NSC_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (nsc_window_get_running (self))
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_BUSY,
                           _("A test is running; open results when it has finished"));
      return FALSE;
    }

  result = nsc_result_file_load (path, &local_error);
  if (result == NULL)
    {
      g_autofree char *prefix = g_strconcat (path, ": ", NULL);
      const char *why = local_error->message;

      /* The file is named once, by its name. */
      if (g_str_has_prefix (why, prefix))
        why += strlen (prefix);
      name = g_filename_display_basename (path);
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("Cannot open the result %s: %s"), name, why);
      return FALSE;
    }
  show_result (self, result, path);
  return TRUE;
}

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

static void
show_summary (NscWindow    *self,
              NscRunResult *r,
              const char   *saved)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *took = format_duration_words (r->duration_ns);
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
  {
    g_autofree char *runs = nsc_session_describe_runs (r);
    g_string_append (text, runs);
  }

  if (g_strcmp0 (r->target_kind, "file") == 0)
    {
      g_autofree char *size = nsc_words_size (r->file_size);
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
  if (r->smart_before && r->smart_after)
    {
      g_autoptr(JsonNode) json = nsc_run_result_to_json (r);
      append_wear_line (text, json);
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

  nsc_results_grid_stop (self->results_grid);
  update_warnings (self, r);
  /* For the GUI test: the live chart was fed. */
  g_debug ("Live chart: %u samples in %u steps", self->chart_samples, self->chart_steps);
  /* A run that failed before measuring anything (a target that does not exist)
   * is only its error message; an empty table would say nothing more. */
  if (count_measured_steps (r) > 0)
    show_summary (self, r, saved);
  else if (error != NULL && !cancelled)
    gtk_widget_set_visible (GTK_WIDGET (self->results_grid), FALSE);

  /* The live chart gives way to every chart of the finished run, read back
   * from the file as the history would (so what is shown is what was saved). */
  {
    g_autoptr(JsonNode) node = NULL;
    g_autoptr(GError) load_error = NULL;

    if (saved != NULL)
      node = nsc_result_file_load (saved, &load_error);
    if (node == NULL && count_measured_steps (r) > 0)
      node = nsc_run_result_to_json (r);
    if (load_error != NULL)
      g_warning ("The result just saved does not read back: %s", load_error->message);
    show_bench (self, node);
    if (node != NULL)
      show_charts (self, node, saved);
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
  self->run_runs = effective_runs (self, preset);

  g_signal_connect_object (self->runner, "step-started", G_CALLBACK (on_step_started), self, 0);
  g_signal_connect_object (self->runner, "sample", G_CALLBACK (on_sample), self, 0);
  g_signal_connect_object (self->runner, "step-finished", G_CALLBACK (on_step_finished), self, 0);
  g_signal_connect_object (self->runner, "progress", G_CALLBACK (on_progress), self, 0);

  nsc_results_grid_set_preset (self->results_grid, preset);
  gtk_widget_set_visible (GTK_WIDGET (self->results_grid), TRUE);
  nsc_chart_panel_clear (self->chart_panel);
  gtk_widget_set_visible (GTK_WIDGET (self->chart_panel), FALSE);
  g_clear_pointer (&self->shown_path, g_free);
  self->chart_step = G_MAXUINT;
  self->chart_samples = self->chart_steps = 0;
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
  set_running (self, FALSE);

  if (cancelled)
    add_toast (self, message, NULL, NULL);
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->results_grid), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->chart_panel), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->summary_label), FALSE);
      clear_warnings (self);
      gtk_label_set_text (self->error_label, message);
      gtk_widget_set_visible (self->error_box, TRUE);
      gtk_stack_set_visible_child_name (self->stack, "results");
    }

  g_signal_emit (self, signals[SIGNAL_RUN_FINISHED], 0, FALSE, message);

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
  set_running (self, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->results_grid), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->chart_panel), FALSE);
  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), FALSE);
  clear_warnings (self);
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

  if (self->runner != NULL || self->pending || (preset = get_selected_preset (self)) == NULL)
    return;

  {
    NscRunOptions user;

    user_options (self, &user);
    g_clear_pointer (&self->session, nsc_session_free);
    self->session = nsc_session_new (self->target, &user);
  }

  if (self->target_device == NULL)
    {
      start_runner (self, preset, -1, FALSE);
      return;
    }

  self->pending = TRUE;
  self->pending_preset = preset;
  self->pending_destroy = run_writes (self, preset);

  if (self->fake_devices)
    {
      if (self->pending_destroy)
        confirm_erase (self, preset);
      else
        fail_before_run (self, _("The drive list comes from NANDSCOPE_SYSFS_ROOT, a captured "
                                 "tree; its drives are shown, never opened"), FALSE);
      return;
    }

  if (!preset_offered (self, preset, &why))
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

/* NANDSCOPE_SYSFS_ROOT names a captured tree (tests/data/sysfs-laptop, with .mountinfo
 * and .swaps beside it), so that screenshots and tests show drives this machine lacks. */
static const char *
fake_sysfs_root (void)
{
  const char *root = g_getenv ("NANDSCOPE_SYSFS_ROOT");
  return root != NULL && *root != '\0' ? root : NULL;
}

static void
read_fake_tables (const char  *root,
                  char       **mountinfo,
                  char       **swaps)
{
  g_autofree char *m = g_strconcat (root, ".mountinfo", NULL);
  g_autofree char *w = g_strconcat (root, ".swaps", NULL);

  if (!g_file_get_contents (m, mountinfo, NULL, NULL))
    *mountinfo = g_strdup ("");
  if (!g_file_get_contents (w, swaps, NULL, NULL))
    *swaps = NULL;
}

static GPtrArray *
discover_devices (GError **error)
{
  const char *root = fake_sysfs_root ();
  g_autofree char *mountinfo = NULL;
  g_autofree char *swaps = NULL;

  if (root == NULL)
    return nsc_device_discover (NSC_DISCOVER_DEFAULT, error);
  read_fake_tables (root, &mountinfo, &swaps);
  return nsc_device_discover_at (root, mountinfo, swaps, NSC_DISCOVER_DEFAULT, error);
}

/* The drive @path names, or NULL for a folder or file. */
static NscDeviceInfo *
device_for_target (const char *path)
{
  const char *root = fake_sysfs_root ();
  struct stat st;

  if (root != NULL)
    {
      g_autofree char *mountinfo = NULL;
      g_autofree char *swaps = NULL;
      g_autofree char *name = NULL;

      if (!g_str_has_prefix (path, "/dev/"))
        return NULL;
      name = g_path_get_basename (path);
      read_fake_tables (root, &mountinfo, &swaps);
      return nsc_device_info_new_at (root, name, mountinfo, swaps, NSC_DISCOVER_DEFAULT, NULL);
    }

  /* Sandboxed, /dev has no drives; /sys still knows /dev/NAME. */
  if (stat (path, &st) != 0)
    return nsc_udisks_is_sandboxed () && g_str_has_prefix (path, "/dev/")
           ? nsc_device_info_for_path (path, NSC_DISCOVER_DEFAULT, NULL) : NULL;
  if (!S_ISBLK (st.st_mode))
    return NULL;
  return nsc_device_info_for_path (path, NSC_DISCOVER_DEFAULT, NULL);
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
  g_clear_pointer (&self->target_device, nsc_device_info_free);
  self->target_device = device_for_target (path);
  g_clear_pointer (&self->folder_device, nsc_device_info_free);
  if (self->target_device == NULL && fake_sysfs_root () == NULL)
    self->folder_device = nsc_device_info_for_path (path, NSC_DISCOVER_DEFAULT, NULL);
  if (self->target_device == NULL && g_strcmp0 (path, g_get_home_dir ()) != 0)
    {
      g_free (self->other_folder);
      self->other_folder = g_strdup (path);
    }
  refilter_presets (self);
  update_info (self);
  return_to_start (self);
}

gboolean
nsc_window_set_preset (NscWindow   *self,
                       const char  *name,
                       GError     **error)
{
  const NscPreset *preset;
  g_autofree char *why = NULL;

  g_return_val_if_fail (NSC_IS_WINDOW (self), FALSE);

  preset = find_preset (self, name);
  if (preset == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no preset %s"), name);
      return FALSE;
    }
  if (!preset_offered (self, preset, &why))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, why);
      return FALSE;
    }
  return select_preset_by_name (self, name);
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
      add_toast (self, error->message, NULL, NULL);
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
      nsc_history_window_set_units (NSC_HISTORY_WINDOW (self->history), self->prefs.units);
      nsc_history_window_reload (NSC_HISTORY_WINDOW (self->history));
      gtk_window_present (self->history);
      return self->history;
    }
  history = nsc_history_window_new (GTK_WINDOW (self));
  nsc_history_window_set_units (history, self->prefs.units);
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

static void
apply_prefs (NscWindow *self)
{
  nsc_warnings_list_set_unit (self->warnings_list, self->prefs.units == NSC_UNITS_MB
                                                   ? NSC_SPEED_UNIT_MB : NSC_SPEED_UNIT_MIB);
  nsc_results_grid_set_units (self->results_grid, self->prefs.units);
  nsc_chart_panel_set_units (self->chart_panel, self->prefs.units);
  /* An open history and its comparisons speak the same units. */
  if (self->history != NULL)
    nsc_history_window_set_units (NSC_HISTORY_WINDOW (self->history), self->prefs.units);
  update_info (self);
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
  self->preferences = nsc_preferences_window_new (GTK_WINDOW (self), &self->prefs, self->settings,
                                                  (NscPrefsChanged) apply_prefs, self);
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
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;

      if (path != NULL && !nsc_window_open_result (self, path, &error))
        add_toast (self, error->message, NULL, NULL);
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
  gtk_file_filter_set_name (filter, _("Nandscope results"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  g_signal_connect (chooser, "response", G_CALLBACK (on_open_file_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_chart_message (NscChartPanel *panel,
                  const char    *text,
                  NscWindow     *self)
{
  add_toast (self, text, NULL, NULL);
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
    add_toast (self, error->message, NULL, NULL);
}

static const GActionEntry win_actions[] = {
  { "run", run_action },
  { "cancel", cancel_action },
  { "choose-target", choose_target_action },
  { "open-results", open_results_action },
  { "history", history_action },
  { "preferences", preferences_action },
  { "open-file", open_file_action },
  { "select-preset", select_preset_action, "s" },
};

/* ---- target picker ------------------------------------------------------------- */

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))))
    gtk_list_box_remove (list, child);
}

static GtkWidget *
folder_row (const char *title,
            const char *subtitle,
            const char *icon_name,
            gboolean    selected)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  if (subtitle)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name (icon_name));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  if (selected)
    {
      GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");
      gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), check);
    }
  return row;
}

/* Drives first, then what is made of other things (loop, zram, LVM, RAID). */
static int
device_rank (const NscDeviceInfo *info)
{
  static const char *virtual[] = { "loop", "zram", "dm", "md", NULL };

  return g_strv_contains (virtual, info->transport ? info->transport : "") ? 1 : 0;
}

static int
compare_devices (gconstpointer a,
                 gconstpointer b)
{
  const NscDeviceInfo *da = *(NscDeviceInfo * const *) a;
  const NscDeviceInfo *db = *(NscDeviceInfo * const *) b;
  int ra = device_rank (da), rb = device_rank (db);

  if (ra != rb)
    return ra - rb;
  return g_strcmp0 (da->name, db->name);
}

/* Read when the picker opens: drives come and go, and so do mounts. */
static void
populate_targets (NscWindow *self)
{
  const char *home = g_get_home_dir ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) devices = NULL;
  GtkWidget *row;
  guint shown = 0;

  clear_list (self->folder_list);
  clear_list (self->drive_list);

  row = folder_row (_("Home"), home, "user-home-symbolic", g_strcmp0 (self->target, home) == 0);
  g_object_set_data_full (G_OBJECT (row), "target", g_strdup (home), g_free);
  gtk_list_box_append (self->folder_list, row);

  if (self->other_folder != NULL)
    {
      g_autofree char *name = g_filename_display_basename (self->other_folder);
      g_autofree char *where = display_path (self->other_folder);

      row = folder_row (name, where, "folder-symbolic",
                        g_strcmp0 (self->target, self->other_folder) == 0);
      g_object_set_data_full (G_OBJECT (row), "target", g_strdup (self->other_folder), g_free);
      gtk_list_box_append (self->folder_list, row);
    }

  row = folder_row (_("Other Folder…"), NULL, "folder-open-symbolic", FALSE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.choose-target");
  gtk_list_box_append (self->folder_list, row);

  devices = discover_devices (&error);
  if (devices != NULL)
    g_ptr_array_sort (devices, compare_devices);
  for (guint i = 0; devices != NULL && i < devices->len; i++)
    {
      const NscDeviceInfo *info = g_ptr_array_index (devices, i);
      gboolean selected = self->target_device != NULL
                          && g_strcmp0 (self->target_device->devnode, info->devnode) == 0;

      g_autofree char *in_use = NULL;

      if (info->capacity == 0)
        continue;
      /* The one in-use check, as before anything writes; a captured tree is never opened. */
      if (!self->fake_devices)
        {
          g_autoptr(GError) busy = NULL;
          if (!nsc_device_check_writable (info->devnode, &busy))
            in_use = g_strdup (busy->message);
        }
      row = nsc_device_row_new (info, selected, in_use,
                                self->fake_devices ? NULL : self->udisks_missing);
      g_object_set_data_full (G_OBJECT (row), "target", g_strdup (info->devnode), g_free);
      gtk_list_box_append (self->drive_list, row);
      shown++;
    }
  if (shown == 0)
    {
      row = folder_row (error ? error->message : _("No drives found"), NULL,
                        "dialog-information-symbolic", FALSE);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_append (self->drive_list, row);
    }
}

static void
on_udisks_probed (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = nsc_udisks_probe_finish (result, &error);
  NscWindow *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = NSC_WINDOW (user_data);
  g_clear_object (&self->udisks_probe);
  if (g_strcmp0 (self->udisks_missing, ok ? NULL : error->message) == 0)
    return;
  g_free (self->udisks_missing);
  self->udisks_missing = ok ? NULL : g_strdup (error->message);
  if (gtk_widget_get_visible (GTK_WIDGET (self->target_popover)))
    populate_targets (self);
}

/* The picker opens: its drives as they are now, and whether UDisks2 can open them. */
static void
on_target_popover_show (NscWindow *self)
{
  populate_targets (self);
  if (self->udisks_probe == NULL && !self->fake_devices)
    {
      self->udisks_probe = g_cancellable_new ();
      nsc_udisks_probe_async (self->udisks_probe, on_udisks_probed, self);
    }
}

static void
on_target_row_activated (GtkListBox    *list,
                         GtkListBoxRow *row,
                         NscWindow     *self)
{
  const char *target = g_object_get_data (G_OBJECT (row), "target");

  gtk_popover_popdown (self->target_popover);
  if (target != NULL)
    nsc_window_set_target (self, target);
}

/* ---- preset drop-down ----------------------------------------------------------- */

static void
setup_preset_item (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  /* The header bar has room for a few letters on a phone. */
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
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
                      preset ? nsc_preset_get_display_title (preset)
                             : gtk_string_object_get_string (name));
}

/* The preset list in groups, each under its heading, in this order. */
static const struct { const char *id; const char *title; } preset_categories[] = {
  { "cdm", N_("CrystalDiskMark sets") },
  { "slc", N_("SLC cache") },
  { "sweeps", N_("Sweeps") },
  { "endurance", N_("Endurance") },
  { "drive", N_("The drive itself") },
};

static guint
category_rank (const NscPreset *preset)
{
  for (guint i = 0; i < G_N_ELEMENTS (preset_categories); i++)
    if (g_strcmp0 (preset->category, preset_categories[i].id) == 0)
      return i;
  return G_N_ELEMENTS (preset_categories);
}

static int
compare_presets (gconstpointer a,
                 gconstpointer b)
{
  const NscPreset *pa = *(NscPreset * const *) a;
  const NscPreset *pb = *(NscPreset * const *) b;

  /* g_ptr_array_sort is stable since GLib 2.64: the order within a group stays. */
  return (int) category_rank (pa) - (int) category_rank (pb);
}

static void
setup_preset_row (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  user_data)
{
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *heading = gtk_label_new (NULL);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *caption = gtk_label_new (NULL);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  gtk_widget_add_css_class (heading, "preset-category");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (caption), 0);
  gtk_widget_add_css_class (caption, "caption");
  gtk_widget_add_css_class (caption, "dim-label");
  gtk_widget_set_hexpand (box, TRUE);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (check, "preset-check");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), caption);
  gtk_box_append (GTK_BOX (row), box);
  gtk_box_append (GTK_BOX (row), check);
  gtk_box_append (GTK_BOX (outer), heading);
  gtk_box_append (GTK_BOX (outer), row);
  g_object_set_data (G_OBJECT (outer), "heading", heading);
  g_object_set_data (G_OBJECT (outer), "title", title);
  g_object_set_data (G_OBJECT (outer), "caption", caption);
  g_object_set_data (G_OBJECT (outer), "check", check);
  gtk_list_item_set_child (item, outer);
}

/* The current preset has a check mark in the list. */
static void
update_preset_check (GtkDropDown *dropdown,
                     GParamSpec  *pspec,
                     GtkListItem *item)
{
  GtkWidget *outer = gtk_list_item_get_child (item);

  if (outer != NULL)
    gtk_widget_set_visible (g_object_get_data (G_OBJECT (outer), "check"),
                            gtk_list_item_get_position (item) == gtk_drop_down_get_selected (dropdown));
}

/* A heading above the first preset of each group; again when the filter moves the row. */
static void
update_preset_heading (GtkListItem *item,
                       GParamSpec  *pspec,
                       NscWindow   *self)
{
  GtkStringObject *name = gtk_list_item_get_item (item);
  GtkWidget *outer = gtk_list_item_get_child (item);
  const NscPreset *preset = name ? find_preset (self, gtk_string_object_get_string (name)) : NULL;
  guint position = gtk_list_item_get_position (item);
  const NscPreset *before = NULL;
  GtkWidget *heading;

  if (preset == NULL || outer == NULL)
    return;
  heading = g_object_get_data (G_OBJECT (outer), "heading");
  if (position > 0 && position != GTK_INVALID_LIST_POSITION)
    {
      g_autoptr(GtkStringObject) prev = g_list_model_get_item (G_LIST_MODEL (self->preset_model),
                                                               position - 1);
      before = prev ? find_preset (self, gtk_string_object_get_string (prev)) : NULL;
    }
  if (before == NULL || category_rank (before) != category_rank (preset))
    {
      guint rank = category_rank (preset);
      gtk_label_set_text (GTK_LABEL (heading),
                          rank < G_N_ELEMENTS (preset_categories)
                          ? _(preset_categories[rank].title) : _("Other"));
      gtk_widget_set_visible (heading, TRUE);
    }
  else
    gtk_widget_set_visible (heading, FALSE);
  update_preset_check (self->preset_dropdown, NULL, item);
}

static void
bind_preset_row (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 NscWindow                *self)
{
  GtkStringObject *name = gtk_list_item_get_item (item);
  const NscPreset *preset = find_preset (self, gtk_string_object_get_string (name));
  GtkWidget *outer = gtk_list_item_get_child (item);
  g_autofree char *duration = NULL;
  g_autofree char *text = NULL;

  if (preset == NULL)
    return;
  duration = nsc_words_about (start_estimate_ns (self, preset) / 1e9, TRUE);
  if (self->target_device != NULL && run_writes (self, preset))
    /* TRANSLATORS: "About 3 minutes · erases the drive" */
    text = g_strdup_printf (_("%s · erases the drive"), duration);
  else
    text = g_strdup (duration);
  gtk_label_set_text (g_object_get_data (G_OBJECT (outer), "title"), nsc_preset_get_display_title (preset));
  gtk_label_set_text (g_object_get_data (G_OBJECT (outer), "caption"), text);
  gtk_widget_set_tooltip_text (outer, nsc_preset_get_display_description (preset));

  update_preset_heading (item, NULL, self);
  update_preset_check (self->preset_dropdown, NULL, item);
  g_object_set_data (G_OBJECT (item), "check-handler",
                     GSIZE_TO_POINTER (g_signal_connect_object (self->preset_dropdown,
                                                                "notify::selected",
                                                                G_CALLBACK (update_preset_check),
                                                                item, 0)));
  g_object_set_data (G_OBJECT (item), "position-handler",
                     GSIZE_TO_POINTER (g_signal_connect (item, "notify::position",
                                                         G_CALLBACK (update_preset_heading), self)));
}

static void
unbind_preset_row (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   NscWindow                *self)
{
  gulong handler = GPOINTER_TO_SIZE (g_object_steal_data (G_OBJECT (item), "check-handler"));
  gulong moved = GPOINTER_TO_SIZE (g_object_steal_data (G_OBJECT (item), "position-handler"));

  if (handler != 0)
    g_signal_handler_disconnect (self->preset_dropdown, handler);
  if (moved != 0)
    g_signal_handler_disconnect (item, moved);
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
    }
  g_ptr_array_sort (self->presets, compare_presets);
  for (guint i = 0; i < self->presets->len; i++)
    gtk_string_list_append (self->preset_names,
                            ((NscPreset *) g_ptr_array_index (self->presets, i))->name);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_preset_item), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_preset_item), self);
  g_signal_connect (list_factory, "setup", G_CALLBACK (setup_preset_row), NULL);
  g_signal_connect (list_factory, "bind", G_CALLBACK (bind_preset_row), self);
  g_signal_connect (list_factory, "unbind", G_CALLBACK (unbind_preset_row), self);

  gtk_drop_down_set_factory (self->preset_dropdown, factory);
  gtk_drop_down_set_list_factory (self->preset_dropdown, list_factory);
  self->preset_filter = gtk_custom_filter_new (preset_filter_func, self, NULL);
  self->preset_model = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->preset_names)),
                                                  GTK_FILTER (g_object_ref (self->preset_filter)));
  gtk_drop_down_set_model (self->preset_dropdown, G_LIST_MODEL (self->preset_model));
}

/* ---- GObject ------------------------------------------------------------------ */

static gboolean
nsc_window_close_request (GtkWindow *window)
{
  NscWindow *self = NSC_WINDOW (window);

  /* The test file must be deleted and the result saved: cancel, hide, and let
   * the pending callback (which holds a reference) destroy the window. */
  if (self->confirm_dialog != NULL)
    {
      gtk_window_destroy (GTK_WINDOW (self->confirm_dialog));
      self->confirm_dialog = NULL;
      self->pending = FALSE;
      self->pending_preset = NULL;
    }
  if (self->runner != NULL || self->pending)
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
  if (self->udisks_probe != NULL)
    g_cancellable_cancel (self->udisks_probe);
  g_clear_object (&self->udisks_probe);
  if (self->history != NULL)
    gtk_window_destroy (self->history);
  if (self->preferences != NULL)
    gtk_window_destroy (self->preferences);
  g_clear_object (&self->settings);
  if (self->confirm_dialog != NULL)
    {
      gtk_window_destroy (GTK_WINDOW (self->confirm_dialog));
      self->confirm_dialog = NULL;
    }
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
  g_clear_object (&self->preset_model);
  g_clear_object (&self->preset_filter);
  g_clear_object (&self->preset_names);
  g_clear_pointer (&self->target, g_free);
  g_clear_pointer (&self->other_folder, g_free);
  g_clear_pointer (&self->udisks_missing, g_free);
  g_clear_pointer (&self->shown_path, g_free);
  g_clear_pointer (&self->target_device, nsc_device_info_free);
  g_clear_pointer (&self->folder_device, nsc_device_info_free);
  /* In finalize, not dispose: a run in progress holds a reference to the window and
   * reads the temperature through the device's node until it ends. */
  g_clear_pointer (&self->session, nsc_session_free);

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
  g_type_ensure (NSC_TYPE_CHART_PANEL);
  g_type_ensure (NSC_TYPE_REFLOW_BOX);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nandscope/Nandscope/nsc-window.ui");
  gtk_widget_class_bind_template_child (widget_class, NscWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, target_button);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, target_icon);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, target_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, target_popover);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, folder_list);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, drive_list);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, preset_dropdown);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, run_button);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, run_stack);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, results_scroller);
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
  gtk_widget_class_bind_template_child (widget_class, NscWindow, chart_panel);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, warnings_box);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, bench_box);
}

static void
nsc_window_init (NscWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->warnings_list = NSC_WARNINGS_LIST (nsc_warnings_list_new ());
  gtk_box_append (GTK_BOX (self->warnings_box), GTK_WIDGET (self->warnings_list));
  gtk_widget_set_visible (self->warnings_box, TRUE);

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions,
                                   G_N_ELEMENTS (win_actions), self);
  self->target = g_strdup (g_get_home_dir ());
  self->current_step = G_MAXUINT;

  self->fake_devices = fake_sysfs_root () != NULL;
  self->chart_step = G_MAXUINT;
  self->settings = nsc_prefs_settings_new ();
  nsc_prefs_load (&self->prefs, self->settings);
  nsc_warnings_list_set_unit (self->warnings_list, self->prefs.units == NSC_UNITS_MB
                                                   ? NSC_SPEED_UNIT_MB : NSC_SPEED_UNIT_MIB);
  nsc_results_grid_set_units (self->results_grid, self->prefs.units);
  nsc_chart_panel_set_units (self->chart_panel, self->prefs.units);
  g_signal_connect (self->chart_panel, "message", G_CALLBACK (on_chart_message), self);

  load_presets (self);
  refilter_presets (self);
  g_signal_connect_swapped (self->preset_dropdown, "notify::selected",
                            G_CALLBACK (on_preset_selected), self);
  g_signal_connect_swapped (self->target_popover, "show", G_CALLBACK (on_target_popover_show), self);
  g_signal_connect (self->folder_list, "row-activated", G_CALLBACK (on_target_row_activated), self);
  g_signal_connect (self->drive_list, "row-activated", G_CALLBACK (on_target_row_activated), self);
  set_running (self, FALSE);
  g_signal_connect_swapped (self->stack, "notify::visible-child-name",
                            G_CALLBACK (on_page_changed), self);
  on_page_changed (self);
  update_info (self);
}

char *
_nsc_window_duration_words (gint64 ns)
{
  return format_duration_words (ns);
}

char *
_nsc_window_display_path (const char *path)
{
  return display_path (path);
}

NscWindow *
nsc_window_new (NscApplication *application)
{
  return g_object_new (NSC_TYPE_WINDOW, "application", application, NULL);
}

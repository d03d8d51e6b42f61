/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "nsc-application.h"
#include <locale.h>
#include <stdio.h>
#include <unistd.h>

#include "nsc-chart.h"
#include "nsc-engine.h"
#include "nsc-history.h"
#include "nsc-sheet.h"
#include "nsc-widget-text.h"
#include "nsc-window.h"
#include "nsc-words.h"

#define EXIT_USAGE 2

struct _NscApplication
{
  AdwApplication parent_instance;

  /* From the command line, for the first window. */
  char     *target;
  char     *preset;
  guint     runs;
  gint64    time_ns;
  gint64    max_idle_ns;
  guint64   file_size;
  guint64   span;
  gboolean  run_at_start;
  gboolean  quit_when_done;
  char     *open_path;
  gboolean  open_recent;
  char     *export_path;
  char     *sheet_path;
  char     *export_kind;
  int       export_width;
  int       export_height;
  gboolean  export_dark;
  gboolean  print_text;
  gboolean  print_page;
  gboolean  show_history;
  char    **compare_paths;
  gint64    cancel_after_ns;  /* --cancel-after; 0: none */
  int       cancel_after_steps; /* --cancel-after-steps; 0: none */
  guint     cancel_source;
  gint64    cancelled_at_us;  /* monotonic time the cancel was pressed; 0: not yet */
  char     *script_path;      /* --script */
  NscScriptFunc script;       /* what takes it (a test build), or NULL */

  int       exit_status;
};

G_DEFINE_FINAL_TYPE (NscApplication, nsc_application, ADW_TYPE_APPLICATION)

static const GOptionEntry option_entries[] = {
  { "target", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Folder to test in (a hidden test file is made there and deleted afterwards), or a "
       "drive such as /dev/sdb"), N_("PATH") },
  { "preset", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Test set to run, e.g. quick"), N_("NAME") },
  { "runs", 0, 0, G_OPTION_ARG_INT, NULL, N_("Runs of every test; the median is shown"), N_("N") },
  { "time", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Length of every timed test, e.g. 5s or 500ms"),
    N_("DURATION") },
  { "size", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Test file size, e.g. 1g or 512m"), N_("SIZE") },
  { "max-idle", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Cut the pauses of a test set to at most this long, e.g. 1s"), N_("DURATION") },
  { "span", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Cover at most this much of the target in every test, e.g. 64m"), N_("SIZE") },
  { "run", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Start the test at once"), NULL },
  { "quit-when-done", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Quit after the run: exit status 0 on success, 1 on failure"), NULL },
  { "open", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Show a saved result"), N_("RESULT.json") },
  { "open-recent", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Show the newest result of the history"), NULL },
  { "history", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Show the history of results"), NULL },
  { "compare", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL,
    N_("Compare saved results on one chart (give it twice or more)"), N_("RESULT.json") },
  { "export-chart", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Save the chart shown (after --open or --run) as PNG or SVG"), N_("FILE") },
  { "export-sheet", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Save the review sheet of the result shown (after --open or --run) as PDF, SVG or PNG"),
    N_("FILE") },
  { "chart", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("The chart to show or export: write-fill, position, qd, bs, time, mixed, latency, map"), N_("KIND") },
  { "export-size", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Size of the exported chart, e.g. 1600x900"), N_("WxH") },
  { "dark", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Export the chart on a dark background"), NULL },
  { "print-text", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Print the result shown as text, as Copy as Text puts it on the clipboard"), NULL },
  { "print-page", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Print every text the window shows for the result (without one, the start page), one "
       "per line"), NULL },
  { "cancel-after", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --run: press Cancel after this long, then report on stderr how many "
       "milliseconds the window took to return to idle"), N_("DURATION") },
  { "cancel-after-steps", 0, 0, G_OPTION_ARG_INT, NULL,
    N_("With --run: press Cancel once this many tests have finished, then report as "
       "--cancel-after does"), N_("N") },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Show the version and quit"), NULL },
  { NULL }
};

static int
usage_error (const char *message)
{
  g_printerr ("nandscope: %s\n", message);
  return EXIT_USAGE;
}

static int
nsc_application_handle_local_options (GApplication *app,
                                      GVariantDict *options)
{
  NscApplication *self = NSC_APPLICATION (app);
  g_autoptr(GError) error = NULL;
  const char *target = NULL;
  const char *preset = NULL;
  const char *text = NULL;
  gint32 runs = 0;
  gboolean scripted = FALSE;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("nandscope %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (g_variant_dict_lookup (options, "target", "^&ay", &target))
    {
      g_free (self->target);
      self->target = g_canonicalize_filename (target, NULL);
      scripted = TRUE;
    }
  if (g_variant_dict_lookup (options, "preset", "&s", &preset))
    {
      g_autoptr(NscPreset) p = nsc_preset_lookup (preset, &error);

      if (p == NULL)
        return usage_error (error->message);
      g_free (self->preset);
      self->preset = g_strdup (preset);
      scripted = TRUE;
    }
  if (g_variant_dict_lookup (options, "runs", "i", &runs))
    {
      if (runs < 1 || runs > 1000)
        return usage_error (_("--runs takes a whole number from 1 to 1000"));
      self->runs = (guint) runs;
      scripted = TRUE;
    }
  if (g_variant_dict_lookup (options, "time", "&s", &text))
    {
      if (!nsc_parse_duration (text, &self->time_ns, &error))
        return usage_error (error->message);
      if (self->time_ns <= 0)
        return usage_error (_("--time must be longer than zero"));
      scripted = TRUE;
    }
  if (g_variant_dict_lookup (options, "max-idle", "&s", &text))
    {
      if (!nsc_parse_duration (text, &self->max_idle_ns, &error))
        return usage_error (error->message);
      /* 0 is no pause at all, not "no limit". */
      self->max_idle_ns = MAX (self->max_idle_ns, 1);
      scripted = TRUE;
    }
  if (g_variant_dict_lookup (options, "size", "&s", &text))
    {
      if (!nsc_parse_size (text, &self->file_size, &error))
        return usage_error (error->message);
      scripted = TRUE;
    }
  if (g_variant_dict_lookup (options, "span", "&s", &text))
    {
      if (!nsc_parse_size (text, &self->span, &error))
        return usage_error (error->message);
      if (self->span == 0)
        return usage_error (_("--span must be larger than zero"));
      scripted = TRUE;
    }
  if (g_variant_dict_contains (options, "run"))
    self->run_at_start = scripted = TRUE;
  if (g_variant_dict_contains (options, "quit-when-done"))
    self->quit_when_done = scripted = TRUE;
  if (g_variant_dict_lookup (options, "open", "^&ay", &text))
    {
      g_free (self->open_path);
      self->open_path = g_canonicalize_filename (text, NULL);
      scripted = TRUE;
    }
  if (g_variant_dict_contains (options, "open-recent"))
    self->open_recent = scripted = TRUE;
  if (g_variant_dict_contains (options, "history"))
    self->show_history = scripted = TRUE;
  if (g_variant_dict_lookup (options, "compare", "^aay", &self->compare_paths))
    {
      if (g_strv_length (self->compare_paths) < 2)
        return usage_error (_("--compare needs two results or more"));
      for (guint i = 0; self->compare_paths[i]; i++)
        {
          char *full = g_canonicalize_filename (self->compare_paths[i], NULL);
          g_free (self->compare_paths[i]);
          self->compare_paths[i] = full;
        }
      scripted = TRUE;
    }
  if (g_variant_dict_lookup (options, "export-chart", "^&ay", &text))
    {
      if (!g_str_has_suffix (text, ".png") && !g_str_has_suffix (text, ".svg"))
        return usage_error (_("--export-chart writes a .png or .svg file"));
      g_free (self->export_path);
      self->export_path = g_canonicalize_filename (text, NULL);
      scripted = TRUE;
    }
  if (g_variant_dict_lookup (options, "export-sheet", "^&ay", &text))
    {
      if (!nsc_sheet_path_is_supported (text))
        return usage_error (_("--export-sheet writes a .pdf, .svg or .png file"));
      g_free (self->sheet_path);
      self->sheet_path = g_canonicalize_filename (text, NULL);
      scripted = TRUE;
    }
  if (g_variant_dict_lookup (options, "chart", "&s", &text))
    {
      NscChartKind kind;

      if (!nsc_chart_kind_from_string (text, &kind))
        return usage_error (_("--chart takes write-fill, position, qd, bs, time, mixed or latency"));
      g_free (self->export_kind);
      self->export_kind = g_strdup (text);
    }
  if (g_variant_dict_lookup (options, "export-size", "&s", &text))
    {
      if (sscanf (text, "%dx%d", &self->export_width, &self->export_height) != 2
          || self->export_width < 200 || self->export_height < 150
          || self->export_width > 10000 || self->export_height > 10000)
        return usage_error (_("--export-size takes WIDTHxHEIGHT, from 200x150 to 10000x10000"));
    }
  if (g_variant_dict_lookup (options, "cancel-after", "&s", &text))
    {
      if (!nsc_parse_duration (text, &self->cancel_after_ns, &error))
        return usage_error (error->message);
      if (self->cancel_after_ns <= 0)
        return usage_error (_("--cancel-after must be longer than zero"));
      scripted = TRUE;
    }
  if (g_variant_dict_lookup (options, "cancel-after-steps", "i", &self->cancel_after_steps))
    {
      if (self->cancel_after_steps <= 0)
        return usage_error (_("--cancel-after-steps must be at least 1"));
      if (self->cancel_after_ns > 0)
        return usage_error (_("--cancel-after and --cancel-after-steps cannot be combined"));
      scripted = TRUE;
    }
  if (g_variant_dict_lookup (options, "script", "^&ay", &text))
    {
      g_free (self->script_path);
      self->script_path = g_canonicalize_filename (text, NULL);
      scripted = TRUE;
    }
  if (g_variant_dict_contains (options, "dark"))
    self->export_dark = TRUE;
  if (g_variant_dict_contains (options, "print-text"))
    self->print_text = scripted = TRUE;
  if (g_variant_dict_contains (options, "print-page"))
    self->print_page = scripted = TRUE;
  if ((self->cancel_after_ns > 0 || self->cancel_after_steps > 0) && !self->run_at_start)
    return usage_error (_("--cancel-after needs --run"));
  if (self->export_path != NULL && self->open_path == NULL && !self->open_recent
      && !self->run_at_start)
    return usage_error (_("--export-chart needs --open, --open-recent or --run"));
  if (self->sheet_path != NULL && self->open_path == NULL && !self->open_recent
      && !self->run_at_start)
    return usage_error (_("--export-sheet needs --open, --open-recent or --run"));

  /* Scripted use runs in this process, so that its options and its exit status
   * are not handed to an instance that is already open. */
  if (scripted)
    g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);

  return -1;
}

/* --export-chart: the chart shown, through the code behind the export menu. */
static gboolean
export_chart (NscApplication *self,
              NscWindow      *window)
{
  g_autoptr(GError) error = NULL;

  if (self->sheet_path != NULL)
    {
      if (!nsc_window_export_sheet (window, self->sheet_path, self->export_dark, &error))
        {
          g_printerr ("nandscope: %s\n", error->message);
          return FALSE;
        }
      g_print ("%s\n", self->sheet_path);
    }
  if (self->export_path == NULL)
    return TRUE;
  if (!nsc_window_export_chart (window, self->export_path, self->export_kind,
                                self->export_width > 0 ? self->export_width : 1600,
                                self->export_height > 0 ? self->export_height : 900,
                                self->export_dark, &error))
    {
      g_printerr ("nandscope: %s\n", error->message);
      return FALSE;
    }
  g_print ("%s\n", self->export_path);
  return TRUE;
}

/* --cancel-after: the Cancel button's own action, as a click on it would. */
static gboolean
cancel_timeout (gpointer user_data)
{
  NscApplication *self = NSC_APPLICATION (user_data);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL || !NSC_IS_WINDOW (window) || !nsc_window_get_running (NSC_WINDOW (window)))
    {
      self->cancel_source = 0;
      return G_SOURCE_REMOVE;
    }
  /* --cancel-after-steps: the event, not a delay; looked at every 20 ms. */
  if (self->cancel_after_steps > 0
      && nsc_window_get_steps_done (NSC_WINDOW (window)) < (guint) self->cancel_after_steps)
    return G_SOURCE_CONTINUE;
  self->cancel_source = 0;
  self->cancelled_at_us = g_get_monotonic_time ();
  if (!gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel", NULL))
    g_printerr ("nandscope: %s\n", _("The Cancel action is not available"));
  return G_SOURCE_REMOVE;
}

static void
on_run_finished (NscWindow      *window,
                 gboolean        success,
                 const char     *message,
                 NscApplication *self)
{
  if (self->cancel_after_ns > 0 || self->cancel_after_steps > 0)
    {
      g_clear_handle_id (&self->cancel_source, g_source_remove);
      if (self->cancelled_at_us == 0)
        {
          /* The run ended before the cancel: nothing was tested. */
          g_printerr ("nandscope: %s\n", _("The run ended before --cancel-after"));
          success = FALSE;
        }
      else
        {
          gint64 ms = (g_get_monotonic_time () - self->cancelled_at_us) / 1000;

          /* For scripts: a fixed form, not translated. */
          g_printerr ("nandscope: cancel-to-idle-ms: %" G_GINT64_FORMAT "\n", ms);
          /* Idle again is what a cancel asks for; the partial result is kept. */
          success = !nsc_window_get_running (window);
          if (self->quit_when_done)
            {
              self->exit_status = success ? 0 : 1;
              g_application_quit (G_APPLICATION (self));
            }
          return;
        }
    }
  if (success && !export_chart (self, window))
    success = FALSE;
  if (!self->quit_when_done)
    return;

  if (message != NULL)
    g_printerr ("nandscope: %s\n", message);
  self->exit_status = success ? 0 : 1;
  g_application_quit (G_APPLICATION (self));
}

/* --open, --open-recent, --history, --compare. FALSE when one failed. */
static gboolean
open_results (NscApplication *self,
              NscWindow      *win)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_strdup (self->open_path);

  if (self->open_recent)
    {
      /* Through the history's own list, as a click on its first row would. */
      g_autofree char *dir = nsc_history_dir ();
      g_autoptr(GPtrArray) entries = nsc_history_scan (dir);

      if (entries->len == 0)
        {
          g_printerr ("nandscope: %s\n", _("There are no saved results"));
          return FALSE;
        }
      g_free (path);
      path = NULL;
      /* The newest that reads: a damaged file is listed, never opened. */
      for (guint i = 0; i < entries->len && path == NULL; i++)
        {
          NscHistoryEntry *e = g_ptr_array_index (entries, i);
          if (e->result != NULL)
            path = g_strdup (e->path);
          else
            g_printerr ("nandscope: %s: %s\n", e->path, e->error);
        }
      if (path == NULL)
        {
          g_printerr ("nandscope: %s\n", _("No saved result can be read"));
          return FALSE;
        }
    }
  if (path != NULL)
    {
      if (!nsc_window_open_result (win, path, &error))
        {
          g_printerr ("nandscope: %s\n", error->message);
          return FALSE;
        }
      if (self->export_kind != NULL && self->export_path == NULL
          && !nsc_window_export_chart (win, NULL, self->export_kind, 0, 0, FALSE, &error))
        {
          g_printerr ("nandscope: %s\n", error->message);
          return FALSE;
        }
      if (!export_chart (self, win))
        return FALSE;
      if (self->print_text)
        {
          g_autofree char *text = nsc_window_get_text (win);
          g_print ("%s", text);
        }
      if (self->print_page)
        {
          g_autofree char *text = nsc_widget_get_visible_text (GTK_WIDGET (win));
          g_print ("%s", text);
        }
    }
  if (self->show_history || self->compare_paths)
    {
      GtkWindow *history = nsc_window_show_history (win);

      /* --history --quit-when-done: quit once the list has been read. */
      if (self->show_history && !self->compare_paths && self->quit_when_done && !self->run_at_start)
        g_signal_connect_object (history, "loaded", G_CALLBACK (g_application_quit), self,
                                 G_CONNECT_SWAPPED);

      if (self->compare_paths
          && nsc_history_window_compare (NSC_HISTORY_WINDOW (history),
                                         (const char * const *) self->compare_paths) == NULL)
        {
          g_printerr ("nandscope: %s\n", _("These results cannot be compared"));
          return FALSE;
        }
    }
  return TRUE;
}

static void
nsc_application_activate (GApplication *app)
{
  NscApplication *self = NSC_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));
  NscRunOptions overrides = NSC_RUN_OPTIONS_INIT;
  NscWindow *win;

  if (window != NULL)
    {
      gtk_window_present (window);
      return;
    }

  win = nsc_window_new (self);
  g_signal_connect_object (win, "run-finished", G_CALLBACK (on_run_finished), self, 0);

  if (self->target)
    nsc_window_set_target (win, self->target);
  overrides.file_size = self->file_size;
  overrides.runs = self->runs;
  overrides.time_ns = self->time_ns;
  overrides.max_idle_ns = self->max_idle_ns;
  overrides.span_cap = self->span;
  nsc_window_set_overrides (win, &overrides);

  gtk_window_present (GTK_WINDOW (win));
  if (self->script_path != NULL && self->script != NULL)
    self->script (app, GTK_WINDOW (win), self->script_path, &self->exit_status);

  if (!open_results (self, win))
    {
      if (self->quit_when_done)
        {
          self->exit_status = 1;
          g_application_quit (app);
        }
      return;
    }
  if ((self->open_path || self->open_recent) && self->quit_when_done && !self->run_at_start)
    {
      g_application_quit (app);
      return;
    }

  if (self->preset)
    {
      g_autoptr(GError) error = NULL;

      /* A preset the target cannot take (a write test on a mounted drive) is refused
       * with the reason, never swapped for another. */
      if (!nsc_window_set_preset (win, self->preset, &error))
        {
          g_printerr ("nandscope: %s\n", error->message);
          self->run_at_start = FALSE;
          if (self->quit_when_done)
            {
              self->exit_status = 1;
              g_application_quit (app);
            }
          return;
        }
    }

  /* No result to show: --print-page prints the start page, as it is for the target
   * and preset given. */
  if (self->print_page && !self->open_path && !self->open_recent && !self->run_at_start)
    {
      g_autofree char *text = nsc_widget_get_visible_text (GTK_WIDGET (win));

      g_print ("%s", text);
      if (self->quit_when_done)
        {
          g_application_quit (app);
          return;
        }
    }

  if (self->run_at_start)
    {
      self->run_at_start = FALSE;
      nsc_window_run (win);
      if (self->cancel_after_ns > 0)
        self->cancel_source = g_timeout_add (MAX (1, self->cancel_after_ns / 1000000),
                                             cancel_timeout, self);
      else if (self->cancel_after_steps > 0)
        self->cancel_source = g_timeout_add (20, cancel_timeout, self);
    }
}

static void
nsc_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *run_accels[] = { "<Control>r", NULL };
  static const char *cancel_accels[] = { "Escape", NULL };
  static const char *history_accels[] = { "<Control>h", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };
  static const char *open_accels[] = { "<Control>o", NULL };

  G_APPLICATION_CLASS (nsc_application_parent_class)->startup (app);

  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.run", run_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.cancel", cancel_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.history", history_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.preferences",
                                         preferences_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.open-file", open_accels);
}

static void
nsc_application_finalize (GObject *object)
{
  NscApplication *self = NSC_APPLICATION (object);

  g_clear_pointer (&self->target, g_free);
  g_clear_pointer (&self->preset, g_free);
  g_clear_pointer (&self->open_path, g_free);
  g_clear_pointer (&self->export_path, g_free);
  g_clear_pointer (&self->sheet_path, g_free);
  g_clear_pointer (&self->export_kind, g_free);
  g_clear_pointer (&self->compare_paths, g_strfreev);
  g_clear_pointer (&self->script_path, g_free);
  g_clear_handle_id (&self->cancel_source, g_source_remove);

  G_OBJECT_CLASS (nsc_application_parent_class)->finalize (object);
}

static void
nsc_application_class_init (NscApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = nsc_application_finalize;

  app_class->handle_local_options = nsc_application_handle_local_options;
  app_class->activate = nsc_application_activate;
  app_class->startup = nsc_application_startup;
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (app));

  /* Closing, not destroying: a window with a run in progress cancels it and
   * stays alive until the test file is deleted; the application quits after. */
  for (const GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  static const char *developers[] = { "The Nandscope developers", NULL };
  AdwAboutWindow *about;

  about = ADW_ABOUT_WINDOW (adw_about_window_new ());
  gtk_window_set_transient_for (GTK_WINDOW (about), gtk_application_get_active_window (app));
  adw_about_window_set_application_name (about, _("Nandscope"));
  /* The icon's name is the release id's, also in a .Devel build (data/meson.build
   * installs it under that name; the resources carry it for the build folder). */
  adw_about_window_set_application_icon (about, "io.github.nandscope.Nandscope");
  adw_about_window_set_website (about, "https://github.com/nandscope/nandscope");
  adw_about_window_set_issue_url (about, "https://github.com/nandscope/nandscope/issues");
  adw_about_window_set_developer_name (about, _("The Nandscope developers"));
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_comments (about, _("Measures how fast a drive reads and writes, and "
                                          "tells what its cache did to the numbers."));
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  adw_about_window_set_copyright (about, _("© The Nandscope developers"));
  adw_about_window_set_translator_credits (about, _("translator-credits"));
  gtk_window_present (GTK_WINDOW (about));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "about", about_action },
};

static void
nsc_application_init (NscApplication *self)
{
  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Measure how fast a drive reads and writes."));
  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
}

NscApplication *
nsc_application_new (void)
{
  /* The resources use the fixed path whatever the id, so that a .Devel build
   * still finds style.css. */
  return g_object_new (NSC_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/io/github/nandscope/Nandscope",
                       NULL);
}

int
nsc_application_get_exit_status (NscApplication *self)
{
  g_return_val_if_fail (NSC_IS_APPLICATION (self), 1);
  return self->exit_status;
}

int
nsc_application_main (int            argc,
                      char         **argv,
                      NscScriptFunc  script)
{
  g_autoptr(NscApplication) app = NULL;
  int status;

  setlocale (LC_ALL, "");
  nsc_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);

  /* A desktop app running as root could write anywhere with nobody asking; raw
   * devices are for the command line (as root) or, in the app, through UDisks2. */
  if (geteuid () == 0)
    {
      g_printerr ("%s\n", _("Nandscope does not run as root. Start it as your own user; to test "
                             "a raw device as root, use nandscope-cli."));
      return 1;
    }

  app = nsc_application_new ();
  if (script != NULL)
    {
      app->script = script;
      /* A test build's option: not translated. */
      g_application_add_main_option (G_APPLICATION (app), "script", 0, 0, G_OPTION_ARG_FILENAME,
                                     "Take the steps in FILE (tests/gui/nsc-script.c), print "
                                     "what is shown, and quit", "FILE");
    }
  status = g_application_run (G_APPLICATION (app), argc, argv);

  /* --quit-when-done reports the run's outcome as the exit status. */
  if (status == 0)
    status = nsc_application_get_exit_status (app);
  return status;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "nsc-application.h"
#include "nsc-engine.h"
#include "nsc-window.h"

#define EXIT_USAGE 2

struct _NscApplication
{
  AdwApplication parent_instance;

  /* From the command line, for the first window. */
  char     *target;
  char     *preset;
  guint     runs;
  gint64    time_ns;
  guint64   file_size;
  gboolean  run_at_start;
  gboolean  quit_when_done;

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
  { "run", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Start the test at once"), NULL },
  { "quit-when-done", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Quit after the run: exit status 0 on success, 1 on failure"), NULL },
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
  if (g_variant_dict_lookup (options, "size", "&s", &text))
    {
      if (!nsc_parse_size (text, &self->file_size, &error))
        return usage_error (error->message);
      scripted = TRUE;
    }
  if (g_variant_dict_contains (options, "run"))
    self->run_at_start = scripted = TRUE;
  if (g_variant_dict_contains (options, "quit-when-done"))
    self->quit_when_done = scripted = TRUE;

  /* Scripted use runs in this process, so that its options and its exit status
   * are not handed to an instance that is already open. */
  if (scripted)
    g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);

  return -1;
}

static void
on_run_finished (NscWindow      *window,
                 gboolean        success,
                 const char     *message,
                 NscApplication *self)
{
  if (!self->quit_when_done)
    return;

  if (message != NULL)
    g_printerr ("nandscope: %s\n", message);
  self->exit_status = success ? 0 : 1;
  g_application_quit (G_APPLICATION (self));
}

static void
nsc_application_activate (GApplication *app)
{
  NscApplication *self = NSC_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));
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
  nsc_window_set_overrides (win, self->runs, self->time_ns, self->file_size);

  gtk_window_present (GTK_WINDOW (win));

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

  if (self->run_at_start)
    {
      self->run_at_start = FALSE;
      nsc_window_run (win);
    }
}

static void
nsc_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *run_accels[] = { "<Control>r", NULL };
  static const char *cancel_accels[] = { "Escape", NULL };

  G_APPLICATION_CLASS (nsc_application_parent_class)->startup (app);

  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.run", run_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.cancel", cancel_accels);
}

static void
nsc_application_finalize (GObject *object)
{
  NscApplication *self = NSC_APPLICATION (object);

  g_clear_pointer (&self->target, g_free);
  g_clear_pointer (&self->preset, g_free);

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
  adw_about_window_set_application_icon (about, APP_ID);
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

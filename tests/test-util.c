/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "test-util.h"

typedef struct
{
  GMainLoop *loop;
  gboolean   ok;
  GError    *error;
} Wait;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  Wait *w = data;

  w->ok = nsc_runner_run_finish (NSC_RUNNER (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

NscJobResult *
nsc_test_run_job (NscTarget    *t,
                  const NscJob *job,
                  NscBackend    backend)
{
  g_autoptr(GError) error = NULL;
  NscJobResult *res = NULL;

  g_assert_true (nsc_job_run (t, job, backend, NULL, NULL, NULL, &res, &error));
  g_assert_no_error (error);
  g_assert_nonnull (res);
  return res;
}

void
nsc_test_use_language (const char *language)
{
  if (language)
    g_setenv ("LANGUAGE", language, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  /* gettext follows LANGUAGE under C.UTF-8 (not under "C"). A change of locale
   * drops gettext's cached translations; setting the same name again would not. */
  g_assert_nonnull (setlocale (LC_ALL, "C"));
  g_assert_nonnull (setlocale (LC_ALL, "C.UTF-8"));
}

char *
nsc_test_svg_desc (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  const char *open, *close;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  open = strstr (contents, "<desc>");
  close = open ? strstr (open, "</desc>") : NULL;
  g_assert_nonnull (close);
  return g_strndup (open + 6, close - open - 6);
}

NscRunResult *
nsc_test_run_to_end (NscRunner *runner)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Wait w = { loop, FALSE, NULL };

  nsc_runner_run_async (runner, NULL, on_done, &w);
  g_main_loop_run (loop);
  g_assert_no_error (w.error);
  g_assert_true (w.ok);
  return nsc_runner_get_result (runner);
}

void
nsc_test_rm_rf (const char *path)
{
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return;
  if (S_ISDIR (st.st_mode))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          nsc_test_rm_rf (child);
        }
      g_assert_cmpint (g_rmdir (path), ==, 0);
    }
  else
    g_assert_cmpint (g_unlink (path), ==, 0);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

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
